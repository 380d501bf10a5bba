//! VSX multi-lane kernel for POWER8 and later (64-bit PowerPC, either byte
//! order): two computations at once, one per 64-bit lane of a vector
//! register.
//!
//! Row `j` (one register) holds word `j` of both states, so a Threefish
//! round is `W/2` `vaddudm`, `W/2` `vrld` (one count for both lanes) and `W/2`
//! `xxlxor`, and the word permutation is only a renaming of registers: none
//! of the `xxpermdi` moves the single-stream VSX code needs between rounds.
//! Message blocks are transposed into rows as they are loaded (`xxpermdi`).
//!
//! As in the single-stream module (`vsx.rs`), `core::arch::powerpc64` has no
//! 64-bit vector arithmetic, so the generic SIMD intrinsics stand in for it
//! and LLVM lowers them to the POWER8 instructions; and since LLVM inlines on
//! PowerPC only between functions with the same target features, every
//! helper carries `power8-vector`. Seam: the "many lanes" section of
//! `platform.rs`.

// Index loops follow the numbering of words and lanes in the specification.
#![allow(clippy::needless_range_loop)]

use crate::backend::lanes_portable::lane_threefish;
use crate::consts::T1_FIRST;
use crate::platform::LaneState;
use core::arch::powerpc64::vector_unsigned_long;
use core::intrinsics::simd::{simd_add, simd_and, simd_funnel_shl, simd_lt, simd_shuffle, simd_sub, simd_xor};
use core::mem::transmute;
use core::simd::Simd;

type D = vector_unsigned_long;

/// Computations per call: two 64-bit lanes of a vector register.
pub(crate) const LANES: usize = 2;

/// Proof that this CPU has POWER8 vector instructions (the single-stream
/// VSX backend's detection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token(super::vsx::Token);

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        super::vsx::Token::detect().map(Token)
    }
}

#[target_feature(enable = "power8-vector")]
#[inline]
fn splat(v: u64) -> D {
    // SAFETY: two u64 are the 16 bytes of the vector.
    unsafe { transmute([v, v]) }
}

#[target_feature(enable = "power8-vector")]
#[inline]
fn add(a: D, b: D) -> D {
    // SAFETY: a lane-wise add; POWER8 vectors are enabled (`vaddudm`).
    unsafe { simd_add(a, b) }
}

#[target_feature(enable = "power8-vector")]
#[inline]
fn xor(a: D, b: D) -> D {
    // SAFETY: a lane-wise xor.
    unsafe { simd_xor(a, b) }
}

/// Rotate both lanes left by `r`: one `vrld` (a funnel shift of a word with
/// itself is a rotation).
#[target_feature(enable = "power8-vector")]
#[inline]
fn rol(a: D, r: u32) -> D {
    // SAFETY: a lane-wise funnel shift by counts below 64.
    unsafe { simd_funnel_shl(a, a, splat(r as u64)) }
}

lane_threefish!("power8-vector", D, add, xor, rol, splat);

/// Sixteen bytes at `p` (any alignment) as two little-endian words.
///
/// # Safety
/// `p..p+16` readable.
#[target_feature(enable = "power8-vector")]
#[inline]
unsafe fn load_words(p: *const u8) -> D {
    // SAFETY: caller; `[u8; 16]` has alignment 1.
    unsafe {
        let v: D = transmute(p.cast::<[u8; 16]>().read());
        #[cfg(target_endian = "big")]
        let v: D = core::intrinsics::simd::simd_bswap(v);
        v
    }
}

/// Message rows of the block at byte `offset` of both lanes: each pair of
/// words of lane 0 and lane 1 transposed with two `xxpermdi`.
///
/// # Safety
/// Every `blocks[i]` must hold at least `offset + 8 * W` bytes.
#[target_feature(enable = "power8-vector")]
#[inline]
unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [D; W] {
    let mut m = [splat(0); W];
    for pair in 0..W / 2 {
        // SAFETY: 16 readable bytes at `offset + 16 * pair` of each lane, since
        // 16 * (pair + 1) <= 8 * W.
        unsafe {
            let a = load_words(blocks[0].as_ptr().add(offset + 16 * pair));
            let b = load_words(blocks[1].as_ptr().add(offset + 16 * pair));
            m[2 * pair] = simd_shuffle(a, b, const { Simd::<u32, 2>::from_array([0, 2]) });
            m[2 * pair + 1] = simd_shuffle(a, b, const { Simd::<u32, 2>::from_array([1, 3]) });
        }
    }
    m
}

#[target_feature(enable = "power8-vector")]
#[inline]
fn load_row(row: &[u64; 2]) -> D {
    // SAFETY: a row is 16 bytes of two native-endian words.
    unsafe { transmute(*row) }
}

#[target_feature(enable = "power8-vector")]
#[inline]
fn store_row(row: &mut [u64; 2], v: D) {
    // SAFETY: as in `load_row`.
    *row = unsafe { transmute::<D, [u64; 2]>(v) };
}

/// # Safety
/// Every `blocks[i]` must hold `n * 8 * W` bytes; POWER8 vectors.
#[target_feature(enable = "power8-vector")]
unsafe fn compress_vsx<const W: usize>(state: &mut LaneState<W, 2>, blocks: &[&[u8]; 2], bytes_per_block: &[u64; 2], n: usize) {
    let mut chain = [splat(0); W];
    for j in 0..W {
        chain[j] = load_row(&state.chain[j]);
    }
    let mut t0 = load_row(&state.tweak[0]);
    let mut t1 = load_row(&state.tweak[1]);
    let step = load_row(bytes_per_block);
    let not_first = splat(!T1_FIRST);
    for k in 0..n {
        // SAFETY: block k ends at (k + 1) * 8 * W <= n * 8 * W bytes.
        let m = unsafe { load_rows::<W>(blocks, k * 8 * W) };
        let sum = add(t0, step);
        // A carry out of word 0 (sum < step: an all-ones lane) adds one to word 1.
        // SAFETY: lane-wise compare, subtract and and.
        unsafe {
            t1 = simd_sub(t1, simd_lt::<D, D>(sum, step));
        }
        t0 = sum;
        let (ks, ts) = schedules::<W>(&chain, t0, t1);
        let mut x = m;
        encrypt::<W>(&mut x, &ks, &ts);
        for j in 0..W {
            chain[j] = xor(x[j], m[j]);
        }
        // SAFETY: lane-wise and.
        t1 = unsafe { simd_and(t1, not_first) };
    }
    for j in 0..W {
        store_row(&mut state.chain[j], chain[j]);
    }
    store_row(&mut state.tweak[0], t0);
    store_row(&mut state.tweak[1], t1);
}

/// The multi-lane block function (seam in `platform.rs`).
///
/// # Panics
/// If the `blocks` are not all the same whole number of blocks long.
pub(crate) fn compress<const W: usize>(token: Token, state: &mut LaneState<W, 2>, blocks: [&[u8]; 2], bytes_per_block: [u64; 2]) {
    let _ = token;
    let total = blocks[0].len();
    assert!(total.is_multiple_of(8 * W) && blocks.iter().all(|b| b.len() == total), "lanes: unequal blocks");
    // SAFETY: the token proves POWER8 vectors; every lane holds `total` bytes,
    // which is `n` whole blocks.
    unsafe { compress_vsx::<W>(state, &blocks, &bytes_per_block, total / (8 * W)) }
}
