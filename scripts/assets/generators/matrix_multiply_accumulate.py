"""SPV_INTEL_subgroup_matrix_multiply_accumulate cases: every row of the OpenCL environment table for N = 8
and N = 16 x M in {1, 2, 4, 8} x each allowed signedness combination x data classes and kernel shapes.

One module per (row, signedness, M, kernel shape): K, the operand types and the operands mask are fixed in
the instruction. The operands come from buffers, one slot per lane and step, so every sub-group of every
work-group gets its own matrices. Kernel arguments of every module:
    0 a      CrossWorkgroup A*   lane s, step t passes a[s * steps + t]   (A is M x K, per-lane type of the row)
    1 b      CrossWorkgroup B*   lane s, step t passes b[s * steps + t]   (8 x i32 or 8 x f32)
    2 c      CrossWorkgroup C*   lane s passes c[s]
    3 out    CrossWorkgroup R*   lane s writes out[s * outputs + o]
    4 steps  uint                steps per lane (the chained kernel loops over them)
with s = (WorkgroupId.x * NumSubgroups + SubgroupId) * N + SubgroupLocalInvocationId.
Kernel shapes ("scenario" parameter):
    single      out[s] = MMA(A_0, B_0, C)
    chained     acc = C; for t < steps: acc = MMA(A_t, B_t, acc); out[s] = acc  (GEMM's loop over K)
    second_mma  out[2s] = MMA(A_0, B_0, C); out[2s + 1] = MMA(A_1, B_1, C)  (two instruction sites)
    branch      odd work-groups: out[s] = MMA(A_0, B_0, C); even ones: out[s] = C  (a divergent branch)
"""

from assets import spvgen

EXT = "cl_intel_subgroup_matrix_multiply_accumulate"
EXT_TOKEN = "ext=%s@1.1" % EXT
TF32_TOKEN = "ext=%s_tf32" % EXT

# name: (N, K, A element, B element, C format, Result format, signed bits allowed, extra mask names)
# A and B elements: int8, int4, fp16, bf16, tf32; accumulators: int32, fp32, fp16, bf16 (bf16 in i16).
ROWS = [
    ("int8_int32", 8, 32, "int8", "int32", "int32", True),
    ("int4_int32", 8, 64, "int4", "int32", "int32", True),
    ("fp16_fp32", 8, 16, "fp16", "fp32", "fp32", False),
    ("bf16_fp32", 8, 16, "bf16", "fp32", "fp32", False),
    ("int8_int32", 16, 32, "int8", "int32", "int32", True),
    ("int4_int32", 16, 64, "int4", "int32", "int32", True),
    ("fp16_fp32", 16, 16, "fp16", "fp32", "fp32", False),
    ("bf16_fp32", 16, 16, "bf16", "fp32", "fp32", False),
    ("fp16_fp16", 16, 16, "fp16", "fp16", "fp16", False),
    ("bf16_bf16", 16, 16, "bf16", "bf16", "bf16", False),
    ("tf32_fp32", 16, 8, "tf32", "fp32", "fp32", False),
]
MS = [1, 2, 4, 8]
# The tier table (docs/matrix_multiply_accumulate.md, "Tiers"): every row of ROWS is a row of the
# cl_intel_subgroup_matrix_multiply_accumulate table (tf32 with _tf32) with M in 1, 2, 4, 8, which a device
# reporting the extension at minimum sub-group size N must accept; the suite emits no MMA outside it.
TIER = "core"
SIGNEDNESS = [("sign_none", False, False), ("sign_a", True, False), ("sign_b", False, True),
              ("sign_ab", True, True)]
PACKED = {"int8": ("MatrixAPackedInt8INTEL", "MatrixBPackedInt8INTEL"),
          "int4": ("MatrixAPackedInt4INTEL", "MatrixBPackedInt4INTEL"),
          "fp16": ("MatrixAPackedFloat16INTEL", "MatrixBPackedFloat16INTEL"),
          "bf16": ("MatrixAPackedBFloat16INTEL", "MatrixBPackedBFloat16INTEL"),
          "tf32": ("MatrixATF32INTEL", "MatrixBTF32INTEL")}
ACC_TYPE = {"int32": "uint", "fp32": "float", "fp16": "half", "bf16": "ushort"}

