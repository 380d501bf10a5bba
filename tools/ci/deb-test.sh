#!/usr/bin/env bash
# The Debian packages as users install them: build them with
# tools/package/deb.sh, check them with lintian (an error fails; warnings
# are printed), install them with `apt-get install ./*.deb`, then with no
# variable set but PATH (env -i):
#   - `command -v skeinsum` is /usr/bin/skeinsum, its --self-test passes,
#     and it prints the Skein 1.3 specification's Skein-512-512 of the byte
#     0xFF (appendix C); `man -w skeinsum` finds the man page; the bash
#     completion defines `complete -F ... skeinsum`; the zsh and fish files
#     are where those shells look;
#   - `pkg-config --modversion skein_simd` is the crates' version, and the
#     C examples of capi/examples/ (skein512.c, the reference API;
#     skein512_libmd.c, FreeBSD libmd's functions) built with
#     `cc $(pkg-config --cflags --libs skein_simd)` print that digest, need
#     the SONAME libskein_simd.so.0 and have no run path; built against the
#     static library (libskein_simd.a and `pkg-config --static`), they need
#     no libskein_simd.so;
#   - each package has /usr/share/doc/PACKAGE/copyright.
# Then removes the packages again (apt-get purge), whatever happened.
#
# usage: bash tools/ci/deb-test.sh     (as root, or with sudo; installs
#        dpkg-dev, lintian, man-db, pkg-config, gcc, binutils when missing)
# Environment: CARGO_TARGET_DIR (the release builds; see deb.sh).
# Last line: "deb-test: N passed, M failed".
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
# shellcheck source=apt.sh
. tools/ci/apt.sh
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"

need=()
for p in dpkg-dev lintian man-db pkg-config gcc binutils; do
    dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    apt_install "${need[@]}" || { echo "deb-test: could not install ${need[*]}" >&2; exit 1; }
fi

dir="$(mktemp -d)"
# apt reads the .deb files as its own user (_apt).
chmod 755 "$dir"
packages=()
cleanup() {
    if [ ${#packages[@]} -gt 0 ]; then
        $sudo apt-get -o DPkg::Lock::Timeout=600 purge -y -q "${packages[@]}" > /dev/null || true
    fi
    rm -rf "$dir"
}
trap cleanup EXIT

echo "=== deb-test: building the packages (tools/package/deb.sh)"
bash tools/package/deb.sh --out="$dir/debs" > "$dir/list"
mapfile -t debs < "$dir/list"
for d in "${debs[@]}"; do
    echo "--- $(basename "$d")"
    dpkg-deb --info "$d" | sed -n '/^ Package:/,$p'
    dpkg-deb --contents "$d"
done

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# expect WHAT GOT WANT
expect() { if [ "$2" = "$3" ]; then pass "$1: $2"; else fail "$1: '$2', not '$3'"; fi; }

echo "=== deb-test: lintian"
# --fail-on error: warnings are printed and do not fail; docs/c-api.md
# lists the ones left and why.
if lintian --fail-on error --tag-display-limit 0 --display-info "${debs[@]}"; then
    pass "lintian reports no errors"
else
    fail "lintian reports errors (above)"
fi

echo "=== deb-test: apt-get install ./*.deb"
for d in "${debs[@]}"; do
    packages+=("$(dpkg-deb --field "$d" Package)")
done
(cd "$dir/debs" && $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends ./*.deb)

version="$(sed -n 's/^version = "\(.*\)"/\1/p' capi/Cargo.toml | head -n 1)"
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
want=71b7bce6fe6452227b9ced6014249e5bf9a9754c3ad618ccc4e0aae16b316cc8ca698d864307ed3e80b6ef1570812ac5272dc409b5a012df2a579102f340617a
# Nothing but PATH: no PKG_CONFIG_PATH, LD_LIBRARY_PATH, MANPATH.
clean() { env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/nonexistent "$@"; }

expect "command -v skeinsum" "$(clean sh -c 'command -v skeinsum')" /usr/bin/skeinsum
if clean skeinsum --self-test; then pass "skeinsum --self-test"; else fail "skeinsum --self-test"; fi
expect "skeinsum on FF" "$(printf '\377' | clean skeinsum || true)" "$want  -"
# (A path-exclude in /etc/dpkg/dpkg.cfg.d/, as in some container images,
# would leave the man page out.)
expect "man -w skeinsum" "$(clean man -w skeinsum 2>&1 || true)" /usr/share/man/man1/skeinsum.1.gz
# shellcheck disable=SC2016
if clean bash -c '. /usr/share/bash-completion/completions/skeinsum && complete -p skeinsum' | grep -q -- '-F .* skeinsum$'; then
    pass "the bash completion completes skeinsum"
else
    fail "the bash completion does not complete skeinsum"
fi
for f in /usr/share/zsh/vendor-completions/_skeinsum /usr/share/fish/vendor_completions.d/skeinsum.fish; do
    if [ -s "$f" ]; then pass "$f"; else fail "$f missing"; fi
done
for p in "${packages[@]}"; do
    f="/usr/share/doc/$p/copyright"
    if grep -q '^License: MIT or Apache-2.0$' "$f" && grep -q 'Permission is hereby granted' "$f" \
        && grep -q '/usr/share/common-licenses/Apache-2.0' "$f"; then
        pass "$f: MIT or Apache-2.0, with the texts"
    else
        fail "$f: no licence texts"
    fi
done

expect "pkg-config --modversion skein_simd" "$(clean pkg-config --modversion skein_simd 2>&1 || true)" "$version"
expect "SONAME of /usr/lib/$multiarch/libskein_simd.so.$version" \
    "$(readelf -d "/usr/lib/$multiarch/libskein_simd.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" libskein_simd.so.0
printf '\377' > "$dir/ff"
for example in skein512 skein512_libmd; do
    cp "capi/examples/$example.c" "$dir/"
    # shellcheck disable=SC2016
    if ! clean sh -c 'cd "$1" && cc -std=c99 -Wall -o "$2-dynamic" "$2.c" $(pkg-config --cflags --libs skein_simd)' _ "$dir" "$example"; then
        fail "$example: cc \$(pkg-config --cflags --libs skein_simd)"
        continue
    fi
    # shellcheck disable=SC2016
    clean sh -c 'cd "$1" && cc -std=c99 -Wall -o "$2-static" "$2.c" $(pkg-config --cflags skein_simd) "/usr/lib/$3/libskein_simd.a" $(pkg-config --static --libs-only-l skein_simd | sed "s/-lskein_simd//")' \
        _ "$dir" "$example" "$multiarch" || fail "$example: static link"
    for kind in dynamic static; do
        exe="$dir/$example-$kind"
        [ -x "$exe" ] || continue
        expect "$example-$kind on FF" "$(clean "$exe" < "$dir/ff" || true)" "$want"
        needed="$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(libskein_simd.*\)\]/\1/p')"
        runpath="$(readelf -d "$exe" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p')"
        case "$kind" in
            dynamic) expect "$example-dynamic needs" "$needed" libskein_simd.so.0 ;;
            static) expect "$example-static needs a shared libskein_simd" "${needed:-no}" no ;;
        esac
        expect "$example-$kind's run path" "${runpath:-none}" none
    done
done
expect "skein512_libmd on a file" "$(cd "$dir" && { clean ./skein512_libmd-dynamic ff || true; })" "SKEIN512 (ff) = $want"

echo "deb-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
