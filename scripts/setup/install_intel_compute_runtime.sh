#!/usr/bin/env bash
# Installs Intel's GPU driver, the compute runtime (Debian sid's intel-opencl-icd with IGC, libigc2 and
# libigdfcl2), into a cache directory, with sid's C and C++ runtime and ICD loader beside it, and writes an .icd
# file naming the driver library, for the no-hardware runs of scripts/setup/run_intel_gpu_nohw.sh:
#
#   scripts/setup/install_intel_compute_runtime.sh --print-icd
#   scripts/setup/run_intel_gpu_nohw.sh bmg
#
# Without an Intel GPU the driver yields a device only under the debug keys of scripts/setup/lib/intel_gpu_nohw.sh,
# and its libraries need sid's glibc: docs/intel_gpu_nohw.md. No root, nothing outside the directory changes
# (scripts/setup/lib/sid_packages.sh: a private apt, dpkg-deb -x). A second run with everything in place downloads
# nothing. The script changes only a directory it made (marked by the stamp file STAMP_NAME): a --dir holding
# someone else's files is refused. Exit 0 when the driver is installed and yields a platform, 1 when it cannot
# be (one line saying why), 2 for a usage error.
set -uo pipefail

# Pinned: every machine judges the modules with the same driver and compiler. The upstream versions; the Debian
# revision is whatever sid has.
readonly DRIVER_PACKAGE=intel-opencl-icd DRIVER_VERSION=26.27.39122.14
readonly IGC_PACKAGES=(libigc2 libigdfcl2) IGC_VERSION=2.40.14
# The driver's memory manager (libigdgmm.so.12) and sid's ICD loader (libOpenCL.so.1), so that the runner and
# clinfo load nothing of the system's: sid's current versions.
readonly OTHER_PACKAGES=(libigdgmm12 ocl-icd-libopencl1)
readonly ICD_NAME=intel-gpu
readonly STAMP_NAME=.spirv_intel_cts_compute_runtime
# The product the install checks the driver with (any of NOHW_PRODUCTS would do).
readonly CHECK_PRODUCT=bmg
me=install_intel_compute_runtime.sh
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/setup/lib/sid_packages.sh
. "$here/lib/sid_packages.sh" || exit 1
# shellcheck source=scripts/setup/lib/intel_gpu_nohw.sh
. "$here/lib/intel_gpu_nohw.sh" || exit 1
readonly LIBDIR=$SID_LIBDIR

usage() {
    cat <<EOF2
Usage: scripts/$me [--dir=DIR] [--mirror=URL] [--print-icd] [--where] [--help]

Installs Debian sid's $DRIVER_PACKAGE $DRIVER_VERSION, ${IGC_PACKAGES[*]} $IGC_VERSION and the libraries
they need (${OTHER_PACKAGES[*]} ${SID_RUNTIME_PACKAGES[*]}) into DIR/root without root, and writes
DIR/icd/$ICD_NAME.icd (the absolute path of the driver library, libigdrcl.so) and DIR/icd/$ICD_NAME.package
("$DRIVER_PACKAGE <Debian version>", which the runner reports). Checks that the driver yields a platform (clinfo
-l through the unpacked loader, with the no-hardware keys for $CHECK_PRODUCT). Does nothing when already
installed. Needs apt-get, dpkg, clinfo and the Debian archive keys (debian-archive-keyring) for the first run.

When sid no longer has a pinned version, sid's current one is installed and one line says so. DIR is this
script's when it is new or empty (the script then leaves a $STAMP_NAME file in it) or holds that file;
another DIR is refused (exit 2), never written to.

  --dir=DIR      where to install (default: \$INTEL_COMPUTE_RUNTIME_DIR, else
                 \${XDG_CACHE_HOME:-\$HOME/.cache}/spirv_intel_cts/compute-runtime-sid)
  --mirror=URL   the Debian archive (default: \$INTEL_COMPUTE_RUNTIME_MIRROR, else http://deb.debian.org/debian)
  --print-icd    print the .icd file's path on standard output (progress goes to standard error)
  --where        install nothing: print the .icd file's path when it is installed, else say so and exit 1
  --help         this text

Running the suite on it (every case built by the real driver, nothing executed): scripts/setup/run_intel_gpu_nohw.sh
PRODUCT, PRODUCT one of ${NOHW_PRODUCTS[*]}.
EOF2
}

dir="${INTEL_COMPUTE_RUNTIME_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/compute-runtime-sid}"
mirror="${INTEL_COMPUTE_RUNTIME_MIRROR:-http://deb.debian.org/debian}"
where_only=0
print_icd=0
inst_parse_options --dir=DIR:dir --mirror=URL:mirror --where:where_only --print-icd:print_icd -- "$@"
sid_check_mirror "$mirror"

# The driver library under DIR/root.
library_in() { printf '%s\n' "$1/root/$LIBDIR/intel-opencl/libigdrcl.so"; }

if [ "$where_only" = 1 ]; then
    [ -f "$dir/installed.txt" ] && [ -f "$dir/icd/$ICD_NAME.icd" ] && [ -f "$(library_in "$dir")" ] ||
        fail "not installed in $dir (run scripts/$me)"
    printf '%s\n' "$(cd "$dir" && pwd -P)/icd/$ICD_NAME.icd"
    exit 0
fi

sid_claim_dir "$dir" "$STAMP_NAME"
dir="$sid_dir"
sid_check_system
command -v clinfo >/dev/null 2>&1 || fail "clinfo not found (Debian: apt-get install clinfo): it checks that the driver yields a platform"
installed_list="$dir/installed.txt"
icd="$dir/icd/$ICD_NAME.icd"
package_file="$dir/icd/$ICD_NAME.package"
library="$(library_in "$dir")"

# clinfo -l through the unpacked loader (its libOpenCL.so.1 is sid's), loading only the .icd file ICD, with
# the no-hardware keys: prints the platform's and the device's lines, fails when there is no platform.
platform_of() {
    local root_lib="$dir/root/$LIBDIR" listing
    listing="$(nohw_export_keys "$CHECK_PRODUCT"
        unset OCL_ICD_FILENAMES
        OCL_ICD_VENDORS="$1" "$root_lib/ld-linux-x86-64.so.2" --library-path "$root_lib" "$(command -v clinfo)" -l 2>&1)"
    grep -q '^Platform #0: ' <<<"$listing" || {
        printf 'clinfo -l lists no platform%s\n' "$(grep -m1 . <<<"$listing" | sed 's/^/: /')"
        return 1
    }
    printf '%s\n' "$listing" | sed 's/^[ `|-]*//' | paste -sd';' | sed 's/;/; /g'
}

