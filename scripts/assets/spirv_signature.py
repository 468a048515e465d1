"""Kernel signatures read from a SPIR-V binary (Python standard library only).

The asset build writes each module's signatures into the manifest's module table; the runner reads the same
from the module when it loads it (test_common/spirv/kernel_signature.cpp) and refuses a disagreement. Both
name an argument by the OpName of its OpFunctionParameter and its type by these words:

    global_buffer, local_buffer, constant_buffer, generic_pointer   pointers by storage class
    uchar, ushort, uint, ulong (char, short, int, long if signed)   integers
    half, float, double, bool                                        other scalars
    <scalar><N>                                                      vectors (uint2)
    image<1d|2d|3d|1d_buffer>[_array]_<ro|wo|rw>, sampler           images and samplers
    other                                                            anything else
"""

import struct

OP_NAME, OP_ENTRY_POINT = 5, 15
OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR = 20, 21, 22, 23
OP_TYPE_IMAGE, OP_TYPE_SAMPLER, OP_TYPE_POINTER = 25, 26, 32
OP_FUNCTION, OP_FUNCTION_PARAMETER, OP_FUNCTION_END = 54, 55, 56
EXECUTION_MODEL_KERNEL = 6
POINTER_TYPES = {5: "global_buffer", 4: "local_buffer", 0: "constant_buffer", 8: "generic_pointer"}
INT_TYPES = {8: "char", 16: "short", 32: "int", 64: "long"}
FLOAT_TYPES = {16: "half", 32: "float", 64: "double"}
IMAGE_DIMS = {0: "1d", 1: "2d", 2: "3d", 5: "1d_buffer"}
IMAGE_ACCESS = {0: "ro", 1: "wo", 2: "rw"}


class SignatureError(Exception):
    pass


def _string(words):
    data = struct.pack("<%dI" % len(words), *words)
    end = data.find(b"\0")
    if end < 0:
        raise SignatureError("literal string without terminator")
    return data[:end].decode("utf-8", "replace")


def instructions(data):
    """(opcode, operand words) of each instruction of a little-endian SPIR-V binary."""
    if len(data) % 4 or len(data) < 20:
        raise SignatureError("not a SPIR-V binary (%d bytes)" % len(data))
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    if words[0] != 0x07230203:
        raise SignatureError("not a SPIR-V binary (magic 0x%08x)" % words[0])
    at = 5
    while at < len(words):
        count, opcode = words[at] >> 16, words[at] & 0xFFFF
        if count == 0 or at + count > len(words):
            raise SignatureError("truncated instruction at word %d" % at)
        yield opcode, words[at + 1:at + count]
        at += count


def type_name(types, type_id):
    t = types.get(type_id)
    if t is None:
        return "other"
    op, w = t
    if op == OP_TYPE_POINTER:
        return POINTER_TYPES.get(w[1], "pointer")
    if op == OP_TYPE_INT:
        name = INT_TYPES.get(w[1], "other")
        return name if w[2] or name == "other" else "u" + name
    if op == OP_TYPE_FLOAT:
        return FLOAT_TYPES.get(w[1], "other")
    if op == OP_TYPE_BOOL:
        return "bool"
    if op == OP_TYPE_VECTOR:
        return "%s%d" % (type_name(types, w[1]), w[2])
    if op == OP_TYPE_IMAGE:
        if w[2] not in IMAGE_DIMS or len(w) < 9 or w[8] not in IMAGE_ACCESS:
            return "other"
        return "image%s%s_%s" % (IMAGE_DIMS[w[2]], "_array" if w[4] else "", IMAGE_ACCESS[w[8]])
    if op == OP_TYPE_SAMPLER:
        return "sampler"
    return "other"


def module_signatures(data):
    """{kernel name: [[argument name, type], ...]} for every OpEntryPoint Kernel of the binary `data`. An
    argument without an OpName has the name ""."""
    names, kernels, types, params, current = {}, {}, {}, {}, None
    for op, w in instructions(data):
        if op == OP_NAME:
            names.setdefault(w[0], _string(w[1:]))
        elif op == OP_ENTRY_POINT and w[0] == EXECUTION_MODEL_KERNEL:
            kernels[w[1]] = _string(w[2:])
        elif op in (OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_IMAGE, OP_TYPE_SAMPLER,
                    OP_TYPE_POINTER):
            types[w[0]] = (op, w)
        elif op == OP_FUNCTION:
            current = w[1]
            params[current] = []
        elif op == OP_FUNCTION_PARAMETER and current is not None:
            params[current].append((w[1], w[0]))
        elif op == OP_FUNCTION_END:
            current = None
    result = {}
    for fn, kernel in kernels.items():
        result[kernel] = [[names.get(pid, ""), type_name(types, tid)] for pid, tid in params.get(fn, [])]
    return result


def unnamed_arguments(signatures):
    """["kernel K argument N", ...] for each argument without an OpName: host code binds arguments by name."""
    return ["kernel %s argument %d" % (k, i) for k, args in sorted(signatures.items())
            for i, (name, _) in enumerate(args) if not name]
