//! AVX2 backend (x86-64): the even/odd engine of `backend::even_odd::engine` with
//! rotates built from per-lane shifts (`vpsllvq`/`vpsrlvq`; AVX2 has no
//! `vprolq`). Halves: one xmm for Skein-256, one ymm for Skein-512, two ymm
//! for Skein-1024 (whose odd permutations happen to swap the two registers
//! and shuffle within each, so no blends are needed).

use super::{shift_row, Core};
use crate::backend::dispatch::feature_glue::feature_backend;
use crate::backend::dispatch::isa::{Row, Scalar, WithScalar};
use crate::backend::even_odd::engine::{register_half, register_halves, EvenOdd, Half};
use crate::backend::lanes::{LaneForm, Workload};
use core::arch::x86_64::*;

cpufeatures::new!(avx2_cpuid, "avx2");

feature_backend! {
    /// Proof that this CPU has AVX2 (and the OS saves ymm state).
    token if avx2_cpuid::get(), features "avx2";
    single stream EvenOdd<X2, X4, X8>;
    lanes __m256i, 4, two_groups, with_scalar;
    form by lane_form;
}

/// The rule for the kernel's form (docs/lanes.md, "The forms of each x86
/// kernel"): Skein-256's chains are latency-bound, so two groups win on
/// runs of blocks everywhere; Skein-512 takes a scalar lane beside the
/// vector lanes on Intel (short messages too, but on Sapphire and Emerald
/// Rapids, where they lost with it and are level since its last and
/// output blocks run out of line), two groups where vector
/// latency is two cycles (Zen 5), one group on earlier Zen (two spill; the
/// scalar lane not measured there); Skein-1024 fills the registers with
/// one group.
fn lane_form(words: usize, work: Workload) -> LaneForm {
    match (work, words, super::core()) {
        (Workload::Blocks, 4, _) => LaneForm::TwoGroups,
        (_, 8, Core::Other) | (Workload::Blocks, 8, Core::IntelGoldenCove) => LaneForm::WithScalar,
        (Workload::Blocks, 8, Core::Zen5On) => LaneForm::TwoGroups,
        _ => LaneForm::OneGroup,
    }
}

/// Counts and 64 - counts as shift-count vectors.
#[inline(always)]
unsafe fn counts256(c: &[u32]) -> (__m256i, __m256i) {
    // SAFETY: AVX is implied by the caller's AVX2.
    unsafe {
        let left = _mm256_set_epi64x(c[3] as i64, c[2] as i64, c[1] as i64, c[0] as i64);
        let right = _mm256_sub_epi64(_mm256_set1_epi64x(64), left);
        (left, right)
    }
}

/// Lane l rotated left by `c[l]` (two lanes).
#[inline(always)]
unsafe fn rotl128(v: __m128i, c: &[u32]) -> __m128i {
    // SAFETY: the caller holds the AVX2 token.
    unsafe {
        let left = _mm_set_epi64x(c[1] as i64, c[0] as i64);
        let right = _mm_sub_epi64(_mm_set1_epi64x(64), left);
        _mm_or_si128(_mm_sllv_epi64(v, left), _mm_srlv_epi64(v, right))
    }
}

/// Lane l rotated left by `c[l]` (four lanes).
#[inline(always)]
unsafe fn rotl256(v: __m256i, c: &[u32]) -> __m256i {
    // SAFETY: the caller holds the AVX2 token.
    unsafe {
        let (left, right) = counts256(c);
        _mm256_or_si256(_mm256_sllv_epi64(v, left), _mm256_srlv_epi64(v, right))
    }
}

/// Lane l of the result is lane `q[l]` of `v`: AVX2 permutes 32-bit lanes
/// across the register, two per 64-bit lane.
#[inline(always)]
unsafe fn permute_any256(v: __m256i, q: [usize; 4]) -> __m256i {
    let dwords = |l: usize| [2 * q[l] as i32, 2 * q[l] as i32 + 1];
    let [a0, a1] = dwords(0);
    let [b0, b1] = dwords(1);
    let [c0, c1] = dwords(2);
    let [d0, d1] = dwords(3);
    // SAFETY: the caller holds the AVX2 token.
    unsafe { _mm256_permutevar8x32_epi32(v, _mm256_set_epi32(d1, d0, c1, c0, b1, b0, a1, a0)) }
}

register_halves!(
    rotl128 = rotl128,
    rotl256 = rotl256,
    permute_any256 = permute_any256
);

/// Eight lanes in two registers (Skein-1024 half state).
#[derive(Clone, Copy)]
struct X8([__m256i; 2]);

