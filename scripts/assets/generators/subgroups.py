"""SPV_INTEL_subgroups cases: shuffles, buffer block read/write, image block read/write.

One module per (instruction, component type, component count, sub-group size); the index pattern,
work-group shape, control flow, offsets and coordinates are kernel arguments or buffer contents chosen by
the C++ families in test_conformance/subgroups/ from the case parameters. Every kernel also writes, per
work-item, SubgroupLocalInvocationId, SubgroupId, SubgroupSize and SubgroupMaxSize to a side buffer (argument 1,
info[gid*4 .. +4)), so the checker takes the work-item to sub-group mapping from the device instead of
assuming one. The checker requires every work-item's record, so it is also the record that the kernel ran
(the role of the done buffer in the 2D and media block IO kernels).

Case names: subgroups.<op>.<type>.v<n>.sg<S>.<index|offset|format>...; see docs/subgroups.md.
"""

from assets import spvgen

# Every sub-group size a device may report (CL_DEVICE_SUB_GROUP_SIZES_INTEL): 8, 16 and 32 on Intel GPUs, and
# 4, 8, 16, 32 and 64 on Intel's OpenCL CPU runtime. A case requires its size, so each runs wherever it is
# reported and is NotSupported elsewhere.
SUB_GROUP_SIZES = (4, 8, 16, 32, 64)

# name -> (bits, "int"/"float")
TYPES = {
    "i8": (8, "int"), "i16": (16, "int"), "i32": (32, "int"), "i64": (64, "int"),
    "f16": (16, "float"), "f32": (32, "float"), "f64": (64, "float"),
}

# Shuffle component counts per type (OpenCL environment: 32-bit 1,2,3,4,8,16; 64-bit scalar only; 16-bit
# with cl_intel_subgroups_short; 8-bit with cl_intel_subgroups_char, which lists 1,2,4,8,16 while SPIR-V
# allows 3 as well: 3 is kept, it is a plain vector type).
SHUFFLE_WIDTHS = {
    "i8": (1, 2, 3, 4, 8, 16), "i16": (1, 2, 3, 4, 8, 16), "i32": (1, 2, 3, 4, 8, 16), "i64": (1,),
    "f16": (1, 2, 3, 4, 8, 16), "f32": (1, 2, 3, 4, 8, 16), "f64": (1,),
}
# Block IO component counts (unsigned integer types only in OpenCL).
BUFFER_BLOCK_WIDTHS = {"u8": (1, 2, 4, 8, 16), "u16": (1, 2, 4, 8, 16),
                       "u32": (1, 2, 4, 8), "u64": (1, 2, 4, 8)}
IMAGE_BLOCK_WIDTHS = {"u8": (1, 2, 4, 8, 16), "u16": (1, 2, 4, 8), "u32": (1, 2, 4, 8), "u64": (1, 2, 4, 8)}
BLOCK_BITS = {"u8": 8, "u16": 16, "u32": 32, "u64": 64}

# Tier tables (docs/subgroups.md, "Tiers"): the configurations the OpenCL environment promises to accept.
# cl_intel_spirv_subgroups rev 2, 7.1.X.1: "the environment must accept the following types for 'Data' for the
# SubgroupShuffleINTEL instructions: Scalars and OpTypeVectors with 2, 3, 4, 8, or 16 components of
# OpTypeFloat 32 / OpTypeInt 32; Scalars of OpTypeInt with a Width of 64 bits; if Float16 is declared and
# supported, Scalars of OpTypeFloat 16; if Float64 ..., Scalars of OpTypeFloat 64; with cl_intel_subgroups_short,
# Scalars and OpTypeVectors with 2, 3, 4, 8, or 16 components of OpTypeInt 16".
SHUFFLE_CORE = {"i32": (1, 2, 3, 4, 8, 16), "f32": (1, 2, 3, 4, 8, 16), "i64": (1,), "f16": (1,), "f64": (1,),
                "i16": (1, 2, 3, 4, 8, 16)}
# 7.1.X.2: "the environment must accept the following types for Result and Data for the
# SubgroupBufferBlockIOINTEL and SubgroupImageBlockIOINTEL instructions: Scalars and OpTypeVectors with 2, 4, or
# 8 components of OpTypeInt 32; with cl_intel_subgroups_short, ... of OpTypeInt 16". 8- and 64-bit and
# 16-component block IO are valid SPIR-V that no environment text promises.
BLOCK_CORE = {"u32": (1, 2, 4, 8), "u16": (1, 2, 4, 8)}


def tier(table, type_name, n):
    """core when the environment promises the (type, component count); else device_specific."""
    return "core" if n in table.get(type_name, ()) else "device_specific"


SHUFFLE_OPS = {
    # op level name -> (SPIR-V opcode name, index name used in case names, two data operands)
    "shuffle": ("OpSubgroupShuffleINTEL", "index", False),
    "shuffle_down": ("OpSubgroupShuffleDownINTEL", "delta", True),
    "shuffle_up": ("OpSubgroupShuffleUpINTEL", "delta", True),
    "shuffle_xor": ("OpSubgroupShuffleXorINTEL", "value", False),
}

# 4-byte texel formats clamp reads / drop writes out of bounds; smaller texels are tested in bounds only.
IMAGE_FORMATS = {
    "r32ui": ("CL_R", "CL_UNSIGNED_INT32", 4),
    "rgba8ui": ("CL_RGBA", "CL_UNSIGNED_INT8", 4),
    "rg16ui": ("CL_RG", "CL_UNSIGNED_INT16", 4),
    "r16ui": ("CL_R", "CL_UNSIGNED_INT16", 2),
    "r8ui": ("CL_R", "CL_UNSIGNED_INT8", 1),
}
COORDS_4BYTE = ("interior", "right_edge", "bottom_edge", "beyond_right", "beyond_bottom", "before_left_top")
COORDS_SMALL = ("interior", "right_edge", "bottom_edge")


