#!/usr/bin/env python3
"""End-to-end checks of what the runner reads: selection by exact names costs O(n log n), environment variables
have one grammar, every file the runner reads or writes goes through one path guard, and single-valued options
are given once.

usage: inputs_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import json
import os
import sys
import time

import runner_e2e  # noqa: E402
from runner_e2e import (SKIP, CheckFailed, assets_args, describe, expect, load_json_report, read_text, reference_icd,
                        run, usage_error)



def manifest_or_skip(build):
    if not os.path.exists(os.path.join(build, "assets", "manifest.json")):
        print("skipped: needs the built assets in %s" % build)
        sys.exit(SKIP)


def refdev_or_skip(build):
    manifest_or_skip(build)
    if not reference_icd(build):
        print("skipped: needs the reference device in %s" % build)
        sys.exit(SKIP)


def check_whole_list_round_trip(runner, build, tmp):
    """The whole --list read back as a --caselist-file (and as an --exclude-file) selects exactly those cases.
    Its cost (a lookup per name, not every name against every case) is a figure of scripts/bench/bench_startup.py,
    not a time limit here; the quadratic selection took minutes, past this test's CTest timeout."""
    manifest_or_skip(build)
    rc, listing, err = run(runner, ["--list"])
    expect(rc == 0 and listing.count("\n") > 1000, "--list\n" + describe(rc, listing, err))
    all_txt = os.path.join(tmp, "all.txt")
    with open(all_txt, "w") as f:
        f.write(listing)
    rc, out, err = run(runner, ["--caselist-file=" + all_txt, "--list"])
    expect(rc == 0 and out == listing, "round trip: the same list\n" + describe(rc, out[-500:], err))
    # Every case but the last excluded: the exclude file costs the same, and what is left is exact.
    names = [l.split("#")[0].strip() for l in listing.splitlines()]
    excl = os.path.join(tmp, "excl.txt")
    with open(excl, "w") as f:
        f.write("\n".join(names[:-1]) + "\n")
    rc, out, err = run(runner, ["--exclude-file=" + excl, "--list"])
    expect(rc == 0 and out.split() [0] == names[-1] and out.count("\n") == 1,
           "exclude all but one\n" + describe(rc, out[-500:], err))


def check_many_waivers(runner, build, tmp):
    """30,000 one-case waiver entries: applied to a run, the covered cases are found and every other entry is
    stale (bench_startup.py measures what this costs)."""
    refdev_or_skip(build)
    rc, listing, err = run(runner, ["--list", "api"])
    expect(rc == 0, describe(rc, listing, err))
    api = [l.split("#")[0].strip() for l in listing.splitlines()]
    rc, listing, err = run(runner, ["--list"])
    names = [l.split("#")[0].strip() for l in listing.splitlines()][:30000]
    entries = [{"cases": [n], "device": {"platform": "RefDev*"}, "tracker": "T-%d" % i, "reason": "r"}
               for i, n in enumerate(names)]
    path = os.path.join(tmp, "w.json")
    with open(path, "w") as f:
        json.dump({"waivers": entries}, f)
    js = os.path.join(tmp, "r.json")
    rc, out, err = run(runner, ["--jobs=1", "--waiver-file=" + path, "--json=" + js, "api"])
    expect(rc == 0, describe(rc, out, err))
    stale = load_json_report(js, "waived run")["waivers"]["stale"]
    covered = [n for n in api if n in set(names)]
    # Every entry but those of the api cases selects no case of this run; each passing api case is stale too.
    expect(len(stale) >= len(names) - len(covered), "stale waivers: %d of %d" % (len(stale), len(names)))


NOT_SUPPORTED_ON_XE_HPC = "media_block_io.read"  # no cl_intel_spirv_media_block_io on the default profile


