#!/usr/bin/env python3
"""Every normative sentence of the four SPIR-V specs and of the OpenCL environment text has a coverage row.

The families are those of test_conformance/<group>/family.json with a spirv_extension; their spec text is
../shared/specs/<spirv_extension>.txt and their page the descriptor's docs. Extraction rule (also in
docs/architecture.md, "Coverage audit"):
- Spec text: from the "Modifications to the SPIR-V Specification" heading to "Issues", without the
  "Examples" sections (informative). Each line is a paragraph; a line ending in ':' that is itself
  normative ("Behavior is undefined unless:") is prefixed to each bullet under it.
- Environment text (../shared/docs/opencl_environment.md): prose and bullets, not tables, of the sections
  whose heading names a family's SPIR-V extension (that family's) and of SHARED_SECTION (each sentence
  goes to the families it names by extension, group words or initials such as MMA; to all if none).
- Paragraphs are split into sentences at '. ' before a capital letter, '(' or a backquote; in the
  environment text a piece shorter than SHORTEST characters joins the sentence before it. A sentence is
  normative when it matches NORMATIVE: must, must not, shall, requires, only, undefined, is/are ignored,
  is/are zero, the value zero, and the words that state a defined result (out-of-range, dropped, "the
  result of this", "value read/written", "is/are assigned/read/written", returned, padded, will equal,
  "will (not) be assigned/written/dropped", implementation-defined/-dependent), and the words of operand
  and layout definitions (specify/specifies, contributes, passed, packed, combined, transposed,
  transformed, reorganized, strided, row-by-row, byte coordinate, loaded/stored in row-major order).
- The id is <group or env>-<first 8 hex digits of sha1 of the normalized sentence> (lower case, whitespace
  collapsed, typographic quotes folded). A sentence repeated word for word in one source (the five 2D
  instructions share most operand text) has one id.

Checks, per family page (the table under "## Coverage: spec rule -> cases"):
- every id of the family's sentences appears in some row (a missing row is an error);
- every id a row names is a current sentence of the family (a stale id is an error);
- every row naming an id has a Tier (core and/or device_specific) and a non-empty "Checked by" cell;
- every backquoted name in "Checked by" exists: a path (has '/') in the repository; `rule:`, `gtest:`,
  `fault:` names among the checker rules (test_common/spirv), GoogleTest names and planted faults;
  `case:` and bare names a case pattern ('*', '?', '{a,b}') matching whole dotted levels of some case of
  the manifest (plus `--runner`'s --list); a bare name may also be a rule, test or fault name.
  Backquoted code and options (spaces, brackets, '=', a leading '-') are not checked.
Inputs default to the source tree's build: --manifest build/assets/manifest.json, --runner
build/bin/spirv_intel_cts (a missing default runner is exit 2, not findings: without its --list the api.*
cases look missing; --no-runner audits against the manifest alone). Every file read must be a regular file
of at most 1 GiB (report_io; /dev/zero or a FIFO is bad input).
Exit status: 0 all good, 1 audit findings (one line each on stderr), 2 bad input.
"""
import argparse
import hashlib
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from reports import report_io  # noqa: E402  (checked, size-capped reads of regular files)

DEFAULT_RUNNER = ROOT / "build" / "bin" / "spirv_intel_cts"
ENV_PREFIX = "env"
# The environment section that speaks of several families; other sections belong to the family whose SPIR-V
# extension their heading names, or to none (tokens, test design notes, bug reports).
SHARED_SECTION = "Which device reports what (Intel's runtime today)"
NORMATIVE = re.compile(
    r"\b(must|shall|requires?|only|undefined|(is|are) ignored|(is|are) zero|value zero|out-of-range|dropped"
    r"|result of this|value (read|written)|(is|are) (assigned|read|written)|returned|padded|will equal"
    r"|will (not )?be (assigned|written|dropped)|implementation-(defined|dependent)"
    r"|specif(y|ies)|contribut\w*|passed|packed|combined|transposed|transformed|reorganiz\w*|strided"
    r"|row-by-row|byte coordinate|(loaded|stored) in row-major order)\b", re.I)
SPEC_START = "Modifications to the SPIR-V Specification"
SPEC_HEADINGS = {"Out-of-Bounds Behavior", "Restrictions", "Issues", "Validation Rules", "Examples",
                 "Mapping Block Data to Invocations", "Mapping Matrix Data to Invocations", "Diagram"}
