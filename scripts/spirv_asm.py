#!/usr/bin/env python3
"""Grammar-driven SPIR-V assembler for the spirv-as text syntax (fallback for opcodes newer than SPIRV-Tools).

Debian 12's SPIRV-Tools 2023.1 cannot assemble the 2025 Intel opcodes (6228-6237). This assembler reads
the installed spirv.core.grammar.json plus scripts/grammar_supplement.json (only the missing tokens) and
writes the same bytes spirv-as writes for every module spirv-as can assemble:

  * ids are numbered in order of first appearance in the text (the result id of an instruction counts at
    the position of IdResult in the grammar's operand list, i.e. after IdResultType);
  * the header bound is the next unused id; generator word 0x00070000 (Khronos SPIRV-Tools assembler);
  * OpConstant/OpSpecConstant literals take their width from the result type (8/16-bit integers are
    sign- or zero-extended to 32 bits, 64-bit values take two words, 16-bit floats are truncated toward zero
    from the float value as spirv-as does); OpSwitch case literals take the selector's width.

Usage: spirv_asm.py input.spvasm -o output.spv [--target-env spv1.N] [--core-grammar F]
                    [--opencl-grammar F] [--supplement F]
"""

import argparse
import json
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_io  # noqa: E402  (same directory: checked inputs, safe outputs)

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SUPPLEMENT = os.path.join(SCRIPT_DIR, "grammar_supplement.json")
SYSTEM_GRAMMAR_DIRS = ["/usr/include/spirv/unified1", "/usr/share/spirv/unified1",
                       "/usr/local/include/spirv/unified1"]
MAGIC = 0x07230203
GENERATOR = 0x00070000  # what SPIRV-Tools' assembler writes (vendor 7 = Khronos SPIRV-Tools, version 0)

ID_KINDS = {"IdResultType", "IdResult", "IdRef", "IdScope", "IdMemorySemantics"}


class AsmError(Exception):
    """An assembly error with a source position."""

    def __init__(self, message, line=0, col=0):
        super().__init__("%d:%d: %s" % (line, col, message) if line else message)
        self.line = line
        self.col = col


def find_system_grammar(name):
    for d in SYSTEM_GRAMMAR_DIRS:
        path = os.path.join(d, name)
        if os.path.exists(path):
            return path
    raise AsmError("%s not found in %s (apt-get install spirv-headers)" % (name, ", ".join(SYSTEM_GRAMMAR_DIRS)))


def _value(v):
    return int(v, 0) if isinstance(v, str) else int(v)


class Grammar:
    """Opcode and operand-kind tables from a core grammar, an optional supplement and the OpenCL.std set."""

    def __init__(self, core_path=None, opencl_path=None, supplement_path=DEFAULT_SUPPLEMENT):
        core_path = core_path or find_system_grammar("spirv.core.grammar.json")
        opencl_path = opencl_path or find_system_grammar("extinst.opencl.std.100.grammar.json")
        self.opcodes = {}   # opname -> (opcode, [(kind, quantifier)])
        self.kinds = {}     # kind -> {"category": str, "enumerants": {name: (value, [param kinds])}, "bases"}
        self.supplement_names = set()  # opnames and "Kind.Enumerant" that came from the supplement
        self._merge(self._load(core_path), from_supplement=False)
        if supplement_path:
            self._merge(self._load(supplement_path), from_supplement=True)
        opencl = self._load(opencl_path)
        self.ext_sets = {"OpenCL.std": {i["opname"]: (i["opcode"], self._operands(i)) for i in
                                        opencl["instructions"]}}

    @staticmethod
    def _load(path):
        try:
            return report_io.load_json(path, "SPIR-V grammar")
        except report_io.ReportError as e:
            raise AsmError("cannot read grammar: %s" % e)

    @staticmethod
    def _operands(inst):
        return [(o["kind"], o.get("quantifier", "")) for o in inst.get("operands", [])]

    def _merge(self, grammar, from_supplement):
        for inst in grammar.get("instructions", []):
            name = inst["opname"]
            if from_supplement and name in self.opcodes:
                continue  # the system grammar already knows it (newer spirv-headers)
            self.opcodes[name] = (inst["opcode"], self._operands(inst))
            if from_supplement:
                self.supplement_names.add(name)
        for kind in grammar.get("operand_kinds", []):
            entry = self.kinds.setdefault(kind["kind"], {"category": kind.get("category", ""),
                                                         "enumerants": {}, "bases": kind.get("bases", [])})
            for e in kind.get("enumerants", []):
                name = e["enumerant"]
                if from_supplement and name in entry["enumerants"]:
                    continue
                params = [p["kind"] for p in e.get("parameters", [])]
                entry["enumerants"][name] = (_value(e["value"]), params)
                for alias in e.get("aliases", []):
                    entry["enumerants"].setdefault(alias, (_value(e["value"]), params))
                if from_supplement:
                    self.supplement_names.add(kind["kind"] + "." + name)


