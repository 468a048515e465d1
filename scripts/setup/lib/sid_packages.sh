# shellcheck shell=bash disable=SC2034,SC2154  # a library: the sourcing script sets `me` and uses the constants
# Sourced by scripts/setup/install_intel_ocloc.sh and scripts/setup/install_intel_compute_runtime.sh: what the installers
# of Debian sid's Intel packages share. A private apt (its own sources list, lists and downloads in a temporary
# directory) fetches pinned packages, dpkg-deb -x unpacks them into DIR/root, and the unpacked loader must
# resolve every library they need. Nothing is installed system-wide and no root is needed.
#
# The sourcing script sets `me` (its name in messages) first. Functions that fail call fail (exit 1) or
# usage_error (exit 2) with one line (scripts/setup/lib/installer.sh, which this file sources: the messages, options
# and directory rule of every installer).

# shellcheck source=scripts/setup/lib/installer.sh
. "$(dirname "${BASH_SOURCE[0]}")/installer.sh" || exit 1
# Standard output carries the installed path alone; progress goes to standard error.
inst_say_to_stderr=1

readonly SID_LIBDIR=usr/lib/x86_64-linux-gnu
# sid's Intel libraries need a newer glibc and libstdc++ than a stable system has: the runtime libraries come
# from sid too and are found by the unpacked loader only.
readonly SID_RUNTIME_PACKAGES=(libc6 libstdc++6 libgcc-s1 zlib1g)

# MIRROR must be a URL apt can read.
sid_check_mirror() {
    case "$1" in
        http://* | https://* | file:/*) ;;
        *) usage_error "--mirror=$1 is not an http://, https:// or file:/ URL" ;;
    esac
}

