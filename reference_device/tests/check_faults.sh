#!/bin/sh
# Checks the fault switches of the reference device through the ICD loader:
#   no REFDEV_FAULTS            -> the probe enqueues a kernel and exits 0
#   REFDEV_FAULTS=crash         -> the probe dies from SIGSEGV at enqueue
#   REFDEV_FAULTS=hang          -> the probe never returns from the enqueue (killed by timeout)
#   REFDEV_FAULTS=no_such_fault -> zero platforms, stderr names the bad fault and lists valid ones
#   REFDEV_FAULTS=list          -> zero platforms, stderr lists the faults
#   REFDEV_PROFILE=no_such      -> zero platforms, stderr names the bad profile
#   REFDEV_PROFILE=list         -> zero platforms, stderr lists every profile with the class it stands for
# usage: check_faults.sh <icd dir> <probe> <module.spv>
set -u
icd_dir=$1 probe=$2 module=$3
export OCL_ICD_VENDORS=$icd_dir
fail() { echo "FAIL: $*"; exit 1; }
out=$(mktemp)
trap 'rm -f $out' EXIT

env -u REFDEV_FAULTS "$probe" "$module" >"$out" 2>&1 || fail "clean probe exited $? ($(cat $out))"
grep -q done "$out" || fail "clean probe did not finish"

REFDEV_FAULTS=crash "$probe" "$module" >"$out" 2>&1
rc=$?
[ $rc -eq 139 ] || [ $rc -eq $((128 + 11)) ] || fail "crash fault: expected SIGSEGV (139), got $rc"
grep -q enqueueing "$out" || fail "crash fault fired before the enqueue"

timeout 5 env REFDEV_FAULTS=hang "$probe" "$module" >"$out" 2>&1
rc=$?
[ $rc -eq 124 ] || fail "hang fault: expected the timeout (124), got $rc"
grep -q enqueueing "$out" || fail "hang fault fired before the enqueue"

REFDEV_FAULTS=no_such_fault "$probe" "$module" >"$out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "unknown fault: expected no platform (exit 2), got $rc"
grep -q "REFDEV_FAULTS: unknown fault 'no_such_fault'; valid: .*hang" "$out" || fail "unknown fault message: $(cat $out)"

REFDEV_FAULTS=list "$probe" "$module" >"$out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "REFDEV_FAULTS=list: expected no platform (exit 2), got $rc"
grep -q "crash" "$out" || fail "REFDEV_FAULTS=list did not list the faults"

REFDEV_PROFILE=no_such "$probe" "$module" >"$out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "unknown profile: expected no platform (exit 2), got $rc"
grep -q "REFDEV_PROFILE: unknown profile 'no_such'; valid: xe_hpc xe_hpg xe2 xe3 xe_lpg cpu" "$out" ||
  fail "unknown profile message: $(cat $out)"

REFDEV_PROFILE=list "$probe" "$module" >"$out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "REFDEV_PROFILE=list: expected no platform (exit 2), got $rc"
for line in "xe_hpc  Xe-HPC (Ponte Vecchio" "xe_hpg  Xe-HPG (DG2" "xe2     Xe2 (Battlemage" "xe3     Xe3 (Panther Lake)" \
            "xe_lpg  Xe-LPG (Meteor Lake" "cpu     Intel OpenCL CPU device.*sizes 4,8,16,32,64"; do
  grep -q "  $line" "$out" || fail "REFDEV_PROFILE=list lacks \"$line\": $(cat $out)"
done
echo "fault switches OK"
