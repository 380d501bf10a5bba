#!/bin/bash
# skeinsum on many files (the table in docs/skeinsum.md): hyperfine over
#   one stream over 1000 x 128 KiB concatenated, the 1000 files with -j 1 and -j 2,
#   one stream over 10,000 x 4 KiB concatenated, those files with -j 1 and -j 2,
#   a 1 GiB file, and tree 10,1,255 -j 2 of it,
# all -a 512 -l 256 (the tree row -a 512), and the open/read/close floor on 2
# threads over the 10,000 x 4 KiB (tools/bench/skeinsum-peers), files in
# /dev/shm (made once, random bytes), one hyperfine run so that a change of
# load hits every row alike; then the library on the same bytes in memory
# (SkeinMany over the 4 KiB files, the tree of the 1 GiB file, 2 threads)
# and the ratios the targets of docs/skeinsum.md are stated in: skeinsum
# -j 2 on the 4 KiB files against the floor, and against the floor plus
# hashing in memory; the tree against the library's tree in memory.
#
# usage: tools/bench/skeinsum-many-bench.sh SKEINSUM [RUNS] [OTHER_SKEINSUM]
# OTHER_SKEINSUM (e.g. a build of an older commit) adds its rows, marked "other".
# Prints per row: min and median wall time, user and system time (means), ms.
set -euo pipefail
S=$(realpath "$1")
RUNS=${2:-15}
OTHER=${3:+$(realpath "$3")}
D=/dev/shm/skeinsum-many-bench
HERE=$(dirname "$(realpath "$0")")
PEERS=$HERE/skeinsum-peers/target/release
if [ ! -x "$PEERS/open-read-close" ] || [ ! -x "$PEERS/in-memory" ]; then
    (cd "$HERE/skeinsum-peers" && cargo build --release -q)
fi
. "$HERE/skeinsum-bench-lib.sh"
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
cases=(-n "floor open/read/close 10000 x 4 KiB" "$PEERS/open-read-close $F4")
for_each_skeinsum rows
table=$(bench_table "${cases[@]}")
echo "$table"
many=$("$PEERS/in-memory" "$RUNS" many $F4)
tree=$("$PEERS/in-memory" 5 tree big)
echo "in memory, SkeinMany 10000 x 4 KiB, 2 threads: $many (min median ms)"
echo "in memory, tree 10,1,255, 2 threads, 1 GiB:    $tree (min median ms)"
# Ratios of this build's rows (min, median), from the table above, and of
# OTHER_SKEINSUM's rows ("other") when given: before and after from one run.
python3 - "$many" "$tree" <<PY
import sys
rows = {}
for line in '''$table'''.splitlines():
    name, rest = line.split('  min ', 1)
    f = rest.split()
    rows[name.strip()] = (float(f[0]), float(f[2]))
many = [float(x) for x in sys.argv[1].split()[:2]]
tree = [float(x) for x in sys.argv[2].split()[:2]]
floor = rows['floor open/read/close 10000 x 4 KiB']
for tag in ('', 'other '):
    if tag + '10000 x 4 KiB -j 2' not in rows:
        continue
    small = rows[tag + '10000 x 4 KiB -j 2']
    big = rows[tag + 'tree 10,1,255 -j 2, 1 GiB']
    for i, what in enumerate(('min', 'median')):
        print(f"{tag}{what}: 10000 x 4 KiB -j 2 = {small[i] / floor[i]:.2f}x the floor (target <= 2.0), "
              f"{small[i] / (floor[i] + many[i]):.2f}x floor + SkeinMany in memory (target <= 1.15); "
              f"tree {tree[i] / big[i]:.2f}x the library in memory (target >= 0.95)")
PY
