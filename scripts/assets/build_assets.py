#!/usr/bin/env python3
"""Builds the suite's SPIR-V assets and manifest (Python standard library only).

1. Collects hand-written kernels (spirv_new_assets/<group>/**/*.spvasm, metadata in their header comment)
   and runs every scripts/assets/generators/*.py generate(emit).
2. Writes <out>/modules/<rel>.spvasm, assembles <rel>.spv with spirv-as and validates it with spirv-val
   (SPIRV-Tools 2025.1 or newer, which CMake finds: cmake/SpirvTools.cmake).
   A module whose text, SPIR-V version and toolchain are unchanged is not re-assembled (hash stamp).
3. Runs the suite's rule checker over every module.
4. Writes <out>/manifest.json (cases sorted by name, each module with its hash), manifest.sha256 (its
   hash, for the reports' "selection" record), manifest.index (scripts/assets/case_index.py: the case index the
   runner selects on) and removes modules no longer
   produced.
Any failure stops with a message naming the module, where it came from and the tool output.
"""

import argparse
import binascii
import concurrent.futures
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import traceback

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(SCRIPT_DIR))  # scripts/: the import root

from assets import case_index  # noqa: E402
from reports import report_io  # noqa: E402  (printable messages)
from assets import spirv_signature  # noqa: E402
from assets import spvgen  # noqa: E402


class BuildError(Exception):
    pass


def rel(path, root):
    return os.path.relpath(path, root).replace(os.sep, "/")


def collect_handwritten(emit, source_dir):
    assets_root = os.path.join(source_dir, "spirv_new_assets")
    found = []
    for dirpath, dirnames, filenames in os.walk(assets_root):
        dirnames.sort()
        for fn in sorted(filenames):
            if fn.endswith(".spvasm"):
                found.append(os.path.join(dirpath, fn))
    handwritten = {}
    for path in found:
        origin = rel(path, source_dir)
        relpath = rel(path, assets_root)[: -len(".spvasm")]
        with open(path, encoding="utf-8") as f:
            text = f.read()
        cases = spvgen.parse_asset_header(text, origin)
        module = emit.module(relpath, text, origin=origin)
        handwritten[relpath] = origin
        for c in cases:
            try:
                emit.case(c["name"], c["family"], module, c["kernel"], c["params"], c["requires"], c["tags"],
                          origin=origin, tier=c["tier"])
            except spvgen.SpvgenError as e:
                raise spvgen.SpvgenError("%s:%d: %s" % (origin, c["line"], str(e).split(": ", 1)[1]))
    return handwritten


