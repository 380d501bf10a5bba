# shellcheck shell=bash
# The cross targets of tools/ci/targets.tsv (which says what each field
# is), for the scripts that build or run them: sourced, it defines the
# functions below; run, it answers one question (usage at the end).
#
# Cargo's linker and runner of these targets come from here, as
# CARGO_TARGET_<TRIPLE>_LINKER and _RUNNER in the environment, not from
# .cargo/config.toml: the table holds them once, and a run needs its own
# QEMU CPU model anyway. By hand:
#   eval "$(bash tools/ci/targets.sh env ppc32-750)"   # a run, a target NAME or a triple
#   RUSTC_BOOTSTRAP=1 cargo test -p skein-simd --target powerpc-unknown-linux-gnu --tests
# (tools/ci/qemu-test.sh RUN does all of a run: tests, skeinsum, backends.)
# A run's RUSTFLAGS (a backend chosen at compile time) come the same way, as
# CARGO_TARGET_<TRIPLE>_RUSTFLAGS, which `env` sets (or clears) too.

targets_tsv="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/targets.tsv"

# target_row KEY: the target row whose NAME or TRIPLE is KEY, into tgt_name,
# tgt_triple, tgt_arch, tgt_linker, tgt_qemu, tgt_sysroot and tgt_packages;
# returns 1 when there is none.
# shellcheck disable=SC2034 # the variables are what it returns
target_row() {
    local kind name triple arch linker qemu sysroot packages
    while read -r kind name triple arch linker qemu sysroot packages _; do
        [ "$kind" = target ] || continue
        if [ "$1" = "$name" ] || [ "$1" = "$triple" ]; then
            tgt_name="$name" tgt_triple="$triple" tgt_arch="$arch" tgt_linker="$linker"
            tgt_qemu="$qemu" tgt_sysroot="$sysroot" tgt_packages="$packages"
            return 0
        fi
    done < "$targets_tsv"
    return 1
}

# run_row RUN: the run row named RUN, into run_name, run_target, run_cpu,
# run_scope, run_backends, run_env and run_rustflags (the two empty for -;
# run_rustflags with spaces between the flags), and its target's row
# (target_row); returns 1 when there is none.
# shellcheck disable=SC2034 # the variables are what it returns
run_row() {
    local kind name target cpu scope backends env rustflags
    while read -r kind name target cpu scope backends env rustflags _; do
        if [ "$kind" != run ] || [ "$1" != "$name" ]; then continue; fi
        run_name="$name" run_target="$target" run_cpu="$cpu" run_scope="$scope"
        run_backends="$backends" run_env="$env" run_rustflags="${rustflags//,/ }"
        [ "$run_env" != - ] || run_env=""
        [ "$run_rustflags" != - ] || run_rustflags=""
        target_row "$target" || { echo "targets.tsv: run $name: no target $target" >&2; return 1; }
        return 0
    done < "$targets_tsv"
    return 1
}

# targets_names KIND [TARGET]: the NAMEs of the rows of KIND (target or
# run), in the table's order; of runs, only TARGET's when given.
targets_names() {
    local kind name target _rest
    while read -r kind name target _rest; do
        [ "$kind" = "$1" ] || continue
        [ -z "${2:-}" ] || [ "$target" = "$2" ] || continue
        echo "$name"
    done < "$targets_tsv"
}

# targets_runs ARG...: the runs the arguments name, one a line: a run's
# NAME names that run, a target's NAME every run of the target; no
# argument, every run. Returns 2 (with a message) for an unknown name.
targets_runs() {
    local a runs
    [ $# -gt 0 ] || { targets_names run; return 0; }
    for a in "$@"; do
        if run_row "$a"; then
            echo "$a"
        elif runs="$(targets_names run "$a")" && [ -n "$runs" ]; then
            echo "$runs"
        else
            echo "targets.tsv: no run or target named '$a'" >&2
            return 2
        fi
    done
}

# targets_packages: the Debian packages of every target, each once.
targets_packages() {
    local t seen=" " p packages
    for t in $(targets_names target); do
        target_row "$t"
        IFS=, read -r -a packages <<< "$tgt_packages"
        for p in "${packages[@]}"; do
            case "$seen" in *" $p "*) continue ;; esac
            seen="$seen$p "
            echo "$p"
        done
    done
}

# cargo_target_var TRIPLE SUFFIX: the name of cargo's CARGO_TARGET_<TRIPLE>_SUFFIX.
cargo_target_var() {
    echo "CARGO_TARGET_$(echo "$1" | tr 'a-z.-' 'A-Z__')_$2"
}

