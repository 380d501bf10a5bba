//! # skein-simd
//!
//! The complete Skein 1.3 hash family — Skein-256, -512 and -1024 with any
//! output length, bit-granular messages, MAC keys, personalization, public
//! key, key identifier (KDF), nonce and tree hashing — plus Threefish as a
//! cipher, with block-function backends chosen at run time.
//!
//! ```
//! use skein_simd::{Params, Skein512};
//!
//! // Plain hashing: Skein-512-256.
//! let digest = Skein512::hash_vec(256, b"The quick brown fox");
//! assert_eq!(digest.len(), 32);
//!
//! // Every argument of the specification.
//! let params = Params::new().output_bits(384).key(b"key").personalization(b"app v1").nonce(b"n");
//! let mut h = Skein512::with_params(&params).unwrap();
//! h.update(b"The quick ");
//! h.update(b"brown fox");
//! assert_eq!(h.finalize_vec().len(), 48);
//! ```
//!
//! Layout (docs/design.md has the file table):
//!
//! * `spec` the specification's constants, `threefish` the cipher, `ubi`
//!   the chaining mode, `params` its arguments, `state_size` the three
//!   state sizes as a value;
//! * `hasher` and `dyn_hasher` the streaming hashers, `output` the output
//!   stage as a stream, `saved_state` their saved-state formats,
//!   `digest_impl` the RustCrypto traits;
//! * multi-lane hashing: `schedule` the scheduler that keeps the lanes of
//!   a multi-lane kernel busy, on which `tree` (tree hashing), `many`
//!   (`hash_many`, with its equal-length path) and `ubi`'s long outputs
//!   run; the kernels themselves and their seam are `backend::lanes`;
//! * `hazmat` the block-level seam for plain-data states;
//! * `backend` the block functions, one folder per instruction set, with
//!   what they plug into (`backend::dispatch`) and the one table that
//!   lists them (`backend/mod.rs`).
#![cfg_attr(not(feature = "std"), no_std)]
// The unstable features of the backends that need them, per architecture
// (build.rs's `POWERPC_FEATURES`, `RISCV_FEATURES` and, with std,
// `POWERPC_STD_FEATURES` and `RISCV_STD_FEATURES`, which its probe tries;
// a gate is known only on the targets, and in the builds, that have its
// items: std's detection gates not in a `no_std` build).
#![cfg_attr(
    all(
        skein_simd_nightly,
        any(target_arch = "powerpc", target_arch = "powerpc64")
    ),
    feature(
        stdarch_powerpc,
        powerpc_target_feature,
        portable_simd,
        core_intrinsics,
        asm_experimental_arch
    ),
    allow(internal_features)
)]
#![cfg_attr(
    all(
        skein_simd_nightly,
        any(target_arch = "powerpc", target_arch = "powerpc64"),
        feature = "std"
    ),
    feature(stdarch_powerpc_feature_detection)
)]
#![cfg_attr(
    all(skein_simd_nightly, target_arch = "riscv64"),
    feature(portable_simd, core_intrinsics, riscv_target_feature),
    allow(internal_features)
)]
#![cfg_attr(
    all(skein_simd_nightly, target_arch = "riscv64", feature = "std"),
    feature(stdarch_riscv_feature_detection)
)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs, unreachable_pub)]
// Index loops over constant word counts are how the unrolled rounds are written.
#![allow(clippy::needless_range_loop)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod backend;
#[cfg(any(feature = "digest", feature = "digest010"))]
mod digest_impl;
mod dyn_hasher;
mod hasher;
pub mod hazmat;
#[cfg(feature = "alloc")]
mod many;
mod output;
mod params;
#[cfg(any(feature = "alloc", feature = "digest"))]
mod saved_state;
mod schedule;
mod spec;
mod state_size;
#[cfg(skein_simd_test_hooks)]
mod test_rng;
mod threefish;
#[cfg(feature = "alloc")]
mod tree;
mod ubi;

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): the checks of the crate's
/// internals, each beside the code it checks, run as tests by
/// `tests/suite/internals.rs`. The library has no unit-test harness, so
/// that a test build compiles it once (Cargo.toml, `[lib]`).
#[cfg(skein_simd_test_hooks)]
#[doc(hidden)]
pub mod internal_checks {
    #[cfg(skein_simd_aarch64)]
    pub use crate::backend::aarch64::neon::checks as neon;
    pub use crate::backend::checks as backend;
    #[cfg(skein_simd_riscv)]
    pub use crate::backend::riscv::rvv::checks as rvv;
    #[cfg(skein_simd_x86)]
    pub use crate::backend::x86::asm::checks as asm;
    pub use crate::hazmat::checks as hazmat;
    pub use crate::many::checks as many;
    pub use crate::output::checks as output;
    pub use crate::params::checks as params;
    pub use crate::schedule::checks as schedule;
    pub use crate::tree::checks as tree;
    pub use crate::ubi::checks as ubi;
}