# ----------------------------------------------------------------------------------------------------------
# SPIR-V text building

class Module:
    """Builds one kernel module: capabilities, builtins, deduplicated types and constants, functions."""

    BUILTINS = {  # variable -> (BuiltIn, type key)
        "gid_var": ("GlobalInvocationId", "v3ulong"), "wgid_var": ("WorkgroupId", "v3ulong"),
        "sglid_var": ("SubgroupLocalInvocationId", "uint"), "sgid_var": ("SubgroupId", "uint"),
        "sgsize_var": ("SubgroupSize", "uint"), "sgmax_var": ("SubgroupMaxSize", "uint"),
        "nsg_var": ("NumSubgroups", "uint"),
    }

    def __init__(self, sg_size, capabilities, comment):
        self.sg_size = sg_size
        self.caps = ["Addresses", "Kernel", "Int64", "SubgroupDispatch"] + list(capabilities)
        self.comment = comment
        self.types = []      # declaration lines, in order
        self.type_ids = {}   # key -> id
        self.consts = []
        self.const_ids = {}
        self.late_types = []  # declarations that use constants (array types), after them
        self.variables = []   # module-scope OpVariable lines other than the built-ins
        self.functions = []  # (entry name, lines)
        self.param_names = []  # (parameter id, OpName): host code binds the arguments by these names
        self.tmp = 0
        for key in ("void", "bool", "uint", "ulong", "v3ulong"):
            self.type(key)

    def cap(self, name):
        if name not in self.caps:
            self.caps.append(name)

    SCALAR_IDS = {"int8": "%uchar", "int16": "%ushort", "int32": "%uint", "int64": "%ulong",
                  "float16": "%half", "float32": "%float", "float64": "%double",
                  "void": "%void", "bool": "%bool"}

    @staticmethod
    def canonical(key):
        return key.replace("ulong", "int64").replace("uint", "int32")

    def type(self, key):
        """Type id for a key: void, bool, uint, ulong, int8/16/32/64, float16/32/64, v<n><scalar key>,
        p_<storage>_<key>, image_ro, image_wo. Each type is declared once."""
        key = self.canonical(key)
        if key in self.type_ids:
            return self.type_ids[key]
        if key in self.SCALAR_IDS:
            tid = self.SCALAR_IDS[key]
            if key == "void":
                decl = "OpTypeVoid"
            elif key == "bool":
                decl = "OpTypeBool"
            elif key.startswith("int"):
                bits = int(key[3:])
                decl = "OpTypeInt %d 0" % bits
                if bits in (8, 16):
                    self.cap("Int%d" % bits)
            else:
                bits = int(key[5:])
                decl = "OpTypeFloat %d" % bits
                if bits in (16, 64):
                    self.cap("Float%d" % bits)
        elif key.startswith("v") and key[1].isdigit():
            digits = key[1:3] if key[2].isdigit() else key[1]
            n, scalar = int(digits), key[1 + len(digits):]
            if n > 4:
                self.cap("Vector16")
            tid = "%%v%d%s" % (n, self.type(scalar)[1:])
            decl = "OpTypeVector %s %d" % (self.type(scalar), n)
        elif key.startswith("p_"):
            storage, pointee = key[2:].split("_", 1)
            tid = "%%ptr_%s_%s" % (storage, self.type(pointee)[1:])
            decl = "OpTypePointer %s %s" % (storage, self.type(pointee))
        elif key in ("image_ro", "image_wo"):
            self.cap("ImageBasic")
            tid = "%" + key
            access = "ReadOnly" if key == "image_ro" else "WriteOnly"
            decl = "OpTypeImage %s 2D 0 0 0 0 Unknown %s" % (self.type("void"), access)
        else:
            raise ValueError("unknown type key " + key)
        self.type_ids[key] = tid
        self.types.append("%s = %s" % (tid, decl))
        return tid

    def function_type(self, arg_keys):
        key = "fn(" + ",".join(self.canonical(k) for k in arg_keys) + ")"
        if key not in self.type_ids:
            tid = "%%fn_%d" % len([k for k in self.type_ids if k.startswith("fn(")])
            args = " ".join(self.type(k) for k in arg_keys)
            self.types.append("%s = OpTypeFunction %s %s" % (tid, self.type("void"), args))
            self.type_ids[key] = tid
        return self.type_ids[key]

    def const(self, key, value):
        name = "%%c_%s_%d" % (self.type(key)[1:], value)
        if name not in self.const_ids:
            self.const_ids[name] = True
            self.consts.append("%s = OpConstant %s %d" % (name, self.type(key), value))
        return name

    def new(self):
        self.tmp += 1
        return "%%t%d" % self.tmp

    def version(self):
        # SPIR-V 1.2 for every type: the OpenCL SPIR-V environment accepts Float16 with cl_khr_fp16 at any
        # version a device reports, and a device reporting SPIR-V 1.2 only (Intel's 22.43 runtime) must still
        # get the half scalar shuffles the environment promises (build_assets.py validates these modules
        # with the plain spv1.2 env: SPIRV-Tools' opencl2.2 env refuses Float16).
        return (1, 2)

    def text(self):
        out = ["; @version %d.%d" % self.version(), "; " + self.comment]
        out += ["OpCapability " + c for c in self.caps]
        out.append('OpExtension "SPV_INTEL_subgroups"')
        out.append("OpMemoryModel Physical64 OpenCL")
        interface = " ".join("%" + v for v in self.BUILTINS)
        for name, _ in self.functions:
            out.append('OpEntryPoint Kernel %%%s "%s" %s' % (name, name, interface))
        for name, _ in self.functions:
            out.append("OpExecutionMode %%%s SubgroupSize %d" % (name, self.sg_size))
        out += ['OpName %s "%s"' % (pid, pname) for pid, pname in self.param_names]
        for var, (builtin, _) in self.BUILTINS.items():
            out.append("OpDecorate %%%s BuiltIn %s" % (var, builtin))
            out.append("OpDecorate %%%s Constant" % var)
        var_lines = []
        for var, (_, key) in self.BUILTINS.items():
            var_lines.append("%%%s = OpVariable %s Input" % (var, self.type("p_Input_" + key)))
        out += self.types + self.consts + self.late_types + var_lines + self.variables
        for _, lines in self.functions:
            out += lines
        return "\n".join(out) + "\n"


