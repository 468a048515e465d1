#!/bin/sh
# Checks REFDEV_REPORT_AS through the ICD loader: "spec" (and unset) report the profile as it is,
# "neo-26.27" reports as compute-runtime 26.27 (every extension at 1.0.0, SPIR-V queries without
# SPV_INTEL_2d_block_io / SPV_INTEL_subgroup_matrix_multiply_accumulate and their capabilities, the device
# name saying so) while the probe's module still builds, and any other value is refused with one line and no
# platform.
# usage: check_report_as.sh <icd dir> <query probe> <module.spv>
set -u
icd_dir=$1 probe=$2 module=$3
export OCL_ICD_VENDORS=$icd_dir REFDEV_PROFILE=xe_hpc
unset REFDEV_FAULTS REFDEV_REPORT_AS
fail() { echo "FAIL: $*"; exit 1; }
unset_out=$(mktemp) out=$(mktemp)
trap 'rm -f $unset_out $out' EXIT

"$probe" "$module" >"$unset_out" 2>&1 || fail "unset: probe exited $? ($(cat $unset_out))"
REFDEV_REPORT_AS=spec "$probe" "$module" >"$out" 2>&1 || fail "spec: probe exited $? ($(cat $out))"
diff "$unset_out" "$out" >/dev/null || fail "spec differs from unset: $(diff $unset_out $out)"
grep -q "^extension_version cl_intel_subgroup_2d_block_io: 1.1.0$" "$out" || fail "spec: 2D block IO version"
grep -q "^spirv_extensions:.* SPV_INTEL_2d_block_io" "$out" || fail "spec: $(grep spirv_ext $out)"
grep -qx "device_name: RefDev Xe-HPC-like SPIR-V interpreter" "$out" || fail "spec: $(grep device_name $out)"

REFDEV_REPORT_AS=neo-26.27 "$probe" "$module" >"$out" 2>&1 || fail "neo-26.27: probe exited $? ($(cat $out))"
grep -qx "device_name: RefDev Xe-HPC-like SPIR-V interpreter (reporting as compute-runtime 26.27)" "$out" ||
    fail "neo-26.27: $(grep device_name $out)"
# The release lists SPV_INTEL_subgroup_buffer_prefetch with cl_intel_subgroup_buffer_prefetch (Xe-HPC reports it).
grep -qx "spirv_extensions: SPV_INTEL_subgroups SPV_INTEL_subgroup_buffer_prefetch" "$out" ||
    fail "neo-26.27: $(grep spirv_ext $out)"
grep -q "^spirv_capabilities:.* 6220" "$out" || fail "neo-26.27: no SubgroupBufferPrefetchINTEL: $(grep spirv_cap $out)"
grep "^spirv_capabilities:" "$out" | grep -Eq " (6228|6229|6230|6236)( |$)" &&
    fail "neo-26.27: 2D block IO or MMA capabilities listed: $(grep spirv_cap $out)"
grep -q "^spirv_capabilities:.* 5568" "$out" || fail "neo-26.27: $(grep spirv_cap $out)"
grep -q "^extension_version cl_intel_subgroup_2d_block_io: 1.0.0$" "$out" || fail "neo-26.27: 2D block IO version"
versions=$(grep -c "^extension_version " "$out")
[ "$versions" -eq "$(grep -c "^extension_version " "$unset_out")" ] || fail "neo-26.27: the extension list changed"
other=$(grep "^extension_version " "$out" | grep -v ': 1\.0\.0$')
[ -z "$other" ] || fail "neo-26.27: versions other than 1.0.0: $other"
# The kernel still builds and its queries answer as before.
grep -q "^compile_sub_group_size fixed: 16 (err 0)$" "$out" || fail "neo-26.27: $(grep compile $out)"

for bad in neo neo-26.28 SPEC; do
    REFDEV_REPORT_AS=$bad "$probe" "$module" >"$out" 2>&1
    rc=$?
    [ $rc -eq 2 ] || fail "REFDEV_REPORT_AS=$bad: expected no platform (exit 2), got $rc ($(cat $out))"
    grep -qxF "REFDEV_REPORT_AS: unknown report '$bad'; valid: spec neo-26.27 (the reference device reports no platform)" "$out" ||
        fail "REFDEV_REPORT_AS=$bad message: $(cat $out)"
done
echo "REFDEV_REPORT_AS OK"
