#!/usr/bin/env python3
"""Cross-checks the offline-compiler mode's verdicts with an independent compile of every module.

For each target, every module of the manifest is compiled with ocloc (in temporary directories, no reuse of the
runner's work; in batches of `ocloc multi`, a module it rejects or dies on compiled again on its own so that its
verdict and error line are those of a compile of its own), each case's requirement tokens are evaluated here
against the target description (this script's own reading of it and of the compiler release ocloc reports), and
the runner's report of the same target (spirv_intel_cts --offline-compiler=ocloc --target=TARGET --json=...)
must agree case by case:

- a case whose requirements the target meets: Pass when ocloc accepts its module; when ocloc rejects it, Fail
  in phase build (or Waived, with an entry of docs/waivers/igc-*.json for this compiler and target) for a core
  case, NotSupported for a device_specific one;
- a case whose requirements the target does not meet, or without a module: NotSupported;
- a case needing an extension version above the one the target reports (`ext=NAME@M.m`, a version gap: the
  version that promises the SPIR-V environment is not reported, the compiler may still accept the module)
  is judged as device_specific, and the report must say so (its tier and "version_gaps");
- no case is Fail while ocloc accepts its module, and no rejected core case is left without a Fail/Waived.

  offline_cross_check.py [--build-dir=DIR] [--report-dir=DIR] [--ocloc=PATH] [--waiver-file=FILE]... [--jobs=N]
                         TARGET...
  offline_cross_check.py [--build-dir=DIR] [--ocloc=PATH] --known-targets

--known-targets prints the described targets (BUILD/targets/*.json) that name this ocloc's release, one a line.

Reports: REPORT_DIR/TARGET.json (default BUILD/offline_compiler, as scripts/setup/run_offline_compiler.sh writes).
Exit 0 when every target agrees, 1 on a disagreement (each listed), 2 on bad input (a report, manifest, target
description or waiver file that is missing, not a regular file, not JSON or of the wrong shape: one line
"offline_cross_check: FILE: what is wrong"); 77 without ocloc.
"""

import argparse
import concurrent.futures
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from assets import families  # noqa: E402
from reports import report_io  # noqa: E402  (checked inputs)

# {case family: [{"when": {param: value}, "extension", "reason"}]}: the C++ families' support checks that the
# offline judge repeats (test_conformance/<group>/family.json, "offline_support").
try:
    FAMILY_SUPPORT = {d["group"]: d.get("offline_support", []) for d in families.descriptors()}
except families.FamilyError as _e:
    sys.exit("offline_cross_check: %s" % _e)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 600  # seconds, for an ocloc compile or multi run


class InputError(Exception):
    pass


def load_json(path, what, shape=None):
    """A JSON input; shape(doc) is False (or raises KeyError/TypeError/AttributeError) when doc is malformed."""
    try:
        doc = report_io.load_report(path) if what == "report" else report_io.load_json(path, what)
    except report_io.ReportError as e:
        raise InputError(str(e))
    try:
        ok = shape is None or shape(doc)
    except (KeyError, TypeError, AttributeError):
        ok = False
    if not ok:
        raise InputError("%s: not a %s of the expected shape" % (path, what))
    return doc


def manifest_shape(doc):
    return all(isinstance(c["name"], str) and isinstance(c.get("requires", []), list) for c in doc["cases"])


def waivers_shape(doc):
    return all(isinstance(e["cases"], list) and isinstance(e.get("device", {}), dict) for e in doc["waivers"])


def dotted(text):
    m = re.match(r"^\s*(\d+(?:\.\d+)*)", text or "")
    return tuple(int(x) for x in m.group(1).split(".")) if m else None


def same_version(a, b):
    pa, pb = dotted(a), dotted(b)
    if pa is None or pb is None:
        return False
    n = max(len(pa), len(pb))
    return pa + (0,) * (n - len(pa)) == pb + (0,) * (n - len(pb))


