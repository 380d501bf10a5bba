//! The even/odd layout of the SIMD single-stream backends (x86 and PowerPC),
//! derived once at compile time from the word permutation (through
//! [`crate::spec::slots`]) and the rotation table.
//!
//! Even words, the MIX addition targets, never move: lane k of the even
//! registers is word 2k. Odd lane k holds whichever odd word MIXes with word
//! 2k in the current round, so only the odd registers are permuted between
//! rounds. The permutations have order 4, so every four rounds (at each key
//! injection) both halves are back in the natural order.

use crate::spec::{rot, slots};

/// The odd word that MIXes with even word `e` in round `d`, and the MIX's index.
pub(crate) const fn mix_of<const W: usize>(d: usize, e: usize) -> (usize, usize) {
    let slot = slots::<W>()[d % 4];
    let mut j = 0;
    while j < W / 2 {
        if slot[2 * j] == e {
            return (slot[2 * j + 1], j);
        }
        j += 1;
    }
    panic!("not an even word")
}

/// Even word `2k` in even lane `k`: the natural order of the even words.
const fn natural_evens<const W: usize>() -> [usize; 8] {
    let mut even = [0usize; 8];
    let mut k = 0;
    while k < W / 2 {
        even[k] = 2 * k;
        k += 1;
    }
    even
}

/// The odd word in odd lane `k` during round `d`, when even lane `k` holds
/// even word `even[k]`.
pub(crate) const fn odd_word_in<const W: usize>(even: &[usize; 8], d: usize, k: usize) -> usize {
    mix_of::<W>(d, even[k]).0
}

/// The rotation applied to odd lane `k` in round `d`.
pub(crate) const fn lane_rot<const W: usize>(d: usize, k: usize) -> u32 {
    rot::<W>(d, mix_of::<W>(d, 2 * k).1)
}

/// The odd lane of round `d` whose word goes to odd lane `k` in round `d + 1`,
/// when even lane `k` holds even word `even[k]`.
pub(crate) const fn odd_source_in<const W: usize>(even: &[usize; 8], d: usize, k: usize) -> usize {
    let word = odd_word_in::<W>(even, d + 1, k);
    let mut i = 0;
    while i < W / 2 {
        if odd_word_in::<W>(even, d, i) == word {
            return i;
        }
        i += 1;
    }
    panic!("odd words are a permutation")
}

/// The odd lane of round `d` whose word goes to odd lane `k` in round `d + 1`
/// (evens in natural order).
pub(crate) const fn odd_source<const W: usize>(d: usize, k: usize) -> usize {
    odd_source_in::<W>(&natural_evens::<W>(), d, k)
}

/// Position of extended-key word `i` in the order 0, 2, 4, ..., W, 1, 3,
/// ..., W-1 (steps of 2 modulo W+1). Subkey `s` adds key words s+i to
/// word i, so its even words sit at positions `key_pos(s)`, +1, +2, ...
/// and its odd words at `key_pos(s + 1)`, +1, ...
pub(crate) const fn key_pos<const W: usize>(i: usize) -> usize {
    (i % (W + 1)) * ((W + 2) / 2) % (W + 1)
}

/// [`lane_rot`] for rounds 0..8 (the rotation table repeats every 8 rounds),
/// per lane, padded to 8 lanes.
#[cfg(any(skein_simd_x86, skein_simd_wasm32))]
pub(crate) const fn lane_rotations<const W: usize>() -> [[u32; 8]; 8] {
    let mut r = [[0u32; 8]; 8];
    let mut d = 0;
    while d < 8 {
        let mut k = 0;
        while k < W / 2 {
            r[d][k] = lane_rot::<W>(d, k);
            k += 1;
        }
        d += 1;
    }
    r
}

/// [`odd_source`] for rounds 0..4 (the layout repeats every 4 rounds), per
/// lane, padded to 8 lanes: lane k of the odd half after round d is lane
/// `odd_permutations()[d % 4][k]` before it.
#[cfg(any(skein_simd_x86, skein_simd_wasm32))]
pub(crate) const fn odd_permutations<const W: usize>() -> [[usize; 8]; 4] {
    let mut p = [[0usize; 8]; 4];
    let mut d = 0;
    while d < 4 {
        let mut k = 0;
        while k < W / 2 {
            p[d][k] = odd_source::<W>(d, k);
            k += 1;
        }
        d += 1;
    }
    p
}
