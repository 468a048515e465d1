#!/usr/bin/env bash
# What CI runs (README's second command). Every step runs; the exit status is 1 if any failed.
#   1. default preset: configure, build, ctest (unit tests, script tests, format check, runner checks, and
#      the reference device's fuzz targets: refdev_loader_fuzz 20 s, refdev_launch_fuzz.xe_hpc/.xe_hpg 25 s
#      each, building and launching mutated suite modules under both profiles)
#   2. the whole suite on the reference device, once per profile (xe_hpc, xe_hpg), in --isolate mode,
#      with --fail-if-all-skipped so a broken device setup cannot look green; reports in build/ci/
#   3. asan preset (AddressSanitizer + UndefinedBehaviorSanitizer): build the reference device, its tests and
#      the SPIR-V checker tests, run ctest -L 'refdev|spirv_check' (the fuzz targets included; the launch
#      fuzz is seeded with step 1's build/assets/modules, as this build does not build the assets)
# Environment: CTS_CI_SKIP_ASAN=1 skips step 3, CTS_CI_SKIP_CAMPAIGN=1 the fault campaign, CTS_CI_SUITE_ARGS adds runner options (e.g. --quick).
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

step "configure (default)" cmake --preset default
step "build (default)" cmake --build --preset default -j2
step "ctest (default)" ctest --preset default

mkdir -p build/ci
for profile in xe_hpc xe_hpg; do
    # shellcheck disable=SC2086
    step "suite on reference device ($profile)" env REFDEV_PROFILE=$profile build/bin/spirv_intel_cts \
        --isolate --timeout=120 --fail-if-all-skipped \
        --json=build/ci/results_$profile.json --junit=build/ci/results_$profile.xml \
        --log=build/ci/run_$profile.log ${CTS_CI_SUITE_ARGS:-}
done

# Mutation campaign: every planted driver bug must fail at least one case, the clean device none.
if [ "${CTS_CI_SKIP_CAMPAIGN:-0}" != "1" ]; then
    step "fault campaign (subgroups)" python3 scripts/fault_campaign.py subgroups --build-dir build \
        --faults-source reference_device/ext/subgroups/faults.cpp --profile xe_hpc --profile xe_hpg --show 1
    # No OpenCL-table shape needs padding, so padding_not_zeroed is caught only by the extended cases; 32-bit
    # offset arithmetic (offset_32bit_wrap, offset_int32_overflow) only by the huge cases (buffers past 4 GiB,
    # zero pages on the reference device: no memory cost).
    step "fault campaign (2d_block_io)" python3 scripts/fault_campaign.py 2d_block_io --build-dir build \
        --faults-source reference_device/ext/2d_block_io/faults.cpp --profile xe_hpc --runner-arg=--extended \
        --runner-arg=--huge --show 1
    step "fault campaign (matrix_multiply_accumulate)" python3 scripts/fault_campaign.py matrix_multiply_accumulate \
        --build-dir build --faults-source reference_device/ext/matrix_multiply_accumulate/faults.cpp \
        --profile xe_hpc --profile xe_hpg --show 1
    # Media block IO exists on the Xe-HPG-like profile only.
    step "fault campaign (media_block_io)" python3 scripts/fault_campaign.py media_block_io --build-dir build \
        --faults-source reference_device/ext/media_block_io/faults.cpp --profile xe_hpg --show 1
    # A kernel that never ran, or results not read back intact, must fail every case that runs (the scale
    # cases of every group included, the huge ones too).
    step "fault campaign (kernel never ran / corrupt read-back)" python3 scripts/fault_campaign.py \
        matrix_multiply_accumulate media_block_io '*.scale.*' --build-dir build \
        --faults kernel_not_run,read_back_corrupt --profile xe_hpc --profile xe_hpg --runner-arg=--huge \
        --require-every-case --show 3
    # The query faults of the ICD (reference_device/faults.cpp); every api case they target runs on xe_hpc.
    step "fault campaign (api)" python3 scripts/fault_campaign.py api --build-dir build \
        --faults spirv_queries_omit_new_extensions,sub_group_sizes_unsorted_duplicate,compile_sub_group_size_query_zero,extension_version_2d_block_io_1_0 \
        --profile xe_hpc --show 1
fi

if [ "${CTS_CI_SKIP_ASAN:-0}" != "1" ]; then
    step "configure (asan)" cmake --preset asan -DREFDEV_LAUNCH_FUZZ_SEEDS="$root/build/assets/modules"
    targets=$(cmake --build build-asan --target help | sed -n 's/^\.\.\. \([A-Za-z0-9_]*\).*/\1/p' |
              grep -E '^(refdev|RefDev)|^spirv_check_test$' | tr '\n' ' ')
    # shellcheck disable=SC2086
    step "build (asan): reference device + tests" cmake --build build-asan -j2 --target $targets
    # Run in step 1 only: clinfo is not instrumented, so it cannot load the instrumented ICD; the fault
    # switch check expects the planted crash fault to die by SIGSEGV, which ASan turns into exit status 1.
    step "ctest (asan) -L refdev + SPIR-V checker" ctest --preset asan -L 'refdev|spirv_check' \
        -E '^refdev\.clinfo\.|^refdev\.faults\.switches'
fi

if [ "${#failed[@]}" -ne 0 ]; then
    echo "ci: FAILED steps: ${failed[*]}"
    exit 1
fi
echo "ci: all steps passed"
