#!/usr/bin/env python3
"""End-to-end checks of the offline judge against hostile stand-in compilers (issue 45): a compiler that closes
its output and hangs is a Timeout; one that exits 0 leaving a child holding its output is judged by its exit; an
empty directory or file is no binary; a huge output is kept capped (head and tail) with memory bounded; an
interrupt in the start-up query or in the compiles leaves no compiler child and no temporary directory; a target
name outside ocloc's device-name grammar is one line and exit 2.

usage: offline_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import json
import os
import resource
import signal
import subprocess
import sys
import time

import runner_e2e as e2e
from runner_e2e import FAKE_TARGET, clean_env, describe, expect, load_json_report, manifest_or_skip, run

# Answers the version query with 9.9.9 (QUERY: more shell before it); builds by module name (BUILD: the cases).
FAKE = """#!/bin/sh
if [ "$1" = query ]; then %(query)s printf '9.9.9\\000 ' > "$2"; exit 0; fi
[ "$1" = multi ] && { echo 'Unknown command multi'; exit 1; }
prev=; for a in "$@"; do [ "$prev" = -out_dir ] && OUT="$a"; [ "$prev" = -file ] && F="$a"; prev="$a"; done
case "$F" in
%(build)s
  *) mkdir -p "$OUT"; echo bin > "$OUT/m.bin"; echo 'Build succeeded.';;
esac
"""


def fake(tmp, build, query="", name="ocloc"):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(FAKE % {"query": query, "build": build})
    os.chmod(path, 0o755)
    target = os.path.join(tmp, "fake1.json")
    with open(target, "w") as f:
        json.dump(FAKE_TARGET, f)
    return path, target


def scratch_dir(tmp):
    scratch = os.path.join(tmp, "scratch")
    os.makedirs(scratch, exist_ok=True)
    return scratch


def statuses(path):
    return {c["name"].split(".")[3]: (c["status"], c["message"]) for c in load_json_report(path, "offline")["cases"]}


def check_exit_verdicts(runner, build, tmp):
    """#2 a hang after closing the output: Timeout at --timeout; #11 an exit 0 with a child holding the output:
    Pass (its exit is the verdict); #3 an empty directory or a 0-byte *.bin and "Build succeeded.": no Pass."""
    manifest_or_skip(build)
    ocloc, target = fake(tmp, """
  *u32_v2_sg16.spv) mkdir -p "$OUT/sub"; echo 'Build succeeded.';;
  *u32_v4_sg16.spv) exec >/dev/null 2>&1; sleep 100;;
  *u32_v8_sg16.spv) mkdir -p "$OUT"; echo bin > "$OUT/m.bin"; echo 'Build succeeded.'; sleep 100 & exit 0;;
  *u32_v1_sg16.spv) mkdir -p "$OUT"; : > "$OUT/m.bin"; echo 'Build succeeded.';;""")
    scratch = scratch_dir(tmp)
    js = os.path.join(tmp, "o.json")
    for jobs in ("--jobs=1", "--jobs=2"):
        start = time.monotonic()
        rc, out, err = run(runner, ["--offline-compiler=" + ocloc, "--target=" + target, "--timeout=3", jobs,
                                    "--json=" + js, "subgroups.block_read.u32.*.sg16.offset_0b.wg_one"],
                           {"TMPDIR": scratch}, timeout=120)
        seconds = time.monotonic() - start
        expect(rc == 1 and seconds < 40, "%s: %.0f s\n%s" % (jobs, seconds, describe(rc, out, err)))
        got = statuses(js)
        expect(got.get("v4", ("",))[0] == "Timeout", "#2 closed output then hung: %r" % (got.get("v4"),))
        expect(got.get("v8", ("",))[0] == "Pass", "#11 exit 0 with a child holding the output: %r" % (got.get("v8"),))
        for v in ("v1", "v2"):
            expect(got.get(v, ("",))[0] == "Crash" and "without writing a binary" in got[v][1],
                   "#3 %s: no binary, no Pass: %r" % (v, got.get(v)))
        expect(os.listdir(scratch) == [], "temporary directories left: %r" % os.listdir(scratch))


