#!/usr/bin/env bash
# Build the Debian packages of skeinsum and libskein_simd for this machine's
# architecture:
#
#   tools/package/deb.sh [--out=DIR]     (default DIR: debian/ in the cargo target directory)
#
# writes DIR/skeinsum_V_ARCH.deb, DIR/libskein-simd0_V_ARCH.deb and
# DIR/libskein-simd-dev_V_ARCH.deb (V: the version of skeinsum/Cargo.toml
# and capi/Cargo.toml, which the workspace keeps equal) and prints their
# paths, one a line, last:
#   - skeinsum: /usr/bin/skeinsum, its man page, bash, zsh and fish
#     completions;
#   - libskein-simd0: the shared library, SONAME libskein_simd.so.0 (the
#     package is named after the SONAME, as Debian policy asks), with a
#     shlibs file and the ldconfig trigger;
#   - libskein-simd-dev: the headers (/usr/include/skein_simd/), the static
#     library, the libskein_simd.so link and skein_simd.pc;
#   - each with /usr/share/doc/PACKAGE/copyright (tools/package/deb-copyright.py:
#     the licences of the project and of every crate linked in) and
#     changelog.gz.
#
# Built from a staged tree with dpkg-deb, not cargo-deb: the library is laid
# out by tools/package/capi-install.sh (one place for its layout and .pc
# file), one crate gives two packages (runtime and -dev), Depends come from
# dpkg-shlibdeps and the control files from dpkg-gencontrol (dpkg-dev), and
# nothing needs building first (cargo-deb is not packaged for Debian 12;
# `cargo install cargo-deb` compiles for minutes). The native version is
# the crates' version as it is (no Debian revision).
#
# The builds are made without the repository's test hooks
# (SKEIN_SIMD_TEST_HOOKS=0), so a target directory shared with the tests'
# builds would compile the library again each time: give this its own.
# Needs: cargo, dpkg-dev (dpkg-shlibdeps, dpkg-gencontrol, dpkg-architecture),
# binutils (strip, readelf), python3, gzip. Release builds (cargo's release
# profile; CARGO_TARGET_DIR and CARGO_PROFILE_RELEASE_* as usual).
# Environment: DEBFULLNAME and DEBEMAIL (as dch reads them) name the
# Maintainer; SOURCE_DATE_EPOCH (default: the time of the last commit) the
# changelog's date and the files' times, so the same commit gives the same
# packages.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
# shellcheck source=../ci/target-dir.sh
. tools/ci/target-dir.sh

out=""
for arg in "$@"; do
    case "$arg" in
        --out=*) out="${arg#*=}" ;;
        *) echo "deb.sh: unknown argument '$arg'" >&2; exit 2 ;;
    esac
done
out="${out:-$target_dir/debian}"

die() {
    echo "deb.sh: $*" >&2
    exit 1
}
for tool in dpkg-shlibdeps dpkg-gencontrol dpkg-architecture dpkg-deb strip readelf python3 gzip; do
    command -v "$tool" > /dev/null || die "needs $tool (apt-get install dpkg-dev binutils python3 gzip)"
done

crate_version() { sed -n 's/^version = "\(.*\)"/\1/p' "$1" | head -n 1; }
version="$(crate_version capi/Cargo.toml)"
[ "$(crate_version skeinsum/Cargo.toml)" = "$version" ] \
    || die "skeinsum/Cargo.toml and capi/Cargo.toml give different versions; the packages share one"
homepage="$(sed -n 's/^homepage = "\(.*\)"/\1/p' capi/Cargo.toml | head -n 1)"
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH)"
maintainer="${DEBFULLNAME:-The skein-simd developers} <${DEBEMAIL:-skein-simd@users.noreply.github.com}>"
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH="$(git log -1 --format=%ct 2> /dev/null || date +%s)"
fi
export SOURCE_DATE_EPOCH
# What users get: the library without this repository's test hooks
# (.cargo/config.toml turns them on for every build in it; the environment
# wins over that file).
export SKEIN_SIMD_TEST_HOOKS=0
umask 022

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The layout dpkg-dev's tools expect: debian/control and debian/changelog,
# and each package's tree in debian/PACKAGE.
src="$work/skein-simd"
deb="$src/debian"
mkdir -p "$deb" "$out"

