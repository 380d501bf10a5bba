#!/usr/bin/env bash
# Run the skein-simd test suite and the skeinsum self-test under QEMU
# user-mode emulation on every cross target of tools/ci/targets.tsv.
#
# usage: tools/ci/qemu-test.sh [RUN...]
#
# Runs: those of tools/ci/targets.tsv, which gives each its target, QEMU
# CPU model, scope, backends, environment and rustflags; a target's NAME
# stands for all of its runs. Default: every run, in the table's order (the
# runs of one target after each other, so that each target is built once
# where their rustflags agree):
#   ppc32-7450 (AltiVec; with the doctests), ppc32-750 (no AltiVec)
#   aarch64-max (NEON with SHA3: XAR), aarch64-a53 (NEON without SHA3,
#   in-order: the lanes one by one), aarch64-n1 (without SHA3, four-wide),
#   aarch64-a72 (without SHA3, in full: the NEON and scalar hybrid lanes)
#   ppc64-power8 (VSX lanes, big-endian), ppc64-power7 (no vsx backend)
#   ppc64le-power9
#   riscv64-v256, riscv64-v128 (RVV at two vector lengths), riscv64-nov
# The AArch64 runs set SKEIN_SIMD_EXPECT_SHA3 so that the NEON kernel test
# fails if detection does not find (or wrongly finds) SHA3 on that CPU; the
# RISC-V runs SKEIN_SIMD_EXPECT_VLEN likewise for the vector length.
#
# The full runs (scope `full`) take the integration tests (`--tests`:
# tests/suite, with the checks of the internals, and tests/fork.rs), where
# every backend the CPU has meets the golden file and the differential
# tests against portable; ppc32-7450 (32-bit big-endian, the most unlike
# the host; scope `all`) also the doctests. The detection runs execute no
# kernel the full run of the same target does not (the portable code runs,
# forced, in every full run; the NEON kernel without SHA3 runs in full on
# aarch64-a72): what only they find is run-time detection going wrong on that CPU,
# so they take the checks of the internals (`--test suite internals::`,
# which hold the detection tests) and skeinsum, from the same build. (The
# library has no unit-test harness: `--lib` would build one.) The
# conformance runs (scope `conformance`, RISC-V's) take the golden file,
# the conformance and differential tests of every backend against
# portable, and the checks of the internals: the kernels, at each vector
# length, and their detection are what the target adds to what the host's
# tests cover.
#
# Every run also checks which single-stream backends `skeinsum
# --list-backends` reports against the CPU (the run's BACKENDS in the
# table: +NAME must be listed, -NAME must not), so a PowerPC build whose
# probe silently left the vector backends out fails.
#
# For each run (with the run's RUSTFLAGS, if any, as
# CARGO_TARGET_<T>_RUSTFLAGS):
#   RUSTC_BOOTSTRAP=1 cargo test -p skein-simd --profile emulated --target T SCOPE
#   RUSTC_BOOTSTRAP=1 cargo build -p skeinsum  --profile emulated --target T  (once per target)
#   QEMU target/T/emulated/skeinsum --self-test
#   QEMU target/T/emulated/skeinsum --list-backends (checked against the run's backends)
# where QEMU is the run's qemu command, which is also CARGO_TARGET_<T>_RUNNER
# for the tests, so the tests and the CLI run under the same emulated CPU
# (and CARGO_TARGET_<T>_LINKER the table's cross gcc: tools/ci/targets.sh).
# Runs of one target share one build (the runner is not part of cargo's
# fingerprint).
#
# The `emulated` profile (Cargo.toml) is `release` at opt-level 1, without
# LTO and with 16 codegen units: optimized code, built in a fraction of the
# time of level 3 (the unrolled lane kernels) or of thin LTO with one
# codegen unit (each test binary its own LTO job); docs/testing.md has the
# build times. Level 3 code is tested on the host (the C library, the
# Python wheel).
#
# Environment:
#   QEMU_TEST_RUNS        space-separated runs or targets (same as the arguments)
#   QEMU_TEST_TIMEOUT     seconds allowed for each cargo command (default 1500)
#   QEMU_TEST_FAIL_FAST=1 stop at the first failing run
#   QEMU_TEST_CARGO_ARGS  extra arguments for `cargo test` (e.g. "-- --skip slow")
#   QEMU_TEST_PROFILE     cargo profile (default emulated; `release` for the real thing)
#
# Exits non-zero if any step of any run fails. The last line is
# "qemu-test: N passed, M failed" (runs, not individual tests).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"

timeout_s="${QEMU_TEST_TIMEOUT:-1500}"
fail_fast="${QEMU_TEST_FAIL_FAST:-0}"
read -r -a extra_test_args <<< "${QEMU_TEST_CARGO_ARGS:-}"
profile="${QEMU_TEST_PROFILE:-emulated}"

