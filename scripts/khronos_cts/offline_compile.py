#!/usr/bin/env python3
"""The Khronos OpenCL CTS's offline compiler for the reference device: OpenCL C to SPIR-V with clang-15 and
llvm-spirv-15 (Debian 12's), called by a CTS binary run with
`--compilation-mode spir-v --compilation-program THIS_SCRIPT` (the CTS's cl_offline_compiler interface:
--source, --output, --cl-device-info, --mode, then `--` and the program's build options).

The device-info file says what the device reports; a device without cl_khr_fp64 or images compiles with those
features off, so a kernel's `#ifdef cl_khr_fp64` (and `__IMAGE_SUPPORT__`) sees what the device says; it
optimizes (-O2) unless the build options say -cl-opt-disable, as a driver's compiler does. Build options clang does not take
(Intel's -cl-intel-*, -cl-no-subgroup-ifp) are dropped with a note on stderr; the rest go to clang as given.
Exit status: 0 when the SPIR-V file was written, 1 when a tool failed (its messages on stderr), 2 for a usage
error. Standard library only.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
        translate = [LLVM_SPIRV, "--spirv-max-version=1.3", bitcode, "-o", args["--output"]]
        if subprocess.run(translate).returncode != 0:
            print("offline_compile: failed: %s" % " ".join(translate), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
