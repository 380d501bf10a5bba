#!/bin/bash
# skeinsum on many files (the table in docs/skeinsum.md): hyperfine over
#   one stream over 1000 x 128 KiB concatenated, the 1000 files with -j 1 and -j 2,
#   one stream over 10,000 x 4 KiB concatenated, those files with -j 1 and -j 2,
#   a 1 GiB file, and tree 10,1,255 -j 2 of it,
# all -a 512 -l 256 (the tree row -a 512), files in /dev/shm (made once, random bytes), one
# hyperfine run so that a change of load hits every row alike.
#
# usage: tools/bench/skeinsum-many-bench.sh SKEINSUM [RUNS] [OTHER_SKEINSUM]
# OTHER_SKEINSUM (e.g. a build of an older commit) adds its rows, marked "other".
# Prints per row: min and median wall time, user and system time (means), ms.
set -euo pipefail
S=$(realpath "$1")
RUNS=${2:-15}
OTHER=${3:+$(realpath "$3")}
D=/dev/shm/skeinsum-many-bench
. "$(dirname "$(realpath "$0")")/skeinsum-bench-lib.sh"
bench_files "$D" b128 b4 big
cd "$D"
F128=$(echo b128/f*)
F4=$(echo b4/f*)
rows() {
    local bin=$1 tag=$2 j
    cases+=(-n "${tag}one stream 128 MB" "$bin -a 512 -l 256 cat128")
    for j in 1 2; do cases+=(-n "${tag}1000 x 128 KiB -j $j" "$bin -a 512 -l 256 -j $j $F128"); done
    cases+=(-n "${tag}one stream 40 MB" "$bin -a 512 -l 256 cat4")
    for j in 1 2; do cases+=(-n "${tag}10000 x 4 KiB -j $j" "$bin -a 512 -l 256 -j $j $F4"); done
    cases+=(-n "${tag}1 GiB file" "$bin -a 512 -l 256 big")
    cases+=(-n "${tag}tree 10,1,255 -j 2, 1 GiB" "$bin -a 512 --tree 10,1,255 -j 2 big")
}
cases=()
for_each_skeinsum rows
bench_table "${cases[@]}"
