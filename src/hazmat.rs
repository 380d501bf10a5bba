//! Sharp tools: block-level access for code that keeps the Skein state
//! itself, as plain data, such as the C library (`capi/`), whose contexts C
//! programs copy with `=` or `memcpy` and whose tweak words they set
//! directly (tree hashing in the reference's calling convention). The rest
//! of the crate keeps its state private; these five functions are the
//! whole seam ([`compress`], [`compress_then_output`] for a UBI's last
//! blocks and the first output block in one call, [`config_chain`],
//! [`output`] for the output stage, and [`many_continuing`] for many
//! messages that continue one such state on the multi-lane kernels), with
//! [`BlockType`] for the type field of the tweak.
//!
//! Stability: these items follow semantic versioning like the rest of the
//! crate, but nothing here checks that a state is one Skein could reach
//! (tweak flags, positions, the order of blocks): a wrong state gives a
//! wrong digest, not an error. Most users want [`Skein`](crate::Skein) and
//! [`SkeinMany`](crate::SkeinMany).
//!
//! ```
//! use skein_simd::{hazmat, hazmat::BlockType, Platform};
//! // Skein-256-256 of the empty message, UBI by UBI (spec 3.5).
//! let platform = Platform::detect();
//! let mut chain = hazmat::config_chain::<4>(&platform, &[0; 4], 256, 0);
//! let (first, last) = (1 << 62, 1 << 63); // tweak word 1 flags
//! let mut tweak = [0, first | last | (BlockType::Message as u64) << 56]; // the one block
//! hazmat::compress::<4>(&platform, &mut chain, &mut tweak, &[0; 32], 0);
//! let mut out_tweak = [0, first | last | (BlockType::Output as u64) << 56];
//! hazmat::compress::<4>(&platform, &mut chain, &mut out_tweak, &[0; 32], 8);
//! let mut digest = [0u8; 32];
//! for (bytes, word) in digest.chunks_exact_mut(8).zip(chain) {
//!     bytes.copy_from_slice(&word.to_le_bytes());
//! }
//! assert_eq!(digest.to_vec(), skein_simd::Skein256::hash_vec(256, b""));
//! ```

use crate::spec::iv;
use crate::Platform;

/// Test hook (cfg `skein_simd_test_hooks`, set only inside this repository): one call of a backend's multi-lane
/// kernel, for the conformance tests.
#[cfg(skein_simd_test_hooks)]
pub use crate::backend::lanes::compress_lanes;
pub use crate::spec::BlockType;
#[cfg(feature = "alloc")]
pub use crate::tree::subtree::proof::{ProofError, SubtreeProof};
#[cfg(feature = "alloc")]
pub use crate::tree::subtree::{ObjectTree, SubtreeHasher, SubtreeRange, Subtrees};

/// The UBI block step on `platform`'s backend for `W`-word states (4, 8 or
/// 16): for each block of `8 * W` bytes in `blocks`, advance the tweak
/// position by `bytes_per_block`, set `chain = Threefish(chain, tweak, block)
/// ^ block`, and clear the tweak's first-block flag. The position is the
/// specification's 96 bits (word 0 carries into the low half of word 1).
///
/// # Panics
/// If `blocks.len()` is not a multiple of `8 * W`.
#[inline]
pub fn compress<const W: usize>(
    platform: &Platform,
    chain: &mut [u64; W],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    const { assert!(W == 4 || W == 8 || W == 16, "Skein has 4, 8 or 16 words") };
    assert_eq!(
        blocks.len() % (8 * W),
        0,
        "hazmat::compress: whole blocks only"
    );
    platform.compress::<W>(chain, tweak, blocks, bytes_per_block);
}

