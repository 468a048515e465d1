"""Shared test settings: tool paths come from the environment CTest sets, else from PATH / defaults.

The tests run from scripts/ (the import root), as CTest runs them: `python3 -m unittest ROOM.tests.test_NAME`."""

import json
import os
import shutil
import tempfile

SCRIPTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_DIR = os.path.dirname(SCRIPTS_DIR)

SPIRV_AS = os.environ.get("SPIRV_AS") or shutil.which("spirv-as") or "spirv-as"
SPIRV_VAL = os.environ.get("SPIRV_VAL") or shutil.which("spirv-val") or "spirv-val"
RULE_CHECK = os.environ.get("SPIRV_RULE_CHECK") or ""
ASSETS_DIR = os.environ.get("CTS_ASSETS_DIR") or os.path.join(REPO_DIR, "build", "assets")


class TempFiles:
    """unittest mixin: a temporary directory per test and a helper that writes a file (text or JSON) in it."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, doc):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path
