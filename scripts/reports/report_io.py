"""Reading the scripts' inputs (the runner's JSON reports, other JSON files, text files) and writing their outputs.

Every input is checked before it is used, so a bad one is one line "<file>: <what is wrong>" (ReportError) and
never a traceback: it must be a regular file (not a directory, FIFO or device such as /dev/zero) of at most
MAX_INPUT_BYTES, UTF-8 JSON without NaN/Infinity, nested at most MAX_DEPTH deep; a report must have the
runner's shape, each known key with the type the runner writes. Outputs replace their file atomically and are
refused when they name one of the inputs (the same file by any path, symbolic or hard link) or an existing path
that is not a regular file (a FIFO would block, a directory or device is no report).
"""

import html
import json
import os
import re
import signal
import stat
import tempfile

MAX_INPUT_BYTES = 1 << 30  # a whole run: 13 MB (38,840 cases); every case failing with mismatch grids stays far below
MAX_DEPTH = 64  # the runner's reports nest 7 deep

# The runner's statuses, and "NotRun" for a case a report lists in "not_run".
STATUSES = ("Pass", "Fail", "NotSupported", "InternalError", "Crash", "Timeout", "Waived", "Flake")

# Top-level keys of a report and their types (None: null allowed too). Unknown keys are left alone.
_STR, _INT, _BOOL, _LIST, _DICT = str, int, bool, list, dict
REPORT_KEYS = {"cmd": (_STR,), "platform": (_STR,), "device": (_STR,), "driver": (_STR,),
               "runtime_package": (_STR,), "assets_dir": (_STR,), "icd_vendors": (_STR,), "seed": (_INT,),
               "quick": (_BOOL,), "extended": (_BOOL,), "selected": (_INT,), "aborted": (_STR, None),
               "results": (_DICT,), "cases": (_LIST,), "not_run": (_LIST,), "errors": (_LIST,),
               "shard": (_DICT,), "shards": (_LIST,), "cmds": (_LIST,), "waivers": (_DICT,),
               "selection": (_DICT,), "offline_compiler": (_DICT, None), "version_gaps": (_LIST,),
               "phase_totals": (_DICT,), "build_only": (_BOOL,), "waived_not_run": (_INT,)}
SELECTION_KEYS = {"patterns": (_LIST,), "filter": (_STR,), "caselist_file": (_STR,), "exclude_file": (_STR,),
                  "tags": (_LIST,), "quick": (_BOOL,), "extended": (_BOOL,), "huge": (_BOOL,), "tier": (_STR,),
                  "rerun_failed": (_STR,), "run_skipped": (_BOOL,), "seed": (_INT,), "suite_version": (_STR,), "manifest_sha256": (_STR,)}
CASE_KEYS = {"name": (_STR,), "status": (_STR,), "message": (_STR,), "seed": (_INT,), "tier": (_STR,),
             "phase": (_STR, None), "build_log": (_STR,), "original_status": (_STR,), "waiver": (_DICT,),
             "mismatches": (_DICT,), "version_gaps": (_LIST,), "attempts": (_LIST,),
             "phases": (_DICT,)}
# A case's "phases" and the run's "phase_totals" (report.h PhaseTimes): milliseconds, and counts of programs.
PHASE_MS_KEYS = ("build_ms", "kernel_ms", "check_ms", "worker_start_ms")
PHASE_COUNT_KEYS = ("builds", "cache_hits")
VERSION_GAP_KEYS = {"extension": (_STR,), "reported": (_STR,), "promised_from": (_STR,), "cases": (_INT,)}
# An entry of a merged report's "shards" (merge_results.py).
SHARD_ENTRY_KEYS = {"file": (_STR,), "cmd": (_STR,), "cases": (_INT,), "index": (_INT,), "count": (_INT,),
                    "selected": (_INT,), "not_run": (_INT,), "aborted": (_STR, None)}


def is_invisible_format(ch):
    """A bidi control (U+061C, U+200E/F, U+202A..U+202E, U+2066..U+2069), zero-width character (U+200B..U+200D,
    U+2060..U+2064, U+FEFF) or line/paragraph separator (U+2028/9): invisible, yet it reorders, hides or breaks
    the text around it (report.cpp, invisibleFormatAt)."""
    o = ord(ch)
    return o == 0x61c or 0x200b <= o <= 0x200f or 0x2028 <= o <= 0x202e or 0x2060 <= o <= 0x2069 or o == 0xfeff


