#!/usr/bin/env bash
# Installs the Debian packages in scripts/setup/debian_packages.txt that are not installed yet (apt-get; sudo
# when not root), then upstream SPIRV-Tools and SPIRV-Headers when the system's are too old
# (scripts/setup/install_spirv_tools.sh --if-needed: PyPI wheels in a venv under ~/.cache, no sudo).
#   --run  only what a run on the reference device needs (scripts/setup/debian_packages_run.txt; README's first
#          command): no offline compilers, format checker, pocl, oclgrind or ccache
#   --all  runs apt-get update and installs the whole list, present or not (what CI does)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
list="$root/scripts/setup/debian_packages.txt"
case "${1:-}" in
    "" | --all) ;;
    --run) list="$root/scripts/setup/debian_packages_run.txt" ;;
    *) echo "install_deps: unknown option '${1//[^[:print:]]/?}' (usage: install_deps.sh [--run | --all])" >&2; exit 2 ;;
esac
mapfile -t packages < <(grep -v '^\s*#' "$list" | grep -v '^\s*$')
missing=()
if [ "${1:-}" = "--all" ]; then
    missing=("${packages[@]}")
else
    for p in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$p")
        fi
    done
fi
if [ "${#missing[@]}" -eq 0 ]; then
    echo "install_deps: all packages present"
    exec "$root/scripts/setup/install_spirv_tools.sh" --if-needed
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install_deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "install_deps: installing ${missing[*]}"
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
"$root/scripts/setup/install_spirv_tools.sh" --if-needed
