# shellcheck shell=bash
# Sourced by scripts/setup/install_intel_compute_runtime.sh and scripts/setup/run_intel_gpu_nohw.sh: the debug keys that
# make Intel's GPU driver (compute-runtime 26.27, Debian sid's intel-opencl-icd) describe a GPU of one product
# on a machine without one. Every device query and every program build is then the real driver's; nothing
# executes. docs/intel_gpu_nohw.md gives the reasons at length.

# The ProductFamilyOverride names that yield a device (plain `lnl` gives device id 0: lnl-m is Lunar Lake).
readonly NOHW_PRODUCTS=(bmg pvc dg2 mtl lnl-m ptl)

# nohw_is_product NAME: NAME is one of NOHW_PRODUCTS.
nohw_is_product() {
    local p
    for p in "${NOHW_PRODUCTS[@]}"; do
        [ "$p" = "$1" ] && return 0
    done
    return 1
}

# nohw_export_keys PRODUCT: exports the keys for a device of PRODUCT.
nohw_export_keys() {
    export NEOReadDebugKeys=1           # the driver reads the keys below from the environment
    export SetCommandStreamReceiver=1   # AUB command stream receiver: the device comes from ProductFamilyOverride, no DRM or GPU
    export ProductFamilyOverride="$1"
    export HardwareInfoOverride=1x4x8   # slices x sub-slices x EUs; without it: "Missing override for hardware info"
    export UseAubStream=0               # Debian builds without aub_stream: 1 calls a null manager (SIGSEGV)
    export EnableLEO=0                  # else clGetPlatformIDs goes to libze_intel_gpu.so.1 when loadable (SIGSEGV in zeInitDrivers)
    export EnableTimestampPacket=0      # else clFinish and blocking enqueues wait forever for a GPU's timestamps
    export NEO_CACHE_PERSISTENT=0       # no compiler cache in ~/.cache/neo_compiler_cache
}
