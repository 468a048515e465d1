"""End-to-end tests of scripts/assets/build_assets.py on the fixture source tree (fixtures/tree)."""

import binascii
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from testing.common import RULE_CHECK, SCRIPTS_DIR, SPIRV_AS, SPIRV_VAL

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

BUILD = os.path.join(SCRIPTS_DIR, "assets/build_assets.py")


class BuildAssetsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cts_assets_test_")
        self.src = os.path.join(self.tmp, "src")
        self.out = os.path.join(self.tmp, "out")
        shutil.copytree(os.path.join(FIXTURES, "tree"), self.src)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def build(self, expect_ok=True, rule_check=True):
        cmd = [sys.executable, BUILD, "--source-dir", self.src, "--out", self.out, "--spirv-as", SPIRV_AS,
               "--spirv-val", SPIRV_VAL, "--jobs", "2"]
        if rule_check and RULE_CHECK:
            cmd += ["--rule-check", RULE_CHECK]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(p.returncode == 0, expect_ok, p.stdout)
        return p.stdout

    def add_generator(self, name, body):
        with open(os.path.join(self.src, "scripts", "assets", "generators", name), "w") as f:
            f.write(body)

    def manifest(self):
        with open(os.path.join(self.out, "manifest.json")) as f:
            return json.load(f)

    def test_builds_manifest_and_modules(self):
        out = self.build()
        self.assertIn("assembled 4 (4 with spirv-as)", out)
        m = self.manifest()
        self.assertEqual(m["version"], 4)
        with open(os.path.join(self.out, "manifest.json"), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        with open(os.path.join(self.out, "manifest.sha256")) as f:
            self.assertEqual(f.read(), digest + "  manifest.json\n")
        names = [c["name"] for c in m["cases"]]
        self.assertEqual(names, sorted(names))
        self.assertEqual(names, ["2d_block_io.fixture.load.d32", "subgroups.fixture.hand",
                                 "subgroups.fixture.shuffle.sg16", "subgroups.fixture.shuffle.sg8"])
        by_name = {c["name"]: c for c in m["cases"]}
        hand = by_name["subgroups.fixture.hand"]
        self.assertEqual(hand["origin"], "spirv_new_assets/subgroups/fixture_hand.spvasm")
        self.assertEqual(hand["module"], "subgroups/fixture_hand.spv")
        self.assertEqual(hand["params"], {"note": "hand"})
        self.assertEqual(hand["tags"], ["extended"])
        gen = by_name["subgroups.fixture.shuffle.sg16"]
        self.assertEqual(gen["origin"], "scripts/assets/generators/fixture_gen.py")
        self.assertEqual(set(gen), {"name", "family", "module", "module_hash", "kernel", "params", "requires", "tags",
                                    "tier", "origin"})
        self.assertEqual(gen["tier"], "core")
        self.assertEqual(hand["tier"], "core")
        self.assertEqual(by_name["2d_block_io.fixture.load.d32"]["tier"], "device_specific")
        for c in m["cases"]:
            spv = os.path.join(self.out, "modules", c["module"])
            with open(spv, "rb") as f:
                self.assertEqual(f.read(4), b"\x03\x02\x23\x07", spv)
            self.assertTrue(os.path.exists(spv[:-4] + ".spvasm"))
        # SPIR-V 1.2 header by default.
        with open(os.path.join(self.out, "modules", "2d_block_io", "fixture_load.spv"), "rb") as f:
            self.assertEqual(f.read(8)[4:], b"\x00\x02\x01\x00")

    def test_module_table_lists_each_kernel_signature_once_per_module(self):
        self.build()
        m = self.manifest()
        self.assertEqual(list(m), ["version", "modules", "cases"])  # the table before the cases
        self.assertEqual(m["modules"], {
            "2d_block_io/fixture_load.spv": {"kernels": {"test": [["src", "global_buffer"]]}},
            "subgroups/fixture_hand.spv": {"kernels": {"test": []}},
            "subgroups/fixture_shuffle_sg16.spv": {"kernels": {"test": [["out", "global_buffer"]]}},
            "subgroups/fixture_shuffle_sg8.spv": {"kernels": {"test": [["out", "global_buffer"]]}}})
        for c in m["cases"]:
            self.assertNotIn("kernels", c)
        # One line per module: an --isolate worker finds its module's entry without parsing the table.
        with open(os.path.join(self.out, "manifest.json")) as f:
            self.assertIn('\n  "subgroups/fixture_hand.spv": {"kernels": {"test": []}},\n', f.read())
        # Up-to-date modules keep their signatures (from the stamp).
        out = self.build()
        self.assertIn("4 up to date", out)
        self.assertEqual(self.manifest()["modules"], m["modules"])

    def test_kernel_argument_without_opname_stops_the_build_naming_module_and_origin(self):
        path = os.path.join(self.src, "scripts", "assets", "generators", "fixture_gen.py")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace('               OpName %src "src"\n', ""))
        out = self.build(expect_ok=False)
        self.assertIn("module 2d_block_io/fixture_load.spv (from scripts/assets/generators/fixture_gen.py): kernel test "
                      "argument 0 without an OpName", out)

    def module_crc(self, module):
        with open(os.path.join(self.out, "modules", module), "rb") as f:
            return "crc32:%08x" % (binascii.crc32(f.read()) & 0xFFFFFFFF)

    def test_manifest_records_the_hash_of_every_module(self):
        self.build()
        cases = self.manifest()["cases"]
        self.assertTrue(cases)
        for c in cases:  # generated and hand-written modules alike
            self.assertRegex(c["module_hash"], r"^crc32:[0-9a-f]{8}$", c["name"])
            self.assertEqual(c["module_hash"], self.module_crc(c["module"]), c["name"])
        # A known vector, so the C++ side (ProgramCache::moduleHash) and this one agree on the algorithm.
        from assets import build_assets
        path = os.path.join(self.tmp, "check.bin")
        with open(path, "wb") as f:
            f.write(b"123456789")
        self.assertEqual(build_assets.module_hash(path), "crc32:cbf43926")

    def test_corrupted_module_is_reassembled_and_the_hash_stays_the_assembler_output(self):
        self.build()
        before = {c["name"]: c["module_hash"] for c in self.manifest()["cases"]}
        spv = os.path.join(self.out, "modules", "subgroups", "fixture_hand.spv")
        with open(spv, "rb") as f:
            good = f.read()
        with open(spv, "wb") as f:
            f.write(good[:-5] + bytes([good[-5] ^ 0x10]) + good[-4:])  # one flipped bit
        out = self.build()
        self.assertIn("assembled 1 (1 with spirv-as), 3 up to date", out)
        with open(spv, "rb") as f:
            self.assertEqual(f.read(), good)
        self.assertEqual({c["name"]: c["module_hash"] for c in self.manifest()["cases"]}, before)

    def test_rebuild_is_incremental_and_removes_stale_modules(self):
        self.build()
        out = self.build()
        self.assertIn("assembled 0 (none), 4 up to date", out)
        os.remove(os.path.join(self.src, "spirv_new_assets", "subgroups", "fixture_hand.spvasm"))
        out = self.build()
        self.assertIn("3 stale files removed", out)
        self.assertFalse(os.path.exists(os.path.join(self.out, "modules", "subgroups", "fixture_hand.spv")))
        self.assertNotIn("subgroups.fixture.hand", [c["name"] for c in self.manifest()["cases"]])

    def test_changed_text_is_reassembled(self):
        self.build()
        path = os.path.join(self.src, "spirv_new_assets", "subgroups", "fixture_hand.spvasm")
        with open(path, "a") as f:
            f.write("; trailing comment\n")
        self.assertIn("assembled 1 (1 with spirv-as), 3 up to date", self.build())

    def test_spirv_val_failure_names_module_and_output(self):
        self.add_generator("bad_val.py", '''
TEXT = """               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %test "test"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %test = OpFunction %void None %fn
      %entry = OpLabel
               OpFunctionEnd
"""
def generate(emit):
    emit.case("subgroups.bad", "f", emit.module("subgroups/bad_val", TEXT), "test", tier="core")
''')
        out = self.build(expect_ok=False)
        self.assertIn("module subgroups/bad_val (from scripts/assets/generators/bad_val.py; text in ", out)
        self.assertIn("spirv-val --target-env opencl2.2 failed", out)

    def test_a_binary_module_passes_only_the_documented_validator_rejection(self):
        # A compiler's module taken byte for byte (emit.binary_module, as spirv_new_assets/triton/): spirv-val's
        # rejection of a vector length VectorAnyINTEL allows is the documented exception; a module rejected for
        # anything else (here an OpFunction without a block terminator) stops the build, exception or not.
        body = """               OpCapability Addresses
               OpCapability Kernel
               OpCapability VectorAnyINTEL
               OpExtension "SPV_INTEL_vector_compute"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %test "test"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %v1int = OpTypeVector %uint 1
         %fn = OpTypeFunction %void
       %test = OpFunction %void None %fn
      %entry = OpLabel
RET               OpFunctionEnd
"""
        for name, text in (("vec1", body.replace("RET", "               OpReturn\n")),
                           ("noret", body.replace("      %v1int = OpTypeVector %uint 1\n", "").replace("RET", ""))):
            asm, spv = os.path.join(self.tmp, name + ".spvasm"), os.path.join(self.src, name + ".spv")
            with open(asm, "w") as f:
                f.write(text)
            subprocess.run([SPIRV_AS, "--target-env", "spv1.2", asm, "-o", spv], check=True)
        generator = """
import os
EXC = {"description": "VectorAnyINTEL vector lengths",
       "pattern": r"error: line \\d+: Illegal number of components \\((?!(?:2|3|4|8|16)\\))\\d+\\) for TypeVector\\n"
                  r"\\s*%\\S+ = OpTypeVector %\\S+ \\d+"}
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
def generate(emit):
    for name in NAMES:
        with open(os.path.join(ROOT, name + ".spv"), "rb") as f:
            module = emit.binary_module("subgroups/" + name, f.read(), {"test": []}, val_exception=EXC)
        emit.case("subgroups.bin_" + name, "f", module, "test", tier="core")
"""
        self.add_generator("binary.py", "NAMES = ['vec1']\n" + generator)
        self.build(rule_check=False)
        self.add_generator("binary.py", "NAMES = ['vec1', 'noret']\n" + generator)
        out = self.build(expect_ok=False, rule_check=False)
        self.assertIn("subgroups/noret", out)
        self.assertIn("not the documented exception: VectorAnyINTEL vector lengths", out)

    def test_modules_of_spirv_1_2_are_validated_in_the_opencl_env_float16_included(self):
        # SPIRV-Tools 2025.5's opencl2.2 env accepts Float16 (OpenCL accepts it with cl_khr_fp16); 2023.1's did
        # not, and the fp16 modules were validated in the plain spv1.2 env then. Now every module of SPIR-V 1.2
        # gets the OpenCL env, fp16 ones too: a capability the OpenCL environment does not allow (Shader), which
        # the plain env accepts, stops the build beside Float16.
        self.add_generator("half.py", '''
TEXT = """               OpCapability Addresses
               OpCapability Kernel
               OpCapability CAP
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %test "test"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %test = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"""
def generate(emit):
    emit.case("subgroups.half", "f", emit.module("subgroups/half", TEXT.replace("CAP", "Float16")), "test", tier="core")
    emit.case("subgroups.shader", "f", emit.module("subgroups/shader", TEXT.replace("CAP", "Float16\\n               OpCapability Shader")), "test", tier="core")
''')
        out = self.build(expect_ok=False)
        self.assertIn("module subgroups/shader (from scripts/assets/generators/half.py", out)
        self.assertIn("spirv-val --target-env opencl2.2 failed", out)
        self.assertIn("Capability Shader is not allowed by OpenCL", out)
        self.assertNotIn("subgroups/half", out)
        self.assertTrue(os.path.exists(os.path.join(self.out, "modules", "subgroups", "half.spv")))

    def test_spirv_as_failure_names_module(self):
        self.add_generator("bad_as.py", '''
def generate(emit):
    emit.case("subgroups.bad", "f", emit.module("subgroups/bad_as",
              'OpCapability Kernel\\nOpEntryPoint Kernel %t "test"\\nOpNotAnOpcode %x\\n'), "test", tier="core")
''')
        out = self.build(expect_ok=False)
        self.assertIn("module subgroups/bad_as (from scripts/assets/generators/bad_as.py; text in ", out)
        self.assertIn("bad_as.spvasm): spirv-as", out)
        self.assertIn("OpNotAnOpcode", out)

    @unittest.skipUnless(RULE_CHECK, "SPIRV_RULE_CHECK not set")
    def test_rule_violation_stops_the_build(self):
        with open(os.path.join(FIXTURES, "tree", "scripts", "assets", "generators", "fixture_gen.py")) as f:
            text = f.read()
        # Element Size 3: spirv-val (2025.5) accepts it, the rule checker does not ("Element Size must be 1,
        # 2, 4 or 8"); the constant 3 stands where the load's Element Size 4 was.
        self.assertIn("OpSubgroup2DBlockLoadINTEL %c4 ", text)
        text = text.replace("OpSubgroup2DBlockLoadINTEL %c4 ", "OpSubgroup2DBlockLoadINTEL %c3 ").replace(
            "        %c4 = OpConstant %uint 4\n", "        %c4 = OpConstant %uint 4\n        %c3 = OpConstant %uint 3\n")
        self.add_generator("fixture_gen.py", text)
        out = self.build(expect_ok=False)
        self.assertIn("fixture_load.spv: 2d_block_io.", out)
        self.assertNotIn("spirv-val", out)
        self.assertIn("(from scripts/assets/generators/fixture_gen.py)", out)

    def test_generator_errors_name_the_generator(self):
        self.add_generator("broken.py", "def generate(emit):\n    raise ValueError('boom')\n")
        out = self.build(expect_ok=False)
        self.assertIn("scripts/assets/generators/broken.py: generator raised", out)
        self.assertIn("ValueError: boom", out)

    def test_duplicate_case_across_files(self):
        self.add_generator("dup.py", '''
def generate(emit):
    emit.case("subgroups.fixture.hand", "f", "subgroups/fixture_hand.spv", "test")
''')
        out = self.build(expect_ok=False)
        self.assertIn("scripts/assets/generators/dup.py: case 'subgroups.fixture.hand' defined twice", out)

    def test_malformed_asset_header_names_file_and_line(self):
        path = os.path.join(self.src, "spirv_new_assets", "subgroups", "fixture_hand.spvasm")
        with open(path) as f:
            text = f.read().replace("; @param note=hand", "; @param note")
        with open(path, "w") as f:
            f.write(text)
        out = self.build(expect_ok=False)
        self.assertIn("spirv_new_assets/subgroups/fixture_hand.spvasm:3: @param needs key=value", out)

    def test_unused_handwritten_module_is_an_error(self):
        path = os.path.join(self.src, "spirv_new_assets", "subgroups", "unused.spvasm")
        shutil.copy(os.path.join(self.src, "spirv_new_assets", "subgroups", "fixture_hand.spvasm"), path)
        with open(path) as f:
            text = "".join(l for l in f if "@" not in l)
        with open(path, "w") as f:
            f.write(text)
        out = self.build(expect_ok=False)
        self.assertIn("spirv_new_assets/subgroups/unused.spvasm:1: declares no", out)


if __name__ == "__main__":
    unittest.main()
