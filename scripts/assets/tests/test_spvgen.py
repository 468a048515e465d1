"""Tests of scripts/assets/spvgen.py: Emitter validation and the hand-written asset header format."""

import os
import unittest

from assets import spvgen

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

KERNEL = """               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %test "test"
"""


def header(name):
    path = os.path.join(FIXTURES, "headers", name)
    with open(path, encoding="utf-8") as f:
        return spvgen.parse_asset_header(f.read(), "fixtures/headers/" + name)


class EmitterTest(unittest.TestCase):
    def setUp(self):
        self.emit = spvgen.Emitter("/nonexistent")
        self.emit.origin = "scripts/assets/generators/demo.py"
        self.mod = self.emit.module("subgroups/demo", KERNEL)

    def assertFails(self, fragment, fn, *args, **kwargs):
        with self.assertRaises(spvgen.SpvgenError) as ctx:
            fn(*args, **kwargs)
        self.assertIn(fragment, str(ctx.exception))
        self.assertIn("scripts/assets/generators/demo.py", str(ctx.exception))

    def test_module_returns_spv_path_and_dedups_identical_text(self):
        self.assertEqual(self.mod, "subgroups/demo.spv")
        self.assertEqual(self.emit.module("subgroups/demo", KERNEL), "subgroups/demo.spv")
        self.assertFails("different text", self.emit.module, "subgroups/demo", KERNEL + "; changed\n")

    def test_module_path_and_text_are_checked(self):
        self.assertFails("module path", self.emit.module, "Subgroups/Demo", KERNEL)
        self.assertFails("module path", self.emit.module, "subgroups/demo.spv", KERNEL)
        self.assertFails("not SPIR-V assembly", self.emit.module, "subgroups/x", "hello")

    def test_valid_case_lands_in_sorted_manifest(self):
        self.emit.case("subgroups.b.one", "subgroups.shuffle", self.mod, "test", params={"n": 1, "l": [1, 2]},
                       requires=["ext=cl_intel_spirv_subgroups@1.0", "sg_size=16", "images",
                                 "image_format=CL_R/CL_UNSIGNED_INT8", "spirv=1.2", "min_sg_size=16"],
                       tags=["quick", "regression"], tier="device_specific")
        self.emit.case("api.a", "api.query", None, None, tier="core")
        hashes = {"subgroups/demo.spv": "crc32:0123abcd"}
        signatures = {"subgroups/demo.spv": {"test": [["out", "global_buffer"]]}, "unused/x.spv": {"k": []}}
        manifest = lambda: self.emit.manifest(hashes, signatures)  # noqa: E731
        names = [c["name"] for c in manifest()["cases"]]
        self.assertEqual(names, ["api.a", "subgroups.b.one"])
        case = manifest()["cases"][1]
        self.assertEqual(case["origin"], "scripts/assets/generators/demo.py")
        self.assertEqual(case["module"], "subgroups/demo.spv")
        self.assertEqual(case["module_hash"], "crc32:0123abcd")
        self.assertEqual(case["tags"], ["quick", "regression"])
        self.assertNotIn("module_hash", manifest()["cases"][0])  # no module, no hash
        self.assertEqual(case["tier"], "device_specific")
        self.assertEqual(manifest()["cases"][0]["tier"], "core")
        self.assertEqual(manifest()["version"], 4)
        # The module table: the signatures of the modules the cases use, once each.
        self.assertEqual(manifest()["modules"],
                         {"subgroups/demo.spv": {"kernels": {"test": [["out", "global_buffer"]]}}})

    def test_every_case_names_its_tier(self):
        self.assertFails("tier None must be one of core, device_specific", self.emit.case, "subgroups.x", "f",
                         self.mod, "test")
        self.assertFails("tier 'optional' must be one of", self.emit.case, "subgroups.x", "f", self.mod, "test",
                         tier="optional")

    def test_names_are_validated(self):
        self.assertFails("dotted lowercase", self.emit.case, "subgroups.Shuffle", "f", self.mod, "test")
        self.assertFails("dotted lowercase", self.emit.case, "subgroups..x", "f", self.mod, "test")
        self.assertFails("dotted lowercase", self.emit.case, "subgroups.a-b", "f", self.mod, "test")
        self.assertFails("top level", self.emit.case, "shuffles.x", "f", self.mod, "test")
        self.assertFails("family", self.emit.case, "subgroups.x", "Bad Family", self.mod, "test")

    def test_names_are_unique(self):
        self.emit.case("subgroups.x", "f", self.mod, "test", tier="core")
        self.assertFails("defined twice", self.emit.case, "subgroups.x", "f", self.mod, "test")

    def test_module_and_kernel_must_exist(self):
        self.assertFails("was not emitted", self.emit.case, "subgroups.x", "f", "subgroups/other.spv", "test")
        self.assertFails("was not emitted", self.emit.case, "subgroups.x", "f", "subgroups/demo", "test")
        self.assertFails("no OpEntryPoint Kernel named", self.emit.case, "subgroups.x", "f", self.mod, "main")
        self.assertFails("without a module", self.emit.case, "subgroups.x", "f", None, "test")

    def test_params_requires_tags_are_validated(self):
        self.assertFails("parameter name", self.emit.case, "subgroups.x", "f", self.mod, "test", params={"A": 1})
        self.assertFails("must be a number", self.emit.case, "subgroups.x", "f", self.mod, "test",
                         params={"a": {"b": 1}})
        self.assertFails("must be a number", self.emit.case, "subgroups.x", "f", self.mod, "test",
                         params={"a": float("nan")})
        self.assertFails("must be a number", self.emit.case, "subgroups.x", "f", self.mod, "test",
                         params={"a": [1, "x"]})
        self.assertFails("requirement token", self.emit.case, "subgroups.x", "f", self.mod, "test",
                         requires=["sg=16"])
        self.assertFails("requirement token", self.emit.case, "subgroups.x", "f", self.mod, "test",
                         requires=["ext=CL_INTEL_X"])
        self.assertFails("unknown tag", self.emit.case, "subgroups.x", "f", self.mod, "test", tags=["quik"])
        for bad in ("max_alloc=0", "max_alloc=4G", "global_mem=", "max_alloc=01"):
            self.assertFails("requirement token", self.emit.case, "subgroups.x", "f", self.mod, "test",
                             requires=[bad])

    def test_memory_tokens_and_huge_tag(self):
        self.emit.case("2d_block_io.x", "f", self.mod, "test", requires=["max_alloc=4295032896",
                                                                         "global_mem=4295032896"],
                       tags=["huge"], tier="core")
        self.assertEqual(self.emit.cases["2d_block_io.x"]["tags"], ["huge"])

    def test_module_version(self):
        self.assertEqual(spvgen.module_version(KERNEL), (1, 2))
        self.assertEqual(spvgen.module_version("; @version 1.4\n" + KERNEL), (1, 4))