impl Half for X8 {
    const WORDS: usize = 8;
    #[inline(always)]
    unsafe fn load(words: &[u64]) -> Self {
        assert!(words.len() >= 8);
        // SAFETY: eight readable words, unaligned loads.
        unsafe {
            X8([
                _mm256_loadu_si256(words.as_ptr().cast()),
                _mm256_loadu_si256(words[4..].as_ptr().cast()),
            ])
        }
    }
    #[inline(always)]
    unsafe fn store(self, words: &mut [u64]) {
        assert!(words.len() >= 8);
        // SAFETY: eight writable words, unaligned stores.
        unsafe {
            _mm256_storeu_si256(words.as_mut_ptr().cast(), self.0[0]);
            _mm256_storeu_si256(words[4..].as_mut_ptr().cast(), self.0[1]);
        }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe {
            X8([
                _mm256_add_epi64(self.0[0], o.0[0]),
                _mm256_add_epi64(self.0[1], o.0[1]),
            ])
        }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe {
            X8([
                _mm256_xor_si256(self.0[0], o.0[0]),
                _mm256_xor_si256(self.0[1], o.0[1]),
            ])
        }
    }
    #[inline(always)]
    unsafe fn rotl(self, c: &[u32; 8]) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe { X8([rotl256(self.0[0], &c[..4]), rotl256(self.0[1], &c[4..])]) }
    }
    #[inline(always)]
    unsafe fn permute(self, i: &[usize; 8]) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe { X8([gather256(self.0, &i[..4]), gather256(self.0, &i[4..])]) }
    }
}

/// Four lanes picked from two registers: lane l is lane `i[l]` of the pair
/// (0..4 first register, 4..8 second). One permute when all come from one
/// register, else two permutes and a blend. (A free function rather than a
/// closure, so it inherits the caller's target features when inlined.)
#[inline(always)]
unsafe fn gather256(v: [__m256i; 2], i: &[usize]) -> __m256i {
    let local = [i[0] % 4, i[1] % 4, i[2] % 4, i[3] % 4];
    // SAFETY: the caller holds the AVX2 token.
    unsafe {
        if i[..4].iter().all(|&q| q < 4) {
            permute256(v[0], &local)
        } else if i[..4].iter().all(|&q| q >= 4) {
            permute256(v[1], &local)
        } else {
            let high = |l: usize| if i[l] >= 4 { -1i64 } else { 0 };
            let mask = _mm256_set_epi64x(high(3), high(2), high(1), high(0));
            _mm256_blendv_epi8(permute256(v[0], &local), permute256(v[1], &local), mask)
        }
    }
}

// ===========================================================================
// Multi-lane kernel: 4 computations at once, one per 64-bit lane.
// ===========================================================================
//
// AVX2 multi-lane kernel (x86-64): four computations at once, one per 64-bit
// lane of a ymm register.
//
// Same layout as the AVX-512 kernel (row `j` = word `j` of every state; the
// permutation is a renaming). AVX2 has no 64-bit rotate: rotations by a
// multiple of 8 are one byte shuffle, the others two shifts and an or.
// Seam: `backend::lanes`.

impl Row<4> for __m256i {
    shift_row! {
        4, splat = _mm256_set1_epi64x, load = _mm256_loadu_si256, store = _mm256_storeu_si256,
        add = _mm256_add_epi64, xor = _mm256_xor_si256, and = _mm256_and_si256,
        or = _mm256_or_si256, andnot = _mm256_andnot_si256, sll = _mm256_sll_epi64,
        srl = _mm256_srl_epi64, top_bit = _mm256_srli_epi64::<63>, rol = rol_by_shuffle,
        load_rows = transpose, store_lanes = untranspose,
    }

    #[inline(always)]
    unsafe fn load_two_rows(blocks: &[&[u8]; 4], offset: usize) -> [Self; 2] {
        // SAFETY: the CPU has AVX2 (the trait's contract), and every lane
        // holds `offset + 16` readable bytes (the contract);
        // the loads are unaligned. Lanes 0 and 2 in the halves of one
        // register, 1 and 3 in another: an unpack pairs lanes 2k and
        // 2k + 1 in half k.
        unsafe {
            let p: [__m128i; 4] =
                core::array::from_fn(|i| _mm_loadu_si128(blocks[i].as_ptr().add(offset).cast()));
            let even = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(p[0]), p[2]);
            let odd = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(p[1]), p[3]);
            [
                _mm256_unpacklo_epi64(even, odd),
                _mm256_unpackhi_epi64(even, odd),
            ]
        }
    }

    #[inline(always)]
    unsafe fn own_rounds_beside_scalar<const W: usize, const OUT_OF_LINE: bool>(
        x: &mut [WithScalar<Self, 4>; W],
        ks: &[WithScalar<Self, 4>; 17],
        ts: &[WithScalar<Self, 4>; 3],
    ) -> bool {
        // SAFETY: the CPU has AVX2 (the trait's contract), the one feature
        // both functions are compiled with.
        unsafe {
            if OUT_OF_LINE {
                rounds_beside_scalar_out_of_line::<W>(x, ks, ts)
            } else {
                rounds_beside_scalar::<W>(x, ks, ts)
            }
        }
    }
}

