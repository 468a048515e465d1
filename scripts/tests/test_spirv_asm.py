"""Tests of scripts/spirv_asm.py: byte-identical to spirv-as on snippets, errors, and the 2025 supplement."""

import json
import os
import subprocess
import tempfile
import unittest

from common import SPIRV_AS, UPSTREAM_GRAMMAR
import spirv_asm

PREAMBLE = """OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int16
OpCapability Int8
OpCapability Float16
OpCapability Float64
OpMemoryModel Physical64 OpenCL
"""

SNIPPETS = {
    "integer_literals": PREAMBLE + """
%u32 = OpTypeInt 32 0
%s32 = OpTypeInt 32 1
%u64 = OpTypeInt 64 0
%s64 = OpTypeInt 64 1
%s16 = OpTypeInt 16 1
%u16 = OpTypeInt 16 0
%s8 = OpTypeInt 8 1
%a = OpConstant %u32 0
%b = OpConstant %u32 4294967295
%c = OpConstant %s32 -2147483648
%d = OpConstant %s32 0x7fffffff
%e = OpConstant %u64 0x123456789abcdef0
%f = OpConstant %s64 -1
%g = OpConstant %s64 -9223372036854775808
%h = OpConstant %s16 -2
%i = OpConstant %s16 0xffff
%j = OpConstant %u16 65535
%k = OpConstant %s8 -128
%l = OpConstant %s32 -0x10
%m = OpSpecConstant %u32 7
""",
    "float_literals": PREAMBLE + """
%f16 = OpTypeFloat 16
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%a = OpConstant %f32 1.5
%b = OpConstant %f32 -0.0
%c = OpConstant %f32 0.1
%d = OpConstant %f32 3
%e = OpConstant %f32 1e-3
%f = OpConstant %f32 0x1.8p+1
%g = OpConstant %f32 -0x1p-149
%h = OpConstant %f64 0.1
%i = OpConstant %f64 1e300
%j = OpConstant %f16 0.1
%k = OpConstant %f16 65504
%l = OpConstant %f16 1.000732421875
%m = OpConstant %f16 -6e-8
%n = OpConstant %f16 0x1.8p-1
%o = OpConstant %f32 3.4028234663852886e+38
""",
    "masks_and_memory_operands": PREAMBLE + """
OpEntryPoint Kernel %fn "k"
%void = OpTypeVoid
%u32 = OpTypeInt 32 0
%ptr = OpTypePointer CrossWorkgroup %u32
%fnty = OpTypeFunction %void %ptr
%fn = OpFunction %void Inline|Const %fnty
%p = OpFunctionParameter %ptr
%lbl = OpLabel
%x = OpLoad %u32 %p Volatile|Aligned|Nontemporal 4
%y = OpLoad %u32 %p None
OpStore %p %x Aligned 16
OpLoopMerge %lbl %lbl None
OpReturn
OpFunctionEnd
""",
    "strings_with_padding": PREAMBLE + """
OpSourceExtension ""
OpSourceExtension "a"
OpSourceExtension "ab"
OpSourceExtension "abc"
OpSourceExtension "abcd"
OpSourceExtension "abcde"
OpSourceExtension "quote \\" and backslash \\\\ and ; semicolon"
OpSourceExtension "caf\u00e9"
OpSource OpenCL_C 120 %file "source text"
%file = OpString "file.cl"
OpName %file "the file"
""",
    "switch_32_and_64_bit": PREAMBLE + """
OpEntryPoint Kernel %fn "k"
%void = OpTypeVoid
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%fnty = OpTypeFunction %void %u32 %u64
%fn = OpFunction %void None %fnty
%a = OpFunctionParameter %u32
%b = OpFunctionParameter %u64
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %a %merge 0 %c0 7 %c1 4294967295 %c0
%c0 = OpLabel
OpBranch %merge
%c1 = OpLabel
OpSelectionMerge %m2 None
OpSwitch %b %m2 0x100000000 %c2 3 %c2
%c2 = OpLabel
OpBranch %m2
%m2 = OpLabel
OpBranch %merge
%merge = OpLabel
%phi = OpPhi %u32 %a %entry %a %m2
OpReturn
OpFunctionEnd
""",
    "ext_inst_opencl_std": PREAMBLE + """
%std = OpExtInstImport "OpenCL.std"
OpEntryPoint Kernel %fn "k"
%void = OpTypeVoid
%f32 = OpTypeFloat 32
%u32 = OpTypeInt 32 0
%v4 = OpTypeVector %f32 4
%fnty = OpTypeFunction %void %f32
%one = OpConstant %f32 1
%fn = OpFunction %void None %fnty
%x = OpFunctionParameter %f32
%lbl = OpLabel
%a = OpExtInst %f32 %std fabs %x
%b = OpExtInst %f32 %std fma %x %a %one
%c = OpExtInst %f32 %std native_sqrt %b
%d = OpExtInst %u32 %std s_max %u32c %u32c
OpReturn
OpFunctionEnd
%u32c = OpConstant %u32 3
""",
    "decorations_and_execution_modes": """OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpCapability SubgroupDispatch
OpCapability SubgroupShuffleINTEL
OpCapability SubgroupBufferBlockIOINTEL
OpCapability SubgroupImageMediaBlockIOINTEL
OpExtension "SPV_INTEL_subgroups"
OpExtension "SPV_INTEL_media_block_io"
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %fn "test" %gid
OpExecutionMode %fn SubgroupSize 16
OpExecutionMode %fn LocalSize 16 1 1
OpExecutionMode %fn ContractionOff
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
OpDecorate %p Alignment 64
OpDecorate %p FuncParamAttr NoAlias
OpDecorate %grp Restrict
%grp = OpDecorationGroup
OpGroupDecorate %grp %p
OpMemberDecorate %st 1 Offset 4
%u32 = OpTypeInt 32 0
%st = OpTypeStruct %u32 %u32
%v3 = OpTypeVector %u32 3
%ptr_in = OpTypePointer Input %v3
%gid = OpVariable %ptr_in Input
%void = OpTypeVoid
%ptr = OpTypePointer CrossWorkgroup %u32
%fnty = OpTypeFunction %void %ptr
%fn = OpFunction %void None %fnty
%p = OpFunctionParameter %ptr
%lbl = OpLabel
%x = OpSubgroupBlockReadINTEL %u32 %p
%y = OpSubgroupShuffleXorINTEL %u32 %x %x
OpSubgroupBlockWriteINTEL %p %y
OpReturn
OpFunctionEnd
""",
    "spec_constant_op_and_forward_refs": PREAMBLE + """
OpEntryPoint Kernel %later "k"
OpName %later "later"
%u32 = OpTypeInt 32 0
%a = OpSpecConstant %u32 1
%b = OpSpecConstantOp %u32 IAdd %a %a
%c = OpSpecConstantTrue %bool
%bool = OpTypeBool
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%later = OpFunction %void None %fnty
%l = OpLabel
OpReturn
OpFunctionEnd
""",
}


