#!/usr/bin/env python3
"""Merges the JSON reports of the shards of ONE run (spirv_intel_cts --shard=I/N --json=FILE) into one report.

Each input has the runner's shape: {"cmd", "results": {name: "pass"|"fail"|"skip"}, "cases": [{name, status,
message, duration_ms, phases, seed}], "platform", "device", "driver", "runtime_package", "seed", "quick", "selection":
{"patterns", "filter", "caselist_file", "exclude_file", "tags", "quick", "extended", "huge", "tier",
"rerun_failed", "seed", "suite_version", "manifest_sha256"}, "shard": {"index", "count"}, "selected",
"aborted", "not_run", "errors", with --waiver-file "waivers": {"files", "stale", "sha256"}, and on a device
with a version gap "version_gaps": [{"extension", "reported", "promised_from", "cases"}]}. These are errors (exit
2, one line naming the file, or the two shards that disagree and on what), because the merged report would
not describe one whole run:
- a report without a "selection" record (written by an older runner) or without a "shard" record;
- shards whose "selection" records differ in any field (other patterns, --filter, --tier, --quick, seed,
  suite version, manifest...), that ran on different platforms, devices, drivers or runtime packages, or with
  different waiver files ("waivers": {"files"}, as given on the command line; one shard with and one without
  counts as different) or waiver files of other contents ("waivers": {"sha256"}, each file's SHA-256 as the
  runner read it, compared when both shards record it): a failure one shard waives would count against the other;
- a shard missing from 0..N-1, the same shard I/N given twice, or shards of different N;
- a case reported by two shards;
- shards that report a version gap of one extension with other versions ("version_gaps": "reported",
  "promised_from");
- a shard selected with --run-skipped and one without (the selection record's "run_skipped"): the merged
  stale-skip list would cover only part of the run;
- a shard whose run was aborted (Ctrl-C, SIGTERM, a timeout without --isolate, no device): "aborted" is set
  and "not_run" lists the cases it never ran. --allow-aborted merges it anyway; the merged report then keeps
  the union of "not_run" and says which shards were aborted;
- a report whose results and not-run cases do not add up to its "selected" count (a truncated report);
- a malformed input (not JSON, wrong types, not a regular file, larger than 1 GiB) or an output that names an
  input or cannot be written.

The merged report keeps the selection record, records every shard's command in "cmds" (in shard order;
"cmd" is shard 0's) and is shard 0/1. Each case keeps its "phases" (where its time went); "phase_totals" is
recomputed as their sum over every shard. Exit 0 after a merge, or with --fail-on-failures 1 when any case is not
Pass/NotSupported/Waived/Flake, a case was not run or a shard recorded a run-level error. A Waived case (a known
failure a --waiver-file covers) does not fail: its CTS word stays "fail", so its status decides. A Flake (failed,
then passed on a --retry attempt) does not fail either, unless --flake-fails is given too, as with the runner. The merged
"waivers" holds every shard's files and stale waivers, each once, and the files' "sha256". The output file is
replaced atomically (written beside it, then renamed); without -o, or with -o -, the report goes to standard
output. "version_gaps" counts the cases of every shard. The cases a waiver's "skip" kept from running are counted
apart ("waived_not_run" in the merged report, "Waived not run (skipped)" in the summary, a line with their share
of the selection); --max-skipped-share=P makes the merge exit 1 when they are more than P percent of it.

Usage: merge_results.py shard0.json shard1.json ... [-o merged.json|-] [--fail-on-failures [--flake-fails]]
       [--allow-aborted] [--max-skipped-share=P]
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402  (the checked report loader, safe outputs)

SAME_IN_EVERY_SHARD = ("platform", "device", "driver", "runtime_package", "offline_compiler", "seed", "quick",
                       "build_only")
GOOD = ("Pass", "NotSupported", "Waived", "Flake")


class MergeError(Exception):
    pass


def load(path):
    try:
        return report_io.load_report(path)
    except report_io.ReportError as e:
        raise MergeError(str(e))


def shard_of(path, doc):
    """(index, count) from the report's "shard" record (checked by report_io), or None when it has none."""
    shard = doc.get("shard")
    return None if shard is None else (shard["index"], shard["count"])