# shellcheck source=targets.sh
. "$(dirname "${BASH_SOURCE[0]}")/targets.sh"
if [ $# -eq 0 ]; then
    read -r -a args <<< "${QEMU_TEST_RUNS:-}"
    set -- "${args[@]}"
fi
runs_list="$(targets_runs "$@")" || exit 2
mapfile -t runs <<< "$runs_list"

header() {
    local line="================================================================"
    printf '\n%s\n== %s\n%s\n' "$line" "$*" "$line"
}

step() {
    # step DESCRIPTION CMD... : run CMD with a timeout, report time and status.
    local desc="$1"; shift
    local t0=$SECONDS rc=0
    echo "---- $desc"
    echo "+ $*"
    timeout --kill-after=30 "$timeout_s" "$@" || rc=$?
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "---- TIMEOUT after ${timeout_s}s: $desc"
    elif [ "$rc" -ne 0 ]; then
        echo "---- FAILED (exit $rc, $((SECONDS - t0))s): $desc"
    else
        echo "---- ok ($((SECONDS - t0))s): $desc"
    fi
    return "$rc"
}

# ---- preflight: everything the runs need must be installed ----
missing=()
installed_targets="$(rustup target list --installed 2>/dev/null || true)"
for r in "${runs[@]}"; do
    run_row "$r"
    command -v "$tgt_qemu" >/dev/null || missing+=("$tgt_qemu (apt-get install ${tgt_packages//,/ })")
    command -v "$tgt_linker" >/dev/null || missing+=("$tgt_linker (apt-get install ${tgt_packages//,/ })")
    [ -d "$tgt_sysroot/lib" ] || missing+=("$tgt_sysroot/lib (apt-get install ${tgt_packages//,/ })")
    grep -qx "$tgt_triple" <<< "$installed_targets" || missing+=("rust target $tgt_triple (rustup target add $tgt_triple)")
done
if [ ${#missing[@]} -gt 0 ]; then
    printf 'qemu-test.sh: missing prerequisites:\n' >&2
    printf '  %s\n' "${missing[@]}" | sort -u >&2
    echo "qemu-test: 0 passed, ${#runs[@]} failed"
    exit 1
fi

export RUSTC_BOOTSTRAP=1
# shellcheck source=target-dir.sh
. "$(dirname "${BASH_SOURCE[0]}")/target-dir.sh"
passed=0
failed=0
failed_runs=()
t_all=$SECONDS

for r in "${runs[@]}"; do
    run_row "$r"
    target="$tgt_triple"
    expected_backends="$run_backends"
    # libtest's filters of the scope, after the extra arguments' `--` (or one of its own)
    scope_filters=()
    case "$run_scope" in
        all) scope_args=() ;;
        full) scope_args=(--tests) ;;
        detection) scope_args=(--test suite internals::) ;;
        conformance)
            scope_args=(--test suite)
            scope_filters=(conformance:: golden_kat:: backends:: internals::)
            ;;
        *) echo "targets.tsv: run $r: unknown scope '$run_scope'" >&2; exit 2 ;;
    esac
    test_args=("${extra_test_args[@]}")
    if [ ${#scope_filters[@]} -gt 0 ]; then
        case " ${test_args[*]} " in *" -- "*) ;; *) test_args+=(--) ;; esac
        test_args+=("${scope_filters[@]}")
    fi
    IFS=, read -r -a test_env <<< "$run_env"
    # cargo's linker and runner (this run's CPU) for the target, for the
    # tests and skeinsum's build
    target_env "$r"
    runner="$(target_runner "$run_cpu")"
    with_flags=""
    [ -z "$run_rustflags" ] || with_flags=" with RUSTFLAGS \"$run_rustflags\""
    header "$r: $target under '$runner'$with_flags"
    t_run=$SECONDS
    ok=1
    (
        for v in "${test_env[@]}"; do export "${v?}"; done
        step "[$r] ${test_env[*]}${test_env[*]:+ }cargo test -p skein-simd --profile $profile --target $target ${scope_args[*]} ${test_args[*]}" \
            cargo test -p skein-simd --profile "$profile" --target "$target" "${scope_args[@]}" "${test_args[@]}"
    ) || ok=0
    if [ "$ok" = 1 ] || [ "$fail_fast" != 1 ]; then
        # skeinsum built once per target (and rustflags), then run by its path: a `cargo
        # run` per step waited minutes in CI for the package cache lock that
        # the other lane's cargo commands hold.
        skeinsum="$target_dir/$target/$profile/skeinsum"
        if [ "${skeinsum_built:-}" != "$target $run_rustflags" ]; then
            if step "[$r] build skeinsum" cargo build -q -p skeinsum --profile "$profile" --target "$target"; then
                skeinsum_built="$target $run_rustflags"
            else
                ok=0
            fi
        fi
        # shellcheck disable=SC2086 # the runner is a command line
        step "[$r] skeinsum --self-test" $runner "$skeinsum" --self-test || ok=0
        # must list (+NAME) and not list (-NAME) these backends
        # shellcheck disable=SC2086 # the runner is a command line
        step "[$r] skeinsum --list-backends: $expected_backends" bash -c '
                expected="$1"; shift
                out="$("$@")" || exit $?
                printf "%s\n" "$out"
                for want in ${expected//,/ }; do
                    name="${want#?}"
                    listed=0
                    grep -q "^$name[[:space:]]" <<< "$out" && listed=1
                    case "$want" in
                        +*) [ "$listed" = 1 ] || { echo "backend $name not listed on this CPU" >&2; exit 1; } ;;
                        -*) [ "$listed" = 0 ] || { echo "backend $name listed on a CPU without it" >&2; exit 1; } ;;
                    esac
                done' _ "$expected_backends" $runner "$skeinsum" --list-backends || ok=0
    fi
    if [ "$ok" = 1 ]; then
        passed=$((passed + 1))
        echo "== $r: PASSED ($((SECONDS - t_run))s)"
    else
        failed=$((failed + 1))
        failed_runs+=("$r")
        echo "== $r: FAILED ($((SECONDS - t_run))s)"
        [ "$fail_fast" = 1 ] && break
    fi
done

header "qemu-test summary ($((SECONDS - t_all))s)"
[ ${#failed_runs[@]} -gt 0 ] && echo "failed runs: ${failed_runs[*]}"
echo "qemu-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