def printable(text):
    """text made safe to print on a terminal, in the runner's style (report.cpp, printable): a C0 control, DEL
    or C1 control (U+0080..U+009F, as its UTF-8 bytes) becomes \\xNN, a byte that was not UTF-8 (a file name
    decoded with surrogateescape) \\xNN of that byte, a lone surrogate (JSON allows "\\ud800") \\uNNNN; the
    rest is kept but invisible format characters (is_invisible_format), written as the \\xNN of their UTF-8
    bytes. A file name or anything read from a report is untrusted: ESC, CSI (U+009B) or an OSC sequence
    would be commands to the terminal. Bytes are decoded as UTF-8 first (invalid bytes escaped)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    elif not isinstance(text, str):
        text = str(text)
    out = []
    for ch in text:
        o = ord(ch)
        if o < 0x20 or o == 0x7f:
            out.append("\\x%02x" % o)
        elif 0x80 <= o <= 0x9f:
            out.append("\\xc2\\x%02x" % o)
        elif 0xdc80 <= o <= 0xdcff:  # surrogateescape: the byte o - 0xdc00 was not UTF-8
            out.append("\\x%02x" % (o - 0xdc00))
        elif 0xd800 <= o <= 0xdfff:
            out.append("\\u%04x" % o)
        elif is_invisible_format(ch):  # as its UTF-8 bytes, as the runner writes it
            out.append("".join("\\x%02x" % b for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def html_text(text):
    """text for an HTML page: printable (a control character is no valid HTML text) but for line feeds and tabs
    (a message or build log in <pre> keeps its lines), then HTML-escaped."""
    return html.escape(re.sub(r"[^\n\t]+", lambda m: printable(m.group()), text if isinstance(text, str) else
                              printable(text)))


class ReportError(Exception):
    """A bad input or output: str() is "<file>: <what is wrong>", printable (a file name or a case name read
    from a report may hold control characters)."""

    def __init__(self, path, what):
        super().__init__(printable("%s: %s" % (path, what)))


# Every script reading reports is a command-line tool: output piped into `head` that closes early ends it
# quietly, as it ends cat or grep, instead of a BrokenPipeError traceback.
if hasattr(signal, "SIGPIPE"):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def _type_ok(value, types):
    for t in types:
        if t is None and value is None:
            return True
        if t is int and isinstance(value, int) and not isinstance(value, bool):
            return True
        if t in (str, bool, list, dict) and isinstance(value, t):
            return True
    return False


def _type_name(types):
    names = {str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "an object",
             None: "null"}
    return " or ".join(names[t] for t in types)


def _check_keys(path, where, obj, keys):
    for key, types in keys.items():
        if key in obj and not _type_ok(obj[key], types):
            raise ReportError(path, "%s\"%s\" must be %s, not %s" % (where, key, _type_name(types),
                                                                     json.dumps(obj[key])[:60]))


def check_regular(path, what="file"):
    """Refuses a path that is missing, a directory or not a regular file; returns its os.stat()."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise ReportError(path, "cannot read %s: %s" % (what, e.strerror or e))
    if stat.S_ISDIR(st.st_mode):
        raise ReportError(path, "is a directory, not a %s" % what)
    if not stat.S_ISREG(st.st_mode):  # a FIFO would block, /dev/zero never ends
        raise ReportError(path, "is not a regular file (a device, FIFO or socket), not a %s" % what)
    return st


def read_bytes(path, what="file"):
    """The content of a regular file of at most MAX_INPUT_BYTES."""
    st = check_regular(path, what)
    if st.st_size > MAX_INPUT_BYTES:
        raise ReportError(path, "%d bytes: larger than the %d a %s may have" % (st.st_size, MAX_INPUT_BYTES, what))
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as e:
        raise ReportError(path, "cannot read %s: %s" % (what, e.strerror or e))
    if len(data) > MAX_INPUT_BYTES:
        raise ReportError(path, "larger than the %d bytes a %s may have" % (MAX_INPUT_BYTES, what))
    return data


def read_text(path, what="file"):
    try:
        return read_bytes(path, what).decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReportError(path, "not UTF-8 text (%s)" % e.reason)


