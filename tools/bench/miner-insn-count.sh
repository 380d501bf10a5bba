#!/usr/bin/env bash
# Instructions a message, counted by callgrind (independent of machine load),
# of cpuminer-opt's 4-way AVX2 Skein-512-512 against skein-simd's AVX2 lane
# kernel in its three forms (x4: one group of lanes; x8: two interleaved;
# x4+1: four vector lanes and a scalar lane), on
# batches of 64 separate messages end to end (tools/bench/miner-bench):
#
#   CPUMINER_OPT_DIR=/path/to/cpuminer-opt bash tools/bench/miner-insn-count.sh [CASE]...
#
# CASE is a message size (64, 80, or a multiple of 128) or `header` (80-byte
# headers sharing 64 bytes: hash_many_from against prehash64 + final16);
# default 64 80 header. Each figure is (run of N batches - run of 0) / (64 N).
# Valgrind 3.19 runs no AVX-512, so the peer's 8-way is not counted.
set -euo pipefail
: "${CPUMINER_OPT_DIR:?set CPUMINER_OPT_DIR to a cpuminer-opt checkout (see docs/performance.md)}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
manifest="$repo/tools/bench/miner-bench/Cargo.toml"
cargo build --quiet --release --manifest-path "$manifest" >&2
exe="${CARGO_TARGET_DIR:-$repo/tools/bench/miner-bench/target}/release/skein-miner-bench"

count() { # IMPL CASE BATCHES -> total instructions
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" count "$@" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_message() { # IMPL CASE
    local n=40 z f
    z=$(count "$1" "$2" 0); f=$(count "$1" "$2" "$n")
    echo $(( (f - z) / (64 * n) ))
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(64 80 header)
printf '| Skein-512-512 | cpuminer-opt 4x64 (AVX2) | skein-simd avx2 x4 | avx2 x8 | avx2 x4+1 | x4/peer | x8/peer | x4+1/peer |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
for c in "${cases[@]}"; do
    p=$(per_message peer4 "$c"); a=$(per_message ours-avx2x4 "$c"); b=$(per_message ours-avx2x8 "$c")
    s=$(per_message ours-avx2x4+1 "$c")
    case "$c" in header) name="80 B header, 64 B shared" ;; *) name="$c B" ;; esac
    awk -v n="$name" -v p="$p" -v a="$a" -v b="$b" -v s="$s" \
        'BEGIN { printf "| %s | %d | %d | %d | %d | %.3f | %.3f | %.3f |\n", n, p, a, b, s, a / p, b / p, s / p }'
done
