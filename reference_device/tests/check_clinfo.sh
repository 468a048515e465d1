#!/bin/sh
# Runs clinfo against the reference device's ICD directory with one profile and checks that it lists
# exactly this platform and device, prints no query errors, and reports the key properties.
# usage: check_clinfo.sh <icd dir> <profile> <media block IO built: ON|OFF> <MMA built: ON|OFF>
set -u
export OCL_ICD_VENDORS=$1 REFDEV_PROFILE=$2
media=$3 mma=$4
unset REFDEV_FAULTS
out=$(mktemp)
trap 'rm -f $out' EXIT
fail() { echo "FAIL ($REFDEV_PROFILE): $*"; cat "$out"; exit 1; }
clinfo >"$out" 2>&1 || fail "clinfo exited $?"
grep -q "^Number of platforms *1$" "$out" || fail "expected exactly one platform"
grep -q "Number of devices *1$" "$out" || fail "expected exactly one device"
# clinfo prints failed queries as "<error: CL_...>" (or "Invalid ..."); "Error Correction support" is a property.
bad='<error|CL_INVALID|CL_OUT_OF|Invalid '
! grep -qE "$bad" "$out" || fail "clinfo reported an error: $(grep -E "$bad" "$out" | head -3)"
expect() { grep -q "$1" "$out" || fail "missing: $1"; }
expect "Platform Version *OpenCL 3.0 RefDev $REFDEV_PROFILE"
expect "Device Version *OpenCL 3.0"
[ "$REFDEV_PROFILE" = cpu ] || { expect "Device Type *GPU$"; expect "Max work group size *1024$"; }
expect "Compiler Available *Yes"
expect "Linker Available *Yes"
expect "IL version *SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"
expect "cl_khr_il_program"
expect "cl_khr_spirv_queries"
expect "cl_intel_spirv_subgroups"
expect "cl_intel_required_subgroup_size"
# A family that is not built must not be claimed.
[ "$mma" = ON ] || ! grep -q "cl_intel_subgroup_matrix_multiply_accumulate" "$out" || fail "MMA reported but not built"
[ "$media" = ON ] || ! grep -q "cl_intel_spirv_media_block_io" "$out" || fail "media block IO reported but not built"
# No profile has independent forward progress of sub-groups, so none reports cl_khr_subgroups, which requires
# it (profile.cpp withholds it from the classes that report it).
expect "independent forward progress *No"
! grep -q "cl_khr_subgroups" "$out" || fail "$REFDEV_PROFILE reports cl_khr_subgroups without independent forward progress"
case $REFDEV_PROFILE in
xe_hpc)
  expect "Device Name *RefDev Xe-HPC-like"
  expect "Sub-group sizes (Intel) *16, 32$"
  expect "cl_intel_subgroup_2d_block_io"
  [ "$mma" = OFF ] || expect "cl_intel_subgroup_matrix_multiply_accumulate_tf32"
  # As Intel's Xe-HPC (test_conformance/targets/pvc.json): double precision, no OpenCL images.
  expect "Double-precision Floating-point support *(cl_khr_fp64)"
  expect "Image support *No"
  ! grep -q "cl_khr_image2d_from_buffer" "$out" || fail "xe_hpc has no images, so no image2d_from_buffer"
  ! grep -q "cl_intel_spirv_media_block_io" "$out" || fail "xe_hpc must not report media block IO"
  ;;
xe_hpg)
  expect "Device Name *RefDev Xe-HPG-like"
  expect "Sub-group sizes (Intel) *8, 16, 32$"
  [ "$media" = OFF ] || expect "cl_intel_spirv_media_block_io"
  [ "$mma" = OFF ] || expect "cl_intel_subgroup_matrix_multiply_accumulate"
  ! grep -q "cl_intel_subgroup_2d_block_io" "$out" || fail "xe_hpg must not report 2D block IO"
  # As Intel's DG2 (test_conformance/targets/dg2-g10.json): images, no double precision at all.
  expect "Image support *Yes"
  expect "Double-precision Floating-point support *(n/a)"
  ! grep -q "cl_khr_fp64" "$out" || fail "xe_hpg must not report cl_khr_fp64 (DG2 has no fp64)"
  ;;
