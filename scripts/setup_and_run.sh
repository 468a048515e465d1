#!/usr/bin/env bash
# One command from a fresh checkout to results: installs missing Debian packages, configures the default
# preset, builds, and runs the whole suite on the default device (the reference device built here).
# Extra arguments go to the runner, e.g.:  scripts/setup_and_run.sh --quick   or   ... api.sub_group_sizes
# Results: build/results/results.json, results.xml (JUnit), run.log and summary.html; exit status is the
# runner's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup/install_deps.sh
cmake --preset default
cmake --build --preset default -j2
mkdir -p build/results
set +e
build/bin/spirv_intel_cts --json=build/results/results.json --junit=build/results/results.xml \
    --log=build/results/run.log "$@"
status=$?
set -e
if [ -f build/results/results.json ]; then
    python3 scripts/reports/results_html.py build/results/results.json -o build/results/summary.html ||
        echo "setup_and_run: could not write the HTML summary"
fi
echo
echo "setup_and_run: runner exit status $status (0 = every case passed or was not supported)"
echo "setup_and_run: reports in $root/build/results/ (results.json, results.xml, run.log, summary.html)"
exit $status
