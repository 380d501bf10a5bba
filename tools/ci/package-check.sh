#!/usr/bin/env bash
# The three crates as they would be published: `cargo package` of
# skein-simd, skeinsum and skein-simd-capi together (cargo resolves the two
# dependents' `skein-simd` through a temporary local registry holding the
# just-packaged library, so nothing needs to be on crates.io yet), each
# unpacked and built ("Verifying"), in the dev profile and the usual target
# directory. Then each .crate's file list: no tools/ and no benches/, and
# README.md, LICENSE-MIT and LICENSE-APACHE present as regular files with
# the repository's licence texts (skeinsum's and capi's are symlinks in the
# repository; the .crate must hold their contents).
#
# usage: bash tools/ci/package-check.sh      (needs cargo, python3, tar)
# Last line: "package-check: N passed, M failed".
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
crates=(skein-simd skeinsum skein-simd-capi)

# Cargo unpacks each crate of the temporary registry into
# $CARGO_HOME/registry/src/-<hash of the registry's path>/ and never
# unpacks it again while that folder holds a `.cargo-ok`. The path is
# target/package/tmp-registry, the same on every run from the same checkout
# path, so a CARGO_HOME kept between runs would verify the dependents
# against the library as an earlier run packaged it. Remove those stale
# copies (only our crates, only in unnamed local registries).
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
for c in "${crates[@]}"; do
    rm -rf "$cargo_home"/registry/src/-*/"$c"-[0-9]*
done

# shellcheck source=target-dir.sh
. "$(dirname "${BASH_SOURCE[0]}")/target-dir.sh"
# A crate from a registry is taken as immutable: once built, cargo never
# rebuilds it (its fingerprint is its version). The verification builds
# take these crates from a temporary registry of the ones just packaged,
# at the same version on every run, so a library an earlier run built
# from older sources would be linked instead of the new one: drop every
# earlier build of them (the workspace's own are rebuilt when next needed).
find "$target_dir"/debug/.fingerprint -maxdepth 1 -type d \
    -regextype posix-extended -regex '.*/(skein-simd|skeinsum|skein-simd-capi)-[0-9a-f]{16}' \
    -exec rm -rf {} + 2>/dev/null || true

echo "== cargo package -p ${crates[*]} (with verification builds)"
args=()
for c in "${crates[@]}"; do args+=(-p "$c"); done
# --allow-dirty: what is checked is the package, not the work tree (CI's
# earlier steps leave ignored and generated files behind).
cargo package --allow-dirty "${args[@]}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
for c in "${crates[@]}"; do
    version="$(cargo metadata -q --format-version 1 --no-deps | python3 -c '
import json, sys
print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == sys.argv[1]))' "$c")"
    crate="$target_dir/package/$c-$version.crate"
    echo "== $c $version: $(tar -tzf "$crate" | wc -l) files in $crate"
    tar -tzf "$crate" | sed "s|^$c-$version/||" | sort > "$work/$c.list"
    if grep -E '^(tools|benches)/' "$work/$c.list"; then
        fail "$c packages tools/ or benches/ (above)"
    else
        ok "$c has nothing of tools/ or benches/"
    fi
    mkdir -p "$work/$c"
    tar -xzf "$crate" -C "$work/$c"
    for f in README.md LICENSE-MIT LICENSE-APACHE; do
        got="$work/$c/$c-$version/$f"
        if [ -f "$got" ] && [ ! -L "$got" ] && { [ "$f" = README.md ] || cmp -s "$got" "$f"; } && [ -s "$got" ]; then
            ok "$c holds $f"
        else
            fail "$c lacks $f (or it is a link, empty, or not the repository's text)"
        fi
    done
done
echo "package-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