include!("hybrid_generated.rs");

/// The rows of `constants` in the generated rounds: the subkey numbers
/// 0..=18 broadcast, then the byte shuffles that rotate by 8, 16, ..., 56.
#[repr(align(32))]
struct HybridConstants([[u64; 4]; 26]);

static HYBRID_CONSTANTS: HybridConstants = {
    let mut rows = [[0u64; 4]; 26];
    let mut s = 0;
    while s < 19 {
        rows[s] = [s as u64; 4];
        s += 1;
    }
    let mut k = 1;
    while k < 8 {
        // Byte b of each word takes byte (b - k) mod 8 (as `rol_by_shuffle`).
        let mut index = 0u64;
        let mut b = 0;
        while b < 8 {
            index |= ((b + 8 - k) % 8) << (8 * b);
            b += 1;
        }
        let upper = index + 0x0808_0808_0808_0808;
        rows[18 + k as usize] = [index, upper, index, upper];
        k += 1;
    }
    HybridConstants(rows)
};

/// [`Row::own_rounds_beside_scalar`]: Threefish-256 and -512 in the
/// generated assembly (tools/gen/gen-x86-hybrid-asm.py says why), the four
/// vector lanes and the scalar lane interleaved MIX by MIX.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn rounds_beside_scalar<const W: usize>(
    x: &mut [WithScalar<__m256i, 4>; W],
    ks: &[WithScalar<__m256i, 4>; 17],
    ts: &[WithScalar<__m256i, 4>; 3],
) -> bool {
    let mut v: [__m256i; W] = core::array::from_fn(|j| x[j].0);
    let mut s: [u64; W] = core::array::from_fn(|j| x[j].1 .0);
    let (ks, ts, constants) = (ks.as_ptr(), ts.as_ptr(), HYBRID_CONSTANTS.0.as_ptr());
    // SAFETY: the CPU has AVX2 (the caller's); the code reads W + 1 rows of
    // `ks`, the 3 of `ts` and the 26 of `constants` (`WithScalar` is
    // `#[repr(C)]`: its vector at offset 0, its scalar word at 32), writes
    // no memory and only the registers named here, and the flags.
    unsafe {
        match W {
            4 => hybrid_rounds_256!(
                v0 = inout(ymm_reg) v[0], v1 = inout(ymm_reg) v[1],
                v2 = inout(ymm_reg) v[2], v3 = inout(ymm_reg) v[3],
                s0 = inout(reg) s[0], s1 = inout(reg) s[1],
                s2 = inout(reg) s[2], s3 = inout(reg) s[3],
                t = out(ymm_reg) _, ks = in(reg) ks, ts = in(reg) ts,
                constants = in(reg) constants,
                options(readonly, nostack),
            ),
            8 => hybrid_rounds_512!(
                v0 = inout(ymm_reg) v[0], v1 = inout(ymm_reg) v[1],
                v2 = inout(ymm_reg) v[2], v3 = inout(ymm_reg) v[3],
                v4 = inout(ymm_reg) v[4], v5 = inout(ymm_reg) v[5],
                v6 = inout(ymm_reg) v[6], v7 = inout(ymm_reg) v[7],
                s0 = inout(reg) s[0], s1 = inout(reg) s[1],
                s2 = inout(reg) s[2], s3 = inout(reg) s[3],
                s4 = inout(reg) s[4], s5 = inout(reg) s[5],
                s6 = inout(reg) s[6], s7 = inout(reg) s[7],
                t = out(ymm_reg) _, ks = in(reg) ks, ts = in(reg) ts,
                constants = in(reg) constants,
                options(readonly, nostack),
            ),
            _ => return false,
        }
    }
    for j in 0..W {
        x[j] = WithScalar(v[j], Scalar(s[j]));
    }
    true
}

