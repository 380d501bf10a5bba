#!/usr/bin/env python3
"""Single-stream Skein benchmark against the peers, in the same run on the
same machine; prints markdown tables (ns per hash, cycles per byte, ratios).

    python3 tools/bench/bench.py            # 64 B, 1 KiB, 16 MiB and the ZFS pattern
    python3 tools/bench/bench.py --quick    # 64 B and 1 KiB only
    python3 tools/bench/bench.py --install-pyskein
    python3 tools/bench/bench.py --sizes 64,1024,65536 --csv docs/data/throughput.csv

`--csv` writes every best time (one row per case, message size and
contender) for tools/bench/chart.py, which draws docs/img/throughput.svg.

Contenders, all fed the same bytes:
  * skein-simd through its public API (`Skein512::new(256)`, `update`,
    `finalize_into`), automatic backend choice, and every backend forced;
    its one-shot `Skein512::hash_into(256, data, out)`; and `hash_many`
    (`SkeinMany`, one thread) over 32 copies of the message, time per
    message, for messages up to 1 MiB;
  * the reference-derived C inside crates.io `skein-ffi` 0.5.0
    (`ext/skein/c_skein.c`, one-shot `skein_hash`: Skein-512 up to 512 output
    bits, Skein-1024 above; no Skein-256), compiled at `-O3 -mtune=generic`;
  * RustCrypto `skein` 0.2 and 0.1;
  * Botan 2's Skein-512 (Debian libbotan-2-dev; hash object reused);
  * pyskein 1.0's C (long messages only: its per-call Python overhead,
    printed below, swamps short ones), built with
    `CFLAGS='-O3 -mtune=generic' pip install --no-binary :all: pyskein==1.0`
    (`--install-pyskein` runs exactly that).

All but pyskein live in one benchmark-only binary, tools/bench/peer-bench (its own
cargo workspace, not a dependency of the library), which interleaves every
contender round by round and keeps each one's best. Passes of that binary
alternate with passes of pyskein, best of all passes kept, so a burst of load
on this shared machine hits both sides alike. The clock is a dependent-add
chain (one add per cycle) measured by the binary between cases.

"vs X" columns are X's time divided by skein-simd's: above 1 means
skein-simd is faster.
"""
import argparse
import csv
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARNESS = os.path.join(ROOT, "tools", "bench", "peer-bench")


