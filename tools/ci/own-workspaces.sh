#!/usr/bin/env bash
# rustfmt or clippy over the cargo workspaces of their own: every directory
# but the root whose Cargo.lock git tracks (python/, js/, fuzz/,
# tests/no-std-backends/, tools/bench/*), which `cargo fmt --all` and
# `cargo clippy --workspace` at the root do not reach. Their Cargo.toml
# repeat the root's `[workspace.lints]` (a `// SAFETY:` comment on every
# unsafe block); this is what holds them to it.
#
# usage: bash tools/ci/own-workspaces.sh fmt|clippy
#   fmt:    `cargo fmt --check` in each.
#   clippy: `cargo clippy --all-targets --locked -- -D warnings` in each
#           (js/ for wasm32-unknown-unknown, its only target), all in one
#           target directory, CARGO_TARGET_DIR/own-workspaces (default:
#           target/own-workspaces of the repository).
#           tools/bench/miner-bench only with CPUMINER_OPT_DIR set: its build
#           script compiles cpuminer-opt's sources, which the repository
#           does not hold (docs/performance.md).
# Goes on past a failing workspace; exits 1 if any failed. Last line:
# "own-workspaces MODE: N clean, M failed".
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
mode="${1:-}"
case "$mode" in
    fmt | clippy) ;;
    *)
        echo "usage: bash tools/ci/own-workspaces.sh fmt|clippy" >&2
        exit 2
        ;;
esac
target_dir="${CARGO_TARGET_DIR:-$repo/target}/own-workspaces"

clean=0 failed=()
while IFS= read -r lock; do
    dir="$(dirname "$lock")"
    [ "$dir" = . ] && continue
    case "$mode" in
        fmt) cmd=(cargo fmt --check) ;;
        clippy)
            cmd=(cargo clippy --all-targets --locked)
            case "$dir" in
                js) cmd+=(--target wasm32-unknown-unknown) ;;
                tools/bench/miner-bench)
                    if [ -z "${CPUMINER_OPT_DIR:-}" ]; then
                        echo "=== $dir: left out (no CPUMINER_OPT_DIR)"
                        continue
                    fi
                    ;;
            esac
            cmd+=(-- -D warnings)
            ;;
    esac
    echo "=== $dir: ${cmd[*]}"
    if (cd "$dir" && CARGO_TARGET_DIR="$target_dir" "${cmd[@]}"); then
        clean=$((clean + 1))
    else
        failed+=("$dir")
    fi
done < <(git ls-files '*Cargo.lock')

echo "own-workspaces $mode: $clean clean, ${#failed[@]} failed${failed:+ (${failed[*]})}"
[ ${#failed[@]} = 0 ]
