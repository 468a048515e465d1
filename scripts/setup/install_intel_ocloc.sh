#!/usr/bin/env bash
# Installs Intel's current offline compiler (Debian sid's intel-ocloc with IGC, libigc2 and libigdfcl2) into a
# cache directory, with sid's C and C++ runtime beside it, and writes a wrapper that runs it through the
# unpacked loader, for `spirv_intel_cts --offline-compiler=WRAPPER`:
#
#   OCLOC=$(scripts/setup/install_intel_ocloc.sh)
#   build/bin/spirv_intel_cts --offline-compiler="$OCLOC" --target=bmg
#
# No root, nothing outside the directory changes: apt-get reads a private sources list and keeps its lists
# and downloads in a temporary directory, and each package is unpacked with dpkg -x (scripts/setup/lib/sid_packages.sh,
# shared with install_intel_compute_runtime.sh). A second run with everything in place downloads nothing. The
# script changes only a directory it made (marked by the stamp file STAMP_NAME, or an install of an earlier
# version of the script: installed.txt with bin/ocloc): a --dir holding someone else's files is refused. Standard output carries the wrapper's path alone (progress goes to
# standard error). Exit 0 when the compiler is installed and answers, 1 when it cannot be (one line saying
# why), 2 for a usage error.
set -uo pipefail

# Pinned: every machine judges the modules with the same compiler. The upstream versions; the Debian revision
# is whatever sid has.
readonly OCLOC_PACKAGE=intel-ocloc OCLOC_VERSION=26.27.39122.14
readonly IGC_PACKAGES=(libigc2 libigdfcl2) IGC_VERSION=2.40.14
readonly STAMP_NAME=.spirv_intel_cts_ocloc
me=install_intel_ocloc.sh
# shellcheck source=scripts/setup/lib/sid_packages.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/sid_packages.sh" || exit 1
# SID_RUNTIME_PACKAGES (libc6 libstdc++6 libgcc-s1 zlib1g) are every library the binaries and their dlopen-ed
# IGC libraries need; the install checks that the unpacked loader resolves them all.
readonly LIBDIR=$SID_LIBDIR

