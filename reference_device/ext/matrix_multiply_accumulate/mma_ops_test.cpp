// Unit tests of the reference device's MMA op through a fake OpContext: full executions for every row of
// the OpenCL environment table at N = 8 and N = 16 (expected values from mma_test_cases.h), undefined-
// behaviour detection, the build-time table check and the planted faults.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <set>

#include "reference_device/ext/matrix_multiply_accumulate/mma_ops.h"
#include "reference_device/ext/matrix_multiply_accumulate/mma_test_cases.h"

namespace refdev::spirv::mma {
namespace {

using namespace test;

// Operands 0..3 (K Dim, A, B, C) per lane, the literal operand 4, and one result slot per lane.
class FakeContext : public OpContext {
public:
    explicit FakeContext(uint32_t lanes) : lanes_(lanes), max_lanes_(lanes), active_(lanes, true) {
        types_[0] = makeType('i', 32, 1);
        values_.assign(4, std::vector<std::vector<uint8_t>>(lanes));
        results_.assign(lanes, std::vector<uint8_t>(64, 0xA5));
    }
    void setWords(uint32_t k, uint32_t lane, const std::vector<uint32_t>& words, uint32_t bits) {
        auto& v = values_[k][lane];
        v.assign(words.size() * bits / 8, 0);
        for (size_t c = 0; c < words.size(); ++c) std::memcpy(v.data() + c * bits / 8, &words[c], bits / 8);
    }

    uint32_t opcode() const override { return kOp; }
    const char* opName() const override { return kOpName; }
    uint32_t operandCount() const override { return has_literal_ ? 5 : 4; }
    const TypeInfo& resultType() const override { return result_type_; }
    const TypeInfo& operandType(uint32_t k) const override { return k < 4 ? types_[k] : literal_type_; }
    bool isConstant(uint32_t k) const override { return k == 0 && kdim_constant_; }
    uint32_t literal(uint32_t k) const override { return k == 4 ? literal_ : 0; }
    uint32_t lanes() const override { return lanes_; }
    uint32_t maxLanes() const override { return max_lanes_; }
    bool active(uint32_t lane) const override { return active_.at(lane); }
    const uint8_t* operand(uint32_t lane, uint32_t k) const override {
        if (k == 4) return reinterpret_cast<const uint8_t*>(&literal_);
        return values_.at(k).at(lane).data();
    }
    uint8_t* result(uint32_t lane) override { return results_.at(lane).data(); }
    uint8_t* memory(uint32_t lane, uint64_t, size_t, bool) override {
        undefinedBehavior(lane, "MMA accesses no memory");
        return nullptr;
    }
    const ImageDesc* image(uint32_t, uint32_t) override { return nullptr; }
    const Faults& faults() const override { return faults_; }
    const Profile* profile() const override { return profile_; }
    uint32_t siteOrdinal() const override { return site_; }
    uint64_t workGroupLinearId() const override { return group_; }
    uint64_t* faultState(uint32_t slot) override {
        return slot < kFaultStateSlots ? &fault_state_[slot] : nullptr;
    }
    void undefinedBehavior(uint32_t, const std::string& what) override {
        if (error_.empty()) error_ = what;
    }
    bool failed() const override { return !error_.empty(); }

