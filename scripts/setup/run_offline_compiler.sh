#!/usr/bin/env bash
# The whole suite judged by Intel's offline compiler (ocloc) for one target: every selected case's module is
# built for the target instead of run (spirv_intel_cts --offline-compiler=ocloc --target=TARGET), with the
# waivers shipped for the compiler releases (docs/waivers/igc-*.json; entries for other releases or targets do
# not apply) and --fail-on-stale-waivers. Reports: OUT/TARGET.json, .xml, .log, .out and .html.
#
#   scripts/setup/run_offline_compiler.sh TARGET [--compiler=system|current] [--build-dir=DIR] [--out=DIR]
#                                   [-- RUNNER OPTIONS AND PATTERNS...]
#
# The compiler: --compiler=system (the default): $OCLOC, else ocloc on PATH (Debian 12's intel-opencl-icd);
# --compiler=current: Intel's current one as scripts/setup/install_intel_ocloc.sh installed it (Debian sid). OUT
# defaults to BUILD/offline_compiler for system, BUILD/offline_compiler/current for current. Without it, or when the target's description has no section for its release (Debian 12's 22.43 knows
# neither bmg, lnl-m, ptl nor mtl), the script says so in one line and exits 77 (CTest's skip code). Exit
# status: the runner's (0 when no case failed unwaived and no waiver is stale), 2 for a usage error.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build"
out=""
target=""
compiler=system
runner_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir=*) build="${1#*=}" ;;
        --out=*) out="${1#*=}" ;;
        --compiler=system|--compiler=current) compiler="${1#*=}" ;;
        --compiler=*) echo "run_offline_compiler.sh: --compiler is system or current, not '${1#*=}'" >&2; exit 2 ;;
        --) shift; runner_args=("$@"); break ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "run_offline_compiler.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) [ -z "$target" ] || { echo "run_offline_compiler.sh: one target only ('$target', '$1')" >&2; exit 2; }
           target="$1" ;;
    esac
    shift
done
[ -n "$target" ] || { echo "run_offline_compiler.sh: name a target (test_conformance/targets/*.json: pvc, bmg, lnl-m, ptl, dg2-g10, mtl; see --help)" >&2; exit 2; }
if [ "$compiler" = current ]; then
    if ! ocloc="$("$root/scripts/setup/install_intel_ocloc.sh" --where 2>/dev/null)"; then
        echo "skipped: Intel's current offline compiler is not installed (run scripts/setup/install_intel_ocloc.sh)"
        exit 77
    fi
else
    ocloc="${OCLOC:-$(command -v ocloc || true)}"
fi
if [ -z "$ocloc" ] || [ ! -x "$ocloc" ]; then
    where="no ocloc on PATH"
    [ -n "${OCLOC:-}" ] && where="OCLOC=$OCLOC is not an executable file"
    echo "skipped: Intel's offline compiler is not installed ($where; Debian: apt-get install intel-opencl-icd)"
    exit 77
fi
runner="$build/bin/spirv_intel_cts"
[ -x "$runner" ] || { echo "run_offline_compiler.sh: no runner at $runner (build first)" >&2; exit 2; }
if [ "$compiler" = current ]; then out="${out:-$build/offline_compiler/current}"; else out="${out:-$build/offline_compiler}"; fi
mkdir -p "$out"
waivers=()
for w in "$root"/docs/waivers/igc-*.json; do
    [ -f "$w" ] && waivers+=(--waiver-file="$w")
done
start=$SECONDS
"$runner" --offline-compiler="$ocloc" --target="$target" --timeout=300 "${waivers[@]}" --fail-on-stale-waivers \
    --json="$out/$target.json" --junit="$out/$target.xml" --log="$out/$target.log" "${runner_args[@]}" \
    >"$out/$target.out" 2>&1
status=$?
# A compiler release the description does not name: this compiler cannot judge the target (the runner's
# line says which releases are described).
if [ "$status" = 2 ] && grep -q 'describes no compiler release for ocloc' "$out/$target.out"; then
    echo "skipped: $(grep -m1 'describes no compiler release for ocloc' "$out/$target.out" | sed 's/^[^ ]*spirv_intel_cts: //')"
    exit 77
fi
sed -n '2,4p' "$out/$target.out"
grep -E '^([0-9]+ passed|  core:|  device_specific:|waiver |[0-9]+ stale waiver)' "$out/$target.out" || tail -n 3 "$out/$target.out"
if [ -f "$out/$target.json" ]; then
    python3 "$root/scripts/reports/results_html.py" "$out/$target.json" -o "$out/$target.html" || status=1
fi
echo "offline compiler on $target: exit $status, $((SECONDS - start)) s; reports in $out"
exit $status
