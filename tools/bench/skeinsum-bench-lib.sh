# What the skeinsum-*-bench.sh scripts share (sourced, not run): their
# files of random bytes, made once, the skeinsum builds they compare, and
# one hyperfine run printed as a table.

# bench_files DIR SET...: the files of each SET, made once under DIR
# (DIR/done marks them made), random bytes:
#   b128: 1000 files of 128 KiB in DIR/b128, and DIR/cat128 their concatenation;
#   b4: 10,000 files of 4 KiB in DIR/b4, and DIR/cat4;
#   big: DIR/big, 1 GiB; m256: DIR/m256, 256 MiB.
bench_files() {
    local dir=$1
    shift
    [ -e "$dir/done" ] && return
    mkdir -p "$dir"
    python3 - "$dir" "$@" <<'PY'
import os, sys
d, sets = sys.argv[1], sys.argv[2:]
with open('/dev/urandom', 'rb') as r:
    for name, count, size, digits in (('b128', 1000, 128 << 10, 4), ('b4', 10000, 4096, 5)):
        if name not in sets:
            continue
        os.makedirs(f'{d}/{name}', exist_ok=True)
        with open(f'{d}/cat{name[1:]}', 'wb') as c:
            for i in range(count):
                b = r.read(size); open(f'{d}/{name}/f{i:0{digits}d}', 'wb').write(b); c.write(b)
    for name, mib in (('big', 1024), ('m256', 256)):
        if name in sets:
            with open(f'{d}/{name}', 'wb') as c:
                for i in range(mib):
                    c.write(r.read(1 << 20))
PY
    touch "$dir/done"
}

# for_each_skeinsum FUNCTION: `FUNCTION BIN TAG` for SKEINSUM ($S, tag "")
# and, when given, OTHER_SKEINSUM ($OTHER, tag "other ", for its rows).
for_each_skeinsum() {
    "$1" "$S" ""
    if [ -n "${OTHER:-}" ]; then "$1" "$OTHER" "other "; fi
}

# bench_table HYPERFINE_ARGS...: one hyperfine run (no shell, one warm-up,
# $RUNS runs) of the named commands; prints per row: min and median wall
# time, user and system time (means), ms.
bench_table() {
    local json
    json=$(mktemp)
    hyperfine -N -w 1 -r "$RUNS" --export-json "$json" "$@" >/dev/null
    python3 - "$json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))['results']
width = max(len(r['command']) for r in results)
for r in results:
    t = r['times']
    print(f"{r['command']:{width}}  min {min(t)*1e3:7.1f}  median {statistics.median(t)*1e3:7.1f}  user {r['user']*1e3:7.1f}  sys {r['system']*1e3:6.1f}")
PY
    rm -f "$json"
}
