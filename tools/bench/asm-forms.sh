#!/usr/bin/env bash
# Ticks per block of each form of the generated Skein-256/512 loops
# (tools/gen/gen-x86-asm.py --functions) against the reference C's and the
# submission assembly's Process_Block, in one process, call by call:
#   bash tools/bench/asm-forms.sh REFERENCE_DIR [BLOCKS [TRIALS]]
# REFERENCE_DIR holds the reference code (skein.h, skein.c, skein_block.c,
# skein_block_x64.s; e.g. pcompress's crypto/skein). Default 64 blocks a
# call, 1000 trials; time-stamp counter ticks, best trial; x86-64 Linux,
# gcc and GNU as. Which form runs where: src/backend/x86/asm.rs (`Form`).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 3 ]; then sed -n 2,9p "$0" >&2; exit 2; fi
ref=$1 blocks=${2:-64} trials=${3:-1000}
for f in skein.h skein.c skein_block.c skein_block_x64.s; do
    [ -f "$ref/$f" ] || { echo "asm-forms.sh: $ref/$f: no such file" >&2; exit 1; }
done
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc=(gcc -O3 -mtune=generic -I"$ref")
python3 "$root/tools/gen/gen-x86-asm.py" --functions >"$out/forms.S"
as "$out/forms.S" -o "$out/forms.o"
"${cc[@]}" -c "$ref/skein_block.c" -o "$out/c.o"
objcopy --redefine-sym Skein_256_Process_Block=c_256 --redefine-sym Skein_512_Process_Block=c_512 "$out/c.o"
as --defsym SKEIN_USE_ASM=768 --defsym SKEIN_LOOP=0 "$ref/skein_block_x64.s" -o "$out/asm.o" >/dev/null
objcopy --redefine-sym Skein_256_Process_Block=asm_256 --redefine-sym Skein_512_Process_Block=asm_512 "$out/asm.o"
"${cc[@]}" "$root/tools/bench/asm-forms/asm-forms.c" "$out/forms.o" "$out/c.o" "$out/asm.o" \
    -Wl,--no-warn-execstack -o "$out/asm-forms"
grep -m3 -E '^(model name|cpu family|model)\s' /proc/cpuinfo | sed 's/\s*:\s*/: /' || true
"$out/asm-forms" "$blocks" "$trials"
