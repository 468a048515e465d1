#!/bin/sh
# Checks that the reference device refuses a numeric REFDEV_* variable it cannot honour exactly, through
# the ICD loader: zero platforms (the probe exits 2) and one stderr line naming the variable and its range;
# in-range values run the probe's kernel.
# usage: check_env_numbers.sh <icd dir> <probe> <module.spv>
set -u
icd_dir=$1 probe=$2 module=$3
export OCL_ICD_VENDORS=$icd_dir
unset REFDEV_THREADS REFDEV_BRANCH_BUDGET REFDEV_FAULTS REFDEV_PROFILE
fail() { echo "FAIL: $*"; exit 1; }
out=$(mktemp)
trap 'rm -f $out' EXIT

refused() {  # refused VARIABLE VALUE RANGE
    env "$1=$2" "$probe" "$module" >"$out" 2>&1
    rc=$?
    [ $rc -eq 2 ] || fail "$1='$2': expected no platform (exit 2), got $rc ($(cat $out))"
    grep -qF "$1: '$2' is not a number of $3 (the reference device reports no platform)" "$out" ||
        fail "$1='$2' message: $(cat $out)"
}
accepted() {  # accepted VARIABLE VALUE
    env "$1=$2" "$probe" "$module" >"$out" 2>&1 || fail "$1='$2': probe exited $? ($(cat $out))"
    grep -q done "$out" || fail "$1='$2': the probe did not finish"
}

for v in abc 0 -1 1025 4294967297 " 2" 2x; do refused REFDEV_THREADS "$v" "worker threads in 1..1024"; done
for v in 99999999999999999999999 18446744073709551616 -1 5k; do
    refused REFDEV_BRANCH_BUDGET "$v" "branches per work-item in 0..18446744073709551615"
done
accepted REFDEV_THREADS 1
accepted REFDEV_THREADS 1024
accepted REFDEV_BRANCH_BUDGET 0
accepted REFDEV_BRANCH_BUDGET 18446744073709551615
echo "numeric variables OK"