def not_run_of(path, doc):
    return doc.get("not_run", [])


def waiver_files(doc):
    """The --waiver-file files a shard ran with, as the runner records them ([] without any)."""
    return (doc.get("waivers") or {}).get("files", [])


def check_one_run(docs):
    """Every shard records the same selection and device, and N shards 0..N-1 are there once each. Returns N."""
    for path, doc in docs:
        if "selection" not in doc:
            raise MergeError("%s: no \"selection\" record: written by an older runner, which does not say what "
                             "selected its cases; re-run it with this suite's runner" % path)
        if "shard" not in doc:
            raise MergeError("%s: no \"shard\" record (I/N): not a shard report of this suite's runner" % path)
    first_path, first = docs[0]
    for path, doc in docs[1:]:
        for key in sorted(set(first["selection"]) | set(doc["selection"])):
            a, b = first["selection"].get(key), doc["selection"].get(key)
            if a != b:
                raise MergeError("%s and %s are not shards of one run: selection.%s differs (%s vs %s)" % (
                    first_path, path, key, json.dumps(a), json.dumps(b)))
        for key in SAME_IN_EVERY_SHARD:
            if doc.get(key) != first.get(key):
                raise MergeError("%s and %s are not shards of one run: %s differs (%s vs %s)" % (
                    first_path, path, key, json.dumps(first.get(key)), json.dumps(doc.get(key))))
        # The waivers decide which failures count: shards judged by different waiver files are not one run.
        a, b = waiver_files(first), waiver_files(doc)
        if a != b:
            raise MergeError("%s and %s are not shards of one run: waivers.files differs (%s vs %s)" % (
                first_path, path, json.dumps(a), json.dumps(b)))
        # The same path may hold other waivers on another machine or after an edit: the runner records each file's
        # SHA-256 as read ("sha256", parallel to "files"; an older runner does not).
        a, b = (first.get("waivers") or {}).get("sha256"), (doc.get("waivers") or {}).get("sha256")
        if a is not None and b is not None and a != b:
            raise MergeError("%s and %s are not shards of one run: waivers.sha256 differs (the same waiver files "
                             "held other contents: %s vs %s)" % (first_path, path, json.dumps(a), json.dumps(b)))
    check_version_gaps(docs)
    count = first["shard"]["count"]
    seen = {}
    for path, doc in docs:
        index, n = shard_of(path, doc)
        if n != count:
            raise MergeError("%s and %s are not shards of one run: shard %d/%d vs %d/%d (different splits)"
                             % (first_path, path, first["shard"]["index"], count, index, n))
        if index in seen:
            raise MergeError("shard %d/%d is in both %s and %s" % (index, count, seen[index], path))
        seen[index] = path
    missing = ["%d/%d" % (i, count) for i in range(count) if i not in seen]
    if missing:
        raise MergeError("missing shard%s %s (have %s): the merged report would not cover the whole run" % (
            "s" if len(missing) > 1 else "", ", ".join(missing),
            ", ".join("%d/%d from %s" % (i, count, seen[i]) for i in sorted(seen))))
    return count


def check_version_gaps(docs):
    """Shards of one device report each version gap alike: the version reported and the one that promises
    SPIR-V support."""
    seen = {}
    for path, doc in docs:
        for g in doc.get("version_gaps", []):
            versions = (g["reported"], g["promised_from"])
            first = seen.setdefault(g["extension"], (path, versions))
            if first[1] != versions:
                raise MergeError("%s and %s are not shards of one run: version_gaps %s differs (reported %s, "
                                 "promised from %s vs reported %s, promised from %s)" % (
                                     first[0], path, g["extension"], json.dumps(first[1][0]),
                                     json.dumps(first[1][1]), json.dumps(versions[0]), json.dumps(versions[1])))


def skipped_cases(cases):
    """The cases a waiver's skip recorded Waived without running ("original_status": "NotRun")."""
    return sum(1 for c in cases if c["status"] == "Waived" and c.get("original_status") == "NotRun")


