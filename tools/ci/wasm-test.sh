#!/usr/bin/env bash
# WebAssembly: build checks and the library's tests under a WASI runtime.
#
# usage: tools/ci/wasm-test.sh
#
# 1. Checks for wasm32-unknown-unknown (what the JavaScript package builds
#    on): default features, and `--no-default-features` (no_std, no rayon),
#    each without and with `-C target-feature=+simd128`; the SIMD128 one
#    with clippy's lints as errors (its backend is compiled only there).
#    `cargo check`, not `build`: the wasm32-wasip1 tests below generate the
#    same code for both feature sets.
# 2. The library's integration suite (tests/suite: the golden file,
#    conformance of every backend against portable, hash_many, tree, XOF
#    reader, saved states, the checks of the internals) for wasm32-wasip1, run under Node's
#    node:wasi by tools/ci/wasi-run.mjs (cargo's runner), with +simd128
#    (the `simd128` backend, and portable forced beside it).
#    `tests/suite/hash_many.rs` and `tree.rs` leave out what WASI cannot do
#    (threads), each with its reason.
#
# Installs the two Rust targets itself (rustup). Needs Node >= 20 (node:wasi
# with WASI preview 1). Each build has its own target directory under
# $CARGO_TARGET_DIR/wasm (so that the RUSTFLAGS of the two builds do not
# rebuild each other's artifacts, and this can run beside host builds
# without waiting on their lock).
#
# The SIMD128 test build (opt-level 2, with debug assertions) is most of its
# time (docs/testing.md, "CI: every check and where it runs", has a run's
# wall and CPU time).
#
# Environment: WASM_TEST_TIMEOUT seconds per cargo command (default 900).
# Exits non-zero if any step fails; the last line is
# "wasm-test: N passed, M failed" (steps).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
timeout_s="${WASM_TEST_TIMEOUT:-900}"
target_root="${CARGO_TARGET_DIR:-$repo/target}/wasm"

node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 20 ]; then
    echo "wasm-test.sh: needs Node >= 20 for node:wasi (found: $(node --version 2>/dev/null || echo none))" >&2
    echo "wasm-test: 0 passed, 1 failed"
    exit 1
fi
rustup target add wasm32-unknown-unknown wasm32-wasip1

passed=0
failed=0
step() {
    # step DESCRIPTION CMD... : run CMD with a timeout, report time and status.
    local desc="$1"; shift
    local t0=$SECONDS rc=0
    echo "---- $desc"
    timeout --kill-after=30 "$timeout_s" "$@" || rc=$?
    if [ "$rc" -eq 0 ]; then
        echo "---- ok ($((SECONDS - t0))s): $desc"
        passed=$((passed + 1))
    else
        echo "---- FAILED (exit $rc, $((SECONDS - t0))s): $desc"
        failed=$((failed + 1))
    fi
}

# Fresh builds: incremental compilation only costs time here.
export CARGO_INCREMENTAL=0
# The runner: Node with node:wasi (its "experimental" notice silenced).
export CARGO_TARGET_WASM32_WASIP1_RUNNER="node --disable-warning=ExperimentalWarning $repo/tools/ci/wasi-run.mjs"

for build in simd128 portable; do
    if [ "$build" = simd128 ]; then
        flags="-C target-feature=+simd128"
    else
        flags=""
    fi
    dir="$target_root/$build"
    if [ "$build" = simd128 ]; then
        step "wasm32-unknown-unknown $build: default features, clippy -D warnings" \
            env RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" \
            cargo clippy -p skein-simd --lib --target wasm32-unknown-unknown -- -D warnings
    else
        step "wasm32-unknown-unknown $build: default features" \
            env RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" \
            cargo check -p skein-simd --lib --target wasm32-unknown-unknown
    fi
    step "wasm32-unknown-unknown $build: no_std, no rayon" \
        env RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" \
        cargo check -p skein-simd --lib --target wasm32-unknown-unknown --no-default-features
    # The SIMD128 build only: its suite runs every backend it has, portable
    # (forced) beside simd128, so a portable build's test run would execute
    # the same portable code again; the portable build is checked above.
    # --nocapture: with panic=abort a failing test ends the module at once,
    # and only uncaptured output shows which assertion it was.
    if [ "$build" = simd128 ]; then
        step "wasm32-wasip1 $build: tests/suite under node:wasi" \
            env RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" \
            cargo test -p skein-simd --target wasm32-wasip1 --test suite -- --nocapture
    fi
done

echo "wasm-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
