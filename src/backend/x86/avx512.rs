//! AVX-512 backend (x86-64, AVX-512F + VL): the even/odd engine of
//! `engine` with native per-lane rotates (`vprolvq`). Each half of the
//! state is one register: xmm for Skein-256, ymm for Skein-512 (VL forms),
//! zmm for Skein-1024, so a round is four instructions.

use super::Core;
use crate::backend::dispatch::feature_glue::feature_backend;
use crate::backend::dispatch::isa::{lanewise, register_row, store_lanes_row_by_row, Row};
use crate::backend::even_odd::engine::{register_half, register_halves, EvenOdd, Half};
use crate::backend::lanes::{LaneForm, Workload};
use core::arch::x86_64::*;

cpufeatures::new!(avx512_cpuid, "avx512f", "avx512vl");

feature_backend! {
    /// Proof that this CPU has AVX-512F and AVX-512VL (and the OS saves zmm state).
    token if avx512_cpuid::get(), features "avx512f,avx512vl";
    single stream EvenOdd<X2, X4, X8>;
    lanes __m512i, 8, two_groups;
    form by lane_form;
}

/// The rule for the kernel's form (docs/lanes.md, "The forms of each x86
/// kernel"): two groups for runs of blocks of Skein-256 and -512 (their
/// chains leave one group's pipes idle); for short Skein-512 messages two
/// groups on Intel, one on Zen 4 (whose whole batches lose with two) and
/// on Golden Cove (a two-block message's call runs three inlined two-group
/// blocks, 48 KiB of code, past the 32 KiB instruction cache; at one block,
/// 33 KiB, the forms were within 3% in most processes and one group 23–35%
/// faster in the others: docs/performance.md); one group for Skein-1024 (32
/// state rows fill the 32 registers).
fn lane_form(words: usize, work: Workload) -> LaneForm {
    use Workload::{Blocks, ShortMessages};
    match (work, words, super::core()) {
        (Blocks, 4 | 8, _) => LaneForm::TwoGroups,
        (ShortMessages, 8, Core::Other) => LaneForm::TwoGroups,
        _ => LaneForm::OneGroup,
    }
}

/// Lane l rotated left by `c[l]` (two lanes).
#[inline(always)]
unsafe fn rotl128(v: __m128i, c: &[u32]) -> __m128i {
    // SAFETY: the caller holds the AVX-512 token.
    unsafe { _mm_rolv_epi64(v, _mm_set_epi64x(c[1] as i64, c[0] as i64)) }
}

/// Lane l rotated left by `c[l]` (four lanes).
#[inline(always)]
unsafe fn rotl256(v: __m256i, c: &[u32]) -> __m256i {
    // SAFETY: the caller holds the AVX-512 token.
    unsafe {
        let counts = _mm256_set_epi64x(c[3] as i64, c[2] as i64, c[1] as i64, c[0] as i64);
        _mm256_rolv_epi64(v, counts)
    }
}

/// Lane l of the result is lane `q[l]` of `v`, one `vpermq` with an index
/// vector.
#[inline(always)]
unsafe fn permute_any256(v: __m256i, q: [usize; 4]) -> __m256i {
    // SAFETY: the caller holds the AVX-512 token.
    unsafe {
        let index = _mm256_set_epi64x(q[3] as i64, q[2] as i64, q[1] as i64, q[0] as i64);
        _mm256_permutexvar_epi64(index, v)
    }
}

register_halves!(
    rotl128 = rotl128,
    rotl256 = rotl256,
    permute_any256 = permute_any256
);

/// Eight lanes (Skein-1024 half state).
#[derive(Clone, Copy)]
struct X8(__m512i);

impl Half for X8 {
    register_half! { 8, load = _mm512_loadu_si512, store = _mm512_storeu_si512, add = _mm512_add_epi64, xor = _mm512_xor_si512 }
    #[inline(always)]
    unsafe fn rotl(self, c: &[u32; 8]) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe {
            let counts = _mm512_set_epi64(
                c[7] as i64,
                c[6] as i64,
                c[5] as i64,
                c[4] as i64,
                c[3] as i64,
                c[2] as i64,
                c[1] as i64,
                c[0] as i64,
            );
            X8(_mm512_rolv_epi64(self.0, counts))
        }
    }
    #[inline(always)]
    unsafe fn permute(self, i: &[usize; 8]) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe {
            let index = _mm512_set_epi64(
                i[7] as i64,
                i[6] as i64,
                i[5] as i64,
                i[4] as i64,
                i[3] as i64,
                i[2] as i64,
                i[1] as i64,
                i[0] as i64,
            );
            X8(_mm512_permutexvar_epi64(index, self.0))
        }
    }
}

