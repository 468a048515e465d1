#!/usr/bin/env bash
# The whole suite on Intel's OpenCL CPU runtime (PyPI intel-opencl-rt, installed by
# scripts/setup/install_intel_cpu_runtime.sh), as a driver farm's gate would run it: one runner with --jobs=N worker
# processes (a crash of the runtime costs only its case; the cases of one module go to one worker, so each
# module is built about once per run), the waivers shipped for that runtime release with
# --fail-on-stale-waivers. The waivers' "skip" entries (the runtime's known crashes and hangs) are recorded
# Waived without running; --run-skipped is the periodic run that runs them too and fails on the stale ones.
#
#   scripts/setup/run_intel_cpu.sh [--build-dir=DIR] [--out=DIR] [--jobs=N] [--run-skipped] [-- RUNNER OPTIONS AND PATTERNS...]
#
# The runtime's .icd file: $INTEL_CPU_ICD, else the install script's default place. Without it the script
# says so in one line and exits 77 (CTest's skip code). Exit 0 when the runner exited 0 and the report has no
# failure; 1 otherwise; 2 for a usage error. The report: OUT/merged.json (+ .xml, .log, .out).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build"
out=""
jobs=$(nproc 2>/dev/null || echo 2)
run_skipped=()
runner_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir=*) build="${1#*=}" ;;
        --out=*) out="${1#*=}" ;;
        --jobs=*) jobs="${1#*=}" ;;
        --run-skipped) run_skipped=(--run-skipped) ;;
        --) shift; runner_args=("$@"); break ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run_intel_cpu.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$jobs" in ''|*[!0-9]*|0) echo "run_intel_cpu.sh: --jobs needs a positive number" >&2; exit 2 ;; esac
out="${out:-$build/intel_cpu}"
version=2026.2.0
icd="${INTEL_CPU_ICD:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/intel-opencl-rt-$version/icd/intel-cpu.icd}"
if [ ! -f "$icd" ]; then
    echo "skipped: Intel's OpenCL CPU runtime is not installed ($icd missing; run scripts/setup/install_intel_cpu_runtime.sh)"
    exit 77
fi
runner="$build/bin/spirv_intel_cts"
[ -x "$runner" ] || { echo "run_intel_cpu.sh: no runner at $runner (build first)" >&2; exit 2; }
waivers="$root/docs/waivers/intel-opencl-cpu-$version.json"
mkdir -p "$out"
rm -f "$out"/shard_*.json "$out"/shard_*.xml "$out"/shard_*.log "$out"/shard_*.out "$out"/merged.*
start=$SECONDS
status=0
"$runner" --icd="$icd" --jobs="$jobs" --timeout=300 --fail-if-all-skipped --waiver-file="$waivers" \
    --fail-on-stale-waivers "${run_skipped[@]}" --json="$out/merged.json" --junit="$out/merged.xml" \
    --log="$out/merged.log" "${runner_args[@]}" >"$out/merged.out" 2>&1 || status=1
echo "runner: exit $([ $status = 0 ] && echo 0 || echo 1): $(tail -n 1 "$out/merged.out" 2>/dev/null)"
grep -E '^(stale waiver|waiver no longer|waiver matches|[0-9]+ stale waiver|time by phase)' "$out/merged.out" || true
python3 "$root/scripts/reports/merge_results.py" "$out/merged.json" -o "$out/checked.json" --fail-on-failures || status=1
python3 - "$out/merged.json" <<'PY' || status=1
import collections, json, sys
doc = json.load(open(sys.argv[1]))
count = collections.Counter((c.get("tier", "?"), c["status"]) for c in doc["cases"])
for tier in sorted({t for t, _ in count}):
    print("%s: %s" % (tier, ", ".join("%d %s" % (n, s) for (t, s), n in sorted(count.items()) if t == tier)))
PY
echo "Intel OpenCL CPU runtime $version: $((SECONDS - start)) s with --jobs=$jobs${run_skipped:+ --run-skipped}; reports in $out"
exit $status
