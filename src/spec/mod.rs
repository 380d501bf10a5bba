//! Constants of the Skein 1.3 specification: rotation amounts, word
//! permutations, the key-schedule parity constant, tweak fields and the
//! precomputed chaining values of the common (state, output) pairs.
//!
//! Everything here is `const`: the IV table ([`iv`]) is computed by the
//! compiler from the configuration block (`ubi::config_chain`, a `const fn`),
//! and a test checks it against the values printed in the specification.

/// Key-schedule parity constant C240 (spec 3.3.2).
pub(crate) const C240: u64 = 0x1BD1_1BDA_A9FC_1A22;

/// Rotation amounts `R[d mod 8][j]` of Threefish-256 (spec table 4).
pub(crate) const ROT_256: [[u32; 2]; 8] = [
    [14, 16],
    [52, 57],
    [23, 40],
    [5, 37],
    [25, 33],
    [46, 12],
    [58, 22],
    [32, 32],
];

/// Rotation amounts of Threefish-512.
pub(crate) const ROT_512: [[u32; 4]; 8] = [
    [46, 36, 19, 37],
    [33, 27, 14, 42],
    [17, 49, 36, 39],
    [44, 9, 54, 56],
    [39, 30, 34, 24],
    [13, 50, 10, 17],
    [25, 29, 39, 43],
    [8, 35, 56, 22],
];

/// Rotation amounts of Threefish-1024.
pub(crate) const ROT_1024: [[u32; 8]; 8] = [
    [24, 13, 8, 47, 8, 17, 22, 37],
    [38, 19, 10, 55, 49, 18, 23, 52],
    [33, 4, 51, 13, 34, 41, 59, 17],
    [5, 20, 48, 41, 47, 28, 16, 25],
    [41, 9, 37, 31, 12, 47, 44, 30],
    [16, 34, 56, 51, 4, 53, 42, 41],
    [31, 44, 47, 46, 19, 42, 44, 25],
    [9, 48, 35, 52, 23, 31, 37, 20],
];

/// Word permutations pi (spec table 3): after a round, word `i` is the old word `pi[i]`.
pub(crate) const PERM_256: [usize; 4] = [0, 3, 2, 1];
/// Word permutation of Threefish-512.
pub(crate) const PERM_512: [usize; 8] = [2, 1, 4, 7, 6, 5, 0, 3];
/// Word permutation of Threefish-1024.
pub(crate) const PERM_1024: [usize; 16] = [0, 9, 2, 13, 6, 11, 4, 15, 10, 7, 12, 3, 14, 5, 8, 1];

/// Largest block: Skein-1024's 128 bytes.
pub(crate) const MAX_BLOCK_BYTES: usize = 128;

/// Number of Threefish rounds for a state of `words` 64-bit words.
pub(crate) const fn rounds(words: usize) -> usize {
    if words == 16 {
        80
    } else {
        72
    }
}

/// Rotation amount of MIX `j` in round `d` for a state of `W` words.
#[inline(always)]
pub(crate) const fn rot<const W: usize>(d: usize, j: usize) -> u32 {
    match W {
        4 => ROT_256[d % 8][j],
        8 => ROT_512[d % 8][j],
        _ => ROT_1024[d % 8][j],
    }
}

/// Word permutation pi of a state of `W` words: word `i` after a round is the old word `perm(i)`.
pub(crate) const fn perm<const W: usize>(i: usize) -> usize {
    match W {
        4 => PERM_256[i],
        8 => PERM_512[i],
        _ => PERM_1024[i],
    }
}

/// Where logical word `i` of round `d mod 4` sits if words are never moved:
/// `SLOT[d % 4][i]`. The permutations have order 4, so the table repeats
/// and every subkey injection sees the identity layout.
pub(crate) const fn slots<const W: usize>() -> [[usize; 16]; 4] {
    let mut t = [[0usize; 16]; 4];
    let mut i = 0;
    while i < W {
        t[0][i] = i;
        i += 1;
    }
    let mut d = 1;
    while d < 4 {
        let mut i = 0;
        while i < W {
            t[d][i] = t[d - 1][perm::<W>(i)];
            i += 1;
        }
        d += 1;
    }
    t
}

// Tweak word 1 fields (spec 3.5.1): bits 112..118 tree level, 119 bit pad,
// 120..125 type, 126 first, 127 final; word 0 and the low 32 bits of word 1
// are the 96-bit position.
/// Tree level field shift within tweak word 1.
pub(crate) const T1_LEVEL_SHIFT: u32 = 48;
/// Bit-padding flag within tweak word 1.
pub(crate) const T1_BIT_PAD: u64 = 1 << 55;
/// Type field shift within tweak word 1.
pub(crate) const T1_TYPE_SHIFT: u32 = 56;
/// "First block of this UBI" flag within tweak word 1.
pub(crate) const T1_FIRST: u64 = 1 << 62;
/// "Final block of this UBI" flag within tweak word 1.
pub(crate) const T1_FINAL: u64 = 1 << 63;

/// `tweak` with its position advanced by `bytes`: word 0 plus `bytes`,
/// the carry into word 1.
#[inline(always)]
pub(crate) const fn advance_tweak(tweak: [u64; 2], bytes: u64) -> [u64; 2] {
    if cfg!(target_pointer_width = "64") {
        // One 128-bit addition: add-with-carry (64-bit PowerPC: `addic`,
        // `addze`), also when `bytes` is a constant, where the form below
        // computes the carry as a comparison.
        let t = ((tweak[1] as u128) << 64 | tweak[0] as u128).wrapping_add(bytes as u128);
        [t as u64, (t >> 64) as u64]
    } else {
        // On 32-bit targets a 128-bit addition is four words: more
        // instructions than this (ppc32 `portable` Skein-1024 +0.3%).
        let (t0, carry) = tweak[0].overflowing_add(bytes);
        [t0, tweak[1].wrapping_add(carry as u64)]
    }
}

/// The type of a UBI, the field of tweak bits 120..125 (spec 3.5.1, table
/// 6): `ty as u64` is its value, shifted left by 56 in tweak word 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockType {
    /// The MAC key (`K`).
    Key = 0,
    /// The configuration block.
    Config = 4,
    /// The personalization string.
    Personalization = 8,
    /// The public key.
    PublicKey = 12,
    /// The key identifier (KDF).
    KeyId = 16,
    /// The nonce.
    Nonce = 20,
    /// The message.
    Message = 48,
    /// The output stage.
    Output = 63,
}

pub(crate) mod iv;
