//! SSE2 backend (x86-64 baseline): the even/odd engine of `backend::even_odd::engine` in
//! xmm registers of two lanes. SSE2 shifts every lane by one count, so a
//! rotate whose two lanes differ is two shift pairs and a `movsd` merge; the
//! halves of Skein-512 and -1024 span two and four registers, and each odd
//! permutation is one `pshufd` or `shufpd` per register.

use super::{shift_row, Core};
use crate::backend::dispatch::feature_glue::feature_backend;
use crate::backend::dispatch::isa::Row;
use crate::backend::even_odd::engine::{each, two_lane_registers, EvenOdd, Half};
use crate::backend::lanes::{LaneForm, Workload};
use core::arch::x86_64::*;

cpufeatures::new!(sse2_cpuid, "sse2");

feature_backend! {
    /// Proof that this CPU has SSE2 (always true on x86-64; kept for symmetry).
    token if sse2_cpuid::get(), features "sse2";
    single stream EvenOdd<Regs<1>, Regs<2>, Regs<4>>;
    lanes __m128i, 2, two_groups;
    form by lane_form;
}

/// The rule for the kernel's form (docs/lanes.md, "The forms of each x86
/// kernel"): Skein-256's chains are latency-bound, so two groups win;
/// Skein-512's two groups win on Intel and spill too much on Zen;
/// Skein-1024's spill everywhere. Short messages run one group.
fn lane_form(words: usize, work: Workload) -> LaneForm {
    match (work, words, super::core()) {
        (Workload::Blocks, 4, _) | (Workload::Blocks, 8, Core::Other | Core::IntelGoldenCove) => {
            LaneForm::TwoGroups
        }
        _ => LaneForm::OneGroup,
    }
}

/// `2 * K` lanes in `K` xmm registers.
#[derive(Clone, Copy)]
struct Regs<const K: usize>([__m128i; K]);

/// Rotate `v` left by `c` in both lanes.
#[inline(always)]
unsafe fn rotl128_same(v: __m128i, c: u32) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        _mm_or_si128(
            _mm_sll_epi64(v, _mm_cvtsi32_si128(c as i32)),
            _mm_srl_epi64(v, _mm_cvtsi32_si128(64 - c as i32)),
        )
    }
}

/// Rotate lane 0 left by `c0` and lane 1 by `c1`.
#[inline(always)]
unsafe fn rotl128(v: __m128i, c0: u32, c1: u32) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        let low = rotl128_same(v, c0);
        if c0 == c1 {
            low
        } else {
            // movsd: the low lane from `low`, the high lane from the other.
            _mm_castpd_si128(_mm_move_sd(
                _mm_castsi128_pd(rotl128_same(v, c1)),
                _mm_castsi128_pd(low),
            ))
        }
    }
}

/// Two lanes picked from registers `v`: lane 0 is lane `a`, lane 1 lane `b`
/// of the concatenation.
#[inline(always)]
unsafe fn gather128<const K: usize>(v: &[__m128i; K], a: usize, b: usize) -> __m128i {
    let (ra, la, rb, lb) = (a / 2, a % 2, b / 2, b % 2);
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        if ra == rb {
            let x = v[ra];
            match (la, lb) {
                (0, 1) => x,
                (1, 0) => _mm_shuffle_epi32::<0x4E>(x),
                (0, 0) => _mm_shuffle_epi32::<0x44>(x),
                _ => _mm_shuffle_epi32::<0xEE>(x),
            }
        } else {
            let (x, y) = (_mm_castsi128_pd(v[ra]), _mm_castsi128_pd(v[rb]));
            _mm_castpd_si128(match (la, lb) {
                (0, 0) => _mm_shuffle_pd::<0b00>(x, y),
                (1, 0) => _mm_shuffle_pd::<0b01>(x, y),
                (0, 1) => _mm_shuffle_pd::<0b10>(x, y),
                _ => _mm_shuffle_pd::<0b11>(x, y),
            })
        }
    }
}

