#!/usr/bin/env bash
# skeinsum where usize is 32 bits: i686 natively (32-bit little-endian, fast
# enough for a file over 4 GiB) and ppc32 under QEMU (32-bit big-endian).
#
# usage: bash tools/ci/skeinsum-32bit.sh [i686] [ppc32]     (default: both)
#
# Needs the rust targets i686-unknown-linux-gnu and powerpc-unknown-linux-gnu,
# Debian's i386 libc and libgcc for linking i686, and ppc32's packages in
# tools/ci/targets.tsv (all installed by .ci/run). ppc32 runs on the CPU of
# its first run in that table (the 7450), with its linker and QEMU from there.
#
# Checks, on each of the two targets:
#   - the binary carries no test hooks (their environment variable names are
#     absent from it; the hooks are a cargo feature only tests turn on);
#   - output lengths a 32-bit usize cannot hold (-l 18446744073709551615,
#     -l 34359738376) are usage errors: exit 2, nothing on stdout, one line on
#     stderr naming --length;
#   - a sparse file gives the digest the host (x86-64) build gives: on i686 a
#     file just over 4 GiB (mapped in windows; offsets past 2^32 must work),
#     on ppc32 a file just over one 64 MiB map window (the window loop on
#     big-endian 32-bit).
# Both are release builds without LTO (the same code as the shipped binary,
# built in a fraction of the time): i686 the release profile with LTO off
# and 16 codegen units (as python-wheel.sh builds, in the same target
# directory), ppc32 the `emulated` profile (the build tools/ci/qemu-test.sh
# made; the two must not share a profile, or the i686 build would wait on
# the cargo lock the QEMU suite holds while its tests run). The expected
# digests come from the host's skeinsum.
#
# Environment:
#   SKEINSUM_HOST            the host skeinsum (default debug/skeinsum of the
#                            target directory,
#                            which `cargo test --workspace` builds; built
#                            with `cargo build -p skeinsum` when missing)
#   SKEINSUM_32BIT_BIG_MIB   size of the i686 file in MiB (default 4097)
#   SKEINSUM_32BIT_PPC_MIB   size of the ppc32 file in MiB (default 65)
# Last line: "skeinsum-32bit: N passed, M failed" (checks).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"

big_mib="${SKEINSUM_32BIT_BIG_MIB:-4097}"
ppc_mib="${SKEINSUM_32BIT_PPC_MIB:-65}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
ok() {
    passed=$((passed + 1))
    echo "ok: $*"
}
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*" >&2
}

if [ $# -gt 0 ]; then runs=("$@"); else runs=(i686 ppc32); fi
for r in "${runs[@]}"; do
    case "$r" in i686 | ppc32) ;; *) echo "skeinsum-32bit.sh: unknown run '$r' (i686, ppc32)" >&2; exit 2 ;; esac
done
# shellcheck source=target-dir.sh
. "$(dirname "${BASH_SOURCE[0]}")/target-dir.sh"
# shellcheck source=targets.sh
. "$(dirname "${BASH_SOURCE[0]}")/targets.sh"
host="${SKEINSUM_HOST:-$target_dir/debug/skeinsum}"
if [ ! -x "$host" ]; then
    cargo build -q -p skeinsum
    host="$target_dir/debug/skeinsum"
fi

# check_32bit NAME SPARSE_MIB COMMAND...
check_32bit() {
    local name="$1" mib="$2"
    shift 2
    local bin="${*: -1}"

    if grep -a -q SKEINSUM_TEST "$bin"; then
        fail "$name: the binary contains the test hooks"
    else
        ok "$name: no test hooks in the binary"
    fi

    local length code
    printf 'abc\n' > "$work/a"
    for length in 18446744073709551615 34359738376; do
        code=0
        "$@" -l "$length" "$work/a" > "$work/out" 2> "$work/err" || code=$?
        if [ "$code" = 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l < "$work/err")" = 1 ] \
            && grep -q -- '--length' "$work/err"; then
            ok "$name: -l $length: exit 2: $(cat "$work/err")"
        else
            fail "$name: -l $length: exit $code, stdout $(wc -c < "$work/out") bytes, stderr: $(cat "$work/err")"
        fi
    done

    local file="sparse-$mib" expected got t
    rm -f "$work/$file"
    truncate -s "${mib}M" "$work/$file"
    expected="$(cd "$work" && "$host" "$file")"
    t=$SECONDS
    code=0
    got="$(cd "$work" && "$@" "$file")" || code=$?
    if [ "$code" != 0 ]; then
        fail "$name: ${mib} MiB sparse file: exit $code"
    elif [ "$got" = "$expected" ]; then
        ok "$name: ${mib} MiB sparse file: same digest as the host ($((SECONDS - t)) s)"
    else
        fail "$name: ${mib} MiB sparse file: '$got', host '$expected'"
    fi
    rm -f "$work/$file"
}

for r in "${runs[@]}"; do
    t0=$SECONDS
    if [ "$r" = i686 ]; then
        CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
            cargo build -q --release -p skeinsum --target i686-unknown-linux-gnu
        echo "skeinsum-32bit: i686 build: $((SECONDS - t0))s"
        check_32bit i686 "$big_mib" "$target_dir/i686-unknown-linux-gnu/release/skeinsum"
    else
        target_env ppc32
        read -r -a qemu <<< "$(target_runner)"
        RUSTC_BOOTSTRAP=1 cargo build -q --profile emulated -p skeinsum --target "$tgt_triple"
        echo "skeinsum-32bit: ppc32 build: $((SECONDS - t0))s"
        check_32bit ppc32 "$ppc_mib" "${qemu[@]}" "$target_dir/$tgt_triple/emulated/skeinsum"
    fi
done

echo "skeinsum-32bit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