def check_complete(path, doc, allow_aborted):
    """A shard that stopped early is refused (unless allowed); one whose counts do not add up always is."""
    not_run = not_run_of(path, doc)
    aborted = doc.get("aborted")
    if (aborted or not_run) and not allow_aborted:
        raise MergeError("%s: the run was aborted (%s): %d case(s) not run; re-run this shard, or pass "
                         "--allow-aborted to merge what finished" % (path, aborted or "unknown reason", len(not_run)))
    selected = doc.get("selected")
    if selected is None:
        raise MergeError("%s: no \"selected\" count: a truncated report cannot be told from a whole one" % path)
    if len(doc["results"]) + len(not_run) != selected:
        raise MergeError("%s: %d of %d selected case(s) have a result and %d are listed as not run: the report "
                         "is incomplete" % (path, len(doc["results"]), selected, len(not_run)))


def merge(paths, allow_aborted=False):
    if not paths:
        raise MergeError("no input reports")
    docs = [(p, load(p)) for p in paths]
    check_one_run(docs)
    for path, doc in docs:
        check_complete(path, doc, allow_aborted)
    docs.sort(key=lambda pd: pd[1]["shard"]["index"])
    first = docs[0][1]
    merged = {"cmd": first.get("cmd", ""), "cmds": [d.get("cmd", "") for _, d in docs], "selection":
              first["selection"], "shards": [], "results": {}, "cases": []}
    owner = {}
    not_run = []
    aborted = []
    for path, doc in docs:
        for name in list(doc["results"]) + not_run_of(path, doc):
            if name in owner:
                raise MergeError("case %s is in both %s and %s (overlapping shards)" % (name, owner[name], path))
            owner[name] = path
        merged["results"].update(doc["results"])
        merged["cases"].extend(doc.get("cases", []))
        not_run.extend(not_run_of(path, doc))
        index, count = shard_of(path, doc)
        merged["shards"].append({"file": path, "cmd": doc.get("cmd", ""), "cases": len(doc["results"]),
                                 "index": index, "count": count, "selected": doc["selected"],
                                 "not_run": len(not_run_of(path, doc)), "aborted": doc.get("aborted")})
        if doc.get("aborted"):
            aborted.append("shard %d/%d (%s): %s" % (index, count, path, doc["aborted"]))
    merged["results"] = dict(sorted(merged["results"].items()))
    merged["cases"].sort(key=lambda c: c["name"])
    for key in SAME_IN_EVERY_SHARD:
        if key in first:
            merged[key] = first[key]
    merged["shard"] = {"index": 0, "count": 1}  # the merge is the whole run
    merged["selected"] = sum(d["selected"] for _, d in docs)
    merged["waived_not_run"] = skipped_cases(merged["cases"])
    merged["aborted"] = "; ".join(aborted) if aborted else None
    merged["not_run"] = sorted(not_run)
    merged["errors"] = [e for _, d in docs for e in d.get("errors", [])]
    waivers = [d["waivers"] for _, d in docs if "waivers" in d]
    if waivers:
        # Every shard reports the entries that match nothing in the whole selection: keep each line once.
        merged["waivers"] = {key: list(dict.fromkeys(x for w in waivers for x in w.get(key, [])))
                             for key in ("files", "stale")}
        sums = [w["sha256"] for w in waivers if "sha256" in w]
        if sums:  # equal in every shard that has them (check_one_run)
            merged["waivers"]["sha256"] = sums[0]
    gaps = {}
    for _, d in docs:
        for g in d.get("version_gaps", []):
            kept = gaps.setdefault(g["extension"], dict(g, cases=0))
            kept["cases"] += g["cases"]
    if gaps:
        merged["version_gaps"] = list(gaps.values())
    totals = phase_totals(merged["cases"])
    if totals is not None:
        merged["phase_totals"] = totals
    return merged


