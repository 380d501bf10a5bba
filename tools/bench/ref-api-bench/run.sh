#!/usr/bin/env bash
# Single stream through the reference API against the reference C and the
# submission's x86-64 assembly: one C program (ref_api_bench.c) linked
# three ways, run alternated, best ns a message kept per case, and the
# speed of ours over each peer.
#
#   bash tools/bench/ref-api-bench/run.sh PEER_DIR [ROUNDS] [LIB_A]
#
# PEER_DIR: the reference sources with skein_block_x64.s (pcompress's
# crypto/skein/: `fetch github:moinakg/pcompress`; never committed here).
# ROUNDS: alternated runs of the three programs (default 3). LIB_A: our
# static library (default: built here, release). The three programs:
# build.sh; instruction counts of the same programs: callgrind.sh.
set -euo pipefail
peer=$(cd "${1:?usage: run.sh PEER_DIR [ROUNDS] [LIB_A]}" && pwd)
rounds=${2:-3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$here/build.sh" "$peer" "$work" "${3:-}"
for ((r = 0; r < rounds; r++)); do
    for p in c asm ours; do
        "$work/$p" | sed "s/^/$p\t/"
    done
done | python3 -c '
import sys
best = {}
for line in sys.stdin:
    prog, bits, n, ns = line.split()
    k = (prog, int(bits), int(n))
    best[k] = min(best.get(k, 1e30), float(ns))
print("| Skein | bytes | C ns | asm ns | ours ns | ours vs C | ours vs asm |")
print("|---|---:|---:|---:|---:|---:|---:|")
for bits in (256, 512, 1024):
    for n in (64, 1024, 65536):
        c, a, o = (best[(p, bits, n)] for p in ("c", "asm", "ours"))
        print(f"| {bits} | {n} | {c:.1f} | {a:.1f} | {o:.1f} | {c/o:.2f}x | {a/o:.2f}x |")
'
