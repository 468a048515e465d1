#!/usr/bin/env python3
"""Merges the JSON reports of shards (spirv_intel_cts --shard=I/N --json=FILE) into one report.

Each input has the runner's shape: {"cmd", "results": {name: "pass"|"fail"|"skip"}, "cases": [{name, status,
message, duration_ms, seed}], "platform", "device", "driver", "runtime_package", "seed", "quick", "shard":
{"index", "count"}, "selected", "aborted", "not_run", "errors", and with --waiver-file "waivers": {"files",
"stale"}}. These are errors (exit 2), because the merged report would not describe one whole run:
- a case reported by two shards, or shards that ran on different devices, drivers or runtime packages
  ("runtime_package", e.g. "intel-opencl-rt 2026.2.0"; reports written before it was recorded lack it and are
  not compared on it) or with different seeds;
- a shard missing from 0..N-1, the same shard I/N given twice, or shards of different N;
- a shard whose run was aborted (Ctrl-C, SIGTERM, a timeout without --isolate, no device): "aborted" is set
  and "not_run" lists the cases it never ran. --allow-aborted merges it anyway; the merged report then keeps
  the union of "not_run" and says which shards were aborted;
- a report whose results and not-run cases do not add up to its "selected" count (a truncated report).
Reports written before the runner recorded "shard" are merged without the shard checks, but not mixed with
reports that record it.

Exit 0 after a merge, or with --fail-on-failures 1 when any case is not Pass/NotSupported/Waived, a case was
not run or a shard recorded a run-level error. A Waived case (a known failure a --waiver-file covers) does not
fail: its CTS word stays "fail", so its status decides. The merged "waivers" holds every shard's files and
stale waivers, each once. The output file is replaced atomically (written beside it, then
renamed); an output that cannot be written is an error (exit 2).

Usage: merge_results.py shard0.json shard1.json ... -o merged.json [--fail-on-failures] [--allow-aborted]
"""

import argparse
import json
import os
import sys
import tempfile

SAME_IN_EVERY_SHARD = ("platform", "device", "driver", "runtime_package", "offline_compiler", "seed", "quick")
GOOD = ("Pass", "NotSupported", "Waived")


class MergeError(Exception):
    pass


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise MergeError("%s: cannot read JSON report: %s" % (path, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), dict) or \
            not isinstance(doc.get("cases", []), list):
        raise MergeError("%s: not a runner JSON report (needs a \"results\" object and a \"cases\" list)" % path)
    for c in doc.get("cases", []):
        if not isinstance(c, dict) or "name" not in c or "status" not in c:
            raise MergeError("%s: a \"cases\" entry lacks name/status: %r" % (path, c))
        if c["name"] not in doc["results"]:
            raise MergeError("%s: case %s is in \"cases\" but not in \"results\"" % (path, c["name"]))
    return doc


def shard_of(path, doc):
    """(index, count) from the report's "shard" record, or None for a report that predates it."""
    shard = doc.get("shard")
    if shard is None:
        return None
    index = shard.get("index") if isinstance(shard, dict) else None
    count = shard.get("count") if isinstance(shard, dict) else None
    if not isinstance(index, int) or not isinstance(count, int) or not 0 <= index < count:
        raise MergeError("%s: malformed \"shard\" %r (needs {\"index\": I, \"count\": N}, 0 <= I < N)" % (path, shard))
    return index, count


