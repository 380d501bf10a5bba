#!/bin/sh
# Build the package's WebAssembly and its generated files: the crate for
# wasm32-unknown-unknown twice (with SIMD128, and portable: without it),
# wasm-bindgen's `--target web` glue (the name and producers sections
# stripped), then tools/bundle.mjs: wasm/ (the glue, each module embedded as
# base64 in a module of its own) and dist/ (the CommonJS builds and their
# types).
#
#   npm ci && sh build.sh           # the package, in js/
#   WASM_OPT=1 sh build.sh          # with binaryen's wasm-opt -O3 over each
#                                   # module (not kept: docs/javascript.md,
#                                   # "Size and wasm-opt")
#   sh build.sh --out DIR           # a whole copy of the package in DIR
#
# Needs the wasm32-unknown-unknown target, wasm-bindgen-cli at the version
# of wasm-bindgen in Cargo.lock (tools/ci/js-test.sh installs both), and
# `npm ci` (esbuild; WASM_OPT=1 fetches binaryen with npx).
set -eu
cd "$(dirname "$0")"
out=.
case "${1:-}" in
--out)
    out=${2:?build.sh: --out needs a directory}
    ;;
"") ;;
*)
    echo "build.sh: unknown option '$1' (only --out DIR)" >&2
    exit 2
    ;;
esac
target_dir=${CARGO_TARGET_DIR:-target}
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }') || true
if [ "$have" != "$want" ]; then
    echo "build.sh: need wasm-bindgen-cli $want (found '${have:-none}'):" \
        "cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi
if [ ! -x node_modules/.bin/esbuild ]; then
    echo "build.sh: node_modules/.bin/esbuild missing: run npm ci in js/ first" >&2
    exit 1
fi
for build in simd128 portable; do
    case $build in
    simd128) flags="-Ctarget-feature=+simd128" ;;
    portable) flags="" ;;
    esac
    # Each build its own target dir: the two differ only in RUSTFLAGS, which
    # would otherwise rebuild everything at every switch.
    build_dir="$target_dir/$build"
    RUSTFLAGS="$flags" CARGO_TARGET_DIR="$build_dir" \
        cargo build --release --target wasm32-unknown-unknown --locked
    # No default module path: the glue never reaches for a .wasm file by
    # URL (index.js hands it the embedded bytes).
    wasm-bindgen --target web --omit-default-module-path --no-typescript \
        --remove-name-section --remove-producers-section --out-dir "$build_dir/bindgen" \
        "$build_dir/wasm32-unknown-unknown/release/skein_simd_js.wasm"
    wasm="$build_dir/bindgen/skein_simd_js_bg.wasm"
    if [ "${WASM_OPT:-0}" = 1 ]; then
        # -O3 (speed); the features are the module's own (its
        # target_features section), so wasm-opt adds none.
        npx -y -p binaryen@132.0.0 wasm-opt -O3 --strip-debug --strip-producers \
            "$wasm" -o "$build_dir/bindgen/optimized.wasm"
        wasm="$build_dir/bindgen/optimized.wasm"
    fi
    eval "wasm_$build=\$wasm"
done
# One glue for both modules: it must be the same text for both builds (it
# depends on the exports and imports, not on the code).
if ! cmp -s "$target_dir/simd128/bindgen/skein_simd_js.js" "$target_dir/portable/bindgen/skein_simd_js.js"; then
    echo "build.sh: wasm-bindgen's glue differs between the SIMD128 and portable builds" >&2
    exit 1
fi
# shellcheck disable=SC2154 # set by the eval above
node tools/bundle.mjs --glue "$target_dir/simd128/bindgen/skein_simd_js.js" \
    --simd128 "$wasm_simd128" --portable "$wasm_portable" --out "$out"
