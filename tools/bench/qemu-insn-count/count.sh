#!/usr/bin/env bash
# Count the guest instructions a PowerPC (or other QEMU user-mode) binary
# executes, with the TCG plugin in insn_count.c.
#
# usage: tools/bench/qemu-insn-count/count.sh [options] BINARY [ARGS...]
#   --cpu CPU       QEMU cpu model            (default: $CPU or 7450)
#   --qemu PROG     QEMU user-mode emulator   (default: $QEMU or qemu-ppc)
#   -L DIR          guest sysroot for the dynamic loader/libs
#                   (default: $SYSROOT or /usr/powerpc-linux-gnu)
#   --mode tb|insn|hist
#                   count per translation block (default, fast) or per
#                   instruction (exact even if a block is left early);
#                   hist: per instruction and per mnemonic (see below)
#   --quiet         discard the program's own stdout/stderr
#
# Prints exactly one line on stdout: the number of executed guest
# instructions. With --mode hist it prints instead one line "MNEMONIC N" per
# executed mnemonic (most executed first), then "total N". The program's own stdout and stderr go to stderr (or
# nowhere with --quiet). Exits with the program's status if it fails.
#
# The plugin is (re)built with `gcc -shared -fPIC -O2` into
# $INSN_COUNT_BUILD_DIR (default: <repo>/target/qemu-insn-count) whenever
# insn_count.c is newer than the built library.
#
# Example (per-byte cost of a bench binary, as the table script does):
#   a=$(count.sh ./bench --backend altivec --bytes 0)
#   b=$(count.sh ./bench --backend altivec --bytes 1048576)
#   echo "scale=3; ($b - $a) / 1048576" | bc
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build_dir="${INSN_COUNT_BUILD_DIR:-$repo/target/qemu-insn-count}"
qemu="${QEMU:-qemu-ppc}"
cpu="${CPU:-7450}"
sysroot="${SYSROOT:-/usr/powerpc-linux-gnu}"
mode="tb"
quiet=0

die() { echo "count.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --cpu) [ $# -ge 2 ] || die "--cpu needs a value"; cpu="$2"; shift 2 ;;
        --qemu) [ $# -ge 2 ] || die "--qemu needs a value"; qemu="$2"; shift 2 ;;
        -L) [ $# -ge 2 ] || die "-L needs a value"; sysroot="$2"; shift 2 ;;
        --mode) [ $# -ge 2 ] || die "--mode needs a value"; mode="$2"; shift 2 ;;
        --quiet|-q) quiet=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --) shift; break ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || die "no binary given (see --help)"
case "$mode" in tb|insn|hist) ;; *) die "--mode must be tb, insn or hist" ;; esac
bin="$1"; shift
[ -f "$bin" ] || die "no such binary: $bin"
command -v "$qemu" >/dev/null || die "$qemu not found (apt-get install qemu-user)"

# Build the plugin if needed.
plugin="$build_dir/libinsn_count.so"
if [ ! -f "$plugin" ] || [ "$here/insn_count.c" -nt "$plugin" ]; then
    mkdir -p "$build_dir"
    gcc -shared -fPIC -O2 -Wall -o "$plugin.tmp" "$here/insn_count.c"
    mv -f "$plugin.tmp" "$plugin"
fi

log="$(mktemp "${TMPDIR:-/tmp}/insn_count.XXXXXX")"
trap 'rm -f "$log"' EXIT

status=0
if [ "$quiet" = 1 ]; then
    "$qemu" -cpu "$cpu" -L "$sysroot" -plugin "$plugin,mode=$mode" -d plugin -D "$log" \
        "$bin" "$@" >/dev/null 2>&1 || status=$?
else
    "$qemu" -cpu "$cpu" -L "$sysroot" -plugin "$plugin,mode=$mode" -d plugin -D "$log" \
        "$bin" "$@" 1>&2 || status=$?
fi
if [ "$status" -ne 0 ]; then
    echo "count.sh: '$bin $*' under $qemu -cpu $cpu exited with status $status" >&2
    exit "$status"
fi

if [ "$mode" = hist ]; then
    sed -n 's/^mnem: \([^ ]*\) \([0-9][0-9]*\)$/\1 \2/p' "$log" | sort -k2,2nr -k1,1
fi
n="$(sed -n 's/^insns: \([0-9][0-9]*\)$/\1/p' "$log" | tail -n 1)"
[ -n "$n" ] || { echo "count.sh: no 'insns:' line in QEMU's plugin log:" >&2; cat "$log" >&2; exit 3; }
if [ "$mode" = hist ]; then echo "total $n"; else echo "$n"; fi
