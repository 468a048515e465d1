#!/usr/bin/env bash
# Runs the suite on the reference device once per profile (xe_hpc, xe_hpg, xe2, xe3, xe_lpg, cpu), then
# checks the union of the runs (scripts/ci/profile_coverage.py --reports): every case passes on some profile and
# none fails on any.
#
#   scripts/setup/run_all_profiles.sh [--build-dir=DIR] [--out=DIR] [--profiles=a,b,...] [-- RUNNER OPTIONS...]
#
# Each profile's reports go to OUT/results_<profile>.json and .xml and its log to OUT/run_<profile>.log
# (OUT: BUILD/profiles by default); the union to OUT/coverage.json. Runner options after "--" go to every
# run (default: none, so the runner's --jobs default: one worker a core). Prints each run's summary line and time, then the union.
# Exit 0 when every run passed and the union covers every case, 1 otherwise, 2 for a usage error.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/build" out="" profiles="xe_hpc,xe_hpg,xe2,xe3,xe_lpg,cpu"
usage() { sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
    --build-dir=?*) build="${1#*=}" ;;
    --out=?*) out="${1#*=}" ;;
    --profiles=?*) profiles="${1#*=}" ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "run_all_profiles.sh: unknown argument '$1' (runner options go after --; see --help)" >&2; exit 2 ;;
    esac
    shift
done
runner="$build/bin/spirv_intel_cts"
[ -x "$runner" ] || { echo "run_all_profiles.sh: no runner at $runner (build first, or give --build-dir=DIR)" >&2; exit 2; }
out="${out:-$build/profiles}"
mkdir -p "$out" || exit 2
extra=("$@")  # none: the runner's default, one worker a core
# The selection options reach the union's case list too, so that it lists what the runs selected.
selection=()
for a in "${extra[@]}"; do
    case "$a" in --extended | --huge | --quick | --tier=*) selection+=("--runner-arg=$a") ;; esac
done
status=0
IFS=, read -r -a list <<<"$profiles"
for profile in "${list[@]}"; do
    start=$SECONDS
    env REFDEV_PROFILE="$profile" "$runner" "--json=$out/results_$profile.json" "--junit=$out/results_$profile.xml" \
        "--log=$out/run_$profile.log" "${extra[@]}" >"$out/out_$profile.txt" 2>&1
    rc=$?
    summary=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$out/out_$profile.txt" | tail -1)
    echo "$profile: ${summary:-no summary (see $out/out_$profile.txt)} ($((SECONDS - start)) s, exit $rc)"
    if [ $rc -ne 0 ]; then
        status=1
        tail -5 "$out/out_$profile.txt"
    fi
done
python3 "$root/scripts/ci/profile_coverage.py" --runner "$runner" --profiles "$profiles" --reports "$out" \
    --json "$out/coverage.json" "${selection[@]}" || status=1
exit $status
