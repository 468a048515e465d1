#!/usr/bin/env bash
# The whole suite judged by Intel's real GPU driver on a machine without an Intel GPU: compute-runtime 26.27
# (Debian sid's intel-opencl-icd, IGC 2.40.14, installed by scripts/setup/install_intel_compute_runtime.sh) in its
# no-hardware mode describes a GPU of PRODUCT, and every selected case is judged up to the point of execution
# (the runner's --build-only: device queries, support checks, the driver's clBuildProgram and kernel queries;
# nothing is enqueued), with docs/waivers/compute-runtime-26.27.json and --fail-on-stale-waivers.
#
#   scripts/setup/run_intel_gpu_nohw.sh PRODUCT [--build-dir=DIR] [--out=DIR] [--no-install] [RUNNER OPTIONS AND PATTERNS...]
#
# PRODUCT: bmg, pvc, dg2, mtl, lnl-m or ptl. The runner is BUILD/bin/spirv_intel_cts (BUILD: --build-dir, else
# $CTS_BUILD_DIR, else build/); the driver's libraries need sid's glibc, so it runs as a copy,
# BUILD/nohw/bin/spirv_intel_cts, whose ELF interpreter and RPATH are the unpacked ones (patchelf; made once,
# made again when the build's runner is newer). Reports: OUT/results.json, .xml and run.log (OUT: --out, else
# BUILD/nohw/PRODUCT); a runner option given here replaces the script's default of that option (--json,
# --junit, --log, --assets-dir; --jobs or --isolate replace --jobs=<cores>). The runtime is installed when
# missing; --no-install only looks for it (not installed: one line, exit 77, CTest's skip code). Exit status:
# the runner's; 2 for a usage error. docs/intel_gpu_nohw.md says what the mode shows and what it cannot.
set -uo pipefail
me=run_intel_gpu_nohw.sh
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=scripts/setup/lib/intel_gpu_nohw.sh
. "$root/scripts/setup/lib/intel_gpu_nohw.sh" || exit 1
readonly WAIVERS="$root/docs/waivers/compute-runtime-26.27.json"

usage_error() {
    echo "$me: error: $*" >&2
    exit 2
}

build="${CTS_BUILD_DIR:-$root/build}"
out=""
install=1
product=""
runner_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir=?*) build="${1#*=}" ;;
        --out=?*) out="${1#*=}" ;;
        --build-dir= | --build-dir | --out= | --out) usage_error "${1%=} needs a directory: ${1%=}=DIR (see --help)" ;;
        --no-install) install=0 ;;
        -h | --help)
            sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        --)
            shift
            runner_args+=("$@")
            break
            ;;
        -*) runner_args+=("$1") ;;
        *)
            if [ -z "$product" ]; then
                nohw_is_product "$1" || usage_error "unknown product '$1': one of ${NOHW_PRODUCTS[*]} (see --help)"
                product="$1"
            else
                runner_args+=("$1")
            fi
            ;;
    esac
    shift
done
[ -n "$product" ] || usage_error "name a product: one of ${NOHW_PRODUCTS[*]} (see --help)"
runner="$build/bin/spirv_intel_cts"
[ -x "$runner" ] || usage_error "no runner at $runner (build first, or --build-dir=DIR)"
build="$(cd "$build" && pwd -P)"
out="${out:-$build/nohw/$product}"

installer="$root/scripts/setup/install_intel_compute_runtime.sh"
if [ "$install" = 1 ]; then
    icd="$("$installer" --print-icd)" || exit 1
elif ! icd="$("$installer" --where 2>/dev/null)"; then
    echo "skipped: Intel's compute runtime is not installed (run scripts/setup/install_intel_compute_runtime.sh)"
    exit 77
fi
library="$(head -n 1 "$icd")"
libdir="$(dirname "$(dirname "$library")")"
loader="$libdir/ld-linux-x86-64.so.2"
[ -x "$loader" ] || { echo "$me: error: no loader $loader beside the driver $library named by $icd" >&2; exit 1; }

# The runner re-executes itself (/proc/self/exe) for --jobs and --isolate workers, so running it as
# `ld.so runner` would start the workers with the system's loader: the copy carries the unpacked loader as its
# interpreter, and as DT_RPATH (not RUNPATH, which would not reach the libraries the driver opens itself,
# libigc.so.2) the unpacked library directory.
copy="$build/nohw/bin/spirv_intel_cts"
if [ ! -x "$copy" ] || [ "$runner" -nt "$copy" ] ||
    [ "$(patchelf --print-interpreter "$copy" 2>/dev/null)" != "$loader" ] ||
    [ "$(patchelf --print-rpath "$copy" 2>/dev/null)" != "$libdir" ]; then
    command -v patchelf >/dev/null 2>&1 ||
        { echo "$me: error: patchelf not found (Debian: apt-get install patchelf): it makes the runner's copy for sid's loader" >&2; exit 1; }
    mkdir -p "$(dirname "$copy")" && cp -p "$runner" "$copy.tmp.$$" &&
        patchelf --set-interpreter "$loader" --force-rpath --set-rpath "$libdir" "$copy.tmp.$$" &&
        mv -f "$copy.tmp.$$" "$copy" ||
        { rm -f "$copy.tmp.$$"; echo "$me: error: cannot make $copy from $runner with patchelf" >&2; exit 1; }
fi

# The script's defaults, each unless the runner options given name that option.
given() {
    local a
    for a in "${runner_args[@]}"; do
        case "$a" in "$1" | "$1"=*) return 0 ;; esac
    done
    return 1
}
defaults=()
given --json || defaults+=(--json="$out/results.json")
given --junit || defaults+=(--junit="$out/results.xml")
given --log || defaults+=(--log="$out/run.log")
given --assets-dir || defaults+=(--assets-dir="$build/assets")
given --jobs || given --isolate || defaults+=(--jobs="$(nproc 2>/dev/null || echo 2)")
mkdir -p "$out" || { echo "$me: error: cannot create $out" >&2; exit 1; }

nohw_export_keys "$product"
# --device-info: only the device's answers (what the suite reads of it), no run and no report.
if given --device-info; then
    exec "$copy" --icd="$icd" --assets-dir="$build/assets" "${runner_args[@]}"
fi
"$copy" --icd="$icd" --build-only --waiver-file="$WAIVERS" --fail-on-stale-waivers --fail-if-all-skipped \
    "${defaults[@]}" "${runner_args[@]}"
status=$?
echo "Intel GPU driver without hardware ($product): runner exit $status; reports in $out"
exit $status
