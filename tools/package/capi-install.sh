#!/usr/bin/env bash
# Build and install libskein_simd (capi/) the way cargo-c's `cargo cinstall`
# lays a C library out, for machines without cargo-c (building cargo-c itself
# takes longer than this whole script):
#
#   tools/package/capi-install.sh [--prefix=/usr/local] [--libdir=DIR] [--includedir=DIR] [--destdir=DIR]
#
# installs
#   LIBDIR/libskein_simd.so.0.1.0, .so.0 and .so (SONAME libskein_simd.so.0)
#   LIBDIR/libskein_simd.a
#   INCLUDEDIR/skein_simd/{skein.h,skein_port.h,SHA3api_ref.h,skein_simd.h}
#   LIBDIR/pkgconfig/skein_simd.pc
#   PREFIX/share/doc/skein_simd/{LICENSE-MIT,LICENSE-APACHE}
# so that `pkg-config --cflags --libs skein_simd` (add --static for the
# archive) gives what a C program needs. DESTDIR is prepended to every path
# written, not to the paths inside the .pc file.
#
# Any prefix works with only PKG_CONFIG_PATH=LIBDIR/pkgconfig set: unless
# LIBDIR is one of the system's own (/lib*, /usr/lib*), the .pc file's Libs
# carry -Wl,-rpath,LIBDIR, so a program linked through pkg-config finds
# libskein_simd.so.0 at run time without LD_LIBRARY_PATH or ldconfig.
#
# The library is built as users of the published crates get it: without
# this repository's test hooks (SKEIN_SIMD_TEST_HOOKS=0), so a target
# directory shared with the tests' builds compiles the library again each
# time (CI gives it the Debian packages' one, whose builds are the same).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
# No test-only code in an installed library: .cargo/config.toml turns the
# hooks on for every build inside this repository, and the environment wins
# over that file.
export SKEIN_SIMD_TEST_HOOKS=0

prefix=/usr/local
libdir=""
includedir=""
destdir=""
for arg in "$@"; do
    case "$arg" in
        --prefix=*) prefix="${arg#*=}" ;;
        --libdir=*) libdir="${arg#*=}" ;;
        --includedir=*) includedir="${arg#*=}" ;;
        --destdir=*) destdir="${arg#*=}" ;;
        *) echo "capi-install.sh: unknown argument '$arg'" >&2; exit 2 ;;
    esac
done
libdir="${libdir:-$prefix/lib}"
includedir="${includedir:-$prefix/include}"

version="$(sed -n 's/^version = "\(.*\)"/\1/p' capi/Cargo.toml | head -n 1)"
major="${version%%.*}"

# One build with the SONAME; rustc prints the system libraries a static link
# needs (they go into Libs.private).
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
cargo rustc --release -p skein-simd-capi --lib -- \
    -C "link-arg=-Wl,-soname,libskein_simd.so.$major" --print native-static-libs 2> "$log" || { cat "$log" >&2; exit 1; }
static_libs="$(sed -n 's/.*native-static-libs: //p' "$log" | tail -n 1)"
target_dir="$(cargo metadata -q --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
out="${target_dir:-$repo/target}/release"

install -d "$destdir$libdir/pkgconfig" "$destdir$includedir/skein_simd"
install -m 644 "$out/libskein_simd.a" "$destdir$libdir/"
install -m 755 "$out/libskein_simd.so" "$destdir$libdir/libskein_simd.so.$version"
ln -sf "libskein_simd.so.$version" "$destdir$libdir/libskein_simd.so.$major"
ln -sf "libskein_simd.so.$major" "$destdir$libdir/libskein_simd.so"
install -m 644 capi/include/*.h "$destdir$includedir/skein_simd/"
install -d "$destdir$prefix/share/doc/skein_simd"
install -m 644 LICENSE-MIT LICENSE-APACHE "$destdir$prefix/share/doc/skein_simd/"

# The system's library directories are searched anyway (and distributions
# forbid an rpath to them); any other needs one for programs to run.
rpath=""
case "$libdir" in
    /lib | /lib/* | /lib32 | /lib64 | /usr/lib | /usr/lib/* | /usr/lib32 | /usr/lib64) ;;
    *) rpath=" -Wl,-rpath,\${libdir}" ;;
esac

cat > "$destdir$libdir/pkgconfig/skein_simd.pc" <<EOF
prefix=$prefix
exec_prefix=\${prefix}
libdir=$libdir
includedir=$includedir

Name: skein_simd
Description: Skein 1.3 hash family with SIMD backends: the reference C API, the NIST SHA-3 API and batch hashing
Version: $version
Libs: -L\${libdir}$rpath -lskein_simd
Libs.private: $static_libs
Cflags: -I\${includedir}/skein_simd
EOF
echo "installed libskein_simd $version into $destdir$prefix (pkg-config: $libdir/pkgconfig/skein_simd.pc)"
