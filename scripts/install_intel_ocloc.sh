#!/usr/bin/env bash
# Installs Intel's current offline compiler (Debian sid's intel-ocloc with IGC, libigc2 and libigdfcl2) into a
# cache directory, with sid's C and C++ runtime beside it, and writes a wrapper that runs it through the
# unpacked loader, for `spirv_intel_cts --offline-compiler=WRAPPER`:
#
#   OCLOC=$(scripts/install_intel_ocloc.sh)
#   build/bin/spirv_intel_cts --offline-compiler="$OCLOC" --target=bmg
#
# No root, nothing outside the directory changes: apt-get reads a private sources list and keeps its lists
# and downloads in a temporary directory, and each package is unpacked with dpkg -x. A second run with
# everything in place downloads nothing. Standard output carries the wrapper's path alone (progress goes to
# standard error). Exit 0 when the compiler is installed and answers, 1 when it cannot be (one line saying
# why), 2 for a usage error.
set -uo pipefail

# Pinned: every machine judges the modules with the same compiler. The upstream versions; the Debian revision
# is whatever sid has.
readonly OCLOC_PACKAGE=intel-ocloc OCLOC_VERSION=26.27.39122.14
readonly IGC_PACKAGES=(libigc2 libigdfcl2) IGC_VERSION=2.40.14
# sid's IGC needs a newer glibc and libstdc++ than a stable system has: the runtime libraries come from sid
# too and are found by the unpacked loader only (these are every library the binaries and their dlopen-ed IGC
# libraries need; the install checks that the loader resolves them all).
readonly RUNTIME_PACKAGES=(libc6 libstdc++6 libgcc-s1 zlib1g)
readonly LIBDIR=usr/lib/x86_64-linux-gnu
me=install_intel_ocloc.sh

