#include "test_conformance/matrix_multiply_accumulate/mma_case.h"

#include <string>

#include "test_common/errors.h"
#include "test_common/harness/model/param_fields.h"

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

// The manifest's parameters as scripts/assets/generators/matrix_multiply_accumulate.py writes them, each
// declared once in fields(): the schema and fromParams' reading follow from that table.
struct MmaParams {
    uint32_t m = 0, n = 0, k = 0;
    std::string a;
    bool a_signed = false;
    std::string b;
    bool b_signed = false;
    std::string c, result, scenario, data;
    uint32_t work_groups = 0, sub_groups_per_work_group = 0, steps = 0, outputs = 0;
};

const ParamFields<MmaParams>& fields() {
    static const ParamFields<MmaParams> fields{
        {"m", &MmaParams::m},
        {"n", &MmaParams::n},
        {"k", &MmaParams::k},
        {"a", &MmaParams::a},
        {"a_signed", &MmaParams::a_signed},
        {"b", &MmaParams::b},
        {"b_signed", &MmaParams::b_signed},
        {"c", &MmaParams::c},
        {"result", &MmaParams::result},
        {"scenario", &MmaParams::scenario},
        {"data", &MmaParams::data},
        {"work_groups", &MmaParams::work_groups},
        {"sub_groups_per_work_group", &MmaParams::sub_groups_per_work_group},
        {"steps", &MmaParams::steps},
        {"outputs", &MmaParams::outputs}};
    return fields;
}

}  // namespace

const ParamSchema& MmaCase::schema() {
    static const ParamSchema schema = schemaOf(fields());
    return schema;
}

MmaCase MmaCase::fromParams(const Params& params) {
    const MmaParams p = readFields(params, fields());
    MmaCase c;
    reference::MmaShape& s = c.shape;
    s.n = p.n, s.k = p.k, s.m = p.m;
    s.a = parseElement(p.a), s.b = parseElement(p.b);
    s.a_signed = p.a_signed, s.b_signed = p.b_signed;
    s.c = parseAccumulator(p.c), s.result = parseAccumulator(p.result);
    const std::string& scenario = p.scenario;
    c.scenario = scenario == "single" || scenario == "multi_group" ? Scenario::Single
                 : scenario == "chained"                           ? Scenario::Chained
                 : scenario == "second_mma"                        ? Scenario::SecondMma
                 : scenario == "branch"
                     ? Scenario::Branch
                     : throw InternalError("matrix_multiply_accumulate: unknown scenario '" + scenario + "'");
    c.data = parseDataClass(p.data, s);
    c.work_groups = p.work_groups;
    c.sub_groups_per_work_group = p.sub_groups_per_work_group;
    c.steps = p.steps;
    c.outputs = p.outputs;
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
