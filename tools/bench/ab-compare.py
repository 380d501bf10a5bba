#!/usr/bin/env python3
"""Same-run before/after of two builds of tools/bench/peer-bench: alternate
them pass by pass and keep each side's best per case (docs/performance.md).
usage: ab-compare.py BEFORE_EXE AFTER_EXE PASSES [harness args...]"""
import subprocess, sys
if len(sys.argv) < 4:
    sys.exit(__doc__)
before, after, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
args = sys.argv[4:]
best = {"before": {}, "after": {}}
ghz = []
def norm(impl):
    return impl.replace("digest_into", "hash_into")
for p in range(passes):
    for side, exe in (("before", before), ("after", after)) if p % 2 == 0 else (("after", after), ("before", before)):
        out = subprocess.run([exe] + args, check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            f = line.split("\t")
            if f[0] == "clock_ghz":
                ghz.append(float(f[1])); continue
            if len(f) != 6: continue
            key = (f[0], int(f[3]), norm(f[4]))
            ns = float(f[5])
            best[side][key] = min(best[side].get(key, 1e99), ns)
print(f"clock {min(ghz):.2f}-{max(ghz):.2f} GHz over {passes} passes each, alternating")
print("| case | bytes | contender | before ns | after ns | after/before |")
print("|---|---|---|---|---|---|")
for key in sorted(best["before"], key=lambda k: (k[0], k[1], k[2])):
    if key in best["after"] and key[2].startswith("skein-simd"):
        b, a = best["before"][key], best["after"][key]
        print(f"| {key[0]} | {key[1]} | {key[2]} | {b:.1f} | {a:.1f} | {a/b:.3f} |")
