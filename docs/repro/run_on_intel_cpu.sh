#!/usr/bin/env bash
# Runs one reproducer on Intel's OpenCL CPU runtime: run_on_intel_cpu.sh REPRO_HOST MODULE.spv MODE [X Y].
# Passes (exit 0) when the bug shows as docs/known_driver_bugs.md states; exit 1 when the runtime now behaves
# as the spec says (the bug is fixed: drop its waiver); 77 (skip) when the runtime is not installed.
set -uo pipefail
version=2026.2.0
icd="${INTEL_CPU_ICD:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/intel-opencl-rt-$version/icd/intel-cpu.icd}"
if [ ! -f "$icd" ]; then
    echo "skipped: Intel's OpenCL CPU runtime is not installed ($icd missing; run scripts/setup/install_intel_cpu_runtime.sh)"
    exit 77
fi
host="$1"
shift
OCL_ICD_VENDORS="$icd" "$host" "$@"
rc=$?
case $rc in
    0) echo "reproduced: the runtime shows the documented bug"; exit 0 ;;
    3) echo "NOT reproduced: the runtime behaves as the spec says; the bug is fixed, drop its waiver"; exit 1 ;;
    *) echo "reproducer could not run (exit $rc)"; exit 1 ;;
esac