def not_run_of(path, doc):
    names = doc.get("not_run", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise MergeError("%s: \"not_run\" must be a list of case names" % path)
    return names


def check_shards(docs):
    """Every shard 0..N-1 exactly once, all of the same N. Returns N, or None for reports without shard records."""
    shards = [(path, shard_of(path, doc)) for path, doc in docs]
    recorded = [(path, s) for path, s in shards if s is not None]
    if not recorded:
        return None
    if len(recorded) != len(shards):
        legacy = [path for path, s in shards if s is None][0]
        raise MergeError("%s records no shard (I/N) but %s does: was it written by an older runner? Re-run it"
                         % (legacy, recorded[0][0]))
    first_path, (_, count) = recorded[0]
    seen = {}
    for path, (index, n) in recorded:
        if n != count:
            raise MergeError("%s is shard %d/%d but %s is shard %d/%d: shards of different splits"
                             % (path, index, n, first_path, recorded[0][1][0], count))
        if index in seen:
            raise MergeError("shard %d/%d is in both %s and %s" % (index, count, seen[index], path))
        seen[index] = path
    missing = ["%d/%d" % (i, count) for i in range(count) if i not in seen]
    if missing:
        raise MergeError("missing shard%s %s (have %s): the merged report would not cover the whole run" % (
            "s" if len(missing) > 1 else "", ", ".join(missing),
            ", ".join("%d/%d from %s" % (i, count, seen[i]) for i in sorted(seen))))
    return count


def check_complete(path, doc, allow_aborted):
    """A shard that stopped early is refused (unless allowed); one whose counts do not add up always is."""
    not_run = not_run_of(path, doc)
    aborted = doc.get("aborted")
    if aborted is not None and not isinstance(aborted, str):
        raise MergeError("%s: \"aborted\" must be null or a string" % path)
    if (aborted or not_run) and not allow_aborted:
        raise MergeError("%s: the run was aborted (%s): %d case(s) not run; re-run this shard, or pass "
                         "--allow-aborted to merge what finished" % (path, aborted or "unknown reason", len(not_run)))
    selected = doc.get("selected")
    if selected is not None:
        if not isinstance(selected, int):
            raise MergeError("%s: \"selected\" must be a number" % path)
        if len(doc["results"]) + len(not_run) != selected:
            raise MergeError("%s: %d of %d selected case(s) have a result and %d are listed as not run: the report "
                             "is incomplete" % (path, len(doc["results"]), selected, len(not_run)))


def merge(paths, allow_aborted=False):
    if not paths:
        raise MergeError("no input reports")
    docs = [(p, load(p)) for p in paths]
    first_path, first = docs[0]
    shard_count = check_shards(docs)
    for path, doc in docs:
        check_complete(path, doc, allow_aborted)
    merged = {"cmd": first.get("cmd", ""), "shards": [], "results": {}, "cases": []}
    owner = {}
    not_run = []
    aborted = []
    for path, doc in docs:
        for key in SAME_IN_EVERY_SHARD:
            if key in first and key in doc and doc[key] != first[key]:
                raise MergeError("%s: %s %r differs from %r in %s" % (path, key, doc[key], first[key], first_path))
        for name in list(doc["results"]) + not_run_of(path, doc):
            if name in owner:
                raise MergeError("case %s is in both %s and %s (overlapping shards)" % (name, owner[name], path))
            owner[name] = path
        merged["results"].update(doc["results"])
        merged["cases"].extend(doc.get("cases", []))
        not_run.extend(not_run_of(path, doc))
        entry = {"file": path, "cmd": doc.get("cmd", ""), "cases": len(doc["results"])}
        shard = shard_of(path, doc)
        if shard is not None:
            entry.update(index=shard[0], count=shard[1], selected=doc.get("selected"),
                         not_run=len(not_run_of(path, doc)), aborted=doc.get("aborted"))
            if doc.get("aborted"):
                aborted.append("shard %d/%d (%s): %s" % (shard[0], shard[1], path, doc["aborted"]))
        elif doc.get("aborted"):
            aborted.append("%s: %s" % (path, doc["aborted"]))
        merged["shards"].append(entry)
    merged["results"] = dict(sorted(merged["results"].items()))
    merged["cases"].sort(key=lambda c: c["name"])
    for key in SAME_IN_EVERY_SHARD:
        if key in first:
            merged[key] = first[key]
    if shard_count is not None:
        merged["shard"] = {"index": 0, "count": 1}  # the merge is the whole run
        merged["shards"].sort(key=lambda e: e["index"])
    if all(isinstance(d.get("selected"), int) for _, d in docs):
        merged["selected"] = sum(d["selected"] for _, d in docs)
    merged["aborted"] = "; ".join(aborted) if aborted else None
    merged["not_run"] = sorted(not_run)
    merged["errors"] = [e for _, d in docs for e in d.get("errors", [])]
    waivers = [d["waivers"] for _, d in docs if isinstance(d.get("waivers"), dict)]
    if waivers:
        # Every shard reports the entries that match nothing in the whole selection: keep each line once.
        merged["waivers"] = {key: list(dict.fromkeys(x for w in waivers for x in w.get(key, [])))
                             for key in ("files", "stale")}
    return merged


def write_output(path, text):
    """Replaces path atomically (a temporary file in the same directory, then a rename), so a failed write never
    leaves a truncated report or destroys an earlier one. Devices and pipes are written in place."""
    try:
        if os.path.isdir(path):
            raise MergeError("cannot write %s: it is a directory" % path)
        if os.path.exists(path) and not os.path.isfile(path):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            return
        target = os.path.realpath(path)
        mode = os.stat(target).st_mode & 0o7777 if os.path.exists(target) else None
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target) or ".", prefix="." + os.path.basename(target) + ".tmp.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fchmod(f.fileno(), mode)
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as e:
        raise MergeError("cannot write %s: %s" % (path, e.strerror or e))


def tally(merged):
    counts = {}
    for c in merged["cases"]:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    # Reports without "cases" details still carry the CTS words.
    if not merged["cases"]:
        for word in merged["results"].values():
            counts[word] = counts.get(word, 0) + 1
    return counts


def main(argv=None):
    ap = argparse.ArgumentParser(description="Merge shard JSON reports of spirv_intel_cts.")
    ap.add_argument("reports", nargs="+")
    ap.add_argument("-o", "--output", help="merged report (default: standard output)")
    ap.add_argument("--fail-on-failures", action="store_true",
                    help="exit 1 when a case is not Pass/NotSupported/Waived, a case was not run or a shard has "
                         "run-level errors")
    ap.add_argument("--allow-aborted", action="store_true",
                    help="merge shards whose run was aborted (their not-run cases are listed in \"not_run\")")
    args = ap.parse_args(argv)
    try:
        merged = merge(args.reports, allow_aborted=args.allow_aborted)
        text = json.dumps(merged, indent=2) + "\n"
        if args.output:
            write_output(args.output, text)
        else:
            sys.stdout.write(text)
    except MergeError as e:
        print("merge_results: error: %s" % e, file=sys.stderr)
        return 2
    counts = tally(merged)
    summary = ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))
    print("merge_results: %d shard(s), %d case(s): %s%s%s" % (
        len(args.reports), len(merged["results"]), summary or "none",
        "; %d not run (%s)" % (len(merged["not_run"]), merged["aborted"]) if merged["not_run"] else "",
        "; %d run-level error(s)" % len(merged["errors"]) if merged["errors"] else ""), file=sys.stderr)
    detailed = {c["name"] for c in merged["cases"]}
    bad = any(c["status"] not in GOOD for c in merged["cases"]) or \
        any(w == "fail" for n, w in merged["results"].items() if n not in detailed) or \
        merged["errors"] or merged["not_run"]
    return 1 if (args.fail_on_failures and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