class Function:
    """One kernel: parameters (name, type key), then body lines written through helpers."""

    def __init__(self, module, name, params):
        self.m = module
        self.name = name
        self.params = params
        self.lines = []
        fn_type = module.function_type([t for _, t in params])
        self.lines.append("%%%s = OpFunction %s None %s" % (name, module.type("void"), fn_type))
        for pname, ptype in params:
            self.lines.append("%%%s_%s = OpFunctionParameter %s" % (name, pname, module.type(ptype)))
        self.lines.append(self.label())
        self.builtins = {}

    def arg(self, pname):
        return "%%%s_%s" % (self.name, pname)

    def label(self, name=None):
        self.current_label = name or self.m.new()
        return "%s = OpLabel" % self.current_label

    def op(self, type_key, text):
        r = self.m.new()
        self.lines.append("%s = %s %s" % (r, text.split(" ", 1)[0],
                                          ((self.m.type(type_key) + " ") if type_key else "") +
                                          (text.split(" ", 1)[1] if " " in text else "")))
        return r

    def builtin(self, var):
        if var not in self.builtins:
            builtin, key = Module.BUILTINS[var]
            v = self.op(key, "OpLoad %%%s" % var)
            if key == "v3ulong":
                v = self.op("ulong", "OpCompositeExtract %s 0" % v)
            self.builtins[var] = v
        return self.builtins[var]

    def element_ptr(self, base, elem_key, index_ulong):
        return self.op("p_CrossWorkgroup_" + elem_key, "OpInBoundsPtrAccessChain %s %s" % (base, index_ulong))

    def load(self, base, elem_key, index_ulong, align):
        p = self.element_ptr(base, elem_key, index_ulong)
        return self.op(elem_key, "OpLoad %s Aligned %d" % (p, align))

    def store(self, base, elem_key, index_ulong, value, align):
        p = self.element_ptr(base, elem_key, index_ulong)
        self.lines.append("OpStore %s %s Aligned %d" % (p, value, align))

    def to_ulong(self, uint_value):
        return self.op("ulong", "OpUConvert %s" % uint_value)

    def linear(self, a, mul, add):
        """a * mul + add, all ulong ids."""
        return self.op("ulong", "OpIAdd %s %s" % (self.op("ulong", "OpIMul %s %s" % (a, mul)), add))

    def write_info(self):
        """info[gid*4 + k] = SubgroupLocalInvocationId, SubgroupId, SubgroupSize, SubgroupMaxSize."""
        gid = self.builtin("gid_var")
        base = self.op("ulong", "OpIMul %s %s" % (gid, self.m.const("ulong", 4)))
        for k, var in enumerate(("sglid_var", "sgid_var", "sgsize_var", "sgmax_var")):
            idx = self.op("ulong", "OpIAdd %s %s" % (base, self.m.const("ulong", k)))
            self.store(self.arg("info"), "uint", idx, self.builtin(var), 4)

    def block_index(self):
        """WorkgroupId.x * NumSubgroups + SubgroupId: uniform within a sub-group, one block per sub-group."""
        nsg = self.to_ulong(self.builtin("nsg_var"))
        sgid = self.to_ulong(self.builtin("sgid_var"))
        return self.linear(self.builtin("wgid_var"), nsg, sgid)

    def load_components(self, base, comp_key, n, align):
        gid = self.builtin("gid_var")
        first = self.op("ulong", "OpIMul %s %s" % (gid, self.m.const("ulong", n)))
        comps = []
        for j in range(n):
            idx = self.op("ulong", "OpIAdd %s %s" % (first, self.m.const("ulong", j))) if j else first
            comps.append(self.load(base, comp_key, idx, align))
        if n == 1:
            return comps[0]
        return self.op("v%d%s" % (n, comp_key), "OpCompositeConstruct " + " ".join(comps))

    def store_components(self, base, comp_key, n, value, align):
        gid = self.builtin("gid_var")
        first = self.op("ulong", "OpIMul %s %s" % (gid, self.m.const("ulong", n)))
        for j in range(n):
            idx = self.op("ulong", "OpIAdd %s %s" % (first, self.m.const("ulong", j))) if j else first
            comp = value if n == 1 else self.op(comp_key, "OpCompositeExtract %s %d" % (value, j))
            self.store(base, comp_key, idx, comp, align)

    def finish(self):
        self.lines += ["OpReturn", "OpFunctionEnd"]
        self.m.functions.append((self.name, self.lines))
        self.m.param_names += [(self.arg(pname), pname) for pname, _ in self.params]


def scalar_key(type_name):
    bits, kind = TYPES[type_name]
    return ("int%d" if kind == "int" else "float%d") % bits


def value_key(comp_key, n):
    return comp_key if n == 1 else "v%d%s" % (n, comp_key)


# ----------------------------------------------------------------------------------------------------------
# Shuffle modules