/// [`compress`] of a UBI's last blocks (the final one with its final flag
/// set), then the first block of the output stage (spec 3.5.3) from the
/// chaining value they leave: `out` gets the first `out.len()` bytes of
/// `UBI(chain, counter 0, Output)`, which are the digest of a hash of at
/// most `8 * W` output bytes. `chain` and `tweak` end as after
/// [`compress`]. One call of the block function where the backend keeps
/// the chain in registers from one block to the next (x86-64's assembly):
/// the common end of such a hash.
///
/// An `out` of exactly `8 * W` bytes is written in place. A shorter one
/// gets a prefix of the block made on the stack, which is wiped
/// afterwards (it holds the rest of the output block).
///
/// # Panics
/// If `blocks.len()` is not a multiple of `8 * W`, or `out` is longer than
/// one block (`8 * W` bytes).
///
/// ```
/// use skein_simd::{hazmat, hazmat::BlockType, Platform, Skein512};
/// let platform = Platform::detect();
/// let mut chain = hazmat::config_chain::<8>(&platform, &[0; 8], 256, 0);
/// let (first, last) = (1 << 62, 1 << 63); // tweak word 1 flags
/// let mut tweak = [0, first | last | (BlockType::Message as u64) << 56];
/// let mut block = [0u8; 64];
/// block[..3].copy_from_slice(b"abc");
/// // Skein-512-256: 32 bytes of the 64-byte output block.
/// let mut digest = [0u8; 32];
/// hazmat::compress_then_output::<8>(&platform, &mut chain, &mut tweak, &block, 3, &mut digest);
/// assert_eq!(digest.to_vec(), Skein512::hash_vec(256, b"abc"));
/// ```
#[inline]
pub fn compress_then_output<const W: usize>(
    platform: &Platform,
    chain: &mut [u64; W],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
    out: &mut [u8],
) {
    const { assert!(W == 4 || W == 8 || W == 16, "Skein has 4, 8 or 16 words") };
    assert_eq!(
        blocks.len() % (8 * W),
        0,
        "hazmat::compress_then_output: whole blocks only"
    );
    assert!(
        out.len() <= 8 * W,
        "hazmat::compress_then_output: out longer than one block ({} bytes)",
        8 * W
    );
    platform.compress_then_output::<W>(chain, tweak, blocks, bytes_per_block, out);
}

/// The chaining value after the configuration UBI (spec 3.5.2), starting
/// from `chain` (all zero without a key, else the key UBI's result), for an
/// output of `output_bits` bits and the tree word `tree_info`
/// (`leaf | fan_out << 8 | max_height << 16`, 0 for sequential hashing; any
/// value is hashed as given, as the reference code does). Precomputed for the
/// common unkeyed sequential sizes. Inlined: a caller's all-zero `chain`
/// and tree word fold away, leaving the table look-up (the C library's
/// `Init`, about 50 instructions less than a call).
#[inline]
pub fn config_chain<const W: usize>(
    platform: &Platform,
    chain: &[u64; W],
    output_bits: u64,
    tree_info: u64,
) -> [u64; W] {
    const { assert!(W == 4 || W == 8 || W == 16, "Skein has 4, 8 or 16 words") };
    if tree_info == 0 && chain.iter().all(|&w| w == 0) {
        if let Some(precomputed) = iv::lookup::<W>(output_bits) {
            return precomputed;
        }
    }
    config_chain_computed::<W>(platform, chain, output_bits, tree_info)
}

/// The configuration UBI of [`config_chain`] through the block function,
/// out of line so that the look-up above stays small enough to inline.
#[inline(never)]
fn config_chain_computed<const W: usize>(
    platform: &Platform,
    chain: &[u64; W],
    output_bits: u64,
    tree_info: u64,
) -> [u64; W] {
    crate::ubi::config_ubi::<W>(platform, chain, output_bits, tree_info)
}

/// The output stage (spec 3.5.3) from the final chaining value `chain`:
/// `out.len()` bytes, block `i` of them `UBI(chain, i as 8 little-endian
/// bytes, Output)`, the last one truncated. The one-shot hashes' own path:
/// one block-function call a block for short outputs, the multi-lane kernel
/// (and threads) for long ones.
///
/// ```
/// use skein_simd::{hazmat, Platform, Skein256};
/// let platform = Platform::detect();
/// let mut chain = hazmat::config_chain::<4>(&platform, &[0; 4], 256, 0);
/// let tweak = (1 << 62) | (1 << 63) | (hazmat::BlockType::Message as u64) << 56;
/// hazmat::compress::<4>(&platform, &mut chain, &mut [0, tweak], &[0; 32], 0);
/// let mut digest = [0u8; 32];
/// hazmat::output::<4>(&platform, &chain, &mut digest);
/// assert_eq!(digest.to_vec(), Skein256::hash_vec(256, b""));
/// ```
pub fn output<const W: usize>(platform: &Platform, chain: &[u64; W], out: &mut [u8]) {
    const { assert!(W == 4 || W == 8 || W == 16, "Skein has 4, 8 or 16 words") };
    crate::ubi::output::<W>(platform, chain, out)
}

