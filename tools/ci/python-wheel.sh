#!/usr/bin/env bash
# The distributable Python package, built and tested as a user gets it:
#   1. the sdist (maturin sdist), and the wheel built FROM that sdist with
#      maturin --zig for manylinux2014 (glibc 2.17) and the stable ABI
#      (cp39-abi3), in one release build;
#   2. the tags checked (file name, the WHEEL file, auditwheel show), the
#      libraries the extension needs, the licence texts in both (byte for
#      byte the repository's), the metadata's licence expression
#      (tools/ci/wheel-check.py);
#   3. the wheel installed into fresh venvs of TWO Python versions (python3,
#      and the first other of 3.12, 3.13, 3.10, 3.9 that is found: pyenv,
#      PATH, or else `uv python install 3.12`), each with pyskein 1.0 built
#      from its sdist; in each, python/tests (pytest) and pyskein 1.0's own
#      suite (tools/ci/pyskein-suite.sh) run against the INSTALLED package,
#      from a directory where the source tree cannot be imported.
# Fails on any failed check or test, on no test collected, and when no
# second Python can be had (never skips it).
#
# usage: bash tools/ci/python-wheel.sh
#   Environment: CARGO_TARGET_DIR (default: target/ of the repository);
#   PYTHON_WHEEL_TOOLS=DIR keeps the venv of the build tools there, for the
#   next run (default: a temp dir);
#   SKEINSUM=PATH: the skeinsum binary the Dask subtree test compares
#   with (required there; .ci/run passes the host tests' build);
#   PYTHON_WHEEL_OUT=DIR keeps the wheel and sdist there (default: a temp
#   dir, removed at the end). The release build is made cheap as in CI
#   (tools/ci/python-common.sh, which this script shares with
#   python-wheels-cross.sh) unless the caller set
#   CARGO_PROFILE_RELEASE_LTO / _CODEGEN_UNITS itself.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
script=python-wheel
# shellcheck source=python-common.sh
. "$repo/tools/ci/python-common.sh"
PIP=(-m pip install -q --disable-pip-version-check)

# --- Interpreters ------------------------------------------------------------

step "interpreters"
# python3 must make venvs and have the headers pyskein's C extension needs.
if ! python3 -c 'import ensurepip, sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    apt_install python3-venv python3-dev python3-pip || die "could not install python3-venv, python3-dev, python3-pip"
fi
py1="$(command -v python3)"
minor() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])'; }
v1="$(minor "$py1")"

# A usable interpreter of minor version $1: runs, makes venvs, has Python.h
# (pyskein builds C).
usable() {
    [ -x "$2" ] && [ "$(minor "$2" 2> /dev/null)" = "$1" ] \
        && "$2" -c 'import ensurepip, venv, sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2> /dev/null
}
# 3.8 is not a candidate: pyo3 0.30, and so the package, needs 3.9 or later.
find_second() {
    local v cand
    for v in 3.12 3.13 3.10 3.9; do
        [ "$v" = "$v1" ] && continue
        for cand in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/python"$v" "$(command -v "python$v" || true)"; do
            if usable "$v" "$cand"; then
                echo "$cand"
                return 0
            fi
        done
    done
    return 1
}
if ! py2="$(find_second)"; then
    echo "no second Python among 3.12, 3.13, 3.10, 3.9 (pyenv, PATH): trying uv python install 3.12"
    [ "$v1" != 3.12 ] || die "python3 is 3.12 and no other version was found; install one (pyenv install 3.13, or uv)"
    export UV_PYTHON_INSTALL_DIR="$work/uv-python"
    if python3 -m venv "$work/uv" && "$work/uv/bin/python" "${PIP[@]}" uv \
        && "$work/uv/bin/uv" python install 3.12; then
        py2="$("$work/uv/bin/uv" python find 3.12)"
    fi
    usable 3.12 "${py2:-}" || die "no second Python version: none of 3.12, 3.13, 3.10, 3.9 under pyenv or on PATH, and 'uv python install 3.12' failed (it downloads from GitHub); install one, e.g. with pyenv"
fi
v2="$(minor "$py2")"
echo "Pythons under test: $py1 ($v1), $py2 ($v2)"

# The test venvs (pytest, pyskein 1.0 compiled from its sdist) are made in the
# background while the wheel builds: mostly downloads.
make_venv() {
    "$1" -m venv "$2" && "$2/bin/python" "${PIP[@]}" pytest pyskein==1.0 "${@:3}"
}
# The first also gets Dask, for the subtree test on a LocalCluster
# (python/tests/test_subtree_dask.py; the second Python skips it).
make_venv "$py1" "$work/venv1" "dask[distributed]" > "$work/venv1.log" 2>&1 &
venv1_pid=$!
make_venv "$py2" "$work/venv2" > "$work/venv2.log" 2>&1 &
venv2_pid=$!

