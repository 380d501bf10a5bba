#!/bin/bash
# What skeinsum spends per small file, counted rather than timed (a loaded
# or drifting machine moves wall times, not these): system calls (strace
# -f -c), instructions outside and inside the lane kernels and heap
# allocations (valgrind's callgrind, which follows threads; valgrind hides
# AVX-512, so the kernels are the AVX2 ones), of `skeinsum -a 512 -l 256
# -j 2` over 1000 and over 2000 of the 4 KiB files of
# skeinsum-many-bench.sh (in /dev/shm), the difference divided by 1000:
# per file, without what a run costs once (loading, threads, the pool).
#
# usage: tools/bench/skeinsum-many-counts.sh SKEINSUM... (e.g. a before and
# an after build); needs strace and valgrind.
set -euo pipefail
D=/dev/shm/skeinsum-many-bench
HERE=$(dirname "$(realpath "$0")")
. "$HERE/skeinsum-bench-lib.sh"
bench_files "$D" b4
cd "$D"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for bin in "$@"; do
    bin=$(realpath "$bin")
    for n in 1000 2000; do
        # The names in order, as the shell would give them.
        mapfile -t names < <(printf 'b4/f%05d\n' $(seq 0 $((n - 1))))
        strace -f -c -o "$work/strace.$n" "$bin" -a 512 -l 256 -j 2 "${names[@]}" >/dev/null
        valgrind -q --tool=callgrind --callgrind-out-file="$work/cg.$n" \
            "$bin" -a 512 -l 256 -j 2 "${names[@]}" >/dev/null
    done
    python3 - "$bin" "$work" <<'PY'
import re, sys
from collections import Counter
bin, work = sys.argv[1], sys.argv[2]

def syscalls(path):
    calls = Counter()
    for line in open(path):
        f = line.split()
        if len(f) >= 5 and f[0][0].isdigit() and f[-1] != 'total':
            calls[f[-1]] = int(f[3])
    return calls

def callgrind(path):
    """Instructions in total and in the lane kernels, and calls of malloc."""
    names, total, kernel, mallocs = {}, 0, 0, 0
    fn, callee, skip_next = None, None, False
    def name(ref):
        m = re.match(r'\((\d+)\)(?: (.*))?', ref)
        if not m:
            return ref
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), '')
    for line in open(path):
        if line.startswith('fn='):
            fn = name(line[3:].strip())
        elif line.startswith('cfn='):
            callee = name(line[4:].strip())
        elif line.startswith('calls='):
            if callee == 'malloc':
                mallocs += int(line[6:].split()[0])
            skip_next = True  # the next cost line is the call's inclusive cost
        elif line[:1].isdigit() or line[:1] in '+-*':
            if skip_next:
                skip_next = False
                continue
            f = line.split()
            if len(f) >= 2:
                ir = int(f[1])
                total += ir
                if 'lanes_with_features' in fn or '::backend::' in fn:
                    kernel += ir
    return total, kernel, mallocs

s1, s2 = syscalls(f'{work}/strace.1000'), syscalls(f'{work}/strace.2000')
c1, c2 = callgrind(f'{work}/cg.1000'), callgrind(f'{work}/cg.2000')
per = lambda a, b: (b - a) / 1000
print(bin)
print(f"  system calls per file: {per(sum(s1.values()), sum(s2.values())):.2f}  "
      + ", ".join(f"{k} {per(s1[k], s2[k]):.2f}" for k in sorted(s2, key=lambda k: -(s2[k] - s1[k]))
                  if abs(per(s1[k], s2[k])) >= 0.01))
print(f"  instructions per file: {per(c1[0], c2[0]):.0f} (lane kernels {per(c1[1], c2[1]):.0f}, "
      f"the rest {per(c1[0] - c1[1], c2[0] - c2[1]):.0f})")
print(f"  malloc calls per file: {per(c1[2], c2[2]):.2f}")
print(f"  a run of 2000 files: {c2[0]} instructions, {c2[2]} mallocs, {sum(s2.values())} system calls")
PY
done