// ===========================================================================
// Multi-lane kernel: 8 computations at once, one per 64-bit lane.
// ===========================================================================
//
// AVX-512F multi-lane kernel (x86-64): eight computations at once, one per
// 64-bit lane of a zmm register.
//
// Row `j` (one zmm) holds word `j` of all eight states, so a Threefish round
// is `W/2` vpaddq, `W/2` vprolq (one immediate count for every lane) and `W/2`
// vpxorq, and the word permutation is only a renaming of registers. Message
// blocks are transposed into rows as they are loaded (unpack + 128-bit
// shuffles). Seam: `backend::lanes`.

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

impl Row<8> for __m512i {
    register_row! { 8, splat = _mm512_set1_epi64, load = _mm512_loadu_si512, store = _mm512_storeu_si512 }
    lanewise! { add = _mm512_add_epi64, xor = _mm512_xor_si512, and = _mm512_and_si512 }
    /// With `r` a constant after inlining, a single vprolq with an immediate.
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        // SAFETY: the CPU has AVX-512F (the trait's contract).
        unsafe { _mm512_rolv_epi64(self, _mm512_set1_epi64(r as i64)) }
    }
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        // SAFETY: the CPU has AVX-512F (the trait's contract).
        unsafe {
            let sum = _mm512_add_epi64(t0, step);
            let carry = _mm512_cmplt_epu64_mask(sum, step);
            (
                sum,
                _mm512_mask_add_epi64(t1, carry, t1, _mm512_set1_epi64(1)),
            )
        }
    }
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 8], offset: usize) -> [Self; W] {
        // SAFETY: the CPU has AVX-512F (the trait's contract), and every
        // lane holds `offset + 8 * W` readable bytes (the contract);
        // the loads are unaligned.
        unsafe {
            let mut m = [_mm512_setzero_si512(); W];
            let mut at = [core::ptr::null::<u8>(); 8];
            for i in 0..8 {
                at[i] = blocks[i].as_ptr().add(offset);
            }
            if W == 4 {
                // Two lanes per row: lane i in the low half, lane i + 4 in
                // the high half.
                let mut r = [_mm512_setzero_si512(); 4];
                for i in 0..4 {
                    let lo = _mm256_loadu_si256(at[i].cast());
                    let hi = _mm256_loadu_si256(at[i + 4].cast());
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
                        // 64 bytes at `64 * half` past each lane's offset,
                        // since 64 * (half + 1) <= 8 * W.
                        rows[i] = _mm512_loadu_si512(at[i].add(64 * half).cast());
                    }
                    let cols = transpose8(rows);
                    m[8 * half..8 * half + 8].copy_from_slice(&cols);
                }
            }
            m
        }
    }
    #[inline(always)]
    unsafe fn load_two_rows(blocks: &[&[u8]; 8], offset: usize) -> [Self; 2] {
        // SAFETY: the CPU has AVX-512F (the trait's contract), and every
        // lane holds `offset + 16` readable bytes (the contract);
        // the loads are unaligned. Lanes 0, 2, 4, 6 in the 128-bit groups
        // of one register, 1, 3, 5, 7 in another: an unpack of the two
        // pairs lanes 2k and 2k + 1 in group k (six inserts and two
        // unpacks, where the whole block's transpose takes 24 shuffles).
        unsafe {
            let p: [__m128i; 8] =
                core::array::from_fn(|i| _mm_loadu_si128(blocks[i].as_ptr().add(offset).cast()));
            let e0 = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(p[0]), p[2]);
            let e1 = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(p[4]), p[6]);
            let o0 = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(p[1]), p[3]);
            let o1 = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(p[5]), p[7]);
            let even = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(e0), e1);
            let odd = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(o0), o1);
            [
                _mm512_unpacklo_epi64(even, odd),
                _mm512_unpackhi_epi64(even, odd),
            ]
        }
    }
    #[inline(always)]
    unsafe fn store_lanes<const W: usize>(rows: &[Self; W], out: &mut [u8]) {
        let out = &mut out[..8 * 8 * W];
        if W == 4 {
            // Half-width rows: row by row (a short state is rare here).
            // SAFETY: the CPU has AVX-512F (the trait's contract).
            unsafe { store_lanes_row_by_row::<Self, 8, W>(rows, out) };
            return;
        }
        for half in 0..W / 8 {
            let eight: [__m512i; 8] = core::array::from_fn(|i| rows[8 * half + i]);
            // SAFETY: the CPU has AVX-512F (the trait's contract).
            let lanes = unsafe { transpose8(eight) };
            for (i, words) in lanes.into_iter().enumerate() {
                // SAFETY: the CPU has AVX-512F (the trait's contract), and the
                // store writes words 8 * half.. of lane i (little-endian, as
                // a digest has them): 64 bytes inside its 8 * W of `out`.
                unsafe {
                    let at = out.as_mut_ptr().add(8 * W * i + 64 * half);
                    _mm512_storeu_si512(at.cast(), words)
                };
            }
        }
    }
}