    uint32_t lanes_, max_lanes_;
    std::vector<bool> active_;
    TypeInfo result_type_, types_[4], literal_type_;
    std::vector<std::vector<std::vector<uint8_t>>> values_;
    std::vector<std::vector<uint8_t>> results_;
    uint32_t literal_ = 0;
    bool has_literal_ = true, kdim_constant_ = true;
    const Profile* profile_ = nullptr;
    uint32_t site_ = 0;
    uint64_t group_ = 0;
    uint64_t fault_state_[kFaultStateSlots] = {};
    Faults faults_;
    std::string error_;
};

// Lane operands packed as the spec describes them.
void load(FakeContext& ctx, const Case& cs) {
    ctx.result_type_ = cs.resultType();
    ctx.types_[1] = cs.aType(), ctx.types_[2] = cs.bType();
    ctx.types_[3] = ctx.result_type_;
    ctx.literal_ = cs.operands();
    for (uint32_t i = 0; i < cs.n; ++i) {
        const LaneOperands o = laneOperands(cs, i);
        ctx.setWords(0, i, {cs.k()}, 32);
        ctx.setWords(1, i, o.a, ctx.types_[1].component_bits);
        ctx.setWords(2, i, o.b, 32);
        ctx.setWords(3, i, o.c, ctx.types_[3].component_bits);
    }
}

struct Outcome {
    Columns result;
    std::string error;
};

Outcome run(const Case& cs, const Profile* profile, const std::string& faults = "",
            const std::function<void(FakeContext&)>& tweak = nullptr) {
    FakeContext ctx(cs.n);
    ctx.profile_ = profile;
    std::string error;
    EXPECT_TRUE(ctx.faults_.parse(faults, &error)) << error;
    load(ctx, cs);
    if (tweak) tweak(ctx);
    execute(ctx);
    Outcome o;
    o.error = ctx.error_;
    const uint32_t bytes = ctx.result_type_.component_bits / 8;
    o.result.assign(ctx.lanes_, std::vector<uint32_t>(cs.m));
    for (uint32_t l = 0; l < ctx.lanes_; ++l)
        for (uint32_t r = 0; r < cs.m; ++r)
            std::memcpy(&o.result[l][r], ctx.results_[l].data() + r * bytes, bytes);
    return o;
}

TEST(MmaOps, EveryRowAtEveryM) {
    uint32_t seed = 1;
    for (auto [n, row] : kAllRows)
        for (uint32_t m : {1u, 2u, 4u, 8u})
            for (int signs = 0; signs < 4; ++signs) {
                Case cs = randomCase(row, n, m, seed++, signs & 1, signs & 2);
                if (!cs.integer() && signs) continue;
                Outcome o = run(cs, profileFor(n));
                ASSERT_EQ(o.error, "") << rowName(row) << " N " << n << " M " << m;
                EXPECT_EQ(o.result, expected(cs))
                    << rowName(row) << " N " << n << " M " << m << " signs " << signs;
            }
}

TEST(MmaOps, IntegerResultWrapsToLow32Bits) {
    Case cs = randomCase(Row::Int8, 16, 2, 3);
    std::fill(cs.a.begin(), cs.a.end(), 127);
    std::fill(cs.b.begin(), cs.b.end(), 127);
    std::fill(cs.c.begin(), cs.c.end(), int64_t(INT32_MAX) - 1000);
    Outcome o = run(cs, &hpc());
    ASSERT_EQ(o.error, "");
    const uint32_t want = uint32_t(int64_t(INT32_MAX) - 1000 + 32 * 127 * 127);
    EXPECT_LT(int32_t(want), 0);
    for (const auto& lane : o.result)
        for (uint32_t v : lane) EXPECT_EQ(v, want);
    EXPECT_EQ(o.result, expected(cs));
}

TEST(MmaOps, SignedBitsChooseTheInterpretation) {
    for (Row row : {Row::Int8, Row::Int4}) {
        Case cs = randomCase(row, 8, 1, 4);
        const int64_t all_ones = row == Row::Int8 ? 0xFF : 0xF;
        std::fill(cs.a.begin(), cs.a.end(), all_ones);  // 255 / 15 unsigned, -1 signed
        std::fill(cs.b.begin(), cs.b.end(), 1);
        std::fill(cs.c.begin(), cs.c.end(), 0);
        const int64_t k = cs.k();
        for (int signs = 0; signs < 4; ++signs) {
            cs.a_signed = signs & 1, cs.b_signed = signs & 2;
            Outcome o = run(cs, &hpg());
            ASSERT_EQ(o.error, "");
            EXPECT_EQ(int32_t(o.result[3][0]), cs.a_signed ? -k : k * all_ones)
                << rowName(row) << " " << signs;
        }
    }
}

TEST(MmaOps, FloatResultsRoundToNearestEven) {
    Case cs = randomCase(Row::Fp16F16, 16, 1, 5);
    std::fill(cs.a.begin(), cs.a.end(), 0);
    std::fill(cs.b.begin(), cs.b.end(), 0);
    std::fill(cs.c.begin(), cs.c.end(), 0);
    cs.a[0] = 1024, cs.a[1] = 1;
    for (uint32_t col = 0; col < 16; ++col) cs.b[0 * 16 + col] = 2, cs.b[1 * 16 + col] = int64_t(col % 4);
    Outcome o = run(cs, &hpc());
    ASSERT_EQ(o.error, "");
    // 2048 + {0, 1, 2, 3}: fp16 steps by 2 there, ties go to the even significand.
    const uint32_t want[4] = {halfBits(2048), halfBits(2048), halfBits(2050), halfBits(2052)};
    for (uint32_t col = 0; col < 16; ++col) EXPECT_EQ(o.result[col][0], want[col % 4]) << col;
}

TEST(MmaOps, Tf32IgnoresTheLow13SignificandBits) {
    Case cs = randomCase(Row::Tf32, 16, 4, 6);
    Outcome clean = run(cs, &hpc());
    Outcome noisy = run(cs, &hpc(), "", [](FakeContext& c) {
        for (uint32_t l = 0; l < 16; ++l)
            for (uint32_t k : {1u, 2u})
                for (size_t off = 0; off < c.values_[k][l].size(); off += 4) c.values_[k][l][off] |= 0xFF;
    });
    ASSERT_EQ(clean.error, "");
    ASSERT_EQ(noisy.error, "");
    EXPECT_EQ(clean.result, noisy.result);
    EXPECT_EQ(clean.result, expected(cs));
}

TEST(MmaOps, RunsWithoutAProfile) {  // a context without a profile skips the device-N check
    Case cs = randomCase(Row::Int8, 8, 2, 7);
    Outcome o = run(cs, nullptr);
    ASSERT_EQ(o.error, "");
    EXPECT_EQ(o.result, expected(cs));
}

// ---------------------------------------------------------------------------------------------------------
struct UbCase {
    const char* what;
    uint32_t n;
    const Profile* profile;
    std::function<void(FakeContext&)> mutate;
    const char* expect;  // substring of the report
};

TEST(MmaOps, UndefinedBehaviourIsReported) {
    const UbCase cases[] = {
        {"partial sub-group", 16, &hpc(), [](FakeContext& c) { c.max_lanes_ = 32; },
         "partial sub-group (16 of 32 invocations)"},
        {"inactive invocation", 16, &hpc(),
         [](FakeContext& c) { c.active_[5] = false, c.active_[9] = false; },
         "all invocations within the subgroup execute the same dynamic instance of this instruction "
         "(invocations 5, 9 did not"},
        {"N = 8 sub-group on an N = 16 device", 8, &hpc(), nullptr, "minimum sub-group size, 16 (OpenCL"},
        {"N = 16 sub-group on an N = 8 device", 16, &hpg(), nullptr, "minimum sub-group size, 8 (OpenCL"},
        {"non-constant K Dim", 16, &hpc(), [](FakeContext& c) { c.kdim_constant_ = false; },
         "K Dim must come from a constant instruction"},
        {"K Dim not in the table", 16, &hpc(),
         [](FakeContext& c) {
             for (uint32_t l = 0; l < 16; ++l) c.setWords(0, l, {48}, 32);
         },
         "no row of the cl_intel_subgroup_matrix_multiply_accumulate table for N = 16 matches K = 48"},
        {"K Dim of another row", 16, &hpc(),
         [](FakeContext& c) {
             for (uint32_t l = 0; l < 16; ++l) c.setWords(0, l, {64}, 32);
         },
         "operands must be exactly 0xC0"},
        {"omitted operands", 16, &hpc(), [](FakeContext& c) { c.has_literal_ = false; }, "operands 0x0"},
    };
    for (const UbCase& u : cases) {
        Case cs = randomCase(Row::Int8, u.n, 4, 8);
        Outcome o = run(cs, u.profile, "", u.mutate);
        EXPECT_NE(o.error.find(u.expect), std::string::npos) << u.what << ": " << o.error;
        EXPECT_EQ(o.error.rfind(std::string(kOpName) + ": ", 0), 0u) << u.what << ": " << o.error;
        for (const auto& lane : o.result)
            for (uint32_t v : lane) EXPECT_EQ(v, 0xA5A5A5A5u) << u.what << ": Result written despite UB";
    }
}

// ---------------------------------------------------------------------------------------------------------
// The build-time check through ExtBuildView.
struct View {
    std::deque<TypeInfo> types;
    ExtBuildView view;

