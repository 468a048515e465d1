"""Every built asset module: scripts/spirv_asm.py gives the bytes the pipeline wrote.

Modules without 2025 tokens were assembled by spirv-as, so this is the byte-for-byte comparison of the
fallback assembler against spirv-as over the whole suite. Modules with 2025 tokens are compared with an
assembly that uses the upstream grammar instead of the supplement, when that grammar is present.
"""

import os
import unittest

from common import ASSETS_DIR, UPSTREAM_GRAMMAR
import spirv_asm
import spvgen


def modules():
    root = os.path.join(ASSETS_DIR, "modules")
    for dirpath, _, filenames in os.walk(root):
        for fn in sorted(filenames):
            if fn.endswith(".spvasm"):
                yield os.path.relpath(os.path.join(dirpath, fn), root)


class AssetsMatchTest(unittest.TestCase):
    def test_every_module_matches(self):
        manifest = os.path.join(ASSETS_DIR, "manifest.json")
        self.assertTrue(os.path.exists(manifest), "no %s: build the 'assets' target first" % manifest)
        grammar = spirv_asm.Grammar()
        upstream = (spirv_asm.Grammar(core_path=UPSTREAM_GRAMMAR, supplement_path=None)
                    if os.path.exists(UPSTREAM_GRAMMAR) else None)
        compared = {"spirv-as": 0, "upstream": 0, "unchecked": 0}
        mismatches = []
        for relpath in modules():
            path = os.path.join(ASSETS_DIR, "modules", relpath)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path[: -len(".spvasm")] + ".spv", "rb") as f:
                built = f.read()
            version = spvgen.module_version(text)
            words, used = spirv_asm.assemble(text, grammar, version)
            if not used:
                compared["spirv-as"] += 1
                if spirv_asm.to_bytes(words) != built:
                    mismatches.append("%s: spirv_asm.py differs from spirv-as" % relpath)
            elif upstream is not None:
                compared["upstream"] += 1
                up_words, _ = spirv_asm.assemble(text, upstream, version)
                if spirv_asm.to_bytes(up_words) != built:
                    mismatches.append("%s: supplement and upstream grammar disagree" % relpath)
            else:
                compared["unchecked"] += 1
        print("compared %(spirv-as)d modules with spirv-as, %(upstream)d with the upstream grammar, "
              "%(unchecked)d unchecked" % compared)
        self.assertEqual(mismatches, [])


if __name__ == "__main__":
    unittest.main()