def _refuse_constant(name):
    raise ValueError("%s is not JSON" % name)


def _depth_ok(doc):
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return True


def _refuse_duplicate_keys(pairs):
    """An object with a key given twice is refused: JSON readers keep only the last ("cases" twice would hide the
    first list, a Fail in it), as the runner refuses it in waiver files."""
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError("the key %s is given twice in one object" % json.dumps(key)[:60])
        obj[key] = value
    return obj


def load_json(path, what="JSON file"):
    """Any JSON document, checked for size and depth; an object with a key given twice is refused."""
    text = read_text(path, what)
    try:
        doc = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_refuse_duplicate_keys)
    except RecursionError:
        raise ReportError(path, "not a %s: JSON nested too deep" % what)
    except ValueError as e:
        raise ReportError(path, "not a %s: invalid JSON: %s" % (what, e))
    if not _depth_ok(doc):
        raise ReportError(path, "not a %s: JSON nested deeper than %d levels" % (what, MAX_DEPTH))
    return doc


def _check_str_list(path, where, value):
    if not isinstance(value, list):
        raise ReportError(path, "%s must be a list of strings, not %s" % (where, json.dumps(value)[:60]))
    bad = [x for x in value if not isinstance(x, str)]
    if bad:
        raise ReportError(path, "%s must be a list of strings; it holds %s" % (where, json.dumps(bad[0])[:60]))


UINT64_MAX = (1 << 64) - 1  # seeds are uint64_t in the runner
UINT32_MAX = (1 << 32) - 1  # a mismatch grid's rows, columns and cell positions
WAIVABLE = ("Fail", "Crash", "Timeout")  # the statuses a waiver turns into Waived (waivers.cpp, waivable)
# A waived case's "original_status": one of those, or NotRun for a case a waiver's "skip" kept from running
# (report.cpp, waivedStatusName).
ORIGINAL_STATUSES = WAIVABLE + ("NotRun",)
# The CTS word the runner writes in "results" for each status (report.cpp, ctsResultWord).
RESULT_WORD = {"Pass": "pass", "Flake": "pass", "NotSupported": "skip", "Fail": "fail", "InternalError": "fail",
               "Crash": "fail", "Timeout": "fail", "Waived": "fail"}


def _check_uint(path, where, value, limit):
    if not _type_ok(value, (int,)) or not 0 <= value <= limit:
        raise ReportError(path, "%s must be an integer from 0 to %d, not %s" % (where, limit, json.dumps(value)[:60]))