# target_runner [CPU]: the QEMU command of the target last read (target_row
# or run_row) on CPU, by default the CPU of the target's first run.
target_runner() {
    local cpu="${1:-}"
    if [ -z "$cpu" ]; then
        local first
        # sed, not head: head's early exit can kill the writer with SIGPIPE,
        # which pipefail turns into the script's exit 141.
        first="$(targets_names run "$tgt_name" | sed -n 1p)"
        [ -n "$first" ] || { echo "targets.tsv: target $tgt_name has no run" >&2; return 1; }
        cpu="$(run_cpu_of "$first")"
    fi
    echo "$tgt_qemu -cpu $cpu -L $tgt_sysroot"
}

# run_cpu_of RUN: RUN's CPU, leaving the variables of the last row read as
# they were.
run_cpu_of() {
    local kind name target cpu _rest
    while read -r kind name target cpu _rest; do
        if [ "$kind" = run ] && [ "$name" = "$1" ]; then echo "$cpu"; return 0; fi
    done < "$targets_tsv"
    return 1
}

# run_rustflags_of RUN: RUN's RUSTFLAGS, spaces between them (none for -),
# leaving the variables of the last row read as they were.
run_rustflags_of() {
    local kind name target cpu scope backends env rustflags _rest
    while read -r kind name target cpu scope backends env rustflags _rest; do
        if [ "$kind" = run ] && [ "$name" = "$1" ]; then
            [ "$rustflags" = - ] || echo "${rustflags//,/ }"
            return 0
        fi
    done < "$targets_tsv"
    return 1
}

# target_env KEY: exports cargo's linker, runner and rustflags for KEY: a
# run (its CPU and RUSTFLAGS) or a target's NAME or TRIPLE (those of its
# first run). Without RUSTFLAGS, the rustflags variable is removed, so that
# one run's flags do not stay for the next.
target_env() {
    local cpu="" runner rustflags first flags_var
    if run_row "$1"; then
        cpu="$run_cpu" rustflags="$run_rustflags"
    elif target_row "$1"; then
        first="$(targets_names run "$tgt_name" | sed -n 1p)"
        rustflags="$(run_rustflags_of "$first")" || rustflags=""
    else
        echo "targets.tsv: no run or target named '$1'" >&2
        return 2
    fi
    runner="$(target_runner "$cpu")" || return 1
    export "$(cargo_target_var "$tgt_triple" LINKER)=$tgt_linker"
    export "$(cargo_target_var "$tgt_triple" RUNNER)=$runner"
    flags_var="$(cargo_target_var "$tgt_triple" RUSTFLAGS)"
    if [ -n "$rustflags" ]; then
        export "$flags_var=$rustflags"
    else
        unset "$flags_var"
    fi
}

# targets_main COMMAND...: the command line (usage below).
targets_main() {
    local words t v
    case "${1:-}" in
        env)
            [ $# = 2 ] || { echo "usage: targets.sh env RUN|TARGET|TRIPLE" >&2; exit 2; }
            target_env "$2"
            for v in LINKER RUNNER RUSTFLAGS; do
                v="$(cargo_target_var "$tgt_triple" "$v")"
                if [ -n "${!v+set}" ]; then
                    printf 'export %s=%q\n' "$v" "${!v}"
                else
                    printf 'unset %s\n' "$v"
                fi
            done
            ;;
        runs)
            shift
            words="$(targets_runs "$@")"
            mapfile -t words <<< "$words"
            echo "${words[*]}"
            ;;
        targets)
            mapfile -t words < <(targets_names target)
            echo "${words[*]}"
            ;;
        triples)
            words=()
            for t in $(targets_names target); do target_row "$t"; words+=("$tgt_triple"); done
            echo "${words[*]}"
            ;;
        packages)
            mapfile -t words < <(targets_packages)
            echo "${words[*]}"
            ;;
        *)
            cat >&2 << 'USAGE'
usage: tools/ci/targets.sh COMMAND      (the table: tools/ci/targets.tsv)
The lists come as words on one line, in the table's order.
  env RUN|TARGET|TRIPLE  the exports of cargo's linker, QEMU runner and rustflags, for eval
  runs [RUN|TARGET...]   run names (a target: its runs; none: all)
  targets                target NAMEs
  triples                their rust targets
  packages               their Debian packages, each once
USAGE
            exit 2
            ;;
    esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    targets_main "$@"
fi