impl<const K: usize> Half for Regs<K> {
    two_lane_registers! { load = _mm_loadu_si128, store = _mm_storeu_si128, add = _mm_add_epi64, xor = _mm_xor_si128 }
    #[inline(always)]
    unsafe fn rotl(self, c: &[u32; 8]) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Regs(each::<_, K>(|r| unsafe {
            rotl128(self.0[r], c[2 * r], c[2 * r + 1])
        }))
    }
    #[inline(always)]
    unsafe fn permute(self, i: &[usize; 8]) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Regs(each::<_, K>(|r| unsafe {
            gather128(&self.0, i[2 * r], i[2 * r + 1])
        }))
    }
}

// ===========================================================================
// Multi-lane kernel: 2 computations at once, one per 64-bit lane.
// ===========================================================================
//
// A row is one xmm register: word `j` of two computations. SSE2 has
// neither a 64-bit rotate nor a byte shuffle: a rotation by 32 is one
// 32-bit shuffle, the others two shifts and an or.

impl Row<2> for __m128i {
    shift_row! {
        2, splat = _mm_set1_epi64x, load = _mm_loadu_si128, store = _mm_storeu_si128,
        add = _mm_add_epi64, xor = _mm_xor_si128, and = _mm_and_si128, or = _mm_or_si128,
        andnot = _mm_andnot_si128, sll = _mm_sll_epi64, srl = _mm_srl_epi64,
        top_bit = _mm_srli_epi64::<63>, rol = rol_by_shuffle, load_rows = transpose, store_lanes = untranspose,
    }
}

/// A rotation by 32 is one 32-bit shuffle; the others are shifts (`None`).
#[inline(always)]
unsafe fn rol_by_shuffle(v: __m128i, r: u32) -> Option<__m128i> {
    if r == 32 {
        // SAFETY: SSE2 is part of x86-64.
        Some(unsafe { _mm_shuffle_epi32::<0xB1>(v) })
    } else {
        None
    }
}

/// [`Row::load_rows`]: row `j` lane `i` is word `j` of `blocks[i]`.
#[inline(always)]
unsafe fn transpose<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [__m128i; W] {
    // SAFETY: SSE2 is part of x86-64; both lanes hold `offset + 8 * W`
    // readable bytes (the contract of `Row::load_rows`).
    unsafe {
        let mut m = [_mm_setzero_si128(); W];
        for pair in 0..W / 2 {
            // Bytes at..at + 16 lie inside the block, which ends at
            // offset + 8 * W (unaligned loads).
            let at = offset + 16 * pair;
            let r0 = _mm_loadu_si128(blocks[0].as_ptr().add(at).cast());
            let r1 = _mm_loadu_si128(blocks[1].as_ptr().add(at).cast());
            m[2 * pair] = _mm_unpacklo_epi64(r0, r1);
            m[2 * pair + 1] = _mm_unpackhi_epi64(r0, r1);
        }
        m
    }
}

/// [`Row::store_lanes`]: the inverse of [`transpose`], two rows at a time.
#[inline(always)]
unsafe fn untranspose<const W: usize>(rows: &[__m128i; W], out: &mut [u8]) {
    let out = &mut out[..2 * 8 * W];
    // SAFETY: SSE2 is part of x86-64; each store writes 16 bytes inside
    // `out`, which holds two lanes of `8 * W` bytes (`W` is even).
    unsafe {
        for pair in 0..W / 2 {
            let (r0, r1) = (rows[2 * pair], rows[2 * pair + 1]);
            // Words 2 * pair.. of lanes 0 and 1: bytes 16 * pair.. and
            // 8 * W + 16 * pair.. (x86 is little-endian: the words' bytes
            // as a digest has them).
            let at = out.as_mut_ptr().add(16 * pair);
            _mm_storeu_si128(at.cast(), _mm_unpacklo_epi64(r0, r1));
            _mm_storeu_si128(at.add(8 * W).cast(), _mm_unpackhi_epi64(r0, r1));
        }
    }
}