# ----------------------------------------------------------------------------------------------------------
# Tokenizer: words separated by white space, "strings" with backslash escapes, ';' comments to end of line.

_TOKEN_RE = re.compile(r'\s+|;[^\n]*|"(?:[^"\\]|\\.)*"|[^\s";]+', re.S)


class Token:
    __slots__ = ("text", "line", "col", "is_string")

    def __init__(self, text, line, col, is_string):
        self.text, self.line, self.col, self.is_string = text, line, col, is_string


def tokenize(text):
    tokens = []
    line, line_start = 1, 0
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m:
            raise AsmError("unterminated string", line, pos - line_start + 1)
        s = m.group(0)
        if s.startswith('"'):
            body = re.sub(r"\\(.)", r"\1", s[1:-1], flags=re.S)
            tokens.append(Token(body, line, pos - line_start + 1, True))
        elif not s[0].isspace() and s[0] != ";":
            # "%a=OpX" is not spirv-as syntax either; only a standalone "=" separates.
            tokens.append(Token(s, line, pos - line_start + 1, False))
        nl = s.count("\n")
        if nl:
            line += nl
            line_start = pos + s.rfind("\n") + 1
        pos = m.end()
    return tokens


# ----------------------------------------------------------------------------------------------------------
# Literals

_INT_RE = re.compile(r"^-?(0[xX][0-9a-fA-F]+|[0-9]+)$")


def parse_int(tok):
    """Returns (value, is_hex) or raises."""
    t = tok.text
    if tok.is_string or not _INT_RE.match(t):
        raise AsmError("invalid integer literal: %s" % t, tok.line, tok.col)
    neg = t.startswith("-")
    body = t[1:] if neg else t
    is_hex = body[:2].lower() == "0x"
    v = int(body, 16) if is_hex else int(body, 10)
    return (-v if neg else v), is_hex


def encode_int(tok, width, signed):
    """Encodes an integer literal of a given type into 1 or 2 words as spirv-as does."""
    value, is_hex = parse_int(tok)
    if width > 64 or width == 0:
        raise AsmError("unsupported integer width %d" % width, tok.line, tok.col)
    if value < 0:
        if not signed:
            raise AsmError("Cannot put a negative number in an unsigned literal", tok.line, tok.col)
        if value < -(1 << (width - 1)):
            raise AsmError("Integer %s does not fit in a %d-bit signed integer" % (tok.text, width),
                           tok.line, tok.col)
        bits = value & ((1 << width) - 1)
    else:
        limit = (1 << width) if (is_hex or not signed) else (1 << (width - 1))
        if value >= limit:
            raise AsmError("Integer %s does not fit in a %d-bit %s integer" %
                           (tok.text, width, "signed" if signed else "unsigned"), tok.line, tok.col)
        bits = value
    if width < 32 and signed and bits & (1 << (width - 1)):
        bits |= ((1 << 32) - 1) & ~((1 << width) - 1)  # sign-extend to 32 bits
    if width <= 32:
        return [bits & 0xFFFFFFFF]
    return [bits & 0xFFFFFFFF, (bits >> 32) & 0xFFFFFFFF]


_FLOAT_RE = re.compile(r"^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|"
                       r"0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*([pP][-+]?\d+)?)$")


def parse_float(tok):
    t = tok.text
    if tok.is_string or not _FLOAT_RE.match(t):
        raise AsmError("invalid floating-point literal: %s" % t, tok.line, tok.col)
    try:
        if "x" in t.lower():
            return float.fromhex(t)
        return float(t)
    except (ValueError, OverflowError):
        raise AsmError("invalid floating-point literal: %s" % t, tok.line, tok.col)


def _float32_bits(value, tok):
    try:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    except OverflowError:
        raise AsmError("Invalid 32-bit float literal: %s" % tok.text, tok.line, tok.col)


