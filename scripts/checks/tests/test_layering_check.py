"""Tests of scripts/checks/layering_check.py on small trees made for the test."""

import os
import subprocess
import sys
import unittest

from testing.common import REPO_DIR, SCRIPTS_DIR, TempFiles

CHECK = os.path.join(SCRIPTS_DIR, "checks/layering_check.py")

SHORT_MAIN = "int runnerMain(int argc, char** argv) {\n    return 0;\n}\n"
SHORT_PARSE = ("std::string parseOptions(const std::vector<std::string>& args, const EnvLookup& env,\n"
               "                         Options& out) {\n    return {};\n}\n")


def body(lines):
    return "".join("    step%d();\n" % i for i in range(lines))


class Layering(TempFiles, unittest.TestCase):
    def setUp(self):
        super().setUp()
        for d in ("test_common/cl", "test_common/harness/stages", "test_common/harness/reports",
                  "test_conformance/media"):
            os.makedirs(os.path.join(self.tmp.name, d))
        self.write("test_common/harness/stages/options.cpp", "std::string parseOptions(const Args&);\n" + SHORT_PARSE)
        self.write("test_common/cl/wrappers.cpp", '#include "test_common/errors.h"\n')
        self.write("test_common/harness/runner.cpp", '#include "test_common/cl/wrappers.h"\n' + SHORT_MAIN)

    def run_check(self, *args):
        p = subprocess.run([sys.executable, CHECK, "--repo", self.tmp.name] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def test_a_layered_tree_passes(self):
        rc, out, err = self.run_check()
        self.assertEqual(rc, 0, out + err)
        self.assertIn("runnerMain is 3 lines", out)
        self.assertIn("parseOptions is 4 lines", out)  # the definition, not the declaration above it

    def test_cl_including_harness_fails_naming_the_line(self):
        self.write("test_common/cl/kernel.h", '#pragma once\n#include "test_common/harness/model/case.h"\n')
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("test_common/cl/kernel.h:2 includes test_common/harness/model/case.h", out)

    def test_a_long_runner_main_fails(self):
        self.write("test_common/harness/runner.cpp", "int runnerMain(int argc, char** argv) {\n%s}\n" % body(60))
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("runnerMain is 62 lines (limit: under 60)", out)
        self.assertEqual(self.run_check("--max-lines", "63")[0], 0)

    def test_a_long_parse_options_fails(self):
        self.write("test_common/harness/stages/options.cpp",
                   "std::string parseOptions(const Args& a) {\n%s}\n" % body(59))
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("parseOptions is 61 lines (limit: under 60)", out)
        self.assertEqual(self.run_check("--max-parse-lines", "62")[0], 0)

    def test_a_missing_parse_options_is_status_2(self):
        self.write("test_common/harness/stages/options.cpp", "std::string parseOptions(const Args&);\n")
        rc, out, err = self.run_check()
        self.assertEqual(rc, 2, out)
        self.assertIn("no definition of parseOptions", err)

    def test_a_stage_taking_the_run_state_fails_naming_the_line(self):
        self.write("test_common/harness/stages/stage_load.cpp",
                   "RunState s(argc, argv);\n    RunState& alias = *state;\n"
                   "void loadCases(const RunEnvironment& env, LoadedCases& out);\n")
        self.assertEqual(self.run_check()[0], 0)  # owning one, or a stage taking its own parts, is fine
        self.write("test_common/harness/stages/stage_select.cpp",
                   "int x;\nvoid selectCases(Log& log,\n                 RunState& s) {}\n")
        self.write("test_common/harness/reports/sinks.h", "void open(const RunState* s);\n")
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("test_common/harness/stages/stage_select.cpp:3 takes the RunState", out)
        self.assertIn("test_common/harness/reports/sinks.h:1 takes the RunState", out)

    def test_a_long_family_run_fails_naming_it(self):
        self.write("test_conformance/media/media_family.cpp",
                   "class F {\n    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {\n%s    }\n"
                   "    void run(RunContext& ctx) { one(); }\n};\nvoid G::run(RunContext& ctx);\n" % body(77))
        self.write("test_conformance/media/media_test.cpp",
                   "TEST(M, N) {\n    auto run = [](int x) {\n%s    };\n}\n" % body(100))
        self.assertEqual(self.run_check()[0], 0)  # 79 lines; tests are not families
        self.write("test_conformance/media/media_case.h",
                   "struct L {\n    void run(RunContext& ctx,\n             const Spec& s) {\n%s    }\n};\n" % body(77))
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("test_conformance/media/media_case.h:2: run() is 80 lines (limit: under 80", out)
        self.assertNotIn("media_family", out)
        self.assertEqual(self.run_check("--max-run-lines", "81")[0], 0)

    def test_a_numeric_case_label_in_spirv_code_fails_naming_the_line(self):
        os.makedirs(os.path.join(self.tmp.name, "reference_device/spirv/decode"))
        os.makedirs(os.path.join(self.tmp.name, "test_common/spirv"))
        self.write("test_common/spirv/rules.cpp", "switch (x) {\n    case 4: break;\n    case spv::OpNop: break;\n}\n")
        rc, out, err = self.run_check()
        self.assertEqual(rc, 0, out + err)  # one digit and named values are fine
        self.write("reference_device/spirv/decode/types.cpp", "switch (bits) {\n  case 8: return 1;\n  case 16: return 2;\n}\n")
        self.write("test_common/spirv/module.h", "// a comment: in case 32 lanes\nswitch (op) { case 0x10u: }\n")
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("reference_device/spirv/decode/types.cpp:3 has the numeric case label 16", out)
        self.assertIn("test_common/spirv/module.h:2 has the numeric case label 0x10", out)
        self.assertNotIn("module.h:1", out)

    def test_an_opcode_number_in_spirv_code_fails_naming_the_line(self):
        os.makedirs(os.path.join(self.tmp.name, "reference_device/spirv/instructions"))
        self.write("reference_device/spirv/instructions/float.cpp",
                   "sub = uint16_t(IsNan + (op - token(spv::Op::OpIsNan)));\nif (number == 2) x();\n"
                   "if (components - 16) y();\n")
        rc, out, err = self.run_check()
        self.assertEqual(rc, 0, out + err)  # named opcodes, one digit, and other names are fine
        self.write("reference_device/spirv/instructions/integer.cpp",
                   "int a;\n    sub = uint16_t(Eq + (op - 170));\nif (opcode == 0x3d) z();\n")
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("reference_device/spirv/instructions/integer.cpp:2 uses the opcode number 170", out)
        self.assertIn("reference_device/spirv/instructions/integer.cpp:3 uses the opcode number 0x3d", out)

    def units(self, folder, count, tests=0):
        os.makedirs(os.path.join(self.tmp.name, folder), exist_ok=True)
        for i in range(count):
            self.write("%s/unit%d.h" % (folder, i), "#pragma once\n")
            self.write("%s/unit%d.cpp" % (folder, i), "")
        for i in range(tests):
            self.write("%s/unit%d_test.cpp" % (folder, i), "")

    def test_a_folder_over_25_units_fails_naming_it(self):
        self.units("reference_device/spirv", 25, tests=25)  # X.h, X.cpp and X_test.cpp are one unit
        rc, out, err = self.run_check()
        self.assertEqual(rc, 0, out + err)
        self.assertIn("no source folder over 25 units", out)
        self.units("reference_device/spirv", 26)
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("reference_device/spirv has 26 units (limit 25", out)
        self.assertEqual(self.run_check("--max-units", "26")[0], 0)

    def test_the_harness_has_no_exception_and_build_trees_are_not_read(self):
        self.units("build/generated", 30)
        self.write("build/CMakeCache.txt", "")
        self.units(".hidden", 30)
        rc, out, err = self.run_check()
        self.assertEqual(rc, 0, out + err)
        self.assertNotIn("build", out)
        self.assertNotIn("hidden", out)
        self.units("test_common/harness", 30)
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("test_common/harness has 3", out)

    def rooms(self, *rooms):
        for room in rooms:
            os.makedirs(os.path.join(self.tmp.name, "test_common/harness", room), exist_ok=True)

    def test_an_include_up_the_room_order_fails_naming_the_line(self):
        self.rooms("model", "input")
        self.write("test_common/harness/model/case.h", '#pragma once\n#include "test_common/harness/model/params.h"\n'
                   '#include "test_common/harness/input/path_guard.h"\n')
        self.write("test_common/harness/stages/stage_load.cpp", '#include "test_common/harness/launch/case_runner.h"\n')
        rc, out, err = self.run_check()
        self.assertEqual(rc, 0, out + err)  # its own room and lower ones
        self.write("test_common/harness/model/params.cpp", '#include "test_common/harness/model/params.h"\n'
                   '#include "test_common/harness/launch/case_runner.h"\n')
        self.write("test_common/harness/stages/runner_stages.h",
                   '#pragma once\n#include "test_common/harness/runner.h"\n')
        self.write("test_common/harness/input/json_input_test.cpp",
                   '#include "test_common/harness/selection/manifest.h"\n')  # a test too
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("test_common/harness/model/params.cpp:2 includes test_common/harness/launch/case_runner.h, "
                      "above its room", out)
        self.assertIn("test_common/harness/stages/runner_stages.h:2 includes test_common/harness/runner.h", out)
        self.assertIn("test_common/harness/input/json_input_test.cpp:1 includes", out)
        self.assertEqual(out.count("above its room"), 3, out)

    def test_a_harness_folder_outside_the_room_order_fails(self):
        self.rooms("misc")
        self.write("test_common/harness/misc/helper.h", "#pragma once\n")
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("test_common/harness/misc/helper.h is in test_common/harness/misc/, a folder not in the room "
                      "order", out)

    def test_a_loose_unit_on_the_top_floor_fails_naming_it(self):
        self.write("test_common/harness/runner.h", "#pragma once\n")  # runner is the top floor's own unit
        self.assertEqual(self.run_check()[0], 0)
        self.write("test_common/harness/case_index_test.cpp", "")
        rc, out, _ = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("test_common/harness/case_index is a loose unit on the harness's top floor", out)

    def test_the_real_tree_passes(self):
        p = subprocess.run([sys.executable, CHECK], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("every include of test_common/harness goes to its room or a lower one", p.stdout)

    def test_no_runner_main_is_one_line_and_status_2(self):
        self.write("test_common/harness/runner.cpp", "int other() { return 0; }\n")
        rc, out, err = self.run_check()
        self.assertEqual(rc, 2, out)
        self.assertEqual(len(err.strip().split("\n")), 1, err)
        self.assertNotIn("Traceback", err)

    def test_a_missing_tree_is_one_line_and_status_2(self):
        p = subprocess.run([sys.executable, CHECK, "--repo", os.path.join(self.tmp.name, "nope")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(len(p.stderr.strip().split("\n")), 1, p.stderr)


class ImportCircles(TempFiles, unittest.TestCase):
    """The import-circle rule on a tree that keeps every other rule."""

    def setUp(self):
        super().setUp()
        for d in ("test_common/cl", "test_common/harness/stages", "test_conformance", "scripts/a", "scripts/b",
                  "tools"):
            os.makedirs(os.path.join(self.tmp.name, d))
        self.write("test_common/harness/stages/options.cpp", SHORT_PARSE)
        self.write("test_common/harness/runner.cpp", SHORT_MAIN)
        for package in ("scripts/a", "scripts/b"):
            self.write(package + "/__init__.py", "")

    def run_check(self):
        p = subprocess.run([sys.executable, CHECK, "--repo", self.tmp.name], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def test_one_way_imports_pass(self):
        self.write("scripts/a/x.py", "import os\nimport numpy\nfrom b import y\nfrom b.y import VALUE\n")
        self.write("scripts/b/y.py", "VALUE = 1\n")
        self.write("tools/run.py", "import helper\n")
        self.write("tools/helper.py", "from a import x\n")
        rc, out, err = self.run_check()
        self.assertEqual(rc, 0, out + err)
        self.assertIn("imports ok: no circle among the 6 Python files", out)

    def test_a_circle_through_a_lazy_import_fails_in_one_line(self):
        self.write("scripts/a/x.py", "from b import y\n")
        self.write("scripts/b/y.py", "def later():\n    from a import x\n    return x\n")
        rc, out, err = self.run_check()
        self.assertEqual(rc, 1, out + err)
        self.assertEqual([line for line in out.splitlines() if "circle" in line],
                         ["import circle: scripts/a/x.py -> scripts/b/y.py -> scripts/a/x.py"])

    def test_a_circle_of_three_neighbours_and_a_relative_import_each_fail_once(self):
        self.write("tools/p.py", "import q\n")
        self.write("tools/q.py", "import r as renamed\n")
        self.write("tools/r.py", "from p import main\n")
        self.write("scripts/a/x.py", "from . import z\n")
        self.write("scripts/a/z.py", "from .x import f\n")
        rc, out, err = self.run_check()
        self.assertEqual(rc, 1, out + err)
        self.assertEqual([line for line in out.splitlines() if "circle" in line],
                         ["import circle: scripts/a/x.py -> scripts/a/z.py -> scripts/a/x.py",
                          "import circle: tools/p.py -> tools/q.py -> tools/r.py -> tools/p.py"])

    def test_a_python_file_that_does_not_parse_is_one_line_and_status_2(self):
        self.write("scripts/a/x.py", "def broken(:\n")
        rc, out, err = self.run_check()
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(len(err.strip().split("\n")), 1, err)
        self.assertIn("scripts/a/x.py", err)

    def test_the_project_tree_has_no_import_circle(self):
        p = subprocess.run([sys.executable, CHECK, "--repo", REPO_DIR], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        self.assertNotIn("import circle", p.stdout)
        self.assertIn("imports ok", p.stdout, p.stderr)


if __name__ == "__main__":
    unittest.main()
