#!/usr/bin/env bash
# Instructions per message byte of skein-simd's PowerPC backends, counted
# under QEMU user-mode emulation, as a markdown table.
#
# usage: tools/bench/ppc-insn-table.sh [--no-anchors]
#
# For each row it builds examples/hash_bytes for the row's target
# (RUSTC_BOOTSTRAP=1 cargo build --release), runs
#     hash_bytes <backend> <state-bits> 0
#     hash_bytes <backend> <state-bits> 1048576
# under the instruction-count plugin (tools/bench/qemu-insn-count/count.sh) and
# prints (insns(1 MiB) - insns(0 bytes)) / 2^20 per state size. The input
# buffer is filled identically in both runs, so the difference is hashing.
#
# Rows (backend, target, QEMU cpu):
#   altivec  powerpc-unknown-linux-gnu      7450    (G4)
#   portable powerpc-unknown-linux-gnu      7450
#   vsx      powerpc64le-unknown-linux-gnu  power9
#   portable powerpc64le-unknown-linux-gnu  power9
# Unless --no-anchors is given, the table starts with the C reference rows
# measured the same way for the project (fixed numbers, not re-measured
# here: the C sources are not part of this repository).
#
# Environment: CARGO_TARGET_DIR (default <repo>/target), PPC_INSN_ROWS to
# choose rows, e.g. "altivec:ppc32 vsx:ppc64le" (targets of
# tools/ci/targets.tsv: ppc32, ppc64, ppc64le, each on the CPU of its first
# run there: ppc64 on power8).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/insn-count-lib.sh"
anchors=1
[ "${1:-}" = "--no-anchors" ] && anchors=0

rows="${PPC_INSN_ROWS:-altivec:ppc32 portable:ppc32 vsx:ppc64le portable:ppc64le}"
mib=1048576

# target NAME -> "triple qemu cpu sysroot"
spec() {
    target_row "$1" || { echo "ppc-insn-table.sh: unknown target '$1'" >&2; exit 2; }
    local runner cpu
    runner="$(target_runner)" || exit 2
    read -r _ _ cpu _ _ <<< "$runner"
    echo "$tgt_triple $tgt_qemu $cpu $tgt_sysroot"
}

per_byte() { # backend target bits
    read -r triple qemu cpu sysroot <<< "$(spec "$2")"
    local bin="$target_dir/$triple/release/examples/hash_bytes"
    build_example hash_bytes "$triple"
    local a b
    a="$(bash "$count" --quiet --qemu "$qemu" --cpu "$cpu" -L "$sysroot" "$bin" "$1" "$3" 0)"
    b="$(bash "$count" --quiet --qemu "$qemu" --cpu "$cpu" -L "$sysroot" "$bin" "$1" "$3" "$mib")"
    awk -v a="$a" -v b="$b" -v n="$mib" 'BEGIN { printf "%.1f", (b - a) / n }'
}

echo "Instructions per message byte, (insns(hash 1 MiB) - insns(hash 0 bytes)) / 2^20, QEMU user mode:"
echo
echo "| implementation | Skein-256 | Skein-512 | Skein-1024 |"
echo "|---|---|---|---|"
if [ "$anchors" = 1 ]; then
    echo "| original AltiVec C (gcc 12 -O3 -mcpu=7450), 7450 | 64.5 | 59.5 | 68.9 |"
    echo "| reference optimized C, scalar, same flags, 7450 | 50.2 | 59.6 | 84.8 |"
    echo "| reference C at -O0, 7450 | 244 | 240 | 278 |"
fi
for row in $rows; do
    backend="${row%%:*}"
    tgt="${row#*:}"
    read -r triple qemu cpu sysroot <<< "$(spec "$tgt")"
    line="| skein-simd \`$backend\` ($triple, $qemu -cpu $cpu)"
    for bits in 256 512 1024; do
        line="$line | $(per_byte "$backend" "$tgt" "$bits")"
    done
    echo "$line |"
done
