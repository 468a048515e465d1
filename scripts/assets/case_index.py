"""The case index beside manifest.json (docs/assets.md, "The case index"; Python standard library only).

manifest.index lists every case's name, tier and tags with the byte range of its object in manifest.json,
its module (a number in the index's module list) and family, and every module of the module table with the
byte range of its `"<path>": {...}` member, so the runner selects on the index, plans a --jobs run's batches
from it and parses only the entries it selected (a --jobs run: only in the workers). Written by
scripts/assets/build_assets.py.
"""

import binascii
import json

VERSION = 2
_DECODER = json.JSONDecoder()
_WS = " \t\r\n"


class IndexError_(Exception):
    pass


def _skip(text, i):
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _members(text, i):
    """Yields (key, key_start, value_start, value_end) of the JSON object starting at text[i] == '{'."""
    if text[i] != "{":
        raise IndexError_("expected an object at byte %d" % i)
    i = _skip(text, i + 1)
    if text[i] == "}":
        return
    while True:
        key, after_key = _DECODER.raw_decode(text, i)
        j = _skip(text, after_key)
        if text[j] != ":":
            raise IndexError_("expected ':' at byte %d" % j)
        start = _skip(text, j + 1)
        _, end = _DECODER.raw_decode(text, start)
        yield key, i, start, end
        i = _skip(text, end)
        if text[i] == "}":
            return
        if text[i] != ",":
            raise IndexError_("expected ',' or '}' at byte %d" % i)
        i = _skip(text, i + 1)


def _elements(text, i):
    """Yields (start, end) of each value of the JSON array starting at text[i] == '['."""
    if text[i] != "[":
        raise IndexError_("expected an array at byte %d" % i)
    i = _skip(text, i + 1)
    if text[i] == "]":
        return
    while True:
        _, end = _DECODER.raw_decode(text, i)
        yield i, end
        i = _skip(text, end)
        if text[i] == "]":
            return
        if text[i] != ",":
            raise IndexError_("expected ',' or ']' at byte %d" % i)
        i = _skip(text, i + 1)


def _plain(value):
    """A module or family value the index can hold: a non-empty string without tabs or line ends."""
    return isinstance(value, str) and value != "" and value != "-" and not any(ch in value for ch in "\t\r\n")


def index_text(manifest, sha256):
    """The index of manifest.json's bytes `manifest` whose sha256 (64 hex digits) is `sha256`. Raises
    IndexError_ on a manifest it cannot index (not JSON, no cases or modules, an unnamed or repeated case)."""
    # latin-1 maps each byte to one character, so string positions are byte offsets.
    text = manifest.decode("latin-1")
    try:
        top = _skip(text, 0)
        modules, cases = [], []
        for key, _, start, end in _members(text, top):
            if key == "modules":
                for path, key_start, _, value_end in _members(text, start):
                    modules.append((path, key_start, value_end - key_start))
            elif key == "cases":
                for c_start, c_end in _elements(text, start):
                    entry = json.loads(text[c_start:c_end])
                    name = entry.get("name") if isinstance(entry, dict) else None
                    if not isinstance(name, str) or not name or any(ch in name for ch in "\t\n,"):
                        raise IndexError_("case at byte %d has no usable \"name\"" % c_start)
                    tags = entry.get("tags") or []
                    if any(not isinstance(t, str) or any(ch in t for ch in "\t\n,") for t in tags):
                        raise IndexError_("case %s has a malformed tag" % name)
                    tier = entry.get("tier")
                    if tier not in ("core", "device_specific"):
                        raise IndexError_("case %s has no tier core or device_specific" % name)
                    # A malformed module or family is the entry's load error at run time (the runner reports
                    # it as the case's InternalError); here it is only "-", no group to plan by.
                    module, family = entry.get("module"), entry.get("family")
                    cases.append((name, tier, ",".join(tags), c_start, c_end - c_start, module, family))
    except (ValueError, IndexError) as e:
        raise IndexError_("manifest is not JSON as expected: %s" % e)
    cases.sort()
    for a, b in zip(cases, cases[1:]):
        if a[0] == b[0]:
            raise IndexError_("duplicate case name '%s'" % a[0])
    modules.sort()
    # Each case's module as its number in the module list below (sorted by path), "-" for none.
    module_number = {m[0]: i for i, m in enumerate(modules)}
    for n, c in enumerate(cases):
        family = c[6] if _plain(c[6]) else "-"
        cases[n] = c[:5] + (module_number.get(c[5], "-") if _plain(c[5]) else "-", family)
    lines = ["spirv_intel_cts case index %d" % VERSION, "manifest %d %s" % (len(manifest), sha256),
             "modules %d" % len(modules)]
    lines += ["%s\t%d\t%d" % m for m in modules]
    lines.append("cases %d" % len(cases))
    lines += ["%s\t%s\t%s\t%d\t%d\t%s\t%s" % c for c in cases]
    body = "\n".join(lines) + "\n"
    return body + "end crc32:%08x\n" % (binascii.crc32(body.encode("utf-8")) & 0xFFFFFFFF)