COVERAGE_HEADING = "## Coverage: spec rule -> cases"
ID_RE = re.compile(r"(?<![\w-])[0-9a-z_]+-[0-9a-f]{8}\b")
SPLIT = re.compile(r"(?<=[.])\s+(?=[A-Z(`])")
SHORTEST = 30  # in the terse environment notes a shorter piece ("Else undefined value.") ends the one before
# Backquoted tokens in "Checked by" that are neither names nor paths (code, requirements, prose): not checked.
NOT_A_NAME = re.compile(r"[\s()=<>'\"\[\]+|^%]|^-")
NAME_PREFIX = re.compile(r"^(rule|gtest|fault|case):")
TIERS = {"core", "device_specific"}


class BadInput(Exception):
    pass


def read_text(path, what):
    """A regular file of at most report_io.MAX_INPUT_BYTES as text: /dev/zero or a FIFO is one line, exit 2."""
    try:
        return report_io.read_text(str(path), what)
    except report_io.ReportError as e:
        raise BadInput(str(e))


def load_families(root=ROOT):
    """{group: descriptor} of the families with a SPIR-V extension (test_conformance/<group>/family.json)."""
    from assets import families
    try:
        return {d["group"]: d for d in families.descriptors(str(root)) if d.get("spirv_extension")}
    except families.FamilyError as e:
        raise BadInput(str(e))


def mentions(descriptor):
    """What names a family in the shared section: its extensions, its group in words, their initials (MMA)."""
    words = descriptor["group"].split("_")
    names = [descriptor["spirv_extension"], descriptor.get("opencl_extension", ""), " ".join(words)]
    if len(words) >= 3:
        names.append("".join(w[0] for w in words))
    return re.compile(r"(?<![\w-])(%s)(?![\w-])" % "|".join(re.escape(n) for n in names if n), re.I)


def normalize(text):
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip().lower()


def sentence_id(prefix, sentence):
    return "%s-%s" % (prefix, hashlib.sha1(normalize(sentence).encode()).hexdigest()[:8])


def split_sentences(paragraph, join_short=False):
    out = []
    for piece in (s.strip(" |") for s in SPLIT.split(paragraph)):
        if out and join_short and len(piece) < SHORTEST:
            out[-1] += " " + piece
        elif piece:
            out.append(piece)
    return out


def spec_paragraphs(text):
    """Normative-region paragraphs of a spec text, bullets under a normative 'X:' line prefixed with it."""
    started, skipping, lead = False, False, None
    for raw in text.splitlines():
        line = raw.strip().strip("|").strip()
        if not started:
            started = line.startswith(SPEC_START)
            continue
        if line in SPEC_HEADINGS:
            if line == "Issues":
                return
            skipping, lead = line == "Examples", None
            continue
        if skipping or not line:
            continue
        bullet = re.match(r"^(?:\u2022|-|\d+\.)\s*(.*)$", line)
        indent = len(raw) - len(raw.lstrip())
        text = bullet.group(1) if bullet else line
        if lead and bullet and indent > lead[1]:
            yield lead[0] + " " + text
            lead = lead[:2] + (True,)
            continue
        if lead and not lead[2]:
            yield lead[0]
        lead = (text, indent, False) if text.endswith(":") and NORMATIVE.search(text) else None
        if lead is None:
            yield text


def env_paragraphs(text):
    """(section, paragraph) of every section: prose and bullets, no tables."""
    section, para = None, []
    for line in text.splitlines() + ["## end"]:
        starts = line.startswith(("## ", "- ", "|")) or not line.strip()
        if starts and para:
            yield section, " ".join(para)
            para = []
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        if section is None or line.startswith("|") or not line.strip():
            continue
        para.append(line.strip()[2:] if line.startswith("- ") else line.strip())


def extract(specs_dir, env_path, families):
    """{group: {id: sentence}} for every normative sentence; families: {group: descriptor}."""
    out = {group: {} for group in families}
    for group, d in families.items():
        path = Path(specs_dir) / (d["spirv_extension"] + ".txt")
        if not path.exists():
            raise BadInput("spec text not found: %s" % path)
        for para in spec_paragraphs(read_text(path, "spec text file")):
            for s in split_sentences(para):
                if NORMATIVE.search(s):
                    out[group].setdefault(sentence_id(group, s), s)
    if not Path(env_path).exists():
        raise BadInput("environment text not found: %s" % env_path)
    named = {group: mentions(d) for group, d in families.items()}
    for section, para in env_paragraphs(read_text(env_path, "text file")):
        if section == SHARED_SECTION:
            owners = None
        else:
            owners = [g for g, d in families.items() if re.search(r"\b%s\b" % d["spirv_extension"], section)]
            if not owners:
                continue
        for s in split_sentences(para, join_short=True):
            if NORMATIVE.search(s):
                for group in owners or [g for g, rx in named.items() if rx.search(s)] or list(families):
                    out[group].setdefault(sentence_id(ENV_PREFIX, s), s)
    return out


