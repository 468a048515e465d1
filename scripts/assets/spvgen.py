"""Case and module collection for the asset build (Python standard library only).

Generators (scripts/assets/generators/<group>.py) define generate(emit) and call:
    emit.module(relpath_without_ext, spvasm_text) -> "relpath.spv"
    emit.case(name, family, module, kernel, params=None, requires=None, tags=None, tier=...)
Hand-written kernels (spirv_new_assets/<group>/*.spvasm) declare the same data in a header comment block,
parsed by parse_asset_header(); the format is documented in docs/assets.md.
"""

import json
import math
import re
import sys

from assets import families

# The runner's top-level groups: api and every family with a descriptor (scripts/assets/families.py).
try:
    TOP_LEVELS = families.top_levels()
except families.FamilyError as _e:
    sys.exit("spvgen: %s" % _e)
# quick: the --quick smoke subset; extended: outside the conformance list (--extended); regression: the cases
# docs/known_driver_bugs.md names for a public driver or compiler bug (--tag=regression); huge: cases needing
# buffers of several GiB, run only with --huge (docs/2d_block_io.md, "Scale").
TAGS = ("quick", "extended", "regression", "huge")
# core: the OpenCL environment text promises that a device reporting the case's extensions and sub-group size
# builds the module (a build failure is a Fail in phase "build"); device_specific: valid SPIR-V beyond that
# promise (a build failure is NotSupported with the compiler's first error line). Each generator decides it
# from one table that quotes the environment; hand-written headers say it with tier=.
TIERS = ("core", "device_specific")


def _image_formats():
    """Every 2D image format the suite names (test_common/cl/image_formats.cpp holds the same table):
    CL_R / CL_RG / CL_RGBA x UNORM/SNORM 8/16, SIGNED/UNSIGNED 8/16/32, HALF_FLOAT, FLOAT, named as
    GLSL spells them (r8, r8_snorm, r8i, r8ui, r16f, rgba32f, ...). name -> (order, channel type, texel bytes)."""
    types = [("", "CL_UNORM_INT8", 1), ("_snorm", "CL_SNORM_INT8", 1), ("i", "CL_SIGNED_INT8", 1),
             ("ui", "CL_UNSIGNED_INT8", 1), ("", "CL_UNORM_INT16", 2), ("_snorm", "CL_SNORM_INT16", 2),
             ("i", "CL_SIGNED_INT16", 2), ("ui", "CL_UNSIGNED_INT16", 2), ("f", "CL_HALF_FLOAT", 2),
             ("i", "CL_SIGNED_INT32", 4), ("ui", "CL_UNSIGNED_INT32", 4), ("f", "CL_FLOAT", 4)]
    out = {}
    for prefix, order, channels in (("r", "CL_R", 1), ("rg", "CL_RG", 2), ("rgba", "CL_RGBA", 4)):
        for suffix, ctype, size in types:
            out["%s%d%s" % (prefix, size * 8, suffix)] = (order, ctype, size * channels)
    return out


IMAGE_FORMATS = _image_formats()
# One format per texel size for the cases on images created from buffers: 1, 2, 4, 8, 16 bytes, each with
# a channel type a conversion would change (the 1-byte one excepted: no such format is 1 byte and converting).
FROM_BUFFER_FORMATS = ("r8_snorm", "r16f", "rgba8", "rgba16_snorm", "rgba32f")
_LEVEL = r"[a-z0-9_]+"
_NAME_RE = re.compile(r"^%s(\.%s)*$" % (_LEVEL, _LEVEL))
_RELPATH_RE = re.compile(r"^%s(/%s)*$" % (_LEVEL, _LEVEL))
_KERNEL_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PARAM_KEY_RE = re.compile(r"^[a-z][a-z0-9_]*$")
# Requirement tokens understood by the runner (see CaseSpec::requires in test_common/harness/model/case.h).
_REQUIRE_RES = [
    re.compile(r"^ext=cl_[a-z0-9_]+(@\d+\.\d+)?$"),
    re.compile(r"^spirv=\d+\.\d+$"),
    re.compile(r"^(min_)?sg_size=[1-9]\d*$"),
    re.compile(r"^(images|fp16|fp64|int64)$"),
    re.compile(r"^image_format=CL_[A-Z0-9_]+/CL_[A-Z0-9_]+$"),
    re.compile(r"^(max_alloc|global_mem)=[1-9]\d{0,18}$"),
]
_VERSION_RE = re.compile(r"^\s*;\s*@version\s+(\d+)\.(\d+)\s*$", re.M)
DEFAULT_SPIRV_VERSION = (1, 2)
# Version 2: every case with a module carries "module_hash" (test_common/harness/selection/manifest.cpp reads it).
# Version 3: every case carries "tier" (TIERS).
# Version 4: "modules", the module table: each module's kernels with their arguments' names and types
# (scripts/assets/spirv_signature.py), once per module; the runner checks it against the module it loads.
MANIFEST_VERSION = 4