/// [`rounds_beside_scalar`] in one copy of its own for each state size,
/// called by the blocks a call runs once (a message's last block and its
/// output block, [`Row::own_rounds`]). Inlined, each such block was
/// another copy of the rounds of about 11.5 KiB: a message of a body
/// block, a last block and an output block ran three, more than Golden
/// Cove's 32 KiB instruction cache (docs/lanes.md, "The scalar lane's last
/// and output blocks").
#[target_feature(enable = "avx2")]
unsafe fn rounds_beside_scalar_out_of_line<const W: usize>(
    x: &mut [WithScalar<__m256i, 4>; W],
    ks: &[WithScalar<__m256i, 4>; 17],
    ts: &[WithScalar<__m256i, 4>; 3],
) -> bool {
    /// One state size's copy, not generic: marked `#[inline(never)]`, the
    /// generic function was still inlined at every call site (no symbol
    /// of its own, the same machine code).
    macro_rules! out_of_line {
        ($name:ident, $words:literal) => {{
            #[target_feature(enable = "avx2")]
            #[inline(never)]
            unsafe fn $name(
                x: &mut [WithScalar<__m256i, 4>; $words],
                ks: &[WithScalar<__m256i, 4>; 17],
                ts: &[WithScalar<__m256i, 4>; 3],
            ) -> bool {
                // SAFETY: the CPU has AVX2 (the caller's).
                unsafe { rounds_beside_scalar::<$words>(x, ks, ts) }
            }
            let x: &mut [_; $words] = (&mut x[..]).try_into().expect("W words");
            // SAFETY: the CPU has AVX2 (the caller's).
            unsafe { $name(x, ks, ts) }
        }};
    }
    match W {
        4 => out_of_line!(rounds_256, 4),
        8 => out_of_line!(rounds_512, 8),
        _ => false,
    }
}

/// A rotation by a multiple of 8 is one byte shuffle; the others are
/// shifts (`None`; docs/x86-64.md: why not a byte shuffle for 8k + 1 too).
#[inline(always)]
unsafe fn rol_by_shuffle(v: __m256i, r: u32) -> Option<__m256i> {
    if !r.is_multiple_of(8) {
        return None;
    }
    // Byte b of each word takes byte (b - r/8) mod 8.
    let shift = (r / 8) as u64;
    let mut index = 0u64;
    for b in 0..8 {
        index |= ((b + 8 - shift) % 8) << (8 * b);
    }
    let upper = index + 0x0808_0808_0808_0808;
    // SAFETY: the caller holds the AVX2 token.
    unsafe {
        let mask = _mm256_setr_epi64x(index as i64, upper as i64, index as i64, upper as i64);
        Some(_mm256_shuffle_epi8(v, mask))
    }
}

/// [`Row::load_rows`]: 4x4 transposes of each 32-byte quarter of the block.
#[inline(always)]
unsafe fn transpose<const W: usize>(blocks: &[&[u8]; 4], offset: usize) -> [__m256i; W] {
    // SAFETY: the CPU has AVX2 and every lane holds `offset + 8 * W`
    // readable bytes (the contract of `Row::load_rows`).
    unsafe {
        let mut m = [_mm256_setzero_si256(); W];
        for quarter in 0..W / 4 {
            let mut r = [_mm256_setzero_si256(); 4];
            for i in 0..4 {
                // 32 readable bytes at `offset + 32 * quarter` of each
                // lane, since 32 * (quarter + 1) <= 8 * W (unaligned).
                r[i] = _mm256_loadu_si256(blocks[i].as_ptr().add(offset + 32 * quarter).cast());
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
}

/// [`Row::store_lanes`]: the inverse of [`transpose`], each quarter of the
/// rows (four words of four lanes) by the same 4x4 transpose.
#[inline(always)]
unsafe fn untranspose<const W: usize>(rows: &[__m256i; W], out: &mut [u8]) {
    let out = &mut out[..4 * 8 * W];
    // SAFETY: the CPU has AVX2 (the contract of `Row::store_lanes`); each
    // store writes 32 bytes inside one lane's `8 * W` bytes of `out` (`W`
    // is 4, 8 or 16).
    unsafe {
        for quarter in 0..W / 4 {
            let r = &rows[4 * quarter..4 * quarter + 4];
            let lo01 = _mm256_unpacklo_epi64(r[0], r[1]);
            let hi01 = _mm256_unpackhi_epi64(r[0], r[1]);
            let lo23 = _mm256_unpacklo_epi64(r[2], r[3]);
            let hi23 = _mm256_unpackhi_epi64(r[2], r[3]);
            let lanes = [
                _mm256_permute2x128_si256::<0x20>(lo01, lo23),
                _mm256_permute2x128_si256::<0x20>(hi01, hi23),
                _mm256_permute2x128_si256::<0x31>(lo01, lo23),
                _mm256_permute2x128_si256::<0x31>(hi01, hi23),
            ];
            for (i, words) in lanes.into_iter().enumerate() {
                // Words 4 * quarter.. of lane i (little-endian, as a
                // digest has them): 32 bytes inside its 8 * W.
                let at = out.as_mut_ptr().add(8 * W * i + 32 * quarter);
                _mm256_storeu_si256(at.cast(), words);
            }
        }
    }
}