step "tools: maturin, ziglang, auditwheel"
tools_venv maturin ziglang auditwheel

# --- Build: the sdist, then the wheel from it --------------------------------

step "sdist (maturin sdist)"
build_sdist

step "wheel from the sdist (maturin build --release --zig --compatibility manylinux2014)"
build_wheel --zig --compatibility manylinux2014 -o "$dist"
wheels=("$dist"/skein_simd-*.whl)
[ ${#wheels[@]} = 1 ] && [ -f "${wheels[0]}" ] || die "expected one wheel in $dist: ${wheels[*]}"
wheel="${wheels[0]}"
ls -l "$sdist" "$wheel"

# --- Checks of the artifacts -------------------------------------------------

step "tags (auditwheel show, the WHEEL file), licences, metadata"
"$tools/python" "$repo/tools/ci/wheel-check.py" --sdist "$sdist" "$wheel" manylinux_2_17_x86_64

# --- The installed wheel under both Pythons ----------------------------------

# From an empty directory, so that nothing of python/ is importable; the
# tests are python/tests, the package is the venv's.
mkdir "$work/run"
install_in() {
    local venv="$1" pid="$2" log="$3" site
    step "venv $venv: $("$venv/bin/python" --version 2>&1 || true)"
    if ! wait "$pid"; then
        cat "$log"
        die "could not make the venv $venv (pytest, pyskein 1.0); its log is above"
    fi
    "$venv/bin/python" "${PIP[@]}" --no-deps "$wheel"
    site="$(cd "$work/run" && "$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"
    (cd "$work/run" && "$venv/bin/python" - "$site" <<'EOF'
import os, sys
import skein, skein_simd

site = os.path.realpath(sys.argv[1])
for m in (skein_simd, skein):
    if not os.path.realpath(m.__file__).startswith(site + os.sep):
        sys.exit(f"ERROR: python-wheel: {m.__name__} is imported from {m.__file__}, not from the venv ({site})")
print(f"skein_simd {skein_simd.__version__} from {skein_simd.__file__}: {skein_simd.platform()}")
EOF
    )
}
run_tests() {
    local venv="$1"
    # pyskein 1.0 allocates with PyMem_Malloc while it has released the GIL
    # (its tree mode): from Python 3.12 on, pymalloc's state is the
    # interpreter's and that crashes; the C allocator has no such state.
    if "$venv/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
        export PYTHONMALLOC=malloc
        echo "PYTHONMALLOC=malloc (pyskein 1.0's tree mode on Python 3.12 and later)"
    fi
    # With Dask (the first venv), its test must run, not skip.
    if [ "${2:-}" = dask ]; then
        export SKEIN_SIMD_TEST_DASK=1
        echo "SKEIN_SIMD_TEST_DASK=1, SKEINSUM=${SKEINSUM:-unset}"
    fi
    echo "--- python/tests against the installed wheel ($venv)"
    (cd "$work/run" && "$venv/bin/python" -m pytest -ra -p no:cacheprovider "$repo/python/tests")
    echo "--- pyskein 1.0's suite against the installed wheel ($venv)"
    bash "$repo/tools/ci/pyskein-suite.sh" "$venv/bin/python"
}
install_in "$work/venv1" "$venv1_pid" "$work/venv1.log"
install_in "$work/venv2" "$venv2_pid" "$work/venv2.log"
# Both at once: the suites wait more than they compute (subprocesses,
# signals, threads), so together they take little more than one.
step "tests on Python $v1 and $v2 (at once; the second's log follows the first's)"
# (Each in a background subshell, where `set -e` holds: in an `||` list it
# would not.)
(run_tests "$work/venv2") > "$work/tests2.log" 2>&1 &
tests2_pid=$!
(run_tests "$work/venv1" dask) &
tests1_pid=$!
rc1=0
wait "$tests1_pid" || rc1=$?
rc2=0
wait "$tests2_pid" || rc2=$?
echo "=== python-wheel: Python $v2 ($work/venv2), log:"
cat "$work/tests2.log"
[ "$rc1" = 0 ] || die "tests on Python $v1 failed (exit $rc1; log above)"
[ "$rc2" = 0 ] || die "tests on Python $v2 failed (exit $rc2; log above)"

step "done: $(basename "$wheel") and $(basename "$sdist") pass on Python $v1 and $v2"
