# Sourced by the scripts that run skein-simd's tests and skeinsum on an
# emulated target (qemu-test.sh, skeinsum-32bit.sh).
#
# build_tests_and_skeinsum TARGET PROFILE: skein-simd's library and test
# binaries and skeinsum's binary, in one cargo invocation, so that skeinsum
# and the tests use one build of skein-simd (built apart, skeinsum gets
# skein-simd with its default features and its dependencies digest, subtle
# and zeroize without the features skein-simd's dev-dependencies turn on).
# Run skeinsum as "$(skeinsum_bin TARGET PROFILE)", not with `cargo run`,
# which would resolve the features again.
#
# Not yet a saving: the `cargo test -p skein-simd` that follows in
# qemu-test.sh resolves those dependencies' features without skeinsum's
# dev-dependencies and compiles the library once more, so each target still
# compiles it twice. Running the test binaries this build lists under QEMU,
# instead of a second cargo invocation, would make it one.
build_tests_and_skeinsum() {
    cargo build -p skein-simd -p skeinsum --profile "$2" --target "$1" --lib --bins --tests
}
skeinsum_bin() {
    echo "${CARGO_TARGET_DIR:-$repo/target}/$1/$2/skeinsum"
}
