#!/usr/bin/env bash
# skeinsum on a 32-bit target: the ppc32 build under QEMU (-cpu 7450).
#
# usage: tools/ci/skeinsum-32bit.sh
#
# Checks (issue 15, cases 1 and 2):
#   - output lengths a 32-bit usize cannot hold (-l 18446744073709551615,
#     -l 34359738376) are usage errors: exit 2, one line naming --length;
#   - a sparse file larger than 4 GiB gives the digest the host build gives
#     (it is mapped in windows; offsets past 2^32 must work);
#   - the release binary carries no test hooks (their environment variable
#     names are absent from it).
#
# Environment:
#   SKEINSUM_32BIT_BIG_MIB  size of the large file in MiB (default 4097, just
#                           over 4 GiB; ~6 min of QEMU on one core; 0 skips it)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"

big_mib="${SKEINSUM_32BIT_BIG_MIB:-4097}"
target=powerpc-unknown-linux-gnu
RUSTC_BOOTSTRAP=1 cargo build -q --release -p skeinsum --target "$target"
ppc="$repo/target/$target/release/skeinsum"  # absolute: used after cd
run=(qemu-ppc -cpu 7450 -L /usr/powerpc-linux-gnu "$ppc")

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0

if grep -a -q SKEINSUM_TEST "$ppc"; then
    echo "FAIL: the release binary contains the test hooks" >&2
    fail=1
else
    echo "ok: no test hooks in the release binary"
fi

printf 'abc\n' > "$work/a"
for length in 18446744073709551615 34359738376; do
    set +e
    "${run[@]}" -l "$length" "$work/a" > "$work/out" 2> "$work/err"
    code=$?
    set -e
    if [ "$code" = 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l < "$work/err")" = 1 ] \
        && grep -q -- '--length' "$work/err"; then
        echo "ok: -l $length: exit 2: $(cat "$work/err")"
    else
        echo "FAIL: -l $length: exit $code, stdout $(wc -c < "$work/out") bytes, stderr: $(cat "$work/err")" >&2
        fail=1
    fi
done

if [ "$big_mib" != 0 ]; then
    cargo build -q -p skeinsum --profile test
    truncate -s "${big_mib}M" "$work/big"
    expected="$(cd "$work" && "$repo/target/debug/skeinsum" big)"
    t0=$SECONDS
    got="$(cd "$work" && "${run[@]}" big)" || {
        echo "FAIL: ${big_mib} MiB sparse file: ppc32 skeinsum exited $?" >&2
        exit 1
    }
    if [ "$got" = "$expected" ]; then
        echo "ok: ${big_mib} MiB sparse file: same digest as the host ($((SECONDS - t0)) s under QEMU)"
    else
        echo "FAIL: ${big_mib} MiB sparse file: ppc32 '$got', host '$expected'" >&2
        fail=1
    fi
fi

exit "$fail"
