//! The portable backend: plain Rust, fully unrolled.
//!
//! Words are never moved between rounds: each round names its MIX operands
//! through the compile-time slot table of [`crate::consts::slots`], so after
//! inlining every index, rotation count and subkey index is a constant and the
//! state lives in registers. Subkeys are formed on the fly from the extended
//! key and tweak (no subkey table, no modulo at run time).

use crate::consts::{rot, slots, T1_FIRST};
use crate::threefish::{key_schedule, subkey_word, tweak_schedule, KeySchedule};

#[inline(always)]
fn round<const W: usize, const D: usize>(x: &mut [u64; W]) {
    let slot = const { slots::<W>()[D % 4] };
    for j in 0..W / 2 {
        let (a, b) = (slot[2 * j], slot[2 * j + 1]);
        x[a] = x[a].wrapping_add(x[b]);
        x[b] = x[b].rotate_left(rot::<W>(D, j)) ^ x[a];
    }
}

#[inline(always)]
fn inject<const W: usize>(x: &mut [u64; W], ks: &KeySchedule, ts: &[u64; 3], s: usize) {
    for i in 0..W {
        x[i] = x[i].wrapping_add(subkey_word::<W>(ks, ts, s, i));
    }
}

/// Eight rounds starting at a multiple of eight, followed by subkeys S+1 and S+2.
#[inline(always)]
fn eight_rounds<const W: usize, const S: usize>(x: &mut [u64; W], ks: &KeySchedule, ts: &[u64; 3]) {
    round::<W, 0>(x);
    round::<W, 1>(x);
    round::<W, 2>(x);
    round::<W, 3>(x);
    inject::<W>(x, ks, ts, S + 1);
    round::<W, 4>(x);
    round::<W, 5>(x);
    round::<W, 6>(x);
    round::<W, 7>(x);
    inject::<W>(x, ks, ts, S + 2);
}

/// Threefish encryption of `x` in place, all rounds unrolled.
#[inline(always)]
pub(crate) fn encrypt_words<const W: usize>(ks: &KeySchedule, ts: &[u64; 3], x: &mut [u64; W]) {
    inject::<W>(x, ks, ts, 0);
    eight_rounds::<W, 0>(x, ks, ts);
    eight_rounds::<W, 2>(x, ks, ts);
    eight_rounds::<W, 4>(x, ks, ts);
    eight_rounds::<W, 6>(x, ks, ts);
    eight_rounds::<W, 8>(x, ks, ts);
    eight_rounds::<W, 10>(x, ks, ts);
    eight_rounds::<W, 12>(x, ks, ts);
    eight_rounds::<W, 14>(x, ks, ts);
    eight_rounds::<W, 16>(x, ks, ts);
    if W == 16 {
        eight_rounds::<W, 18>(x, ks, ts);
    }
}

/// The block function: for each block of `8 * W` bytes, advance the tweak
/// position by `bytes_per_block`, set `chain = E(chain, tweak, block) ^ block`
/// and clear the tweak's first-block flag.
#[inline(always)]
pub(crate) fn compress<const W: usize>(chain: &mut [u64; W], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
    debug_assert_eq!(blocks.len() % (8 * W), 0);
    for block in blocks.chunks_exact(8 * W) {
        let mut m = [0u64; W];
        for (word, bytes) in m.iter_mut().zip(block.chunks_exact(8)) {
            *word = u64::from_le_bytes(bytes.try_into().unwrap());
        }
        let (t0, carry) = tweak[0].overflowing_add(bytes_per_block);
        tweak[0] = t0;
        tweak[1] = tweak[1].wrapping_add(carry as u64);
        let ks = key_schedule(chain);
        let ts = tweak_schedule(tweak);
        let mut x = m;
        encrypt_words::<W>(&ks, &ts, &mut x);
        for i in 0..W {
            chain[i] = x[i] ^ m[i];
        }
        tweak[1] &= !T1_FIRST;
    }
}

// One non-generic instance per state size keeps the unrolled code out of every
// caller and gives benchmarks and disassembly a symbol to look at.
#[inline(never)]
pub(crate) fn compress_256(chain: &mut [u64; 4], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
    compress::<4>(chain, tweak, blocks, bytes_per_block)
}
#[inline(never)]
pub(crate) fn compress_512(chain: &mut [u64; 8], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
    compress::<8>(chain, tweak, blocks, bytes_per_block)
}
#[inline(never)]
pub(crate) fn compress_1024(chain: &mut [u64; 16], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
    compress::<16>(chain, tweak, blocks, bytes_per_block)
}