def _half_bits_toward_zero(f32_bits):
    """float32 bit pattern -> float16 bit pattern, rounding toward zero (spirv-as' conversion)."""
    sign = (f32_bits >> 16) & 0x8000
    exp = (f32_bits >> 23) & 0xFF
    mant = f32_bits & 0x7FFFFF
    if exp == 0xFF:
        return sign | 0x7C00 | (0x200 if mant else 0)
    e = exp - 127 + 15
    if e >= 0x1F:
        return None  # overflow
    if e <= 0:
        if e < -10:
            return sign
        mant |= 0x800000
        return sign | (mant >> (14 - e))
    return sign | (e << 10) | (mant >> 13)


def encode_float(tok, width):
    value = parse_float(tok)
    if width == 32:
        return [_float32_bits(value, tok)]
    if width == 64:
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        return [bits & 0xFFFFFFFF, bits >> 32]
    if width == 16:
        half = _half_bits_toward_zero(_float32_bits(value, tok))
        if half is None or (half & 0x7C00) == 0x7C00:
            raise AsmError("Invalid 16-bit float literal: %s" % tok.text, tok.line, tok.col)
        return [half]
    raise AsmError("unsupported float width %d" % width, tok.line, tok.col)


def encode_string(s):
    data = s.encode("utf-8") + b"\0"
    data += b"\0" * (-len(data) % 4)
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


# ----------------------------------------------------------------------------------------------------------
# Assembler

