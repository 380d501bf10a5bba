//! SSE2 multi-lane kernel (x86-64): two computations at once, one per 64-bit
//! lane of an xmm register; the baseline of every x86-64 CPU.
//!
//! Same layout as the AVX-512 kernel. SSE2 has neither a 64-bit rotate nor a
//! byte shuffle: a rotation by 32 is one 32-bit shuffle, the others two shifts
//! and an or. Seam: the "many lanes" section of `platform.rs`.

// Index loops follow the numbering of words and lanes in the specification.
#![allow(clippy::needless_range_loop)]

use super::lanes_portable::lane_threefish;
use crate::consts::T1_FIRST;
use crate::platform::LaneState;
use core::arch::x86_64::*;

/// Computations per call: two 64-bit lanes of an xmm register.
pub(crate) const LANES: usize = 2;

cpufeatures::new!(sse2_cpuid, "sse2");

/// Proof that this CPU has SSE2 (only `detect` makes one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token(());

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        sse2_cpuid::get().then_some(Token(()))
    }
}

#[target_feature(enable = "sse2")]
#[inline]
fn add(a: __m128i, b: __m128i) -> __m128i {
    _mm_add_epi64(a, b)
}

#[target_feature(enable = "sse2")]
#[inline]
fn xor(a: __m128i, b: __m128i) -> __m128i {
    _mm_xor_si128(a, b)
}

/// Rotate every lane left by `r` (a constant after inlining).
#[target_feature(enable = "sse2")]
#[inline]
fn rol(a: __m128i, r: u32) -> __m128i {
    if r == 32 {
        _mm_shuffle_epi32::<0xB1>(a)
    } else {
        let left = _mm_sll_epi64(a, _mm_cvtsi32_si128(r as i32));
        let right = _mm_srl_epi64(a, _mm_cvtsi32_si128(64 - r as i32));
        _mm_or_si128(left, right)
    }
}

#[target_feature(enable = "sse2")]
#[inline]
fn splat(v: u64) -> __m128i {
    _mm_set1_epi64x(v as i64)
}

lane_threefish!("sse2", __m128i, add, xor, rol, splat);

#[target_feature(enable = "sse2")]
#[inline]
fn load_row(row: &[u64; 2]) -> __m128i {
    // SAFETY: a row is 16 readable bytes.
    unsafe { _mm_loadu_si128(row.as_ptr().cast()) }
}

#[target_feature(enable = "sse2")]
#[inline]
fn store_row(row: &mut [u64; 2], v: __m128i) {
    // SAFETY: a row is 16 writable bytes.
    unsafe { _mm_storeu_si128(row.as_mut_ptr().cast(), v) }
}

/// # Safety
/// Every `blocks[i]` must hold `n * 8 * W` bytes.
#[target_feature(enable = "sse2")]
unsafe fn compress_sse2<const W: usize>(state: &mut LaneState<W, 2>, blocks: &[&[u8]; 2], bytes_per_block: &[u64; 2], n: usize) {
    let mut chain = [_mm_setzero_si128(); W];
    for j in 0..W {
        chain[j] = load_row(&state.chain[j]);
    }
    let mut t0 = load_row(&state.tweak[0]);
    let mut t1 = load_row(&state.tweak[1]);
    let step = load_row(bytes_per_block);
    let not_first = splat(!T1_FIRST);
    for k in 0..n {
        let mut m = [_mm_setzero_si128(); W];
        for pair in 0..W / 2 {
            let at = k * 8 * W + 16 * pair;
            // SAFETY: bytes at..at + 16 lie inside block k, which ends at
            // (k + 1) * 8 * W <= n * 8 * W bytes (unaligned loads).
            let (r0, r1) = unsafe { (_mm_loadu_si128(blocks[0].as_ptr().add(at).cast()), _mm_loadu_si128(blocks[1].as_ptr().add(at).cast())) };
            m[2 * pair] = _mm_unpacklo_epi64(r0, r1);
            m[2 * pair + 1] = _mm_unpackhi_epi64(r0, r1);
        }
        let sum = add(t0, step);
        // Carry out of the 64-bit add: top bit of (a & b) | ((a | b) & !sum).
        let carry = _mm_or_si128(_mm_and_si128(t0, step), _mm_andnot_si128(sum, _mm_or_si128(t0, step)));
        t1 = add(t1, _mm_srli_epi64::<63>(carry));
        t0 = sum;
        let (ks, ts) = schedules::<W>(&chain, t0, t1);
        let mut x = m;
        encrypt::<W>(&mut x, &ks, &ts);
        for j in 0..W {
            chain[j] = xor(x[j], m[j]);
        }
        t1 = _mm_and_si128(t1, not_first);
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
    // SAFETY: the token proves SSE2; every lane holds `total` bytes, which is
    // `n` whole blocks.
    unsafe { compress_sse2::<W>(state, &blocks, &bytes_per_block, total / (8 * W)) }
}