def split_row(line):
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())]
    return cells[1:-1] if len(cells) >= 2 else cells


def coverage_rows(page_text, page_name):
    """[(line number, {column: cell})] of the coverage table; the header names the columns."""
    lines = page_text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == COVERAGE_HEADING)
    except StopIteration:
        raise BadInput("%s: no '%s' section" % (page_name, COVERAGE_HEADING))
    table = [(i, l) for i, l in enumerate(lines[start + 1:], start + 2) if l.startswith("|")]
    first = next((n for n, (i, _) in enumerate(table) if n and i != table[n - 1][0] + 1), len(table))
    table = table[:first]
    if len(table) < 2:
        raise BadInput("%s: the coverage table has no rows" % page_name)
    header = [h.lower() for h in split_row(table[0][1])]
    rows = []
    for number, line in table[2:]:
        cells = split_row(line)
        rows.append((number, {header[k] if k < len(header) else str(k): c for k, c in enumerate(cells)}))
    return header, rows


def brace_expand(pattern):
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    return [x for alt in m.group(1).split(",")
            for x in brace_expand(pattern[:m.start()] + alt + pattern[m.end():])]


def pattern_matches(pattern, names):
    """A case pattern matches a case when it matches a run of whole dotted levels of its name ('*' and '?'
    within a line). names: the case names joined by newlines. The regex starts with the pattern's literal
    text, so the search runs at memchr speed; the level boundary before it is checked by hand."""
    open_start, open_end = pattern.startswith("*"), pattern.endswith("*")
    core = pattern.strip("*")
    if not core:
        return bool(names)
    body = "".join("[^\n]*" if ch == "*" else "[^\n]" if ch == "?" else re.escape(ch) for ch in core)
    rx = re.compile(body if open_end else body + r"(?=[.\n]|\Z)")
    return any(open_start or m.start() == 0 or names[m.start() - 1] in ".\n" for m in rx.finditer(names))


def checked_names(cell):
    return [t for t in re.findall(r"`([^`]+)`", cell) if not NOT_A_NAME.search(t)]