def run_generators(emit, source_dir):
    gen_dir = os.path.join(source_dir, "scripts", "assets", "generators")
    names = sorted(f for f in os.listdir(gen_dir) if f.endswith(".py") and not f.startswith("_")) \
        if os.path.isdir(gen_dir) else []
    for fn in names:
        path = os.path.join(gen_dir, fn)
        origin = rel(path, source_dir)
        emit.origin = origin
        try:
            spec = importlib.util.spec_from_file_location("cts_generator_" + fn[:-3], path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            if not hasattr(mod, "generate"):
                raise spvgen.SpvgenError("%s: defines no generate(emit)" % origin)
            mod.generate(emit)
        except spvgen.SpvgenError:
            raise
        except Exception:
            raise spvgen.SpvgenError("%s: generator raised:\n%s" % (origin, traceback.format_exc()))
    return names


# ----------------------------------------------------------------------------------------------------------
# Assembly workers

_CONFIG = None


def _init_worker(config):
    global _CONFIG
    _CONFIG = config


def _run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout.strip()


def module_hash(path):
    """"crc32:<8 hex digits>", the CRC-32 (IEEE, as zlib) of a file's bytes. The runner checks every module
    against it before the build (ProgramCache::moduleHash in test_common/cl/program_cache.cpp)."""
    with open(path, "rb") as f:
        return "crc32:%08x" % (binascii.crc32(f.read()) & 0xFFFFFFFF)


def val_env(version):
    """spirv-val's environment for a module of SPIR-V version (major, minor): OpenCL 2.2's (SPIR-V 1.0 to 1.2,
    with the OpenCL environment's rules) where SPIRV-Tools has one, otherwise the plain SPIR-V environment of the
    module's version (SPIRV-Tools' OpenCL environments stop at OpenCL 2.2 = SPIR-V 1.2)."""
    return "opencl2.2" if version <= (1, 2) else "spv%d.%d" % version


def signatures_of(path):
    """{kernel: [[argument, type], ...]} of the module file at path."""
    with open(path, "rb") as f:
        return spirv_signature.module_signatures(f.read())


def spirv_version(data):
    """(major, minor) of a SPIR-V binary's header."""
    word = int.from_bytes(data[4:8], "little")
    return (word >> 16) & 0xFF, (word >> 8) & 0xFF


def copy_one(job):
    """A compiler's module taken as it is (Emitter.binary_module): copied, validated (a rejection other than
    its documented exception stops the build), its unnamed parameters named from its launch facts."""
    relpath, data, stamp_key = job["relpath"], job["binary"], job["stamp_key"]
    base = os.path.join(_CONFIG["modules_dir"], relpath)
    spv, stamp = base + ".spv", base + ".stamp"
    os.makedirs(os.path.dirname(spv), exist_ok=True)
    for stale in (spv, stamp):
        if os.path.exists(stale):
            os.remove(stale)
    with open(spv, "wb") as f:
        f.write(data)
    how = "copy"
    venv = val_env(spirv_version(data))
    rc, out = _run([_CONFIG["spirv_val"], "--target-env", venv, spv])
    if rc != 0:
        exception = job.get("val_exception")
        if not exception or not re.fullmatch(exception["pattern"], out.strip(), re.S):
            return relpath, how, "spirv-val --target-env %s failed%s:\n%s" % (
                venv, "" if not exception else " (not the documented exception: %s)" % exception["description"],
                out), None, None
    if _CONFIG.get("spirv_dis"):  # the text beside the module, as for every other module
        _run([_CONFIG["spirv_dis"], "--no-color", spv, "-o", base + ".spvasm"])
    digest = module_hash(spv)
    try:
        signatures = signatures_of(spv)
    except spirv_signature.SignatureError as e:
        return relpath, how, "kernel signatures: %s" % e, None, None
    for kernel, names in job["argument_names"].items():
        args = signatures.get(kernel)
        if args is None or len(args) != len(names):
            return relpath, how, "kernel %s: the launch facts name %d arguments, the module has %s" % (
                kernel, len(names), "no such kernel" if args is None else len(args)), None, None
        for arg, name in zip(args, names):
            if arg[0] and arg[0] != name:
                return relpath, how, "kernel %s: argument %r is named %r in the launch facts" % (
                    kernel, arg[0], name), None, None
            arg[0] = name
    with open(stamp, "w") as f:
        f.write("%s\n%s\n%s\n" % (stamp_key, digest, json.dumps(signatures, sort_keys=True)))
    return relpath, how, None, digest, signatures


def assemble_one(job):
    """Returns (relpath, how, error or None, module_hash or None, kernel signatures or None)."""
    if job.get("binary") is not None:
        return copy_one(job)
    relpath, text, stamp_key = job["relpath"], job["text"], job["stamp_key"]
    base = os.path.join(_CONFIG["modules_dir"], relpath)
    spvasm, spv, stamp = base + ".spvasm", base + ".spv", base + ".stamp"
    os.makedirs(os.path.dirname(spvasm), exist_ok=True)
    with open(spvasm, "w", encoding="utf-8") as f:
        f.write(text)
    for stale in (spv, stamp):
        if os.path.exists(stale):
            os.remove(stale)
    version = spvgen.module_version(text)
    env = "spv%d.%d" % version
    how = "spirv-as"
    rc, out = _run([_CONFIG["spirv_as"], "--target-env", env, spvasm, "-o", spv])
    if rc != 0:
        return relpath, how, "spirv-as --target-env %s failed:\n%s" % (env, out), None, None
    venv = val_env(version)
    rc, out = _run([_CONFIG["spirv_val"], "--target-env", venv, spv])
    if rc != 0:
        return relpath, how, "spirv-val --target-env %s failed:\n%s" % (venv, out), None, None
    digest = module_hash(spv)
    try:
        signatures = signatures_of(spv)
    except spirv_signature.SignatureError as e:
        return relpath, how, "kernel signatures: %s" % e, None, None
    with open(stamp, "w") as f:
        f.write("%s\n%s\n%s\n" % (stamp_key, digest, json.dumps(signatures, sort_keys=True)))
    return relpath, how, None, digest, signatures


def file_digest(paths):
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def toolchain_key(args):
    versions = [_run([tool, "--version"])[1].splitlines()[0:1] for tool in (args.spirv_as, args.spirv_val)]
    h = hashlib.sha256()
    h.update(repr(versions).encode())
    h.update(file_digest([os.path.join(SCRIPT_DIR, "build_assets.py"), os.path.join(SCRIPT_DIR, "spvgen.py"),
                          os.path.join(SCRIPT_DIR, "spirv_signature.py")]).encode())
    return h.hexdigest()


def assemble_all(modules, args, modules_dir):
    """Returns (assembled, up to date, {how: count}, {"rel/path.spv": module_hash},
    {"rel/path.spv": kernel signatures})."""
    tkey = toolchain_key(args)
    jobs, skipped, hashes, signatures = [], 0, {}, {}
    for relpath in sorted(modules):
        text = modules[relpath]["text"]
        binary = modules[relpath].get("binary")
        content = text.encode("utf-8") if binary is None else binary + json.dumps(
            modules[relpath]["argument_names"], sort_keys=True).encode("utf-8")
        key = hashlib.sha256(tkey.encode("utf-8") + b"\0" + content).hexdigest()
        base = os.path.join(modules_dir, relpath)
        # The stamp holds the key, the hash of the .spv as assembled and its kernel signatures: a .spv changed
        # since (a flipped bit, a truncated copy) is assembled again rather than hashed into the manifest as it
        # is.
        try:
            with open(base + ".stamp") as f:
                stamp = f.read().split("\n")
            up_to_date = len(stamp) >= 3 and stamp[0] == key and module_hash(base + ".spv") == stamp[1]
            signature = json.loads(stamp[2]) if up_to_date else None
        except (OSError, ValueError):
            up_to_date = False
        if up_to_date:
            skipped += 1
            hashes[relpath + ".spv"] = stamp[1]
            signatures[relpath + ".spv"] = signature
        else:
            job = {"relpath": relpath, "text": text, "stamp_key": key}
            if binary is not None:
                job.update(binary=binary, argument_names=modules[relpath]["argument_names"],
                           val_exception=modules[relpath]["val_exception"])
            jobs.append(job)
    config = {"modules_dir": modules_dir, "spirv_as": args.spirv_as, "spirv_val": args.spirv_val,
              "spirv_dis": args.spirv_dis}
    results = []
    if jobs:
        if args.jobs <= 1 or len(jobs) == 1:
            _init_worker(config)
            results = [assemble_one(j) for j in jobs]
        else:
            with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs, initializer=_init_worker,
                                                        initargs=(config,)) as pool:
                results = list(pool.map(assemble_one, jobs, chunksize=max(1, len(jobs) // (4 * args.jobs))))
    errors = ["module %s (from %s; text in %s.spvasm): %s" % (r, modules[r]["origin"],
                                                             os.path.join(modules_dir, r), err)
              for r, _, err, _, _ in results if err]
    if errors:
        more = "" if len(errors) <= 20 else "\n... and %d more" % (len(errors) - 20)
        raise BuildError("\n".join(errors[:20]) + more)
    counts = {}
    for relpath, how, _, digest, signature in results:
        counts[how] = counts.get(how, 0) + 1
        hashes[relpath + ".spv"] = digest
        signatures[relpath + ".spv"] = signature
    return len(jobs), skipped, counts, hashes, signatures


def check_signatures(modules, signatures):
    """Every kernel argument has a name: host code binds arguments by name (docs/assets.md)."""
    problems = []
    for spv in sorted(signatures):
        unnamed = spirv_signature.unnamed_arguments(signatures[spv])
        if unnamed:
            relpath = spv[:-len(".spv")]
            problems.append("module %s (from %s): %s without an OpName" % (
                spv, modules[relpath]["origin"], ", ".join(unnamed)))
    if problems:
        more = "" if len(problems) <= 20 else "\n... and %d more" % (len(problems) - 20)
        raise BuildError("kernel arguments must be named (OpName), host code binds them by name:\n" +
                         "\n".join(problems[:20]) + more)


def imported_call_allowed(line, modules, modules_dir):
    """A call of an imported function (rule call.declared_only: a built-in the suite's compiler step did not
    translate) is what a compiler's frozen module (Emitter.binary_module) is there to test: the reference device
    resolves such calls (docs/reference_device.md). Every other rule applies to those modules too."""
    path, _, rest = line.partition(": ")
    if not rest.startswith("call.declared_only:") or not path.endswith(".spv"):
        return False
    return modules.get(rel(path, modules_dir)[: -len(".spv")], {}).get("binary") is not None


def rule_check(modules, args, modules_dir):
    if not args.rule_check:
        return
    files = [os.path.join(modules_dir, r + ".spv") for r in sorted(modules)]
    problems = []
    for i in range(0, len(files), 200):
        batch = files[i:i + 200]
        p = subprocess.run([args.rule_check] + batch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if p.returncode not in (0, 1) or (p.returncode == 1 and not p.stdout.strip()):
            raise BuildError("%s exited with %d:\n%s" % (args.rule_check, p.returncode, p.stdout))
        problems.extend(line for line in p.stdout.splitlines() if line.strip() and not imported_call_allowed(
            line, modules, modules_dir))
    if problems:
        lines = []
        for line in problems[:40]:
            path = line.split(": ", 1)[0]
            relpath = rel(path, modules_dir)[: -len(".spv")] if path.endswith(".spv") else None
            origin = modules.get(relpath, {}).get("origin", "?")
            lines.append("%s (from %s)" % (line, origin))
        raise BuildError("spirv_rule_check found %d violation(s):\n%s" % (len(problems), "\n".join(lines)))


def remove_stale(modules, modules_dir):
    keep = set()
    for r in modules:
        for ext in (".spvasm", ".spv", ".stamp"):
            keep.add(os.path.normpath(os.path.join(modules_dir, r + ext)))
    removed = 0
    for dirpath, _, filenames in os.walk(modules_dir, topdown=False):
        for fn in filenames:
            p = os.path.normpath(os.path.join(dirpath, fn))
            if p not in keep:
                os.remove(p)
                removed += 1
        if dirpath != modules_dir and not os.listdir(dirpath):
            os.rmdir(dirpath)
    return removed


def manifest_text(doc):
    """The manifest as JSON: one line per module of the module table, then one object per case (the runner's
    --isolate workers find a case's entry and its module's line in the text without parsing the rest)."""
    modules = ",\n".join("  %s: %s" % (json.dumps(m), json.dumps(doc["modules"][m])) for m in doc["modules"])
    cases = json.dumps(doc["cases"], indent=1).replace("\n", "\n ")
    return '{\n "version": %d,\n "modules": {\n%s\n },\n "cases": %s\n}\n' % (doc["version"], modules, cases)


def manifest_sha256_text(manifest):
    """manifest.sha256: the hash of manifest.json's bytes in sha256sum's format (`sha256sum -c` checks it)."""
    return "%s  manifest.json\n" % hashlib.sha256(manifest.encode("utf-8")).hexdigest()


def write_if_changed(path, data):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(data)
    os.replace(tmp, path)
    return True


def build(args):
    start = time.time()
    emit = spvgen.Emitter(args.out)
    # Compilers for the generators that compile OpenCL C (scripts/assets/generators/compiled.py); absent: no such cases.
    emit.tools = {"clang": args.clang, "llvm_spirv": args.llvm_spirv, "spirv_dis": args.spirv_dis}
    handwritten = collect_handwritten(emit, args.source_dir)
    generators = run_generators(emit, args.source_dir)
    used = {c["module"][:-4] for c in emit.cases.values() if c["module"]}
    for relpath, origin in sorted(handwritten.items()):
        if relpath not in used:
            raise spvgen.SpvgenError("%s:1: declares no '; @case' and no generator case uses it" % origin)

    modules_dir = os.path.join(args.out, "modules")
    os.makedirs(modules_dir, exist_ok=True)
    assembled, skipped, counts, hashes, signatures = assemble_all(emit.modules, args, modules_dir)
    check_signatures(emit.modules, signatures)
    rule_check(emit.modules, args, modules_dir)
    removed = remove_stale(emit.modules, modules_dir)
    manifest = manifest_text(emit.manifest(hashes, signatures))
    write_if_changed(os.path.join(args.out, "manifest.json"), manifest)
    # The runner records the manifest's hash in every report; hashing it here keeps that off its start-up.
    sha256 = manifest_sha256_text(manifest)
    write_if_changed(os.path.join(args.out, "manifest.sha256"), sha256)
    # The runner selects on the index and parses only the selected entries of the manifest.
    try:
        index = case_index.index_text(manifest.encode("utf-8"), sha256[:64])
    except case_index.IndexError_ as e:
        raise BuildError("manifest.index: %s" % e)
    write_if_changed(os.path.join(args.out, "manifest.index"), index)
    how = ", ".join("%d with %s" % (n, k) for k, n in sorted(counts.items())) or "none"
    print("assets: %d cases, %d modules (%d generators, %d hand-written); assembled %d (%s), %d up to date, "
          "%d stale files removed; %.1fs" % (len(emit.cases), len(emit.modules), len(generators),
                                             len(handwritten), assembled, how, skipped, removed,
                                             time.time() - start))
    if args.stamp:
        with open(args.stamp, "w") as f:
            f.write("ok\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Generate, assemble and check the SPIR-V assets.")
    ap.add_argument("--source-dir", default=os.path.dirname(os.path.dirname(SCRIPT_DIR)))
    ap.add_argument("--out", required=True, help="assets directory (gets modules/ and manifest.json)")
    ap.add_argument("--spirv-as", default="spirv-as")
    ap.add_argument("--spirv-val", default="spirv-val")
    ap.add_argument("--rule-check", help="path of spirv_rule_check (omit to skip the rule check)")
    ap.add_argument("--clang", help="clang-15 (with --llvm-spirv and --spirv-dis: the compiled.* cases)")
    ap.add_argument("--llvm-spirv", help="llvm-spirv-15")
    ap.add_argument("--spirv-dis", help="spirv-dis")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--stamp", help="file to touch on success")
    args = ap.parse_args(argv)
    try:
        build(args)
    except (spvgen.SpvgenError, BuildError) as e:
        print("build_assets: error: %s" % "\n".join(report_io.printable(line) for line in str(e).splitlines()),
              file=sys.stderr)
        if args.stamp and os.path.exists(args.stamp):
            os.remove(args.stamp)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
