#!/usr/bin/env bash
# Instructions per one-shot hash of two checkouts of skein-simd side by side,
# counted by callgrind (independent of machine load), with a backend forced:
#
#   bash tools/bench/callgrind-ab.sh BEFORE_DIR AFTER_DIR [BACKEND STATE BITS LEN]...
#
# BEFORE_DIR and AFTER_DIR are checkouts (e.g. a `git worktree` of the older
# commit). For each, a throw-away crate under $CARGO_TARGET_DIR/callgrind-ab/
# (default <repo>/target) depends on the checkout by path, with the release
# profile of tools/bench/peer-bench (one codegen unit, thin LTO), and loops
# `Skein::<W>::with_params(backend, bits)`, `update`, `finalize_into`. Each
# figure is (run of N hashes - run of 0 hashes) / N. BACKEND is a backend
# name or `auto`. Default cases: portable, Skein-256/512/1024, 64 B and 16 KiB.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: callgrind-ab.sh BEFORE_DIR AFTER_DIR [BACKEND STATE BITS LEN]..." >&2; exit 2; }
before="$(cd "$1" && pwd)"; after="$(cd "$2" && pwd)"; shift 2
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${CARGO_TARGET_DIR:-$repo/target}/callgrind-ab"

build() { # NAME CHECKOUT -> path of the loop binary
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "oneshot-$1"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
skein-simd = { path = "$2", default-features = false, features = ["std"] }
[profile.release]
codegen-units = 1
lto = "thin"
opt-level = 3
[workspace]
TOML
    cat > "$dir/src/main.rs" <<'RS'
use skein_simd::{Backend, Params, Skein};
use std::hint::black_box;

fn run<const W: usize>(backend: &str, bits: u64, data: &[u8], n: usize) -> u8 {
    let mut params = Params::new().output_bits(bits);
    if backend != "auto" {
        params = params.backend(Backend::from_name(backend).expect("backend name"));
    }
    let mut out = vec![0u8; bits.div_ceil(8) as usize];
    let mut acc = 0;
    for _ in 0..n {
        let mut h = Skein::<W>::with_params(&params).unwrap();
        h.update(black_box(data));
        h.finalize_into(&mut out);
        acc ^= black_box(&out)[0];
    }
    acc
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let [backend, state, bits, len, n] = &a[..] else {
        panic!("usage: oneshot BACKEND STATE BITS LEN COUNT")
    };
    let (bits, len, n): (u64, usize, usize) =
        (bits.parse().unwrap(), len.parse().unwrap(), n.parse().unwrap());
    let data: Vec<u8> = (0..len).map(|i| (i * 131 + 7) as u8).collect();
    let r = match state.as_str() {
        "256" => run::<4>(backend, bits, &data, n),
        "512" => run::<8>(backend, bits, &data, n),
        "1024" => run::<16>(backend, bits, &data, n),
        _ => panic!("STATE is 256, 512 or 1024"),
    };
    println!("{r}");
}
RS
    (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo build --quiet --release >&2)
    echo "$dir/target/release/oneshot-$1"
}
count() { # EXE ARGS... -> total instructions
    local exe="$1"; shift
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" "$@" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_hash() { # EXE BACKEND STATE BITS LEN
    local n=2000; [ "$5" -gt 4096 ] && n=50
    local z f
    z=$(count "$@" 0); f=$(count "$@" "$n")
    echo $(( (f - z) / n ))
}

b_exe="$(build before "$before")"
a_exe="$(build after "$after")"
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
    for s in 256 512 1024; do
        for len in 64 16384; do cases+=("portable $s $s $len"); done
    done
fi
printf '| backend | state | output bits | bytes | before | after | after/before |\n|---|---|---|---|---|---|---|\n'
for c in "${cases[@]}"; do
    set -- $c
    b=$(per_hash "$b_exe" "$@"); a=$(per_hash "$a_exe" "$@")
    awk -v b="$b" -v a="$a" -v c="$c" 'BEGIN { split(c, f, " ");
        printf "| %s | %s | %s | %s | %d | %d | %.3f |\n", f[1], f[2], f[3], f[4], b, a, a / b }'
done
