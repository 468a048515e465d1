// Typed case parameters and the schema a family declares.
#include "test_common/harness/model/params.h"

#include <gtest/gtest.h>

#include "test_common/harness/model/param_fields.h"

namespace cts {
namespace {

const ParamSchema kSchema{{"op", ParamType::String},
                          {"width", ParamType::UInt},
                          {"y", ParamType::Int},
                          {"signed", ParamType::Bool},
                          {"coords", ParamType::IntList, kOptional}};

Params good() {
    Params p;
    p.set("op", "load");
    p.set("width", "4", ParamType::Int);
    p.set("y", "-2", ParamType::Int);
    p.set("signed", "true", ParamType::Bool);
    return p;
}

TEST(ParamSchema, AcceptsDeclaredTypesAndOptionalParameters) {
    EXPECT_EQ(kSchema.check(good()), "");
    Params p = good();
    p.set("coords", "[1, -2]", ParamType::IntList);
    EXPECT_EQ(kSchema.check(p), "");
}

TEST(ParamSchema, MissingParameterIsNamedWithItsType) {
    Params p = good();
    Params q;
    for (const auto& [key, value] : p.all())
        if (key != "width") q.set(key, value.text, value.type);
    EXPECT_EQ(kSchema.check(q), "parameter 'width' (uint) is missing");
}

TEST(ParamSchema, WrongTypeIsNamedWithBothTypes) {
    Params p = good();
    p.set("width", "4");  // a string "4"
    EXPECT_EQ(kSchema.check(p), "parameter 'width' is string 4, the family reads uint");
    p = good();
    p.set("width", "-4", ParamType::Int);
    EXPECT_EQ(kSchema.check(p), "parameter 'width' is int -4, the family reads uint");
    p = good();
    p.set("signed", "1", ParamType::Int);
    EXPECT_EQ(kSchema.check(p), "parameter 'signed' is int 1, the family reads bool");
    p = good();
    p.set("coords", "3", ParamType::Int);
    EXPECT_EQ(kSchema.check(p), "parameter 'coords' is int 3, the family reads list of int");
}

TEST(ParamSchema, UndeclaredParameterIsNamed) {
    Params p = good();
    p.set("lane_mask", "all");
    EXPECT_EQ(kSchema.check(p), "unknown parameter 'lane_mask' (the family declares no such parameter)");
}

// kSchema's parameters declared once, as a family declares them (param_fields.h).
struct Fields {
    std::string op;
    uint32_t width = 0;
    int32_t y = 0;
    bool is_signed = false;
    std::optional<std::vector<int64_t>> coords;
};
const ParamFields<Fields> kFields{{"op", &Fields::op},
                                  {"width", &Fields::width},
                                  {"y", &Fields::y},
                                  {"signed", &Fields::is_signed},
                                  {"coords", &Fields::coords}};

TEST(ParamFields, SchemaFollowsFromTheTable) {
    const ParamSchema schema = schemaOf(kFields);
    ASSERT_EQ(schema.decls().size(), kSchema.decls().size());
    for (size_t i = 0; i < schema.decls().size(); ++i) {
        EXPECT_EQ(schema.decls()[i].name, kSchema.decls()[i].name);
        EXPECT_EQ(schema.decls()[i].type, kSchema.decls()[i].type) << schema.decls()[i].name;
        EXPECT_EQ(schema.decls()[i].required, kSchema.decls()[i].required) << schema.decls()[i].name;
    }
}

TEST(ParamFields, ReadsEveryMemberAndLeavesAnAbsentOptionalEmpty) {
    Fields f = readFields(good(), kFields);
    EXPECT_EQ(f.op, "load");
    EXPECT_EQ(f.width, 4u);
    EXPECT_EQ(f.y, -2);
    EXPECT_TRUE(f.is_signed);
    EXPECT_FALSE(f.coords.has_value());
    Params p = good();
    p.set("coords", "[1, -2]", ParamType::IntList);
    f = readFields(p, kFields);
    ASSERT_TRUE(f.coords.has_value());
    EXPECT_EQ(*f.coords, (std::vector<int64_t>{1, -2}));
}

}  // namespace
}  // namespace cts