def check_huge_output(runner, build, tmp):
    """#4 a compiler printing a 50 MB line and failing: the log and message are capped in every report, and the
    runner's memory stays bounded while it reads."""
    manifest_or_skip(build)
    ocloc, target = fake(tmp, """
  *u32_v1_sg32.spv) head -c 50000000 /dev/zero | tr '\\000' x; echo; echo 'error: last line'; exit 3;;""")
    js, ju, log = (os.path.join(tmp, n) for n in ("o.json", "o.xml", "o.log"))
    rc, out, err = run(runner, ["--offline-compiler=" + ocloc, "--target=" + target, "--json=" + js,
                                "--junit=" + ju, "--log=" + log, "subgroups.block_read.u32.v1.sg32.*"],
                       {"TMPDIR": scratch_dir(tmp)}, timeout=300)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    expect(rc == 1, describe(rc, out, err))
    cases = load_json_report(js, "huge")["cases"]
    expect(len(cases) >= 2 and all(c["status"] == "Fail" for c in cases), "%r" % [c["status"] for c in cases])
    for c in cases:
        expect(len(c["message"]) < 2000 and len(c["build_log"]) < 100000, "capped: %d, %d bytes" %
               (len(c["message"]), len(c["build_log"])))
        expect("MB dropped ...]" in c["build_log"] and "error: last line" in c["build_log"], c["build_log"][-300:])
    sizes = {p: os.path.getsize(p) for p in (js, ju, log)}
    expect(all(s < 2 << 20 for s in sizes.values()) and len(out) < 2 << 20, "report sizes %r, console %d" %
           (sizes, len(out)))
    expect(peak_mb < 300, "peak memory %.0f MB while reading 50 MB of output" % peak_mb)


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return False


def interrupt_run(runner, args, scratch, pid_file, want):
    """Starts the runner, waits for `want` pids in pid_file, SIGTERMs it; returns (rc, pids, stdout+stderr)."""
    env = clean_env({"TMPDIR": scratch})
    p = subprocess.Popen([runner] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    pids = []
    while time.monotonic() < deadline and len(pids) < want:
        time.sleep(0.1)
        if os.path.exists(pid_file):
            pids = [int(x) for x in open(pid_file).read().split()]
    p.send_signal(signal.SIGTERM)
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        raise e2e.CheckFailed("the runner did not end within 60 s of SIGTERM\n" + out[-2000:])
    time.sleep(0.5)  # init reaps what the runner killed
    return p.returncode, pids, out


def check_interrupt(runner, build, tmp):
    """#10 SIGTERM during the start-up query, and during compiles under --jobs=2: no child of the compiler left
    running, no spirv_intel_cts_ocloc.* directory left, the run ends by the signal."""
    manifest_or_skip(build)
    scratch = scratch_dir(tmp)
    pids = os.path.join(tmp, "pids")
    ocloc, target = fake(tmp, "", query='sleep 300 & echo $! >> "%s"; wait;' % pids)
    rc, got, out = interrupt_run(runner, ["--offline-compiler=" + ocloc, "--target=" + target, "api"], scratch,
                                 pids, 1)
    expect(got and rc == -signal.SIGTERM, "start-up query: exit %r, pids %r\n%s" % (rc, got, out[-2000:]))
    expect(not [p for p in got if alive(p)], "the query's child %r outlived the runner" % got)
    expect(os.listdir(scratch) == [], "temporary directories left by the query: %r" % os.listdir(scratch))

    os.remove(pids)
    ocloc, target = fake(tmp, '  *) sleep 300 & echo $! >> "%s"; wait;;' % pids, name="ocloc2")
    rc, got, out = interrupt_run(runner, ["--offline-compiler=" + ocloc, "--target=" + target, "--jobs=2",
                                          "subgroups.block_read.u32.*.sg16.offset_0b.wg_one"], scratch, pids, 2)
    expect(len(got) >= 2 and rc == -signal.SIGTERM, "compiles: exit %r, pids %r\n%s" % (rc, got, out[-2000:]))
    expect(not [p for p in got if alive(p)], "the compilers' children %r outlived the runner" % got)
    expect(os.listdir(scratch) == [], "temporary directories left by the compiles: %r" % os.listdir(scratch))


def check_target_grammar(runner, build, tmp):
    """#18 a target name outside [A-Za-z0-9][A-Za-z0-9._-]* is one line and exit 2, before anything runs."""
    ocloc, _ = fake(tmp, "")
    for name in ('pvc"', "-device", "pvc x", "pvc;rm"):
        target = os.path.join(tmp, "bad.json")
        with open(target, "w") as f:
            json.dump(dict(FAKE_TARGET, target=name), f)
        rc, out, err = run(runner, ["--offline-compiler=" + ocloc, "--target=" + target, "api"])
        lines = [l for l in err.splitlines() if l.strip()]
        expect(rc == 2 and len(lines) == 1 and "\"target\" must be one word" in err,
               "%r: exit 2 with one line\n%s" % (name, describe(rc, out, err)))


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}

if __name__ == "__main__":
    sys.exit(e2e.main(CHECKS, __doc__))