def build_harness():
    manifest = os.path.join(HARNESS, "Cargo.toml")
    # Downloads skein-ffi 0.5.0 (and the rest) into cargo's registry, where
    # the harness's build script finds c_skein.c.
    subprocess.run(["cargo", "fetch", "--quiet", "--manifest-path", manifest], check=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path", manifest], check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(HARNESS, "target"))
    return os.path.join(target, "release", "skein-peer-bench")


def run_harness(exe, args):
    out = subprocess.run([exe] + args, check=True, capture_output=True, text=True)
    sys.stderr.write(out.stderr)
    rows, ghz = [], float("nan")
    for line in out.stdout.splitlines():
        parts = line.split("\t")
        if parts[0] == "clock_ghz":
            ghz = float(parts[1])
            continue
        case, state, outbits, length, impl, ns = parts
        rows.append((case, int(state), int(outbits), int(length), impl, float(ns)))
    return rows, ghz


def time_pyskein(cases, rounds, target_s):
    import skein

    ctor = {256: skein.skein256, 512: skein.skein512, 1024: skein.skein1024}
    data = os.urandom(max(c[3] for c in cases))
    result = {}
    for case, state, outbits, length in cases:
        msg = data[:length]
        f = ctor[state]

        def once():
            f(msg, digest_bits=outbits).digest()

        t0 = time.perf_counter()
        once()
        one = max(time.perf_counter() - t0, 1e-7)
        iters = max(1, int(target_s / one))
        best = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            for _ in range(iters):
                once()
            best = min(best, (time.perf_counter() - t0) / iters)
        result[(case, length)] = best * 1e9
    return result


def write_csv(path, best, py, ghz):
    """One row per (case, message size, contender): the best ns per hash
    (per message for hash_many) and the throughput it means."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "state_bits", "output_bits", "msg_bytes", "impl", "ns_per_hash", "mb_per_s", "clock_ghz"])
        for key, times in best.items():
            case, state, outbits, length = key
            times = dict(times)
            if (case, length) in py:
                times["pyskein C"] = py[(case, length)]
            for impl, ns in times.items():
                w.writerow([case, state, outbits, length, impl, f"{ns:.2f}", f"{length / ns * 1e3:.1f}", f"{ghz:.3f}"])


def size_label(n):
    """A message size for people: 64 B, 16 KiB, 16 MiB (chart.py too)."""
    if n >= 1 << 20:
        return f"{n >> 20} MiB"
    if n >= 1024:
        return f"{n >> 10} KiB"
    return f"{n} B"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="64 B and 1 KiB only")
    ap.add_argument("--passes", type=int, default=None, help="alternating passes (default 3, quick 2)")
    ap.add_argument("--only", default=None, help="only cases whose name contains this")
    ap.add_argument("--sizes", default=None, help="message sizes in bytes, comma-separated (default 64,1024,16777216)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds per pass inside the harness (default 3)")
    ap.add_argument("--ms", type=float, default=None, help="milliseconds per measurement (harness default 25, quick 10)")
    ap.add_argument("--csv", default=None, help="also write every best time to this CSV file")
    ap.add_argument("--pyskein-min", type=int, default=1 << 20,
                    help="time pyskein on messages of at least this many bytes (default 1 MiB)")
    ap.add_argument("--install-pyskein", action="store_true")
    a = ap.parse_args()

    if a.install_pyskein:
        env = dict(os.environ, CFLAGS="-O3 -mtune=generic")
        subprocess.run([sys.executable, "-m", "pip", "install", "--no-binary", ":all:", "pyskein==1.0"], check=True, env=env)
    try:
        import skein  # noqa: F401

        have_py = True
    except ImportError:
        have_py = False
        print("note: pyskein not installed; run with --install-pyskein for its column", file=sys.stderr)

    exe = build_harness()
    passes = a.passes or (2 if a.quick else 3)
    args = (["--quick"] if a.quick else []) + ["--rounds", str(a.rounds)] + (["--only", a.only] if a.only else [])
    args += ["--ms", str(a.ms)] if a.ms else []
    args += ["--sizes", a.sizes] if a.sizes else []
    best, py, ghz = {}, {}, 0.0
    overhead = float("inf")
    for _ in range(passes):
        rows, g = run_harness(exe, args)
        ghz = max(ghz, g)
        for case, state, outbits, length, impl, ns in rows:
            key = (case, state, outbits, length)
            best.setdefault(key, {})
            best[key][impl] = min(best[key].get(impl, float("inf")), ns)
        if have_py:
            long = [k for k in best if k[3] >= a.pyskein_min and not k[0].startswith("ZFS")]
            # (`--only` may leave no long case)
            for k, v in (time_pyskein(long, 2, 0.05) if long else {}).items():
                py[k] = min(py.get(k, float("inf")), v)
            overhead = min(overhead, time_pyskein([("empty", 256, 256, 0)], 3, 0.02)[("empty", 0)])

    if a.csv:
        write_csv(a.csv, best, py, ghz)

    flags = open("/proc/cpuinfo").read() if os.path.exists("/proc/cpuinfo") else ""
    avx512 = "avx512f" in flags
    print(f"Clock (dependent-add chain): {ghz:.2f} GHz; CPU exposes AVX2: {'avx2' in flags}, "
          f"AVX-512F: {avx512}. Best of {passes} alternating passes.\n")

    def cpb(ns, n):
        return ns * ghz / n

    plain = [k for k in best if not k[0].startswith("ZFS")]
    peers = ["skein-ffi C", "pyskein C", "Botan 2", "RustCrypto 0.2", "RustCrypto 0.1"]
    head = ["Hash", "Message", "skein-simd ns", "cpb", "digest_into ns", "digest_into vs skein-ffi C"]
    for p in peers:
        head += [f"{p} ns", f"vs {p}"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for key in plain:
        case, state, outbits, length = key
        t = dict(best[key])
        if (case, length) in py:
            t["pyskein C"] = py[(case, length)]
        ours = t["skein-simd"]
        cells = [case, size_label(length), f"{ours:.0f}", f"{cpb(ours, length):.2f}"]
        oneshot = t.get("skein-simd digest_into")
        cells += [f"{oneshot:.0f}" if oneshot else "-",
                  f"{t['skein-ffi C'] / oneshot:.2f}x" if oneshot and "skein-ffi C" in t else "-"]
        for p in peers:
            if p in t:
                cells += [f"{t[p]:.0f}", f"{t[p] / ours:.2f}x"]
            else:
                cells += ["-", "-"]
        print("| " + " | ".join(cells) + " |")

    print("\nEvery backend forced (cycles per byte; the automatic choice is the first column):\n")
    impls = []
    for key in plain:
        for impl in best[key]:
            if impl.startswith("skein-simd") and impl not in impls:
                impls.append(impl)
    print("| Hash | Message | " + " | ".join(impls) + " |")
    print("|" + "---|" * (len(impls) + 2))
    for key in plain:
        t = best[key]
        cells = [key[0], size_label(key[3])] + [f"{cpb(t[i], key[3]):.2f}" if i in t else "-" for i in impls]
        print("| " + " | ".join(cells) + " |")

    for key in best:
        if key[0].startswith("ZFS"):
            t = best[key]
            print(f"\n{key[0]}:")
            for impl, ns in t.items():
                print(f"  {impl}: {ns / 1e3:.1f} us, {key[3] / ns * 1e3:.0f} MB/s, {cpb(ns, key[3]):.2f} cpb")
            print(f"  keyed template clone / unkeyed: {t['skein-simd keyed template clone'] / t['skein-simd unkeyed']:.3f}")
    if have_py:
        print(f"\npyskein per-call overhead bound: an empty Skein-256 hash takes {overhead:.0f} ns through Python.")


if __name__ == "__main__":
    main()