#[cfg(skein_simd_test_hooks)]
pub use backend::LaneForm;
pub use backend::{Backend, Platform};
#[cfg(feature = "digest")]
pub use digest;
#[cfg(feature = "digest010")]
pub use digest010;
#[cfg(any(feature = "digest", feature = "digest010"))]
pub use digest_impl::*;
pub use dyn_hasher::DynSkein;
pub use hasher::{Skein, Skein1024, Skein256, Skein512};
#[cfg(feature = "alloc")]
pub use many::{SkeinMany, SkeinMany1024, SkeinMany256, SkeinMany512};
pub use output::{mask_unused_bits, DynOutputReader, OutputReader};
#[cfg(feature = "alloc")]
pub use params::OwnedParams;
pub use params::{Params, TreeParams};
#[cfg(feature = "alloc")]
pub use saved_state::StateError;
pub use state_size::StateSize;
pub use threefish::{Threefish, Threefish1024, Threefish256, Threefish512};

/// Why a hasher could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An output length of 0 bits.
    ZeroOutputBits,
    /// Tree parameters outside Yl >= 1, Yf >= 1, 2 <= Ym <= 255.
    InvalidTree,
    /// Tree hashing was asked for in a build without the `alloc` feature.
    TreeNeedsAlloc,
    /// The backend is not in this build or not supported by this CPU.
    BackendUnavailable(Backend),
    /// An output length in bytes of 0 or beyond
    /// [`SkeinVar::MAX_OUTPUT_SIZE`].
    InvalidOutputSize,
    /// An output buffer whose length is not the hasher's output length.
    InvalidBufferSize,
    /// Subtree hashing ([`hazmat::ObjectTree`]) with parameters that have
    /// no tree.
    NoTree,
    /// A subtree range, its bytes or its chaining values that do not fit
    /// the object's tree (level, position, count or length).
    SubtreeMismatch,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::ZeroOutputBits => f.write_str("output length must be at least 1 bit"),
            Error::InvalidTree => f.write_str(
                "tree parameters must satisfy leaf >= 1, fan-out >= 1, 2 <= height <= 255",
            ),
            Error::TreeNeedsAlloc => f.write_str("tree hashing needs the `alloc` feature"),
            Error::BackendUnavailable(b) => write!(
                f,
                "backend `{b}` is not available on this CPU or in this build"
            ),
            Error::InvalidOutputSize => f.write_str("output length out of range"),
            Error::InvalidBufferSize => {
                f.write_str("output buffer length differs from the output length")
            }
            Error::NoTree => f.write_str("subtree hashing needs tree parameters"),
            Error::SubtreeMismatch => {
                f.write_str("subtree range, bytes or values do not fit the object's tree")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// Skein-256-256 of `data`.
///
/// ```
/// assert_eq!(skein_simd::hash256(b"").len(), 32);
/// ```
pub fn hash256(data: &[u8]) -> [u8; 32] {
    hash_whole_state::<4, 32>(data)
}

/// Skein-512-512 of `data`.
///
/// ```
/// assert_eq!(skein_simd::hash512(b"").len(), 64);
/// ```
pub fn hash512(data: &[u8]) -> [u8; 64] {
    hash_whole_state::<8, 64>(data)
}

/// Skein-1024-1024 of `data`.
///
/// ```
/// assert_eq!(skein_simd::hash1024(b"").len(), 128);
/// ```
pub fn hash1024(data: &[u8]) -> [u8; 128] {
    hash_whole_state::<16, 128>(data)
}

/// Skein with a `W`-word state and an output of the state's size (`N`
/// bytes, `8 * W`).
fn hash_whole_state<const W: usize, const N: usize>(data: &[u8]) -> [u8; N] {
    let mut out = [0; N];
    Skein::<W>::hash_into(8 * N as u64, data, &mut out);
    out
}
