#!/usr/bin/env bash
# What CI runs (README's second command). Every step runs; the exit status is 1 if any failed.
#   0. the missing Debian packages and upstream SPIRV-Tools and SPIRV-Headers (scripts/setup/install_deps.sh)
#   1. default preset: configure, build, ctest (unit tests, script tests, format check, runner checks, and
#      the reference device's fuzz targets: refdev_loader_fuzz 20 s, refdev_launch_fuzz.xe_hpc/.xe_hpg/.cpu 25 s
#      each, building and launching mutated suite modules under those profiles, and refdev_icd_fuzz.xe_hpc/
#      .xe_hpg/.cpu 20 s each, the same through the OpenCL API and the ICD with REFDEV_BRANCH_BUDGET as hang check)
#      and the install test package.install_and_run; then the TGZ and DEB packages (cpack), each unpacked
#      running --quick on its own library, and the .deb listing the runner
#   2. the whole suite on the reference device, once per profile (xe_hpc, xe_hpg, xe2, xe3, xe_lpg, cpu; the
#      union must pass every case, scripts/ci/profile_coverage.py), in parallel isolated worker
#      processes (--jobs, default one a core; the CTest shards run --jobs=1 each, so the comparison below
#      sets the parallel run against serial shards),
#      with --fail-if-all-skipped so a broken device setup cannot look green; reports in build/ci/; then
#      xe_hpc once more reporting as compute-runtime 26.27 (REFDEV_REPORT_AS=neo-26.27), whose 2D block IO,
#      MMA and workloads cases must pass as device_specific (scripts/ci/as_shipped_check.py); then the same run
#      as CTest shards (ctest -L conformance), whose merged report must equal the unsharded one
#   3. asan preset (AddressSanitizer + UndefinedBehaviorSanitizer): build the reference device, its tests and
#      the SPIR-V checker tests (after step 5: beside it, each slowed the other and nothing was gained), run
#      ctest -L 'refdev|spirv_check' (the fuzz targets included; the launch and ICD fuzz are seeded with step 1's
#      build/assets/modules, as this build does not build the assets)
#   4. Intel's offline compilers judging every module: Debian 12's ocloc (IGC 1.0.12504) for dg2-g10 and pvc, and
#      Intel's current one from Debian sid (IGC 2.40.14, scripts/setup/install_intel_ocloc.sh) for pvc, bmg, lnl-m, ptl,
#      dg2-g10 and mtl; an independent compile of the modules cross-checking each verdict (skipped, and said so,
#      without the compiler)
#      and Intel's GPU driver itself (compute-runtime 26.27 from Debian sid, no-hardware mode): the whole suite
#      --build-only for bmg, pvc, dg2, mtl, lnl-m and ptl, and two cross-checks (the neo-26.27 imitation against
#      its queries; its build verdicts against ocloc 26.27's), after the offline compilers in the same background job;
#      then Triton's Intel backend (scripts/setup/install_triton.sh) and the check that spirv_new_assets/triton/
#      regenerates byte for byte
#   5. Intel's OpenCL CPU runtime (installed from PyPI): the whole suite with its waivers (one runner, --jobs;
#      the "skip" entries' known crashes and hangs recorded Waived without running), the reproducers of its
#      bugs, and the hidden-assumption check
# Both builds use ccache when it is installed (a fresh clone of a tree built before on this machine rebuilds
# only what changed); each step prints its time, each build its ccache hits and misses.
# Environment: CTS_CI_SKIP_ASAN=1 skips step 3, CTS_CI_SKIP_INTEL_CPU=1 step 5, CTS_CI_SKIP_CAMPAIGN=1 the fault campaign, CTS_CI_SKIP_TRITON=1 the Triton check, CTS_CI_SUITE_ARGS adds runner options (e.g. --quick).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
failed=()
step() {
    local name="$1"
    shift
    echo "=== ci: $name"
    local start=$SECONDS
    if "$@"; then
        echo "=== ci: $name: ok ($((SECONDS - start)) s)"
    else
        echo "=== ci: $name: FAILED ($((SECONDS - start)) s)"
        failed+=("$name")
    fi
}

