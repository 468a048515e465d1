"""scripts/assets/triton/check_frozen.py on a stand-in python whose "generate.py" copies a prepared directory: identical
output passes, a changed byte, a missing or a new module fails naming it, no triton is exit 77; validation.json
is compared only with the spirv-val release that wrote it. The real regeneration (Triton 3.3.0b1, about 7 s)
runs when scripts/setup/install_triton.sh's venv is there; nothing here reaches PyPI."""

import json
import os
import shutil
import subprocess
import sys
import unittest

from testing.common import REPO_DIR, SCRIPTS_DIR, TempFiles

CHECK = os.path.join(SCRIPTS_DIR, "assets", "triton", "check_frozen.py")
GENERATE = os.path.join(SCRIPTS_DIR, "assets", "triton", "generate.py")
FROZEN = os.path.join(REPO_DIR, "spirv_new_assets", "triton")

# Stands in for the venv's python: `-c ...` (the import check) answers FAKE_HAS_TRITON; `generate.py --out DIR
# [--spirv-val X]` copies FAKE_OUTPUT into DIR (validation.json only when --spirv-val was given) and exits
# FAKE_EXIT.
FAKE_PYTHON = """#!%s
import os, shutil, sys
if sys.argv[1] == "-c":
    sys.exit(0 if os.environ.get("FAKE_HAS_TRITON") == "1" else 1)
out = sys.argv[sys.argv.index("--out") + 1]
src = os.environ["FAKE_OUTPUT"]
os.makedirs(out, exist_ok=True)
for f in os.listdir(src):
    if f != "validation.json" or "--spirv-val" in sys.argv:
        shutil.copy(os.path.join(src, f), out)
print("fake generate.py")
sys.exit(int(os.environ.get("FAKE_EXIT", "0")))
""" % sys.executable

FAKE_SPIRV_VAL = "#!/bin/sh\necho 'SPIRV-Tools v%s 0123abc'\n"