def ocloc_driver_version(ocloc):
    """`ocloc query OCL_DRIVER_VERSION` writes its answer to a file of that name in the working directory."""
    with tempfile.TemporaryDirectory(prefix="cts_cross_check_") as d:
        subprocess.run([ocloc, "query", "OCL_DRIVER_VERSION"], cwd=d, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
        try:
            with open(os.path.join(d, "OCL_DRIVER_VERSION"), "rb") as f:
                return f.read().replace(b"\0", b"").decode().strip()
        except OSError:
            raise InputError("%s query OCL_DRIVER_VERSION wrote no answer" % ocloc)


class Target:
    """What the description says the target reports with the compiler release of this ocloc."""

    def __init__(self, doc, driver_version, path):
        release = None
        for igc, rel in doc["compilers"].items():
            if same_version(rel["ocloc_driver_version"], driver_version):
                release, self.igc = rel, igc
        if release is None:
            raise InputError("%s describes no compiler release for ocloc %s" % (path, driver_version))
        self.name = doc["target"]
        self.extensions = {k: dotted(v) for k, v in release.get("extensions", doc["extensions"]).items()}
        self.il = {dotted(v.split("_", 1)[1]) for v in (release.get("il_versions") or doc["il_versions"])}
        self.sizes = doc["sub_group_sizes"]
        self.fp16, self.fp64, self.int64 = doc["fp16"], doc["fp64"], doc.get("int64", True)
        images = doc["images"]
        self.images = images["supported"]
        self.formats = set(images.get("read_write_formats", []))
        self.max_alloc = doc.get("max_mem_alloc_size") or 0
        self.global_mem = doc.get("global_mem_size") or 0

    def missing(self, case):
        """The first requirement the target does not meet ("" when it meets all), as the runner reads them."""
        for token in case.get("requires", []):
            key, _, value = token.partition("=")
            if key == "ext":
                name, _, version = value.partition("@")
                if name not in self.extensions:
                    return token  # below a token's version is a gap, not a lack (gaps())
            elif key == "spirv":
                if not any(v[:2] >= dotted(value)[:2] for v in self.il):
                    return token
            elif key == "sg_size":
                if int(value) not in self.sizes:
                    return token
            elif key == "min_sg_size":
                if min(self.sizes) != int(value):
                    return token
            elif token in ("images", "fp16", "fp64", "int64"):
                if not {"images": self.images, "fp16": self.fp16, "fp64": self.fp64, "int64": self.int64}[token]:
                    return token
            elif key == "image_format":
                if not self.images or value not in self.formats:
                    return token
            elif key == "max_alloc":
                if self.max_alloc < int(value):
                    return token
            elif key == "global_mem":
                if self.global_mem < int(value):
                    return token
            else:
                raise InputError("unknown requirement token %r in %s" % (token, case["name"]))
        # A family's own support checks beyond the requirement tokens (its descriptor's "offline_support").
        params = case.get("params", {})
        for check in FAMILY_SUPPORT.get(case.get("family", "").split(".")[0], []):  # family -> its group
            if all(params.get(k) == v for k, v in check["when"].items()) and \
                    check["extension"] not in self.extensions:
                return check["reason"]
        return ""


    def gaps(self, case):
        """The extensions of the case's version tokens that the target reports below the token's version."""
        out = []
        for token in case.get("requires", []):
            key, _, value = token.partition("=")
            name, _, version = value.partition("@")
            have = self.extensions.get(name)
            if key == "ext" and version and have is not None and have[:2] < dotted(version)[:2]:
                out.append(name)
        return out


def has_binary(out):
    """A device binary was written: a non-empty regular *.bin file in `out`, the runner's rule (an empty
    directory, a 0-byte file or any other entry is not one; offline_compiler.cpp)."""
    try:
        entries = os.listdir(out)
    except OSError:
        return False
    for name in entries:
        path = os.path.join(out, name)
        if name.endswith(".bin") and os.path.isfile(path) and not os.path.islink(path) and os.path.getsize(path) > 0:
            return True
    return False


def compile_module(ocloc, module, target):
    """(accepted, first error line) from a compile of its own."""
    with tempfile.TemporaryDirectory(prefix="cts_cross_check_") as d:
        out = os.path.join(d, "out")
        p = subprocess.run([ocloc, "compile", "-spirv_input", "-file", module, "-device", target, "-out_dir", out],
                           cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                           errors="replace", timeout=TIMEOUT)
        built = p.returncode == 0 and has_binary(out)
        error = next((l.strip() for l in p.stdout.splitlines() if "error" in l.lower()), p.stdout.strip()[:200])
        return built, ("" if built else error)


def compile_batch(ocloc, modules, target):
    """{module: (accepted, first error line)}, as compile_module says, from `ocloc multi` runs over the modules.

    A module is accepted when its section of the output says "Build succeeded." and its out dir holds a binary; one
    whose build failed, or during which ocloc died or hung, is compiled on its own (compile_module); those ocloc
    never came to go to another run, and all of them on their own when a run came to none. A module whose path
    cannot go in a command line (ocloc's only quoting is "..." or '...') is compiled on its own."""
    single = [m for m in modules if re.search(r"[\"'\r\n]", m + target)]
    todo = [m for m in modules if m not in single]
    results = {}
    while todo:
        with tempfile.TemporaryDirectory(prefix="cts_cross_check_") as d:
            with open(os.path.join(d, "builds"), "w") as f:  # out dirs relative to d: d needs no quoting
                f.writelines('-file "%s" -spirv_input -device "%s" -out_dir o%d\n' % (m, target, k)
                             for k, m in enumerate(todo, 1))
            p = subprocess.Popen([ocloc, "multi", "builds"], cwd=d, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, universal_newlines=True, errors="replace")
            try:
                text = p.communicate(timeout=TIMEOUT)[0]
            except subprocess.TimeoutExpired:
                p.kill()
                text = p.communicate()[0]  # what it printed before
            sections, k = {}, None
            for line in text.splitlines():
                start = re.match(r"Command number (\d+): ?$", line)
                k = int(start.group(1)) if start else k
                sections.setdefault(k, []).append(line)
            rest = []
            for k, m in enumerate(todo, 1):
                out = os.path.join(d, "o%d" % k)
                if k not in sections:
                    rest.append(m)
                elif "Build succeeded." in sections[k] and has_binary(out):
                    results[m] = (True, "")
                else:
                    single.append(m)
        if len(rest) == len(todo):
            single += rest  # the run came to none of them
            break
        todo = rest
    results.update((m, compile_module(ocloc, m, target)) for m in single)
    return results


def waiver_covers(entries, target, igc, name):
    for e in entries:
        dev = e.get("device", {})
        if "platform" in dev and not fnmatch.fnmatchcase("ocloc", dev["platform"]):
            continue
        if "name" in dev and not fnmatch.fnmatchcase(target, dev["name"]):
            continue
        bounds = dev.get("driver_version", {})
        if "min" in bounds and dotted(igc) < dotted(bounds["min"]):
            continue
        if "max" in bounds and dotted(igc) > dotted(bounds["max"]):
            continue
        prefixes = [name] + [name[:i] for i, c in enumerate(name) if c == "."]
        if any(fnmatch.fnmatchcase(p, pat) for pat in e["cases"] for p in prefixes):
            return e
    return None


def check_target(target_name, args, manifest, waivers):
    desc_path = os.path.join(args.build_dir, "targets", target_name + ".json")
    description = load_json(desc_path, "target description")
    try:
        target = Target(description, ocloc_driver_version(args.ocloc), desc_path)
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise InputError("%s: not a target description of the expected shape (%s: %s)" % (
            desc_path, type(e).__name__, e))
    report_path = os.path.join(args.report_dir, target_name + ".json")
    report = load_json(report_path, "report")
    verdicts = {c["name"]: c for c in report.get("cases", [])}
    modules_dir = os.path.join(args.build_dir, "assets", "modules")
    # The modules of the report's cases whose requirements the target meets: the others are NotSupported
    # whatever the compiler says.
    modules = sorted({c["module"] for c in manifest["cases"]
                      if c.get("module") and c["name"] in verdicts and not target.missing(c)})
    start = time.time()
    compiled = {}
    # Batches of `ocloc multi` (ocloc's start-up is about half of a single compile): some 4 a job, at most 32
    # modules each.
    size = max(1, min(32, -(-len(modules) // (4 * args.jobs))))
    paths = {os.path.join(modules_dir, m): m for m in modules}
    batches = [[os.path.join(modules_dir, m) for m in modules[i:i + size]] for i in range(0, len(modules), size)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for done in pool.map(lambda b: compile_batch(args.ocloc, b, target.name), batches):
            compiled.update((paths[p], v) for p, v in done.items())
    seconds = time.time() - start

    problems = []
    counts = {}
    for case in manifest["cases"]:
        name = case["name"]
        got = verdicts.get(name)
        if got is None:
            continue  # not selected in that run (e.g. --extended cases)
        status = got["status"] if got["status"] != "Waived" else "Waived(%s)" % got.get("original_status")
        missing = target.missing(case)
        gaps = [] if missing else target.gaps(case)
        tier = "device_specific" if gaps else case.get("tier")
        module = case.get("module")
        if got.get("tier") != tier and not missing and module:
            problems.append("%s: report says tier %s, expected %s%s" % (
                name, got.get("tier"), tier, " (the target reports %s below the case's version)" % ", ".join(gaps)
                if gaps else ""))
        if sorted(got.get("version_gaps", [])) != sorted(gaps) and not missing and module:
            problems.append("%s: report names version gaps %s, expected %s" % (
                name, got.get("version_gaps", []), gaps))
        if missing or not module:
            want = {"NotSupported"}
            why = "target lacks %s" % missing if missing else "runs no module"
        else:
            built, error = compiled[module]
            if built:
                want, why = {"Pass"}, "ocloc accepts %s" % module
            elif tier == "device_specific":
                want, why = {"NotSupported"}, "device_specific, ocloc rejects %s: %s" % (module, error)
            else:
                waiver = waiver_covers(waivers, target.name, target.igc, name)
                want = {"Waived(Fail)"} if waiver else {"Fail"}
                why = "core, ocloc rejects %s: %s%s" % (module, error,
                                                       " (waived: %s)" % waiver["tracker"] if waiver else
                                                       " and no waiver names it")
                if not waiver:
                    problems.append("%s: core case rejected by ocloc without a waiver: %s" % (name, error))
        counts[status] = counts.get(status, 0) + 1
        if status not in want:
            problems.append("%s: report says %s, expected %s (%s)" % (name, status, "/".join(sorted(want)), why))
    # The C++ cases (api.*) have no manifest entry and run no module.
    names = {c["name"] for c in manifest["cases"]}
    for name, got in sorted(verdicts.items()):
        if name not in names:
            counts[got["status"]] = counts.get(got["status"], 0) + 1
            if got["status"] != "NotSupported":
                problems.append("%s: report says %s for a case that runs no module" % (name, got["status"]))
    rejected = sum(1 for b, _ in compiled.values() if not b)
    print("%s: %d modules compiled independently in %.0f s (%d rejected); %d cases checked: %s" % (
        target.name, len(modules), seconds, rejected, sum(counts.values()),
        ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items()))))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", nargs="*")
    ap.add_argument("--known-targets", action="store_true",
                    help="print the described targets whose description names this ocloc's release, and exit")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--report-dir", default=None)
    ap.add_argument("--ocloc", default=os.environ.get("OCLOC") or shutil.which("ocloc"))
    ap.add_argument("--waiver-file", action="append", dest="waivers", default=None,
                    help="a waiver file (repeatable; default docs/waivers/igc-*.json)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not args.ocloc or not os.access(args.ocloc, os.X_OK):
        print("skipped: no ocloc (Debian: apt-get install intel-opencl-icd)")
        return 77
    if not args.targets and not args.known_targets:
        ap.error("name at least one target (or --known-targets)")
    # The compiler runs in temporary directories: every path handed to it must be absolute.
    args.build_dir = os.path.abspath(args.build_dir)
    if args.known_targets:
        try:
            version = ocloc_driver_version(args.ocloc)
            for path in sorted(glob.glob(os.path.join(args.build_dir, "targets", "*.json"))):
                doc = load_json(path, "target description")
                if any(same_version(r.get("ocloc_driver_version", ""), version)
                       for r in doc.get("compilers", {}).values()):
                    print(report_io.printable(os.path.basename(path)[:-len(".json")]))
        except (InputError, AttributeError) as e:
            print("offline_cross_check: %s" % report_io.printable(e), file=sys.stderr)
            return 2
        return 0
    args.report_dir = os.path.abspath(args.report_dir or os.path.join(args.build_dir, "offline_compiler"))
    try:
        manifest = load_json(os.path.join(args.build_dir, "assets", "manifest.json"), "manifest", manifest_shape)
        waiver_files = args.waivers if args.waivers is not None else sorted(
            glob.glob(os.path.join(ROOT, "docs", "waivers", "igc-*.json")))
        waivers = [e for w in waiver_files for e in load_json(w, "waiver file", waivers_shape)["waivers"]]
        problems = []
        for t in args.targets:
            problems += check_target(t, args, manifest, waivers)
    except InputError as e:
        print("offline_cross_check: %s" % report_io.printable(e), file=sys.stderr)
        return 2
    for p in problems[:50]:
        print("DISAGREE " + report_io.printable(p))  # case names and statuses come from the report
    if len(problems) > 50:
        print("... and %d more" % (len(problems) - 50))
    print("%d disagreement(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
