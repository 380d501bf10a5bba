#!/usr/bin/env bash
# Instructions a message through the reference API (Init, Update, Final),
# counted by callgrind (independent of load), for ref_api_bench.c linked
# three ways (build.sh): the reference C, the submission's assembly, ours.
#
#   bash tools/bench/ref-api-bench/callgrind.sh PEER_DIR [LIB_A] [BITS:LEN...]
#
# Default cases: Skein-256, -512 and -1024 (output of the state's size) at
# 64 B and 1 KiB. Each figure is (run of N messages - run of 0) / N, so
# start-up (and our backend choice at the first call) is excluded.
set -euo pipefail
peer=${1:?usage: callgrind.sh PEER_DIR [LIB_A] [BITS:LEN...]}
lib=${2:-}
shift $(($# < 2 ? $# : 2))
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(256:64 512:64 1024:64 256:1024 512:1024 1024:1024)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$here/build.sh" "$peer" "$work" "$lib"
count() { # PROGRAM N BITS LEN -> instructions
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/$1" "$2" "$3" "$4" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
n=2000
printf '| Skein | bytes | C | asm | ours |\n|---|---:|---:|---:|---:|\n'
for c in "${cases[@]}"; do
    bits=${c%:*} len=${c#*:}
    row="| $bits | $len |"
    for p in c asm ours; do
        base=$(count "$p" 0 "$bits" "$len")
        full=$(count "$p" "$n" "$bits" "$len")
        row="$row $(((full - base) / n)) |"
    done
    echo "$row"
done