class CheckFrozenTest(TempFiles, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.python = self.executable("python", FAKE_PYTHON)
        self.frozen = self.module_dir("frozen")
        self.output = self.module_dir("output")

    def executable(self, name, text):
        path = self.write(name, text)
        os.chmod(path, 0o755)
        return path

    def module_dir(self, name, validated_by="2025.5"):
        d = os.path.join(self.tmp.name, name)
        os.makedirs(d)
        for module, data in (("gemm_a", b"\x03\x02\x23\x07gemm"), ("copy_b", b"\x03\x02\x23\x07copy")):
            with open(os.path.join(d, module + ".spv"), "wb") as f:
                f.write(data)
        with open(os.path.join(d, "kernels.json"), "w") as f:
            json.dump({"modules": {"gemm_a": {"sha256": "1"}, "copy_b": {"sha256": "2"}}}, f)
        with open(os.path.join(d, "validation.json"), "w") as f:
            json.dump({"spirv_val": "SPIRV-Tools v%s 0123abc" % validated_by,
                       "modules": {"gemm_a": {"valid": False}, "copy_b": {"valid": True}}}, f)
        return d

    def check(self, *args, has_triton=True, spirv_val="2025.5", extra_env=None):
        env = dict(os.environ, FAKE_OUTPUT=self.output, FAKE_HAS_TRITON="1" if has_triton else "0")
        env.pop("SPIRV_VAL", None)
        env.update(extra_env or {})
        cmd = [CHECK, "--python", self.python, "--frozen", self.frozen]
        if spirv_val:
            cmd += ["--spirv-val", self.executable("spirv-val", FAKE_SPIRV_VAL % spirv_val)]
        p = subprocess.run(cmd + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                           universal_newlines=True, timeout=60)
        return p.returncode, p.stdout, p.stderr

    def test_identical_output_passes(self):
        rc, out, err = self.check()
        self.assertEqual(rc, 0, err)
        self.assertIn("2 modules and kernels.json and validation.json regenerate byte for byte", out)

    def test_a_changed_byte_fails_naming_the_module(self):
        with open(os.path.join(self.output, "gemm_a.spv"), "r+b") as f:
            f.seek(5)
            f.write(b"X")
        rc, out, err = self.check()
        self.assertEqual(rc, 1, out + err)
        self.assertIn("check_frozen: gemm_a: gemm_a.spv differs (frozen 8 bytes, regenerated 8; first difference "
                      "at byte 5)", err)
        self.assertNotIn("copy_b", err)

    def test_a_missing_or_new_module_fails_naming_it(self):
        os.remove(os.path.join(self.output, "copy_b.spv"))
        shutil.copy(os.path.join(self.output, "gemm_a.spv"), os.path.join(self.output, "gemm_c.spv"))
        rc, _, err = self.check()
        self.assertEqual(rc, 1, err)
        self.assertIn("copy_b: frozen, but the generator no longer makes it", err)
        self.assertIn("gemm_c: made by the generator, not frozen", err)

    def test_a_changed_kernels_json_names_the_modules_whose_entries_differ(self):
        with open(os.path.join(self.output, "kernels.json"), "w") as f:
            json.dump({"modules": {"gemm_a": {"sha256": "1"}, "copy_b": {"sha256": "changed"}}}, f)
        rc, _, err = self.check()
        self.assertEqual(rc, 1, err)
        self.assertIn("kernels.json differs: modules copy_b", err)

    def test_validation_is_compared_only_with_the_release_that_wrote_it(self):
        with open(os.path.join(self.output, "validation.json"), "w") as f:
            json.dump({"spirv_val": "SPIRV-Tools v2025.5 0123abc", "modules": {"gemm_a": {"valid": True}}}, f)
        rc, _, err = self.check()
        self.assertEqual(rc, 1, err)
        self.assertIn("validation.json differs: modules copy_b, gemm_a", err)
        rc, out, err = self.check(spirv_val="2026.1")
        self.assertEqual(rc, 0, err)
        self.assertIn("validation.json not compared: it is SPIRV-Tools v2025.5 0123abc's, the spirv-val here is "
                      "SPIRV-Tools v2026.1 0123abc", out)
        self.assertIn("2 modules and kernels.json regenerate byte for byte", out)

    def test_no_triton_is_a_skip(self):
        rc, out, _ = self.check(has_triton=False)
        self.assertEqual(rc, 77)
        self.assertIn("skipped: no triton in %s (install it: scripts/setup/install_triton.sh)" % self.python, out)
        rc, out, _ = self.check("--python", os.path.join(self.tmp.name, "absent", "python"))
        self.assertEqual(rc, 77, out)

    def test_a_failing_generator_is_a_failure_with_its_output(self):
        rc, _, err = self.check(extra_env={"FAKE_EXIT": "3"})
        self.assertEqual(rc, 1)
        self.assertIn("generate.py failed (exit 3):\nfake generate.py", err)

    def test_help_needs_no_triton(self):
        for script in (CHECK, GENERATE):
            p = subprocess.run([sys.executable, script, "--help"], stdout=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 0)
            self.assertIn("usage", p.stdout)

    def test_the_generator_without_triton_exits_77(self):
        # A triton package that cannot be imported, first on the path, whatever this python has installed.
        os.makedirs(os.path.join(self.tmp.name, "hide", "triton"))
        self.write("hide/triton/__init__.py", "raise ImportError('hidden by the test')\n")
        p = subprocess.run([sys.executable, GENERATE, "--out", os.path.join(self.tmp.name, "x")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                           env=dict(os.environ, PYTHONPATH=os.path.join(self.tmp.name, "hide")))
        self.assertEqual(p.returncode, 77, p.stderr)
        self.assertIn("triton is not installed", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "x")))


class FrozenTreeTest(unittest.TestCase):
    def test_every_frozen_module_has_its_entry_and_hash(self):
        import hashlib
        with open(os.path.join(FROZEN, "kernels.json")) as f:
            doc = json.load(f)
        files = sorted(f[:-4] for f in os.listdir(FROZEN) if f.endswith(".spv"))
        self.assertEqual(sorted(doc["modules"]), files)
        self.assertEqual(doc["triton"]["version"], "3.3.0b1")
        for name, m in doc["modules"].items():
            with open(os.path.join(FROZEN, m["file"]), "rb") as f:
                self.assertEqual(hashlib.sha256(f.read()).hexdigest(), m["sha256"], name)
            self.assertEqual(m["work_group_size"], [m["num_warps"] * m["threads_per_warp"], 1, 1], name)

    def test_the_real_regeneration_is_byte_identical(self):
        p = subprocess.run([CHECK], stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                           timeout=600)
        if p.returncode == 77:
            self.skipTest(p.stdout.strip())
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main()
