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
if [ ! -e "$D/done" ]; then
    mkdir -p "$D/b128" "$D/b4"
    python3 - "$D" <<'EOF'
import os, sys
d = sys.argv[1]
with open('/dev/urandom', 'rb') as r:
    with open(f'{d}/cat128', 'wb') as c:
        for i in range(1000):
            b = r.read(128 << 10); open(f'{d}/b128/f{i:04d}', 'wb').write(b); c.write(b)
    with open(f'{d}/cat4', 'wb') as c:
        for i in range(10000):
            b = r.read(4096); open(f'{d}/b4/f{i:05d}', 'wb').write(b); c.write(b)
    with open(f'{d}/big', 'wb') as c:
        for i in range(1024):
            c.write(r.read(1 << 20))
EOF
    touch "$D/done"
fi
cd "$D"
F128=$(echo b128/f*)
F4=$(echo b4/f*)
cases=()
bins=("$S")
[ -n "$OTHER" ] && bins+=("$OTHER")
for bin in "${bins[@]}"; do
    tag=$([ "$bin" = "$S" ] && echo "" || echo "other ")
    cases+=(-n "${tag}one stream 128 MB" "$bin -a 512 -l 256 cat128")
    cases+=(-n "${tag}1000 x 128 KiB -j 1" "$bin -a 512 -l 256 -j 1 $F128")
    cases+=(-n "${tag}1000 x 128 KiB -j 2" "$bin -a 512 -l 256 -j 2 $F128")
    cases+=(-n "${tag}one stream 40 MB" "$bin -a 512 -l 256 cat4")
    cases+=(-n "${tag}10000 x 4 KiB -j 1" "$bin -a 512 -l 256 -j 1 $F4")
    cases+=(-n "${tag}10000 x 4 KiB -j 2" "$bin -a 512 -l 256 -j 2 $F4")
    cases+=(-n "${tag}1 GiB file" "$bin -a 512 -l 256 big")
    cases+=(-n "${tag}tree 10,1,255 -j 2, 1 GiB" "$bin -a 512 --tree 10,1,255 -j 2 big")
done
json=$(mktemp)
hyperfine -N -w 1 -r "$RUNS" --export-json "$json" "${cases[@]}" >/dev/null
python3 - "$json" <<'EOF'
import json, statistics, sys
for r in json.load(open(sys.argv[1]))['results']:
    t = r['times']
    print(f"{r['command']:34} min {min(t)*1e3:7.1f}  median {statistics.median(t)*1e3:7.1f}  user {r['user']*1e3:7.1f}  sys {r['system']*1e3:6.1f}")
EOF
rm -f "$json"