def spirv_as_bytes(text, env="spv1.2"):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.spvasm"), os.path.join(d, "out.spv")
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        p = subprocess.run([SPIRV_AS, "--target-env", env, src, "-o", out], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode != 0:
            raise AssertionError("spirv-as failed on the test input: %s" % p.stdout)
        with open(out, "rb") as f:
            return f.read()


def word_diff(a, b):
    import struct
    wa = struct.unpack("<%dI" % (len(a) // 4), a)
    wb = struct.unpack("<%dI" % (len(b) // 4), b)
    for i, (x, y) in enumerate(zip(wa, wb)):
        if x != y:
            return "first difference at word %d: spirv-as 0x%08x, spirv_asm 0x%08x (lengths %d, %d)" % (
                i, x, y, len(wa), len(wb))
    return "lengths differ: spirv-as %d words, spirv_asm %d words" % (len(wa), len(wb))


class MatchesSpirvAsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.grammar = spirv_asm.Grammar()

    def check(self, name, env="spv1.2"):
        text = SNIPPETS[name]
        expected = spirv_as_bytes(text, env)
        words, used = spirv_asm.assemble(text, self.grammar, spirv_asm.parse_target_env(env))
        got = spirv_asm.to_bytes(words)
        self.assertFalse(used)
        self.assertEqual(expected, got, "%s: %s" % (name, word_diff(expected, got)))

    def test_integer_literals(self):
        self.check("integer_literals")

    def test_float_literals(self):
        self.check("float_literals")

    def test_masks_and_memory_operands(self):
        self.check("masks_and_memory_operands")

    def test_strings_with_padding(self):
        self.check("strings_with_padding")

    def test_switch(self):
        self.check("switch_32_and_64_bit")

    def test_ext_inst(self):
        self.check("ext_inst_opencl_std")

    def test_decorations_execution_modes_capabilities_extensions(self):
        self.check("decorations_and_execution_modes")

    def test_spec_constant_op_and_forward_references(self):
        self.check("spec_constant_op_and_forward_refs")

    def test_header_version_follows_target_env(self):
        for env in ("spv1.0", "spv1.4", "spv1.6"):
            self.check("integer_literals", env)


class ErrorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.grammar = spirv_asm.Grammar()

    def assertError(self, text, fragment, line):
        with self.assertRaises(spirv_asm.AsmError) as ctx:
            spirv_asm.assemble(text, self.grammar)
        self.assertIn(fragment, str(ctx.exception))
        self.assertEqual(ctx.exception.line, line, str(ctx.exception))

    def test_errors_carry_positions(self):
        self.assertError("OpCapability Kernel\nOpFrobnicate %x\n", "Invalid Opcode name 'OpFrobnicate'", 2)
        self.assertError("OpCapability Bogus\n", "Invalid Capability operand 'Bogus'", 1)
        self.assertError("%u = OpTypeInt 32 0\n%c = OpConstant %u -1\n", "negative number", 2)
        self.assertError("%u = OpTypeInt 8 0\n%c = OpConstant %u 256\n", "does not fit", 2)
        self.assertError("%f = OpTypeFloat 16\n%c = OpConstant %f 70000\n", "Invalid 16-bit float", 2)
        self.assertError("%u = OpTypeInt 32 0\n%c = OpConstant %u 1.5\n", "invalid integer literal", 2)
        self.assertError("OpMemoryModel Physical64\nOpCapability Kernel\n", "missing operand", 2)
        self.assertError("OpCapability Kernel Shader\n", "too many operands", 1)
        self.assertError("OpTypeVoid\n", "needs a result id", 1)
        self.assertError('OpSourceExtension "unterminated\n', "unterminated string", 1)


class SupplementTest(unittest.TestCase):
    """The supplement holds exactly the 2025 tokens, with the values and operands upstream has."""

    @classmethod
    def setUpClass(cls):
        with open(spirv_asm.DEFAULT_SUPPLEMENT) as f:
            cls.supplement = json.load(f)
        with open(spirv_asm.find_system_grammar("spirv.core.grammar.json")) as f:
            cls.system = json.load(f)

    def test_supplement_only_adds_missing_tokens(self):
        system_ops = {i["opname"] for i in self.system["instructions"]}
        system_codes = {i["opcode"] for i in self.system["instructions"]}
        for inst in self.supplement["instructions"]:
            self.assertNotIn(inst["opname"], system_ops)
            self.assertNotIn(inst["opcode"], system_codes)
        self.assertEqual(sorted(i["opcode"] for i in self.supplement["instructions"]),
                         [6231, 6232, 6233, 6234, 6235, 6237])
        kinds = {k["kind"]: k for k in self.system["operand_kinds"]}
        for kind in self.supplement["operand_kinds"]:
            names = {e["enumerant"] for e in kinds.get(kind["kind"], {}).get("enumerants", [])}
            for e in kind["enumerants"]:
                self.assertNotIn(e["enumerant"], names, kind["kind"])
        caps = [k for k in self.supplement["operand_kinds"] if k["kind"] == "Capability"][0]
        self.assertEqual(sorted(e["value"] for e in caps["enumerants"]), [6228, 6229, 6230, 6236])

    @unittest.skipUnless(os.path.exists(UPSTREAM_GRAMMAR), "upstream grammar not present")
    def test_supplement_agrees_with_upstream_grammar(self):
        with open(UPSTREAM_GRAMMAR) as f:
            upstream = json.load(f)
        up_ops = {i["opname"]: i for i in upstream["instructions"]}
        for inst in self.supplement["instructions"]:
            up = up_ops.get(inst["opname"])
            self.assertIsNotNone(up, inst["opname"])
            self.assertEqual(inst["opcode"], up["opcode"])
            self.assertEqual([(o["kind"], o.get("quantifier", "")) for o in inst["operands"]],
                             [(o["kind"], o.get("quantifier", "")) for o in up["operands"]], inst["opname"])
            self.assertEqual(inst["capabilities"], up.get("capabilities"), inst["opname"])
        up_kinds = {k["kind"]: k for k in upstream["operand_kinds"]}
        for kind in self.supplement["operand_kinds"]:
            up_enums = {e["enumerant"]: e for e in up_kinds[kind["kind"]]["enumerants"]}
            self.assertEqual(kind.get("category", up_kinds[kind["kind"]]["category"]),
                             up_kinds[kind["kind"]]["category"])
            for e in kind["enumerants"]:
                up = up_enums.get(e["enumerant"])
                self.assertIsNotNone(up, e["enumerant"])
                self.assertEqual(int(str(e["value"]), 0), int(str(up["value"]), 0), e["enumerant"])
                self.assertEqual(e.get("capabilities", []), up.get("capabilities", []), e["enumerant"])
                self.assertEqual(e.get("extensions", []), up.get("extensions", []), e["enumerant"])
        if "MatrixMultiplyAccumulateOperands" in up_kinds:
            ours = [k for k in self.supplement["operand_kinds"] if k["kind"] == "MatrixMultiplyAccumulateOperands"][0]
            self.assertEqual(len(ours["enumerants"]), len(up_kinds["MatrixMultiplyAccumulateOperands"]["enumerants"]))

    @unittest.skipUnless(os.path.exists(UPSTREAM_GRAMMAR), "upstream grammar not present")
    def test_2025_module_assembles_as_with_upstream_grammar(self):
        ours = spirv_asm.Grammar()
        upstream = spirv_asm.Grammar(core_path=UPSTREAM_GRAMMAR, supplement_path=None)
        words, used = spirv_asm.assemble(MODULE_2025, ours, (1, 2))
        self.assertTrue(used)
        up_words, up_used = spirv_asm.assemble(MODULE_2025, upstream, (1, 2))
        self.assertFalse(up_used)
        self.assertEqual(words, up_words)


MODULE_2025 = """OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int16
OpCapability SubgroupDispatch
OpCapability Subgroup2DBlockIOINTEL
OpCapability Subgroup2DBlockTransformINTEL
OpCapability Subgroup2DBlockTransposeINTEL
OpCapability SubgroupMatrixMultiplyAccumulateINTEL
OpExtension "SPV_INTEL_2d_block_io"
OpExtension "SPV_INTEL_subgroup_matrix_multiply_accumulate"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %fn "test"
OpExecutionMode %fn SubgroupSize 16
%u32 = OpTypeInt 32 0
%s32 = OpTypeInt 32 1
%s16 = OpTypeInt 16 1
%v2 = OpTypeVector %u32 2
%v8s16 = OpTypeVector %s16 8
%v8s32 = OpTypeVector %s32 8
%void = OpTypeVoid
%gptr = OpTypePointer CrossWorkgroup %u32
%fptr = OpTypePointer Function %u32
%fnty = OpTypeFunction %void %gptr
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c8 = OpConstant %u32 8
%c16 = OpConstant %u32 16
%c32 = OpConstant %u32 32
%c64 = OpConstant %u32 64
%c0 = OpConstant %u32 0
%coord = OpConstantComposite %v2 %c0 %c0
%a = OpUndef %v8s16
%b = OpUndef %v8s32
%acc = OpUndef %v8s32
%fn = OpFunction %void None %fnty
%base = OpFunctionParameter %gptr
%l = OpLabel
%dst = OpVariable %fptr Function
OpSubgroup2DBlockLoadINTEL %c2 %c16 %c8 %c1 %base %c64 %c8 %c64 %coord %dst
OpSubgroup2DBlockLoadTransformINTEL %c2 %c16 %c16 %c1 %base %c64 %c16 %c64 %coord %dst
OpSubgroup2DBlockLoadTransposeINTEL %c2 %c8 %c16 %c1 %base %c64 %c16 %c64 %coord %dst
OpSubgroup2DBlockPrefetchINTEL %c2 %c16 %c8 %c2 %base %c64 %c8 %c64 %coord
OpSubgroup2DBlockStoreINTEL %c2 %c16 %c8 %c1 %dst %base %c64 %c8 %c64 %coord
%r0 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8s32 %c32 %a %b %acc MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL
%r1 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8s32 %c32 %a %b %r0
%r2 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8s32 %c16 %a %b %r1 MatrixCBFloat16INTEL|MatrixResultBFloat16INTEL|MatrixATF32INTEL|MatrixBTF32INTEL|MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL|MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL|MatrixAPackedInt4INTEL|MatrixBPackedInt4INTEL
OpReturn
OpFunctionEnd
"""


class Supplement2025WordsTest(unittest.TestCase):
    """Encodings of the 2025 instructions follow the operand order in the specs (no upstream needed)."""

    def test_encodings(self):
        words, used = spirv_asm.assemble(MODULE_2025, spirv_asm.Grammar(), (1, 2))
        self.assertTrue(used)
        insts = []
        i = 5
        while i < len(words):
            n = words[i] >> 16
            insts.append(words[i:i + n])
            i += n
        by_op = {}
        for inst in insts:
            by_op.setdefault(inst[0] & 0xFFFF, []).append(inst)
        for op in (6231, 6232, 6233, 6235):
            self.assertEqual(len(by_op[op][0]), 11, op)  # 10 id operands
        self.assertEqual(len(by_op[6234][0]), 10)  # prefetch: no destination
        mma = by_op[6237]
        self.assertEqual(len(mma[0]), 8)
        self.assertEqual(mma[0][7], 0x1 | 0x2 | 0x10 | 0x20)
        self.assertEqual(len(mma[1]), 7)  # optional operands omitted
        self.assertEqual(mma[2][7], 0x3FCC)
        caps = [inst[1] for inst in insts if inst[0] & 0xFFFF == 17]
        for cap in (6228, 6229, 6230, 6236):
            self.assertIn(cap, caps)


if __name__ == "__main__":
    unittest.main()