class Assembler:
    def __init__(self, grammar):
        self.g = grammar
        self.ids = {}          # name -> id, in order of first appearance
        self.types = {}        # type id -> ("int", width, signed) | ("float", width)
        self.value_types = {}  # value id -> type id
        self.ext_imports = {}  # id -> ext set name
        self.used_supplement = False

    def id_of(self, tok):
        if tok.is_string or not tok.text.startswith("%") or len(tok.text) < 2:
            raise AsmError("expected an id (%%name), got %s" % tok.text, tok.line, tok.col)
        name = tok.text[1:]
        if name not in self.ids:
            self.ids[name] = len(self.ids) + 1
        return self.ids[name]

    def assemble(self, text, version=(1, 6)):
        self.tokens = tokenize(text)
        self.pos = 0
        body = []
        while self.pos < len(self.tokens):
            body.extend(self.instruction())
        header = [MAGIC, (version[0] << 16) | (version[1] << 8), GENERATOR, len(self.ids) + 1, 0]
        return header + body

    # -- token stream helpers
    def peek(self, k=0):
        i = self.pos + k
        return self.tokens[i] if i < len(self.tokens) else None

    def take(self, what):
        tok = self.peek()
        if tok is None:
            last = self.tokens[-1] if self.tokens else Token("", 0, 0, False)
            raise AsmError("expected %s, reached end of input" % what, last.line, last.col)
        self.pos += 1
        return tok

    def at_instruction_end(self):
        tok = self.peek()
        if tok is None:
            return True
        if tok.is_string:
            return False
        if len(tok.text) >= 3 and tok.text.startswith("Op") and "A" <= tok.text[2] <= "Z":
            return True  # spirv-as' test: "Op" followed by a capital ("OpenCL" is an operand)
        nxt = self.peek(1)
        return tok.text.startswith("%") and nxt is not None and not nxt.is_string and nxt.text == "="

    # -- instructions
    def instruction(self):
        first = self.take("an instruction")
        result_tok = None
        if not first.is_string and first.text.startswith("%"):
            result_tok = first
            eq = self.take("'='")
            if eq.is_string or eq.text != "=":
                raise AsmError("expected '=' after %s" % first.text, eq.line, eq.col)
            op_tok = self.take("an opcode name")
        else:
            op_tok = first
        if op_tok.is_string or op_tok.text not in self.g.opcodes:
            raise AsmError("Invalid Opcode name '%s'" % op_tok.text, op_tok.line, op_tok.col)
        opname = op_tok.text
        if opname in self.g.supplement_names:
            self.used_supplement = True
        opcode, operands = self.g.opcodes[opname]
        kinds = [k for k, _ in operands]
        if ("IdResult" in kinds) != (result_tok is not None):
            raise AsmError("%s %s a result id" % (opname, "needs" if "IdResult" in kinds else "takes no"),
                           op_tok.line, op_tok.col)
        self.cur = {"opname": opname, "result_type": None, "result": None, "result_tok": result_tok,
                    "op_tok": op_tok}
        words = []
        self.operands(operands, words)
        if not self.at_instruction_end():
            tok = self.peek()
            raise AsmError("too many operands for %s: %s" % (opname, tok.text), tok.line, tok.col)
        self.after(opname, words)
        return [((len(words) + 1) << 16) | opcode] + words

    def operands(self, operands, words):
        for kind, quant in operands:
            if quant == "?":
                if not self.at_instruction_end():
                    self.operand(kind, words)
            elif quant == "*":
                while not self.at_instruction_end():
                    self.operand(kind, words)
            else:
                if kind != "IdResult" and self.at_instruction_end():
                    tok = self.peek() or self.cur["op_tok"]
                    raise AsmError("%s: missing operand of kind %s" % (self.cur["opname"], kind),
                                   tok.line, tok.col)
                self.operand(kind, words)

    def operand(self, kind, words):
        cur = self.cur
        if kind == "IdResult":
            rid = self.id_of(cur["result_tok"])
            cur["result"] = rid
            words.append(rid)
            return
        if kind in ID_KINDS:
            tok = self.take(kind)
            v = self.id_of(tok)
            if kind == "IdResultType":
                cur["result_type"] = v
            words.append(v)
            if cur["opname"] == "OpExtInst" and len(words) == 3:
                cur["ext_set"] = v
            if cur["opname"] == "OpSwitch" and len(words) == 1:
                cur["selector"] = v
            return
        if kind == "LiteralString":
            tok = self.take("a literal string")
            if not tok.is_string:
                raise AsmError("expected a quoted string, got %s" % tok.text, tok.line, tok.col)
            words.extend(encode_string(tok.text))
            return
        if kind == "LiteralInteger":
            tok = self.take("a literal integer")
            value, _ = parse_int(tok)
            if not -(1 << 31) <= value < (1 << 32):
                raise AsmError("literal %s does not fit in 32 bits" % tok.text, tok.line, tok.col)
            words.append(value & 0xFFFFFFFF)
            return
        if kind == "LiteralFloat":
            words.extend(encode_float(self.take("a literal float"), 32))
            return
        if kind == "LiteralContextDependentNumber":
            tok = self.take("a literal number")
            words.extend(self.typed_literal(tok, cur["result_type"]))
            return
        if kind == "LiteralExtInstInteger":
            self.ext_inst(words)
            return
        if kind == "LiteralSpecConstantOpInteger":
            tok = self.take("an opcode name")
            name = tok.text if tok.text.startswith("Op") else "Op" + tok.text
            if tok.is_string or name not in self.g.opcodes:
                raise AsmError("invalid opcode for OpSpecConstantOp: %s" % tok.text, tok.line, tok.col)
            opcode, ops = self.g.opcodes[name]
            words.append(opcode)
            self.operands([o for o in ops if o[0] not in ("IdResultType", "IdResult")], words)
            return
        if kind == "PairLiteralIntegerIdRef":
            tok = self.take("a case literal")
            sel_type = self.value_types.get(cur.get("selector"))
            words.extend(self.typed_literal(tok, sel_type, default_int=True))
            words.append(self.id_of(self.take("a label id")))
            return
        if kind == "PairIdRefLiteralInteger":
            words.append(self.id_of(self.take("an id")))
            self.operand("LiteralInteger", words)
            return
        if kind == "PairIdRefIdRef":
            words.append(self.id_of(self.take("an id")))
            words.append(self.id_of(self.take("an id")))
            return
        self.enum_operand(kind, words)

    def typed_literal(self, tok, type_id, default_int=False):
        t = self.types.get(type_id)
        if t is None:
            if default_int:
                t = ("int", 32, False)
            else:
                raise AsmError("literal %s needs an integer or float result type" % tok.text, tok.line, tok.col)
        if t[0] == "int":
            return encode_int(tok, t[1], t[2])
        return encode_float(tok, t[1])

    def ext_inst(self, words):
        tok = self.take("an extended instruction name")
        set_name = self.ext_imports.get(self.cur.get("ext_set"))
        table = self.g.ext_sets.get(set_name)
        if not tok.is_string and _INT_RE.match(tok.text):
            words.append(parse_int(tok)[0])
            return  # numbered: the remaining operands are ids
        if table is None:
            raise AsmError("unknown extended instruction set %r for %s" % (set_name, tok.text), tok.line, tok.col)
        if tok.text not in table:
            raise AsmError("Invalid extended instruction name '%s' in %s" % (tok.text, set_name),
                           tok.line, tok.col)
        number, ops = table[tok.text]
        words.append(number)
        self.operands(ops, words)

    def enum_operand(self, kind, words):
        info = self.g.kinds.get(kind)
        if info is None:
            tok = self.peek() or self.cur["op_tok"]
            raise AsmError("operand kind %s is not supported" % kind, tok.line, tok.col)
        if info["category"] == "Composite":
            for base in info["bases"]:
                self.operand(base, words)
            return
        tok = self.take("a %s operand" % kind)
        if tok.is_string:
            raise AsmError("expected a %s, got a string" % kind, tok.line, tok.col)
        if info["category"] == "BitEnum":
            mask = 0
            for part in tok.text.split("|"):
                if part not in info["enumerants"]:
                    raise AsmError("Invalid %s operand '%s'" % (kind, part), tok.line, tok.col)
                if kind + "." + part in self.g.supplement_names:
                    self.used_supplement = True
                mask |= info["enumerants"][part][0]
            words.append(mask)
            params = []
            bit = 1
            while bit <= mask:  # parameters of each set bit, lowest bit first
                if mask & bit:
                    for e in info["enumerants"].values():
                        if e[0] == bit:
                            params.extend(e[1])
                            break
                bit <<= 1
            for p in params:
                self.operand(p, words)
            return
        if tok.text not in info["enumerants"]:
            raise AsmError("Invalid %s operand '%s'" % (kind, tok.text), tok.line, tok.col)
        if kind + "." + tok.text in self.g.supplement_names:
            self.used_supplement = True
        value, params = info["enumerants"][tok.text]
        words.append(value)
        for p in params:
            self.operand(p, words)

    def after(self, opname, words):
        """Records what later literals need: scalar types, value types, imported sets."""
        cur = self.cur
        if opname == "OpTypeInt":
            self.types[words[0]] = ("int", words[1], words[2] != 0)
        elif opname == "OpTypeFloat":
            self.types[words[0]] = ("float", words[1])
        elif opname == "OpExtInstImport":
            data = struct.pack("<%dI" % (len(words) - 1), *words[1:])
            self.ext_imports[words[0]] = data.split(b"\0", 1)[0].decode("utf-8")
        if cur["result"] is not None and cur["result_type"] is not None:
            self.value_types[cur["result"]] = cur["result_type"]


