#!/usr/bin/env bash
# Instructions per message byte of the multi-lane kernels against one stream,
# counted under QEMU user-mode emulation, as a markdown table.
#
# usage: tools/bench/lanes-insn-table.sh [ROW...]
#
# For each row it builds examples/many_bytes for the row's target
# (RUSTC_BOOTSTRAP=1 cargo build --release) and counts, with the plugin of
# tools/bench/qemu-insn-count, `many_bytes <backend> <mode> <bits> 256 64 65536`
# (64 messages of 64 KiB, 256-bit digests, one thread: the shape of
# `skeinsum -a 512 -l 256` over 64 files of 64 KiB) minus the same with 0
# messages (the input is filled alike in both), per message byte:
#   lanes   hash_many on the row's lane kernel
#   stream  the messages one after the other on the row's single-stream
#           backend (the automatic choice there)
# and the ratio stream / lanes (the target is >= 1.3).
#
# Rows: runs of tools/ci/targets.tsv (their target and QEMU CPU model), with
# the lane and stream backends:
#   aarch64-max     neon  portable
#   aarch64-a53     neon  portable
#   ppc64le-power9  vsx   vsx
#   ppc64-power8    vsx   vsx
#   riscv64-v256    rvv256  portable
#   riscv64-v128    rvv     portable
# (default: all six). Environment: CARGO_TARGET_DIR (default <repo>/target).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/insn-count-lib.sh"
if [ $# -gt 0 ]; then rows=("$@"); else rows=(aarch64-max aarch64-a53 ppc64le-power9 ppc64-power8 riscv64-v256 riscv64-v128); fi

# row -> "triple qemu cpu sysroot lane-backend stream-backend"
spec() {
    local backends
    case "$1" in
        aarch64-max | aarch64-a53) backends="neon portable" ;;
        ppc64le-power9 | ppc64-power8) backends="vsx vsx" ;;
        riscv64-v256) backends="rvv256 portable" ;;
        riscv64-v128) backends="rvv portable" ;;
        *) echo "lanes-insn-table.sh: unknown row '$1'" >&2; exit 2 ;;
    esac
    run_row "$1" || exit 2
    echo "$tgt_triple $tgt_qemu $run_cpu $tgt_sysroot $backends"
}

echo "Instructions per message byte, 64 messages x 64 KiB, 256-bit digests, one thread, QEMU user mode:"
echo
echo "| CPU (QEMU) | state | lanes | one stream | stream / lanes |"
echo "|---|---|---|---|---|"
for row in "${rows[@]}"; do
    read -r triple qemu cpu sysroot lanes stream <<< "$(spec "$row")"
    bin="$target_dir/$triple/release/examples/many_bytes"
    build_example many_bytes "$triple"
    run() { bash "$count" --quiet --qemu "$qemu" --cpu "$cpu" -L "$sysroot" "$bin" "$@"; }
    for bits in 256 512 1024; do
        zero="$(run "$stream" stream "$bits" 256 0 65536)"
        l="$(run "$lanes" lanes "$bits" 256 64 65536)"
        s="$(run "$stream" stream "$bits" 256 64 65536)"
        awk -v z="$zero" -v l="$l" -v s="$s" -v n=$((64 * 65536)) -v c="$qemu -cpu $cpu" -v b="$bits" \
            -v lb="$lanes" -v sb="$stream" 'BEGIN {
                lp = (l - z) / n; sp = (s - z) / n
                printf "| %s | Skein-%s | %s %.2f | %s %.2f | %.2fx |\n", c, b, lb, lp, sb, sp, sp / lp
            }'
    done
done