/// A [`SkeinMany`](crate::SkeinMany) whose messages continue one UBI state kept as plain
/// data, hashed on `platform`'s multi-lane kernel: the state is `chain` and
/// `tweak` after the blocks compressed so far, with `buffered` (at most one
/// block, `8 * W` bytes) not compressed yet, as the reference code keeps a
/// context. Digest `i` of its `hash_many_*`, `ceil(output_bits / 8)` bytes,
/// is what appending message `i` to a copy of the state, then the final
/// block and the output stage (spec 3.5.3) give. The tweak is used as given
/// (its flags, type, tree level and 96-bit position).
///
/// # Panics
/// If `buffered` is longer than a block.
///
/// ```
/// use skein_simd::{hazmat, Platform, Skein256};
/// let platform = Platform::detect();
/// let chain = hazmat::config_chain::<4>(&platform, &[0; 4], 256, 0);
/// // A fresh message UBI: position 0, first-block flag, type Message.
/// let tweak = [0, 1 << 62 | (hazmat::BlockType::Message as u64) << 56];
/// let many = hazmat::many_continuing::<4>(&platform, &chain, tweak, b"ab", 256);
/// let digests = many.hash_many_vec(&[&b"c"[..], b""]);
/// assert_eq!(digests[0], Skein256::hash_vec(256, b"abc"));
/// assert_eq!(digests[1], Skein256::hash_vec(256, b"ab"));
/// ```
#[cfg(feature = "alloc")]
pub fn many_continuing<const W: usize>(
    platform: &Platform,
    chain: &[u64; W],
    tweak: [u64; 2],
    buffered: &[u8],
    output_bits: u64,
) -> crate::SkeinMany<W> {
    const { assert!(W == 4 || W == 8 || W == 16, "Skein has 4, 8 or 16 words") };
    assert!(
        buffered.len() <= 8 * W,
        "hazmat::many_continuing: at most one block buffered"
    );
    crate::SkeinMany::from_state(*platform, chain, tweak, buffered, output_bits)
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`. Hidden: `raw` is
/// public, so without it they would show in its documentation.
#[cfg(skein_simd_test_hooks)]
#[doc(hidden)]
pub mod checks {
    use super::*;
    use crate::Backend;

    /// The configuration chain computed through a backend equals the slow one.
    pub fn config_chain_matches_the_precomputed_ivs_when_computed() {
        // A non-zero tree word skips the table; the same block computed
        // through the backend must then equal what the table would give for
        // the word 0 computed the slow way (a zero key chain is not special
        // to the block function).
        let p = Platform::force(Backend::Portable).unwrap();
        for bits in [128, 160, 224, 256] {
            let fast = config_chain::<4>(&p, &[0; 4], bits, 0);
            let slow = crate::ubi::config_chain::<4>(bits, 0, 0, 0);
            assert_eq!(fast, slow);
        }
        let tree = config_chain::<8>(&p, &[0; 8], 512, 0x02_0101);
        assert_eq!(tree, crate::ubi::config_chain::<8>(512, 1, 1, 2));
        let odd = config_chain::<16>(&p, &[0; 16], 1000, 0);
        assert_eq!(odd, crate::ubi::config_chain::<16>(1000, 0, 0, 0));
    }

    /// Panics (`whole blocks`) on data that is not whole blocks.
    pub fn compress_rejects_partial_blocks() {
        let p = Platform::detect();
        compress::<8>(&p, &mut [0; 8], &mut [0; 2], &[0; 65], 64);
    }
}