def assemble(text, grammar, version=(1, 6)):
    """Returns (words, used_supplement)."""
    asm = Assembler(grammar)
    words = asm.assemble(text, version)
    return words, asm.used_supplement


def to_bytes(words):
    return struct.pack("<%dI" % len(words), *words)


def parse_target_env(env):
    m = re.match(r"^spv(\d+)\.(\d+)$", env or "")
    if not m:
        raise AsmError("unsupported --target-env %r (use spv1.N)" % env)
    return int(m.group(1)), int(m.group(2))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("-o", dest="output", required=True)
    ap.add_argument("--target-env", default="spv1.6")
    ap.add_argument("--core-grammar")
    ap.add_argument("--opencl-grammar")
    ap.add_argument("--supplement", default=DEFAULT_SUPPLEMENT,
                    help="supplement grammar JSON ('' for none)")
    args = ap.parse_args(argv)
    try:
        # The paths first: a FIFO or /dev/zero as input, or an output that is the input or not a regular file,
        # is one line and exit 2 before anything is read or written.
        text = report_io.read_text(args.input, "SPIR-V assembly file")
        report_io.check_output(args.output, (args.input,))
    except report_io.ReportError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    try:
        grammar = Grammar(args.core_grammar, args.opencl_grammar, args.supplement or None)
        words, _ = assemble(text, grammar, parse_target_env(args.target_env))
    except AsmError as e:
        print(report_io.printable("error: %s: %s" % (args.input, e)), file=sys.stderr)
        return 1
    except OSError as e:
        print("error: %s" % report_io.printable(e), file=sys.stderr)
        return 1
    try:
        report_io.write_output(args.output, to_bytes(words), (args.input,))
    except report_io.ReportError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
