#!/usr/bin/env bash
# Checks that every C/C++ source tracked by git matches .clang-format. Lists offenders; exit 1 if any.
# Usage: scripts/checks/check_format.sh [clang-format binary]   (default: clang-format-14, the CI version)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tool="${1:-${CLANG_FORMAT:-clang-format-14}}"
if ! command -v "$tool" >/dev/null 2>&1; then
    echo "check_format: $tool not found: apt-get install clang-format-14" >&2
    exit 1
fi
cd "$root"
bad=()
while IFS= read -r -d '' f; do
    [ -f "$f" ] || continue  # deleted in the work tree but still tracked
    if ! "$tool" --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
        bad+=("$f")
    fi
done < <(git ls-files -z -- '*.h' '*.cpp')
if [ "${#bad[@]}" -ne 0 ]; then
    echo "check_format: ${#bad[@]} file(s) differ from .clang-format (fix: $tool -i <file>):"
    printf '  %s\n' "${bad[@]}"
    exit 1
fi
echo "check_format: all tracked *.h/*.cpp files are formatted"
