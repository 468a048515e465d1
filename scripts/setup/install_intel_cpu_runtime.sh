#!/usr/bin/env bash
# Installs Intel's OpenCL CPU runtime (libintelocl.so, platform "Intel(R) OpenCL") from PyPI into a Python
# venv under a cache directory and writes an .icd file naming it, for `spirv_intel_cts --icd=FILE`:
#
#   build/bin/spirv_intel_cts --icd=$(scripts/setup/install_intel_cpu_runtime.sh --print-icd) --isolate
#
# Nothing outside the directory changes (no /etc/OpenCL/vendors entry, no sudo). A second run with
# everything in place downloads nothing. The script changes only a directory it made (marked by the stamp file
# STAMP_NAME in it): a --dir holding someone else's files or venv is refused, never cleared or installed into.
# Exit 0 when the runtime is installed and yields an OpenCL platform, 1 when it cannot be (one line saying
# why), 2 for a usage error (a bad argument, a --dir that is not this script's).
set -uo pipefail

readonly PACKAGE=intel-opencl-rt VERSION=2026.2.0
# libintelocl.so links libimf.so, libsvml.so, libirng.so and libintlc.so.5, which intel-opencl-rt does not
# depend on: without intel-cmplr-lib-rt the library cannot be loaded and the ICD loader silently finds no
# platform. Both are pinned, so every machine tests the same driver build.
readonly REQUIREMENTS=("$PACKAGE==$VERSION" "intel-cmplr-lib-rt==$VERSION")
readonly ICD_NAME=intel-cpu
readonly STAMP_NAME=.spirv_intel_cts_cpu_runtime
me=install_intel_cpu_runtime
# shellcheck source=scripts/setup/lib/installer.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/installer.sh" || exit 1
inst_who="this script"
inst_needs="a directory"

usage() {
    cat <<EOF
Usage: scripts/$me.sh [--dir=DIR] [--print-icd]

Installs Intel's OpenCL CPU runtime ($PACKAGE==$VERSION with intel-cmplr-lib-rt==$VERSION, from PyPI)
into a Python venv in DIR and writes DIR/icd/$ICD_NAME.icd (the library's absolute path) and
DIR/icd/$ICD_NAME.package ("$PACKAGE $VERSION", which the runner reports). Does nothing when already
installed. Needs python3 with the venv module, an x86_64 CPU with SSE4.2, and PyPI (or the index pip is
configured for) for the first run.

DIR is this script's when it is new or empty (the script then leaves a $STAMP_NAME file in it) or holds
that file: only then does it create, repair (python3 -m venv --clear) or install into DIR/venv. Another
DIR is used only when its venv already holds the pinned runtime (nothing in it is changed); otherwise it
is refused (exit 2): choose a new or empty DIR.

  --dir=DIR      where to install (default: \$INTEL_CPU_RUNTIME_DIR, else
                 \${XDG_CACHE_HOME:-\$HOME/.cache}/spirv_intel_cts/$PACKAGE-$VERSION)
  --print-icd    print only the .icd file's path on standard output (the rest goes to standard error):
                 spirv_intel_cts --icd=\$(scripts/$me.sh --print-icd)
  --help         this text
EOF
}

dir="${INTEL_CPU_RUNTIME_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/$PACKAGE-$VERSION}"
print_icd=0
inst_parse_options --dir=DIR:dir --print-icd:print_icd -- "$@"
# Progress and the summary: on standard output, unless standard output carries the .icd path alone.
inst_say_to_stderr=$print_icd

# The runtime is built for x86_64 and refuses CPUs without SSE4.2; say so instead of failing in pip or the
# loader.
arch="$(uname -m)"
[ "$arch" = x86_64 ] || fail "Intel's OpenCL CPU runtime needs an x86_64 CPU; this machine is $arch"
[ -r /proc/cpuinfo ] || fail "cannot read /proc/cpuinfo to check the CPU for SSE4.2"
grep -qw sse4_2 /proc/cpuinfo ||
    fail "Intel's OpenCL CPU runtime needs a CPU with SSE4.2 (no sse4_2 in the flags of /proc/cpuinfo)"
command -v python3 >/dev/null 2>&1 || fail "python3 not found (needed for the venv and pip)"

# Whose directory: ours when it holds the stamp, or is empty (new), in which case the stamp claims it below.
inst_open_dir "$dir" "$STAMP_NAME"
dir="$inst_dir"
owned="$inst_owned"
venv="$dir/venv"
lib="$venv/lib/libintelocl.so"
icd="$dir/icd/$ICD_NAME.icd"
package_file="$dir/icd/$ICD_NAME.package"

# A directory not ours is never installed into: no lock file is left in it.
[ "$owned" = 1 ] && inst_lock_dir

# Loads the library as an ICD loader does and prints the first platform's name; exits 1 with the reason when
# it yields no platform. clIcdGetPlatformIDsKHR is looked up by name first and then through
# clGetExtensionFunctionAddress (libintelocl.so exports it only that way), and the name is queried through
# the platform's dispatch table (cl_khr_icd: the first pointer of every object), as the loader calls it.
probe() {
    python3 - "$1" <<'EOF'
import ctypes, sys
path = sys.argv[1]
try:
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
except OSError as e:
    sys.exit("cannot be loaded: %s" % e)
GetIds = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_uint32, ctypes.POINTER(ctypes.c_void_p),
                          ctypes.POINTER(ctypes.c_uint32))
GetInfo = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_size_t, ctypes.c_void_p,
                           ctypes.c_void_p)
