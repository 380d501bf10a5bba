#!/bin/bash
# skeinsum at the cost of the file system (the I/O table of docs/skeinsum.md):
# one hyperfine run over
#   one stream over 1000 x 128 KiB concatenated, and those files -j 2,
#   the open/read/close floor over 10,000 x 4 KiB (plain, and io_uring),
#   and skeinsum -j 2 over them,
#   --tree 10,1,255 -j 2 of a 1 GiB file, and one 256 MiB file,
# all -a 512 -l 256 (the tree row -a 512), files in /dev/shm (random bytes,
# made once); then the library on the same bytes in memory (in-process
# timing, tools/bench/skeinsum-peers in-memory), so that every ratio comes
# from one invocation.
#
# usage: tools/bench/skeinsum-io-bench.sh SKEINSUM [RUNS] [OTHER_SKEINSUM]
#   DIR=/work/tmp/x COLD=1 ... : files under DIR (on disk), and the page
#   cache dropped before every run (root; `--prepare` of hyperfine).
# OTHER_SKEINSUM (e.g. a build of an older commit) adds its rows, "other".
#   SIZES=1 ...: instead, mapped against read (--no-mmap) per size class,
#   -j 2, 64 MB of files per class from 16 KiB to 2 MiB (and the 128 KiB
#   files), CPU time being the figure that chose the batch's threshold.
# Prints per row: min and median wall time, user and system time (means), ms.
set -euo pipefail
S=$(realpath "$1")
RUNS=${2:-15}
OTHER=${3:+$(realpath "$3")}
D=${DIR:-/dev/shm/skeinsum-io-bench}
HERE=$(dirname "$(realpath "$0")")
PEERS=$HERE/skeinsum-peers/target/release
if [ ! -x "$PEERS/open-read-close" ] || [ ! -x "$PEERS/in-memory" ]; then
    (cd "$HERE/skeinsum-peers" && cargo build --release -q)
fi
. "$HERE/skeinsum-bench-lib.sh"
bench_files "$D" b128 b4 big m256
cd "$D"
if [ -n "${SIZES:-}" ]; then
    python3 - <<'EOF'
import os
with open('/dev/urandom', 'rb') as r:
    for kib in (16, 32, 64, 256, 512, 2048):
        d = f'sz{kib}'
        if os.path.isdir(d):
            continue
        os.makedirs(d)
        for i in range((64 << 10) // kib):
            open(f'{d}/f{i:05d}', 'wb').write(r.read(kib << 10))
EOF
    cases=()
    for d in sz16 sz32 sz64 b128 sz256 sz512 sz2048; do
        F=$(echo $d/f*)
        cases+=(-n "$d mapped" "$S -a 512 -l 256 -j 2 $F" -n "$d read" "$S -a 512 -l 256 -j 2 --no-mmap $F")
    done
else
F128=$(echo b128/f*)
F4=$(echo b4/f*)
prepare=()
[ -n "${COLD:-}" ] && prepare=(--prepare 'sync; echo 3 > /proc/sys/vm/drop_caches')
cases=()
cases+=(-n "floor open/read/close 10000 x 4 KiB" "$PEERS/open-read-close $F4")
cases+=(-n "floor io_uring 10000 x 4 KiB" "$PEERS/open-read-close --uring $F4")
cases+=(-n "floor open/read/close 1000 x 128 KiB" "$PEERS/open-read-close $F128")
rows() {
    local bin=$1 tag=$2
    cases+=(-n "${tag}one stream 128 MB" "$bin -a 512 -l 256 cat128")
    cases+=(-n "${tag}1000 x 128 KiB -j 2" "$bin -a 512 -l 256 -j 2 $F128")
    cases+=(-n "${tag}1000 x 128 KiB -j 2 --no-mmap" "$bin -a 512 -l 256 -j 2 --no-mmap $F128")
    cases+=(-n "${tag}10000 x 4 KiB -j 2" "$bin -a 512 -l 256 -j 2 $F4")
    cases+=(-n "${tag}tree 10,1,255 -j 2, 1 GiB" "$bin -a 512 --tree 10,1,255 -j 2 big")
    cases+=(-n "${tag}one 256 MiB file" "$bin -a 512 -l 256 m256")
}
for_each_skeinsum rows
fi
uptime
bench_table "${prepare[@]}" "${cases[@]}"
[ -n "${SIZES:-}" ] && exit 0
# The library on the same bytes in memory: min and median ms.
echo "in memory, tree 10,1,255 2 threads, 1 GiB: $("$PEERS/in-memory" 5 tree big)"
echo "in memory, one stream, 256 MiB:          $("$PEERS/in-memory" "$RUNS" one m256)"
echo "in memory, SkeinMany 1000 x 128 KiB:      $("$PEERS/in-memory" "$RUNS" many $F128)"
echo "in memory, SkeinMany 10000 x 4 KiB:       $("$PEERS/in-memory" "$RUNS" many $F4)"
uptime
