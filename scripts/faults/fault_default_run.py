"""Every planted fault fails at least one case of the default run (`fault_campaign.py --all-faults --default-run`).

The default run is the runner without options: no --extended, --huge or --quick. The faults are every name
`refdev_faults --names` lists, so a fault added to the device is checked without editing this file; EXEMPT
names the few meant to be caught only in a special mode, each with its reason and the campaign that catches
it (an exemption the device no longer lists is an error: stale).

To keep it to minutes, a fault first runs only the quick cases (--quick) of the case group of the
reference_device/ext/<group>/ source file that defines it (plus `workloads` for a composition_faults.cpp),
then the whole group, then the whole default run (a core fault, or one its group misses), each profile by
profile (those of the family's campaign lines that list the fault in --faults first, then those its first
campaign names, then the others in PROFILES order: xe_hpc, xe_hpg, xe2, xe3, xe_lpg, cpu) until a case fails. Each is a subset of the default run,
so a failure there is a failure of the default run. The clean device
runs the whole default run on every profile and must pass everything. Runs go --jobs at a time.

Per fault it prints the profile, the stage (quick, group, default) and the number of failing cases of the run
that caught it, and the smallest
catching case: the one with the least run time (the report's duration_ms, under the fault), ties by name.
Exit status 0 when every fault is caught and the clean runs pass, 1 otherwise, 2 for bad input.
"""

import concurrent.futures
import copy
import glob
import os
import re
import sys

from faults import fault_runs
from reports import report_io  # noqa: E402  (checked, size-capped reads)

# Every built-in profile, the two of the first campaigns first: a fault only some hardware classes can show
# (sub-group sizes 4 and 64 on cpu, image block IO beside 2D block IO on xe2 and xe3) is found where it shows.
PROFILES = ["xe_hpc", "xe_hpg", "xe2", "xe3", "xe_lpg", "cpu"]

# Faults the default run need not catch: name -> (why, the campaign that catches it).
EXEMPT = {
    "hang": ("every kernel enqueue hangs: it tests the runner's per-case timeout, not a case",
             "test_conformance/tests/runner_e2e.py (--isolate --timeout with REFDEV_FAULTS=hang)"),
    "crash": ("every kernel enqueue kills the process: it tests crash isolation, not a case",
              "test_conformance/tests/runner_e2e.py (--isolate with REFDEV_FAULTS=crash)"),
    "kernel_arg_address_qualifier_private": (
        "a kernel query only a --build-only run reads (an executing run binds buffers by the module table)",
        "test_conformance/tests/build_only_e2e.py query_faults (--build-only with the fault)"),
    "sampler_clamp_to_edge_as_clamp": (
        "an OpenCL image sampler fault: the suite's cases (the four Intel extensions) sample no image",
        "ctest refdev.<profile>.sampler_clamp_to_edge_as_clamp (ImageKernelTest.SamplerArgumentsAddressAndFilter "
        "under the fault, xe_hpg, xe2 and cpu)"),
    "spec_constant_ignored": (
        "a core OpenCL feature (specialization constants) no case of the four extensions' suite uses",
        "the device's API test SpecConstantTest.ValuesReachTheKernel under REFDEV_FAULTS (ctest "
        "refdev.<profile>.spec_constant_ignored)"),
    "build_rejects_half_vector_shuffle": (
        "a compiler rejecting device-specific modules only: they must become NotSupported, never fail",
        "the campaign of the family whose faults.cpp declares it (--expect-not-supported)"),
    "alignment_decoration_ignored": (
        "a core OpenCL memory-layout bug outside the four extensions: the device's own tests catch it",
        "the reference device's own ctest refdev.<profile>.alignment_decoration_ignored (AlignmentTest, "
        "reference_device/tests/api_alignment_test.cpp)"),
    "async_copy_stride_ignored": (
        "a core OpenCL C built-in (async_work_group_strided_copy) that no case of the four extensions calls",
        "CTest refdev.<profile>.async_copy_stride_ignored (OclBuiltinsTest.StridedAsyncCopy* under the fault, "
        "reference_device/tests/CMakeLists.txt)"),
}


def fault_groups(names, root):
    """{fault: [case groups]} from the ext/<group>/*faults.cpp files that define them."""
    groups = {}
    for path in sorted(glob.glob(os.path.join(root, "reference_device", "ext", "*", "*faults.cpp"))):
        group = os.path.basename(os.path.dirname(path))
        extra = ["workloads"] if os.path.basename(path) == "composition_faults.cpp" else []
        for name in re.findall(r'\{\s*"([a-z0-9_]+)"\s*,', report_io.read_text(path, "faults source file")):
            if name in names:
                groups.setdefault(name, [group] + extra)
    return groups


