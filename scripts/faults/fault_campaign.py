#!/usr/bin/env python3
"""Mutation campaign: shows that the suite catches every planted reference-device fault.

For each profile, runs the selected case group(s) once on the clean reference device (which must pass
everything) and once per fault with REFDEV_FAULTS=<fault>, then prints per fault how many cases failed.
Exit status 1 when a fault is caught by no case, or the clean run has a failure; 0 otherwise. With
--require-every-case, a fault must fail every kernel case the clean run passed (for faults that break every
kernel, such as kernel_not_run and read_back_corrupt: no case may pass when its kernel never ran or its
results were not read back intact). Kernel cases are the manifest's cases with a module: the runner builds a
case's kernel only from its manifest module (createKernel refuses a case without one), so a case without a
module (the api.* device and kernel queries, registered in C++) enqueues no kernel and reads no buffer, and
neither fault can touch it; such cases are listed, not counted.

Build faults mimic compilers that reject valid modules. --expect-build-fail=FAULT: every case the fault fails
must be a core case that failed in phase build (and at least one must); --expect-not-supported=FAULT: the fault
fails no case, and at least one case the clean run passed becomes NotSupported, each of them device_specific.
--catching-json=FILE writes, per fault, the cases that caught it (for scripts/judges/hidden_assumption_check.py),
atomically; it must not name a --faults-source file.

Exit status 2 for bad input, one line "fault_campaign: ..." before the campaign runs: a --faults-source file or
manifest.json that is missing, not a regular file or malformed; a --catching-json naming an input, a directory
or another file that is not regular; a fault name `refdev_faults --names` does not list (in --faults,
--expect-build-fail or --expect-not-supported); --faults "" (it names no fault); --jobs below 1; a profile or
fault the reference device refuses (it does not open: every profile's clean run comes first, so an unknown
--profile stops the campaign before any fault has run).

Which faults: --faults a,b,c; or --faults-source FILE... (the names a family's faults.cpp defines,
reference_device/ext/<group>/faults.cpp); default: every fault `refdev_faults --names` lists except the
core ones that test the runner itself (hang, crash). --skip-faults a,b leaves those out of the faults
--faults-source or the default selects (faults only another campaign's profile or cases can show, e.g. a
family's faults of sub-group sizes 4 and 64 in its main line on profiles without those sizes); each must be
one of them (a skipped name that is not selected is exit 2: stale).

--family GROUP runs the campaigns the family's descriptor lists (test_conformance/GROUP/family.json,
"fault_campaigns": scripts/assets/families.py), one after the other with GROUP as the case group and the entry's
arguments after the ones given here; "{build}" in them stands for --build-dir. Exit status 1 when any of them
fails, 2 for an unknown family or a malformed descriptor.

--all-faults --default-run: every fault `refdev_faults --names` lists must fail at least one case of the
default run (no --extended, --huge or --quick) on at least one profile (--profile, default xe_hpc and
xe_hpg), but for the documented exemptions; --jobs runs at a time. Prints each fault's smallest catching
case (scripts/faults/fault_default_run.py).

Examples:
  scripts/faults/fault_campaign.py --family GROUP --build-dir build      # every campaign of GROUP's descriptor
  scripts/faults/fault_campaign.py --all-faults --default-run --build-dir build --jobs 2
  scripts/faults/fault_campaign.py GROUP --faults-source reference_device/ext/GROUP/faults.cpp \\
      --profile xe_hpc --profile xe_hpg
  scripts/faults/fault_campaign.py $(scripts/assets/families.py --top) \\
      --faults kernel_not_run,read_back_corrupt --profile xe_hpc --profile xe_hpg --require-every-case \\
      --runner-arg=--extended
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from faults.fault_runs import UsageError, faults_from_tool, run_cases  # noqa: E402
from reports import report_io  # noqa: E402  (checked inputs, safe outputs)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def default_build_dir():
    for name in ("build", "build-h5"):
        if os.path.exists(os.path.join(REPO, name, "bin", "spirv_intel_cts")):
            return os.path.join(REPO, name)
    # Installed: this script is <prefix>/share/spirv_intel_cts/scripts/faults/, the runner <prefix>/bin/.
    prefix = os.path.dirname(os.path.dirname(REPO))
    if os.path.exists(os.path.join(prefix, "bin", "spirv_intel_cts")):
        return prefix
    return os.path.join(REPO, "build")


def default_icd(build_dir):
    # An installed tree's .icd file names the library without a path (the tree may be moved or unpacked
    # anywhere): the library itself is given to ocl-icd, as the installed runner does.
    if os.path.isdir(os.path.join(build_dir, "share", "spirv_intel_cts")):
        return os.path.join(build_dir, "lib", "spirv_intel_cts", "libRefDevOpenCL.so")
    return os.path.join(build_dir, "icd")


def default_assets(build_dir):
    installed = os.path.join(build_dir, "share", "spirv_intel_cts", "assets")
    return installed if os.path.isdir(installed) else os.path.join(build_dir, "assets")


def faults_from_source(paths):
    names = []
    for path in paths:
        text = report_io.read_text(path, "faults source file")
        # FaultInfo initialisers: {"name", "description"}
        found = re.findall(r'\{\s*"([a-z0-9_]+)"\s*,', text)
        if not found:
            raise report_io.ReportError(path, "no fault names found (FaultInfo initialisers {\"name\", ...})")
        names += [n for n in found if n not in names]
    return names


def kernel_cases(assets_dir):
    """Names of the cases that run a kernel: those with a module in the manifest."""
    path = os.path.join(assets_dir, "manifest.json")
    doc = report_io.load_json(path, "manifest")
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(cases, list) or not all(isinstance(c, dict) and isinstance(c.get("name"), str) for c in cases):
        raise report_io.ReportError(path, "not a manifest (needs a \"cases\" list of objects with a name)")
    return {c["name"] for c in cases if c.get("module")}


def check_build_expectation(args, fault, failing, cases, clean_passing):
    """The errors of a build fault against its expectation (empty when it behaves, or is not a build fault)."""
    errors = []
    if fault in args.expect_build_fail:
        wrong = [n for n in failing if cases.get(n, {}).get("phase") != "build"
                 or cases.get(n, {}).get("tier") != "core"]
        if not failing:
            errors.append("%s failed no case in phase build" % fault)
        if wrong:
            errors.append("%d case(s) failed otherwise than as core cases in phase build: %s" % (
                len(wrong), ", ".join(wrong[:args.show or 3])))
    if fault in args.expect_not_supported:
        now_skipped = [n for n in clean_passing if cases.get(n, {}).get("status") == "NotSupported"]
        not_specific = [n for n in now_skipped if cases[n].get("tier") != "device_specific"]
        if failing:
            errors.append("%s must fail no case, but fails %d: %s" % (fault, len(failing),
                                                                      ", ".join(failing[:args.show or 3])))
        if not now_skipped:
            errors.append("%s made no passing case NotSupported" % fault)
        if not_specific:
            errors.append("%d core case(s) became NotSupported: %s" % (len(not_specific),
                                                                      ", ".join(not_specific[:args.show or 3])))
        print("  %d device-specific case(s) that passed clean are NotSupported with %s" % (
            len(now_skipped) - len(not_specific), fault))
    return errors


def run_family(argv, args):
    """Each fault_campaigns entry of the family's descriptor, with the arguments of argv but --family."""
    # The descriptors live in the source tree (an installed tree has neither them nor families.py).
    try:
        from assets import families
    except ImportError:
        sys.stderr.write("fault_campaign: --family needs the source tree (scripts/assets/families.py and the "
                         "test_conformance/*/family.json descriptors)\n")
        return 2
    try:
        entries = families.descriptor(args.family, args.families_root).get("fault_campaigns", [])
    except families.FamilyError as e:
        sys.stderr.write("fault_campaign: %s\n" % report_io.printable(e))
        return 2
    if not entries:
        sys.stderr.write("fault_campaign: family %s lists no fault_campaigns\n" % report_io.printable(args.family))
        return 2
    common, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--family":
            skip = True
        elif not a.startswith("--family="):
            common.append(a)
    status = 0
    for entry in entries:
        print("=== fault campaign (%s)" % entry["title"], flush=True)
        extra = [a.replace("{build}", args.build_dir) for a in entry["args"]]
        status = max(status, main([args.family] + common + extra))
    return status