    View(const Profile* profile, TypeInfo result, uint32_t k, TypeInfo a, TypeInfo b, TypeInfo c,
         int64_t operands, bool k_constant = true) {
        view.profile = profile;
        types.push_back(result);
        view.result = &types.back();
        TypeInfo kt = makeType('i', 32, 1);
        for (const TypeInfo& t : {kt, a, b, c}) {
            types.push_back(t);
            view.operand_types.push_back(&types.back());
            view.int_constant.push_back(false);
            view.int_value.push_back(0);
            view.literal.push_back(0);
        }
        view.int_constant[0] = k_constant;
        view.int_value[0] = k_constant ? k : 0;
        if (operands >= 0) {
            view.operand_types.push_back(nullptr);
            view.int_constant.push_back(false);
            view.int_value.push_back(0);
            view.literal.push_back(uint32_t(operands));
        }
    }
    static View of(const Case& cs, const Profile* profile) {
        return View(profile, cs.resultType(), cs.k(), cs.aType(), cs.bType(), cs.resultType(), cs.operands());
    }
};

TEST(MmaBuildCheck, AcceptsEveryRow) {
    for (auto [n, row] : kAllRows)
        for (uint32_t m : {1u, 2u, 4u, 8u})
            for (int signs = 0; signs < 4; ++signs) {
                Case cs = randomCase(row, n, m, 1, signs & 1, signs & 2);
                if (!cs.integer() && signs) continue;
                View v = View::of(cs, profileFor(n));
                EXPECT_EQ(checkBuild(v.view), "") << rowName(row) << " N " << n << " M " << m << " " << signs;
            }
}

TEST(MmaBuildCheck, NamesTheRuleItBreaks) {
    const TypeInfo i32x4 = makeType('i', 32, 4), i16x4 = makeType('i', 16, 4), i32x8 = makeType('i', 32, 8);
    const std::string prefix = std::string(kOpName) + ": ";
    // The example of the brief, verbatim.
    EXPECT_EQ(
        checkBuild(View(&hpg(), i32x4, 32, i16x4, i32x8, i32x4, 0x30).view),
        prefix +
            "no row of the cl_intel_subgroup_matrix_multiply_accumulate table for N = 8 matches K = 32, "
            "Result 4 x i32, A 4 x i16, B 8 x i32, C 4 x i32, operands 0x30 (A must be 4 x i32 at N = 8)");
    Profile no_tf32 = hpc();
    no_tf32.extensions.erase(std::remove_if(no_tf32.extensions.begin(), no_tf32.extensions.end(),
                                            [](const ExtensionEntry& e) { return e.name == kTf32Extension; }),
                             no_tf32.extensions.end());
    Profile no_mma = hpc();
    no_mma.mma_n = 0;
    Case tf32 = randomCase(Row::Tf32, 16, 4, 1);
    Case n16 = randomCase(Row::Int8, 16, 4, 1);
    struct Reject {
        const char* what;
        View view;
        const char* expect;
    };
    const Reject rejects[] = {
        {"wrong mask", View(&hpg(), i32x4, 32, i32x4, i32x8, i32x4, 0xC0),
         "operands 0xC0 (operands must be exactly 0x30 (APackedInt8 | BPackedInt8), optionally with ASigned "
         "0x1 and BSigned 0x2 at N = 8, K = 32)"},
        {"extra bit", View(&hpg(), i32x4, 32, i32x4, i32x8, i32x4, 0x30 | 0x4),
         "operands 0x34 (operands must"},
        {"float mask on an integer row", View(&hpc(), i32x4, 16, i16x4, i32x8, i32x4, 0xC00),
         "(Result must be 4 x f32 at N = 16, K = 16)"},
        {"omitted operands", View(&hpg(), i32x4, 32, i32x4, i32x8, i32x4, -1),
         "operands 0x0 (operands must be exactly 0x30"},
        {"M = 3",
         View(&hpg(), makeType('i', 32, 3), 32, makeType('i', 32, 3), i32x8, makeType('i', 32, 3), 0x30),
         "M, the number of components in Result Type, must be 1, 2, 4 or 8 (OpenCL environment), not 3"},
        {"non-constant K Dim", View(&hpg(), i32x4, 32, i32x4, i32x8, i32x4, 0x30, false),
         "K Dim must come from a constant instruction with scalar 32-bit integer type"},
        {"K not in the table", View(&hpg(), i32x4, 48, i32x4, i32x8, i32x4, 0x30),
         "(K must be 16, 32 or 64 at N = 8)"},
        {"TF32 without the _tf32 extension", View::of(tf32, &no_tf32),
         "is the ATF32 | BTF32 row, which needs cl_intel_subgroup_matrix_multiply_accumulate_tf32"},
        {"N = 16 row on an N = 8 device", View::of(n16, &hpg()), "(A must be 4 x i32 at N = 8)"},
        {"N = 8 row on an N = 16 device", View::of(randomCase(Row::Int8, 8, 4, 1), &hpc()),
         "(A must be 4 x i16 at N = 16)"},
        {"TF32 A with M components",
         View(&hpc(), makeType('f', 32, 4), 8, makeType('f', 32, 4), makeType('f', 32, 8),
              makeType('f', 32, 4), 0x300),
         "(A must be 2 x f32 at N = 16)"},
        {"no MMA", View::of(n16, &no_mma), "the device has no MMA"},
    };
    for (const Reject& r : rejects) {
        std::string why = checkBuild(r.view.view);
        EXPECT_NE(why, "") << r.what;
        EXPECT_EQ(why.rfind(prefix, 0), 0u) << r.what << ": " << why;
        EXPECT_NE(why.find(r.expect), std::string::npos) << r.what << ": " << why;
    }
    // The bf16 -> bf16 row needs exactly 0x300C: the bf16 pair alone is refused.
    Case bf = randomCase(Row::Bf16Bf16, 16, 4, 1);
    View v = View::of(bf, &hpc());
    v.view.literal[4] = 0x3000;
    EXPECT_NE(checkBuild(v.view).find("operands must be exactly 0x300C"), std::string::npos)
        << checkBuild(v.view);
    v.view.literal[4] = 0x300C | 0x1;
    EXPECT_NE(checkBuild(v.view), "");
    // A K Dim of another width is refused even with a known value.
    View k16(&hpg(), i32x4, 32, i32x4, i32x8, i32x4, 0x30);
    k16.types[1] = makeType('i', 16, 1);
    EXPECT_NE(checkBuild(k16.view).find("32-bit integer"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------------------
// Each fault changes a result in the situation it describes, and nothing where that situation is absent.
struct FaultScenario {
    const char* fault;
    Row row;
    uint32_t n, m;
    bool a_signed, b_signed;
    std::function<void(FakeContext&)> tweak;
    std::function<void(Case&)> shape_data = nullptr;
};

void overflow(Case& cs) {
    std::fill(cs.a.begin(), cs.a.end(), 127);
    std::fill(cs.b.begin(), cs.b.end(), 127);
    std::fill(cs.c.begin(), cs.c.end(), int64_t(INT32_MAX) - 5);
}

bool changes(const FaultScenario& s) {
    Case cs = randomCase(s.row, s.n, s.m, 11, s.a_signed, s.b_signed);
    if (s.shape_data) s.shape_data(cs);
    Outcome clean = run(cs, profileFor(s.n), "", s.tweak);
    Outcome faulty = run(cs, profileFor(s.n), s.fault, s.tweak);
    EXPECT_EQ(clean.error, "") << s.fault;
    EXPECT_EQ(faulty.error, "") << s.fault;
    EXPECT_EQ(clean.result, expected(cs)) << s.fault;
    return clean.result != faulty.result;
}

TEST(MmaFaults, EveryFaultChangesItsScenario) {
    auto site1 = [](FakeContext& c) { c.site_ = 1; };
    auto group3 = [](FakeContext& c) { c.group_ = 3; };
    const FaultScenario hits[] = {
        {"mma_c_ignored", Row::Fp16F32, 16, 2, false, false, nullptr},
        {"mma_a_signed_ignored", Row::Int8, 16, 4, true, false, nullptr},
        {"mma_b_signed_ignored", Row::Int4, 8, 4, false, true, nullptr},
        {"mma_a_columns_reversed", Row::Int8, 16, 4, true, true, nullptr},
        {"mma_a_columns_reversed", Row::Fp16F32, 8, 2, false, false, nullptr},
        {"mma_b_vnni_rows_swapped", Row::Bf16F32, 16, 1, false, false, nullptr},
        {"mma_b_vnni_rows_swapped", Row::Int8, 8, 1, true, true, nullptr},
        {"mma_int4_nibbles_swapped", Row::Int4, 16, 2, true, true, nullptr},
        {"mma_int4_nibbles_swapped", Row::Int4, 8, 2, false, false, nullptr},
        {"mma_tf32_a_interleave_wrong", Row::Tf32, 16, 1, false, false, nullptr},
        {"mma_tf32_a_interleave_wrong", Row::Tf32, 16, 2, false, false, nullptr},
        {"mma_tf32_a_interleave_wrong", Row::Tf32, 16, 4, false, false, nullptr},
        {"mma_tf32_a_interleave_wrong", Row::Tf32, 16, 8, false, false, nullptr},
        {"mma_m_from_a_components", Row::Tf32, 16, 2, false, false, nullptr},
        {"mma_m_from_a_components", Row::Tf32, 16, 8, false, false, nullptr},
        {"mma_half_k", Row::Fp16F16, 16, 1, false, false, nullptr},
        {"mma_int_saturate", Row::Int8, 16, 2, true, true, nullptr, overflow},
        {"mma_bf16_c_as_fp16", Row::Bf16Bf16, 16, 4, false, false, nullptr},
        {"mma_second_site_b_zero", Row::Int8, 8, 1, true, true, site1},
        {"mma_lane0_broadcast", Row::Tf32, 16, 1, false, false, nullptr},
        {"mma_n8_uses_16_lane_layout", Row::Int8, 8, 4, true, true, nullptr},
        {"mma_n8_uses_16_lane_layout", Row::Bf16F32, 8, 1, false, false, nullptr},
        {"mma_odd_workgroups_zero", Row::Int4, 16, 8, true, true, group3},
        {"mma_reads_ignored_a_lane", Row::Tf32, 16, 1, false, false, nullptr},
    };
    std::set<std::string> covered;
    for (const FaultScenario& s : hits) {
        EXPECT_TRUE(changes(s)) << s.fault << " changed nothing for " << rowName(s.row) << " N " << s.n
                                << " M " << s.m;
        covered.insert(s.fault);
    }
    for (const FaultInfo& f : mmaFaults()) EXPECT_EQ(covered.count(f.name), 1u) << f.name << " is not tested";
    EXPECT_EQ(covered.size(), mmaFaults().size());
}

TEST(MmaFaults, NoFaultActsOutsideItsSituation) {
    auto site0 = [](FakeContext& c) { c.site_ = 0; };
    auto group2 = [](FakeContext& c) { c.group_ = 2; };
    const FaultScenario misses[] = {
        {"mma_a_signed_ignored", Row::Int8, 16, 4, false, true, nullptr},        // A unsigned anyway
        {"mma_a_signed_ignored", Row::Fp16F32, 16, 4, false, false, nullptr},    // no integers
        {"mma_b_signed_ignored", Row::Int4, 8, 4, true, false, nullptr},         // B unsigned anyway
        {"mma_a_columns_reversed", Row::Fp16F32, 16, 4, false, false, nullptr},  // one column per component
        {"mma_a_columns_reversed", Row::Tf32, 16, 4, false, false, nullptr},
        {"mma_b_vnni_rows_swapped", Row::Tf32, 16, 4, false, false, nullptr},  // B not packed
        {"mma_int4_nibbles_swapped", Row::Int8, 16, 4, true, true, nullptr},
        {"mma_int4_nibbles_swapped", Row::Fp16F32, 8, 4, false, false, nullptr},
        {"mma_tf32_a_interleave_wrong", Row::Fp16F32, 16, 4, false, false, nullptr},
        {"mma_tf32_a_interleave_wrong", Row::Int8, 8, 4, true, true, nullptr},
        {"mma_m_from_a_components", Row::Tf32, 16, 1, false, false, nullptr},  // ceil(1/2) = 1 = M
        {"mma_m_from_a_components", Row::Int8, 16, 8, true, true, nullptr},
        {"mma_int_saturate", Row::Int8, 16, 4, true, true, nullptr},         // no overflow
        {"mma_bf16_c_as_fp16", Row::Bf16F32, 16, 4, false, false, nullptr},  // C is f32
        {"mma_bf16_c_as_fp16", Row::Fp16F16, 16, 4, false, false, nullptr},
        {"mma_second_site_b_zero", Row::Int8, 8, 4, true, true, site0},
        {"mma_n8_uses_16_lane_layout", Row::Int8, 16, 4, true, true, nullptr},
        {"mma_n8_uses_16_lane_layout", Row::Fp16F32, 16, 4, false, false, nullptr},
        {"mma_odd_workgroups_zero", Row::Int8, 16, 4, true, true, group2},
        {"mma_reads_ignored_a_lane", Row::Tf32, 16, 2, false, false, nullptr},     // lanes 8-15 pass row 1
        {"mma_reads_ignored_a_lane", Row::Fp16F32, 16, 1, false, false, nullptr},  // N = K: none ignored
    };
    for (const FaultScenario& s : misses)
        EXPECT_FALSE(changes(s)) << s.fault << " changed " << rowName(s.row) << " N " << s.n << " M " << s.m;
}

// mma_nan_late_k_step (compute-runtime#1000): a sub-group's first 16 MMAs with 16-bit float operands are
// exact, the 17th on is NaN; integer MMAs never change.
TEST(MmaCompositionFaults, NanLateKStepFromTheSeventeenthExecution) {
    for (Row row : {Row::Fp16F32, Row::Bf16F32, Row::Int8}) {
        const Case cs = randomCase(row, 16, 8, 7, true, true);
        FakeContext ctx(cs.n);
        ctx.profile_ = profileFor(cs.n);
        std::string error;
        ASSERT_TRUE(ctx.faults_.parse("mma_nan_late_k_step", &error)) << error;
        load(ctx, cs);
        for (uint32_t i = 1; i <= 17; ++i) {
            execute(ctx);
            ASSERT_EQ(ctx.error_, "");
            Columns got(ctx.lanes_, std::vector<uint32_t>(cs.m));
            for (uint32_t l = 0; l < ctx.lanes_; ++l)
                for (uint32_t r = 0; r < cs.m; ++r)
                    std::memcpy(&got[l][r], ctx.results_[l].data() + r * 4, 4);
            const bool late = i == 17 && row != Row::Int8;
            EXPECT_EQ(got == expected(cs), !late) << rowName(row) << " execution " << i;
            // fp32 Result: every element NaN on the late execution.
            const uint32_t bits = got[3][1];
            const bool nan = (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
            if (row != Row::Int8) EXPECT_EQ(nan, late) << rowName(row) << " execution " << i;
        }
    }
}

// mma_wrong_after_first_workgroup (intel/llvm#21741): exact in work-group 0, wrong in work-group 1.
TEST(MmaCompositionFaults, WrongAfterFirstWorkgroup) {
    const Case cs = randomCase(Row::Fp16F32, 16, 8, 11, true, true);
    for (uint64_t group : {0u, 1u}) {
        const Outcome o = run(cs, profileFor(cs.n), "mma_wrong_after_first_workgroup",
                              [group](FakeContext& ctx) { ctx.group_ = group; });
        ASSERT_EQ(o.error, "");
        EXPECT_EQ(o.result == expected(cs), group == 0) << "work-group " << group;
    }
}

// mma_chain_drops_c (a composition fault, mmaCompositionFaults): the same site executed again by the same
// sub-group reads C as zero; its first execution, and another site's first, are exact.
TEST(MmaCompositionFaults, ChainDropsCFromTheSecondExecutionOfASite) {
    const Case cs = randomCase(Row::Int8, 16, 4, 5, true, true);
    for (const char* faults : {"", "mma_chain_drops_c"}) {
        FakeContext ctx(cs.n);
        ctx.profile_ = profileFor(cs.n);
        std::string error;
        ASSERT_TRUE(ctx.faults_.parse(faults, &error)) << error;
        load(ctx, cs);
        std::vector<Columns> results;
        for (uint32_t site : {0u, 1u, 0u}) {
            ctx.site_ = site;
            execute(ctx);
            ASSERT_EQ(ctx.error_, "");
            Columns got(ctx.lanes_, std::vector<uint32_t>(cs.m));
            for (uint32_t l = 0; l < ctx.lanes_; ++l)
                for (uint32_t r = 0; r < cs.m; ++r)
                    std::memcpy(&got[l][r], ctx.results_[l].data() + r * 4, 4);
            results.push_back(got);
        }
        const bool faulty = *faults != 0;
        EXPECT_EQ(results[0], expected(cs)) << faults;
        EXPECT_EQ(results[1], expected(cs)) << faults << ": another site's first execution";
        EXPECT_EQ(results[2] == expected(cs), !faulty) << faults << ": the first site again";
    }
    EXPECT_EQ(mmaCompositionFaults().size(), 3u);
}

TEST(MmaOps, RegistersTheInstruction) {
    ExtOpTable table;
    registerMatrixMultiplyAccumulateOps(table);
    const ExtOpInfo* info = table.find(kOp);
    ASSERT_NE(info, nullptr);
    EXPECT_STREQ(info->name, "OpSubgroupMatrixMultiplyAccumulateINTEL");
    EXPECT_TRUE(info->has_result);
    EXPECT_EQ(info->min_operands, 4u);
    EXPECT_EQ(info->max_operands, 5u);
    EXPECT_EQ(info->first_literal, 4u);
    EXPECT_EQ(info->capabilities, std::vector<uint32_t>{kCapability});
    EXPECT_NE(info->check, nullptr);
    EXPECT_EQ(mmaFaults().size(), 16u);
    EXPECT_EQ(hpc().mma_n, 16u);
    EXPECT_EQ(hpg().mma_n, 8u);
    EXPECT_TRUE(hpc().hasExtension(kTf32Extension));
    EXPECT_FALSE(hpg().hasExtension(kTf32Extension));
}

}  // namespace
}  // namespace refdev::spirv::mma