# Intel's offline compilers as a second judge (scripts/setup/run_offline_compiler.sh per target and compiler: the
# whole suite built for the target, with the waivers of docs/waivers/igc-*.json and --fail-on-stale-waivers; the
# same as ctest -L offline_compiler), then an independent compile of every module a verdict rests on, checked
# against those verdicts (scripts/judges/offline_cross_check.py):
#   - Debian 12's ocloc 22.43 (intel-opencl-icd, IGC 1.0.12504) for the two targets it knows, dg2-g10 and pvc;
#   - Intel's current ocloc 26.27 with IGC 2.40.14 from Debian sid (scripts/setup/install_intel_ocloc.sh, into a cache
#     directory, nothing installed system-wide) for all six described targets. sid keeps only its newest
#     upload: when the pinned release is gone the script installs sid's current one, and a target whose
#     description does not know that release is skipped (77) with a line naming the release to describe; an
#     unreachable archive skips the step with its one-line reason, so Debian's archive moving never turns CI red.
# These need only the build, and most of their time is compilers waiting on themselves and on the archive: they
# run in the background beside the steps below (their own log, build/ci/offline_compilers.log, shown at the end).
ok_or_skipped() {  # COMMAND...: 77 (skipped, said why: no compiler, driver or report to judge by) counts as done
    local status=0
    "$@" || status=$?
    [ "$status" = 0 ] || [ "$status" = 77 ]
}
offline_compilers() {
    if command -v ocloc >/dev/null 2>&1; then
        for t in dg2-g10 pvc; do
            step "offline compiler (Debian 12 ocloc): the suite built for $t" \
                ok_or_skipped scripts/setup/run_offline_compiler.sh "$t" --compiler=system
        done
        step "offline compiler (Debian 12 ocloc): independent compile of every module agrees with the verdicts" \
            python3 scripts/judges/offline_cross_check.py --build-dir build dg2-g10 pvc
    else
        echo "=== ci: offline compiler (Debian 12 ocloc): skipped: no ocloc on PATH (Debian: apt-get install intel-opencl-icd)"
    fi
    local install_start=$SECONDS current_ocloc known t
    if current_ocloc="$(scripts/setup/install_intel_ocloc.sh)"; then
        echo "=== ci: Intel's current offline compiler installed: $current_ocloc ($((SECONDS - install_start)) s)"
        for t in pvc bmg lnl-m ptl dg2-g10 mtl; do
            step "offline compiler (current ocloc): the suite built for $t" \
                ok_or_skipped scripts/setup/run_offline_compiler.sh "$t" --compiler=current
        done
        # Only the targets whose description knows this compiler release (the others were skipped above).
        known=$(python3 scripts/judges/offline_cross_check.py --ocloc="$current_ocloc" --known-targets --build-dir build)
        if [ -n "$known" ]; then
            # shellcheck disable=SC2086
            step "offline compiler (current ocloc): independent compile of every module agrees with the verdicts" \
                python3 scripts/judges/offline_cross_check.py --build-dir build --ocloc="$current_ocloc" \
                --report-dir build/offline_compiler/current $known
        fi
    else
        echo "=== ci: offline compiler (current ocloc): skipped: scripts/setup/install_intel_ocloc.sh could not install it (its line above says why)"
    fi
    intel_gpu_nohw
    triton_frozen
    printf '%s\n' "${failed[@]}" >build/ci/offline_compilers.failed
}
# Intel's GPU driver itself, compute-runtime 26.27 from Debian sid in its no-hardware mode (docs/intel_gpu_nohw.md;
# scripts/setup/install_intel_compute_runtime.sh, a cache directory, nothing system-wide): the whole suite --build-only
# for each product it knows, with docs/waivers/compute-runtime-26.27.json and --fail-on-stale-waivers; then the
# two cross-checks: the reference device's imitation of this driver (REFDEV_REPORT_AS=neo-26.27) against its
# device queries, and its build verdict of every module against the offline judge's with ocloc 26.27 (the same
# IGC) for the same target. Skipped, and said so, when sid's packages cannot be fetched.
nohw_product() {  # PRODUCT: the run's summary lines (its last 30 when it did not pass); its exit status
    local out="build/ci/nohw_$1.out" status=0
    scripts/setup/run_intel_gpu_nohw.sh "$1" --no-install >"$out" 2>&1 || status=$?
    grep -E '^(Build-only run|Runtime:|Device:|[0-9]+ passed)' "$out"
    [ "$status" = 0 ] || tail -n 30 "$out"
    return "$status"
}
# Triton's Intel backend (PyPI triton-xpu 3.3.0b1, a venv under ~/.cache; docs/triton.md): the modules frozen in
# spirv_new_assets/triton/ regenerate byte for byte. Skipped, and said so, when triton-xpu cannot be installed.
triton_frozen() {
    [ "${CTS_CI_SKIP_TRITON:-0}" != "1" ] || return 0
    if scripts/setup/install_triton.sh >/dev/null; then
        step "Triton: spirv_new_assets/triton/ regenerates byte for byte" scripts/assets/triton/check_frozen.py
    else
        echo "=== ci: Triton: skipped: scripts/setup/install_triton.sh could not install triton-xpu (its line above says why)"
    fi
}
intel_gpu_nohw() {
    local install_start=$SECONDS p
    if scripts/setup/install_intel_compute_runtime.sh --print-icd >/dev/null; then
        echo "=== ci: Intel's GPU driver (compute-runtime 26.27, no hardware) installed ($((SECONDS - install_start)) s)"
        for p in bmg pvc dg2 mtl lnl-m ptl; do
            step "Intel GPU driver without hardware: the suite --build-only on $p" ok_or_skipped nohw_product "$p"
        done
        step "Intel GPU driver without hardware: the reference device's neo-26.27 imitation answers as the driver" \
            python3 scripts/judges/driver_report_cross_check.py --build-dir build
        step "Intel GPU driver without hardware: every module's build verdict equals ocloc 26.27's" \
            ok_or_skipped python3 scripts/judges/runtime_offline_cross_check.py --build-dir build --skip-missing
    else
        echo "=== ci: Intel GPU driver without hardware: skipped: scripts/setup/install_intel_compute_runtime.sh could not install it (its line above says why)"
    fi
}


