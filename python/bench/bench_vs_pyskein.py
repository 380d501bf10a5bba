"""skein_simd against pyskein 1.0, same bytes, same run, interleaved rounds.

    python python/bench/bench_vs_pyskein.py [--rounds N] [--markdown] [--only TEXT]

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
        (
            "StreamCipher, encrypt 1 MiB",
            lambda: skein_simd.StreamCipher(b"key").encrypt(big[:MIB]),
            lambda: pyskein.StreamCipher(b"key").encrypt(big[:MIB]),
        ),
        # The same 4 KiB at byte 0 and far on (below 2**38, where pyskein's
        # 32-bit output counter is still right): equal times mean a seek in O(1).
        ("StreamCipher, 4 KiB at byte 0", lambda: keystream(skein_simd, 0), lambda: keystream(pyskein, 0)),
        (
            "StreamCipher, 4 KiB at byte 2**37",
            lambda: keystream(skein_simd, 2**37),
            lambda: keystream(pyskein, 2**37),
        ),
        (
            "Random.read(1 MiB)",
            lambda: skein_simd.Random(b"seed").read(MIB),
            lambda: pyskein.Random(b"seed").read(MIB),
        ),
    ]


def ms(seconds):
    """A time in ms, with more digits below 1 ms."""
    return f"{seconds * 1e3:.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e3:.4f} ms"


def keystream(module, position):
    cipher = module.StreamCipher(b"key")
    cipher._pos = position
    return cipher.keystream(4096)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--only", default="", help="only the cases whose name contains this text")
    args = ap.parse_args()
    print(f"CPU: {cpu_description()}")
    print(f"skein_simd {skein_simd.__version__} backends: {skein_simd.platform()}")
    print(f"load average before: {os.getloadavg()[0]:.1f}; best of {args.rounds} rounds (x8 for 4 KiB cases), interleaved")
    rows = []
    for name, ours, theirs in cases():
        if args.only not in name:
            continue
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
                f"| {name} | {ms(w[0])} | {ms(w[1])} | **{w[1] / w[0]:.2f}x** "
                f"| {ms(c[0])} / {ms(c[1])} |"
            )
    else:
        for name, w, c in rows:
            print(
                f"{name:62s} wall {ms(w[0]):>11s} / {ms(w[1]):>11s}  x{w[1] / w[0]:.2f}"
                f"   cpu {ms(c[0]):>11s} / {ms(c[1]):>11s}"
            )


if __name__ == "__main__":
    main()
