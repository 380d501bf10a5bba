#!/usr/bin/env bash
# Builds ref_api_bench.c three ways into WORK: `c` (the reference C),
# `asm` (the reference C with the submission's x86-64 assembly for
# Skein-256 and -512, --defsym SKEIN_USE_ASM=768; its Skein-1024 code fails
# today, so that state size is the C) and `ours` (libskein_simd.a).
#
#   bash tools/bench/ref-api-bench/build.sh PEER_DIR WORK [LIB_A]
#
# PEER_DIR: the reference sources with skein_block_x64.s (pcompress's
# crypto/skein/: `fetch github:moinakg/pcompress`; never committed here).
# LIB_A: our static library (default: built here, release).
set -euo pipefail
peer=$(cd "${1:?usage: build.sh PEER_DIR WORK [LIB_A]}" && pwd)
work=${2:?usage: build.sh PEER_DIR WORK [LIB_A]}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
lib=${3:-}
if [ -z "$lib" ]; then
    (cd "$root" && cargo build --release --quiet -p skein-simd-capi)
    lib="${CARGO_TARGET_DIR:-$root/target}/release/libskein_simd.a"
fi
mkdir -p "$work"
cflags=(-O3 -mtune=generic)
gcc "${cflags[@]}" -I"$peer" -c "$here/ref_api_bench.c" -o "$work/peer_main.o"
gcc "${cflags[@]}" -I"$peer" -c "$peer/skein.c" -o "$work/skein.o"
gcc "${cflags[@]}" -I"$peer" -c "$peer/skein_block.c" -o "$work/block_c.o"
gcc "${cflags[@]}" -I"$peer" -DSKEIN_USE_ASM=768 -c "$peer/skein_block.c" -o "$work/block_1024.o"
as --defsym SKEIN_USE_ASM=768 --defsym SKEIN_LOOP=0 "$peer/skein_block_x64.s" -o "$work/block_asm.o"
gcc -o "$work/c" "$work/peer_main.o" "$work/skein.o" "$work/block_c.o"
gcc -o "$work/asm" "$work/peer_main.o" "$work/skein.o" "$work/block_1024.o" "$work/block_asm.o"
gcc "${cflags[@]}" -I"$root/capi/include" "$here/ref_api_bench.c" "$lib" -lpthread -ldl -lm -o "$work/ours"