# The Debian packages of scripts/setup/debian_packages.txt not installed yet (none under .ci/run, which installs
# them first), then SPIRV-Tools when the system's is older than 2025.1: README's second command on a fresh
# machine after the first, which installs only what a run needs.
step "install missing packages and SPIRV-Tools" scripts/setup/install_deps.sh

# ccache (when installed; scripts/setup/debian_packages.txt lists it) keeps compiler outputs between CI runs on one
# machine: keyed by the preprocessed source and the flags, with paths taken relative to the clone
# (CCACHE_BASEDIR, CCACHE_NOHASHDIR), so a fresh clone of a tree this machine built before rebuilds only what
# changed. A cold cache builds everything, as without it. Each build step prints its hits and misses.
launcher=()
if command -v ccache >/dev/null 2>&1; then
    export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
ccache_stats() {  # the hits and misses since the last ccache -z
    command -v ccache >/dev/null 2>&1 && ccache -s 2>/dev/null | grep -E '^ *(Hits|Misses):' | tr -s ' ' | tr '\n' ';'
    echo
}
build() {  # PRESET [cmake --build arguments]: the build, then its ccache figures
    local preset="$1" status=0
    shift
    command -v ccache >/dev/null 2>&1 && ccache -z >/dev/null
    cmake --build "$@" || status=$?
    echo "ccache ($preset): $(ccache_stats)"
    return $status
}
step "configure (default)" cmake --preset default "${launcher[@]}"
step "build (default)" build default --preset default -j2
mkdir -p build/ci
offline_log=build/ci/offline_compilers.log
offline_start=$SECONDS
(failed=(); offline_compilers) >"$offline_log" 2>&1 &
offline_pid=$!
echo "=== ci: offline compilers: started in the background (log: $offline_log)"
step "ctest (default)" ctest --preset default

# Packages (ctest above ran package.install_and_run on packages of its own, written outside the build tree);
# the packages built here must also run where they are unpacked, loading their own library and naming no
# path of the build tree, which only these packages themselves show.
rm -f build/spirv_intel_cts-*-Linux.tar.gz build/spirv-intel-cts_*.deb
step "packages (cpack TGZ + DEB)" sh -c 'cd build && cpack -G "TGZ;DEB"'
step "package: the unpacked archive and .deb run --quick" sh -c \
    'python3 scripts/ci/package_test.py --build-dir build --tgz build/spirv_intel_cts-*-Linux.tar.gz --deb build/spirv-intel-cts_*.deb && dpkg-deb -c build/spirv-intel-cts_*.deb | grep "/usr/bin/spirv_intel_cts$" >/dev/null'

