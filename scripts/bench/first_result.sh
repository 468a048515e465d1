#!/usr/bin/env bash
# Time to first results on a bare machine: README's first command (scripts/setup_and_run.sh) run in a minimal
# Debian 12 system made here with debootstrap (--variant=minbase: no compiler, no CMake, no Python, empty
# package and pip caches), on a clone of this checkout's HEAD. Prints the time of each phase setup_and_run.sh
# reports (packages, configure, build, run) and the total; the machine's core count and load beside them, since
# they are what the figure depends on. The target (README): under 3 minutes on 2 cores.
#
# Needs root (debootstrap, chroot, bind mounts), debootstrap (Debian package) and the network (Debian's archive,
# PyPI). The bare system is made before the clock starts and removed afterwards unless --keep; --root DIR takes
# an existing bare system made by an earlier --keep run (its /root/suite is replaced, its caches are not
# emptied: then the figure is not a bare-machine one, and the output says so).
# Extra arguments after -- go to setup_and_run.sh (e.g. -- --quick).
# Exit status: 0 when the run reached results (the runner's exit status is printed, not returned), 1 when it
# did not, 2 for a usage error or a missing prerequisite.
set -uo pipefail
me=first_result
usage() {
    echo "usage: scripts/bench/$me.sh [--root DIR] [--keep] [--mirror URL] [-- setup_and_run arguments]"
}
die() { echo "$me: $*" >&2; exit 2; }
root_dir="" keep=0 mirror=http://deb.debian.org/debian reused=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || die "--root needs a directory"; root_dir="$2"; reused=1; shift 2 ;;
        --keep) keep=1; shift ;;
        --mirror) [ $# -ge 2 ] || die "--mirror needs a URL"; mirror="$2"; shift 2 ;;
        --help | -h) usage; exit 0 ;;
        --) shift; break ;;
        *) usage >&2; die "unknown option '${1//[^[:print:]]/?}'" ;;
    esac
done
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and bind mounts)"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
git -C "$repo" rev-parse HEAD >/dev/null 2>&1 || die "$repo is not a git checkout"

mounted=()
cleanup() {
    local m
    for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null; done
    if [ "$keep" -eq 0 ] && [ "$reused" -eq 0 ] && [ -n "$root_dir" ]; then rm -rf --one-file-system "$root_dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$root_dir" ]; then
    command -v debootstrap >/dev/null 2>&1 || die "debootstrap not found: apt-get install debootstrap"
    root_dir="$(mktemp -d /var/tmp/$me.XXXXXX)" || die "cannot make a temporary directory"
    echo "$me: making a bare Debian 12 system in $root_dir (not timed)"
    debootstrap --variant=minbase bookworm "$root_dir" "$mirror" >"$root_dir.debootstrap.log" 2>&1 ||
        { echo "$me: debootstrap failed (log: $root_dir.debootstrap.log)" >&2; exit 2; }
    rm -f "$root_dir.debootstrap.log"
elif [ ! -x "$root_dir/bin/bash" ]; then
    die "--root $root_dir holds no Debian system (no bin/bash)"
fi
for m in proc sys dev; do
    mount --bind "/$m" "$root_dir/$m" || die "cannot bind /$m into $root_dir"
    mounted=("$root_dir/$m" "${mounted[@]}")
done
# The host's way to the network, which a bare machine on the same network has too: its resolver, its own
# certificate authorities (a proxy that re-signs TLS needs them; the system's bundle includes them once the
# ca-certificates package is installed) and pip's configuration.
cp /etc/resolv.conf "$root_dir/etc/resolv.conf"
if [ -d /usr/local/share/ca-certificates ]; then
    mkdir -p "$root_dir/usr/local/share/ca-certificates"
    cp -r /usr/local/share/ca-certificates/. "$root_dir/usr/local/share/ca-certificates/"
    if [ -x "$root_dir/usr/sbin/update-ca-certificates" ]; then
        chroot "$root_dir" /usr/sbin/update-ca-certificates >/dev/null 2>&1
    fi
fi
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root_dir/etc/pip.conf"
rm -rf "$root_dir/root/suite"
git clone -q "$repo" "$root_dir/root/suite" || die "cannot clone $repo"

cores=$(nproc)
echo "$me: $(git -C "$repo" rev-parse --short HEAD) on $cores cores, load $(cut -d' ' -f1-3 /proc/loadavg)" \
    "$([ "$reused" -eq 1 ] && echo '(reused system: caches kept, not a bare-machine figure)')"
log="$root_dir/root/first_result.log"
start=$(date +%s.%N)
chroot "$root_dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 /bin/bash -c 'cd /root/suite && scripts/setup_and_run.sh "$@"' bash "$@" >"$log" 2>&1
status=$?
end=$(date +%s.%N)
kept_log="${TMPDIR:-/tmp}/$me.log"
cp "$log" "$kept_log" 2>/dev/null || kept_log="$log"
grep '^setup_and_run: ' "$log" | grep -v 'reports in'
grep -E '^(spirv_intel_cts: [0-9]+ of|[0-9]+ passed, )' "$log"
total=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }')
if ! grep -q '^setup_and_run: run finished' "$log"; then
    echo "$me: no results after $total s (exit status $status; the whole output: $kept_log); the last lines:" >&2
    tail -n 15 "$log" >&2
    exit 1
fi
echo "$me: first results in $total s (setup_and_run exit status $status; target: under 180 s on 2 cores); the whole output: $kept_log"
echo "$me: load after the run $(cut -d' ' -f1-3 /proc/loadavg)"