usage() {
    cat <<EOF
Usage: scripts/$me [--dir=DIR] [--mirror=URL] [--help]

Installs Debian sid's $OCLOC_PACKAGE $OCLOC_VERSION, ${IGC_PACKAGES[*]} $IGC_VERSION and the libraries
they need (${SID_RUNTIME_PACKAGES[*]}) into DIR/root without root, and writes DIR/bin/ocloc, which runs the
compiler through the unpacked loader. Prints DIR/bin/ocloc on standard output (the last and only line):

  OCLOC=\$(scripts/$me)
  build/bin/spirv_intel_cts --offline-compiler="\$OCLOC" --target=bmg
  OCLOC=\$OCLOC scripts/setup/run_offline_compiler.sh ptl

When sid no longer has a pinned version, sid's current one is installed and one line says so. Does nothing
when already installed (the wrapper answers \`ocloc query OCL_DRIVER_VERSION\`). Needs apt-get, dpkg and
the Debian archive keys (debian-archive-keyring) for the first run; about 71 MB are downloaded.

DIR is this script's when it is new or empty (the script then leaves a $STAMP_NAME file in it), holds that
file, or holds an install of an earlier version of the script (installed.txt and bin/ocloc). Another DIR is
refused (exit 2), never written to.

  --dir=DIR      where to install (default: \$INTEL_OCLOC_DIR, else
                 \${XDG_CACHE_HOME:-\$HOME/.cache}/spirv_intel_cts/ocloc-sid)
  --mirror=URL   the Debian archive (default: \$INTEL_OCLOC_MIRROR, else http://deb.debian.org/debian)
  --where        install nothing: print DIR/bin/ocloc when it is installed and answers, else say so and
                 exit 1 (what scripts/setup/run_offline_compiler.sh --compiler=current uses)
  --help         this text
EOF
}

dir="${INTEL_OCLOC_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/ocloc-sid}"
mirror="${INTEL_OCLOC_MIRROR:-http://deb.debian.org/debian}"
where_only=0
inst_parse_options --dir=DIR:dir --mirror=URL:mirror --where:where_only -- "$@"
sid_check_mirror "$mirror"

if [ "$where_only" = 1 ]; then
    [ -x "$dir/bin/ocloc" ] && [ -f "$dir/installed.txt" ] || fail "not installed in $dir (run scripts/$me)"
    printf '%s\n' "$(cd "$dir" && pwd -P)/bin/ocloc"
    exit 0
fi

# An install of an earlier version of this script, which wrote no stamp: its compiler and package list.
earlier_install() {
    [ -f "$1/installed.txt" ] && [ -e "$1/bin/ocloc" ]
}
sid_claim_dir "$dir" "$STAMP_NAME" earlier_install
sid_check_system
dir="$sid_dir"
wrapper="$dir/bin/ocloc"
installed_list="$dir/installed.txt"

# `ocloc query OCL_DRIVER_VERSION` in a directory of its own (ocloc writes the answer to a file named after
# the query in its working directory, ending in a NUL byte); prints the answer.
driver_version() {
    local q answer
    q="$(mktemp -d "$dir/.query.XXXXXX")" || return 1
    (cd "$q" && "$wrapper" query OCL_DRIVER_VERSION >/dev/null 2>&1)
    answer="$({ tr -d '\0' <"$q/OCL_DRIVER_VERSION"; } 2>/dev/null | tr -d ' \n')"
    rm -rf "$q"
    [ -n "$answer" ] || return 1
    printf '%s\n' "$answer"
}

if [ -f "$installed_list" ] && [ -x "$wrapper" ] && version="$(driver_version)"; then
    say "$me: already installed in $dir (nothing downloaded): $(paste -sd, "$installed_list" | sed 's/,/, /g')"
    say "  OCL_DRIVER_VERSION: $version"
    printf '%s\n' "$wrapper"
    exit 0
fi

specs=("$OCLOC_PACKAGE:$OCLOC_VERSION" "${IGC_PACKAGES[0]}:$IGC_VERSION" "${IGC_PACKAGES[1]}:$IGC_VERSION")
for package in "${SID_RUNTIME_PACKAGES[@]}"; do
    specs+=("$package:")
done
sid_fetch "$mirror" "${specs[@]}"
work="$sid_work"

# The compiler's own name carries its release (ocloc-26.27.1); the Debian alternative `ocloc` is not unpacked.
binaries=("$dir"/root.new/usr/bin/ocloc-*)
[ "${#binaries[@]}" = 1 ] && [ -f "${binaries[0]}" ] ||
    fail "$OCLOC_PACKAGE unpacked without exactly one usr/bin/ocloc-* binary (found: ${binaries[*]##*/})"
binary="${binaries[0]##*/}"

# Every library the compiler and the IGC libraries it opens need must be found in the unpacked tree.
sid_check_libraries "$dir/root.new/usr/bin/$binary" "$dir/root.new/$LIBDIR"/lib{ocloc,igc,igdfcl,opencl-clang,iga64}*.so*
sid_commit_root
mkdir -p "$dir/bin" || fail "cannot create $dir/bin"
# The wrapper finds the tree beside it, so the directory can be moved. --library-path applies to the whole
# process, so ocloc's dlopen of libigc.so.2 and libigdfcl.so.2 finds sid's IGC too; the system's libraries
# are never mixed in.
cat >"$wrapper.tmp" <<EOF
#!/bin/sh
# Written by scripts/setup/install_intel_ocloc.sh: Debian sid's $binary with its IGC and runtime libraries, run
# through the unpacked loader.
root="\$(dirname "\$(readlink -f "\$0")")/../root"
exec "\$root/$LIBDIR/ld-linux-x86-64.so.2" --library-path "\$root/$LIBDIR" "\$root/usr/bin/$binary" "\$@"
EOF
chmod 755 "$wrapper.tmp" && mv -f "$wrapper.tmp" "$wrapper" || fail "cannot write $wrapper"

version="$(driver_version)" || fail "$wrapper does not answer \`ocloc query OCL_DRIVER_VERSION\`"
# A compile loads the front end (libigdfcl) and the back end (libigc) through dlopen.
printf 'kernel void k(global int *p) { p[get_global_id(0)] = 1; }\n' >"$work/k.cl"
(cd "$work" && "$wrapper" compile -q -file k.cl -device pvc -out_dir out >"$work/compile.log" 2>&1)
rc=$?
compgen -G "$work/out/*.bin" >/dev/null ||
    fail "$wrapper cannot compile a one-line OpenCL C kernel (exit $rc): $(grep -m1 . "$work/compile.log")"

sid_write_installed "$installed_list"
say "$me: installed in $dir: $(paste -sd, "$installed_list" | sed 's/,/, /g')"
say "  OCL_DRIVER_VERSION: $version"
printf '%s\n' "$wrapper"
exit 0
