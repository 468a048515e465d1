// Typed case parameters and the schema a family declares.
#include "test_common/harness/params.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace cts
