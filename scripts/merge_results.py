#!/usr/bin/env python3
"""Merges the JSON reports of shards (spirv_intel_cts --shard=I/N --json=FILE) into one report.

Each input has the runner's shape: {"cmd", "results": {name: "pass"|"fail"|"skip"}, "cases": [{name, status,
message, duration_ms, seed}], "platform", "device", "driver", "seed", "quick", "errors"}. A case reported by
two shards, or shards that ran on different devices or with different seeds, is an error (exit 2): the
merged report would not describe one run. Exit 0 after a merge, or with --fail-on-failures 1 when any case
is not Pass/NotSupported or a shard recorded a run-level error.

Usage: merge_results.py shard0.json shard1.json ... -o merged.json [--fail-on-failures]
"""

import argparse
import json
import sys

SAME_IN_EVERY_SHARD = ("platform", "device", "driver", "seed", "quick")
GOOD = ("Pass", "NotSupported")


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


def merge(paths):
    if not paths:
        raise MergeError("no input reports")
    docs = [(p, load(p)) for p in paths]
    first_path, first = docs[0]
    merged = {"cmd": first.get("cmd", ""), "shards": [], "results": {}, "cases": []}
    owner = {}
    for path, doc in docs:
        for key in SAME_IN_EVERY_SHARD:
            if key in first and key in doc and doc[key] != first[key]:
                raise MergeError("%s: %s %r differs from %r in %s" % (path, key, doc[key], first[key], first_path))
        for name, word in doc["results"].items():
            if name in owner:
                raise MergeError("case %s is in both %s and %s (overlapping shards)" % (name, owner[name], path))
            owner[name] = path
            merged["results"][name] = word
        merged["cases"].extend(doc.get("cases", []))
        merged["shards"].append({"file": path, "cmd": doc.get("cmd", ""), "cases": len(doc["results"])})
    merged["results"] = dict(sorted(merged["results"].items()))
    merged["cases"].sort(key=lambda c: c["name"])
    for key in SAME_IN_EVERY_SHARD:
        if key in first:
            merged[key] = first[key]
    merged["errors"] = [e for _, d in docs for e in d.get("errors", [])]
    return merged


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
                    help="exit 1 when a case is not Pass/NotSupported or a shard has run-level errors")
    args = ap.parse_args(argv)
    try:
        merged = merge(args.reports)
    except MergeError as e:
        print("merge_results: error: %s" % e, file=sys.stderr)
        return 2
    text = json.dumps(merged, indent=2) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    counts = tally(merged)
    summary = ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))
    print("merge_results: %d shard(s), %d case(s): %s%s" % (
        len(args.reports), len(merged["results"]), summary or "none",
        "; %d run-level error(s)" % len(merged["errors"]) if merged["errors"] else ""), file=sys.stderr)
    bad = any(c["status"] not in GOOD for c in merged["cases"]) or \
        any(w == "fail" for w in merged["results"].values()) or merged["errors"]
    return 1 if (args.fail_on_failures and bad) else 0


if __name__ == "__main__":
    sys.exit(main())
