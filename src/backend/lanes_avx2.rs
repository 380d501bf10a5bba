//! AVX2 multi-lane kernel (x86-64): four computations at once, one per 64-bit
//! lane of a ymm register.
//!
//! Same layout as the AVX-512 kernel (row `j` = word `j` of every state; the
//! permutation is a renaming). AVX2 has no 64-bit rotate: rotations by a
//! multiple of 8 are one byte shuffle, the others two shifts and an or.
//! Seam: the "many lanes" section of `platform.rs`.

// Index loops follow the numbering of words and lanes in the specification.
#![allow(clippy::needless_range_loop)]

use super::lanes_portable::lane_threefish;
use crate::consts::T1_FIRST;
use crate::platform::LaneState;
use core::arch::x86_64::*;

/// Computations per call: four 64-bit lanes of a ymm register.
pub(crate) const LANES: usize = 4;

cpufeatures::new!(avx2_cpuid, "avx2");

/// Proof that this CPU has AVX2 (only `detect` makes one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token(());

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        avx2_cpuid::get().then_some(Token(()))
    }
}

#[target_feature(enable = "avx2")]
#[inline]
fn add(a: __m256i, b: __m256i) -> __m256i {
    _mm256_add_epi64(a, b)
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

/// Rotate every lane left by `r` (a constant after inlining).
#[target_feature(enable = "avx2")]
#[inline]
fn rol(a: __m256i, r: u32) -> __m256i {
    if r.is_multiple_of(8) {
        // Byte b of each word takes byte (b - r/8) mod 8.
        let shift = (r / 8) as u64;
        let mut index = 0u64;
        for b in 0..8 {
            index |= ((b + 8 - shift) % 8) << (8 * b);
        }
        let upper = index + 0x0808_0808_0808_0808;
        let mask = _mm256_setr_epi64x(index as i64, upper as i64, index as i64, upper as i64);
        _mm256_shuffle_epi8(a, mask)
    } else {
        let left = _mm256_sll_epi64(a, _mm_cvtsi32_si128(r as i32));
        let right = _mm256_srl_epi64(a, _mm_cvtsi32_si128(64 - r as i32));
        _mm256_or_si256(left, right)
    }
}

#[target_feature(enable = "avx2")]
#[inline]
fn splat(v: u64) -> __m256i {
    _mm256_set1_epi64x(v as i64)
}

lane_threefish!("avx2", __m256i, add, xor, rol, splat);

/// Message rows of the block at byte `offset` of every lane: 4x4 transposes
/// of each 32-byte quarter.
///
/// # Safety
/// Every `blocks[i]` must hold at least `offset + 8 * W` bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 4], offset: usize) -> [__m256i; W] {
    let mut m = [_mm256_setzero_si256(); W];
    for quarter in 0..W / 4 {
        let mut r = [_mm256_setzero_si256(); 4];
        for i in 0..4 {
            // SAFETY: 32 readable bytes at `offset + 32 * quarter` of each lane,
            // since 32 * (quarter + 1) <= 8 * W (unaligned loads).
            r[i] = unsafe { _mm256_loadu_si256(blocks[i].as_ptr().add(offset + 32 * quarter).cast()) };
        }
        let lo01 = _mm256_unpacklo_epi64(r[0], r[1]);
        let hi01 = _mm256_unpackhi_epi64(r[0], r[1]);
        let lo23 = _mm256_unpacklo_epi64(r[2], r[3]);
        let hi23 = _mm256_unpackhi_epi64(r[2], r[3]);
        m[4 * quarter] = _mm256_permute2x128_si256::<0x20>(lo01, lo23);
        m[4 * quarter + 1] = _mm256_permute2x128_si256::<0x20>(hi01, hi23);
        m[4 * quarter + 2] = _mm256_permute2x128_si256::<0x31>(lo01, lo23);
        m[4 * quarter + 3] = _mm256_permute2x128_si256::<0x31>(hi01, hi23);
    }
    m
}

#[target_feature(enable = "avx2")]
#[inline]
fn load_row(row: &[u64; 4]) -> __m256i {
    // SAFETY: a row is 32 readable bytes.
    unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn store_row(row: &mut [u64; 4], v: __m256i) {
    // SAFETY: a row is 32 writable bytes.
    unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), v) }
}

/// # Safety
/// Every `blocks[i]` must hold `n * 8 * W` bytes.
#[target_feature(enable = "avx2")]
unsafe fn compress_avx2<const W: usize>(state: &mut LaneState<W, 4>, blocks: &[&[u8]; 4], bytes_per_block: &[u64; 4], n: usize) {
    let mut chain = [_mm256_setzero_si256(); W];
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
        // Carry out of the 64-bit add: top bit of (a & b) | ((a | b) & !sum).
        let carry = _mm256_or_si256(_mm256_and_si256(t0, step), _mm256_andnot_si256(sum, _mm256_or_si256(t0, step)));
        t1 = add(t1, _mm256_srli_epi64::<63>(carry));
        t0 = sum;
        let (ks, ts) = schedules::<W>(&chain, t0, t1);
        let mut x = m;
        encrypt::<W>(&mut x, &ks, &ts);
        for j in 0..W {
            chain[j] = xor(x[j], m[j]);
        }
        t1 = _mm256_and_si256(t1, not_first);
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
pub(crate) fn compress<const W: usize>(token: Token, state: &mut LaneState<W, 4>, blocks: [&[u8]; 4], bytes_per_block: [u64; 4]) {
    let _ = token;
    let total = blocks[0].len();
    assert!(total.is_multiple_of(8 * W) && blocks.iter().all(|b| b.len() == total), "lanes: unequal blocks");
    // SAFETY: the token proves AVX2; every lane holds `total` bytes, which is
    // `n` whole blocks.
    unsafe { compress_avx2::<W>(state, &blocks, &bytes_per_block, total / (8 * W)) }
}
