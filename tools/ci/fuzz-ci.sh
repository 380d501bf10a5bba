#!/usr/bin/env bash
# Fuzzing for CI: `bash tools/ci/fuzz-ci.sh` from anywhere in the repository.
#
# Checks the fuzz targets' reference Skein against the golden file, builds
# every cargo-fuzz target of fuzz/ (nightly, AddressSanitizer, debug
# assertions), then runs each for FUZZ_SECONDS (default 60) seconds starting
# from its committed corpus fuzz/corpus/<target>. New inputs go to a scratch
# directory, so the committed corpus is not changed. Fails on a crash, a
# failed assertion, a leak, a timeout (FUZZ_TIMEOUT, default 20 s for one
# input) or running out of memory, printing the input that did it. Ends with
# the executions per target.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH="$HOME/.cargo/bin:$PATH"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
TIMEOUT_PER_INPUT="${FUZZ_TIMEOUT:-20}"
TOOLCHAIN=nightly

if ! rustup toolchain list | grep -q "^$TOOLCHAIN-"; then
    echo "fuzz-ci: error: no '$TOOLCHAIN' Rust toolchain (cargo-fuzz needs it; found: $(rustup toolchain list | tr '\n' ' '))." >&2
    echo "fuzz-ci: install it with: rustup toolchain install $TOOLCHAIN" >&2
    exit 1
fi

if ! cargo fuzz --version > /dev/null 2>&1; then
    t0=$SECONDS
    cargo install cargo-fuzz --locked
    echo "fuzz-ci: cargo install cargo-fuzz: $((SECONDS - t0))s"
fi
cargo fuzz --version

t0=$SECONDS
cargo "+$TOOLCHAIN" test --manifest-path fuzz/Cargo.toml
echo "fuzz-ci: reference test: $((SECONDS - t0))s"

t0=$SECONDS
cargo "+$TOOLCHAIN" fuzz build
echo "fuzz-ci: build: $((SECONDS - t0))s"

mapfile -t targets < <(cargo "+$TOOLCHAIN" fuzz list)
if [ ${#targets[@]} -eq 0 ]; then
    echo "fuzz-ci: error: cargo fuzz list found no targets in fuzz/" >&2
    exit 1
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
summary=()
failed=()
for t in "${targets[@]}"; do
    seeds="fuzz/corpus/$t"
    if [ ! -d "$seeds" ] || [ -z "$(ls -A "$seeds")" ]; then
        echo "fuzz-ci: error: target $t has no committed corpus in $seeds" >&2
        exit 1
    fi
    mkdir -p "$scratch/$t/corpus" "$scratch/$t/artifacts"
    echo "fuzz-ci: running $t for ${SECONDS_PER_TARGET}s from $(ls "$seeds" | wc -l) seed inputs"
    rc=0
    cargo "+$TOOLCHAIN" fuzz run "$t" "$scratch/$t/corpus" "$seeds" -- \
        -max_total_time="$SECONDS_PER_TARGET" -timeout="$TIMEOUT_PER_INPUT" \
        -print_final_stats=1 -artifact_prefix="$scratch/$t/artifacts/" \
        > "$scratch/$t/log" 2>&1 || rc=$?
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$t/log" | tail -n 1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$scratch/$t/log" | tail -n 1)"
    summary+=("$(printf '%-12s %12s executions %8s exec/s   %s' "$t" "${runs:-?}" "${rate:-?}" "$([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")")")
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
echo "fuzz-ci: results (${SECONDS_PER_TARGET}s per target; CPU: $cpu; features: ${features:-none of sse2/avx2/avx512})"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz-ci: error: failing targets: ${failed[*]}" >&2
    exit 1
fi
