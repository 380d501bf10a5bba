#!/usr/bin/env python3
"""Shrink a fuzz target's corpus to the seeds that are committed.

    python3 fuzz/min-corpus.py TARGET DIR...

After `cargo fuzz cmin` (which keeps every input with a feature of its own,
hundreds of them), this keeps the smallest set of inputs of DIR... that still
reaches every edge those inputs reach, greedily (most new edges first, smaller
file on ties), and writes it to fuzz/corpus/TARGET. Hit-count features that
are dropped come back within seconds of fuzzing; edges may not. Needs the
target built (`cargo +nightly fuzz build TARGET`).
"""
import os
import shutil
import subprocess
import sys
import tempfile

FUZZ = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    target, dirs = sys.argv[1], sys.argv[2:]
    binary = os.path.join(FUZZ, "target/x86_64-unknown-linux-gnu/release", target)
    with tempfile.TemporaryDirectory() as scratch:
        control = os.path.join(scratch, "control")
        empty = os.path.join(scratch, "empty")
        os.mkdir(empty)
        # libFuzzer's merge records, per input, the edges it covers ("COV").
        subprocess.run([binary, "-merge=1", "-merge_control_file=" + control, empty, *dirs],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        lines = open(control).read().split("\n")
        count = int(lines[0])
        files = lines[2:2 + count]
        edges = {}
        for line in lines[2 + count:]:
            fields = line.split()
            if fields and fields[0] == "COV":
                edges[int(fields[1])] = set(map(int, fields[2:]))
    left = set().union(*edges.values())
    total = len(left)
    chosen = []
    while left:
        best = max(edges, key=lambda i: (len(edges[i] & left), -os.path.getsize(files[i])))
        chosen.append(files[best])
        left -= edges[best]
    # Read first: DIR may be the output directory itself.
    seeds = {os.path.basename(f): open(f, "rb").read() for f in chosen}
    out = os.path.join(FUZZ, "corpus", target)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    size = sum(map(len, seeds.values()))
    print(f"{target}: {len(chosen)} of {count} inputs ({size} bytes) reach all {total} edges -> {out}")


if __name__ == "__main__":
    main()
