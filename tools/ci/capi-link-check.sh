#!/usr/bin/env bash
# The C library as a user links it: install libskein_simd into a scratch
# DESTDIR with tools/package/capi-install.sh, then build
# capi/examples/skein512.c (reference API only) with pkg-config against the
# shared and against the static library, and check both print the Skein 1.3
# specification's Skein-512-512 of the byte 0xFF (appendix C).
#
# usage: bash tools/ci/capi-link-check.sh     (needs cc, pkg-config, readelf)
# Last line: "capi-link-check: N passed, M failed".
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
dest="$(mktemp -d)"
trap 'rm -rf "$dest"' EXIT
bash tools/package/capi-install.sh --prefix=/usr/local --destdir="$dest"
export PKG_CONFIG_PATH="$dest/usr/local/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
want=71b7bce6fe6452227b9ced6014249e5bf9a9754c3ad618ccc4e0aae16b316cc8ca698d864307ed3e80b6ef1570812ac5272dc409b5a012df2a579102f340617a
# shellcheck disable=SC2046
cc -std=c99 -Wall -o "$dest/dynamic" capi/examples/skein512.c $(pkg-config --cflags --libs skein_simd) \
    -Wl,-rpath,"$dest/usr/local/lib"
# The archive by its path, then the system libraries pkg-config lists for a static link.
# shellcheck disable=SC2046
cc -std=c99 -Wall -o "$dest/static" capi/examples/skein512.c $(pkg-config --cflags skein_simd) \
    "$dest/usr/local/lib/libskein_simd.a" $(pkg-config --static --libs-only-l skein_simd | sed 's/-lskein_simd//')
passed=0 failed=0
for kind in dynamic static; do
    got="$(printf '\377' | "$dest/$kind")"
    if [ "$got" = "$want" ]; then passed=$((passed + 1)); echo "ok: $kind"; else failed=$((failed + 1)); echo "FAIL: $kind printed $got"; fi
done
if readelf -d "$dest/static" | grep -q skein_simd; then failed=$((failed + 1)); echo "FAIL: the static program needs a shared libskein_simd"; fi
readelf -d "$dest/dynamic" | grep -q 'libskein_simd.so.0' || { failed=$((failed + 1)); echo "FAIL: the dynamic program does not need libskein_simd.so.0"; }
echo "capi-link-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