class SpvgenError(Exception):
    """A problem in a generator or an asset, with the file it came from in the message."""


def module_version(text):
    """SPIR-V version a module asks for with a '; @version 1.N' line, else DEFAULT_SPIRV_VERSION."""
    m = _VERSION_RE.search(text)
    return (int(m.group(1)), int(m.group(2))) if m else DEFAULT_SPIRV_VERSION


def entry_points(text):
    return set(re.findall(r'OpEntryPoint\s+Kernel\s+%\S+\s+"([^"]*)"', text))


def _check_param_value(value):
    if isinstance(value, bool) or isinstance(value, int) or isinstance(value, str):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    return False


class Emitter:
    """Collects modules and cases; build_assets.py assembles and writes them."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.origin = "<unknown>"  # file currently emitting (set by build_assets.py)
        self.modules = {}          # "rel/path" -> {"text": str, "origin": str}
        self.cases = {}            # name -> case dict

    def _fail(self, message, origin=None):
        raise SpvgenError("%s: %s" % (origin or self.origin, message))

    def module(self, relpath, text, origin=None):
        origin = origin or self.origin
        if not isinstance(relpath, str) or not _RELPATH_RE.match(relpath):
            self._fail("module path %r must be lowercase [a-z0-9_] folders/name without extension" % (relpath,),
                       origin)
        if not isinstance(text, str) or "OpCapability" not in text:
            self._fail("module %r: text is not SPIR-V assembly (no OpCapability)" % relpath, origin)
        prior = self.modules.get(relpath)
        if prior is not None and prior["text"] != text:
            self._fail("module %r emitted twice with different text (first by %s)" % (relpath, prior["origin"]),
                       origin)
        if prior is None:
            self.modules[relpath] = {"text": text, "origin": origin}
        return relpath + ".spv"

    def binary_module(self, relpath, data, argument_names, val_exception=None, origin=None):
        """A module taken as compiler output, byte for byte (spirv_new_assets/triton/): copied, not assembled.
        argument_names: {kernel: [name, ...]}, the names its unnamed parameters take in the module table (a
        compiler's launch facts). val_exception: {"description": str, "pattern": regex}: a spirv-val rejection
        whose whole output matches the pattern is the documented one; any other rejection stops the build."""
        origin = origin or self.origin
        if not isinstance(relpath, str) or not _RELPATH_RE.match(relpath):
            self._fail("module path %r must be lowercase [a-z0-9_] folders/name without extension" % (relpath,),
                       origin)
        if not isinstance(data, bytes) or len(data) < 20 or len(data) % 4 or data[:4] != b"\x03\x02\x23\x07":
            self._fail("module %r: not a little-endian SPIR-V binary" % relpath, origin)
        prior = self.modules.get(relpath)
        if prior is not None and prior.get("binary") != data:
            self._fail("module %r emitted twice with different contents (first by %s)" % (relpath, prior["origin"]),
                       origin)
        if prior is None:
            from assets import spirv_signature
            try:
                kernels = set(spirv_signature.module_signatures(data))
            except spirv_signature.SignatureError as e:
                self._fail("module %r: %s" % (relpath, e), origin)
            self.modules[relpath] = {"text": None, "binary": data, "origin": origin, "kernels": kernels,
                                     "argument_names": dict(argument_names), "val_exception": val_exception}
        return relpath + ".spv"

    def case(self, name, family, module, kernel, params=None, requires=None, tags=None, origin=None, tier=None):
        origin = origin or self.origin
        where = "case %r" % (name,)
        if not isinstance(name, str) or not _NAME_RE.match(name):
            self._fail("%s: name must be dotted lowercase levels of [a-z0-9_]" % where, origin)
        if name.split(".")[0] not in TOP_LEVELS:
            self._fail("%s: top level must be one of %s" % (where, ", ".join(TOP_LEVELS)), origin)
        if name in self.cases:
            self._fail("%s defined twice (first by %s)" % (where, self.cases[name]["origin"]), origin)
        if not isinstance(family, str) or not _NAME_RE.match(family):
            self._fail("%s: family %r must be dotted lowercase [a-z0-9_]" % (where, family), origin)
        module = module or ""
        kernel = kernel or ""
        if module:
            if not isinstance(module, str) or not module.endswith(".spv") or module[:-4] not in self.modules:
                self._fail("%s: module %r was not emitted (use the path emit.module() returned)" % (where, module),
                           origin)
            if not isinstance(kernel, str) or not _KERNEL_RE.match(kernel):
                self._fail("%s: kernel %r is not an identifier" % (where, kernel), origin)
            m = self.modules[module[:-4]]
            if kernel not in (m["kernels"] if m.get("binary") else entry_points(m["text"])):
                self._fail("%s: module %s has no OpEntryPoint Kernel named %r" % (where, module, kernel), origin)
        elif kernel:
            self._fail("%s: kernel %r given without a module" % (where, kernel), origin)
        params = dict(params or {})
        for key, value in params.items():
            if not isinstance(key, str) or not _PARAM_KEY_RE.match(key):
                self._fail("%s: parameter name %r must be lowercase [a-z0-9_]" % (where, key), origin)
            if not _check_param_value(value):
                self._fail("%s: parameter %s=%r must be a number, string, boolean or list of integers" %
                           (where, key, value), origin)
        requires = list(requires or [])
        for token in requires:
            if not isinstance(token, str) or not any(r.match(token) for r in _REQUIRE_RES):
                self._fail("%s: unknown requirement token %r (see CaseSpec::requires in "
                           "test_common/harness/model/case.h)" % (where, token), origin)
        tags = list(tags or [])
        for tag in tags:
            if tag not in TAGS:
                self._fail("%s: unknown tag %r (known: %s)" % (where, tag, ", ".join(TAGS)), origin)
        if tier not in TIERS:
            self._fail("%s: tier %r must be one of %s (the generator's tier table decides it)" %
                       (where, tier, ", ".join(TIERS)), origin)
        self.cases[name] = {"name": name, "family": family, "module": module, "kernel": kernel,
                            "params": params, "requires": requires, "tags": tags, "tier": tier, "origin": origin}

    def manifest(self, module_hashes, module_signatures):
        """module_hashes: "rel/path.spv" -> hash of the assembled file (build_assets.module_hash), for every
        module a case uses; it lands in the case as "module_hash", after "module". module_signatures:
        "rel/path.spv" -> {kernel: [[argument, type], ...]} (spirv_signature.module_signatures), the module
        table's "kernels" of each module a case uses."""
        cases = []
        for n in sorted(self.cases):
            entry = {}
            for key, value in self.cases[n].items():
                entry[key] = value
                if key == "module" and value:
                    entry["module_hash"] = module_hashes[value]
            cases.append(entry)
        used = sorted({c["module"] for c in self.cases.values() if c["module"]})
        modules = {m: {"kernels": module_signatures[m]} for m in used}
        return {"version": MANIFEST_VERSION, "modules": modules, "cases": cases}


# ----------------------------------------------------------------------------------------------------------
# Kernel pieces shared by generators: where a sub-group finds its global index
# g = WorkgroupId.x * NumSubgroups + SubgroupId and its lane (ids %lane, %sg, %nsg, %wg, %g). The types they
# use (%uint, %ulong, %v3ulong, %ptr_in_uint, %ptr_in_v3ulong) are the generator's.

SUBGROUP_INDEX_INTERFACE = "%lid_var %sgid_var %nsg_var %wgid_var"
SUBGROUP_INDEX_DECORATIONS = [
    "               OpDecorate %lid_var BuiltIn SubgroupLocalInvocationId",
    "               OpDecorate %sgid_var BuiltIn SubgroupId",
    "               OpDecorate %nsg_var BuiltIn NumSubgroups",
    "               OpDecorate %wgid_var BuiltIn WorkgroupId",
    "               OpDecorate %lid_var Constant",
    "               OpDecorate %sgid_var Constant",
    "               OpDecorate %nsg_var Constant",
    "               OpDecorate %wgid_var Constant",
]
SUBGROUP_INDEX_VARIABLES = [
    "    %lid_var = OpVariable %ptr_in_uint Input",
    "   %sgid_var = OpVariable %ptr_in_uint Input",
    "    %nsg_var = OpVariable %ptr_in_uint Input",
    "   %wgid_var = OpVariable %ptr_in_v3ulong Input",
]

# ----------------------------------------------------------------------------------------------------------
# The opening of a generated kernel module, one helper for every generator: capabilities, extensions, memory
# model, the entry point %test (with the sub-group index built-ins above), its SubgroupSize, the OpNames and
# the built-ins' decorations; then the common types, each spelled and aligned one way.


def kernel_header(comments, caps, extensions, sg, names):
    """names: an id that is also its OpName, or (id, name)."""
    lines = ["; " + c for c in comments]
    lines += ["               OpCapability %s" % c for c in caps]
    lines += ['               OpExtension "%s"' % e for e in extensions]
    lines += ["               OpMemoryModel Physical64 OpenCL",
              '               OpEntryPoint Kernel %test "test" ' + SUBGROUP_INDEX_INTERFACE,
              "               OpExecutionMode %%test SubgroupSize %d" % sg]
    for n in names:
        ident, text = n if isinstance(n, tuple) else (n, n)
        lines.append('               OpName %%%s "%s"' % (ident, text))
    return lines + SUBGROUP_INDEX_DECORATIONS


COMMON_TYPES = {
    "void": "OpTypeVoid",
    "bool": "OpTypeBool",
    "uchar": "OpTypeInt 8 0",
    "ushort": "OpTypeInt 16 0",
    "uint": "OpTypeInt 32 0",
    "ulong": "OpTypeInt 64 0",
    "half": "OpTypeFloat 16",
    "float": "OpTypeFloat 32",
    "v2uint": "OpTypeVector %uint 2",
    "v3ulong": "OpTypeVector %ulong 3",
    "v8bool": "OpTypeVector %bool 8",
    "v8uint": "OpTypeVector %uint 8",
    "ptr_in_uint": "OpTypePointer Input %uint",
    "ptr_in_v3ulong": "OpTypePointer Input %v3ulong",
    "ptr_cw_uchar": "OpTypePointer CrossWorkgroup %uchar",
    "ptr_cw_uint": "OpTypePointer CrossWorkgroup %uint",
    "ptr_cw_v2uint": "OpTypePointer CrossWorkgroup %v2uint",
}


def types(*names):
    """The declarations of common types (COMMON_TYPES), in the order given."""
    return ["%s = %s" % (("%" + n).rjust(12), COMMON_TYPES[n]) for n in names]


SUBGROUP_INDEX_CODE = [
    "       %lane = OpLoad %uint %lid_var",
    "         %sg = OpLoad %uint %sgid_var",
    "        %nsg = OpLoad %uint %nsg_var",
    "        %wg3 = OpLoad %v3ulong %wgid_var",
    "       %wg64 = OpCompositeExtract %ulong %wg3 0",
    "         %wg = OpUConvert %uint %wg64",
    "     %g_base = OpIMul %uint %wg %nsg",
    "          %g = OpIAdd %uint %g_base %sg",
]


# The completion record (test_common/harness/selection/done_record.h): the last thing every invocation does is
# done[s] = s + DONE_MAGIC, s its global lane index g * SubgroupSize + SubgroupLocalInvocationId. The checker
# requires every record, so a case passes only when every invocation ran to its end, even where the operation
# under test must leave no other trace (a store wholly out of bounds). s + magic, not a constant, so a record
# written to the wrong slot or by the wrong invocation shows. Needs %uint, the generator's CrossWorkgroup
# uint pointer type and DONE_MAGIC_CONSTANT among the constants.
DONE_MAGIC = 0x1000
DONE_MAGIC_CONSTANT = " %%done_magic = OpConstant %%uint %d" % DONE_MAGIC


def done_record_code(s, done, ptr_cw_uint):
    """Stores the completion record of invocation s (a %uint id) to done (a CrossWorkgroup uint pointer)."""
    return [
        "     %%done_v = OpIAdd %%uint %s %%done_magic" % s,
        "   %%done_ptr = OpInBoundsPtrAccessChain %s %s %s" % (ptr_cw_uint, done, s),
        "               OpStore %done_ptr %done_v",
    ]

# ----------------------------------------------------------------------------------------------------------
# Hand-written asset header

def _parse_param_value(text):
    t = text.strip()
    if t in ("true", "false"):
        return t == "true"
    if re.match(r"^-?(0[xX][0-9a-fA-F]+|\d+)$", t):
        return int(t, 0) if not t.startswith("-") else -int(t[1:], 0)
    if re.match(r"^-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$", t):
        return float(t)
    if t.startswith("["):
        value = json.loads(t)
        if not isinstance(value, list):
            raise ValueError("not a list")
        return value
    if t.startswith('"'):
        value = json.loads(t)
        if not isinstance(value, str):
            raise ValueError("not a string")
        return value
    if not t:
        raise ValueError("empty value")
    return t


def parse_asset_header(text, path):
    """Returns the cases ({name, family, kernel, params, requires, tags}) declared in an asset's header.

    An asset without @case lines is allowed only if a generator's case uses it (build_assets.py checks).
    The header is the leading block of comment and blank lines. Directives:
        ; @case name=<dotted> family=<dotted> kernel=<entry point> tier=<core|device_specific> [requires=a,b]
                [tags=quick]
        ; @param <key>=<value>      (belongs to the @case above it)
        ; @version 1.N              (SPIR-V version to assemble for; default 1.2)
    """
    cases = []
    in_header = True
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        where = "%s:%d" % (path, lineno)
        if in_header and stripped and not stripped.startswith(";"):
            in_header = False
        m = re.match(r"^;\s*@(\S*)\s*(.*)$", stripped) if stripped.startswith(";") else None
        if not m:
            continue
        directive, rest = m.group(1), m.group(2).strip()
        if not in_header:
            raise SpvgenError("%s: '@%s' after the first instruction; metadata belongs in the header comment "
                              "block" % (where, directive))
        if directive == "case":
            fields = {}
            for item in rest.split():
                if "=" not in item:
                    raise SpvgenError("%s: @case field %r is not key=value" % (where, item))
                key, value = item.split("=", 1)
                if key not in ("name", "family", "kernel", "tier", "requires", "tags"):
                    raise SpvgenError("%s: unknown @case field %r (name, family, kernel, tier, requires, tags)" %
                                      (where, key))
                if key in fields:
                    raise SpvgenError("%s: @case field %r given twice" % (where, key))
                fields[key] = value
            for key in ("name", "family", "kernel", "tier"):
                if not fields.get(key):
                    raise SpvgenError("%s: @case needs %s=" % (where, key))
            cases.append({"name": fields["name"], "family": fields["family"], "kernel": fields["kernel"],
                          "tier": fields["tier"], "params": {},
                          "requires": [t for t in fields.get("requires", "").split(",") if t],
                          "tags": [t for t in fields.get("tags", "").split(",") if t],
                          "line": lineno})
        elif directive == "param":
            if not cases:
                raise SpvgenError("%s: @param before any @case" % where)
            if "=" not in rest:
                raise SpvgenError("%s: @param needs key=value" % where)
            key, value = rest.split("=", 1)
            key = key.strip()
            if key in cases[-1]["params"]:
                raise SpvgenError("%s: @param %r given twice" % (where, key))
            try:
                cases[-1]["params"][key] = _parse_param_value(value)
            except ValueError as e:
                raise SpvgenError("%s: @param %s: bad value %r (%s)" % (where, key, value.strip(), e))
        elif directive == "version":
            if not re.match(r"^\d+\.\d+$", rest):
                raise SpvgenError("%s: @version needs MAJOR.MINOR, got %r" % (where, rest))
        else:
            raise SpvgenError("%s: unknown directive '@%s' (known: @case, @param, @version)" % (where, directive))
    return cases