# Data classes of the single-MMA kernel (see test_conformance/matrix_multiply_accumulate/data.cpp):
INT_DATA = ["exact", "full_range", "extremes", "position"]
FLOAT_DATA = ["exact", "random", "position"]
# Kernel shapes beyond `single`, with the data they run (integers wrap, floats stay exact) and work sizes
# (work-groups, sub-groups per work-group, steps per lane).
SCENARIOS = [("multi_group", (2, 2, 1)), ("chained", (1, 1, 4)), ("second_mma", (1, 1, 2)),
             ("branch", (4, 1, 1))]


def a_layout(n, k, elem, m):
    """(components, scalar type name) of one lane's A, per the OpenCL table."""
    if elem == "tf32":
        return (m + 1) // 2, "float"
    return m, "uint" if n == 8 else "ushort"


def vec(t, count):
    return t if count == 1 else "v%d%s" % (count, t)


def mask_names(elem, c, result, a_signed, b_signed):
    names = list(PACKED[elem])
    if a_signed:
        names.insert(0, "MatrixASignedComponentsINTEL")
    if b_signed:
        names.insert(1 if a_signed else 0, "MatrixBSignedComponentsINTEL")
    if c == "bf16":
        names.append("MatrixCBFloat16INTEL")
    if result == "bf16":
        names.append("MatrixResultBFloat16INTEL")
    return "|".join(names)


