#!/usr/bin/env bash
# The MPC7450 model figures of docs/powerpc.md ("G4 cycles: the MPC7450
# model"): model cycles per byte of the original AltiVec Skein (the seed),
# the single-stream `altivec` backend and its four-lane kernel, at baseline
# settings and with every input line from memory, plus (with --search N)
# the shared model's sensitivity sweep of the original against `altivec`.
#
# usage: tools/g4/model-table.sh --seed-src DIR [--out DIR] [--search N] [--no-cargo]
#   --seed-src DIR  the original's sources (github.com/benzea/skein-altivec,
#                   HEAD edf88ce; see ../shared/tools/g4model/README.md)
#   --out DIR       traces and results (default /tmp/g4-model-table)
#   --search N      also run ../shared/tools/g4model/sweep.py with N random
#                   joint settings (slow: docs/powerpc.md gives its time)
#   --no-cargo      use the examples already built
# Environment: G4MODEL (default ../shared/tools/g4model of the checkout).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
model="${G4MODEL:-$repo/../shared/tools/g4model}"
seed_src="" out=/tmp/g4-model-table search=0 cargo=1
while [ $# -gt 0 ]; do
    case "$1" in
        --seed-src) seed_src="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --search) search="$2"; shift 2 ;;
        --no-cargo) cargo=0; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[ -n "$seed_src" ] || { echo "need --seed-src DIR" >&2; exit 2; }
mkdir -p "$out"
export G4MODEL="$model"

if [ "$cargo" = 1 ]; then
    # the cross linker of tools/ci/targets.tsv
    (cd "$repo" && eval "$(bash tools/ci/targets.sh env ppc32-7450)" && RUSTC_BOOTSTRAP=1 \
        nice -n 10 cargo build --release --target powerpc-unknown-linux-gnu --example hash_bytes --example many_bytes)
fi
"$model/build_seed.sh" "$seed_src" "$out/seed_driver"
bin="${CARGO_TARGET_DIR:-$repo/target}/powerpc-unknown-linux-gnu/release/examples"
trace="$repo/tools/g4/trace.sh"
mib=1048576

: > "$out/table.txt"
for bits in 256 512 1024; do
    block=$((bits / 8))
    "$trace" "$out" "seed_$bits" "$block" "$mib" -- "$out/seed_driver" "$bits" | tee -a "$out/table.txt"
    "$trace" "$out" "proj_$bits" "$block" "$mib" -- "$bin/hash_bytes" altivec "$bits" | tee -a "$out/table.txt"
    # Four messages of 1 MiB on the multi-lane path: at Skein-256 one loop
    # period is a block of every lane; Skein-512 and -1024 run the
    # single-stream block function lane after lane (`altivec::lanes::lanes`).
    period=$block; [ "$bits" = 256 ] && period=$((4 * block))
    G4_MESSAGES=4 "$trace" "$out" "lanes_$bits" "$period" "$mib" -- \
        "$bin/many_bytes" altivec lanes "$bits" "$bits" 4 | tee -a "$out/table.txt"
done

if [ "$search" -gt 0 ]; then
    python3 - "$out" > "$out/manifest.json" <<'EOF'
import json, sys
out = sys.argv[1]
rows = []
for line in open(out + "/table.txt"):
    name, _, ipb = line.split()[:3]
    impl, bits = name.split("_")
    if impl in ("seed", "proj"):
        rows.append({"impl": impl, "bits": int(bits), "trace": "%s/%s.log" % (out, name),
                     "ipb": float(ipb), "block": int(bits) // 8})
print(json.dumps(rows))
EOF
    nice -n 10 python3 "$model/sweep.py" "$out/manifest.json" --out "$out" --search "$search"
    echo "sweep: $out/results.md" >&2
fi
