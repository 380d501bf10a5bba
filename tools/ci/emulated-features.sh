# Sourced by the scripts that run skein-simd's tests and skeinsum on an
# emulated target (qemu-test.sh, skeinsum-32bit.sh).
#
# build_tests_and_skeinsum TARGET PROFILE: skein-simd's library and test
# binaries and skeinsum's binary, in one cargo invocation, so that both use
# one build of skein-simd. Built apart, skeinsum would get skein-simd with
# its default features and its dependencies (digest, subtle, zeroize)
# without the features skein-simd's dev-dependencies turn on, so cargo
# compiled the library a second time for every target, which with CI's one
# job took minutes each (the SIMD kernels are most of the compile time). A
# later `cargo test -p skein-simd` with the same profile and target finds
# everything built; run skeinsum as "$(skeinsum_bin TARGET PROFILE)", not
# with `cargo run`, which would resolve the features again.
build_tests_and_skeinsum() {
    cargo build -p skein-simd -p skeinsum --profile "$2" --target "$1" --lib --bins --tests
}
skeinsum_bin() {
    echo "${CARGO_TARGET_DIR:-$repo/target}/$1/$2/skeinsum"
}