def kernel_text(row, m, scenario, a_signed, b_signed):
    name, n, k, elem, c_fmt, r_fmt, _ = row
    a_count, a_scalar = a_layout(n, k, elem, m)
    b_scalar = "float" if elem == "tf32" else "uint"
    acc = ACC_TYPE[r_fmt]
    a_t, b_t, r_t = vec(a_scalar, a_count), vec(b_scalar, 8), vec(acc, m)
    mask = mask_names(elem, c_fmt, r_fmt, a_signed, b_signed)
    caps = ["Addresses", "Kernel", "Int16", "Int64", "Vector16", "SubgroupDispatch"]
    if acc == "half":
        caps.append("Float16")
    caps.append("SubgroupMatrixMultiplyAccumulateINTEL")
    lines = spvgen.kernel_header(
        ["SPV_INTEL_subgroup_matrix_multiply_accumulate, N = %d, K = %d, M = %d: A %s, B %s, C/Result %s"
         % (n, k, m, a_t, b_t, r_t), "operands %s; kernel shape %s" % (mask, scenario)],
        caps, ["SPV_INTEL_subgroup_matrix_multiply_accumulate"], n, ["a", "b", "c", "out", "steps"])
    lines += spvgen.types("void", "bool", "ushort", "uint", "ulong", "float")
    if acc == "half":
        lines += spvgen.types("half")
    lines += spvgen.types("v3ulong")
    declared = {"ushort", "uint", "ulong", "float", "half"}
    for t, scalar, count in ((a_t, a_scalar, a_count), (b_t, b_scalar, 8), (r_t, acc, m)):
        if t not in declared:
            lines.append("%%%s = OpTypeVector %%%s %d" % (t, scalar, count))
            declared.add(t)
    for t in sorted({a_t, b_t, r_t}):
        lines.append("%%ptr_%s = OpTypePointer CrossWorkgroup %%%s" % (t, t))
    lines += [
        "%ptr_in_uint = OpTypePointer Input %uint",
        "%ptr_in_v3ulong = OpTypePointer Input %v3ulong",
        "     %uint_0 = OpConstant %uint 0",
        "     %uint_1 = OpConstant %uint 1",
        "     %uint_2 = OpConstant %uint 2",
        "      %%kdim = OpConstant %%uint %d" % k,
        "     %%lanes = OpConstant %%uint %d" % n,
    ] + spvgen.SUBGROUP_INDEX_VARIABLES + [
        "  %%kernel_ty = OpTypeFunction %%void %%ptr_%s %%ptr_%s %%ptr_%s %%ptr_%s %%uint" % (a_t, b_t, r_t, r_t),
        "       %test = OpFunction %void None %kernel_ty",
        "          %%a = OpFunctionParameter %%ptr_%s" % a_t,
        "          %%b = OpFunctionParameter %%ptr_%s" % b_t,
        "          %%c = OpFunctionParameter %%ptr_%s" % r_t,
        "        %%out = OpFunctionParameter %%ptr_%s" % r_t,
        "      %steps = OpFunctionParameter %uint",
        "      %entry = OpLabel",
    ] + spvgen.SUBGROUP_INDEX_CODE + [
        "     %g_lane = OpIMul %uint %g %lanes",
        "          %s = OpIAdd %uint %g_lane %lane",
        "    %s_steps = OpIMul %uint %s %steps",
        "      %%c_ptr = OpInBoundsPtrAccessChain %%ptr_%s %%c %%s" % r_t,
        "      %%c_val = OpLoad %%%s %%c_ptr" % r_t,
    ]

    def operands(tag, t_id):
        # Loads A_t and B_t of this lane; t_id is a uint id.
        return [
            "   %%%s_idx = OpIAdd %%uint %%s_steps %s" % (tag, t_id),
            "   %%%s_ap = OpInBoundsPtrAccessChain %%ptr_%s %%a %%%s_idx" % (tag, a_t, tag),
            "   %%%s_a = OpLoad %%%s %%%s_ap" % (tag, a_t, tag),
            "   %%%s_bp = OpInBoundsPtrAccessChain %%ptr_%s %%b %%%s_idx" % (tag, b_t, tag),
            "   %%%s_b = OpLoad %%%s %%%s_bp" % (tag, b_t, tag),
        ]

    def mma(tag, c_id):
        return "   %%%s_r = OpSubgroupMatrixMultiplyAccumulateINTEL %%%s %%kdim %%%s_a %%%s_b %s %s" % (
            tag, r_t, tag, tag, c_id, mask)

    def store(tag, index_id, value_id):
        return ["   %%%s_op = OpInBoundsPtrAccessChain %%ptr_%s %%out %s" % (tag, r_t, index_id),
                "               OpStore %%%s_op %s" % (tag, value_id)]

    if scenario in ("single", "multi_group"):
        lines += operands("m0", "%uint_0") + [mma("m0", "%c_val")] + store("m0", "%s", "%m0_r")
    elif scenario == "second_mma":
        lines += operands("m0", "%uint_0") + operands("m1", "%uint_1")
        lines += [mma("m0", "%c_val"), mma("m1", "%c_val"), "      %o0 = OpIMul %uint %s %uint_2",
                  "      %o1 = OpIAdd %uint %o0 %uint_1"]
        lines += store("m0", "%o0", "%m0_r") + store("m1", "%o1", "%m1_r")
    elif scenario == "chained":
        lines += [
            "               OpBranch %head",
            "       %head = OpLabel",
            "          %t = OpPhi %uint %uint_0 %entry %t_next %body",
            "        %%acc = OpPhi %%%s %%c_val %%entry %%m0_r %%body" % r_t,
            "       %more = OpULessThan %bool %t %steps",
            "               OpLoopMerge %end %body None",
            "               OpBranchConditional %more %body %end",
            "       %body = OpLabel",
        ] + operands("m0", "%t") + [mma("m0", "%acc"),
                                    "     %t_next = OpIAdd %uint %t %uint_1",
                                    "               OpBranch %head",
                                    "        %end = OpLabel"] + store("m0", "%s", "%acc")
    elif scenario == "branch":
        lines += [
            "        %odd = OpBitwiseAnd %uint %wg %uint_1",
            "       %take = OpIEqual %bool %odd %uint_1",
            "               OpSelectionMerge %merge None",
            "               OpBranchConditional %take %then %else",
            "       %then = OpLabel",
        ] + operands("m0", "%uint_0") + [mma("m0", "%c_val")] + store("m0", "%s", "%m0_r") + [
            "               OpBranch %merge",
            "       %else = OpLabel",
        ] + store("c0", "%s", "%c_val") + [
            "               OpBranch %merge",
            "      %merge = OpLabel",
        ]
    else:
        raise ValueError("unknown scenario %r" % scenario)
    lines += ["               OpReturn", "               OpFunctionEnd", ""]
    return "\n".join(lines)