def _check_number(path, where, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ReportError(path, "%s must be a number of at least 0, not %s" % (where, json.dumps(value)[:60]))


def _check_object(path, where, value, keys, required=True):
    """value is an object whose keys of keys have their types; with required, it holds each of them."""
    if not isinstance(value, dict):
        raise ReportError(path, "%s must be an object, not %s" % (where, json.dumps(value)[:60]))
    for key, types in keys.items():
        if required and key not in value:
            raise ReportError(path, "%s has no \"%s\"" % (where, key))
    _check_keys(path, where + ": ", value, keys)


GRID_KEYS = {"title": (_STR,), "rows": (_INT,), "cols": (_INT,), "row_axis": (_STR,), "col_axis": (_STR,),
             "count": (_INT,), "marked": (_STR,), "cells": (_LIST,)}
CELL_KEYS = {"row": (_INT,), "col": (_INT,), "expected": (_STR,), "actual": (_STR,)}


def _check_mismatches(path, where, pic):
    """The mismatch picture as mismatch_json.cpp writes (and reads back) it."""
    _check_object(path, where, pic, {"grids": (_LIST,), "omitted_cells": (_INT,)}, required=False)
    if "omitted_cells" in pic:
        _check_uint(path, where + ": \"omitted_cells\"", pic["omitted_cells"], UINT64_MAX)
    for i, grid in enumerate(pic.get("grids", [])):
        at = "%s: grid %d" % (where, i)
        _check_object(path, at, grid, GRID_KEYS, required=False)
        for key, limit in (("rows", UINT32_MAX), ("cols", UINT32_MAX), ("count", UINT64_MAX)):
            if key in grid:
                _check_uint(path, "%s: \"%s\"" % (at, key), grid[key], limit)
        if "marked" in grid and not re.fullmatch(r"(\d+\+\d+(,\d+\+\d+)*)?", grid["marked"]):
            raise ReportError(path, "%s: \"marked\" must be \"start+length\" runs, not %s"
                              % (at, json.dumps(grid["marked"])[:60]))
        for cell in grid.get("cells", []):
            _check_object(path, at + ": a cell", cell, CELL_KEYS, required=False)
            for key in ("row", "col"):
                if key in cell:
                    _check_uint(path, "%s: a cell's \"%s\"" % (at, key), cell[key], UINT32_MAX)


def check_phases(path, where, phases):
    """A "phases" or "phase_totals" object: every key, times as numbers of at least 0, counts as integers."""
    if not isinstance(phases, dict):
        raise ReportError(path, "%s must be an object, not %s" % (where, json.dumps(phases)[:60]))
    for key in PHASE_MS_KEYS + PHASE_COUNT_KEYS:
        if key not in phases:
            raise ReportError(path, "%s has no \"%s\"" % (where, key))
    for key in PHASE_MS_KEYS:
        _check_number(path, "%s: \"%s\"" % (where, key), phases[key])
    for key in PHASE_COUNT_KEYS:
        _check_uint(path, "%s: \"%s\"" % (where, key), phases[key], UINT64_MAX)


def _check_case(path, doc, c):
    where = "case %s: " % c["name"]
    _check_keys(path, where, c, CASE_KEYS)
    status = c["status"]
    if status not in STATUSES:
        raise ReportError(path, "%s\"status\" %s is not one of %s" % (where, json.dumps(status)[:40],
                                                                     ", ".join(STATUSES)))
    if "tier" in c and c["tier"] not in ("core", "device_specific"):
        raise ReportError(path, "%s\"tier\" must be \"core\" or \"device_specific\", not %s"
                          % (where, json.dumps(c["tier"])[:40]))
    if "duration_ms" in c:
        _check_number(path, where + "\"duration_ms\"", c["duration_ms"])
    if "seed" in c:
        _check_uint(path, where + "\"seed\"", c["seed"], UINT64_MAX)
    if "phases" in c:
        check_phases(path, where + "\"phases\"", c["phases"])
    for key in ("attempts", "version_gaps"):
        if key in c:
            _check_str_list(path, where + "\"%s\"" % key, c[key])
    if "mismatches" in c:
        _check_mismatches(path, where + "\"mismatches\"", c["mismatches"])
    if status == "Waived":
        # A waived case names the waiver that covered it and what it would have been: without them "Waived"
        # would turn any failure into a good result.
        if "waiver" not in c or "original_status" not in c:
            raise ReportError(path, "%sWaived without its waiver record (\"waiver\": {\"tracker\", \"reason\"} "
                              "and \"original_status\")" % where)
        _check_object(path, where + "\"waiver\"", c["waiver"], {"tracker": (_STR,), "reason": (_STR,)})
        if c["original_status"] not in ORIGINAL_STATUSES:
            raise ReportError(path, "%s\"original_status\" %s is not one a waiver covers (%s)" % (
                where, json.dumps(c["original_status"])[:40], ", ".join(ORIGINAL_STATUSES)))
        # ... and a run that read no waiver file waives nothing.
        files = doc.get("waivers", {}).get("files")
        if not files:
            raise ReportError(path, "%sWaived, but the report records no waiver file (a run-level \"waivers\": "
                              "{\"files\": [...]} with at least one): no run without --waiver-file waives a case"
                              % where)
    elif "waiver" in c or "original_status" in c:
        raise ReportError(path, "%sa waiver record on a case that is %s, not Waived" % (where, status))
    word = doc["results"].get(c["name"])
    if word is None:
        raise ReportError(path, "case %s is in \"cases\" but not in \"results\"" % c["name"])
    if word != RESULT_WORD[status]:
        raise ReportError(path, "case %s: \"results\" says %s but its status is %s (which is \"%s\")" % (
            c["name"], json.dumps(word), status, RESULT_WORD[status]))


def _check_counts(path, doc):
    """What the report says of itself adds up: "selected" covers its results and not-run cases, "waived_not_run"
    counts the cases a waiver's skip kept from running, and each extension a case ran across a version gap for
    is a top-level "version_gaps" entry counting at least those cases (an aborted run's reports are written
    before the count)."""
    cases = doc.get("cases", [])
    if "selected" in doc and doc["selected"] < len(doc["results"]) + len(doc.get("not_run", [])):
        raise ReportError(path, "\"selected\" is %d, fewer than its %d result(s) and %d not-run case(s)" % (
            doc["selected"], len(doc["results"]), len(doc.get("not_run", []))))
    skipped = sum(1 for c in cases if c.get("original_status") == "NotRun")
    if "waived_not_run" in doc and "cases" in doc and doc["waived_not_run"] != skipped:
        raise ReportError(path, "\"waived_not_run\" is %d but %d case(s) are Waived with \"original_status\": "
                                "\"NotRun\"" % (doc["waived_not_run"], skipped))
    counted = {}
    for c in cases:
        for ext in c.get("version_gaps", []):
            counted[ext] = counted.get(ext, 0) + 1
    top = {}
    for g in doc.get("version_gaps", []):
        if g["extension"] in top:
            raise ReportError(path, "\"version_gaps\" lists %s twice" % g["extension"])
        top[g["extension"]] = g["cases"]
    for ext, n in sorted(counted.items()):
        if ext not in top:
            raise ReportError(path, "%d case(s) ran across a version gap of %s, which \"version_gaps\" does not "
                                    "list" % (n, ext))
        if top[ext] < n and not doc.get("aborted"):
            raise ReportError(path, "\"version_gaps\" counts %d case(s) for %s but %d case(s) carry it" % (
                top[ext], ext, n))


def check_report(path, doc):
    """Raises ReportError unless doc has the shape of a runner (or merged) report: every key the runner writes
    with its type and range, anywhere in the report, and "results" agreeing with "cases"."""
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), dict):
        raise ReportError(path, "not a runner JSON report (needs a \"results\" object and a \"cases\" list)")
    _check_keys(path, "", doc, REPORT_KEYS)
    for name, word in doc["results"].items():
        if word not in ("pass", "fail", "skip"):
            raise ReportError(path, "\"results\": the result of %s must be \"pass\", \"fail\" or \"skip\", not %s"
                              % (name, json.dumps(word)[:60]))
    seen = set()
    for c in doc.get("cases", []):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str) or not isinstance(c.get("status"), str):
            raise ReportError(path, "a \"cases\" entry needs a string name and status: %s" % json.dumps(c)[:80])
        if c["name"] in seen:
            raise ReportError(path, "case %s is in \"cases\" twice" % c["name"])
        seen.add(c["name"])
        _check_case(path, doc, c)
    if "cases" in doc and len(seen) != len(doc["results"]):
        missing = sorted(set(doc["results"]) - seen)
        raise ReportError(path, "case %s is in \"results\" but not in \"cases\"%s" % (
            missing[0], " (and %d more)" % (len(missing) - 1) if len(missing) > 1 else ""))
    for key in ("not_run", "errors", "cmds"):
        if key in doc:
            _check_str_list(path, "\"%s\"" % key, doc[key])
    for name in doc.get("not_run", []):
        if name in doc["results"]:
            raise ReportError(path, "case %s has a result and is listed in \"not_run\"" % name)
    if "seed" in doc:
        _check_uint(path, "\"seed\"", doc["seed"], UINT64_MAX)
    if "shard" in doc:
        index, count = doc["shard"].get("index"), doc["shard"].get("count")
        if not _type_ok(index, (int,)) or not _type_ok(count, (int,)) or not 0 <= index < count:
            raise ReportError(path, "malformed \"shard\" %s (needs {\"index\": I, \"count\": N}, 0 <= I < N)"
                              % json.dumps(doc["shard"])[:80])
    if doc.get("selected", 0) < 0:
        raise ReportError(path, "\"selected\" must not be negative")
    if "selection" in doc:
        _check_keys(path, "\"selection\": ", doc["selection"], SELECTION_KEYS)
        for key in ("patterns", "tags"):
            if key in doc["selection"]:
                _check_str_list(path, "\"selection\": \"%s\"" % key, doc["selection"][key])
        if doc["selection"].get("tier", "all") not in ("all", "core"):
            raise ReportError(path, "\"selection\": \"tier\" must be \"all\" or \"core\", not %s"
                              % json.dumps(doc["selection"]["tier"])[:40])
        if "seed" in doc["selection"]:
            _check_uint(path, "\"selection\": \"seed\"", doc["selection"]["seed"], UINT64_MAX)
    if "phase_totals" in doc:
        check_phases(path, "\"phase_totals\"", doc["phase_totals"])
    if doc.get("offline_compiler") is not None:
        _check_object(path, "\"offline_compiler\"", doc["offline_compiler"],
                      {"compiler": (_STR,), "target": (_STR,), "target_description": (_STR,)})
    waivers = doc.get("waivers", {})
    for key in ("files", "stale"):
        if key in waivers:
            _check_str_list(path, "\"waivers\": \"%s\"" % key, waivers[key])
    if "sha256" in waivers:
        # Each waiver file's SHA-256 as the runner read it, parallel to "files": one path can hold other waivers.
        sums = waivers["sha256"]
        if not isinstance(sums, list) or not all(isinstance(x, str) and re.fullmatch(r"[0-9a-f]{64}", x)
                                                  for x in sums):
            raise ReportError(path, "\"waivers\": \"sha256\" must be a list of SHA-256 digests (64 lower-case hex "
                                    "digits), not %s" % json.dumps(sums)[:80])
        if len(sums) != len(waivers.get("files", [])):
            raise ReportError(path, "\"waivers\": \"sha256\" has %d digest(s) for %d file(s): it must have one per "
                                    "file" % (len(sums), len(waivers.get("files", []))))
    for gap in doc.get("version_gaps", []):
        if not isinstance(gap, dict) or not all(k in gap for k in VERSION_GAP_KEYS):
            raise ReportError(path, "a \"version_gaps\" entry needs extension, reported, promised_from and cases: %s"
                              % json.dumps(gap)[:80])
        _check_keys(path, "\"version_gaps\": ", gap, VERSION_GAP_KEYS)
        _check_uint(path, "\"version_gaps\": \"cases\"", gap["cases"], UINT64_MAX)
    for i, s in enumerate(doc.get("shards", [])):
        if not isinstance(s, dict):
            raise ReportError(path, "\"shards\" must be a list of objects")
        _check_keys(path, "\"shards\" %d: " % i, s, SHARD_ENTRY_KEYS)
        for key in ("cases", "index", "count", "selected", "not_run"):
            if key in s:
                _check_uint(path, "\"shards\" %d: \"%s\"" % (i, key), s[key], UINT64_MAX)
    _check_counts(path, doc)