def phase_totals(cases):
    """The run's time by phase: the cases' "phases" summed (as the runner's "phase_totals"), or None when no case
    records them (a report of an older runner)."""
    timed = [c["phases"] for c in cases if "phases" in c]
    if not timed:
        return None
    totals = {}
    for key in ("build_ms", "builds", "cache_hits", "kernel_ms", "check_ms", "worker_start_ms"):
        total = sum(p[key] for p in timed)
        totals[key] = total if key in report_io.PHASE_COUNT_KEYS else round(total, 3)
    return totals


def tally(merged):
    """Cases per status; a Waived case a skip kept from running is "Waived not run (skipped)", apart from the
    cases waived after running."""
    counts = {}
    for c in merged["cases"]:
        key = c["status"] + (" not run (skipped)" if c.get("original_status") == "NotRun" else "")
        counts[key] = counts.get(key, 0) + 1
    # Reports without "cases" details still carry the CTS words.
    if not merged["cases"]:
        for word in merged["results"].values():
            counts[word] = counts.get(word, 0) + 1
    return counts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+")
    ap.add_argument("-o", "--output", help="merged report (default, or -: standard output)")
    ap.add_argument("--flake-fails", action="store_true",
                    help="with --fail-on-failures: a Flake case fails too (as the runner's --flake-fails)")
    ap.add_argument("--fail-on-failures", action="store_true",
                    help="exit 1 when a case is not Pass/NotSupported/Waived, a case was not run or a shard has "
                         "run-level errors")
    ap.add_argument("--max-skipped-share", type=float, metavar="P",
                    help="exit 1 when waiver skips kept more than P percent of the selected cases from running "
                         "(as the runner's --max-skipped-share)")
    ap.add_argument("--allow-aborted", action="store_true",
                    help="merge shards whose run was aborted (their not-run cases are listed in \"not_run\")")
    args = ap.parse_args(argv)
    if args.max_skipped_share is not None and not 0 <= args.max_skipped_share <= 100:
        print("merge_results: --max-skipped-share=%g: expected a percentage, 0 <= P <= 100" % args.max_skipped_share,
              file=sys.stderr)
        return 2
    to_file = args.output not in (None, "-")  # "-" is standard output, the default
    try:
        if to_file:
            report_io.check_output(args.output, args.reports)  # before the work, not after it
        merged = merge(args.reports, allow_aborted=args.allow_aborted)
        text = json.dumps(merged, indent=2) + "\n"
        if to_file:
            report_io.write_output(args.output, text, args.reports)
        else:
            sys.stdout.write(text)
    except (MergeError, report_io.ReportError) as e:
        print("merge_results: %s" % report_io.printable(e), file=sys.stderr)
        return 2
    counts = tally(merged)
    summary = ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))
    print(report_io.printable("merge_results: %d shard(s), %d case(s): %s%s%s" % (
        len(args.reports), len(merged["results"]), summary or "none",
        "; %d not run (%s)" % (len(merged["not_run"]), merged["aborted"]) if merged["not_run"] else "",
        "; %d run-level error(s)" % len(merged["errors"]) if merged["errors"] else "")), file=sys.stderr)
    detailed = {c["name"] for c in merged["cases"]}
    good = tuple(s for s in GOOD if s != "Flake") if args.flake_fails else GOOD
    bad = any(c["status"] not in good for c in merged["cases"]) or \
        any(w == "fail" for n, w in merged["results"].items() if n not in detailed) or \
        merged["errors"] or merged["not_run"]
    skipped = merged["waived_not_run"]
    if skipped:
        print("merge_results: %d of %d selected case(s) (%.1f%%) not run: skipped by waiver \"skip\" entries" % (
            skipped, merged["selected"], 100.0 * skipped / max(merged["selected"], 1)), file=sys.stderr)
    too_many = args.max_skipped_share is not None and skipped * 100 > args.max_skipped_share * merged["selected"]
    if too_many:
        print("merge_results: the skips cover more than the %g%% --max-skipped-share allows" % args.max_skipped_share,
              file=sys.stderr)
    return 1 if (args.fail_on_failures and bad) or too_many else 0


if __name__ == "__main__":
    sys.exit(main())
