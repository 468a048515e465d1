#!/usr/bin/env bash
# Installs Triton's Intel backend (PyPI triton-xpu, pinned) into a Python venv under a cache directory, for
# scripts/assets/triton/generate.py, which compiles the frozen Triton kernels of spirv_new_assets/triton/ without a
# GPU. No torch: the generator needs only `triton.compile` and the backend's compiler passes.
#
# Nothing outside DIR changes (no sudo). A second run with everything in place downloads nothing. The
# script changes only a directory it made (marked by the stamp file STAMP_NAME in it).
# Exit 0 when installed, 1 when it cannot be (one line saying why), 2 for a usage error.
set -uo pipefail

readonly PACKAGE=triton-xpu VERSION=3.3.0b1
readonly REQUIREMENT="$PACKAGE==$VERSION"
readonly STAMP_NAME=.spirv_intel_cts_triton
me=install_triton

usage() {
    cat <<EOF
Usage: scripts/$me.sh [--dir=DIR] [--wheel-dir=DIR] [--print-python]

Installs Triton's Intel backend ($REQUIREMENT, from PyPI; a wheel of about 180 MB, no torch) into a
Python venv in DIR. scripts/assets/triton/generate.py runs with DIR/venv/bin/python. Needs python3 with the venv
module, and PyPI (or the index pip is configured for) for the first run.

  --dir=DIR        where to install (default: \$TRITON_DIR, else
                   \${XDG_CACHE_HOME:-\$HOME/.cache}/spirv_intel_cts/$PACKAGE-$VERSION)
  --wheel-dir=DIR  install from the wheels in DIR only (pip --no-index --find-links DIR), for a wheel
                   downloaded before; without it pip reads PyPI, and PIP_FIND_LINKS works as pip documents
  --print-python   print only the venv's python path on standard output (the rest goes to standard error)
  --help           this text
EOF
}

fail() {
    echo "$me: error: $*" >&2
    exit 1
}
usage_error() {
    echo "$me: error: $*" >&2
    exit 2
}

dir="${TRITON_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/spirv_intel_cts/$PACKAGE-$VERSION}"
wheel_dir=""
print_python=0
for arg in "$@"; do
    case "$arg" in
        --dir=?*) dir="${arg#--dir=}" ;;
        --dir= | --dir) usage_error "--dir needs a directory: --dir=DIR (see --help)" ;;
        --wheel-dir=?*) wheel_dir="${arg#--wheel-dir=}" ;;
        --wheel-dir= | --wheel-dir) usage_error "--wheel-dir needs a directory: --wheel-dir=DIR (see --help)" ;;
        --print-python) print_python=1 ;;
        --help | -h)
            usage
            exit 0
            ;;
        *) usage_error "unknown argument '$arg' (see --help)" ;;
    esac
done
say() {
    if [ "$print_python" = 1 ]; then echo "$*" >&2; else echo "$*"; fi
}
if [ -n "$wheel_dir" ] && [ ! -d "$wheel_dir" ]; then
    usage_error "--wheel-dir=$wheel_dir is not a directory"
fi

python="$dir/venv/bin/python"
# The pinned distribution is installed and its Intel backend is where the generator reads it.
installed_ok() {
    [ -x "$python" ] && "$python" - "$PACKAGE" "$VERSION" >/dev/null 2>&1 <<'EOF'
import importlib.metadata, importlib.util, os, sys
assert importlib.metadata.version(sys.argv[1]) == sys.argv[2]
spec = importlib.util.find_spec("triton")
assert os.path.isfile(os.path.join(os.path.dirname(spec.origin), "backends", "intel", "compiler.py"))
EOF
}
if installed_ok; then
    say "$me: $REQUIREMENT already in $dir/venv"
    [ "$print_python" = 1 ] && echo "$python"
    exit 0
fi

# Only a directory that is new, empty or marked as this script's is installed into.
if [ -e "$dir" ] && [ ! -d "$dir" ]; then
    usage_error "$dir exists and is not a directory: choose another --dir"
fi
if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] && [ ! -f "$dir/$STAMP_NAME" ]; then
    usage_error "$dir holds files this script did not make: choose a new or empty --dir"
fi
mkdir -p "$dir" || fail "cannot create $dir"
touch "$dir/$STAMP_NAME" || fail "cannot write in $dir"
command -v python3 >/dev/null 2>&1 || fail "python3 not found: apt-get install python3 python3-venv"
log="$dir/install.log"
source_args=()
where="PyPI"
if [ -n "$wheel_dir" ]; then
    source_args=(--no-index --find-links "$wheel_dir")
    where="$wheel_dir"
fi
say "$me: installing $REQUIREMENT from $where into $dir/venv (log: $log)"
if ! python3 -m venv --clear "$dir/venv" >"$log" 2>&1; then
    fail "python3 -m venv failed (apt-get install python3-venv); see $log"
fi
if ! "$python" -m pip install --disable-pip-version-check -q "${source_args[@]}" "$REQUIREMENT" >>"$log" 2>&1; then
    if [ -n "$wheel_dir" ]; then
        tag="$("$python" -c 'import sys; print("cp%d%d" % sys.version_info[:2])' 2>/dev/null)"
        fail "pip could not install $REQUIREMENT from $wheel_dir (no $tag wheel there?): $(tail -n1 "$log")"
    fi
    fail "pip could not install $REQUIREMENT (is PyPI reachable?): $(tail -n1 "$log")"
fi
installed_ok || fail "$dir/venv has no $REQUIREMENT with triton/backends/intel/compiler.py after pip (see $log)"
say "$me: $REQUIREMENT installed ($python)"
[ "$print_python" = 1 ] && echo "$python"
exit 0