class AssetHeaderTest(unittest.TestCase):
    def test_good_header(self):
        cases = header("good.spvasm")
        self.assertEqual([c["name"] for c in cases], ["subgroups.fixture.first", "subgroups.fixture.second"])
        first = cases[0]
        self.assertEqual(first["family"], "subgroups.shuffle")
        self.assertEqual(first["kernel"], "test")
        self.assertEqual(first["requires"], ["ext=cl_intel_spirv_subgroups", "sg_size=16"])
        self.assertEqual(first["tags"], ["quick"])
        self.assertEqual(first["tier"], "core")
        self.assertEqual(first["params"], {"count": 16, "offset": -3, "mask": 31, "scale": 0.5, "enabled": True,
                                           "mode": "down", "label": "two words", "lanes": [0, 1, 2]})
        self.assertEqual(cases[1]["params"], {})
        self.assertEqual(cases[1]["requires"], [])

    def assertBad(self, name, line, fragment):
        with self.assertRaises(spvgen.SpvgenError) as ctx:
            header(name)
        msg = str(ctx.exception)
        self.assertIn("fixtures/headers/%s:%d:" % (name, line), msg)
        self.assertIn(fragment, msg)

    def test_bad_headers_name_file_and_line(self):
        self.assertBad("bad_unknown_directive.spvasm", 2, "unknown directive '@parm'")
        self.assertBad("bad_param_before_case.spvasm", 2, "@param before any @case")
        self.assertBad("bad_missing_kernel.spvasm", 1, "needs kernel=")
        self.assertBad("bad_missing_tier.spvasm", 1, "needs tier=")
        self.assertBad("bad_after_header.spvasm", 3, "after the first instruction")
        self.assertBad("bad_param_value.spvasm", 2, "bad value")
        self.assertBad("bad_case_field.spvasm", 1, "unknown @case field 'colour'")
        self.assertBad("bad_duplicate_param.spvasm", 3, "given twice")
        self.assertBad("bad_version.spvasm", 1, "@version needs MAJOR.MINOR")


if __name__ == "__main__":
    unittest.main()
