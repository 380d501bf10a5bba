#!/usr/bin/env bash
# Trace one hashing loop of a ppc32 binary under `qemu-ppc -cpu 7450` and run
# the MPC7450 model (../shared/tools/g4model, see its README) on it, with
# and without the memory what-if (every input line not yet touched, and not
# covered by a `dst` stream, costs the model's `mem_lat`, set to 160 cycles
# below; docs/powerpc.md).
#
# usage: tools/g4/trace.sh OUT_DIR NAME BLOCK_BYTES MSG_BYTES -- CMD... 
#   CMD is run twice more with a different last argument: CMD... 0 counts
#   the fixed cost, CMD... MSG_BYTES the hashing; instructions per message
#   byte = (count(MSG_BYTES) - count(0)) / MSG_BYTES. The trace window is
#   16 blocks' worth of instructions from half way through the run.
#   BLOCK_BYTES is the bytes one loop period hashes (one block of one
#   stream; for a multi-lane kernel, lanes * block).
#   G4_MESSAGES (default 1): messages of MSG_BYTES each that CMD hashes, for
#   many_bytes (the bytes hashed are G4_MESSAGES * MSG_BYTES).
# Prints one line: NAME ipb c/B(baseline) c/B(memory what-if).
# Environment: G4MODEL (default ../shared/tools/g4model of the checkout).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
model="${G4MODEL:-$repo/../shared/tools/g4model}"
out="$1" name="$2" block="$3" nbytes="$4"
shift 4
[ "$1" = -- ] && shift
mkdir -p "$out"
plugin="$out/libg4trace.so"
[ -f "$plugin" ] || gcc -shared -fPIC -O2 -Wall -o "$plugin" "$model/trace_plugin.c"
qemu=(qemu-ppc -cpu 7450 -L /usr/powerpc-linux-gnu)
count() {
    "${qemu[@]}" -plugin "$plugin,count=0" -d plugin -D "$out/$name.count.log" "$@" >/dev/null
    sed -n 's/^insns: //p' "$out/$name.count.log"
}
c0=$(count "$@" 0)
c1=$(count "$@" "$nbytes")
ipb=$(python3 -c "print(round(($c1 - $c0) / ($nbytes * ${G4_MESSAGES:-1}), 4))")
n=$(python3 -c "print(int($ipb * $block * 16) + 2000)")
"${qemu[@]}" -plugin "$plugin,skip=$((c1 / 2)),count=$n" -d plugin -D "$out/$name.log" \
    "$@" "$nbytes" >/dev/null
python3 "$repo/tools/g4/normalize-trace.py" "$out/$name.log"
cpb() { nice -n 10 python3 "$model/g4sim.py" "$out/$name.log" --ipb "$ipb" --block "$block" --json "$@" |
    python3 -c 'import json,sys; print(round(json.load(sys.stdin)["cpb"], 2))'; }
echo "$name ipb $ipb base $(cpb) mem160 $(cpb --set mem_lat=160)"
