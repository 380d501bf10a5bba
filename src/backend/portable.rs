//! The portable backend: plain Rust, fully unrolled.
//!
//! Words are never moved between rounds: each round names its MIX operands
//! through the compile-time slot table of [`crate::consts::slots`], so after
//! inlining every index, rotation count and subkey index is a constant and the
//! state lives in registers. Subkeys are formed on the fly from the extended
//! key and tweak (no subkey table, no modulo at run time).

use crate::consts::{rot, slots, T1_FIRST};
use crate::threefish::{key_schedule, tweak_schedule, KeySchedule};

#[inline(always)]
fn round<const W: usize, const D: usize>(x: &mut [u64; W]) {
    let slot = const { slots::<W>()[D % 4] };
    for j in 0..W / 2 {
        let (a, b) = (slot[2 * j], slot[2 * j + 1]);
        x[a] = x[a].wrapping_add(x[b]);
        x[b] = x[b].rotate_left(rot::<W>(D, j)) ^ x[a];
    }
}

/// The subkey numbers 0..=20 (the last subkey word adds its number).
pub(crate) const SUBKEY_NUMBERS: [u64; 21] = {
    let mut n = [0u64; 21];
    let mut s = 0;
    while s < 21 {
        n[s] = s as u64;
        s += 1;
    }
    n
};

/// Add subkey `s`. The subkey number comes from `numbers` rather than a
/// literal: given a literal, LLVM moves the `+ s` to the end of the sum, onto
/// the state word's dependency chain (one more cycle per injection).
#[inline(always)]
fn inject<const W: usize>(x: &mut [u64; W], ks: &KeySchedule, ts: &[u64; 3], numbers: &[u64; 21], s: usize) {
    for i in 0..W {
        let mut k = ks[(s + i) % (W + 1)];
        if i == W - 3 {
            k = k.wrapping_add(ts[s % 3]);
        } else if i == W - 2 {
            k = k.wrapping_add(ts[(s + 1) % 3]);
        } else if i == W - 1 && s > 0 {
            k = k.wrapping_add(numbers[s]);
        }
        x[i] = x[i].wrapping_add(k);
    }
}

/// Eight rounds starting at a multiple of eight, followed by subkeys S+1 and S+2.
#[inline(always)]
fn eight_rounds<const W: usize, const S: usize>(x: &mut [u64; W], ks: &KeySchedule, ts: &[u64; 3], n: &[u64; 21]) {
    round::<W, 0>(x);
    round::<W, 1>(x);
    round::<W, 2>(x);
    round::<W, 3>(x);
    inject::<W>(x, ks, ts, n, S + 1);
    round::<W, 4>(x);
    round::<W, 5>(x);
    round::<W, 6>(x);
    round::<W, 7>(x);
    inject::<W>(x, ks, ts, n, S + 2);
}

/// Threefish encryption of `x` in place, all rounds unrolled.
#[inline(always)]
pub(crate) fn encrypt_words<const W: usize>(ks: &KeySchedule, ts: &[u64; 3], x: &mut [u64; W]) {
    encrypt_words_with::<W>(ks, ts, &SUBKEY_NUMBERS, x)
}

/// As `encrypt_words`, with the subkey numbers supplied (see `inject`).
#[inline(always)]
fn encrypt_words_with<const W: usize>(ks: &KeySchedule, ts: &[u64; 3], n: &[u64; 21], x: &mut [u64; W]) {
    inject::<W>(x, ks, ts, n, 0);
    eight_rounds::<W, 0>(x, ks, ts, n);
    eight_rounds::<W, 2>(x, ks, ts, n);
    eight_rounds::<W, 4>(x, ks, ts, n);
    eight_rounds::<W, 6>(x, ks, ts, n);
    eight_rounds::<W, 8>(x, ks, ts, n);
    eight_rounds::<W, 10>(x, ks, ts, n);
    eight_rounds::<W, 12>(x, ks, ts, n);
    eight_rounds::<W, 14>(x, ks, ts, n);
    eight_rounds::<W, 16>(x, ks, ts, n);
    if W == 16 {
        eight_rounds::<W, 18>(x, ks, ts, n);
    }
}

/// The block function: for each block of `8 * W` bytes, advance the tweak
/// position by `bytes_per_block`, set `chain = E(chain, tweak, block) ^ block`
/// and clear the tweak's first-block flag.
#[inline(always)]
pub(crate) fn compress<const W: usize>(chain: &mut [u64; W], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
    debug_assert_eq!(blocks.len() % (8 * W), 0);
    let numbers = core::hint::black_box(SUBKEY_NUMBERS);
    for block in blocks.chunks_exact(8 * W) {
        let mut m = [0u64; W];
        for (word, bytes) in m.iter_mut().zip(block.chunks_exact(8)) {
            *word = u64::from_le_bytes(bytes.try_into().unwrap());
        }
        let (t0, carry) = tweak[0].overflowing_add(bytes_per_block);
        tweak[0] = t0;
        tweak[1] = tweak[1].wrapping_add(carry as u64);
        // Opaque to the optimizer: otherwise LLVM re-derives the parity word
        // and the tweak carry inside the rounds and reassociates them into
        // the critical path (measured: Skein-256 ~2x slower).
        let ks = core::hint::black_box(key_schedule(chain));
        let ts = core::hint::black_box(tweak_schedule(tweak));
        let mut x = m;
        encrypt_words_with::<W>(&ks, &ts, &numbers, &mut x);
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
