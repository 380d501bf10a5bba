#!/usr/bin/env bash
# Which backends a `no_std` build of skein-simd has, on the targets whose
# SIMD backends need the build script's probe (PowerPC, RISC-V). Without
# `std` there is no run-time detection: a SIMD backend is there exactly when
# the build's target features have its instruction set, so a no_std build
# for a G4 keeps AltiVec only with `-C target-feature=+altivec`
# (docs/powerpc.md, docs/riscv.md). Each case builds
# tests/no-std-backends (skein-simd without default features) for its
# target with its flags, and runs it under QEMU on the CPU of a run of
# tools/ci/targets.tsv: it prints the backends the build has, must list
# exactly the expected ones, and checks each against the specification's
# Skein-512-512 of FF.
#
# usage: bash tools/ci/no-std-backends.sh     (needs the rust targets, cross
#   linkers and QEMU of tools/ci/targets.tsv's ppc32, ppc64le and riscv64,
#   as .ci/run installs them)
#   Environment: CARGO_TARGET_DIR (default: target/ of the repository): each
#   case builds in a folder no-std-CASE of it (the flags differ, so a shared
#   one would compile the library again for every case in every run).
# Last line: "no-std-backends: N passed, M failed".
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
target_root="${CARGO_TARGET_DIR:-$repo/target}"
# The PowerPC and RISC-V vector intrinsics are unstable (docs/powerpc.md).
export RUSTC_BOOTSTRAP=1

passed=0 failed=0
# check CASE RUN RUSTFLAGS EXPECTED...: tests/no-std-backends built for RUN's
# target with RUSTFLAGS ("-": none) and run on RUN's CPU; it must have
# exactly the backends EXPECTED.
check() {
    local case="$1" run="$2" flags="$3" triple var
    shift 3
    triple="$(bash tools/ci/targets.sh env "$run" | sed -n 's/^export CARGO_TARGET_\(.*\)_LINKER=.*/\1/p')"
    var="CARGO_TARGET_${triple}_RUSTFLAGS"
    echo "=== no-std-backends: $case (run $run, rustflags ${flags}), expecting: $*"
    if (
        eval "$(bash tools/ci/targets.sh env "$run")"
        if [ "$flags" != - ]; then export "$var=$flags"; fi
        triple="$(tr 'A-Z_' 'a-z-' <<< "$triple")"
        CARGO_TARGET_DIR="$target_root/no-std-$case" cargo run -q --locked \
            --manifest-path tests/no-std-backends/Cargo.toml --target "$triple" -- "$@"
    ); then
        passed=$((passed + 1)) && echo "ok: $case"
    else
        failed=$((failed + 1)) && echo "FAIL: $case"
    fi
}
# ppc32: the target's baseline has no AltiVec, so only the flag brings it,
# on a 7450 as on any CPU.
check ppc32 ppc32-7450 - portable
check ppc32-altivec ppc32-7450 "-C target-feature=+altivec" portable altivec
# ppc64le: the target's baseline is POWER8, with VSX.
check ppc64le ppc64le-power9 - portable altivec vsx
# riscv64gc with V: the two-lane kernel; the four-lane one needs VLEN 256
# (read at run time, also without std), which this CPU (VLEN 128) lacks.
check riscv64-v riscv64-v128 "-C target-feature=+v" portable rvv
echo "no-std-backends: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