def shuffle_module(op, type_name, n, sg, const_index):
    opname, _, two = SHUFFLE_OPS[op]
    m = Module(sg, ["SubgroupShuffleINTEL"], "%s on %s x %d, SubgroupSize %d" % (opname, type_name, n, sg))
    comp = scalar_key(type_name)
    align = TYPES[type_name][0] // 8
    vkey = value_key(comp, n)
    ptr = "p_CrossWorkgroup_" + comp
    params = [("out", ptr), ("info", "p_CrossWorkgroup_uint"), ("a", ptr), ("b", ptr),
              ("index", "p_CrossWorkgroup_uint"), ("exec_period", "uint"), ("lane_mask", "uint")]
    for kernel in ("test", "test_const"):
        f = Function(m, kernel, params)
        f.write_info()
        # Work-group control flow: only work-groups with WorkgroupId.x % exec_period == exec_period - 1 run
        # the shuffle (exec_period 1: all of them; 2: the odd-numbered ones). A driver once returned 0 when
        # only some work-groups took the branch holding the shuffle.
        period = f.to_ulong(f.arg("exec_period"))
        rem = f.op("ulong", "OpUMod %s %s" % (f.builtin("wgid_var"), period))
        last = f.op("ulong", "OpISub %s %s" % (period, m.const("ulong", 1)))
        group_runs = f.op("bool", "OpIEqual %s %s" % (rem, last))
        # Lane control flow: only lanes whose bit (SubgroupLocalInvocationId % 32) is set in lane_mask run it.
        bit = f.op("uint", "OpBitwiseAnd %s %s" % (f.builtin("sglid_var"), m.const("uint", 31)))
        shifted = f.op("uint", "OpShiftRightLogical %s %s" % (f.arg("lane_mask"), bit))
        lane_bit = f.op("uint", "OpBitwiseAnd %s %s" % (shifted, m.const("uint", 1)))
        lane_runs = f.op("bool", "OpINotEqual %s %s" % (lane_bit, m.const("uint", 0)))
        cond = f.op("bool", "OpLogicalAnd %s %s" % (group_runs, lane_runs))
        # Every invocation loads its operands before the branch, so the ones that skip it hold the host's
        # poison (a value no executing invocation holds) in their Data / Current / Next / Previous: a device
        # that reads a non-executing invocation shows it.
        a = f.load_components(f.arg("a"), comp, n, align)
        operands = [a]
        if two:
            operands.append(f.load_components(f.arg("b"), comp, n, align))
        then_label, merge_label = m.new(), m.new()
        f.lines.append("OpSelectionMerge %s None" % merge_label)
        f.lines.append("OpBranchConditional %s %s %s" % (cond, then_label, merge_label))
        f.lines.append(f.label(then_label))
        if kernel == "test":
            index = f.load(f.arg("index"), "uint", f.builtin("gid_var"), 4)
        else:
            index = m.const("uint", const_index)
        result = f.op(vkey, "%s %s %s" % (opname, " ".join(operands), index))
        f.store_components(f.arg("out"), comp, n, result, align)
        f.lines.append("OpBranch %s" % merge_label)
        f.lines.append(f.label(merge_label))
        f.finish()
    return m.text()


