#!/usr/bin/env bash
# The whole suite on Intel's OpenCL CPU runtime (PyPI intel-opencl-rt, installed by
# scripts/install_intel_cpu_runtime.sh), as a driver farm would schedule it: N shards in parallel worker
# processes (--isolate --jobs=1 each, the shards being the parallelism: a crash of the runtime costs only its case), the waivers shipped for that runtime
# release with --fail-on-stale-waivers, and the shard reports merged into one.
#
#   scripts/run_intel_cpu.sh [--build-dir=DIR] [--out=DIR] [--shards=N] [-- RUNNER OPTIONS AND PATTERNS...]
#
# The runtime's .icd file: $INTEL_CPU_ICD, else the install script's default place. Without it the script
# says so in one line and exits 77 (CTest's skip code). Exit 0 when every shard exited 0 and the merged report
# has no failure; 1 otherwise; 2 for a usage error.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
out=""
shards=$(nproc 2>/dev/null || echo 2)
runner_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build-dir=*) build="${1#*=}" ;;
        --out=*) out="${1#*=}" ;;
        --shards=*) shards="${1#*=}" ;;
        --) shift; runner_args=("$@"); break ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run_intel_cpu.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$shards" in ''|*[!0-9]*|0) echo "run_intel_cpu.sh: --shards needs a positive number" >&2; exit 2 ;; esac
out="${out:-$build/intel_cpu}"
version=2026.2.0
icd="${INTEL_CPU_ICD:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/intel-opencl-rt-$version/icd/intel-cpu.icd}"
if [ ! -f "$icd" ]; then
    echo "skipped: Intel's OpenCL CPU runtime is not installed ($icd missing; run scripts/install_intel_cpu_runtime.sh)"
    exit 77
fi
runner="$build/bin/spirv_intel_cts"
[ -x "$runner" ] || { echo "run_intel_cpu.sh: no runner at $runner (build first)" >&2; exit 2; }
waivers="$root/docs/waivers/intel-opencl-cpu-$version.json"
mkdir -p "$out"
rm -f "$out"/shard_*.json "$out"/shard_*.xml "$out"/shard_*.log "$out"/shard_*.out "$out/merged.json"
start=$SECONDS
pids=()
for ((i = 0; i < shards; i++)); do
    "$runner" --icd="$icd" --isolate --jobs=1 --timeout=300 --fail-if-all-skipped --waiver-file="$waivers" \
        --fail-on-stale-waivers --shard=$i/$shards --json="$out/shard_$i.json" --junit="$out/shard_$i.xml" \
        --log="$out/shard_$i.log" "${runner_args[@]}" >"$out/shard_$i.out" 2>&1 &
    pids+=($!)
done
status=0
for ((i = 0; i < shards; i++)); do
    wait "${pids[$i]}"
    rc=$?
    echo "shard $i/$shards: exit $rc: $(tail -n 1 "$out/shard_$i.out" 2>/dev/null)"
    grep -E '^(stale waiver|waiver no longer|[0-9]+ stale waiver)' "$out/shard_$i.out" || true
    [ $rc -eq 0 ] || status=1
done
python3 "$root/scripts/merge_results.py" "$out"/shard_*.json -o "$out/merged.json" --fail-on-failures || status=1
python3 - "$out/merged.json" <<'PY' || status=1
import collections, json, sys
doc = json.load(open(sys.argv[1]))
count = collections.Counter((c.get("tier", "?"), c["status"]) for c in doc["cases"])
for tier in sorted({t for t, _ in count}):
    print("%s: %s" % (tier, ", ".join("%d %s" % (n, s) for (t, s), n in sorted(count.items()) if t == tier)))
PY
echo "Intel OpenCL CPU runtime $version: $((SECONDS - start)) s with $shards shard(s); reports in $out"
exit $status
