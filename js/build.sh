#!/bin/sh
# Build the package's WebAssembly: the crate for wasm32-unknown-unknown, then
# wasm-bindgen's `--target web` glue, into wasm/ (what index.js loads).
#
#   sh build.sh              # SIMD128 build into js/wasm/ (the package)
#   sh build.sh --portable   # no SIMD128: a whole package copy in
#                            # js/target/portable/ (for bench/bench.mjs)
#
# Needs the wasm32-unknown-unknown target and wasm-bindgen-cli at the
# version of wasm-bindgen in Cargo.lock (tools/ci/js-test.sh installs both).
set -eu
cd "$(dirname "$0")"
target_dir=${CARGO_TARGET_DIR:-target}
case "${1:-}" in
--portable)
    flags=""
    out=target/portable
    build_dir="$target_dir/portable"
    ;;
"")
    flags="-Ctarget-feature=+simd128"
    out=.
    build_dir="$target_dir/simd128"
    ;;
*)
    echo "build.sh: unknown option '$1' (only --portable)" >&2
    exit 2
    ;;
esac
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }') || true
if [ "$have" != "$want" ]; then
    echo "build.sh: need wasm-bindgen-cli $want (found '${have:-none}'):" \
        "cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi
# Each build its own target dir: the two differ only in RUSTFLAGS, which
# would otherwise rebuild everything at every switch.
RUSTFLAGS="$flags" CARGO_TARGET_DIR="$build_dir" \
    cargo build --release --target wasm32-unknown-unknown --locked
mkdir -p "$out/wasm"
wasm-bindgen --target web --out-dir "$out/wasm" --no-typescript \
    "$build_dir/wasm32-unknown-unknown/release/skein_simd_js.wasm"
if [ "$out" != . ]; then
    cp index.js index.d.ts package.json "$out/"
fi
echo "build.sh: $out/wasm/ ($(wc -c < "$out/wasm/skein_simd_js_bg.wasm") bytes of wasm)"