def check_fault_names(tool, names):
    """Refuses a fault name `refdev_faults --names` does not list, before anything runs (the reference device
    would refuse to open and every run would say only that no device was found). Without the tool the device's
    refusal is caught at run time instead (run_cases)."""
    if not names or not os.path.exists(tool):
        return
    known = set(faults_from_tool(tool, exclude=()))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError("unknown fault%s %s (%s --names lists the faults)" % (
            "s" if len(unknown) > 1 else "", ", ".join(unknown), tool))


def main(argv=None):
    try:
        return campaign(argv)
    except (report_io.ReportError, UsageError) as e:
        print("fault_campaign: %s" % report_io.printable(e), file=sys.stderr)
        return 2


def campaign(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("groups", nargs="*", help="case groups / patterns passed to the runner (e.g. api)")
    ap.add_argument("--family", help="run the campaigns of this family's descriptor (test_conformance/*/family.json)")
    ap.add_argument("--families-root", default=REPO, help=argparse.SUPPRESS)
    ap.add_argument("--build-dir", default=default_build_dir(), help="build tree or installed prefix")
    ap.add_argument("--runner", help="spirv_intel_cts (default: <build-dir>/bin/spirv_intel_cts)")
    ap.add_argument("--assets-dir", help="manifest.json for --require-every-case (default: <build-dir>/assets, or "
                    "<prefix>/share/spirv_intel_cts/assets for an installed prefix)")
    ap.add_argument("--icd", help="OCL_ICD_VENDORS for the reference device (default: <build-dir>/icd, "
                    "or <prefix>/lib/spirv_intel_cts/libRefDevOpenCL.so when --build-dir is an installed prefix)")
    ap.add_argument("--faults-tool", help="refdev_faults (default: <build-dir>/bin/refdev_faults)")
    ap.add_argument("--faults", help="comma-separated fault names")
    ap.add_argument("--faults-source", nargs="+", metavar="FILE", help="faults.cpp file(s) defining the faults")
    ap.add_argument("--skip-faults", metavar="A,B", help="comma-separated faults to leave out of those "
                    "--faults-source or the default selects (another campaign line covers them)")
    ap.add_argument("--profile", action="append", default=[], help="REFDEV_PROFILE (repeatable; default: unset)")
    ap.add_argument("--show", type=int, default=3, help="failing case names to print per fault")
    ap.add_argument("--runner-arg", action="append", default=[], dest="runner_args",
                    help="extra runner argument (repeatable), e.g. --runner-arg=--quick")
    ap.add_argument("--require-every-case", action="store_true",
                    help="each fault must fail every case the clean run passes")
    ap.add_argument("--expect-build-fail", action="append", default=[], metavar="FAULT",
                    help="a build fault whose failures must all be core cases in phase build")
    ap.add_argument("--expect-not-supported", action="append", default=[], metavar="FAULT",
                    help="a build fault that must fail nothing and turn device-specific cases NotSupported")
    ap.add_argument("--catching-json", metavar="FILE", help="write {fault: [cases that caught it]} here")
    ap.add_argument("--all-faults", action="store_true",
                    help="with --default-run: every fault refdev_faults lists (scripts/faults/fault_default_run.py)")
    ap.add_argument("--default-run", action="store_true",
                    help="with --all-faults: each fault must fail a case of the default run on some profile")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time for --default-run (default 2)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.faults is not None and not [f for f in args.faults.split(",") if f]:
        ap.error("--faults names no fault (leave it out to run every fault)")
    if args.all_faults or args.default_run:
        if not (args.all_faults and args.default_run) or args.groups or args.family or args.faults:
            ap.error("--all-faults and --default-run go together, without case groups, --family or --faults")
        try:
            from faults import fault_default_run
        except ImportError:
            sys.stderr.write("fault_campaign: --all-faults --default-run needs the source tree "
                             "(scripts/faults/fault_default_run.py)\n")
            return 2
        args.runner = args.runner or os.path.join(args.build_dir, "bin", "spirv_intel_cts")
        args.icd = args.icd or default_icd(args.build_dir)
        return fault_default_run.check(args)
    if args.family:
        if args.groups:
            ap.error("--family takes no case groups (the family's descriptor names them)")
        return run_family(argv, args)
    if not args.groups:
        ap.error("name the case groups, or --family GROUP")
    args.runner = args.runner or os.path.join(args.build_dir, "bin", "spirv_intel_cts")
    args.icd = args.icd or default_icd(args.build_dir)
    tool = args.faults_tool or os.path.join(args.build_dir, "bin", "refdev_faults")
    if args.catching_json:
        report_io.check_output(args.catching_json, args.faults_source or ())  # before the campaign, not after it
    if args.faults is not None:
        faults = [f for f in args.faults.split(",") if f]
    elif args.faults_source:
        faults = faults_from_source(args.faults_source)
    else:
        faults = faults_from_tool(tool)
    if args.skip_faults is not None:
        skip = [f for f in args.skip_faults.split(",") if f]
        if args.faults is not None or not skip:
            raise UsageError("--skip-faults needs a non-empty list, and goes with --faults-source or the default "
                             "selection, not --faults")
        stale = [f for f in skip if f not in faults]
        if stale:
            raise UsageError("--skip-faults names fault(s) the selection does not have: %s" % ", ".join(stale))
        faults = [f for f in faults if f not in skip]
    if not faults:
        raise UsageError("no faults selected")
    check_fault_names(tool, faults + args.expect_build_fail + args.expect_not_supported)
    profiles = args.profile or [None]
    kernels = kernel_cases(args.assets_dir or default_assets(args.build_dir)) \
        if args.require_every_case else set()

    ok = True
    caught = {f: 0 for f in faults}
    catching = {f: set() for f in faults}
    # Every profile's clean run comes first: an unknown profile is refused before any fault campaign has run.
    clean = {profile: run_cases(args, profile, None) for profile in profiles}
    for profile in profiles:
        label = profile or "default profile"
        failing, counts, seconds, clean_passing, _ = clean[profile]
        summary = ", ".join("%s %d" % kv for kv in sorted(counts.items()))
        print("[%s] clean run: %s (%.1f s)" % (label, summary, seconds))
        if not counts:
            print("  ERROR: the selection ran no case")
            ok = False
        if failing:
            ok = False
            print("  ERROR: the clean device fails %d case(s): %s" % (
                len(failing), report_io.printable(", ".join(failing[:args.show]))))
        for fault in faults:
            failing, counts, seconds, passing, cases = run_cases(args, profile, fault)
            if fault in args.expect_not_supported:
                # Caught means: the device-specific cases it rejects are reported NotSupported, not failed.
                skipped = [n for n in clean_passing if cases.get(n, {}).get("status") == "NotSupported"]
                caught[fault] += len(skipped)
            else:
                caught[fault] += len(failing)
                catching[fault].update(failing)
            for error in check_build_expectation(args, fault, failing, cases, clean_passing):
                ok = False
                print("  ERROR: " + report_io.printable(error))
            print(report_io.printable("[%s] %-40s %6d failing case(s) (%.1f s)%s" % (
                label, fault, len(failing), seconds,
                ("  e.g. " + ", ".join(failing[:args.show])) if failing and args.show else "")))
            survivors = sorted(set(passing) & set(clean_passing))
            if args.require_every_case:
                no_kernel = [n for n in survivors if n not in kernels]
                survivors = [n for n in survivors if n in kernels]
                print("  every case: %d kernel case(s) passed clean, %d of them pass with %s" % (
                    len(set(clean_passing) & kernels), len(survivors), fault))
                if no_kernel:
                    print("  not counted: %d case(s) that run no kernel (no module), e.g. %s" % (
                        len(no_kernel), report_io.printable(", ".join(no_kernel[:args.show or 3]))))
            if args.require_every_case and survivors:
                ok = False
                print("  ERROR: %d case(s) pass with %s: %s" % (
                    len(survivors), fault, report_io.printable(", ".join(survivors[:args.show or 3]))))
    print()
    if args.catching_json:
        # Its directory is made here (build/ci/ exists only after scripts/ci_tests.sh's suite step).
        os.makedirs(os.path.dirname(os.path.abspath(args.catching_json)), exist_ok=True)
        report_io.write_output(args.catching_json, json.dumps({k: sorted(v) for k, v in catching.items()},
                                                              indent=1, sort_keys=True), args.faults_source or ())
    missed = [f for f in faults if caught[f] == 0]
    for fault in faults:
        what = "NotSupported device-specific" if fault in args.expect_not_supported else "failing"
        print("%-40s %6d %s case(s) over %d profile(s)%s" % (fault, caught[fault], what, len(profiles),
                                                            "  NOT CAUGHT" if caught[fault] == 0 else ""))
    if missed:
        ok = False
        print("\nfault_campaign: %d fault(s) caught by no case: %s" % (len(missed), ", ".join(missed)))
    print("fault_campaign: %s" % ("every fault caught, clean device passes" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
