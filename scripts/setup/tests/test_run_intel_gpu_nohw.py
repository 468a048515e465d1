"""Offline tests of scripts/setup/run_intel_gpu_nohw.sh: the usage errors, which come before the runtime is installed
or the runner copied (no network, no build needed)."""

import os
import subprocess
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "setup/run_intel_gpu_nohw.sh")
ME = "run_intel_gpu_nohw.sh"
PRODUCTS = "bmg pvc dg2 mtl lnl-m ptl"


class RunIntelGpuNohwTest(TempFiles, unittest.TestCase):
    def run_script(self, *args):
        env = dict(os.environ)
        env.pop("CTS_BUILD_DIR", None)
        # Were a usage error missed, the install must not reach the network or a real cache.
        env["INTEL_COMPUTE_RUNTIME_DIR"] = os.path.join(self.tmp.name, "runtime")
        env["INTEL_COMPUTE_RUNTIME_MIRROR"] = "http://127.0.0.1:9/debian"
        p = subprocess.run([SCRIPT] + list(args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=120)
        return p.returncode, p.stdout, p.stderr

    def test_help(self):
        rc, out, _ = self.run_script("--help")
        self.assertEqual(rc, 0)
        for word in ("PRODUCT", "bmg, pvc, dg2, mtl, lnl-m or ptl", "--build-dir=DIR", "CTS_BUILD_DIR", "--out=DIR",
                     "--no-install", "--build-only", "compute-runtime-26.27.json", "patchelf"):
            self.assertIn(word, out)

    def test_product_usage_errors(self):
        build = os.path.join(self.tmp.name, "no_build")
        for args, message in (([], "name a product: one of %s (see --help)" % PRODUCTS),
                              (["lnl"], "unknown product 'lnl': one of %s (see --help)" % PRODUCTS),
                              (["dg2-g10"], "unknown product 'dg2-g10': one of %s (see --help)" % PRODUCTS),
                              (["--build-dir=" + build, "subgroups.*"],
                               "unknown product 'subgroups.*': one of %s (see --help)" % PRODUCTS),
                              (["bmg", "--build-dir="], "--build-dir needs a directory: --build-dir=DIR (see --help)"),
                              (["bmg", "--out"], "--out needs a directory: --out=DIR (see --help)")):
            with self.subTest(args):
                rc, out, err = self.run_script(*args)
                self.assertEqual((rc, out, err), (2, "", "%s: error: %s\n" % (ME, message)))

    def test_missing_runner_is_a_usage_error(self):
        build = os.path.join(self.tmp.name, "no_build")
        rc, out, err = self.run_script("ptl", "--build-dir=" + build)
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "%s: error: no runner at %s/bin/spirv_intel_cts (build first, or --build-dir=DIR)\n"
                         % (ME, build))
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "runtime")))


if __name__ == "__main__":
    unittest.main()
