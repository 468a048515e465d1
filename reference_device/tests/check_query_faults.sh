#!/bin/sh
# Checks the query faults of the reference device through the ICD loader (REFDEV_PROFILE=xe_hpc): each
# fault name is accepted, and the query it targets answers differently from the clean device while the
# other queries do not change.
# usage: check_query_faults.sh <icd dir> <query probe> <module.spv>
set -u
icd_dir=$1 probe=$2 module=$3
export OCL_ICD_VENDORS=$icd_dir REFDEV_PROFILE=xe_hpc
fail() { echo "FAIL: $*"; exit 1; }
clean=$(mktemp) out=$(mktemp)
trap 'rm -f $clean $out' EXIT

env -u REFDEV_FAULTS "$probe" "$module" >"$clean" 2>&1 || fail "clean probe exited $? ($(cat $clean))"
grep -q "^spirv_extensions:.* SPV_INTEL_2d_block_io" "$clean" || fail "clean: $(cat $clean)"
grep -q "^spirv_capabilities:.* 6228 6229 6230" "$clean" || fail "clean: no 2D block IO capabilities"
grep -q "^sub_group_sizes: 16 32$" "$clean" || fail "clean: sub-group sizes $(grep sub_group $clean)"
grep -q "^extension_version cl_intel_subgroup_2d_block_io: 1.1.0$" "$clean" || fail "clean: 2D block IO version"
grep -q "^compile_sub_group_size fixed: 16 (err 0)$" "$clean" || fail "clean: $(grep compile $clean)"

# check <fault> <line prefix whose value must change> <expected new line (grep -x pattern)> [changed lines]
check() {
    REFDEV_FAULTS=$1 "$probe" "$module" >"$out" 2>&1 || fail "$1: probe exited $? ($(cat $out))"
    grep -q "refdev: faults active: $1" "$out" || fail "$1: fault not reported active"
    grep -qx "$3" "$out" || fail "$1: expected a line matching '$3', got: $(grep "^$2" $out)"
    changed=$(grep -v "^refdev: faults active" "$out" | diff "$clean" - | grep -c '^[<>]')
    [ "$changed" -eq $((2 * ${4:-1})) ] || fail "$1: expected only the '$2' line to change: $(diff $clean $out)"
}
# Both the extensions and the capabilities line change.
check spirv_queries_omit_new_extensions spirv_extensions \
    'spirv_extensions: SPV_INTEL_subgroups SPV_INTEL_subgroup_buffer_prefetch' 2
REFDEV_FAULTS=spirv_queries_omit_new_extensions "$probe" "$module" >"$out" 2>&1
grep "^spirv_capabilities:" "$out" | grep -Eq " (6228|6229|6230|6236)( |$)" &&
    fail "spirv_queries_omit_new_extensions: capabilities still listed"
check sub_group_sizes_unsorted_duplicate sub_group_sizes 'sub_group_sizes: 32 16 16'
check compile_sub_group_size_query_zero compile_sub_group_size 'compile_sub_group_size fixed: 0 (err 0)'
# The versioned list leaves the extension out (one line fewer) while CL_DEVICE_EXTENSIONS keeps it.
REFDEV_FAULTS=extension_version_2d_block_io_unreported "$probe" "$module" >"$out" 2>&1 ||
    fail "extension_version_2d_block_io_unreported: probe exited $? ($(cat $out))"
grep -q "refdev: faults active: extension_version_2d_block_io_unreported" "$out" || fail "fault not reported active"
! grep -q "^extension_version cl_intel_subgroup_2d_block_io" "$out" ||
    fail "extension_version_2d_block_io_unreported: the versioned list still has it"
grep -q "^extensions:.* cl_intel_subgroup_2d_block_io" "$out" ||
    fail "extension_version_2d_block_io_unreported: CL_DEVICE_EXTENSIONS lost it: $(grep ^extensions: $out)"
changed=$(grep -v "^refdev: faults active" "$out" | diff "$clean" - | grep -c '^[<>]')
[ "$changed" -eq 1 ] || fail "extension_version_2d_block_io_unreported: expected one line fewer: $(diff $clean $out)"
echo "query faults OK"