# The packages are Debian's amd64 builds, fetched and unpacked with Debian's tools.
sid_check_system() {
    local arch tool
    arch="$(uname -m)"
    [ "$arch" = x86_64 ] || fail "the packages installed are Debian's amd64 builds; this machine is $arch"
    for tool in apt-get apt-cache dpkg dpkg-deb; do
        command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (a Debian or Ubuntu system is needed to fetch sid's packages)"
    done
}

# sid_claim_dir DIR STAMP_NAME [OWN_TEST]: sets sid_dir (absolute) and locks it, when DIR is the script's
# (inst_claim_dir: new, empty, holding STAMP_NAME, or one OWN_TEST recognises as an install of an earlier
# version of the script). Anything else is refused with exit 2: the script replaces DIR/root and writes files
# in DIR, which must never happen to someone's directory (--dir=$HOME).
sid_claim_dir() {
    inst_claim_dir "$1" "$2" root "${3:-}"
    sid_dir="$inst_dir"
    inst_lock_dir
}

sid_work=""
sid_cleanup() { [ -n "$sid_work" ] && rm -rf "$sid_work"; }

# sid_fetch MIRROR PACKAGE:PINNED_VERSION...: downloads each package (PINNED_VERSION empty: sid's current one)
# and unpacks them all into $sid_dir/root.new. Sets sid_requests (PACKAGE=VERSION...) and sid_log; the .deb
# files stay in $sid_work/debs until the script exits.
sid_fetch() {
    local mirror="$1" spec package version rc
    shift
    sid_work="$(mktemp -d "$sid_dir/.work.XXXXXX")" || fail "cannot create a temporary directory in $sid_dir"
    trap sid_cleanup EXIT
    mkdir -p "$sid_work/etc" "$sid_work/state/lists/partial" "$sid_work/cache/archives/partial" "$sid_work/debs" ||
        fail "cannot populate $sid_work"
    printf 'deb %s sid main\n' "$mirror" >"$sid_work/etc/sources.list"
    : >"$sid_work/state/status"
    # A private apt: its own sources, no system preferences or lists, amd64 only, no translations. Root's apt
    # would hand downloads to the _apt user, who cannot write the caller's directories.
    sid_apt_opts=(-q -o "Dir::Etc::SourceList=$sid_work/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
        -o "Dir::State=$sid_work/state" -o "Dir::State::status=$sid_work/state/status" -o "Dir::Cache=$sid_work/cache"
        -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o Acquire::Languages=none
        -o Acquire::Retries=1 -o Acquire::http::Timeout=20 -o Debug::NoLocking=1)
    [ "$(id -u)" = 0 ] && sid_apt_opts+=(-o APT::Sandbox::User=root)
    sid_log="$sid_dir/apt.log"
    : >"$sid_log" 2>/dev/null || fail "cannot write $sid_log"

    apt-get "${sid_apt_opts[@]}" update >>"$sid_log" 2>&1
    rc=$?
    if ! compgen -G "$sid_work/state/lists/*_Packages*" >/dev/null; then
        if grep -qE 'NO_PUBKEY|not signed|EXPKEYSIG|invalid signature|Signature by key' "$sid_log"; then
            fail "sid's Release file from $mirror is unsigned or signed by a key this system does not trust (Debian: debian-archive-keyring); apt-get update exited with $rc, log: $sid_log"
        fi
        fail "the Debian archive $mirror is unreachable or has no sid main for amd64 (apt-get update exited with $rc, no package list fetched); log: $sid_log"
    fi

    sid_requests=()
    for spec in "$@"; do
        package="${spec%%:*}"
        version="$(sid_pick "$package" "${spec#*:}")" || fail "sid ($mirror) has no package $package"
        sid_requests+=("$package=$version")
    done
    say "$me: downloading ${sid_requests[*]}"
    (cd "$sid_work/debs" && apt-get "${sid_apt_opts[@]}" download "${sid_requests[@]}") >>"$sid_log" 2>&1 ||
        fail "apt-get download of ${sid_requests[*]} from $mirror failed (exit $?); log: $sid_log"

    rm -rf "$sid_dir/root.new"
    local deb
    for deb in "$sid_work"/debs/*.deb; do
        dpkg-deb -x "$deb" "$sid_dir/root.new" 2>>"$sid_log" || fail "dpkg-deb -x $deb failed; log: $sid_log"
    done
    [ -x "$sid_dir/root.new/$SID_LIBDIR/ld-linux-x86-64.so.2" ] || fail "libc6 unpacked without $SID_LIBDIR/ld-linux-x86-64.so.2"
}

# The version of PACKAGE to fetch: the pinned upstream version when sid has it, else sid's candidate (one line
# says so).
sid_pick() {
    local package="$1" pinned="$2" versions v upstream
    versions="$(apt-cache "${sid_apt_opts[@]}" madison "$package" 2>>"$sid_log" | awk -F'|' '{gsub(/ /, "", $2); print $2}')"
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

# sid_check_libraries OBJECT...: every library each object (a path under $sid_dir/root.new) needs must be
# found in the unpacked tree; symbolic links and missing paths are passed over.
sid_check_libraries() {
    local new="$sid_dir/root.new" object missing
    for object in "$@"; do
        [ -f "$object" ] && [ ! -L "$object" ] || continue
        missing="$("$new/$SID_LIBDIR/ld-linux-x86-64.so.2" --library-path "$new/$SID_LIBDIR" --list "$object" 2>&1 | grep 'not found')"
        [ -z "$missing" ] || fail "${object#"$new/"} needs a library no installed package has: $(echo "$missing" | head -n 1 | sed 's/^[[:space:]]*//')"
    done
}

# Replaces $sid_dir/root with root.new.
sid_commit_root() {
    rm -rf "$sid_dir/root" && mv "$sid_dir/root.new" "$sid_dir/root" || fail "cannot replace $sid_dir/root"
}

# sid_write_installed FILE: "PACKAGE VERSION" of each package fetched, one a line, as the .deb files say.
sid_write_installed() {
    local r
    for r in "${sid_requests[@]}"; do
        dpkg-deb -f "$sid_work"/debs/"${r%%=*}"_*.deb Package Version 2>/dev/null | paste -sd' ' | sed 's/^Package: //; s/ Version: / /'
    done >"$1.tmp" && mv -f "$1.tmp" "$1" || fail "cannot write $1"
}