# ---- Builds ------------------------------------------------------------------

cargo build --release --locked -p skeinsum
bash tools/package/capi-install.sh --prefix=/usr --libdir="/usr/lib/$multiarch" --destdir="$work/capi" > /dev/null
capi="$work/capi"
libdir="usr/lib/$multiarch"

soname="$(readelf -d "$capi/$libdir/libskein_simd.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[ -n "$soname" ] || die "libskein_simd.so.$version has no SONAME"
# Debian policy 8.1: libNAME.so.N is in the package libNAMEN (libNAME-N when
# NAME ends in a digit), lower case, '_' written '-'.
stem="${soname%%.so.*}" somajor="${soname##*.so.}"
case "$stem" in *[0-9]) libpkg="$stem-$somajor" ;; *) libpkg="$stem$somajor" ;; esac
libpkg="$(tr '_A-Z' '-a-z' <<< "$libpkg")"
devpkg="$(tr '_A-Z' '-a-z' <<< "$stem")-dev"

# ---- The staged trees --------------------------------------------------------

# As dh_strip does: no symbol tables or .comment/.note in programs and
# shared libraries, no debugging sections in static ones.
strip_program() { strip --remove-section=.comment --remove-section=.note "$@"; }
strip_shared() { strip --remove-section=.comment --remove-section=.note --strip-unneeded "$@"; }
strip_static() { strip --strip-debug --remove-section=.comment --remove-section=.note --enable-deterministic-archives "$@"; }

p="$deb/skeinsum"
install -D -m 755 "$target_dir/release/skeinsum" "$p/usr/bin/skeinsum"
strip_program "$p/usr/bin/skeinsum"
install -d "$p/usr/share/man/man1"
gzip -9n < skeinsum/doc/skeinsum.1 > "$p/usr/share/man/man1/skeinsum.1.gz"
install -D -m 644 skeinsum/completions/skeinsum.bash "$p/usr/share/bash-completion/completions/skeinsum"
install -D -m 644 skeinsum/completions/_skeinsum "$p/usr/share/zsh/vendor-completions/_skeinsum"
install -D -m 644 skeinsum/completions/skeinsum.fish "$p/usr/share/fish/vendor_completions.d/skeinsum.fish"

p="$deb/$libpkg"
install -d "$p/$libdir"
cp -P "$capi/$libdir/libskein_simd.so.$version" "$capi/$libdir/$soname" "$p/$libdir/"
strip_shared "$p/$libdir/libskein_simd.so.$version"
# (Debian's shared libraries are not executable.)
chmod 644 "$p/$libdir/libskein_simd.so.$version"
install -d "$p/DEBIAN"
# Programs linked against it need this package at this version or later
# (dpkg-shlibdeps reads it); ldconfig runs once dpkg is done.
echo "$stem $somajor $libpkg (>= $version)" > "$p/DEBIAN/shlibs"
echo "activate-noawait ldconfig" > "$p/DEBIAN/triggers"

p="$deb/$devpkg"
install -d "$p/$libdir/pkgconfig" "$p/usr/include"
cp -P "$capi/$libdir/libskein_simd.so" "$capi/$libdir/libskein_simd.a" "$p/$libdir/"
strip_static "$p/$libdir/libskein_simd.a"
install -m 644 "$capi/$libdir/pkgconfig/skein_simd.pc" "$p/$libdir/pkgconfig/"
cp -r "$capi/usr/include/skein_simd" "$p/usr/include/"
# (capi-install.sh's share/doc/skein_simd/ licence texts are in each
# package's copyright file instead.)

# ---- Control files -------------------------------------------------------------