def load_report(path):
    """A runner --json report or a merged shard report, checked (check_report)."""
    doc = load_json(path, "runner JSON report")
    check_report(path, doc)
    return doc


def same_file(a, b):
    """Whether paths a and b name one file (the same path spelled otherwise, a symbolic or a hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


def check_output(path, inputs=()):
    """Refuses an output path that is not a regular file when it exists (a directory; a FIFO, on which the write
    would block until a reader comes; a device such as /dev/zero; a socket) or that names one of the inputs:
    writing it would destroy that input. "-" is refused too: a script whose output may be standard output
    handles "-" itself, and elsewhere a file named "-" is almost always a mistaken request for standard output."""
    if path == "-":
        raise ReportError(path, "this output must be a file, not standard output; to write a file named -, give ./-")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise ReportError(path, "cannot write: %s" % (e.strerror or e))
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise ReportError(path, "cannot write: it is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise ReportError(path, "cannot write: not a regular file (a FIFO, device or socket); an output must be a "
                                "regular file")
    for source in inputs:
        if same_file(path, source):
            raise ReportError(path, "is also an input (%s): refusing to overwrite it; choose another output"
                              % source)


def write_output(path, text, inputs=()):
    """Replaces path atomically (a temporary file in the same directory, then a rename), so a failed write never
    leaves a truncated file or destroys an earlier one. Only regular files are written (check_output). text: str
    or bytes."""
    check_output(path, inputs)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        target = os.path.realpath(path)
        mode = os.stat(target).st_mode & 0o7777 if os.path.exists(target) else None
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target) or ".", prefix="." + os.path.basename(target) + ".tmp.")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fchmod(f.fileno(), mode)
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as e:
        raise ReportError(path, "cannot write: %s" % (e.strerror or e))
