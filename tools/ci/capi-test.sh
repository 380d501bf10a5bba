#!/usr/bin/env bash
# The C library's tests on a cross target: build libskein_simd for it, compile
# the C tests (capi/tests/c, against capi/include only: skein_test.c for the
# reference, NIST and skein_simd.h APIs, libmd_test.c for FreeBSD libmd's
# functions) with that target's gcc, link them statically and dynamically, and
# run them under QEMU user mode on the golden KAT file and pyskein's vectors,
# skein_test on every backend of the CPU; also the library's own Rust unit
# tests (the context layout seen from Rust).
#
# usage: tools/ci/capi-test.sh [RUN...]     (default: ppc32-7450 ppc32-750)
#   ppc32-7450  powerpc-unknown-linux-gnu, qemu-ppc -cpu 7450 (AltiVec)
#   ppc32-750   powerpc-unknown-linux-gnu, qemu-ppc -cpu 750 (no AltiVec)
#
# The host runs the same C tests through `cargo test -p skein-simd-capi`.
# Needs what tools/ci/qemu-test.sh needs (qemu-user, gcc-powerpc-linux-gnu,
# libc6-dev-powerpc-cross, the rust target) and the golden KAT file
# ($SKEIN_GOLDEN_KAT, ../shared/kat/ or .cache/kat/). The last line is
# "capi-test: N passed, M failed" (runs).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
export RUSTC_BOOTSTRAP=1 # the AltiVec backend's intrinsics are unstable

if [ $# -gt 0 ]; then runs=("$@"); else runs=(ppc32-7450 ppc32-750); fi

golden="${SKEIN_GOLDEN_KAT:-}"
for candidate in "$golden" "$repo/../shared/kat/skein_golden_kat.txt" "$repo/.cache/kat/skein_golden_kat.txt"; do
    if [ -n "$candidate" ] && [ -f "$candidate" ]; then golden="$candidate"; break; fi
done
if [ ! -f "$golden" ]; then
    echo "capi-test.sh: the golden KAT file is missing (set SKEIN_GOLDEN_KAT or run tools/ci/fetch-golden-kat.sh)" >&2
    echo "capi-test: 0 passed, ${#runs[@]} failed"
    exit 1
fi
vectors="$repo/tests/data/pyskein_vectors.txt"

# The reference C code as the tests' peer: crates.io skein-ffi 0.5.0's C
# source, fetched with a throwaway manifest.
peer_dir="$(mktemp -d)"
trap 'rm -rf "$peer_dir"' EXIT
mkdir -p "$peer_dir/src"
printf '[package]\nname = "peer"\nversion = "0.0.0"\nedition = "2021"\n[workspace]\n[dependencies]\nskein-ffi = "=0.5.0"\n' \
    > "$peer_dir/Cargo.toml"
: > "$peer_dir/src/lib.rs"
cargo fetch -q --manifest-path "$peer_dir/Cargo.toml"
peer_src="$(cargo metadata -q --format-version 1 --manifest-path "$peer_dir/Cargo.toml" \
    | grep -o '"manifest_path":"[^"]*skein-ffi-0.5.0/Cargo.toml"' | head -n 1 | sed 's/.*:"//; s/Cargo.toml"$/ext\/skein/')"
[ -f "$peer_src/c_skein.c" ] || { echo "capi-test.sh: no c_skein.c in '$peer_src'" >&2; exit 1; }

run_spec() {
    case "$1" in
        ppc32-7450) echo "powerpc-unknown-linux-gnu powerpc-linux-gnu-gcc qemu-ppc 7450 /usr/powerpc-linux-gnu" ;;
        ppc32-750)  echo "powerpc-unknown-linux-gnu powerpc-linux-gnu-gcc qemu-ppc 750 /usr/powerpc-linux-gnu" ;;
        *) return 1 ;;
    esac
}

passed=0
failed=0
for r in "${runs[@]}"; do
    read -r target cc qemu cpu sysroot <<< "$(run_spec "$r")" || { echo "capi-test.sh: unknown run '$r'" >&2; exit 2; }
    echo "==== $r: $target under $qemu -cpu $cpu"
    ok=1
    runner_var="CARGO_TARGET_$(echo "$target" | tr 'a-z-' 'A-Z_')_RUNNER"
    export "$runner_var=$qemu -cpu $cpu -L $sysroot"
    cargo build -q --release -p skein-simd-capi --target "$target" || ok=0
    cargo test -q --release -p skein-simd-capi --lib --target "$target" || ok=0
    libs="$repo/target/$target/release"
    out="$(mktemp -d)"
    for program in skein_test libmd_test; do
        common=(-O2 -std=c99 -Wall -I"$repo/capi/include" -I"$repo/capi/tests/c" -I"$peer_src"
                "$repo/capi/tests/c/$program.c" "$repo/capi/tests/c/test_data.c" "$repo/capi/tests/c/ref_peer.c")
        "$cc" "${common[@]}" -o "$out/$program-static" "$libs/libskein_simd.a" -lpthread -ldl -lm || ok=0
        "$cc" "${common[@]}" -o "$out/$program-dynamic" -L"$libs" -lskein_simd -Wl,-rpath,"$libs" || ok=0
    done
    # off_t of 64 bits on the 32-bit target: FileChunk/FdChunk past 4 GiB.
    "$cc" "${common[@]}" -D_FILE_OFFSET_BITS=64 -o "$out/libmd_test-static-lfs" "$libs/libskein_simd.a" \
        -lpthread -ldl -lm || ok=0
    backends=("")
    if [ "$cpu" = 7450 ]; then backends+=(altivec portable); fi
    for exe in static dynamic; do
        for b in "${backends[@]}"; do
            echo "---- $r: skein_test-$exe, SKEIN_SIMD_BACKEND='${b}'"
            if ! SKEIN_SIMD_BACKEND="$b" "$qemu" -cpu "$cpu" -L "$sysroot" "$out/skein_test-$exe" "$golden" "$vectors" > "$out/log" 2>&1; then
                ok=0
            fi
            cat "$out/log"
            if [ -n "$b" ] && ! grep -q "backends $b / $b / $b" "$out/log"; then
                echo "backend $b was not the one in use" >&2
                ok=0
            fi
        done
    done
    # libmd's functions add files and descriptors, not block functions: the
    # CPU's own backend is enough.
    for exe in static dynamic static-lfs; do
        echo "---- $r: libmd_test-$exe"
        if ! "$qemu" -cpu "$cpu" -L "$sysroot" "$out/libmd_test-$exe" "$golden" "$vectors" > "$out/log" 2>&1; then
            ok=0
        fi
        cat "$out/log"
        tail -n 1 "$out/log" | grep -q '^libmd: [0-9]* passed, 0 failed$' || ok=0
    done
    rm -rf "$out"
    if [ "$ok" = 1 ]; then passed=$((passed + 1)); echo "==== $r: PASSED"; else failed=$((failed + 1)); echo "==== $r: FAILED"; fi
done
echo "capi-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
