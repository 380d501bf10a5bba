//! AVX-512F multi-lane kernel (x86-64): eight computations at once, one per
//! 64-bit lane of a zmm register.
//!
//! Row `j` (one zmm) holds word `j` of all eight states, so a Threefish round
//! is `W/2` vpaddq, `W/2` vprolq (one immediate count for every lane) and `W/2`
//! vpxorq, and the word permutation is only a renaming of registers. Message
//! blocks are transposed into rows as they are loaded (unpack + 128-bit
//! shuffles). Seam: the "many lanes" section of `platform.rs`.

// Index loops follow the numbering of words and lanes in the specification.
#![allow(clippy::needless_range_loop)]

use super::lanes_portable::lane_threefish;
use crate::consts::T1_FIRST;
use crate::platform::LaneState;
use core::arch::x86_64::*;

/// Computations per call: eight 64-bit lanes of a zmm register.
pub(crate) const LANES: usize = 8;

cpufeatures::new!(avx512f_cpuid, "avx512f");

/// Proof that this CPU has AVX-512F (only `detect` makes one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token(());

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        avx512f_cpuid::get().then_some(Token(()))
    }
}

#[target_feature(enable = "avx512f")]
#[inline]
fn add(a: __m512i, b: __m512i) -> __m512i {
    _mm512_add_epi64(a, b)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn xor(a: __m512i, b: __m512i) -> __m512i {
    _mm512_xor_si512(a, b)
}

/// Rotate every lane left by `r`; with `r` a constant after inlining this is a
/// single vprolq with an immediate.
#[target_feature(enable = "avx512f")]
#[inline]
fn rol(a: __m512i, r: u32) -> __m512i {
    _mm512_rolv_epi64(a, _mm512_set1_epi64(r as i64))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn splat(v: u64) -> __m512i {
    _mm512_set1_epi64(v as i64)
}

lane_threefish!("avx512f", __m512i, add, xor, rol, splat);

/// The transpose of an 8x8 matrix of words: `out[j]` lane `i` = `r[i]` lane `j`.
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose8(r: [__m512i; 8]) -> [__m512i; 8] {
    // Pairs: 128-bit group k of t0 is (r0[2k], r1[2k]), of t1 (r0[2k+1], r1[2k+1]) ...
    let t0 = _mm512_unpacklo_epi64(r[0], r[1]);
    let t1 = _mm512_unpackhi_epi64(r[0], r[1]);
    let t2 = _mm512_unpacklo_epi64(r[2], r[3]);
    let t3 = _mm512_unpackhi_epi64(r[2], r[3]);
    let t4 = _mm512_unpacklo_epi64(r[4], r[5]);
    let t5 = _mm512_unpackhi_epi64(r[4], r[5]);
    let t6 = _mm512_unpacklo_epi64(r[6], r[7]);
    let t7 = _mm512_unpackhi_epi64(r[6], r[7]);
    // ... then gather group k of the four pair vectors: groups (0, 2) with
    // selector 0x88, groups (1, 3) with 0xDD, twice.
    let even02 = _mm512_shuffle_i64x2::<0x88>(t0, t2);
    let even46 = _mm512_shuffle_i64x2::<0x88>(t4, t6);
    let even13 = _mm512_shuffle_i64x2::<0xDD>(t0, t2);
    let even57 = _mm512_shuffle_i64x2::<0xDD>(t4, t6);
    let odd02 = _mm512_shuffle_i64x2::<0x88>(t1, t3);
    let odd46 = _mm512_shuffle_i64x2::<0x88>(t5, t7);
    let odd13 = _mm512_shuffle_i64x2::<0xDD>(t1, t3);
    let odd57 = _mm512_shuffle_i64x2::<0xDD>(t5, t7);
    [
        _mm512_shuffle_i64x2::<0x88>(even02, even46),
        _mm512_shuffle_i64x2::<0x88>(odd02, odd46),
        _mm512_shuffle_i64x2::<0x88>(even13, even57),
        _mm512_shuffle_i64x2::<0x88>(odd13, odd57),
        _mm512_shuffle_i64x2::<0xDD>(even02, even46),
        _mm512_shuffle_i64x2::<0xDD>(odd02, odd46),
        _mm512_shuffle_i64x2::<0xDD>(even13, even57),
        _mm512_shuffle_i64x2::<0xDD>(odd13, odd57),
    ]
}

/// Message rows of the block at byte `offset` of every lane.
///
/// # Safety
/// Every `blocks[i]` must hold at least `offset + 8 * W` bytes.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 8], offset: usize) -> [__m512i; W] {
    let mut m = [_mm512_setzero_si512(); W];
    let mut at = [core::ptr::null::<u8>(); 8];
    for i in 0..8 {
        // SAFETY: the caller guarantees `offset + 8 * W` bytes in every lane.
        at[i] = unsafe { blocks[i].as_ptr().add(offset) };
    }
    if W == 4 {
        // Two lanes per row: lane i in the low half, lane i + 4 in the high half.
        let mut r = [_mm512_setzero_si512(); 4];
        for i in 0..4 {
            // SAFETY: 32 readable bytes at each lane's offset (unaligned loads).
            let (lo, hi) = unsafe { (_mm256_loadu_si256(at[i].cast()), _mm256_loadu_si256(at[i + 4].cast())) };
            r[i] = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
        }
        let lo01 = _mm512_unpacklo_epi64(r[0], r[1]);
        let lo23 = _mm512_unpacklo_epi64(r[2], r[3]);
        let hi01 = _mm512_unpackhi_epi64(r[0], r[1]);
        let hi23 = _mm512_unpackhi_epi64(r[2], r[3]);
        let words_0 = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
        let words_2 = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
        m[0] = _mm512_permutex2var_epi64(lo01, words_0, lo23);
        m[1] = _mm512_permutex2var_epi64(hi01, words_0, hi23);
        m[2] = _mm512_permutex2var_epi64(lo01, words_2, lo23);
        m[3] = _mm512_permutex2var_epi64(hi01, words_2, hi23);
    } else {
        for half in 0..W / 8 {
            let mut rows = [_mm512_setzero_si512(); 8];
            for i in 0..8 {
                // SAFETY: 64 readable bytes at `64 * half` past each lane's
                // offset, since 64 * (half + 1) <= 8 * W (unaligned loads).
                rows[i] = unsafe { _mm512_loadu_si512(at[i].add(64 * half).cast()) };
            }
            let cols = transpose8(rows);
            m[8 * half..8 * half + 8].copy_from_slice(&cols);
        }
    }
    m
}

#[target_feature(enable = "avx512f")]
#[inline]
fn load_row(row: &[u64; 8]) -> __m512i {
    // SAFETY: a row is 64 readable bytes.
    unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f")]
#[inline]
fn store_row(row: &mut [u64; 8], v: __m512i) {
    // SAFETY: a row is 64 writable bytes.
    unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), v) }
}

