//! The portable backend: the block function in plain Rust, around the fully
//! unrolled cipher of [`crate::threefish`].

use crate::spec::{advance_tweak, T1_FIRST};
use crate::threefish::{encrypt_words_with, key_schedule, tweak_schedule, SUBKEY_NUMBERS};

pub(crate) mod lanes;

/// The portable backend needs no detection: a `Token` is always there (its
/// `Isa` implementation is in `lanes.rs`, beside the lane kernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token;

/// Hide `value` from the optimizer on 64-bit targets (see `compress`).
#[inline(always)]
fn opaque_on_64_bit<T>(value: T) -> T {
    if cfg!(target_pointer_width = "64") {
        core::hint::black_box(value)
    } else {
        value
    }
}

/// The block function: for each block of `8 * W` bytes, advance the tweak
/// position by `bytes_per_block`, set `chain = E(chain, tweak, block) ^ block`
/// and clear the tweak's first-block flag.
#[inline(always)]
pub(crate) fn compress<const W: usize>(
    chain: &mut [u64; W],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    debug_assert_eq!(blocks.len() % (8 * W), 0);
    let numbers = core::hint::black_box(SUBKEY_NUMBERS);
    for block in blocks.chunks_exact(8 * W) {
        let mut m = [0u64; W];
        for (word, bytes) in m.iter_mut().zip(block.chunks_exact(8)) {
            *word = u64::from_le_bytes(bytes.try_into().unwrap());
        }
        *tweak = advance_tweak(*tweak, bytes_per_block);
        // On 64-bit targets, opaque to the optimizer: otherwise LLVM
        // re-derives the parity word and the tweak carry inside the rounds
        // and reassociates them into the critical path (measured:
        // docs/x86-64.md). On 32-bit targets the barrier forces the
        // schedule through memory and costs more than it saves (ppc32
        // instruction counts: docs/powerpc.md).
        let ks = opaque_on_64_bit(key_schedule(chain));
        let ts = opaque_on_64_bit(tweak_schedule(tweak));
        let mut x = m;
        encrypt_words_with::<W>(&ks, &ts, &numbers, &mut x);
        for i in 0..W {
            chain[i] = x[i] ^ m[i];
        }
        tweak[1] &= !T1_FIRST;
    }
}

/// [`compress`] out of line: one instance per state size keeps the unrolled
/// code out of every caller and gives benchmarks and disassembly a symbol
/// to look at.
#[inline(never)]
pub(crate) fn block_function<const W: usize>(
    chain: &mut [u64; W],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    compress::<W>(chain, tweak, blocks, bytes_per_block)
}
