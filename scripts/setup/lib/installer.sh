# shellcheck shell=bash disable=SC2034,SC2154  # a library: the sourcing script sets `me` and defines usage
# Sourced by the four installers (install_spirv_tools.sh, install_intel_cpu_runtime.sh, install_intel_ocloc.sh,
# install_intel_compute_runtime.sh; the last two through lib/sid_packages.sh): their messages, their options and
# the rule for the directory they install into. Each installer changes only a directory it made: new or empty
# when first used, then marked by a stamp file of its own, so `--dir=$HOME` or a typo is refused (exit 2) and
# left as it was.
#
# The sourcing script sets `me` (its name in messages) and defines `usage` (its --help text).

# 1 when standard output carries one path alone (--print-icd, --print-prefix, the ocloc wrapper): progress then
# goes to standard error.
inst_say_to_stderr=0
# Who must have made the directory, in the refusal message.
inst_who=""
# The word for a missing option value: "--dir needs a value: --dir=DIR".
inst_needs="a value"

fail() {
    echo "$me: error: $*" >&2
    exit 1
}
usage_error() {
    echo "$me: error: $*" >&2
    exit 2
}
say() {
    if [ "$inst_say_to_stderr" = 1 ]; then echo "$*" >&2; else echo "$*"; fi
}

# inst_parse_options SPEC... -- ARG...: SPEC is `--NAME=META:VAR` (an option with a value, stored in VAR; an
# empty value is a usage error) or `--NAME:VAR` (a flag: VAR=1). --help and -h print usage and exit 0; any
# other argument is a usage error.
inst_parse_options() {
    local specs=() spec arg opt meta var matched
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        specs+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    for arg in "$@"; do
        case "$arg" in
            --help | -h)
                usage
                exit 0
                ;;
        esac
        matched=0
        for spec in "${specs[@]}"; do
            var="${spec##*:}"
            opt="${spec%:*}"
            case "$opt" in
                *=*)
                    meta="${opt#*=}"
                    opt="${opt%%=*}"
                    case "$arg" in
                        "$opt="?*)
                            printf -v "$var" '%s' "${arg#"$opt="}"
                            matched=1
                            ;;
                        "$opt=" | "$opt") usage_error "$opt needs $inst_needs: $opt=$meta (see --help)" ;;
                    esac
                    ;;
                *) [ "$arg" = "$opt" ] && printf -v "$var" 1 && matched=1 ;;
            esac
            [ "$matched" = 1 ] && break
        done
        [ "$matched" = 1 ] || usage_error "unknown argument '$arg' (see --help)"
    done
}

# inst_absolute PATH: PATH against the working directory, so that every path the script writes, links or
# prints holds wherever it is read from (a relative link target would resolve from the link's folder).
inst_absolute() {
    case "$1" in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s\n' "$PWD/$1" ;;
    esac
}

# inst_open_dir DIR STAMP_NAME [OWN_TEST]: creates DIR when missing and sets inst_dir (absolute, links resolved)
# and inst_owned: 1 when DIR holds STAMP_NAME, is empty (new), or the function OWN_TEST (given inst_dir)
# recognises it as an install of an earlier version of the script. Writes nothing in DIR.
inst_open_dir() {
    local d="$1" stamp_name="$2" own_test="${3:-}"
    [ ! -e "$d" ] || [ -d "$d" ] || usage_error "--dir=$d exists and is not a directory"
    mkdir -p "$d" 2>/dev/null || fail "cannot create $d"
    inst_dir="$(cd "$d" 2>/dev/null && pwd -P)" || fail "cannot enter $d"
    inst_stamp="$inst_dir/$stamp_name"
    inst_owned=0
    if [ -f "$inst_stamp" ] || [ -z "$(ls -A "$inst_dir" 2>/dev/null)" ] ||
        { [ -n "$own_test" ] && "$own_test" "$inst_dir"; }; then
        inst_owned=1
    fi
}

# The one line for a directory that is not the script's (exit 2).
inst_refuse_dir() {
    usage_error "$inst_dir is not empty and was not made by ${inst_who:-$me} (no ${inst_stamp##*/} in it); choose a" \
        "new or empty --dir"
}

# inst_write_stamp WHAT: marks inst_dir as the script's (once), so later runs know it; WHAT (a name in inst_dir)
# is what the script may replace there.
inst_write_stamp() {
    [ -f "$inst_stamp" ] && return 0
    { printf 'made by spirv_intel_cts scripts/%s, which may replace %s/%s\n' "${me%.sh}.sh" "$inst_dir" "$1" \
        >"$inst_stamp"; } \
        2>/dev/null || fail "cannot write $inst_stamp"
}

# inst_claim_dir DIR STAMP_NAME WHAT [OWN_TEST]: inst_open_dir, then the refusal unless it is the script's,
# then the stamp.
inst_claim_dir() {
    inst_open_dir "$1" "$2" "${4:-}"
    [ "$inst_owned" = 1 ] || inst_refuse_dir
    inst_write_stamp "$3"
}

# Two runs sharing the cache (CI jobs on one machine) must not install into one directory at once. Only in a
# directory that is the script's: no lock file is left in anyone else's.
inst_lock_dir() {
    command -v flock >/dev/null 2>&1 || return 0
    { exec 9>"$inst_dir/.lock"; } 2>/dev/null || fail "cannot write $inst_dir/.lock"
    flock 9 || fail "cannot lock $inst_dir/.lock"
}

# Replaces a file only when its content differs, atomically.
write_file() {
    local path="$1" text="$2"
    [ -f "$path" ] && [ "$(cat "$path")" = "$text" ] && return 0
    mkdir -p "$(dirname "$path")" 2>/dev/null || fail "cannot create $(dirname "$path")"
    { printf '%s\n' "$text" >"$path.tmp.$$"; } 2>/dev/null || fail "cannot write $path.tmp.$$"
    mv -f "$path.tmp.$$" "$path" 2>/dev/null || fail "cannot replace $path"
}
