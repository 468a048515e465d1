"""Tests of scripts/assets/generators/compiled.py: no compilers, no cases; a failing compiler is one SpvgenError naming
the tool and its output; the imported kernels' prefix is dropped from the import names (and its absence is an
error); with the real compilers (when installed) a module holds the extension's opcode, and an imported one the
built-in's import instead."""

import importlib.util
import os
import shutil
import stat
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
from assets import spvgen  # noqa: E402


def load_generator():
    spec = importlib.util.spec_from_file_location("compiled_generator",
                                                  os.path.join(REPO, "scripts", "assets", "generators", "compiled.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class CompiledGeneratorTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.gen = load_generator()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def emitter(self, tools):
        e = spvgen.Emitter(self.tmp)
        e.tools = tools
        return e

    def compile_shuffle(self, **extra):
        """shuffle.cl (shuffle down of one uint, sub-group size 16) at -O2 with the installed clang-15,
        llvm-spirv-15 and spirv-dis, plus the defines in extra; its disassembly. Skips without the tools."""
        tools = {"clang": shutil.which("clang-15"), "llvm_spirv": shutil.which("llvm-spirv-15"),
                 "spirv_dis": shutil.which("spirv-dis")}
        if not all(tools.values()):
            self.skipTest("clang-15, llvm-spirv-15 or spirv-dis not installed")
        e = self.emitter(tools)
        defines = dict({"OP": 1, "T": "uint", "N": 1, "SG": 16, "VEC": "uint", "PER_COMPONENT": 0}, **extra)
        path = self.gen.Compiler(e).module("shuffle.cl", "o2", defines, "compiled/o2/t", "test")
        return e.modules[path[:-4]]["text"]

    def test_without_compilers_the_group_is_absent(self):
        e = self.emitter({"clang": None, "llvm_spirv": None, "spirv_dis": None})
        self.gen.generate(e)
        self.assertEqual((len(e.cases), len(e.modules)), (0, 0))

    def test_failing_compiler_is_one_error_with_its_output(self):
        fake = os.path.join(self.tmp, "clang-15")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho 'fake: no such built-in' >&2\nexit 1\n")
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
        e = self.emitter({"clang": fake, "llvm_spirv": fake, "spirv_dis": fake})
        with self.assertRaises(spvgen.SpvgenError) as ctx:
            self.gen.generate(e)
        self.assertIn("clang-15 failed", str(ctx.exception))
        self.assertIn("fake: no such built-in", str(ctx.exception))

    def test_real_compilers_emit_the_extension_opcode(self):
        text = self.compile_shuffle()
        self.assertIn("OpSubgroupShuffleDownINTEL", text)
        self.assertIn("; @version 1.1", text)
        self.assertEqual(spvgen.module_version(text), (1, 1))

    def test_rename_imports_drops_the_prefix_and_keeps_the_length_right(self):
        text = ('OpName %_Z34__imported_intel_sub_group_shuffleDv4_jj "_Z34__imported_intel_sub_group_shuffleDv4_jj"\n'
                'OpDecorate %_Z34__imported_intel_sub_group_shuffleDv4_jj LinkageAttributes '
                '"_Z34__imported_intel_sub_group_shuffleDv4_jj" Import\n'
                '%r = OpFunctionCall %v4uint %_Z34__imported_intel_sub_group_shuffleDv4_jj %a %b\n')
        out = self.gen.rename_imports(text, "t")
        self.assertNotIn("__imported_", out)
        self.assertIn('LinkageAttributes "_Z23intel_sub_group_shuffleDv4_jj" Import', out)
        self.assertIn("OpFunctionCall %v4uint %_Z23intel_sub_group_shuffleDv4_jj %a", out)

    def test_rename_imports_without_an_import_is_an_error(self):
        with self.assertRaises(spvgen.SpvgenError) as ctx:
            self.gen.rename_imports("%r = OpSubgroupShuffleINTEL %uint %a %b\n", "t")
        self.assertIn("__imported_", str(ctx.exception))

    def test_real_compilers_keep_an_imported_builtin_as_an_import(self):
        text = self.compile_shuffle(IMPORTED=1)
        self.assertNotIn("OpSubgroupShuffleDownINTEL", text)
        self.assertIn('LinkageAttributes "_Z28intel_sub_group_shuffle_downjjj" Import', text)
        self.assertIn("OpFunctionCall %uint %_Z28intel_sub_group_shuffle_downjjj", text)


if __name__ == "__main__":
    unittest.main()
