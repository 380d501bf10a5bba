#!/bin/bash
# skeinsum -r against the same files named on the command line (the table
# in docs/skeinsum.md, section "Recursive hashing"): a tree in /dev/shm of
# 100,000 files of 1 KiB (t/dA/dB/fNNN: 10 x 10 directories of 1000 files,
# random bytes, made once), all -a 512 -l 256, in one hyperfine run so that
# a change of load hits every row alike:
#   skeinsum -r t, -j 2 and -j 1;
#   skeinsum NAMES..., the 100,000 paths in the order -r prints them, -j 2
#   and -j 1 (passed by `xargs -x`, which execs skeinsum once: the list is
#   longer than one argument string may be; stack limit raised for it);
#   xargs with `true`: what passing the names costs by itself.
# Before timing, the -r output is compared with the list's, byte for byte.
# Then the peak RSS (GNU time, %M) of -r and of the list, on the whole tree
# and on one tenth of it (t/d0), shows what grows with the number of files.
#
# usage: tools/bench/skeinsum-recursive-bench.sh SKEINSUM [RUNS]
# Prints per row: min and median wall time, user and system time (means), ms.
set -euo pipefail
S=$(realpath "$1")
RUNS=${2:-10}
. "$(dirname "$(realpath "$0")")/skeinsum-bench-lib.sh"
D=/dev/shm/skeinsum-recursive-bench
if [ ! -e "$D/done" ]; then
    rm -rf "$D"
    mkdir -p "$D"
    python3 - "$D" <<'EOF'
import os, sys
d = sys.argv[1]
names = []
with open('/dev/urandom', 'rb') as r:
    for a in range(10):
        for b in range(10):
            sub = f't/d{a}/d{b}'
            os.makedirs(f'{d}/{sub}')
            for i in range(1000):
                open(f'{d}/{sub}/f{i:03d}', 'wb').write(r.read(1024))
                names.append(f'{sub}/f{i:03d}')
# Path-byte order, as -r prints them.
names.sort(key=lambda n: n.encode())
open(f'{d}/list0', 'wb').write(b''.join(n.encode() + b'\0' for n in names))
EOF
    touch "$D/done"
fi
cd "$D"
# ARG_MAX is a quarter of the stack limit (at most 6 MiB): 2.4 MB of names
# need more than the default 8 MiB stack gives.
ulimit -s 65536
XARGS="xargs -0 -x -s 4000000 -a list0"
[ "$($XARGS sh -c 'echo $#' sh)" = 100000 ] || { echo "xargs would not pass all names at once" >&2; exit 1; }
cmp <("$S" -a 512 -l 256 -r t) <($XARGS "$S" -a 512 -l 256) || { echo "-r and list outputs differ" >&2; exit 1; }

bench_table \
    -n "recursive t, -j 2" "$S -a 512 -l 256 -j 2 -r t" \
    -n "100000 names, -j 2" "$XARGS $S -a 512 -l 256 -j 2" \
    -n "recursive t, -j 1" "$S -a 512 -l 256 -j 1 -r t" \
    -n "100000 names, -j 1" "$XARGS $S -a 512 -l 256 -j 1" \
    -n "xargs true (names only)" "$XARGS true"

rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
head -c $(( $(tr '\0' '\n' < list0 | grep '^t/d0/' | wc -c) )) list0 > list0.tenth
echo "peak RSS, KiB: -r t/d0 (10,000 files) $(rss "$S" -j 2 -r t/d0)," \
    "-r t (100,000) $(rss "$S" -j 2 -r t);" \
    "names t/d0 $(rss xargs -0 -x -s 4000000 -a list0.tenth "$S" -j 2)," \
    "names t $(rss $XARGS "$S" -j 2)"