try:
    get_ids = GetIds(("clIcdGetPlatformIDsKHR", lib))
except AttributeError:
    try:
        lookup = lib.clGetExtensionFunctionAddress
    except AttributeError:
        sys.exit("is not an OpenCL ICD (exports neither clIcdGetPlatformIDsKHR nor clGetExtensionFunctionAddress)")
    lookup.restype, lookup.argtypes = ctypes.c_void_p, [ctypes.c_char_p]
    address = lookup(b"clIcdGetPlatformIDsKHR")
    if not address:
        sys.exit("is not an OpenCL ICD (clGetExtensionFunctionAddress has no clIcdGetPlatformIDsKHR)")
    get_ids = GetIds(address)
count = ctypes.c_uint32(0)
err = get_ids(0, None, ctypes.byref(count))
if err != 0 or count.value == 0:
    sys.exit("yields no OpenCL platform (clIcdGetPlatformIDsKHR: error %d, %d platform(s))" % (err, count.value))
platforms = (ctypes.c_void_p * count.value)()
get_ids(count.value, platforms, None)
dispatch = ctypes.cast(platforms[0], ctypes.POINTER(ctypes.POINTER(ctypes.c_void_p)))[0]
name = ctypes.create_string_buffer(1024)
if not dispatch[1] or GetInfo(dispatch[1])(platforms[0], 0x0902, len(name), name, None) != 0:  # CL_PLATFORM_NAME
    sys.exit("yields a platform whose name cannot be queried")
print(name.value.decode("utf-8", "replace"))
EOF
}

# Both pinned distributions are in the venv and the library is there: nothing to download.
installed() {
    [ -x "$venv/bin/python3" ] && [ -f "$lib" ] || return 1
    local req name
    for req in "${REQUIREMENTS[@]}"; do
        name="${req%%==*}"
        compgen -G "$venv/lib/python3*/site-packages/${name//-/_}-$VERSION.dist-info/RECORD" >/dev/null || return 1
    done
}

[ "$owned" = 1 ] && inst_write_stamp venv

if installed; then
    state="already installed in $dir (nothing downloaded)"
    [ "$owned" = 1 ] || state+="; its venv was not made by this script: used as it is, nothing in it changed"
elif [ "$owned" != 1 ]; then
    # Not ours: clearing a broken venv would delete someone's files, and pip would add 830 MB to their venv.
    if [ -e "$venv" ]; then
        usage_error "$venv exists and was not made by this script (no $STAMP_NAME in $dir): it is neither" \
            "installed into nor replaced; choose a new or empty --dir"
    fi
    inst_refuse_dir
else
    if ! "$venv/bin/python3" -m pip --version >/dev/null 2>&1; then
        # --clear: a venv left broken by an interrupted run is made again from scratch.
        python3 -m venv --clear "$venv" >"$dir/venv.log" 2>&1 ||
            fail "python3 -m venv is unusable (exit $?; on Debian: apt-get install python3-venv): see $dir/venv.log"
    fi
    say "$me: downloading ${REQUIREMENTS[*]} from PyPI into $venv" \
        "(about 280 MB, 830 MB installed; pip log: $dir/pip.log)"
    "$venv/bin/python3" -m pip install --disable-pip-version-check --no-input --only-binary=:all: \
        "${REQUIREMENTS[@]}" >"$dir/pip.log" 2>&1
    rc=$?
    if [ "$rc" != 0 ]; then
        why="pip failed"
        connection='NewConnectionError|Failed to establish|Temporary failure in name resolution|Network is unreachable'
        connection+='|ConnectTimeout|ReadTimeout|ProxyError|SSLError|Max retries exceeded'
        if grep -qE "$connection" "$dir/pip.log"; then
            why="PyPI (or the index pip is configured for) is unreachable: pip reports connection errors"
        elif grep -q 'from versions: none' "$dir/pip.log"; then
            why="pip found no $PACKAGE release on its index (PyPI unreachable, or a mirror without it)"
        fi
        fail "$why: pip install ${REQUIREMENTS[*]} exited with $rc; pip's log: $dir/pip.log"
    fi
    installed || fail "pip reported success but $lib or the $VERSION distributions are missing; pip's log: $dir/pip.log"
    state="installed in $dir"
fi

# Checked on every run, also when nothing was downloaded: the .icd file is written only for a library that
# works here.
platform="$(probe "$lib" 2>&1)" || fail "$lib $platform"

# The package's own .icd files (venv/etc/OpenCL/vendors) name a build machine's path
# (/opt/anaconda1anaconda2anaconda3/...): ours name this venv.
write_file "$icd" "$lib"
write_file "$package_file" "$PACKAGE $VERSION"

say "$me: $PACKAGE $VERSION $state"
say "  platform: $platform"
say "  library:  $lib"
say "  ICD file: $icd"
say "  run:      spirv_intel_cts --icd=$icd --isolate"
[ "$print_icd" = 1 ] && printf '%s\n' "$icd"
exit 0
