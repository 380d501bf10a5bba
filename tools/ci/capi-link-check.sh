#!/usr/bin/env bash
# The C library as a user links it: install libskein_simd with
# tools/package/capi-install.sh to a scratch prefix that no search path
# names, then, with only PKG_CONFIG_PATH set (no LD_LIBRARY_PATH), build
# capi/examples/skein512.c (reference API only) and
# capi/examples/skein512_libmd.c (FreeBSD libmd's skein(3) functions) with
# pkg-config against the shared and against the static library, and check
# all four print the Skein 1.3 specification's Skein-512-512 of the byte 0xFF
# (appendix C), the libmd one also for a file, and refuse a missing file.
# Both installs (that prefix, and /usr staged in a DESTDIR as a distribution
# package builds it) carry the licence texts; only the first has an rpath.
# The installed archive holds none of the library's test-only code (the
# cfg skein_simd_test_hooks that this repository's builds have).
#
# usage: bash tools/ci/capi-link-check.sh     (needs cc, pkg-config, readelf, nm)
# Last line: "capi-link-check: N passed, M failed".
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
dest="$(mktemp -d)"
trap 'rm -rf "$dest"' EXIT
bash tools/package/capi-install.sh --prefix="$dest/prefix"
lib="$dest/prefix/lib"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR LD_LIBRARY_PATH
export PKG_CONFIG_PATH="$lib/pkgconfig"
want=71b7bce6fe6452227b9ced6014249e5bf9a9754c3ad618ccc4e0aae16b316cc8ca698d864307ed3e80b6ef1570812ac5272dc409b5a012df2a579102f340617a
passed=0 failed=0
for example in skein512 skein512_libmd; do
    # shellcheck disable=SC2046
    cc -std=c99 -Wall -o "$dest/$example-dynamic" "capi/examples/$example.c" $(pkg-config --cflags --libs skein_simd)
    # The archive by its path, then the system libraries pkg-config lists for a static link.
    # shellcheck disable=SC2046
    cc -std=c99 -Wall -o "$dest/$example-static" "capi/examples/$example.c" $(pkg-config --cflags skein_simd) \
        "$lib/libskein_simd.a" $(pkg-config --static --libs-only-l skein_simd | sed 's/-lskein_simd//')
    for kind in dynamic static; do
        exe="$dest/$example-$kind"
        got="$(printf '\377' | "$exe")"
        if [ "$got" = "$want" ]; then passed=$((passed + 1)); echo "ok: $example, $kind"; else failed=$((failed + 1)); echo "FAIL: $example, $kind printed $got"; fi
        if readelf -d "$exe" | grep -q 'libskein_simd.so'; then
            [ "$kind" = dynamic ] || { failed=$((failed + 1)); echo "FAIL: $example-static needs a shared libskein_simd"; }
        else
            [ "$kind" = static ] || { failed=$((failed + 1)); echo "FAIL: $example-dynamic does not need libskein_simd.so.0"; }
        fi
    done
done
# The libmd program on files, as FreeBSD's skein512 prints them; a missing
# file is an error on stderr and exit status 1.
printf '\377' > "$dest/ff"
for kind in dynamic static; do
    exe="$dest/skein512_libmd-$kind"
    got="$("$exe" "$dest/ff")"
    if [ "$got" = "SKEIN512 ($dest/ff) = $want" ]; then passed=$((passed + 1)); echo "ok: skein512_libmd, $kind, a file"; else failed=$((failed + 1)); echo "FAIL: skein512_libmd, $kind, printed $got"; fi
    if "$exe" "$dest/missing" > "$dest/out" 2> "$dest/err" || [ -s "$dest/out" ] || ! grep -q missing "$dest/err"; then
        failed=$((failed + 1)); echo "FAIL: skein512_libmd, $kind, a missing file"
    else
        passed=$((passed + 1)); echo "ok: skein512_libmd, $kind, a missing file"
    fi
done
readelf -d "$dest/skein512-dynamic" | grep -q 'libskein_simd.so.0' || { failed=$((failed + 1)); echo "FAIL: the dynamic program does not need libskein_simd.so.0"; }
# What made the dynamic programs run: the .pc file's rpath to the prefix.
if readelf -d "$dest/skein512-dynamic" | grep -E 'R(UN)?PATH' | grep -qF "[$lib]"; then
    passed=$((passed + 1)); echo "ok: the dynamic program's run path is $lib"
else
    failed=$((failed + 1)); echo "FAIL: the dynamic program has no run path to $lib"
fi
# Built without the test hooks: the archive has every object of the Rust
# library, so the checks of its internals (modules `checks`, `test_rng`)
# would show in its symbols, as the library's own modules do (in a build
# without LTO, as CI's; LTO would drop them as unused, the hooks' cfg
# still set).
nm -C "$lib/libskein_simd.a" > "$dest/symbols" 2> /dev/null || true
if ! grep -q 'skein_simd::ubi::' "$dest/symbols"; then
    failed=$((failed + 1)); echo "FAIL: nm lists no symbol of the library's modules in $lib/libskein_simd.a"
elif grep -qE 'skein_simd::([a-z0-9_]+::)*(checks|test_rng)::' "$dest/symbols"; then
    failed=$((failed + 1)); echo "FAIL: the installed libskein_simd.a holds test-only code:"
    grep -E 'skein_simd::([a-z0-9_]+::)*(checks|test_rng)::' "$dest/symbols" | head -n 5 || true
else
    passed=$((passed + 1)); echo "ok: the installed library holds no test-only code"
fi
# The licence texts, in both installs; a system libdir gets no rpath.
bash tools/package/capi-install.sh --prefix=/usr --destdir="$dest/stage" > /dev/null
for doc in "$dest/prefix/share/doc/skein_simd" "$dest/stage/usr/share/doc/skein_simd"; do
    if cmp -s LICENSE-MIT "$doc/LICENSE-MIT" && cmp -s LICENSE-APACHE "$doc/LICENSE-APACHE"; then
        passed=$((passed + 1)); echo "ok: $doc holds LICENSE-MIT and LICENSE-APACHE"
    else
        failed=$((failed + 1)); echo "FAIL: $doc lacks LICENSE-MIT or LICENSE-APACHE"
    fi
done
if grep -qx 'prefix=/usr' "$dest/stage/usr/lib/pkgconfig/skein_simd.pc" && ! grep -q rpath "$dest/stage/usr/lib/pkgconfig/skein_simd.pc"; then
    passed=$((passed + 1)); echo "ok: the /usr install's skein_simd.pc has no rpath"
else
    failed=$((failed + 1)); echo "FAIL: the /usr install's skein_simd.pc:"; cat "$dest/stage/usr/lib/pkgconfig/skein_simd.pc"
fi
echo "capi-link-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