def shuffle_patterns(op, sg):
    """(level name, params) per index pattern. const: an OpConstant index in the test_const kernel."""
    kind = SHUFFLE_OPS[op][1]
    s = sg
    if op == "shuffle":
        return [("index_const", {"pattern": "const", "index": s - 1}),
                ("index_0", {"pattern": "uniform", "index": 0}),
                ("index_smax_minus_1", {"pattern": "uniform", "index": s - 1}),
                ("index_varying", {"pattern": "varying", "index_range": s + s // 4})]
    if op in ("shuffle_down", "shuffle_up"):
        return [("delta_const", {"pattern": "const", "index": s // 2 + 1}),
                ("delta_0", {"pattern": "uniform", "index": 0}),
                ("delta_smax_minus_1", {"pattern": "uniform", "index": s - 1}),
                ("delta_smax", {"pattern": "uniform", "index": s}),
                ("delta_2smax_minus_1", {"pattern": "uniform", "index": 2 * s - 1}),
                ("delta_varying", {"pattern": "varying", "index_range": 2 * s + 2})]
    assert kind == "value"
    return [("value_const", {"pattern": "const", "index": s // 2 + 1}),
            ("value_all_masks", {"pattern": "all_masks"}),
            ("value_varying", {"pattern": "varying", "index_range": s + s // 4})]


def shapes(sg):
    """Work-group shapes: (level name, local size, work-groups)."""
    return [("wg_one", sg, 4), ("wg_several", 3 * sg, 3), ("wg_partial", 2 * sg + 3, 3)]


# (level name, exec_period, lane mask: "all" or "seeded" = a per-case random subset of lanes, lane 0 included)
CONTROL_FLOW = [("cf_all", 1, "all"), ("cf_some_groups", 2, "all"), ("cf_some_lanes", 1, "seeded")]

def shuffle_requires(type_name, sg):
    spirv = "spirv=1.2"  # every module is SPIR-V 1.2 (Module.version)
    req = ["ext=cl_intel_spirv_subgroups", spirv, "sg_size=%d" % sg]
    bits, kind = TYPES[type_name]
    if bits == 8:
        req.append("ext=cl_intel_subgroups_char")
    if bits == 16:
        req.append("ext=cl_intel_subgroups_short")
    if type_name == "f16":
        req.append("fp16")
    if type_name == "i64":
        req.append("int64")
    if type_name == "f64":
        req.append("fp64")
    return req


def shuffle_regression(op, type_name, n, sg, pname, cf):
    """Whether docs/known_driver_bugs.md names the case (tag regression)."""
    # An indexed float/double shuffle inside a branch that only some work-groups take.
    if op == "shuffle" and type_name in ("f32", "f64") and n == 1 and cf == "cf_some_groups":
        return True
    # A 32-wide float shuffle whose source lanes lie above 15.
    return (op == "shuffle" and type_name == "f32" and n == 1 and sg == 32 and cf == "cf_all"
            and pname in ("index_smax_minus_1", "index_varying"))


def generate_shuffles(emit):
    for op in SHUFFLE_OPS:
        for type_name, widths in SHUFFLE_WIDTHS.items():
            for n in widths:
                for sg in SUB_GROUP_SIZES:
                    patterns = shuffle_patterns(op, sg)
                    const_index = [p for _, p in patterns if p["pattern"] == "const"][0]["index"]
                    module = emit.module("subgroups/%s_%s_v%d_sg%d" % (op, type_name, n, sg),
                                         shuffle_module(op, type_name, n, sg, const_index))
                    for pname, pparams in patterns:
                        for shape, local, groups in shapes(sg):
                            for cf, period, lanes in CONTROL_FLOW:
                                if pparams["pattern"] == "all_masks":
                                    # enough sub-groups that every mask 0..S-1 is used
                                    per_group = -(-local // sg)
                                    groups = max(groups, -(-sg // per_group))
                                params = dict(pparams, op=op, type=type_name, width=n, sg=sg, local=local,
                                              groups=groups, exec_period=period, lane_mask=lanes)
                                quick = (sg == 16 and n in (1, 4) and shape != "wg_one"
                                         and cf != "cf_some_lanes"
                                         and pparams["pattern"] in ("const", "varying"))
                                name = "subgroups.%s.%s.v%d.sg%d.%s.%s.%s" % (op, type_name, n, sg, pname,
                                                                              shape, cf)
                                tags = ["quick"] if quick else []
                                if shuffle_regression(op, type_name, n, sg, pname, cf):
                                    tags.append("regression")
                                emit.case(name, "subgroups.shuffle", module,
                                          "test_const" if pparams["pattern"] == "const" else "test",
                                          params=params, requires=shuffle_requires(type_name, sg), tags=tags,
                                          tier=tier(SHUFFLE_CORE, type_name, n))


# ----------------------------------------------------------------------------------------------------------
# Buffer block IO

class BlockKernel:
    """What block_module and local_block_module share: the data's integer component type, the instruction, the
    module and the kernel's arguments (out, info, src, offset, stride), and the block read or write itself."""

    def __init__(self, write, type_name, n, sg, where=""):
        bits = BLOCK_BITS[type_name]
        self.write = write
        self.n = n
        self.comp = "int%d" % bits
        self.align = bits // 8
        self.opname = "OpSubgroupBlockWriteINTEL" if write else "OpSubgroupBlockReadINTEL"
        self.m = Module(sg, ["SubgroupBufferBlockIOINTEL"],
                        "%s of %s x %d%s, SubgroupSize %d" % (self.opname, type_name, n, where, sg))
        ptr = "p_CrossWorkgroup_" + self.comp
        self.params = [("out", ptr), ("info", "p_CrossWorkgroup_uint"), ("src", ptr), ("offset", "uint"),
                       ("stride", "uint")]

    def access(self, f, pointer):
        """A write block-writes src's per-lane components at pointer(); a read block-reads at pointer() and
        stores each lane's components to out. pointer is called after a write's loads, so its ids follow them."""
        if self.write:
            data = f.load_components(f.arg("src"), self.comp, self.n, self.align)
            f.lines.append("%s %s %s" % (self.opname, pointer(), data))
        else:
            value = f.op(value_key(self.comp, self.n), "%s %s" % (self.opname, pointer()))
            f.store_components(f.arg("out"), self.comp, self.n, value, self.align)


def block_module(write, type_name, n, sg):
    k = BlockKernel(write, type_name, n, sg)
    f = Function(k.m, "test", k.params)
    f.write_info()
    # Block b = WorkgroupId * NumSubgroups + SubgroupId starts at element offset + b * stride.
    elem = f.linear(f.block_index(), f.to_ulong(f.arg("stride")), f.to_ulong(f.arg("offset")))
    k.access(f, lambda: f.element_ptr(f.arg("out" if write else "src"), k.comp, elem))
    f.finish()
    return k.m.text()


def stride_bytes(sg, n, bits):
    """The family's block stride (block_io_family.cpp): the block, a gap of at least 16 bytes, 16-byte steps."""
    return (sg * n * bits // 8 + 16 + 15) // 16 * 16


def copy_loop(f, lo, hi, step, body):
    """for (k = lo; k < hi; k += step) body(k), all ulong ids; a structured loop whose body is its continue
    target."""
    m = f.m
    pre = f.current_label
    head, loop, end = m.new(), m.new(), m.new()
    k, k_next = m.new(), m.new()
    f.lines.append("OpBranch %s" % head)
    f.lines.append(f.label(head))
    f.lines.append("%s = OpPhi %s %s %s %s %s" % (k, m.type("ulong"), lo, pre, k_next, loop))
    more = f.op("bool", "OpULessThan %s %s" % (k, hi))
    f.lines.append("OpLoopMerge %s %s None" % (end, loop))
    f.lines.append("OpBranchConditional %s %s %s" % (more, loop, end))
    f.lines.append(f.label(loop))
    body(k)
    f.lines.append("%s = OpIAdd %s %s %s" % (k_next, m.type("ulong"), k, step))
    f.lines.append("OpBranch %s" % head)
    f.lines.append(f.label(end))


def local_block_module(write, type_name, n, sg, tile_bytes):
    """Block IO on a Workgroup (local memory) Ptr (cl_intel_subgroup_local_block_io). The same arguments and
    global layout as block_module: work-group g's window of the global buffer, elements
    [g * NumSubgroups * stride, + offset + NumSubgroups * stride), is mirrored in the local tile, so sub-group s
    of g block-reads / block-writes the tile at offset + s * stride, the global block of the buffer case. A read
    copies the window into the tile, barrier, block read, per-lane store; a write copies the window into the
    tile (untouched elements keep the buffer's bytes), barrier, block write, barrier, copies [offset, end) back.
    The copies use work-item SubgroupId * SubgroupMaxSize + SubgroupLocalInvocationId (work-groups of whole
    sub-groups, as block IO needs), so no work-item to sub-group mapping is assumed."""
    k = BlockKernel(write, type_name, n, sg, " on a Workgroup pointer")
    m, comp, align = k.m, k.comp, k.align
    # The tile: an array of 16-byte vectors, so it is 16-byte aligned as "The pointer Ptr must be 128-bit
    # (16-byte) aligned for both reads and writes" (cl_intel_subgroup_local_block_io) needs.
    v4 = m.type("v4uint")
    length = m.const("uint", (tile_bytes + 15) // 16)
    m.late_types.append("%%tile_arr = OpTypeArray %s %s" % (v4, length))
    m.late_types.append("%ptr_Workgroup_tile_arr = OpTypePointer Workgroup %tile_arr")
    m.variables.append("%tile = OpVariable %ptr_Workgroup_tile_arr Workgroup")
    f = Function(m, "test", k.params)
    f.write_info()
    nsg = f.to_ulong(f.builtin("nsg_var"))
    sgid = f.to_ulong(f.builtin("sgid_var"))
    sgmax = f.to_ulong(f.builtin("sgmax_var"))
    stride = f.to_ulong(f.arg("stride"))
    offset = f.to_ulong(f.arg("offset"))
    group_stride = f.op("ulong", "OpIMul %s %s" % (nsg, stride))
    window = f.op("ulong", "OpIMul %s %s" % (f.builtin("wgid_var"), group_stride))
    end = f.op("ulong", "OpIAdd %s %s" % (offset, group_stride))
    first = f.linear(sgid, sgmax, f.to_ulong(f.builtin("sglid_var")))
    step = f.op("ulong", "OpIMul %s %s" % (nsg, sgmax))
    p_local = "p_Workgroup_" + comp
    tile = f.op(p_local, "OpBitcast %tile")
    glob = f.arg("out") if write else f.arg("src")

    def tile_at(k):
        return f.op(p_local, "OpInBoundsPtrAccessChain %s %s" % (tile, k))

    def copy_in(k):
        value = f.load(glob, comp, f.op("ulong", "OpIAdd %s %s" % (window, k)), align)
        f.lines.append("OpStore %s %s Aligned %d" % (tile_at(k), value, align))

    def copy_out(k):
        value = f.op(comp, "OpLoad %s Aligned %d" % (tile_at(k), align))
        f.store(glob, comp, f.op("ulong", "OpIAdd %s %s" % (window, k)), value, align)

    barrier = "OpControlBarrier %s %s %s" % (m.const("uint", 2), m.const("uint", 2), m.const("uint", 0x110))
    copy_loop(f, f.op("ulong", "OpIAdd %s %s" % (first, offset)) if write else first, end, step, copy_in)
    f.lines.append(barrier)  # Workgroup scope, WorkgroupMemory | SequentiallyConsistent
    p = tile_at(f.linear(sgid, stride, offset))
    k.access(f, lambda: p)
    if write:
        f.lines.append(barrier)
        copy_loop(f, f.op("ulong", "OpIAdd %s %s" % (first, offset)), end, step, copy_out)
    f.finish()
    return m.text()


def block_requires(type_name, n, sg):
    req = ["ext=cl_intel_spirv_subgroups", "spirv=1.2", "sg_size=%d" % sg]
    bits = BLOCK_BITS[type_name]
    if bits == 8:
        req.append("ext=cl_intel_subgroups_char")
    if bits == 16:
        # 16 components (OpenCL C's intel_sub_group_block_read_us16) are beyond the environment's promise: the
        # tier (device_specific) says so, not an extension version no runtime reports.
        req.append("ext=cl_intel_subgroups_short")
    if bits == 64:
        req += ["ext=cl_intel_subgroups_long", "int64"]
    return req


def generate_buffer_block_io(emit):
    for write in (False, True):
        op = "block_write" if write else "block_read"
        for type_name, widths in BUFFER_BLOCK_WIDTHS.items():
            elem = BLOCK_BITS[type_name] // 8
            for n in widths:
                for sg in SUB_GROUP_SIZES:
                    module = emit.module("subgroups/%s_%s_v%d_sg%d" % (op, type_name, n, sg),
                                         block_module(write, type_name, n, sg))
                    # Ptr alignment the environment requires: 4 bytes (reads), 16 bytes (writes).
                    # The smallest legal step and odd multiples of it (48 = 3 x 16; reads 3 x 4, or 3 x 8 for
                    # 64-bit data), so a device rounding Ptr down to a coarser alignment fails.
                    step = 16 if write else max(4, elem)
                    offsets = [0, 16, 48] if write else [0, step, 3 * step, 48]
                    for offset in offsets:
                        shapes_here = (("wg_one", sg, 3), ("wg_several", 4 * sg, 2))
                        if offset == 3 * step and not write:
                            shapes_here = shapes_here[1:]
                        for shape, local, groups in shapes_here:
                            params = {"op": op, "type": type_name, "width": n, "sg": sg,
                                      "offset_bytes": offset, "local": local, "groups": groups}
                            quick = sg == 16 and offset != 0 and shape == "wg_several" and n in (1, 4)
                            name = "subgroups.%s.%s.v%d.sg%d.offset_%db.%s" % (op, type_name, n, sg, offset,
                                                                                shape)
                            emit.case(name, "subgroups.block_io", module, "test", params=params,
                                      requires=block_requires(type_name, n, sg),
                                      tags=["quick"] if quick else [], tier=tier(BLOCK_CORE, type_name, n))


# Local-memory block IO (docs/subgroups.md, "Local-memory block IO"): subgroups.local_block_<read|write>.
# <type>.v<n>.sg<S>.offset_<bytes>b.<shape>, Ptr in Workgroup storage (cl_intel_subgroup_local_block_io:
# "Additionally, if the OpenCL environment supports the extension cl_intel_subgroup_local_block_io, for Ptr
# valid Storage Classes are: Workgroup"), all device_specific (beyond 7.1.X.2's CrossWorkgroup).
# Every (type, n) at size 16 with 4 sub-groups per work-group, and the widest of each type at the other sizes.
# Offsets within the tile: the 16-byte alignment the extension requires for reads and writes, at its smallest
# step and an odd multiple of it (0, 16, 48), as the buffer writes.
LOCAL_OFFSETS = (0, 16, 48)
LOCAL_OTHER_SIZES = ((16, "wg_several"), (48, "wg_one"))
LOCAL_WIDEST = (("u8", 16), ("u16", 8), ("u32", 4), ("u64", 2))


def generate_local_block_io(emit):
    sweep = [(t, n, 16, off, "wg_several") for t, widths in BUFFER_BLOCK_WIDTHS.items() for n in widths
             for off in LOCAL_OFFSETS]
    sweep += [(t, n, sg, off, shape) for t, n in LOCAL_WIDEST for sg in SUB_GROUP_SIZES if sg != 16
              for off, shape in LOCAL_OTHER_SIZES]
    for write in (False, True):
        op = "block_write" if write else "block_read"
        for type_name, n, sg, offset, shape in sweep:
            bits = BLOCK_BITS[type_name]
            tile_bytes = max(LOCAL_OFFSETS) + 4 * stride_bytes(sg, n, bits)  # wg_several: 4 sub-groups
            module = emit.module("subgroups/local_%s_%s_v%d_sg%d" % (op, type_name, n, sg),
                                 local_block_module(write, type_name, n, sg, tile_bytes))
            local, groups = (4 * sg, 2) if shape == "wg_several" else (sg, 3)
            params = {"op": op, "type": type_name, "width": n, "sg": sg, "offset_bytes": offset, "local": local,
                      "groups": groups, "storage": "workgroup", "tile_bytes": tile_bytes}
            quick = sg == 16 and offset == 16 and type_name == "u32" and n == 4
            emit.case("subgroups.local_%s.%s.v%d.sg%d.offset_%db.%s" % (op, type_name, n, sg, offset, shape),
                      "subgroups.block_io", module, "test", params=params,
                      requires=block_requires(type_name, n, sg) + ["ext=cl_intel_subgroup_local_block_io"],
                      tags=["quick"] if quick else [], tier="device_specific")


# Memory objects other than a plain buffer (docs/subgroups.md, "Memory objects"): the block IO kernels on a
# sub-buffer whose origin is the smallest legal one (CL_DEVICE_MEM_BASE_ADDR_ALIGN), a CL_MEM_USE_HOST_PTR
# buffer (results checked in the host memory after a map), and coarse-grain SVM (clSVMAlloc).
MEMORY_KINDS = ("sub_buffer_min_origin", "use_host_ptr", "svm_coarse")
MEMORY_SHAPES = ((False, "u32", 4, 4), (False, "u16", 2, 12), (True, "u32", 4, 16), (True, "u16", 8, 48))


def generate_block_io_memory(emit):
    sg = 16
    for write, type_name, n, offset in MEMORY_SHAPES:
        op = "block_write" if write else "block_read"
        module = emit.module("subgroups/%s_%s_v%d_sg%d" % (op, type_name, n, sg), block_module(write, type_name, n, sg))
        for kind in MEMORY_KINDS:
            params = {"op": op, "type": type_name, "width": n, "sg": sg, "offset_bytes": offset, "local": 4 * sg,
                      "groups": 2, "memory": kind}
            requires = block_requires(type_name, n, sg)  # SVM support: a device query in the family
            emit.case("subgroups.memory.%s.%s.%s.v%d.sg%d.offset_%db" % (kind, op, type_name, n, sg, offset),
                      "subgroups.block_io", module, "test", params=params, requires=requires,
                      tier=tier(BLOCK_CORE, type_name, n))


# ----------------------------------------------------------------------------------------------------------
# Image block IO

def image_module(write, type_name, n, sg):
    bits = BLOCK_BITS[type_name]
    comp = "int%d" % bits
    vkey = value_key(comp, n)
    align = bits // 8
    opname = "OpSubgroupImageBlockWriteINTEL" if write else "OpSubgroupImageBlockReadINTEL"
    m = Module(sg, ["SubgroupImageBlockIOINTEL"],
               "%s of %s x %d, SubgroupSize %d" % (opname, type_name, n, sg))
    ptr = "p_CrossWorkgroup_" + comp
    params = [("image", "image_wo" if write else "image_ro"), ("info", "p_CrossWorkgroup_uint"),
              ("data", ptr), ("coords", "p_CrossWorkgroup_uint")]
    f = Function(m, "test", params)
    f.write_info()
    # Coordinate of block b = WorkgroupId * NumSubgroups + SubgroupId: coords[2b], coords[2b + 1].
    b2 = f.op("ulong", "OpIMul %s %s" % (f.block_index(), m.const("ulong", 2)))
    x = f.load(f.arg("coords"), "uint", b2, 4)
    y = f.load(f.arg("coords"), "uint", f.op("ulong", "OpIAdd %s %s" % (b2, m.const("ulong", 1))), 4)
    coord = f.op("v2uint", "OpCompositeConstruct %s %s" % (x, y))
    if write:
        data = f.load_components(f.arg("data"), comp, n, align)
        f.lines.append("%s %s %s %s" % (opname, f.arg("image"), coord, data))
    else:
        value = f.op(vkey, "%s %s %s" % (opname, f.arg("image"), coord))
        f.store_components(f.arg("data"), comp, n, value, align)
    f.finish()
    return m.text()


def generate_image_block_io(emit):
    for write in (False, True):
        op = "image_block_write" if write else "image_block_read"
        for type_name, widths in IMAGE_BLOCK_WIDTHS.items():
            for n in widths:
                for sg in SUB_GROUP_SIZES:
                    module = emit.module("subgroups/%s_%s_v%d_sg%d" % (op, type_name, n, sg),
                                         image_module(write, type_name, n, sg))
                    req = block_requires(type_name, n, sg) + ["images"]
                    for fmt, (order, ctype, texel) in IMAGE_FORMATS.items():
                        sizes = ("size_tight", "size_wide") if fmt == "r32ui" else ("size_tight",)
                        coords = COORDS_4BYTE if texel == 4 else COORDS_SMALL
                        for size in sizes:
                            for coord in coords:
                                params = {"op": op, "type": type_name, "width": n, "sg": sg, "format": fmt,
                                          "size": size, "coords": coord, "local": 2 * sg, "groups": 2}
                                quick = (sg == 16 and n == widths[0] and fmt == "r32ui"
                                         and size == "size_tight" and coord in ("interior", "beyond_right"))
                                name = "subgroups.%s.%s.v%d.sg%d.%s.%s.%s" % (op, type_name, n, sg, fmt, size,
                                                                              coord)
                                emit.case(name, "subgroups.image_block_io", module, "test", params=params,
                                          requires=req + ["image_format=%s/%s" % (order, ctype)],
                                          tags=["quick"] if quick else [], tier=tier(BLOCK_CORE, type_name, n))


def generate_image_formats(emit):
    """Block IO moves raw bits whatever the image format ("the image data is read without format
    conversion"): u32 x 2 at sub-group size 16 on every format (texels of 1 to 16 bytes), in the interior, on
    a plain image and, for one format per texel size, on an image created from a buffer
    (cl_khr_image2d_from_buffer). The family fills images and data with channel values a conversion would
    change (docs/subgroups.md, "Image formats")."""
    for write in (False, True):
        op = "image_block_write" if write else "image_block_read"
        module = emit.module("subgroups/%s_u32_v2_sg16" % op, image_module(write, "u32", 2, 16))
        for fmt, (order, ctype, texel) in spvgen.IMAGE_FORMATS.items():
            req = block_requires("u32", 2, 16) + ["images", "image_format=%s/%s" % (order, ctype)]
            backings = ("image", "buffer") if fmt in spvgen.FROM_BUFFER_FORMATS else ("image",)
            for backing in backings:
                params = {"op": op, "type": "u32", "width": 2, "sg": 16, "format": fmt, "size": "size_tight",
                          "coords": "interior", "local": 32, "groups": 2, "backing": backing}
                emit.case("subgroups.%s.u32.v2.sg16.%s.%s.bits" % (op, fmt, backing), "subgroups.image_block_io",
                          module, "test", params=params, requires=req, tier=tier(BLOCK_CORE, "u32", 2))


def generate(emit):
    generate_shuffles(emit)
    generate_buffer_block_io(emit)
    generate_block_io_memory(emit)
    generate_local_block_io(emit)
    generate_image_block_io(emit)
    generate_image_formats(emit)
    generate_scale(emit)


# ----------------------------------------------------------------------------------------------------------
# Scale (docs/subgroups.md, "Scale"): subgroups.scale.<the usual levels>, with the shape level groups_1024
# (1024 work-groups of several sub-groups; every work-item's data is seed-random, so a sub-group that reads
# another's data fails) or the image size level size_max_width / size_max_height (CL_DEVICE_IMAGE2D_MAX_WIDTH
# texels wide or MAX_HEIGHT rows high, blocks at the far edges).

SCALE_GROUPS = 1024


def generate_scale(emit):
    for op, type_name, n, sg, (pname, pparams) in (
            ("shuffle_down", "i32", 2, 16, ("delta_varying", {"pattern": "varying", "index_range": 34})),
            ("shuffle_xor", "f32", 1, 32, ("value_varying", {"pattern": "varying", "index_range": 40})),
            ("shuffle", "i16", 4, 8, ("index_varying", {"pattern": "varying", "index_range": 10}))):
        assert dict(shuffle_patterns(op, sg))[pname] == pparams  # the same pattern as the sweep's
        const_index = [p for _, p in shuffle_patterns(op, sg) if p["pattern"] == "const"][0]["index"]
        module = emit.module("subgroups/%s_%s_v%d_sg%d" % (op, type_name, n, sg),
                             shuffle_module(op, type_name, n, sg, const_index))
        params = dict(pparams, op=op, type=type_name, width=n, sg=sg, local=3 * sg, groups=SCALE_GROUPS,
                      exec_period=1, lane_mask="all")
        emit.case("subgroups.scale.%s.%s.v%d.sg%d.%s.groups_1024.cf_all" % (op, type_name, n, sg, pname),
                  "subgroups.shuffle", module, "test", params=params, requires=shuffle_requires(type_name, sg),
                  tier=tier(SHUFFLE_CORE, type_name, n))
    for write, type_name, n, sg in ((False, "u32", 4, 16), (True, "u16", 8, 32), (True, "u8", 16, 8)):
        op = "block_write" if write else "block_read"
        module = emit.module("subgroups/%s_%s_v%d_sg%d" % (op, type_name, n, sg),
                             block_module(write, type_name, n, sg))
        params = {"op": op, "type": type_name, "width": n, "sg": sg, "offset_bytes": 16, "local": 4 * sg,
                  "groups": SCALE_GROUPS}
        emit.case("subgroups.scale.%s.%s.v%d.sg%d.offset_16b.groups_1024" % (op, type_name, n, sg),
                  "subgroups.block_io", module, "test", params=params, requires=block_requires(type_name, n, sg),
                  tier=tier(BLOCK_CORE, type_name, n))
    order, ctype, _ = IMAGE_FORMATS["r32ui"]
    for write in (False, True):
        op = "image_block_write" if write else "image_block_read"
        module = emit.module("subgroups/%s_u32_v4_sg16" % op, image_module(write, "u32", 4, 16))
        req = block_requires("u32", 4, 16) + ["images", "image_format=%s/%s" % (order, ctype)]
        for size, coords in (("size_max_width", ("right_edge", "beyond_right")),
                             ("size_max_height", ("bottom_edge", "beyond_bottom"))):
            for coord in coords:
                params = {"op": op, "type": "u32", "width": 4, "sg": 16, "format": "r32ui", "size": size,
                          "coords": coord, "local": 32, "groups": 2}
                emit.case("subgroups.scale.%s.u32.v4.sg16.r32ui.%s.%s" % (op, size, coord),
                          "subgroups.image_block_io", module, "test", params=params, requires=req,
                          tier=tier(BLOCK_CORE, "u32", 4))