def emit_row(emit, row, sign_name, a_signed, b_signed):
    name, n, k, elem, c_fmt, r_fmt, _ = row
    requires = [EXT_TOKEN, "min_sg_size=%d" % n]
    if elem == "tf32":
        requires.append(TF32_TOKEN)
    if r_fmt == "fp16":
        requires.append("fp16")
    integer = elem in ("int8", "int4")
    prefix = "matrix_multiply_accumulate.n%d.%s" % (n, name) + (".%s" % sign_name if integer else "")
    stem = "n%d_%s%s" % (n, name, "_" + sign_name if integer else "")
    base = dict(n=n, k=k, a=elem, b=elem, a_signed=a_signed, b_signed=b_signed, c=c_fmt, result=r_fmt)
    # docs/known_driver_bugs.md names every fp16-Result case and every second_mma case (tag regression).
    fp16_result = ["regression"] if r_fmt == "fp16" else []
    for m in MS:
        single = dict(base, m=m, work_groups=1, sub_groups_per_work_group=1, steps=1, outputs=1)
        data = list(INT_DATA if integer else FLOAT_DATA)
        if r_fmt == "fp16":
            data.append("near_max")  # fp16 accumulator data near 65504 but finite
        module = emit.module("matrix_multiply_accumulate/%s_m%d_single" % (stem, m),
                             kernel_text(row, m, "single", a_signed, b_signed))
        for d in data:
            emit.case("%s.m%d.single.%s" % (prefix, m, d), "matrix_multiply_accumulate", module, "test",
                      params=dict(single, scenario="single", data=d), requires=requires,
                      tags=(["quick"] if (m == 8 and d == "position") else []) + fp16_result, tier=TIER)
        for scenario, (wgs, sgs, steps) in SCENARIOS:
            d = "full_range" if integer else "exact"
            kernel = "single" if scenario == "multi_group" else scenario  # the same kernel, more groups
            module = emit.module("matrix_multiply_accumulate/%s_m%d_%s" % (stem, m, kernel),
                                 kernel_text(row, m, kernel, a_signed, b_signed))
            params = dict(base, m=m, work_groups=wgs, sub_groups_per_work_group=sgs, steps=steps,
                          outputs=2 if scenario == "second_mma" else 1, scenario=scenario, data=d)
            emit.case("%s.m%d.%s.%s" % (prefix, m, scenario, d), "matrix_multiply_accumulate", module, "test",
                      params=params, requires=requires,
                      tags=["regression"] if (fp16_result or scenario == "second_mma") else [], tier=TIER)


def generate(emit):
    for row in ROWS:
        signs = SIGNEDNESS if row[6] else [("", False, False)]
        for sign_name, a_signed, b_signed in signs:
            emit_row(emit, row, sign_name, a_signed, b_signed)
    generate_scale(emit)


# ----------------------------------------------------------------------------------------------------------
# Scale (docs/matrix_multiply_accumulate.md, "Scale"): matrix_multiply_accumulate.scale.<the usual levels>
# with the kernel shape level groups_1024: the multi_group kernel on 1024 work-groups x 2 sub-groups, every
# sub-group with operands of its own, so one that computes with another's A, B or C fails.

SCALE_ROWS = [("int8_int32", 8, "sign_ab"), ("bf16_fp32", 8, ""), ("int8_int32", 16, "sign_ab"),
              ("fp16_fp32", 16, "")]


def generate_scale(emit):
    for name, n, sign_name in SCALE_ROWS:
        row = [r for r in ROWS if r[0] == name and r[1] == n][0]
        _, _, k, elem, c_fmt, r_fmt, _ = row
        a_signed = b_signed = sign_name == "sign_ab"
        integer = elem in ("int8", "int4")
        stem = "n%d_%s%s" % (n, name, "_" + sign_name if sign_name else "")
        m = 8
        module = emit.module("matrix_multiply_accumulate/%s_m%d_single" % (stem, m),
                             kernel_text(row, m, "single", a_signed, b_signed))
        d = "full_range" if integer else "exact"
        params = dict(n=n, k=k, a=elem, b=elem, a_signed=a_signed, b_signed=b_signed, c=c_fmt, result=r_fmt, m=m,
                      work_groups=1024, sub_groups_per_work_group=2, steps=1, outputs=1, scenario="multi_group",
                      data=d)
        emit.case("matrix_multiply_accumulate.scale.n%d.%s%s.m%d.groups_1024.%s" %
                  (n, name, "." + sign_name if sign_name else "", m, d), "matrix_multiply_accumulate", module,
                  "test", params=params, requires=[EXT_TOKEN, "min_sg_size=%d" % n], tier=TIER)