mkdir -p build/ci
for profile in xe_hpc xe_hpg xe2 xe3 xe_lpg cpu; do
    # shellcheck disable=SC2086
    step "suite on reference device ($profile)" env REFDEV_PROFILE=$profile build/bin/spirv_intel_cts \
        --isolate --timeout=120 --fail-if-all-skipped \
        --json=build/ci/results_$profile.json --junit=build/ci/results_$profile.xml \
        --log=build/ci/run_$profile.log ${CTS_CI_SUITE_ARGS:-}
done
# The union of the six runs: every case passes on some profile, none fails on any (scripts/ci/profile_coverage.py
# reading the reports above; ctest's profiles.coverage checks the same with --extended and --huge).
if [ -z "${CTS_CI_SUITE_ARGS:-}" ]; then
    step "every case passes on some profile (union of the six runs)" python3 scripts/ci/profile_coverage.py \
        --reports build/ci --json build/ci/profile_coverage.json
fi

# The suite as it meets the driver as shipped: xe_hpc reporting as compute-runtime 26.27 does
# (REFDEV_REPORT_AS=neo-26.27: every extension at 1.0.0, no SPV_INTEL_2d_block_io or
# SPV_INTEL_subgroup_matrix_multiply_accumulate in the SPIR-V queries; it still builds and runs those modules).
# Every 2D block IO, MMA and workloads case that passed above must pass here as device_specific, the run must
# name the version gaps (header, summary, "version_gaps") and no case may fail (scripts/ci/as_shipped_check.py).
# shellcheck disable=SC2086
step "suite on reference device (xe_hpc, reporting as compute-runtime 26.27)" sh -c \
    'env REFDEV_PROFILE=xe_hpc REFDEV_REPORT_AS=neo-26.27 build/bin/spirv_intel_cts \
        --isolate --timeout=120 --fail-if-all-skipped \
        --json=build/ci/results_xe_hpc_neo-26.27.json --junit=build/ci/results_xe_hpc_neo-26.27.xml \
        --log=build/ci/run_xe_hpc_neo-26.27.log "$@" >build/ci/out_xe_hpc_neo-26.27.txt 2>&1; rc=$?
     cat build/ci/out_xe_hpc_neo-26.27.txt; exit $rc' sh ${CTS_CI_SUITE_ARGS:-}
step "as shipped: the 2D block IO, MMA and workloads cases run as device_specific" python3 \
    scripts/ci/as_shipped_check.py build/ci/results_xe_hpc.json build/ci/results_xe_hpc_neo-26.27.json \
    --manifest build/assets/manifest.json --output build/ci/out_xe_hpc_neo-26.27.txt \
    --output build/ci/run_xe_hpc_neo-26.27.log

# The same suite as CTest shards (ctest -L conformance: GoogleTest sharding, one JSON/JUnit per shard, merged):
# the merged report must equal the unsharded xe_hpc run above, case by case.
if [ -z "${CTS_CI_SUITE_ARGS:-}" ]; then
    step "ctest -L conformance (shards + merge)" ctest --test-dir build -L conformance -j2 --output-on-failure
    step "sharded report equals the unsharded one" python3 scripts/reports/compare_results.py --fail-on-change --show 5 \
        build/ci/results_xe_hpc.json build/conformance/merged.json
fi

