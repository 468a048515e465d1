"""Tests of scripts/assets/case_index.py: the byte ranges hold the entries they name, whatever the JSON layout, and a
manifest that cannot be indexed is refused."""

import binascii
import json
import unittest

from assets import case_index

SHA = "0" * 64
CASES = [{"name": "subgroups.b", "family": "f", "tier": "core", "tags": ["quick", "regression"]},
         {"name": "subgroups.a", "family": "f", "module": "m.spv", "kernel": "k", "module_hash": "crc32:00000000",
          "params": {"s": "caf\u00e9 {\"x\"}"}, "tier": "device_specific"}]
MODULES = {"m.spv": {"kernels": {"k": [["out", "global_buffer"]]}}}


def parse(text):
    lines = text.split("\n")
    return lines, {l.split("\t")[0]: l.split("\t") for l in lines if l.count("\t") == 6}


class CaseIndex(unittest.TestCase):
    def test_ranges_hold_their_entries_in_any_layout(self):
        for indent in (None, 1, 4):
            manifest = json.dumps({"version": 4, "modules": MODULES, "cases": CASES}, indent=indent).encode()
            text = case_index.index_text(manifest, SHA)
            lines, cases = parse(text)
            self.assertEqual(lines[0], "spirv_intel_cts case index 2")
            self.assertEqual(lines[1], "manifest %d %s" % (len(manifest), SHA))
            self.assertEqual(list(cases), ["subgroups.a", "subgroups.b"])  # sorted by name
            self.assertEqual(cases["subgroups.b"][1:3], ["core", "quick,regression"])
            # The module as its number in the module list (m.spv is the only one), "-" for none; the family.
            self.assertEqual(cases["subgroups.a"][5:], ["0", "f"])
            self.assertEqual(cases["subgroups.b"][5:], ["-", "f"])
            for name, (_, _, _, offset, length, _, _) in cases.items():
                entry = json.loads(manifest[int(offset):int(offset) + int(length)])
                self.assertEqual(entry["name"], name)
            module = [l for l in lines if l.startswith("m.spv\t")][0].split("\t")
            member = json.loads(b"{" + manifest[int(module[1]):int(module[1]) + int(module[2])] + b"}")
            self.assertEqual(member, MODULES)
            body, end = text[:text.rindex("end ")], text[text.rindex("end "):]
            self.assertEqual(end, "end crc32:%08x\n" % (binascii.crc32(body.encode()) & 0xFFFFFFFF))

    def test_module_numbers_follow_the_sorted_module_list(self):
        modules = {"z.spv": MODULES["m.spv"], "a.spv": MODULES["m.spv"]}
        cases = [{"name": "g.z", "family": "g", "module": "z.spv", "tier": "core"},
                 {"name": "g.a", "family": "g", "module": "a.spv", "tier": "core"},
                 {"name": "g.gone", "family": "g", "module": "gone.spv", "tier": "core"},
                 {"name": "g.odd", "family": 7, "module": ["x"], "tier": "core"}]
        text = case_index.index_text(json.dumps({"version": 4, "modules": modules, "cases": cases}).encode(), SHA)
        lines, by_name = parse(text)
        listed = lines[lines.index("modules 2") + 1:lines.index("modules 2") + 3]
        self.assertEqual([l.split("\t")[0] for l in listed], ["a.spv", "z.spv"])
        self.assertEqual(by_name["g.a"][5:], ["0", "g"])
        self.assertEqual(by_name["g.z"][5:], ["1", "g"])
        # What the index cannot name is "-": the entry's own load reports it when the case runs.
        self.assertEqual(by_name["g.gone"][5:], ["-", "g"])
        self.assertEqual(by_name["g.odd"][5:], ["-", "-"])

    def test_refuses_what_it_cannot_index(self):
        for cases, words in (([{"family": "f", "tier": "core"}], "no usable \"name\""),
                             ([CASES[0], CASES[0]], "duplicate case name 'subgroups.b'"),
                             ([{"name": "a.b", "tier": "maybe"}], "no tier"),
                             ([{"name": "a.b", "tier": "core", "tags": ["x,y"]}], "malformed tag")):
            manifest = json.dumps({"version": 4, "modules": {}, "cases": cases}).encode()
            with self.assertRaises(case_index.IndexError_) as e:
                case_index.index_text(manifest, SHA)
            self.assertIn(words, str(e.exception))
        with self.assertRaises(case_index.IndexError_):
            case_index.index_text(b"{ not json", SHA)


if __name__ == "__main__":
    unittest.main()