def known_symbols(root):
    """Checker rule names (test_common/spirv), GoogleTest names and planted-fault names the rows may cite."""
    symbols = set()
    for path in (root / "test_common" / "spirv").rglob("*.cpp"):
        for name in re.findall(r'"([a-z0-9_]+(?:\.[a-z0-9_]+)*)"', path.read_text(encoding="utf-8")):
            parts = name.split(".")
            symbols.update(".".join(parts[k:]) for k in range(len(parts)))
    for folder in ("test_common", "reference_device", "test_conformance"):
        for path in (root / folder).rglob("*_test.cpp"):
            for suite, name in re.findall(r"\bTEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)", path.read_text(encoding="utf-8")):
                symbols.update((name, "%s.%s" % (suite, name)))
    for path in (root / "reference_device").rglob("*faults*.cpp"):
        symbols.update(re.findall(r'"([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    return symbols


def name_exists(token, names, symbols, root, seen):
    """A path exists, a prefixed name is known, a bare token is a case pattern, rule, test or fault."""
    if token not in seen:
        if "/" in token:
            ok = all((root / alt).exists() for alt in brace_expand(token))
        else:
            prefix = NAME_PREFIX.match(token)
            bare = (token[prefix.end():] if prefix else token).strip(".")  # `.c2.`: a level
            kind = prefix.group(1) if prefix else None
            is_case = all(pattern_matches(alt, names) for alt in brace_expand(bare))
            ok = is_case if kind == "case" else bare in symbols if kind else (is_case or bare in symbols)
        seen[token] = ok
    return seen[token]


def audit(sentences, pages, case_names, symbols=frozenset(), root=ROOT):
    """Findings (strings) for pages {page name: (family, page text)}."""
    findings = []
    names = "\n".join(case_names)
    seen = {}
    for page, (family, text) in pages.items():
        header, rows = coverage_rows(text, page)
        checked_col = next((h for h in header if h.startswith("checked by")), None)
        tier_col = "tier" if "tier" in header else None
        if checked_col is None or tier_col is None:
            raise BadInput("%s: the coverage table needs 'Checked by' and 'Tier' columns" % page)
        named = set()
        for number, row in rows:
            ids = set(ID_RE.findall(" ".join(row.values())))
            for rid in sorted(ids - set(sentences[family])):
                findings.append("%s:%d: stale rule id %s: no normative sentence has it" % (page, number, rid))
            named |= ids
            checked = row.get(checked_col, "")
            if ids and not checked.strip():
                findings.append("%s:%d: row for %s says nothing in 'Checked by'" % (page, number, sorted(ids)[0]))
            tiers = set(re.split(r"[\s,/]+", row.get(tier_col, "").strip("` "))) - {""}
            if ids and (not tiers or tiers - TIERS):
                findings.append("%s:%d: Tier must be core and/or device_specific, not '%s'"
                                % (page, number, row.get(tier_col, "")))
            for token in checked_names(checked):
                if not name_exists(token, names, symbols, root, seen):
                    findings.append("%s:%d: `%s` matches no case, checker rule, test, fault or path"
                                    % (page, number, token))
        for rid, sentence in sentences[family].items():
            if rid not in named:
                findings.append("%s: no coverage row for %s: \"%s\"" % (page, rid, sentence))
    return findings


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--specs", default=str(ROOT.parent / "shared" / "specs"), help="the SPIR-V spec texts")
    p.add_argument("--env", default=str(ROOT.parent / "shared" / "docs" / "opencl_environment.md"),
                   help="the OpenCL environment text")
    p.add_argument("--docs", default=str(ROOT / "docs"), help="the folder of the family pages")
    p.add_argument("--manifest", default=str(ROOT / "build" / "assets" / "manifest.json"),
                   help="build/assets/manifest.json (the case list)")
    p.add_argument("--runner", help="spirv_intel_cts: its --list adds the cases the manifest lacks (api.*); "
                   "default: build/bin/spirv_intel_cts, which must exist unless --no-runner")
    p.add_argument("--no-runner", action="store_true", help="audit against the manifest's cases alone")
    p.add_argument("--family", action="append", help="audit only this family (repeatable)")
    p.add_argument("--list", action="store_true", help="print id, family and sentence of every normative sentence")
    args = p.parse_args(argv)
    try:
        descriptors = load_families()
        unknown = sorted(set(args.family or []) - set(descriptors))
        if unknown:
            raise BadInput("no family %s (families: %s)" % (unknown[0], ", ".join(sorted(descriptors))))
        sentences = extract(args.specs, args.env, descriptors)
        families = args.family or sorted(descriptors)
        if args.list:
            for family in families:
                for rid, s in sentences[family].items():
                    print("%s\t%s\t%s" % (rid, family, s))
            return 0
        try:
            manifest = report_io.load_json(args.manifest, "manifest")
            case_names = [c["name"] for c in manifest["cases"]]
        except report_io.ReportError as e:
            raise BadInput("cannot read the case list: %s" % e)
        except (KeyError, TypeError) as e:
            raise BadInput("cannot read the case list from %s: no \"cases\" list of named cases (%s)"
                           % (args.manifest, e))
        if args.no_runner:
            pass
        elif args.runner is None and not DEFAULT_RUNNER.exists():
            raise BadInput("no runner at %s: its --list adds the cases the manifest lacks (api.*), without which "
                           "rows naming them are false findings; build it, give --runner, or --no-runner"
                           % DEFAULT_RUNNER)
        else:
            args.runner = args.runner or str(DEFAULT_RUNNER)
            try:
                listed = subprocess.run([args.runner, "--list"], capture_output=True, text=True, timeout=60)
            except (OSError, subprocess.SubprocessError) as e:
                raise BadInput("cannot run %s --list: %s" % (args.runner, e))
            if listed.returncode != 0:
                raise BadInput("%s --list exited with %d" % (args.runner, listed.returncode))
            case_names += [line.split()[0] for line in listed.stdout.splitlines() if line.strip()]
        pages = {}
        for family in families:
            path = Path(args.docs) / Path(descriptors[family]["docs"]).name
            if not path.exists():
                raise BadInput("family page not found: %s" % path)
            pages[descriptors[family]["docs"]] = (family, read_text(path, "family page"))
        findings = audit({f: sentences[f] for f in families}, pages, case_names, known_symbols(ROOT))
    except BadInput as e:
        print("coverage_audit: %s" % report_io.printable(e), file=sys.stderr)
        return 2
    for f in findings:
        print("coverage_audit: %s" % report_io.printable(f), file=sys.stderr)
    total = sum(len(sentences[f]) for f in families)
    print("coverage_audit: %d normative sentences in %d families, %d findings"
          % (total, len(families), len(findings)))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