desc_common=" skein-simd implements the Skein 1.3 hash family (Skein-256, Skein-512,
 Skein-1024: hashing, MAC, tree hashing, any output length) with SIMD
 backends chosen for the CPU at run time."
cat > "$deb/control" <<EOF
Source: skein-simd
Section: libs
Priority: optional
Maintainer: $maintainer
Standards-Version: 4.6.2
Homepage: $homepage
Rules-Requires-Root: no

Package: skeinsum
Architecture: any
Section: utils
Depends: \${shlibs:Depends}
Description: print or check Skein checksums
$desc_common
 .
 skeinsum prints and checks Skein checksums in the manner of sha256sum,
 b3sum and FreeBSD's skein512: many files on all cores, large files
 memory-mapped, directories walked with -r, keyed hashing, tree hashing of
 one file on several threads, and one file's digest computed in parts on
 several machines.

Package: $libpkg
Architecture: any
Multi-Arch: same
Depends: \${shlibs:Depends}
Description: Skein 1.3 hash family with SIMD backends (shared library)
$desc_common
 .
 libskein_simd provides the Skein reference API (skein.h), the NIST SHA-3
 API (SHA3api_ref.h), FreeBSD libmd's SKEIN256/512/1024 functions and
 batch hashing on the SIMD lanes (skein_simd.h).
 .
 This package contains the shared library.

Package: $devpkg
Architecture: any
Multi-Arch: same
Section: libdevel
Depends: $libpkg (= \${binary:Version})
Description: Skein 1.3 hash family with SIMD backends (development files)
$desc_common
 .
 libskein_simd provides the Skein reference API (skein.h), the NIST SHA-3
 API (SHA3api_ref.h), FreeBSD libmd's SKEIN256/512/1024 functions and
 batch hashing on the SIMD lanes (skein_simd.h).
 .
 This package contains the headers, the static library and the pkg-config
 file (skein_simd).
EOF

commit="$(git rev-parse --short HEAD 2> /dev/null || echo unknown)"
cat > "$deb/changelog" <<EOF
skein-simd ($version) unstable; urgency=medium

  * Built from the skein-simd repository at commit $commit; the project's
    changes are in its CHANGELOG.md.

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
EOF

python3 tools/package/deb-copyright.py skeinsum > "$work/copyright-skeinsum"
python3 tools/package/deb-copyright.py skein-simd-capi > "$work/copyright-capi"

cd "$src"
for pkg in skeinsum "$libpkg" "$devpkg"; do
    p="debian/$pkg"
    case "$pkg" in skeinsum) copyright=skeinsum ;; *) copyright=capi ;; esac
    install -D -m 644 "$work/copyright-$copyright" "$p/usr/share/doc/$pkg/copyright"
    # A native package's Debian changelog is changelog.gz (policy 12.7).
    gzip -9n < debian/changelog > "$p/usr/share/doc/$pkg/changelog.gz"
    # (dpkg-shlibdeps finds a package's tree by its DEBIAN directory.)
    install -d "$p/DEBIAN"
    : > "debian/$pkg.substvars"
    case "$pkg" in
        skeinsum) dpkg-shlibdeps -T"debian/$pkg.substvars" "$p/usr/bin/skeinsum" ;;
        "$libpkg") dpkg-shlibdeps -T"debian/$pkg.substvars" "$p/$libdir/libskein_simd.so.$version" ;;
    esac
    dpkg-gencontrol -p"$pkg" -P"$p" -T"debian/$pkg.substvars" -f"$work/files"
    (cd "$p" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$p/DEBIAN/md5sums"
    chmod 644 "$p/DEBIAN/"*
    dpkg-deb --root-owner-group -Zxz --build "$p" "$out" > /dev/null
done
cd "$repo"
arch="$(dpkg-architecture -qDEB_HOST_ARCH)"
for pkg in skeinsum "$libpkg" "$devpkg"; do
    echo "$out/${pkg}_${version}_$arch.deb"
done
