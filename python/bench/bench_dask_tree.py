"""The Dask example (python/examples/dask_tree_hash.py) against
`skeinsum --tree LEAF,FAN_OUT,HEIGHT -j 2` on the same file, alternated rounds.

    python python/bench/bench_dask_tree.py --skeinsum target/release/skeinsum
        [--size-mib 1024] [--dir /dev/shm] [--tree 10,1,255] [--workers 3]
        [--parts N] [--rounds 5] [--jobs 2]

Writes a file of SIZE MiB of random bytes in DIR (/dev/shm: no disk in the
figures) and hashes it once with each side (not timed: the page cache, the
workers' import of skein_simd). Starting the LocalCluster (the example's
`local_cluster`: WORKERS worker processes of one thread each) is not timed
either. Then ROUNDS times, one
after the other: the example's `tree_digest` (submitting one task per
range, the workers reading and hashing, gathering, merging: what a client
of a running cluster waits for), and `skeinsum --tree ... -j JOBS FILE` (a
process start included). Prints the CPU, the load average, the parameters,
per side the best and median wall time and the CPU time of the best round
(user + system of every process: the client with its scheduler thread, the
nannies and the workers; skeinsum's), and the ratios skeinsum / Dask (1.0:
as fast). Checks that both print the same digest.

Not a test: on a machine that others use, the wall times say little; the
CPU times say what each side spends.
"""

import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import time

import psutil
from dask.distributed import Client

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
import dask_tree_hash  # noqa: E402

MIB = 1 << 20


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def cpu_seconds(procs):
    """User + system seconds of `procs` so far (those that still run)."""
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def skeinsum_round(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, bytes.fromhex(out.split()[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skeinsum", required=True, help="the skeinsum binary (a release build)")
    parser.add_argument("--size-mib", type=int, default=1024)
    parser.add_argument("--dir", default="/dev/shm")
    parser.add_argument("--tree", default="10,1,255")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--parts", type=int, help="ranges (default: two per worker thread)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2, help="skeinsum -j (default 2)")
    opts = parser.parse_args()

    tree = tuple(int(x) for x in opts.tree.split(","))
    path = pathlib.Path(opts.dir) / f"skein-dask-bench-{os.getpid()}"
    with open(path, "wb") as f:
        for _ in range(opts.size_mib):
            f.write(os.urandom(MIB))
    cmd = [opts.skeinsum, "--tree", opts.tree, "-j", str(opts.jobs), str(path)]
    me = psutil.Process()
    try:
        cluster = dask_tree_hash.local_cluster(opts.workers)
        with cluster, Client(cluster) as client:
            procs = [me] + me.children(recursive=True)
            print(f"CPU: {cpu_model()}; {os.cpu_count()} logical CPUs; load average {os.getloadavg()}")
            print(
                f"file: {opts.size_mib} MiB in {opts.dir}; tree {opts.tree}; Skein-512-512; "
                f"{opts.workers} Dask worker processes of 1 thread; "
                f"parts {opts.parts or 'two per worker thread'}; skeinsum -j {opts.jobs}; "
                f"rounds {opts.rounds}"
            )
            want = dask_tree_hash.tree_digest(client, str(path), opts.parts, tree=tree)
            got = skeinsum_round(cmd)[2]
            assert got == want, "skeinsum and the Dask example disagree"
            dask_rounds, skeinsum_rounds = [], []
            for _ in range(opts.rounds):
                cpu0, start = cpu_seconds(procs), time.perf_counter()
                digest = dask_tree_hash.tree_digest(client, str(path), opts.parts, tree=tree)
                wall = time.perf_counter() - start
                dask_rounds.append((wall, cpu_seconds(procs) - cpu0))
                assert digest == want
                wall, cpu, digest = skeinsum_round(cmd)
                skeinsum_rounds.append((wall, cpu))
                assert digest == want
    finally:
        path.unlink()

    def line(name, rounds):
        walls = [w for w, _ in rounds]
        best = min(rounds)
        print(
            f"{name}: wall best {best[0] * 1e3:.1f} ms, median {statistics.median(walls) * 1e3:.1f} ms; "
            f"CPU {best[1] * 1e3:.0f} ms (best round), median {statistics.median(c for _, c in rounds) * 1e3:.0f} ms"
        )
        print("  rounds (wall / CPU, ms): " + ", ".join(f"{w * 1e3:.0f} / {c * 1e3:.0f}" for w, c in rounds))
        return best[0], statistics.median(walls), statistics.median(c for _, c in rounds)

    d = line("Dask example", dask_rounds)
    s = line(f"skeinsum --tree {opts.tree} -j {opts.jobs}", skeinsum_rounds)
    print(
        f"skeinsum / Dask: wall best {s[0] / d[0]:.2f}x, median {s[1] / d[1]:.2f}x; "
        f"CPU median {s[2] / d[2]:.2f}x (1.0: the same; the target is at least 0.9 on wall)"
    )


if __name__ == "__main__":
    main()