usage() {
    cat <<EOF
Usage: scripts/$me [--dir=DIR] [--mirror=URL] [--help]

Installs Debian sid's $OCLOC_PACKAGE $OCLOC_VERSION, ${IGC_PACKAGES[*]} $IGC_VERSION and the libraries
they need (${RUNTIME_PACKAGES[*]}) into DIR/root without root, and writes DIR/bin/ocloc, which runs the
compiler through the unpacked loader. Prints DIR/bin/ocloc on standard output (the last and only line):

  OCLOC=\$(scripts/$me)
  build/bin/spirv_intel_cts --offline-compiler="\$OCLOC" --target=bmg
  OCLOC=\$OCLOC scripts/run_offline_compiler.sh ptl

When sid no longer has a pinned version, sid's current one is installed and one line says so. Does nothing
when already installed (the wrapper answers \`ocloc query OCL_DRIVER_VERSION\`). Needs apt-get, dpkg and
the Debian archive keys (debian-archive-keyring) for the first run; about 71 MB are downloaded.

  --dir=DIR      where to install (default: \$INTEL_OCLOC_DIR, else
                 \${XDG_CACHE_HOME:-\$HOME/.cache}/spirv_intel_cts/ocloc-sid)
  --mirror=URL   the Debian archive (default: \$INTEL_OCLOC_MIRROR, else http://deb.debian.org/debian)
  --where        install nothing: print DIR/bin/ocloc when it is installed and answers, else say so and
                 exit 1 (what scripts/run_offline_compiler.sh --compiler=current uses)
  --help         this text
EOF
}

fail() {
    echo "$me: error: $*" >&2
    exit 1
}
say() { echo "$*" >&2; }

dir="${INTEL_OCLOC_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/ocloc-sid}"
mirror="${INTEL_OCLOC_MIRROR:-http://deb.debian.org/debian}"
where_only=0
for arg in "$@"; do
    case "$arg" in
        --dir=?*) dir="${arg#--dir=}" ;;
        --where) where_only=1 ;;
        --mirror=?*) mirror="${arg#--mirror=}" ;;
        --dir= | --dir | --mirror= | --mirror)
            echo "$me: error: ${arg%=} needs a value: ${arg%=}=$([ "${arg%=}" = --dir ] && echo DIR || echo URL) (see --help)" >&2
            exit 2
            ;;
        --help | -h)
            usage
            exit 0
            ;;
        *)
            echo "$me: error: unknown argument '$arg' (see --help)" >&2
            exit 2
            ;;
    esac
done
case "$mirror" in
    http://* | https://* | file:/*) ;;
    *)
        echo "$me: error: --mirror=$mirror is not an http://, https:// or file:/ URL" >&2
        exit 2
        ;;
esac

if [ "$where_only" = 1 ]; then
    [ -x "$dir/bin/ocloc" ] && [ -f "$dir/installed.txt" ] || fail "not installed in $dir (run scripts/$me)"
    printf '%s\n' "$(cd "$dir" && pwd -P)/bin/ocloc"
    exit 0
fi

arch="$(uname -m)"
[ "$arch" = x86_64 ] || fail "the packages installed are Debian's amd64 builds; this machine is $arch"
for tool in apt-get apt-cache dpkg dpkg-deb; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (a Debian or Ubuntu system is needed to fetch sid's packages)"
done

mkdir -p "$dir" 2>/dev/null || fail "cannot create $dir"
dir="$(cd "$dir" 2>/dev/null && pwd -P)" || fail "cannot enter $dir"
wrapper="$dir/bin/ocloc"
installed_list="$dir/installed.txt"

# Two runs sharing the cache must not unpack into one directory at once.
if command -v flock >/dev/null 2>&1; then
    { exec 9>"$dir/.lock"; } 2>/dev/null || fail "cannot write $dir/.lock"
    flock 9 || fail "cannot lock $dir/.lock"
fi

work=""
cleanup() { [ -n "$work" ] && rm -rf "$work"; }
trap cleanup EXIT

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

work="$(mktemp -d "$dir/.work.XXXXXX")" || fail "cannot create a temporary directory in $dir"
mkdir -p "$work/etc" "$work/state/lists/partial" "$work/cache/archives/partial" "$work/debs" || fail "cannot populate $work"
printf 'deb %s sid main\n' "$mirror" >"$work/etc/sources.list"
: >"$work/state/status"
# A private apt: its own sources, no system preferences or lists, amd64 only, no translations. Root's apt
# would hand downloads to the _apt user, who cannot write the caller's directories.
apt_opts=(-q -o "Dir::Etc::SourceList=$work/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
    -o "Dir::State=$work/state" -o "Dir::State::status=$work/state/status" -o "Dir::Cache=$work/cache"
    -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o Acquire::Languages=none
    -o Acquire::Retries=1 -o Acquire::http::Timeout=20 -o Debug::NoLocking=1)
[ "$(id -u)" = 0 ] && apt_opts+=(-o APT::Sandbox::User=root)
log="$dir/apt.log"
: >"$log" 2>/dev/null || fail "cannot write $log"

apt-get "${apt_opts[@]}" update >>"$log" 2>&1
rc=$?
if ! compgen -G "$work/state/lists/*_Packages*" >/dev/null; then
    if grep -qE 'NO_PUBKEY|not signed|EXPKEYSIG|invalid signature|Signature by key' "$log"; then
        fail "sid's Release file from $mirror is unsigned or signed by a key this system does not trust (Debian: debian-archive-keyring); apt-get update exited with $rc, log: $log"
    fi
    fail "the Debian archive $mirror is unreachable or has no sid main for amd64 (apt-get update exited with $rc, no package list fetched); log: $log"
fi

# The version of PACKAGE to fetch: the pinned upstream version when sid has it, else sid's candidate.
pick() {
    local package="$1" pinned="$2" versions v upstream
    versions="$(apt-cache "${apt_opts[@]}" madison "$package" 2>>"$log" | awk -F'|' '{gsub(/ /, "", $2); print $2}')"
    [ -n "$versions" ] || return 1
    if [ -z "$pinned" ]; then
        head -n 1 <<<"$versions"
        return 0
    fi
    while read -r v; do
        upstream="${v#*:}"
        upstream="${upstream%-*}"
        if [ "$upstream" = "$pinned" ]; then
            printf '%s\n' "$v"
            return 0
        fi
    done <<<"$versions"
    v="$(head -n 1 <<<"$versions")"
    upstream="${v#*:}"
    say "$me: sid no longer has $package $pinned; installed ${upstream%-*} instead"
    printf '%s\n' "$v"
}

requests=()
for spec in "$OCLOC_PACKAGE:$OCLOC_VERSION" "${IGC_PACKAGES[0]}:$IGC_VERSION" "${IGC_PACKAGES[1]}:$IGC_VERSION"; do
    package="${spec%%:*}"
    version="$(pick "$package" "${spec#*:}")" || fail "sid ($mirror) has no package $package"
    requests+=("$package=$version")
done
for package in "${RUNTIME_PACKAGES[@]}"; do
    version="$(pick "$package" "")" || fail "sid ($mirror) has no package $package"
    requests+=("$package=$version")
done

say "$me: downloading ${requests[*]}"
(cd "$work/debs" && apt-get "${apt_opts[@]}" download "${requests[@]}") >>"$log" 2>&1 ||
    fail "apt-get download of ${requests[*]} from $mirror failed (exit $?); log: $log"

rm -rf "$dir/root.new"
for deb in "$work"/debs/*.deb; do
    dpkg-deb -x "$deb" "$dir/root.new" 2>>"$log" || fail "dpkg-deb -x $deb failed; log: $log"
done
# The compiler's own name carries its release (ocloc-26.27.1); the Debian alternative `ocloc` is not unpacked.
binaries=("$dir"/root.new/usr/bin/ocloc-*)
[ "${#binaries[@]}" = 1 ] && [ -f "${binaries[0]}" ] ||
    fail "$OCLOC_PACKAGE unpacked without exactly one usr/bin/ocloc-* binary (found: ${binaries[*]##*/})"
binary="${binaries[0]##*/}"
loader="$dir/root.new/$LIBDIR/ld-linux-x86-64.so.2"
[ -x "$loader" ] || fail "libc6 unpacked without $LIBDIR/ld-linux-x86-64.so.2"

# Every library the compiler and the IGC libraries it opens need must be found in the unpacked tree.
for object in "$dir/root.new/usr/bin/$binary" "$dir/root.new/$LIBDIR"/lib{ocloc,igc,igdfcl,opencl-clang,iga64}*.so*; do
    [ -f "$object" ] && [ ! -L "$object" ] || continue
    missing="$("$loader" --library-path "$dir/root.new/$LIBDIR" --list "$object" 2>&1 | grep 'not found')"
    [ -z "$missing" ] || fail "${object#"$dir/root.new/"} needs a library no installed package has: $(echo "$missing" | head -n 1 | sed 's/^[[:space:]]*//')"
done

rm -rf "$dir/root" && mv "$dir/root.new" "$dir/root" || fail "cannot replace $dir/root"
mkdir -p "$dir/bin" || fail "cannot create $dir/bin"
# The wrapper finds the tree beside it, so the directory can be moved. --library-path applies to the whole
# process, so ocloc's dlopen of libigc.so.2 and libigdfcl.so.2 finds sid's IGC too; the system's libraries
# are never mixed in.
cat >"$wrapper.tmp" <<EOF
#!/bin/sh
# Written by scripts/install_intel_ocloc.sh: Debian sid's $binary with its IGC and runtime libraries, run
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

for r in "${requests[@]}"; do
    dpkg-deb -f "$work"/debs/"${r%%=*}"_*.deb Package Version 2>/dev/null | paste -sd' ' | sed 's/^Package: //; s/ Version: / /'
done >"$installed_list.tmp" && mv -f "$installed_list.tmp" "$installed_list" || fail "cannot write $installed_list"
say "$me: installed in $dir: $(paste -sd, "$installed_list" | sed 's/,/, /g')"
say "  OCL_DRIVER_VERSION: $version"
printf '%s\n' "$wrapper"
exit 0
