#include "test_common/spirv/module.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "test_common/spirv/module_builder.h"

namespace cts {
namespace {

using test::ModuleBuilder;

// OpCapability Kernel; OpMemoryModel Physical64 OpenCL; i32 type, constants, vector, pointer.
TEST(SpirvModule, RecordsTypesConstantsAndDeclarations) {
    ModuleBuilder b;
    uint32_t i32 = b.newId(), u64 = b.newId(), c7 = b.newId(), cbig = b.newId(), v4 = b.newId(),
             ptr = b.newId(), fn = b.newId();
    b.op(17, {6}).op(17, {5568});
    b.op(10, ModuleBuilder::str("SPV_INTEL_subgroups"));
    b.op(14, {2, 2});
    b.op(15, ModuleBuilder::cat({{6, fn}, ModuleBuilder::str("test"), {}}));
    b.op(16, {fn, 35, 16});
    b.op(21, {i32, 32, 1}).op(21, {u64, 64, 0});
    b.op(43, {i32, c7, 7}).op(43, {u64, cbig, 0x89abcdef, 0x01234567});
    b.op(23, {v4, i32, 4}).op(32, {ptr, 5, v4});
    SpirvModule m = SpirvModule::parse(b.words());

    EXPECT_EQ(m.version(), 0x00010200u);
    EXPECT_TRUE(m.hasCapability(6));
    EXPECT_TRUE(m.hasCapability(5568));
    EXPECT_EQ(m.capabilityOffset(6), 5u);
    EXPECT_TRUE(m.hasExtension("SPV_INTEL_subgroups"));
    EXPECT_EQ(m.addressingModel(), 2u);
    EXPECT_EQ(m.memoryModel(), 2u);
    ASSERT_EQ(m.entryPoints().size(), 1u);
    EXPECT_EQ(m.entryPoints()[0].name, "test");
    EXPECT_EQ(m.entryPoints()[0].function_id, fn);
    ASSERT_EQ(m.executionModes().size(), 1u);
    EXPECT_EQ(m.executionModes()[0].mode, 35u);
    EXPECT_EQ(m.executionModes()[0].literals, std::vector<uint32_t>{16});

    ASSERT_NE(m.type(i32), nullptr);
    EXPECT_EQ(m.type(i32)->kind, SpirvType::Kind::Int);
    EXPECT_EQ(m.type(i32)->width, 32u);
    EXPECT_TRUE(m.type(i32)->is_signed);
    EXPECT_FALSE(m.type(u64)->is_signed);
    EXPECT_EQ(m.type(v4)->kind, SpirvType::Kind::Vector);
    EXPECT_EQ(m.type(v4)->component_count, 4u);
    EXPECT_EQ(m.type(ptr)->storage_class, 5u);
    EXPECT_EQ(m.type(ptr)->component_type, v4);
    EXPECT_EQ(m.intConstant(c7), std::optional<uint64_t>(7));
    EXPECT_EQ(m.intConstant(cbig), std::optional<uint64_t>(0x0123456789abcdefull));
    EXPECT_FALSE(m.intConstant(i32).has_value());
    EXPECT_EQ(m.typeOfValue(c7), m.type(i32));
    EXPECT_EQ(m.definition(c7)->opcode, 43);
}

TEST(SpirvModule, UnknownOpcodesAreKeptAsWords) {
    ModuleBuilder b;
    b.op(9999, {1, 2, 3});
    SpirvModule m = SpirvModule::parse(b.words());
    ASSERT_EQ(m.instructions().size(), 1u);
    EXPECT_EQ(m.instructions()[0].words.size(), 4u);
}

TEST(SpirvModule, MatrixMultiplyAccumulateHasAResult) {
    ModuleBuilder b;
    uint32_t i32 = b.newId(), r = b.newId();
    b.op(21, {i32, 32, 0}).op(6237, {i32, r, 1, 2, 3, 4});
    SpirvModule m = SpirvModule::parse(b.words());
    ASSERT_NE(m.definition(r), nullptr);
    EXPECT_EQ(m.definition(r)->opcode, 6237);
    EXPECT_EQ(m.definition(r)->operand(0), 1u);
}

void expectParseError(std::vector<uint32_t> words, const std::string& fragment) {
    try {
        SpirvModule::parse(words);
        FAIL() << "expected a parse error containing '" << fragment << "'";
    } catch (const SpirvParseError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

TEST(SpirvModule, RejectsMalformedInput) {
    expectParseError({}, "header");
    expectParseError({0x07230203, 0x10000, 0, 5}, "header");
    expectParseError({0xdeadbeef, 0x10000, 0, 5, 0}, "magic");
    expectParseError({0x07230203, 0x10000, 0, 0, 0}, "bound");
    expectParseError({0x07230203, 0x10000, 0, 5, 0, 0x00000011}, "word count is 0");
    expectParseError({0x07230203, 0x10000, 0, 5, 0, 0x00030011, 6}, "runs past the end");
    expectParseError({0x07230203, 0x10000, 0, 5, 0, 0x00040015, 9, 32, 0}, "outside the bound");
    expectParseError({0x07230203, 0x10000, 0, 5, 0, 0x00040015, 1, 32, 0, 0x00040015, 1, 16, 0}, "twice");
    expectParseError({0x07230203, 0x10000, 0, 5, 0, 0x0002000a, 0x41414141}, "nul terminator");
    expectParseError({0x07230203, 0x10000, 0, 5, 0, 0x00020015, 1}, "needs at least");
    expectParseError({0x07230203, 0x10000, 0, 5, 0, 0x0001000e}, "needs at least");
}

TEST(SpirvModule, ReadsFilesAndRejectsOddSizes) {
    ModuleBuilder b;
    b.op(17, {6});
    std::vector<uint32_t> w = b.words();
    std::string path = ::testing::TempDir() + "module_test.spv";
    {
        std::ofstream out(path, std::ios::binary);
        for (uint32_t x : w)
            for (int i = 0; i < 4; ++i) out.put(char((x >> (8 * i)) & 0xff));
        out.put('x');
    }
    EXPECT_THROW(SpirvModule::fromFile(path), SpirvParseError);
    {
        std::ofstream out(path, std::ios::binary);
        for (uint32_t x : w)
            for (int i = 0; i < 4; ++i) out.put(char((x >> (8 * i)) & 0xff));
    }
    EXPECT_TRUE(SpirvModule::fromFile(path).hasCapability(6));
    std::remove(path.c_str());
    EXPECT_THROW(SpirvModule::fromFile(path), SpirvParseError);
}

}  // namespace
}  // namespace cts