def check_env_grammar(runner, build, tmp):
    """CTS_FAIL_IF_ALL_SKIPPED takes the boolean words CI YAML writes (true used to be ignored: an
    all-NotSupported run exited 0); a value outside the grammar, and half-set GoogleTest sharding, are usage
    errors before anything runs."""
    refdev_or_skip(build)
    sel = ["--quick", "--jobs=1", NOT_SUPPORTED_ON_XE_HPC]
    for word in ("1", "true", "YES", "On"):
        rc, out, err = run(runner, sel, {"CTS_FAIL_IF_ALL_SKIPPED": word, "REFDEV_PROFILE": "xe_hpc"})
        expect(rc == 1 and "no case passed and --fail-if-all-skipped is set" in out,
               "CTS_FAIL_IF_ALL_SKIPPED=%s\n%s" % (word, describe(rc, out, err)))
    for word in ("0", "false", "off", ""):
        rc, out, err = run(runner, sel, {"CTS_FAIL_IF_ALL_SKIPPED": word, "REFDEV_PROFILE": "xe_hpc"})
        expect(rc == 0, "CTS_FAIL_IF_ALL_SKIPPED=%r\n%s" % (word, describe(rc, out, err)))
    for word in ("abc", "2", "tru"):
        usage_error(runner, sel, ["CTS_FAIL_IF_ALL_SKIPPED='%s'" % word, "true, false"],
                    env={"CTS_FAIL_IF_ALL_SKIPPED": word})
    for env in ({"GTEST_TOTAL_SHARDS": "2"}, {"GTEST_TOTAL_SHARDS": "2", "GTEST_SHARD_INDEX": ""},
                {"GTEST_SHARD_INDEX": "1"}):
        usage_error(runner, ["api"], ["set both"], env=env)
    usage_error(runner, ["api"], ["CL_DEVICE_INDEX='x'"], env={"CL_DEVICE_INDEX": "x"})
    # Empty is unset for every variable: an empty OCL_ICD_VENDORS ran on the system's drivers (pocl here).
    rc, out, err = run(runner, ["--jobs=1", "api.il_version"], {"OCL_ICD_VENDORS": ""})
    expect(rc == 0 and "RefDev" in out and "OCL_ICD_VENDORS=" + os.path.join(build, "icd") in out,
           "OCL_ICD_VENDORS=''\n" + describe(rc, out, err))


def check_empty_shard(runner, build, tmp):
    """A shard left empty by more shards than cases is fine, also with --fail-if-all-skipped (it used to exit
    1: no case passed); a shard whose cases are all NotSupported still fails."""
    refdev_or_skip(build)
    rc, out, err = run(runner, ["--shard=1/2", "--fail-if-all-skipped", "api.il_version"])
    expect(rc == 0 and "no case passed" not in out, "empty shard\n" + describe(rc, out, err))
    rc, out, err = run(runner, ["--shard=0/2", "--fail-if-all-skipped", "--jobs=1", "--quick",
                                NOT_SUPPORTED_ON_XE_HPC], {"REFDEV_PROFILE": "xe_hpc"})
    expect(rc == 1 and "no case passed" in out, "all-NotSupported shard\n" + describe(rc, out, err))


def check_options_once(runner, build, tmp):
    """A single-valued option given twice with different values is refused (--tier=core --tier=all kept the
    last); --list writes no report, so --json/--junit/--log with it are refused instead of silently unwritten."""
    manifest_or_skip(build)
    usage_error(runner, ["--tier=core", "--tier=all", "--list", "api"], ["--tier given twice", "core", "all"])
    usage_error(runner, ["--seed=1", "--seed=2", "--list", "api"], ["--seed given twice"])
    rc, out, err = run(runner, ["--tier=core", "--tier=core", "--list", "api"])
    expect(rc == 0, "the same value twice\n" + describe(rc, out, err))
    for report in ("--json=" + os.path.join(tmp, "r.json"), "--junit=" + os.path.join(tmp, "r.xml"),
                   "--log=" + os.path.join(tmp, "r.log")):
        usage_error(runner, ["--list", report, "api"], ["--list runs no case and writes no report", report])
        usage_error(runner, ["--list-tags", report], ["--list-tags runs no case"])
        expect(not os.path.exists(report.split("=", 1)[1]), "a refused --list wrote " + report)


