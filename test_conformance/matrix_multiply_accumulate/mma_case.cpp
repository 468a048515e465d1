#include "test_conformance/matrix_multiply_accumulate/mma_case.h"

#include <string>

#include "test_common/errors.h"

namespace cts::mma {
namespace {

using reference::MmaAccumulator;
using reference::MmaElement;

MmaElement parseElement(const std::string& s) {
    for (MmaElement e :
         {MmaElement::Int8, MmaElement::Int4, MmaElement::Fp16, MmaElement::Bf16, MmaElement::Tf32})
        if (s == reference::elementName(e)) return e;
    throw InternalError("matrix_multiply_accumulate: unknown element format '" + s + "'");
}

MmaAccumulator parseAccumulator(const std::string& s) {
    for (MmaAccumulator a :
         {MmaAccumulator::Int32, MmaAccumulator::Fp32, MmaAccumulator::Fp16, MmaAccumulator::Bf16})
        if (s == reference::accumulatorName(a)) return a;
    throw InternalError("matrix_multiply_accumulate: unknown accumulator format '" + s + "'");
}

}  // namespace

const ParamSchema& MmaCase::schema() {
    static const ParamSchema schema{{"m", ParamType::UInt},
                                    {"n", ParamType::UInt},
                                    {"k", ParamType::UInt},
                                    {"a", ParamType::String},
                                    {"a_signed", ParamType::Bool},
                                    {"b", ParamType::String},
                                    {"b_signed", ParamType::Bool},
                                    {"c", ParamType::String},
                                    {"result", ParamType::String},
                                    {"scenario", ParamType::String},
                                    {"data", ParamType::String},
                                    {"work_groups", ParamType::UInt},
                                    {"sub_groups_per_work_group", ParamType::UInt},
                                    {"steps", ParamType::UInt},
                                    {"outputs", ParamType::UInt}};
    return schema;
}

MmaCase MmaCase::fromParams(const Params& p) {
    MmaCase c;
    reference::MmaShape& s = c.shape;
    s.n = uint32_t(p.u("n")), s.k = uint32_t(p.u("k")), s.m = uint32_t(p.u("m"));
    s.a = parseElement(p.s("a")), s.b = parseElement(p.s("b"));
    s.a_signed = p.b("a_signed"), s.b_signed = p.b("b_signed");
    s.c = parseAccumulator(p.s("c")), s.result = parseAccumulator(p.s("result"));
    std::string scenario = p.s("scenario");
    c.scenario = scenario == "single" || scenario == "multi_group" ? Scenario::Single
                 : scenario == "chained"                           ? Scenario::Chained
                 : scenario == "second_mma"                        ? Scenario::SecondMma
                 : scenario == "branch"
                     ? Scenario::Branch
                     : throw InternalError("matrix_multiply_accumulate: unknown scenario '" + scenario + "'");
    c.data = parseDataClass(p.s("data"), s);
    c.work_groups = uint32_t(p.u("work_groups"));
    c.sub_groups_per_work_group = uint32_t(p.u("sub_groups_per_work_group"));
    c.steps = uint32_t(p.u("steps"));
    c.outputs = uint32_t(p.u("outputs"));
    const uint32_t want_outputs = c.scenario == Scenario::SecondMma ? 2 : 1;
    const uint32_t want_steps = c.scenario == Scenario::SecondMma ? 2
                                : c.scenario == Scenario::Chained ? c.steps
                                                                  : 1;
    if (c.outputs != want_outputs || c.steps != want_steps || c.steps == 0)
        throw InternalError("matrix_multiply_accumulate: steps/outputs do not fit scenario " + scenario);
    if (c.scenario == Scenario::Chained && !reference::isInteger(s.a) && c.data != DataClass::Exact)
        throw InternalError("matrix_multiply_accumulate: chained float cases need exact data");
    return c;
}

}  // namespace cts::mma
