#!/usr/bin/env bash
# One command from a fresh checkout to results: installs the missing Debian packages a run needs
# (scripts/setup/debian_packages_run.txt), configures the default preset, builds only the runner, the reference
# device and the assets (no tests, no offline-compiler or Khronos tooling: README's second command builds
# and runs those), and runs the whole suite on the default device (the reference device built here).
# Extra arguments go to the runner, e.g.:  scripts/setup_and_run.sh --quick   or   ... api.sub_group_sizes
# Results: build/results/results.json, results.xml (JUnit), run.log and summary.html; exit status is the
# runner's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
phase() {  # NAME: the time since the start, one line (scripts/bench/first_result.sh reads these)
    echo "setup_and_run: $1 at $SECONDS s"
}
scripts/setup/install_deps.sh --run
phase "packages ready"
# No format test in a build that builds no tests; scripts/ci_tests.sh configures it back on. A first build
# compiles at -O1 without debug information (less compile time than the preset's -O2 -g; the run
# takes seconds either way); a build directory that exists keeps its type (the preset's, once
# scripts/ci_tests.sh or `cmake --preset default` has configured it).
first_build=()
if [ ! -f build/CMakeCache.txt ]; then
    first_build=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG")
fi
cmake --preset default -DCTS_CHECK_FORMAT=OFF "${first_build[@]}"
phase "configured"
cmake --build --preset default -j2 --target spirv_intel_cts RefDevOpenCL assets_check
phase "built"
mkdir -p build/results
set +e
build/bin/spirv_intel_cts --json=build/results/results.json --junit=build/results/results.xml \
    --log=build/results/run.log "$@"
status=$?
set -e
phase "run finished"
if [ -f build/results/results.json ]; then
    python3 scripts/reports/results_html.py build/results/results.json -o build/results/summary.html ||
        echo "setup_and_run: could not write the HTML summary"
fi
echo
echo "setup_and_run: runner exit status $status (0 = every case passed or was not supported)"
echo "setup_and_run: reports in $root/build/results/ (results.json, results.xml, run.log, summary.html)"
exit $status
