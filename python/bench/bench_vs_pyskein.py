"""skein_simd against pyskein 1.0, same bytes, same run, interleaved rounds.

    python python/bench/bench_vs_pyskein.py [--rounds N] [--markdown]

Prints the CPU (model and whether it exposes AVX2 / AVX-512F), the backends
skein_simd picked, the load average, then per case the best wall time of each
side, the ratio (pyskein time / skein_simd time: above 1 means skein_simd is
faster) and the best CPU time of the process (all threads: for the parallel
cases it shows the work, the wall time the speed).
Not a test: the numbers depend on the machine and its load.
"""

import argparse
import os
import platform
import time

import skein as pyskein

import skein_simd

MIB = 1 << 20


def cpu_description():
    model, flags = platform.processor() or "unknown CPU", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model in ("", "unknown CPU", platform.machine()):
                    model = line.split(":", 1)[1].strip()
                elif line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    feats = ", ".join(f"{f} {'yes' if f in flags else 'no'}" for f in ["sse2", "avx2", "avx512f", "avx512vl"])
    return f"{model}; {os.cpu_count()} logical CPUs; {feats}"


def cases():
    big = os.urandom(64 * MIB)
    many = [os.urandom(4096) for _ in range(1000)]
    tree = (14, 1, 255)
    return [
        (
            "Skein-512, 64 MiB, one update",
            lambda: skein_simd.skein512(big).digest(),
            lambda: pyskein.skein512(big).digest(),
        ),
        (
            "Skein-256, 64 MiB",
            lambda: skein_simd.skein256(big).digest(),
            lambda: pyskein.skein256(big).digest(),
        ),
        (
            "Skein-1024, 64 MiB",
            lambda: skein_simd.skein1024(big).digest(),
            lambda: pyskein.skein1024(big).digest(),
        ),
        (
            "Skein-512 tree=(14,1,255), 64 MiB",
            lambda: skein_simd.skein512(big, tree=tree).digest(),
            lambda: pyskein.skein512(big, tree=tree).digest(),
        ),
        (
            "1000 x 4 KiB: hash_many vs a loop over pyskein",
            lambda: skein_simd.hash_many(many),
            lambda: [pyskein.skein512(m).digest() for m in many],
        ),
        (
            "1000 x 4 KiB keyed, Skein-512-256: hash_many vs a pyskein loop",
            lambda: skein_simd.hash_many(many, 256, key=b"k" * 32),
            lambda: [pyskein.skein512(m, 256, key=b"k" * 32).digest() for m in many],
        ),
        (
            "1000 x 4 KiB: a loop over skein_simd vs a loop over pyskein",
            lambda: [skein_simd.skein512(m).digest() for m in many],
            lambda: [pyskein.skein512(m).digest() for m in many],
        ),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    print(f"CPU: {cpu_description()}")
    print(f"skein_simd {skein_simd.__version__} backends: {skein_simd.platform()}")
    print(f"load average before: {os.getloadavg()[0]:.1f}; best of {args.rounds} rounds (x8 for 4 KiB cases), interleaved")
    rows = []
    for name, ours, theirs in cases():
        assert ours() == theirs(), name  # same bytes, same answer
        # best wall time, and best CPU time of the process (all threads)
        wall, cpu = [float("inf")] * 2, [float("inf")] * 2
        small = "4 KiB" in name
        for _ in range(args.rounds * (8 if small else 1)):
            for i, f in enumerate((ours, theirs)):
                c, t = time.process_time(), time.perf_counter()
                f()
                wall[i] = min(wall[i], time.perf_counter() - t)
                cpu[i] = min(cpu[i], time.process_time() - c)
        rows.append((name, wall, cpu))
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if args.markdown:
        print("| case | skein_simd | pyskein 1.0 | speed-up (wall) | CPU time, skein_simd / pyskein |")
        print("|---|---:|---:|---:|---:|")
        for name, w, c in rows:
            print(
                f"| {name} | {w[0] * 1e3:.1f} ms | {w[1] * 1e3:.1f} ms | **{w[1] / w[0]:.2f}x** "
                f"| {c[0] * 1e3:.1f} / {c[1] * 1e3:.1f} ms |"
            )
    else:
        for name, w, c in rows:
            print(
                f"{name:62s} wall {w[0] * 1e3:8.1f} / {w[1] * 1e3:8.1f} ms  x{w[1] / w[0]:.2f}"
                f"   cpu {c[0] * 1e3:8.1f} / {c[1] * 1e3:8.1f} ms"
            )


if __name__ == "__main__":
    main()
