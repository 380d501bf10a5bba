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
# Rows (name: target, QEMU cpu, lane backend, stream backend):
#   aarch64-max     aarch64-unknown-linux-gnu      max         neon  portable
#   aarch64-a53     aarch64-unknown-linux-gnu      cortex-a53  neon  portable
#   ppc64le-power9  powerpc64le-unknown-linux-gnu  power9      vsx   vsx
#   ppc64-power8    powerpc64-unknown-linux-gnu    power8      vsx   vsx
# (default: all four). Environment: CARGO_TARGET_DIR (default <repo>/target).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
count="$repo/tools/bench/qemu-insn-count/count.sh"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
if [ $# -gt 0 ]; then rows=("$@"); else rows=(aarch64-max aarch64-a53 ppc64le-power9 ppc64-power8); fi

# row -> "triple qemu cpu sysroot lane-backend stream-backend"
spec() {
    case "$1" in
        aarch64-max)    echo "aarch64-unknown-linux-gnu qemu-aarch64 max /usr/aarch64-linux-gnu neon portable" ;;
        aarch64-a53)    echo "aarch64-unknown-linux-gnu qemu-aarch64 cortex-a53 /usr/aarch64-linux-gnu neon portable" ;;
        ppc64le-power9) echo "powerpc64le-unknown-linux-gnu qemu-ppc64le power9 /usr/powerpc64le-linux-gnu vsx vsx" ;;
        ppc64-power8)   echo "powerpc64-unknown-linux-gnu qemu-ppc64 power8 /usr/powerpc64-linux-gnu vsx vsx" ;;
        *) echo "lanes-insn-table.sh: unknown row '$1'" >&2; exit 2 ;;
    esac
}

built=""
echo "Instructions per message byte, 64 messages x 64 KiB, 256-bit digests, one thread, QEMU user mode:"
echo
echo "| CPU (QEMU) | state | lanes | one stream | stream / lanes |"
echo "|---|---|---|---|---|"
for row in "${rows[@]}"; do
    read -r triple qemu cpu sysroot lanes stream <<< "$(spec "$row")"
    bin="$target_dir/$triple/release/examples/many_bytes"
    case " $built " in
        *" $triple "*) ;;
        *)
            RUSTC_BOOTSTRAP=1 cargo build -q --release --example many_bytes --target "$triple" >&2
            built="$built $triple"
            ;;
    esac
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
