# Sourced by tools/ci/python-wheel.sh and tools/ci/python-wheels-cross.sh:
# what both begin with, written once. The caller sets `set -euo pipefail`,
# `repo` (the repository's root) and `script` (its name in messages), then
# sources this file, which
#   - makes the scratch directory `work`, removed on exit with the
#     background jobs stopped, and `dist` (PYTHON_WHEEL_OUT, or in `work`);
#   - exports CARGO_TARGET_DIR (default: target/ of the repository) and the
#     cheap release profile of CI (no LTO, 16 codegen units: the same code
#     paths, built in a fraction of the time; the tests check results, not
#     speed) unless the caller's environment set
#     CARGO_PROFILE_RELEASE_LTO / _CODEGEN_UNITS;
#   - defines `step` (a timed heading), `die` (an error naming the script,
#     exit 1) and, from apt.sh, `apt_install`;
#   - defines `tools_venv PACKAGE...`, `build_sdist` and `build_wheel`,
#     below.
# shellcheck shell=bash

: "${repo:?set repo before sourcing python-common.sh}" "${script:?set script before sourcing python-common.sh}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2> /dev/null || true; rm -rf "$work"' EXIT
dist="${PYTHON_WHEEL_OUT:-$work/dist}"
mkdir -p "$dist"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
export CARGO_PROFILE_RELEASE_LTO="${CARGO_PROFILE_RELEASE_LTO:-false}"
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}"
t_start=$SECONDS
step() { printf '\n=== %s: %s   [%ss]\n' "$script" "$*" "$((SECONDS - t_start))"; }
die() {
    echo "ERROR: $script: $*" >&2
    exit 1
}
# shellcheck source=apt.sh
. "$repo/tools/ci/apt.sh"

# tools_venv PACKAGE...: the build tools (maturin, zig from PyPI's ziglang,
# auditwheel, ...) installed into a venv of their own, apart from the
# interpreters under test, kept where PYTHON_WHEEL_TOOLS says (CI: beside
# its target directory; not the same one for two scripts running at once),
# else in `work`; sets `tools` to its bin/ and puts that first on PATH.
# Kept at one path because maturin's linker wrapper is named after the path
# of zig's Python, and cargo fingerprints every crate with its linker: a
# venv at a new path each run had cargo compile all 33 crates of the wheel
# again.
tools_venv() {
    local venv="${PYTHON_WHEEL_TOOLS:-$work/tools}"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    tools="$venv/bin"
    "$tools/python" -m pip install -q --disable-pip-version-check "$@"
    export PATH="$tools:$PATH"
    maturin --version
}

# build_sdist: the sdist of python/ (maturin sdist) into `dist`, its path in
# `sdist`; unpacked and copied by content into `src`, one place under the
# target directory ($CARGO_TARGET_DIR/sdist-source), where the wheels are
# built from it, so that cargo compiles again only what changed
# (tools/ci/sync-tree.py says why).
build_sdist() {
    local sdists
    (cd "$repo/python" && maturin sdist -o "$dist")
    sdists=("$dist"/skein_simd-*.tar.gz)
    if [ ${#sdists[@]} != 1 ] || [ ! -f "${sdists[0]}" ]; then
        die "expected one sdist in $dist: ${sdists[*]}"
    fi
    sdist="${sdists[0]}"
    mkdir "$work/unpacked"
    tar -xzf "$sdist" -C "$work/unpacked"
    src="$CARGO_TARGET_DIR/sdist-source"
    "$tools/python" "$repo/tools/ci/sync-tree.py" "$work/unpacked" "$src"
}

# build_wheel MATURIN_BUILD_ARG...: `maturin build --release ARG...` in the
# unpacked sdist (`src`, after build_sdist). maturin runs the cargo of PATH,
# so in CI a link that fails on incremental compilation is done once more
# without it (tools/ci/cargo-retry/cargo).
build_wheel() {
    (cd "$src"/skein_simd-* && maturin build --release "$@")
}