# The .package line: the driver package and its Debian version, as installed.
driver_package_line() { grep -m1 "^$DRIVER_PACKAGE " "$installed_list"; }

if [ -f "$installed_list" ] && [ -f "$library" ] && [ -f "$icd" ] && [ -f "$package_file" ] &&
    platform="$(platform_of "$icd")"; then
    state="already installed in $dir (nothing downloaded)"
else
    specs=("$DRIVER_PACKAGE:$DRIVER_VERSION" "${IGC_PACKAGES[0]}:$IGC_VERSION" "${IGC_PACKAGES[1]}:$IGC_VERSION")
    for package in "${OTHER_PACKAGES[@]}" "${SID_RUNTIME_PACKAGES[@]}"; do
        specs+=("$package:")
    done
    sid_fetch "$mirror" "${specs[@]}"
    [ -f "$dir/root.new/$LIBDIR/intel-opencl/libigdrcl.so" ] ||
        fail "$DRIVER_PACKAGE unpacked without $LIBDIR/intel-opencl/libigdrcl.so"
    # Every library the driver, the IGC libraries it opens and the ICD loader need must be in the unpacked tree.
    sid_check_libraries "$dir/root.new/$LIBDIR/intel-opencl/libigdrcl.so" \
        "$dir/root.new/$LIBDIR"/lib{igc,igdfcl,opencl-clang,iga64,igdgmm,OpenCL}*.so*
    sid_commit_root
    # The package's own etc/OpenCL/vendors/intel.icd names the library as installed system-wide; ours names
    # the unpacked one. Written into a new file first (the ICD loader reads only names ending in .icd): the
    # check runs before the .icd file is replaced.
    write_file "$icd.new.icd" "$library"
    platform="$(platform_of "$icd.new.icd")" || fail "the driver $library yields no platform under the no-hardware keys for $CHECK_PRODUCT: $platform"
    mv -f "$icd.new.icd" "$icd" || fail "cannot replace $icd"
    sid_write_installed "$installed_list"
    state="installed in $dir"
fi
write_file "$icd" "$library"
line="$(driver_package_line)" || fail "$installed_list names no $DRIVER_PACKAGE"
write_file "$package_file" "$line"

say "$me: $state: $(paste -sd, "$installed_list" | sed 's/,/, /g')"
say "  with the no-hardware keys for $CHECK_PRODUCT: $platform"
say "  ICD file: $icd"
say "  run:      scripts/setup/run_intel_gpu_nohw.sh PRODUCT (${NOHW_PRODUCTS[*]})"
[ "$print_icd" = 1 ] && printf '%s\n' "$icd"
exit 0
