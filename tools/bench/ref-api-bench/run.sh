#!/usr/bin/env bash
# Single stream through the reference API against the reference C and the
# submission's x86-64 assembly: one C program (ref_api_bench.c) linked
# three ways, run alternated, best ns a message kept per case, and the
# speed of ours over each peer.
#
#   bash tools/bench/ref-api-bench/run.sh PEER_DIR [ROUNDS] [LIB_A [BASE_A]]
#
# PEER_DIR: the reference sources with skein_block_x64.s (pcompress's
# crypto/skein/: `fetch github:moinakg/pcompress`; never committed here).
# ROUNDS: alternated runs of the three programs (default 3). LIB_A: our
# static library (default: built here, release). BASE_A: another build of
# ours (an earlier commit's), run alternated with the rest: before/after in
# the same run. The three programs: build.sh; instruction counts of the
# same programs: callgrind.sh.
set -euo pipefail
peer=$(cd "${1:?usage: run.sh PEER_DIR [ROUNDS] [LIB_A]}" && pwd)
rounds=${2:-3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$here/build.sh" "$peer" "$work" "${3:-}"
programs=(c asm ours)
if [ -n "${4:-}" ]; then
    gcc -O3 -mtune=generic -I"$here/../../../capi/include" "$here/ref_api_bench.c" "$4" \
        -lpthread -ldl -lm -o "$work/base"
    programs+=(base)
fi
for ((r = 0; r < rounds; r++)); do
    for p in "${programs[@]}"; do
        "$work/$p" | sed "s/^/$p\t/"
    done
done | python3 -c '
import sys
best = {}
for line in sys.stdin:
    prog, bits, n, ns = line.split()
    k = (prog, int(bits), int(n))
    best[k] = min(best.get(k, 1e30), float(ns))
has_base = any(k[0] == "base" for k in best)
extra = (" base ns | ours vs base |", "---:|---:|") if has_base else ("", "")
print("| Skein | bytes | C ns | asm ns | ours ns | ours vs C | ours vs asm |" + extra[0])
print("|---|---:|---:|---:|---:|---:|---:|" + extra[1])
for bits in (256, 512, 1024):
    for n in (64, 1024, 65536):
        c, a, o = (best[(p, bits, n)] for p in ("c", "asm", "ours"))
        row = f"| {bits} | {n} | {c:.1f} | {a:.1f} | {o:.1f} | {c/o:.2f}x | {a/o:.2f}x |"
        if has_base:
            b = best[("base", bits, n)]
            row += f" {b:.1f} | {b/o:.2f}x |"
        print(row)
'