def assets_copy(build, tmp, name):
    """A copy of the build's manifest, index and hash, the modules linked: a directory a test may damage."""
    import shutil
    d = os.path.join(tmp, name)
    os.makedirs(d)
    for f in ("manifest.json", "manifest.index", "manifest.sha256"):
        shutil.copy(os.path.join(build, "assets", f), d)
    os.symlink(os.path.join(build, "assets", "modules"), os.path.join(d, "modules"))
    return d


def check_reports_spare_assets(runner, build, tmp):
    """A report on a file of the assets the run reads (manifest, index, hash, a module) is a usage error; it
    used to replace the manifest and exit 0. A report named like a dump file in --dump-dir is refused too."""
    refdev_or_skip(build)
    a = assets_copy(build, tmp, "a")
    before = {f: read_text(os.path.join(a, f)) for f in ("manifest.json", "manifest.index", "manifest.sha256")}
    for opt, f in (("--json", "manifest.json"), ("--log", "manifest.index"), ("--junit", "manifest.sha256")):
        usage_error(runner, ["--assets-dir=" + a, "%s=%s/%s" % (opt, a, f), "api.il_version"],
                    ["%s=%s/%s would replace" % (opt, a, f), "--assets-dir"])
    module = next(os.path.join(d, f) for d, _, fs in os.walk(os.path.join(a, "modules"), followlinks=True)
                  for f in fs if f.endswith(".spv"))
    usage_error(runner, ["--assets-dir=" + a, "--log=" + module, "api.il_version"],
                ["would replace a file of --assets-dir modules"])
    for f, text in before.items():
        expect(read_text(os.path.join(a, f)) == text, "%s was changed by a refused run" % f)
    usage_error(runner, ["--assets-dir=" + a, "api.il_version"],
                ["CL_CONFORMANCE_RESULTS_FILENAME=%s/manifest.json would replace" % a],
                env={"CL_CONFORMANCE_RESULTS_FILENAME": a + "/manifest.json"})
    # The default assets too.
    usage_error(runner, ["--json=" + os.path.join(build, "assets", "manifest.json"), "api.il_version"],
                ["would replace the file the assets (manifest)"])
    # --dump-dir=DIR writes DIR/CASE.*: a report there named so would be clobbered by a dump (or clobber it).
    dump = os.path.join(tmp, "dump")
    os.makedirs(dump)
    case = "api.il_version.spirv_listed_for_gating_extension"
    usage_error(runner, ["--dump-dir=" + dump, "--log=%s/%s.txt" % (dump, case), case],
                ["--dump-dir=" + dump, "would replace the file --log=", "case " + case])
    rc, out, err = run(runner, ["--dump-dir=" + dump, "--log=%s/run.log" % dump, "--jobs=1", case])
    expect(rc == 0, "a log beside the dumps, named otherwise\n" + describe(rc, out, err))


def check_special_asset_files(runner, build, tmp):
    """manifest.sha256 pointing at /dev/zero (read 8.9 GB) or a FIFO (hung), and --target=/dev/zero, are one
    error line each, at once."""
    manifest_or_skip(build)
    for name, make in (("zero", lambda p: os.symlink("/dev/zero", p)), ("fifo", os.mkfifo)):
        a = assets_copy(build, tmp, name)
        os.remove(os.path.join(a, "manifest.sha256"))
        make(os.path.join(a, "manifest.sha256"))
        start = time.monotonic()
        rc, out, err = run(runner, ["--assets-dir=" + a, "--list", "api"], timeout=60)
        lines = [l for l in err.splitlines() if "manifest.sha256" in l]
        expect(rc == 1 and len(lines) == 1 and "not a regular file" in lines[0],
               "manifest.sha256 -> %s\n%s" % (name, describe(rc, out, err)))
        expect(time.monotonic() - start < 20, "manifest.sha256 -> %s took %.0f s" % (name, time.monotonic() - start))
    import shutil
    ocloc = shutil.which("ocloc")
    if not ocloc:
        print("note: no ocloc on PATH: --target=/dev/zero not checked")
        return
    fifo = os.path.join(tmp, "target_fifo")
    os.mkfifo(fifo)
    for target in ("/dev/zero", fifo):
        rc, out, err = run(runner, ["--offline-compiler=" + ocloc, "--target=" + target, "api"], timeout=60)
        lines = [l for l in err.splitlines() if l.strip()]
        expect(rc == 2 and len(lines) == 1 and "not a regular file" in lines[0],
               "--target=%s\n%s" % (target, describe(rc, out, err)))


