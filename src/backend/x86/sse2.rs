//! SSE2 backend (x86-64 baseline): the even/odd engine of `engine` in
//! xmm registers of two lanes. SSE2 shifts every lane by one count, so a
//! rotate whose two lanes differ is two shift pairs and a `movsd` merge; the
//! halves of Skein-512 and -1024 span two and four registers, and each odd
//! permutation is one `pshufd` or `shufpd` per register.

use super::engine::{compress, lane_kernel, Half};
use core::arch::x86_64::*;

cpufeatures::new!(sse2_cpuid, "sse2");

/// Proof that this CPU has SSE2 (always true on x86-64; kept for symmetry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token(());

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        sse2_cpuid::get().then_some(Token(()))
    }
}

/// `2 * K` lanes in `K` xmm registers.
#[derive(Clone, Copy)]
struct Regs<const K: usize>([__m128i; K]);

/// `[f(0), .., f(K-1)]`, as a plain loop (`array::from_fn` is not always
/// inlined, which would put a call in every round).
#[inline(always)]
fn each<const K: usize>(f: impl Fn(usize) -> __m128i) -> [__m128i; K] {
    let mut out = [f(0); K];
    for (r, o) in out.iter_mut().enumerate().skip(1) {
        *o = f(r);
    }
    out
}

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
    const WORDS: usize = 2 * K;
    #[inline(always)]
    unsafe fn load(words: &[u64]) -> Self {
        assert!(words.len() >= 2 * K);
        // SAFETY: 2K readable words, unaligned loads.
        Regs(each::<K>(|r| unsafe {
            _mm_loadu_si128(words[2 * r..].as_ptr().cast())
        }))
    }
    #[inline(always)]
    unsafe fn store(self, words: &mut [u64]) {
        assert!(words.len() >= 2 * K);
        for r in 0..K {
            // SAFETY: 2K writable words, unaligned stores.
            unsafe { _mm_storeu_si128(words[2 * r..].as_mut_ptr().cast(), self.0[r]) }
        }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Regs(each::<K>(|r| unsafe { _mm_add_epi64(self.0[r], o.0[r]) }))
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Regs(each::<K>(|r| unsafe { _mm_xor_si128(self.0[r], o.0[r]) }))
    }
    #[inline(always)]
    unsafe fn rotl(self, c: &[u32; 8]) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Regs(each::<K>(|r| unsafe {
            rotl128(self.0[r], c[2 * r], c[2 * r + 1])
        }))
    }
    #[inline(always)]
    unsafe fn permute(self, i: &[usize; 8]) -> Self {
        // SAFETY: SSE2 is part of x86-64.
        Regs(each::<K>(|r| unsafe {
            gather128(&self.0, i[2 * r], i[2 * r + 1])
        }))
    }
}

#[target_feature(enable = "sse2")]
unsafe fn compress_256_sse2(
    chain: &mut [u64; 4],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: `Regs` uses SSE2 only.
    unsafe { compress::<Regs<1>, 4>(chain, tweak, blocks, bytes_per_block) }
}
#[target_feature(enable = "sse2")]
unsafe fn compress_512_sse2(
    chain: &mut [u64; 8],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: `Regs` uses SSE2 only.
    unsafe { compress::<Regs<2>, 8>(chain, tweak, blocks, bytes_per_block) }
}
#[target_feature(enable = "sse2")]
unsafe fn compress_1024_sse2(
    chain: &mut [u64; 16],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: `Regs` uses SSE2 only.
    unsafe { compress::<Regs<4>, 16>(chain, tweak, blocks, bytes_per_block) }
}

pub(crate) fn compress_256(
    _: Token,
    chain: &mut [u64; 4],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: a Token exists only if detection found SSE2.
    unsafe { compress_256_sse2(chain, tweak, blocks, bytes_per_block) }
}
pub(crate) fn compress_512(
    _: Token,
    chain: &mut [u64; 8],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: a Token exists only if detection found SSE2.
    unsafe { compress_512_sse2(chain, tweak, blocks, bytes_per_block) }
}
pub(crate) fn compress_1024(
    _: Token,
    chain: &mut [u64; 16],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: a Token exists only if detection found SSE2.
    unsafe { compress_1024_sse2(chain, tweak, blocks, bytes_per_block) }
}

// ===========================================================================
// Multi-lane kernel: 2 computations at once, one per 64-bit lane.
// ===========================================================================
//
// SSE2 multi-lane kernel (x86-64): two computations at once, one per 64-bit
// lane of an xmm register; the baseline of every x86-64 CPU.
//
// Same layout as the AVX-512 kernel. SSE2 has neither a 64-bit rotate nor a
// byte shuffle: a rotation by 32 is one 32-bit shuffle, the others two shifts
// and an or. Seam: `backend::lanes`.

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

/// Tweak words plus `step`, carrying out of word 0 into word 1.
#[target_feature(enable = "sse2")]
#[inline]
fn advance(t0: __m128i, t1: __m128i, step: __m128i) -> (__m128i, __m128i) {
    let sum = add(t0, step);
    // Carry out of the 64-bit add: top bit of (a & b) | ((a | b) & !sum).
    let carry = _mm_or_si128(
        _mm_and_si128(t0, step),
        _mm_andnot_si128(sum, _mm_or_si128(t0, step)),
    );
    (sum, add(t1, _mm_srli_epi64::<63>(carry)))
}

#[target_feature(enable = "sse2")]
#[inline]
fn and(a: __m128i, b: __m128i) -> __m128i {
    _mm_and_si128(a, b)
}

/// Message rows of the block at byte `offset` of both lanes.
///
/// # Safety
/// Both `blocks[i]` must hold at least `offset + 8 * W` bytes.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [__m128i; W] {
    let mut m = [_mm_setzero_si128(); W];
    for pair in 0..W / 2 {
        let at = offset + 16 * pair;
        // SAFETY: bytes at..at + 16 lie inside the block, which ends at
        // offset + 8 * W (unaligned loads).
        let (r0, r1) = unsafe {
            (
                _mm_loadu_si128(blocks[0].as_ptr().add(at).cast()),
                _mm_loadu_si128(blocks[1].as_ptr().add(at).cast()),
            )
        };
        m[2 * pair] = _mm_unpacklo_epi64(r0, r1);
        m[2 * pair + 1] = _mm_unpackhi_epi64(r0, r1);
    }
    m
}

lane_kernel!("sse2", __m128i, 2);

/// Two groups of 2 lanes per call, 4 computations (see
/// `interleaved_lane_kernel!`).
pub(crate) mod interleaved {
    use core::arch::x86_64::__m128i;
    crate::backend::lane_kernel::interleaved_lane_kernel!("sse2", __m128i, 2, 4);
}