# Mutation campaign: every planted driver bug must fail at least one case, the clean device none.
if [ "${CTS_CI_SKIP_CAMPAIGN:-0}" != "1" ]; then
    # Each family's campaigns, as its descriptor lists them (test_conformance/<group>/family.json, "fault_campaigns":
    # the faults of its reference_device/ext/<group>/ folder, build faults, and for workloads the composition
    # faults and the instruction faults the combined kernels must catch).
    for family in $(python3 scripts/assets/families.py); do
        step "fault campaign ($family)" python3 scripts/faults/fault_campaign.py --family "$family" --build-dir build
    done
    # A kernel that never ran, or results not read back intact, must fail every case that runs a kernel, in
    # every group (extended, scale and huge cases included), on every profile (sub-group sizes 4 and 64 on
    # cpu, image block IO beside 2D block IO on xe2 and xe3); the api.* query cases run none and are listed,
    # not counted.
    step "fault campaign (kernel never ran / corrupt read-back, all groups)" python3 scripts/faults/fault_campaign.py \
        $(python3 scripts/assets/families.py --top) --build-dir build \
        --faults kernel_not_run,read_back_corrupt --profile xe_hpc --profile xe_hpg --profile xe2 \
        --profile xe3 --profile xe_lpg --profile cpu --require-every-case \
        --runner-arg=--extended --runner-arg=--huge --show 3
    # The query faults of the ICD (reference_device/faults.cpp); every api case they target runs on xe_hpc.
    step "fault campaign (api)" python3 scripts/faults/fault_campaign.py api --build-dir build \
        --faults spirv_queries_omit_new_extensions,sub_group_sizes_unsorted_duplicate,compile_sub_group_size_query_zero,extension_version_2d_block_io_unreported \
        --profile xe_hpc --show 1
    # Every fault the device lists (refdev_faults --names, so faults added later are included) must fail a case
    # of the default run (no --extended, --huge or --quick) on some profile, but for the exemptions
    # scripts/faults/fault_default_run.py lists with their reasons; it prints each fault's smallest catching case.
    # About 2.5 CPU minutes (9 min wall on a 2-core machine shared with other jobs).
    step "fault campaign (every fault caught by the default run)" python3 scripts/faults/fault_campaign.py \
        --all-faults --default-run --build-dir build --jobs 2
fi

# Intel's OpenCL CPU runtime (PyPI intel-opencl-rt, pinned): the whole suite with the waivers shipped for that
# release and --fail-on-stale-waivers, one runner with --jobs (scripts/setup/run_intel_cpu.sh), and the reproducers of its bugs
# (ctest -L intel_cpu); then the hidden-assumption check: every case that catches a planted SPV_INTEL_subgroups fault
# must pass (or be a waived, documented runtime bug) on this real driver. CTS_CI_SKIP_INTEL_CPU=1 skips it.
if [ "${CTS_CI_SKIP_INTEL_CPU:-0}" != "1" ]; then
    step "install Intel's OpenCL CPU runtime" scripts/setup/install_intel_cpu_runtime.sh
    step "ctest -L intel_cpu (the suite and the reproducers on Intel's OpenCL CPU runtime)" \
        ctest --test-dir build -L intel_cpu --output-on-failure
    if [ -f build/ci/catching_subgroups.json ]; then
        step "hidden-assumption check (SPV_INTEL_subgroups faults' catching cases on Intel's runtime)" \
            python3 scripts/judges/hidden_assumption_check.py build/ci/catching_subgroups.json build/intel_cpu/merged.json
    fi
fi

if [ "${CTS_CI_SKIP_ASAN:-0}" != "1" ]; then
    step "configure (asan)" cmake --preset asan -DREFDEV_LAUNCH_FUZZ_SEEDS="$root/build/assets/modules" "${launcher[@]}"
    asan_targets=$(cmake --build build-asan --target help | sed -n 's/^\.\.\. \([A-Za-z0-9_]*\).*/\1/p' |
                   grep -E '^(refdev|RefDev)|^spirv_check_test$' | tr '\n' ' ')
    # shellcheck disable=SC2086
    step "build (asan): reference device + tests" build asan build-asan -j2 --target $asan_targets
    # Run in step 1 only: clinfo is not instrumented, so it cannot load the instrumented ICD; the fault
    # switch check expects the planted crash fault to die by SIGSEGV, which ASan turns into exit status 1.
    step "ctest (asan) -L refdev + SPIR-V checker" ctest --preset asan -L 'refdev|spirv_check' \
        -E '^refdev\.clinfo\.|^refdev\.faults\.switches'
fi

# The offline compilers' steps, started after the build.
wait "$offline_pid"
echo "=== ci: offline compilers (in the background): $((SECONDS - offline_start)) s in all; their log:"
cat "$offline_log"
if [ -f build/ci/offline_compilers.failed ]; then
    while IFS= read -r name; do [ -n "$name" ] && failed+=("$name"); done <build/ci/offline_compilers.failed
else
    failed+=("offline compilers (no result: see $offline_log)")
fi

if [ "${#failed[@]}" -ne 0 ]; then
    echo "ci: FAILED steps: ${failed[*]}"
    exit 1
fi
echo "ci: all steps passed"
