// What a rejected module means, by tier: Fail in phase build (core) or NotSupported (device_specific).
#include "test_common/harness/launch/case_runner.h"

#include <gtest/gtest.h>

#include <memory>

#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/reports/recorder.h"
#include "test_common/harness/selection/manifest.h"

namespace cts {
namespace {

constexpr const char* kLog =
    "Compilation started\nremark: vectorized\nerror: undefined reference to "
    "`__builtin_spirv_OpSubgroupShuffle'\n"
    "second line";

// A family whose run ends the way createKernel ends when the compiler rejects the module.
class RejectedModuleFamily : public Family {
public:
    std::string name() const override { return "rejected"; }
    Outcome run(const CaseSpec&, RunContext&) const override {
        throw BuildFailure(
            "build of m.spv failed: clBuildProgram: CL_BUILD_PROGRAM_FAILURE\n" + std::string(kLog), kLog);
    }
};

class RunCaseTiers : public ::testing::Test {
protected:
    void SetUp() override {
        registry.addFamily(std::make_unique<RejectedModuleFamily>());
        dut.programs = std::make_unique<ProgramCache>(nullptr, nullptr);
    }
    CaseResult run(Tier tier) {
        CaseSpec spec;
        spec.name = "subgroups.x";
        spec.family = "rejected";
        spec.tier = tier;
        return runCase(spec, registry, dut, RunSettings{});
    }
    Registry registry;
    DeviceUnderTest dut;
};

TEST_F(RunCaseTiers, CoreBuildFailureIsAFailInPhaseBuildWithTheLog) {
    CaseResult r = run(Tier::Core);
    EXPECT_EQ(r.status, Status::Fail);
    EXPECT_EQ(r.phase, "build");
    EXPECT_EQ(r.build_log, kLog);
    EXPECT_EQ(r.tier, Tier::Core);
    EXPECT_NE(r.message.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << r.message;
}

TEST_F(RunCaseTiers, DeviceSpecificBuildFailureIsNotSupportedWithTheFirstErrorLine) {
    CaseResult r = run(Tier::DeviceSpecific);
    EXPECT_EQ(r.status, Status::NotSupported);
    EXPECT_EQ(r.phase, "");
    EXPECT_EQ(r.tier, Tier::DeviceSpecific);
    EXPECT_EQ(r.message,
              "device-specific module not accepted by this device's compiler: error: undefined reference to "
              "`__builtin_spirv_OpSubgroupShuffle'");
}

TEST(RecorderTiers, CountsPerTierAndListsBuildFailures) {
    LineLog log;
    Recorder rec(3, false, log, [](const std::string& n) { return n; });
    rec.setTiers({{"a", Tier::Core}, {"b", Tier::DeviceSpecific}, {"c", Tier::Core}});
    CaseResult a{"a", Status::Fail, "m"};
    a.phase = "build";
    a.build_log = "x\nerror: no";
    rec.finished(a);
    rec.finished(CaseResult{"b", Status::NotSupported, "device-specific module not accepted"});
    rec.finished(CaseResult{"c", Status::Pass, ""});
    EXPECT_EQ(rec.tally(Tier::Core).failed, 1u);
    EXPECT_EQ(rec.tally(Tier::Core).build_failed, 1u);
    EXPECT_EQ(rec.tally(Tier::Core).passed, 1u);
    EXPECT_EQ(rec.tally(Tier::DeviceSpecific).skipped, 1u);
    EXPECT_EQ(rec.results()[1].tier, Tier::DeviceSpecific);  // the tier comes from the selection
    ASSERT_EQ(rec.buildFailures().size(), 1u);
    EXPECT_EQ(rec.buildFailures()[0], "  a: error: no");
    EXPECT_NE(rec.tally().summary().find("1 failed (1 in phase build)"), std::string::npos)
        << rec.tally().summary();
}

// Phase times (report.h PhaseTimes): a family that builds one module (the cache has no context, so the build
// fails quickly, but it is a build all the same) and, for a case named "*.launch", launches a kernel on no
// queue (a failed launch, timed all the same).
class PhasesFamily : public Family {
public:
    std::string name() const override { return "phases"; }
    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        static const std::vector<uint32_t> words = {0x07230203, 0x00010000, 0, 1, 0};
        ctx.programs.get(words);
        if (spec.name.size() > 7 && spec.name.compare(spec.name.size() - 7, 7, ".launch") == 0) {
            const size_t global = 1;
            runNDRange(ctx, static_cast<cl_kernel>(nullptr), 1, &global, nullptr);
        }
        return Outcome::pass();
    }
};

class RunCasePhases : public ::testing::Test {
protected:
    void SetUp() override {
        registry.addFamily(std::make_unique<PhasesFamily>());
        dut.programs = std::make_unique<ProgramCache>(nullptr, nullptr);
    }
    CaseResult run(const std::string& name) {
        CaseSpec spec;
        spec.name = name;
        spec.family = "phases";
        return runCase(spec, registry, dut, RunSettings{});
    }
    Registry registry;
    DeviceUnderTest dut;
};

TEST_F(RunCasePhases, TheFirstCaseOfAModuleBuildsItTheNextOneHitsTheCache) {
    CaseResult first = run("p.first");
    EXPECT_EQ(first.phases.builds, 1u);
    EXPECT_EQ(first.phases.cache_hits, 0u);
    EXPECT_GT(first.phases.build_ms, 0.0);
    EXPECT_LE(first.phases.build_ms, first.duration_ms);
    EXPECT_EQ(first.phases.kernel_ms, 0.0);
    EXPECT_DOUBLE_EQ(first.phases.check_ms, first.duration_ms - first.phases.build_ms);
    EXPECT_EQ(first.phases.worker_start_ms, 0.0);  // in process: no worker
    CaseResult second = run("p.second");
    EXPECT_EQ(second.phases.builds, 0u);
    EXPECT_EQ(second.phases.cache_hits, 1u);
    EXPECT_EQ(second.phases.build_ms, 0.0);
}

TEST_F(RunCasePhases, ALaunchIsKernelTimeEvenWhenItFails) {
    CaseResult r = run("p.launch");
    EXPECT_EQ(r.status, Status::Fail);  // no queue
    EXPECT_NE(r.message.find("clEnqueueNDRangeKernel"), std::string::npos) << r.message;
    EXPECT_GT(r.phases.kernel_ms, 0.0);
    EXPECT_NEAR(r.phases.check_ms, r.duration_ms - r.phases.build_ms - r.phases.kernel_ms, 1e-9);
}

// A family that declares two parameters and would pass if it ran.
class SchemaFamily : public Family {
public:
    std::string name() const override { return "schema"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{{"width", ParamType::UInt}, {"op", ParamType::String, kOptional}};
        return schema;
    }
    Outcome run(const CaseSpec&, RunContext&) const override { return Outcome::pass(); }
};

TEST(RunCaseSchema, ParametersOutsideTheFamilysSchemaAreAnInternalErrorNamingCaseAndParameter) {
    Registry registry;
    registry.addFamily(std::make_unique<SchemaFamily>());
    DeviceInfo device;
    CaseSpec spec;
    spec.name = "subgroups.schema_case";
    spec.family = "schema";
    spec.origin = "scripts/assets/generators/g.py";
    spec.params.set("width", "4", ParamType::Int);
    EXPECT_EQ(checkCaseSupport(spec, registry, device).status, Status::Pass);
    spec.params.set("width", "4");  // the string "4"
    Outcome o = checkCaseSupport(spec, registry, device);
    EXPECT_EQ(o.status, Status::InternalError);
    EXPECT_EQ(o.message,
              "case 'subgroups.schema_case' (from scripts/assets/generators/g.py): parameter 'width' is "
              "string 4, the "
              "family reads uint (family schema)");
    spec.params = Params();
    spec.params.set("width", "4", ParamType::Int);
    spec.params.set("lanes", "[1]", ParamType::IntList);
    o = checkCaseSupport(spec, registry, device);
    EXPECT_EQ(o.status, Status::InternalError);
    EXPECT_NE(o.message.find("unknown parameter 'lanes'"), std::string::npos) << o.message;
    // Checked before the requirements: a device lacking them does not hide the harness's problem.
    spec.requires = {"fp64"};
    EXPECT_EQ(checkCaseSupport(spec, registry, device).status, Status::InternalError);
}

// A device reporting the case's extension below its token's version: the case runs as device_specific
// (judged in full), or is NotSupported under --tier=core; at the version it stays core.
TEST(RunCaseVersionGap, BelowTheTokensVersionTheCaseRunsAsDeviceSpecific) {
    Registry registry;
    registry.addFamily(std::make_unique<SchemaFamily>());
    DeviceInfo device;
    device.extensions = {{"cl_intel_subgroup_2d_block_io", 1, 0, 0, true}};
    CaseSpec spec;
    spec.name = "2d_block_io.x";
    spec.family = "schema";
    spec.params.set("width", "4", ParamType::Int);
    spec.requires = {"ext=cl_intel_subgroup_2d_block_io@1.1"};
    SupportFacts facts;
    EXPECT_EQ(checkCaseSupport(spec, registry, device, false, &facts).status, Status::Pass);
    EXPECT_EQ(facts.tier, Tier::DeviceSpecific);
    EXPECT_EQ(facts.version_gaps, std::vector<std::string>{"cl_intel_subgroup_2d_block_io"});
    Outcome core = checkCaseSupport(spec, registry, device, true, &facts);
    EXPECT_EQ(core.status, Status::NotSupported);
    EXPECT_NE(core.message.find("--tier=core"), std::string::npos) << core.message;
    EXPECT_NE(core.message.find("cl_intel_subgroup_2d_block_io 1.0.0"), std::string::npos) << core.message;
    device.extensions[0].minor = 1;
    EXPECT_EQ(checkCaseSupport(spec, registry, device, true, &facts).status, Status::Pass);
    EXPECT_EQ(facts.tier, Tier::Core);
    EXPECT_TRUE(facts.version_gaps.empty());
}

// A manifest entry with a load error is an InternalError before any device query, whatever its family.
TEST(CaseRunner, ManifestLoadErrorIsAnInternalErrorBeforeAnyDeviceQuery) {
    auto load = parseManifest(R"({"version": 4, "modules": {"a.spv": {"kernels": {"k": []}}}, "cases": [
        {"name": "api.no_kernel", "family": "f", "tier": "core", "module": "a.spv", "module_hash": "crc32:00ff00ff"},
        {"name": "api.no_hash", "family": "f", "tier": "core", "module": "a.spv", "kernel": "k"},
        {"name": "api.not_in_table", "family": "f", "tier": "core", "module": "b.spv", "module_hash": "crc32:00ff00ff", "kernel": "k"}]})",
                              "m.json");
    ASSERT_TRUE(load.errors.empty());
    ASSERT_EQ(load.cases.size(), 3u);
    DeviceInfo device;
    Registry registry;
    for (const auto& c : load.cases) {
        ASSERT_NE(c.load_error, "") << c.name;
        Outcome o = checkCaseSupport(c, registry, device);
        EXPECT_EQ(o.status, Status::InternalError) << c.name;
        EXPECT_EQ(o.message, c.load_error);
    }
}

}  // namespace
}  // namespace cts