xe2 | xe3)
  # As Intel's Battlemage / Lunar Lake (bmg.json, lnl-m.json) and Panther Lake (ptl.json): 2D block IO, MMA
  # with TF32, fp64 and images on one device; no media block IO.
  case $REFDEV_PROFILE in xe2) expect "Device Name *RefDev Xe2-like" ;; *) expect "Device Name *RefDev Xe3-like" ;; esac
  expect "Sub-group sizes (Intel) *16, 32$"
  expect "cl_intel_subgroup_2d_block_io"
  [ "$mma" = OFF ] || expect "cl_intel_subgroup_matrix_multiply_accumulate_tf32"
  expect "Double-precision Floating-point support *(cl_khr_fp64)"
  expect "Image support *Yes"
  expect "cl_khr_image2d_from_buffer"
  ! grep -q "cl_intel_spirv_media_block_io" "$out" || fail "$REFDEV_PROFILE must not report media block IO"
  ;;
xe_lpg)
  # As Intel's Meteor Lake GPU (mtl.json): media block IO, images and fp64; no 2D block IO, MMA or
  # cl_khr_subgroups.
  expect "Device Name *RefDev Xe-LPG-like"
  expect "Sub-group sizes (Intel) *8, 16, 32$"
  [ "$media" = OFF ] || expect "cl_intel_spirv_media_block_io"
  expect "Double-precision Floating-point support *(cl_khr_fp64)"
  expect "Image support *Yes"
  for e in cl_intel_subgroup_2d_block_io cl_intel_subgroup_matrix_multiply_accumulate cl_khr_subgroups; do
    ! grep -q "$e" "$out" || fail "xe_lpg must not report $e"
  done
  ;;
cpu)
  # As Intel's OpenCL CPU device (targets/runtime/intel-cpu.json): sizes 4 to 64, images, fp64; none of the
  # GPU block IO or MMA extensions, cl_intel_subgroups_short at 1.0.0.
  expect "Device Name *RefDev Intel-CPU-like"
  expect "Device Type *CPU$"
  expect "Max work group size *8192$"
  expect "Local memory size *262144 (256KiB)$"
  expect "Sub-group sizes (Intel) *4, 8, 16, 32, 64$"
  expect "Double-precision Floating-point support *(cl_khr_fp64)"
  expect "Image support *Yes"
  expect "cl_intel_subgroups_short *0x400000 (1.0.0)"
  for e in cl_intel_subgroup_2d_block_io cl_intel_subgroup_matrix_multiply_accumulate cl_intel_spirv_media_block_io cl_khr_subgroups; do
    ! grep -q "$e" "$out" || fail "cpu must not report $e"
  done
  ;;
*) fail "check_clinfo.sh knows no profile $REFDEV_PROFILE" ;;
esac
# Reporting as compute-runtime 26.27 (REFDEV_REPORT_AS): the device name says so, every extension is 1.0.0.
REFDEV_REPORT_AS=neo-26.27 clinfo >"$out" 2>&1 || fail "clinfo (neo-26.27) exited $?"
expect "Device Name *RefDev .*-like SPIR-V interpreter (reporting as compute-runtime 26.27)$"
other=$(grep -E "^ +cl_[a-z0-9_]+ +0x[0-9a-f]+ \(" "$out" | grep -v "0x400000 (1.0.0)$" | head -1)
[ -z "$other" ] || fail "neo-26.27: an extension version other than 1.0.0: $other"
expect "cl_intel_subgroups_short *0x400000 (1.0.0)"
case $REFDEV_PROFILE in xe_hpc | xe2 | xe3) expect "cl_intel_subgroup_2d_block_io *0x400000 (1.0.0)" ;; esac
echo "clinfo OK ($REFDEV_PROFILE)"
