#!/usr/bin/env bash
# Single stream through the reference API, every implementation in one
# process (same_process.c): the reference C, the reference C with the
# submission's x86-64 assembly for Skein-256 and -512, and one or more
# builds of ours, each a shared library; trial by trial in turn, best
# trial in time-stamp counter ticks a message. On a loaded machine this
# keeps the ratios that run.sh's separate programs lose.
#
#   bash tools/bench/ref-api-bench/same-process.sh PEER_DIR [TRIALS] [NAME=LIB.so...]
#
# PEER_DIR: the reference sources with skein_block_x64.s (pcompress's
# crypto/skein/: `fetch github:moinakg/pcompress`; never committed here).
# TRIALS: default 200. Without NAME=LIB.so, ours is built here (release,
# libskein_simd.so). The last column compares each library with the C.
set -euo pipefail
peer=$(cd "${1:?usage: same-process.sh PEER_DIR [TRIALS] [NAME=LIB.so...]}" && pwd)
trials=${2:-200}
shift $(($# < 2 ? $# : 2))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
ours=("$@")
if [ ${#ours[@]} -eq 0 ]; then
    (cd "$root" && cargo build --release --quiet -p skein-simd-capi)
    ours=("ours=${CARGO_TARGET_DIR:-$root/target}/release/libskein_simd.so")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cflags=(-O3 -mtune=generic -fPIC -I"$peer")
gcc "${cflags[@]}" -c "$peer/skein.c" -o "$work/skein.o"
gcc "${cflags[@]}" -c "$peer/skein_block.c" -o "$work/block_c.o"
gcc "${cflags[@]}" -DSKEIN_USE_ASM=768 -c "$peer/skein_block.c" -o "$work/block_1024.o"
as --defsym SKEIN_USE_ASM=768 --defsym SKEIN_LOOP=0 "$peer/skein_block_x64.s" -o "$work/block_asm.o"
gcc -shared -o "$work/c.so" "$work/skein.o" "$work/block_c.o"
gcc -shared -Wl,--no-warn-execstack -o "$work/asm.so" "$work/skein.o" "$work/block_1024.o" "$work/block_asm.o"
gcc -O2 "$here/same_process.c" -ldl -o "$work/same_process"
grep -m3 -E '^(model name|cpu family|model)\s' /proc/cpuinfo | sed 's/\s*:\s*/: /' || true
"$work/same_process" "$trials" "C=$work/c.so" "asm=$work/asm.so" "${ours[@]}"
