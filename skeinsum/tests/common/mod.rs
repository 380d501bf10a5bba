//! Shared by skeinsum's test files: the binary under test, the test hooks
//! it must not inherit, RustCrypto's digests and the deterministic contents
//! of test files.
#![allow(dead_code)]

use assert_cmd::Command;
use skein::digest::consts::{U128, U32, U48, U64};
use skein::Digest;

/// The binary under test: this package's, or `SKEINSUM_TEST_BIN` (another
/// build of it, e.g. an older one to show that a new test fails there).
pub static BIN: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    std::env::var("SKEINSUM_TEST_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_skeinsum").to_string())
});

/// The test-hook variables (`skeinsum/src/testing.rs`), removed from every
/// run that does not set one on purpose.
pub const HOOKS: [&str; 4] = [
    "SKEINSUM_TEST_PAUSE",
    "SKEINSUM_TEST_MAP_WINDOW",
    "SKEINSUM_TEST_REFUSE_MAP",
    "SKEINSUM_TEST_REFUSE_THREAD",
];

/// The binary with no test hook set.
pub fn skeinsum() -> Command {
    let mut cmd = Command::new(&*BIN);
    for hook in HOOKS {
        cmd.env_remove(hook);
    }
    cmd
}

/// Skein-STATE-OUT of `data` by the RustCrypto `skein` crate.
pub fn rustcrypto_digest(state: u32, out_bits: u32, data: &[u8]) -> Vec<u8> {
    match (state, out_bits) {
        (256, 256) => skein::Skein256::<U32>::digest(data).to_vec(),
        (512, 256) => skein::Skein512::<U32>::digest(data).to_vec(),
        (512, 384) => skein::Skein512::<U48>::digest(data).to_vec(),
        (512, 512) => skein::Skein512::<U64>::digest(data).to_vec(),
        (1024, 384) => skein::Skein1024::<U48>::digest(data).to_vec(),
        (1024, 512) => skein::Skein1024::<U64>::digest(data).to_vec(),
        (1024, 1024) => skein::Skein1024::<U128>::digest(data).to_vec(),
        _ => panic!("no reference for Skein-{state}-{out_bits}"),
    }
}

/// Deterministic non-trivial bytes.
pub fn pattern(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12345);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 11) as u8
        })
        .collect()
}
