#!/usr/bin/env bash
# The C library's tests: build libskein_simd, compile the C tests
# (capi/tests/c, against capi/include only: skein_test for the reference,
# NIST and skein_simd.h APIs, from skein_test.c, our_api.c and hostile.c;
# libmd_test for FreeBSD libmd's functions, from libmd_test.c; both with
# check.c, test_data.c and ref_peer.c, which compiles in the reference C
# code of capi/tests/c/reference as a peer), link them statically and
# dynamically, and run them on the golden KAT file (tests/data/) and
# pyskein's vectors, skein_test on every backend of the CPU (forced with
# SKEIN_SIMD_BACKEND and seen in use); on the cross targets also the
# library's own Rust unit tests (the context layout seen from Rust), under
# QEMU user mode.
#
# usage: tools/ci/capi-test.sh [RUN...]     (default: host and ppc32's runs)
#   host        this machine, with its C compiler `cc`
#   any run of tools/ci/targets.tsv: its target, with the target's cross
#               gcc, under QEMU on the run's CPU, e.g.
#   ppc32-7450  powerpc-unknown-linux-gnu, qemu-ppc -cpu 7450 (AltiVec)
#   ppc32-750   powerpc-unknown-linux-gnu, qemu-ppc -cpu 750 (no AltiVec)
# A cross run forces each backend the run's BACKENDS in the table must
# have (+NAME) when there are two or more (one is the automatic choice).
#
# `cargo test --workspace` does not run these (they need the built C
# library, which `cargo test` does not build). The cross runs need what
# tools/ci/qemu-test.sh needs (the target's packages in the table, the rust
# target). The last line is "capi-test: N passed, M failed" (runs).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
# shellcheck source=target-dir.sh
. "$(dirname "${BASH_SOURCE[0]}")/target-dir.sh"

golden="$repo/tests/data/skein_golden_kat.txt"
vectors="$repo/tests/data/pyskein_vectors.txt"
c_tests="$repo/capi/tests/c"
peer_src="$c_tests/reference"
host_triple="$(rustc -vV | sed -n 's/^host: //p')"

# shellcheck source=targets.sh
. "$(dirname "${BASH_SOURCE[0]}")/targets.sh"
if [ $# -gt 0 ]; then
    runs=("$@")
else
    ppc32_runs="$(targets_runs ppc32)"
    mapfile -t runs <<< "$ppc32_runs"
    runs=(host "${runs[@]}")
fi

passed=0
failed=0
for r in "${runs[@]}"; do
    if [ "$r" = host ]; then
        target="$host_triple" cc=cc
        echo "==== $r: $target"
    else
        run_row "$r" || { echo "capi-test.sh: unknown run '$r'" >&2; exit 2; }
        target="$tgt_triple" cc="$tgt_linker"
        # cargo's linker and runner (this run's CPU)
        target_env "$r"
        read -r -a run <<< "$(target_runner "$run_cpu")"
        echo "==== $r: $target under ${run[*]}"
    fi
    ok=1
    if [ "$r" = host ]; then
        # The CPU's backends, as the library lists them (skeinsum prints
        # one per line, its name first).
        # The skeinsum of the host test build when there is one: building
        # it here would take the build lock of target/debug.
        skeinsum=("$target_dir/debug/skeinsum")
        [ -x "${skeinsum[0]}" ] || skeinsum=(cargo run -q -p skeinsum --)
        list="$("${skeinsum[@]}" --list-backends)" || ok=0
        backends=("")
        while read -r name _; do backends+=("$name"); done <<< "$list"
        case " ${backends[*]} " in *" portable "*) ;; *) echo "no backend list: '$list'" >&2; ok=0 ;; esac
        run=(env) # nothing in between: the host runs its programs itself
        cargo build -q --release -p skein-simd-capi || ok=0
        libs="$target_dir/release"
    else
        # The AltiVec backend's intrinsics are unstable (only the cross
        # builds: on the host the variable would make cargo rebuild what
        # the other steps built without it).
        export RUSTC_BOOTSTRAP=1
        backends=("")
        forced=()
        for b in ${run_backends//,/ }; do
            case "$b" in +*) forced+=("${b#+}") ;; esac
        done
        [ ${#forced[@]} -lt 2 ] || backends+=("${forced[@]}")
        # The `emulated` profile (Cargo.toml), as tools/ci/qemu-test.sh
        # builds: optimized code, built in a fraction of the time.
        cargo build -q --profile emulated -p skein-simd-capi --target "$target" || ok=0
        cargo test -q --profile emulated -p skein-simd-capi --lib --target "$target" || ok=0
        libs="$target_dir/$target/emulated"
    fi
    out="$(mktemp -d)"
    for program in skein_test libmd_test; do
        case "$program" in
            skein_test) sources=(skein_test.c our_api.c hostile.c) ;;
            libmd_test) sources=(libmd_test.c) ;;
        esac
        sources+=(check.c test_data.c ref_peer.c)
        common=(-O2 -std=c99 -Wall -I"$repo/capi/include" -I"$c_tests" -I"$peer_src" "${sources[@]/#/$c_tests/}")
        "$cc" "${common[@]}" -o "$out/$program-static" "$libs/libskein_simd.a" -lpthread -ldl -lm || ok=0
        "$cc" "${common[@]}" -o "$out/$program-dynamic" -L"$libs" -lskein_simd -Wl,-rpath,"$libs" || ok=0
    done
    # off_t of 64 bits on the 32-bit target: FileChunk/FdChunk past 4 GiB.
    "$cc" "${common[@]}" -D_FILE_OFFSET_BITS=64 -o "$out/libmd_test-static-lfs" "$libs/libskein_simd.a" \
        -lpthread -ldl -lm || ok=0
    for exe in static dynamic; do
        for b in "${backends[@]}"; do
            echo "---- $r: skein_test-$exe, SKEIN_SIMD_BACKEND='${b}'"
            if ! SKEIN_SIMD_BACKEND="$b" "${run[@]}" "$out/skein_test-$exe" "$golden" "$vectors" > "$out/log" 2>&1; then
                ok=0
            fi
            cat "$out/log"
            if [ -n "$b" ] && ! grep -q "backends $b / $b / $b" "$out/log"; then
                echo "backend $b was not the one in use" >&2
                ok=0
            fi
            tail -n 1 "$out/log" | grep -q '^c-api: [0-9]* passed, 0 failed$' || ok=0
        done
    done
    # libmd's functions add files and descriptors, not block functions: the
    # CPU's own backend is enough.
    for exe in static dynamic static-lfs; do
        echo "---- $r: libmd_test-$exe"
        if ! "${run[@]}" "$out/libmd_test-$exe" "$golden" "$vectors" > "$out/log" 2>&1; then
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
