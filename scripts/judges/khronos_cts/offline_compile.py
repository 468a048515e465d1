#!/usr/bin/env python3
"""The Khronos OpenCL CTS's offline compiler for the reference device: OpenCL C to SPIR-V with clang-15 and
llvm-spirv-15 (Debian 12's), called by a CTS binary run with
`--compilation-mode spir-v --compilation-program THIS_SCRIPT` (the CTS's cl_offline_compiler interface:
--source, --output, --cl-device-info, --mode, then `--` and the program's build options).

The device-info file says what the device reports; a device without cl_khr_fp64 or images compiles with those
features off, so a kernel's `#ifdef cl_khr_fp64` (and `__IMAGE_SUPPORT__`) sees what the device says; it
optimizes (-O2) unless the build options say -cl-opt-disable, as a driver's compiler does. Build options clang does not take
(Intel's -cl-intel-*, -cl-no-subgroup-ifp) are dropped with a note on stderr; the rest go to clang as given.
One defect of llvm-spirv-15 is mended on the words: an OpVariable it leaves after other instructions of a
function's first block is moved to the block's start (docs/known_driver_bugs.md).
Exit status: 0 when the SPIR-V file was written, 1 when a tool failed (its messages on stderr), 2 for a usage
error. Standard library only.
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
# OpenCL C's values for out-of-range work-item dimensions, which llvm-spirv-15 leaves undefined; the reference
# device includes the same file before every OpenCL C program it compiles.
PRELUDE = os.path.join(ROOT, "reference_device", "icd", "opencl_c_prelude.h")
CLANG = os.environ.get("KHRONOS_CTS_CLANG", "clang-15")
LLVM_SPIRV = os.environ.get("KHRONOS_CTS_LLVM_SPIRV", "llvm-spirv-15")
# Options of a program build that clang-15 does not know: the device takes them, the compiler cannot.
DROPPED = re.compile(r"^-cl-(intel-.*|no-subgroup-ifp)$")


def usage(message):
    print("offline_compile: %s" % message, file=sys.stderr)
    print("usage: offline_compile.py --source FILE --output FILE --cl-device-info FILE --mode spir-v "
          "[-- BUILD_OPTIONS...]", file=sys.stderr)
    sys.exit(2)


def parse(argv):
    known = {"--source": None, "--output": None, "--cl-device-info": None, "--mode": None}
    options = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            options = argv[i + 1:]
            break
        name, eq, value = arg.partition("=")
        if name not in known:
            usage("unknown argument %r" % arg)
        if not eq:
            i += 1
            if i == len(argv):
                usage("%s needs a value" % name)
            value = argv[i]
        known[name] = value
        i += 1
    for name, value in known.items():
        if value is None:
            usage("%s is missing" % name)
    if known["--mode"] != "spir-v":
        usage("mode %r: only spir-v is supported (the reference device takes no binaries)" % known["--mode"])
    return known, options


def device_info(path):
    info = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                key, eq, value = line.strip().partition("=")
                if eq and not key.startswith("#"):
                    info[key] = value.strip('"')
    except OSError as e:
        usage("cannot read the device-info file %s: %s" % (path, e.strerror))
    return info


def clang_options(info, options):
    extensions = info.get("CL_DEVICE_EXTENSIONS", "").split()
    off = []
    if "cl_khr_fp64" not in extensions:
        off += ["-cl_khr_fp64", "-__opencl_c_fp64"]
    if info.get("CL_DEVICE_IMAGE_SUPPORT", "0") != "1":
        off += ["-__opencl_c_images", "-__opencl_c_read_write_images", "-__opencl_c_3d_image_writes",
                "-cl_khr_3d_image_writes"]
    # clang-15 defines __IMAGE_SUPPORT__ for every SPIR target, whatever the features say.
    # clang-15's full header declares image built-ins without their feature guard: without images the built-ins
    # come from clang's own table (-fdeclare-opencl-builtins).
    kept = [] if info.get("CL_DEVICE_IMAGE_SUPPORT", "0") == "1" else [
        "-U__IMAGE_SUPPORT__", "-Xclang", "-fdeclare-opencl-builtins"]
    for option in options:
        if DROPPED.match(option):
            print("offline_compile: dropped %s (clang-15 does not take it)" % option, file=sys.stderr)
        else:
            kept.append(option)
    # As a driver's online compiler: optimized unless the program asks -cl-opt-disable (clang-15 at -O0 also
    # leaves Function variables after the first block's start, which spirv-val refuses).
    level = [] if "-cl-opt-disable" in kept else ["-O2"]
    return (["-Xclang", "-cl-ext=" + ",".join(off)] if off else []) + level + kept


OP_FUNCTION, OP_FUNCTION_END, OP_LABEL, OP_VARIABLE = 54, 56, 248, 59
# Block terminators: OpBranch, OpBranchConditional, OpSwitch, OpKill, OpReturn, OpReturnValue, OpUnreachable.
TERMINATORS = {249, 250, 251, 252, 253, 254, 255}


def hoist_function_variables(words):
    """llvm-spirv-15 can emit an OpVariable after other instructions of a function's first block (a bitcast
    of a parameter first), which SPIR-V forbids and the CTS's spirv-val refuses. Moves each such OpVariable to
    the start of the block, keeping their order; an OpVariable depends on nothing the block computes (its
    initializer, if any, is a constant or a module-scope variable). Returns the words, changed or not."""
    if len(words) < 5 or words[0] != 0x07230203:
        return words
    out, pos = list(words[:5]), 5
    first_label_next = False  # inside a function that has no OpLabel yet
    block = None  # the instructions of a function's first block, while it is read
    while pos < len(words):
        count, op = words[pos] >> 16, words[pos] & 0xFFFF
        if count == 0 or pos + count > len(words):
            return words  # malformed: left to the validator
        insn = words[pos:pos + count]
        pos += count
        if op == OP_FUNCTION:
            first_label_next = True
        elif op == OP_LABEL and first_label_next:
            first_label_next = False
            block = []
        if block is None:
            out.extend(insn)
            continue
        block.append(insn)
        if op in TERMINATORS:
            label, rest = block[0], block[1:]
            ordered = [i for i in rest if i[0] & 0xFFFF == OP_VARIABLE] + \
                [i for i in rest if i[0] & 0xFFFF != OP_VARIABLE]
            for i in [label] + ordered:
                out.extend(i)
            block = None
    return words if block is not None else out


def main(argv):
    args, options = parse(argv)
    for tool in (CLANG, LLVM_SPIRV):
        if shutil.which(tool) is None:
            print("offline_compile: %s not found (apt-get install clang-15 llvm-spirv-15)" % tool,
                  file=sys.stderr)
            return 1
    info = device_info(args["--cl-device-info"])
    bits = "64" if info.get("CL_DEVICE_ADDRESS_BITS", "64") == "64" else ""
    with tempfile.TemporaryDirectory(prefix="khronos_cts_") as tmp:
        bitcode = os.path.join(tmp, "kernel.bc")
        clang = [CLANG, "-x", "cl", "-target", "spir%s-unknown-unknown" % bits, "-c", "-emit-llvm",
                 "-Xclang", "-finclude-default-header", "-Xclang", "-no-opaque-pointers", "-include", PRELUDE,
                 "-o", bitcode] + clang_options(info, options) + [args["--source"]]
        if subprocess.run(clang).returncode != 0:
            print("offline_compile: failed: %s" % " ".join(clang), file=sys.stderr)
            return 1
        spirv = os.path.join(tmp, "kernel.spv")
        translate = [LLVM_SPIRV, "--spirv-max-version=1.3", bitcode, "-o", spirv]
        if subprocess.run(translate).returncode != 0:
            print("offline_compile: failed: %s" % " ".join(translate), file=sys.stderr)
            return 1
        with open(spirv, "rb") as f:
            data = f.read()
        words = list(struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4]))
        with open(args["--output"], "wb") as f:
            f.write(struct.pack("<%dI" % len(words), *hoist_function_variables(words)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