def run_bytes(runner, args, env=None):
    """run() with stderr as bytes, to see exactly what a terminal would get."""
    import subprocess
    e = runner_e2e.clean_env(env)
    p = subprocess.run([runner] + args, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stderr


def check_messages_escape_bytes(runner, build, tmp):
    """Raw invalid bytes, NULs and terminal controls from a file or value were echoed into the error line;
    they are written as \\xNN. An .icd file whose first line is blank is not 'the file is empty'."""
    manifest_or_skip(build)
    icd = os.path.join(tmp, "bytes.icd").encode()
    with open(icd, "wb") as f:
        f.write(b"/nonexistent/lib\xff\x1b[2J\xc2\x9b.so\n")
    rc, err = run_bytes(runner, [b"--icd=" + icd, b"api"])
    lines = [l for l in err.splitlines() if l.strip()]
    expect(rc == 2 and len(lines) == 2, "bytes in .icd: %r" % err)
    expect(b"lib\\xff\\x1b[2J\\xc2\\x9b.so" in lines[0], "escaped: %r" % lines[0])
    expect(all(b < 0x80 and (b >= 0x20 or b == 0x0a) for b in err), "raw bytes in %r" % err)
    caselist = os.path.join(tmp, "list.txt")
    with open(caselist, "wb") as f:
        f.write(b"api.zz\xfe\x1b]0;owned\x07\n")
    rc, err = run_bytes(runner, ["--caselist-file=" + caselist, "--list"])
    expect(rc == 2 and b"api.zz\\xfe\\x1b]0;owned\\x07" in err and b"\x1b" not in err, "pattern bytes: %r" % err)
    rc, err = run_bytes(runner, ["--list", "api"], {"CL_DEVICE_TYPE": "gpu\x1b[2J"})
    expect(rc == 2 and b"gpu\\x1b[2J" in err and b"\x1b" not in err, "variable bytes: %r" % err)
    blank = os.path.join(tmp, "blank.icd")
    with open(blank, "w") as f:
        f.write("\n/usr/lib/x86_64-linux-gnu/libOpenCL.so.1\n")
    usage_error(runner, ["--icd=" + blank, "api"], ["the first line is blank"])


def check_help_text(runner, build, tmp):
    """--help's exit line names Flake (exit 0 unless --flake-fails) and the help lists the environment
    variables the runner reads, with the boolean grammar."""
    rc, out, err = run(runner, ["--help"])
    expect(rc == 0, describe(rc, out, err))
    exit_text = out[out.index("Exit status:"):]
    expect("Flake" in exit_text and "--flake-fails" in exit_text, "exit line: %r" % exit_text)
    for var in ("CL_PLATFORM_INDEX", "CL_DEVICE_INDEX", "CL_DEVICE_TYPE", "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX",
                "CL_CONFORMANCE_RESULTS_FILENAME", "CTS_FAIL_IF_ALL_SKIPPED", "true/false"):
        expect(var in out, "--help lacks %s" % var)
    guide = read_text(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "user_guide.md"))
    table = guide[guide.index("## Environment variables"):guide.index("## Files the runner reads and writes")]
    for var in ("CL_PLATFORM_INDEX", "CL_DEVICE_INDEX", "CL_DEVICE_TYPE", "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX",
                "CL_CONFORMANCE_RESULTS_FILENAME", "CTS_FAIL_IF_ALL_SKIPPED", "OCL_ICD_VENDORS", "REFDEV_THREADS",
                "PATH", "TMPDIR"):
        expect("`%s`" % var in table.split("\n| ---")[1], "user_guide's table lacks %s" % var)


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}


if __name__ == "__main__":
    sys.exit(runner_e2e.main(CHECKS, __doc__))
