# Sourced by the CI scripts: `target_dir` is the root workspace's cargo
# target directory, as cargo resolves it (CARGO_TARGET_DIR, a config file,
# or target/ of the workspace), run from anywhere inside the repository.
# shellcheck shell=bash
target_dir="$(cargo metadata -q --format-version 1 --no-deps \
    --manifest-path "$(dirname "${BASH_SOURCE[0]}")/../../Cargo.toml" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