def profile_order(group, args, fault=None):
    """The profiles to try: those of the family's campaign lines that name the fault in --faults (a fault only
    some profiles show, e.g. sub-group sizes 4 and 64 on cpu), then those its first campaign names
    (test_conformance/<group>/family.json), then the rest in PROFILES order."""
    profiles = args.profile or PROFILES
    path = os.path.join(args.families_root, "test_conformance", group, "family.json")
    if not os.path.exists(path):
        return profiles
    try:
        campaigns = [c.get("args", []) for c in report_io.load_json(path, "family descriptor").get("fault_campaigns")
                     or [{}]]
    except AttributeError:
        return profiles

    def named(campaign):
        return [campaign[i + 1] for i, a in enumerate(campaign[:-1]) if a == "--profile"]

    def lists(campaign):
        return any(fault in campaign[i + 1].split(",") for i, a in enumerate(campaign[:-1]) if a == "--faults")

    order = [p for c in campaigns if fault and lists(c) for p in named(c)] + named(campaigns[0]) + profiles
    return [p for i, p in enumerate(order) if p in profiles and p not in order[:i]]


def first_catch(args, fault, groups):
    """(stage, profile, failing cases, smallest catching case, its ms) of the first run failing a case, or
    None. The quick cases of the fault's group, then the group, then the whole default run: each a subset of
    the default run (--quick selects cases the default run has), so the first failure is one of it."""
    stages = [("quick", groups, ["--quick"]), ("group", groups, [])] if groups else []
    stages.append(("default", [], []))
    profiles = profile_order(groups[0], args, fault) if groups else args.profile or PROFILES
    for stage, selection, options in stages:
        for profile in profiles:
            failing, _, _, _, cases = fault_runs.run_cases(args_with(args, selection, options), profile, fault)
            if failing:
                smallest = min(failing, key=lambda n: (cases.get(n, {}).get("duration_ms", float("inf")), n))
                return stage, profile, failing, smallest, cases.get(smallest, {}).get("duration_ms")
    return None


def check(args):
    if args.runner_args:
        sys.stderr.write("fault_campaign: --default-run takes no --runner-arg (the default run has no options)\n")
        return 2
    tool = args.faults_tool or os.path.join(args.build_dir, "bin", "refdev_faults")
    listed = fault_runs.faults_from_tool(tool, exclude=())
    stale = sorted(set(EXEMPT) - set(listed))
    faults = [f for f in listed if f not in EXEMPT]
    ok = True
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        clean = {p: pool.submit(fault_runs.run_cases, args_with(args, [], []), p, None)
                 for p in args.profile or PROFILES}
        for profile, fut in clean.items():
            failing, counts, seconds, _, _ = fut.result()
            print("[%s] clean default run: %s (%.1f s)" % (
                profile, ", ".join("%s %d" % kv for kv in sorted(counts.items())), seconds))
            if failing or not counts:
                ok = False
                print("  ERROR: the clean device fails %d case(s): %s" % (
                    len(failing), report_io.printable(", ".join(failing[:3]))))
    by_group = fault_groups(set(faults), args.families_root)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {f: pool.submit(first_catch, args, f, by_group.get(f, [])) for f in faults}
        found = {f: fut.result() for f, fut in futures.items()}
    print()
    for fault in faults:
        hit = found.get(fault)
        if hit:
            stage, profile, failing, smallest, ms = hit
            print("%-40s %-7s %-7s %5d failing; smallest: %s (%.2f ms)" % (
                fault, profile, stage, len(failing), report_io.printable(smallest),
                ms if ms is not None else float("nan")))
        else:
            ok = False
            print("%-40s NOT CAUGHT by the default run on %s" % (fault, ", ".join(args.profile or PROFILES)))
    for fault in sorted(EXEMPT):
        if fault in listed:
            print("%-40s exempt: %s; caught by %s" % (fault, EXEMPT[fault][0], EXEMPT[fault][1]))
    if stale:
        ok = False
        print("fault_campaign: stale exemption(s), the device lists no such fault: %s" % ", ".join(stale))
    print("fault_campaign: %s" % ("the default run catches every fault, clean device passes" if ok else "FAILED"))
    return 0 if ok else 1


def args_with(args, groups, runner_args=()):
    a = copy.copy(args)
    a.groups, a.runner_args = list(groups), list(runner_args)
    return a
