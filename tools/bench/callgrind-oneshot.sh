#!/usr/bin/env bash
# Instructions per one-shot hash, counted by callgrind (independent of load):
#   bash tools/bench/callgrind-oneshot.sh [IMPL STATE OUTPUT_BITS LEN]...
# Default: skein-simd (streaming `new/update/finalize_into`, and the
# one-shot `digest_into`) and skein-ffi's C for Skein-512-256, Skein-512-512 and
# Skein-1024-1024 at 64 B and 1 KiB, plus the keyed-template (ZFS) pattern.
# Each figure is (run of N hashes - run of 0 hashes) / N, so start-up cost
# is excluded. Top functions of the last run go to target/callgrind.*.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/peer-bench"
cargo fetch --quiet
cargo build --release --quiet --bin oneshot-loop
exe=target/release/oneshot-loop
N=2000
count() { # IMPL STATE BITS LEN COUNT -> total instructions
    valgrind --tool=callgrind --callgrind-out-file=target/callgrind.out "$exe" "$@" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
    for c in "512 256" "512 512" "1024 1024"; do
        for len in 64 1024; do
            cases+=("ours $c $len" "ours-digest $c $len" "c $c $len")
        done
    done
    cases+=("ours 256 256 64" "ours-template 512 256 64" "ours 512 256 131072" "ours-template 512 256 131072")
fi
printf '| impl | state | output bits | bytes | instructions per hash |\n|---|---|---|---|---|\n'
for c in "${cases[@]}"; do
    set -- $c
    n=$N; [ "$4" -gt 4096 ] && n=20
    base=$(count "$@" 0)
    full=$(count "$@" "$n")
    printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" $(( (full - base) / n ))
done