/// # Safety
/// Every `blocks[i]` must hold `n * 8 * W` bytes.
#[target_feature(enable = "avx512f")]
unsafe fn compress_avx512<const W: usize>(state: &mut LaneState<W, 8>, blocks: &[&[u8]; 8], bytes_per_block: &[u64; 8], n: usize) {
    let mut chain = [_mm512_setzero_si512(); W];
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
        t0 = add(t0, step);
        let carry = _mm512_cmplt_epu64_mask(t0, step);
        t1 = _mm512_mask_add_epi64(t1, carry, t1, splat(1));
        let (ks, ts) = schedules::<W>(&chain, t0, t1);
        let mut x = m;
        encrypt::<W>(&mut x, &ks, &ts);
        for j in 0..W {
            chain[j] = xor(x[j], m[j]);
        }
        t1 = _mm512_and_si512(t1, not_first);
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
pub(crate) fn compress<const W: usize>(token: Token, state: &mut LaneState<W, 8>, blocks: [&[u8]; 8], bytes_per_block: [u64; 8]) {
    let _ = token;
    let total = blocks[0].len();
    assert!(total.is_multiple_of(8 * W) && blocks.iter().all(|b| b.len() == total), "lanes: unequal blocks");
    // SAFETY: the token proves AVX-512F; every lane holds `total` bytes, which
    // is `n` whole blocks.
    unsafe { compress_avx512::<W>(state, &blocks, &bytes_per_block, total / (8 * W)) }
}
