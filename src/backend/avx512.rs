//! AVX-512 backend (x86-64, AVX-512F + VL): the even/odd engine of
//! `x86_engine` with native per-lane rotates (`vprolvq`). Each half of the
//! state is one register: xmm for Skein-256, ymm for Skein-512 (VL forms),
//! zmm for Skein-1024, so a round is four instructions.

use super::x86_engine::{compress, Half};
use core::arch::x86_64::*;

cpufeatures::new!(avx512_cpuid, "avx512f", "avx512vl");

/// Proof that this CPU has AVX-512F and AVX-512VL (and the OS saves zmm state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token(());

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        avx512_cpuid::get().then_some(Token(()))
    }
}

/// Two lanes (Skein-256 half state).
#[derive(Clone, Copy)]
struct X2(__m128i);
/// Four lanes (Skein-512 half state).
#[derive(Clone, Copy)]
struct X4(__m256i);
/// Eight lanes (Skein-1024 half state).
#[derive(Clone, Copy)]
struct X8(__m512i);

impl Half for X2 {
    const LANES: usize = 2;
    #[inline(always)]
    unsafe fn load(words: &[u64]) -> Self {
        assert!(words.len() >= 2);
        // SAFETY: two readable words, unaligned load.
        X2(unsafe { _mm_loadu_si128(words.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, words: &mut [u64]) {
        assert!(words.len() >= 2);
        // SAFETY: two writable words, unaligned store.
        unsafe { _mm_storeu_si128(words.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe { X2(_mm_add_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe { X2(_mm_xor_si128(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn rotl(self, c: &[u32; 8]) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe {
            X2(_mm_rolv_epi64(
                self.0,
                _mm_set_epi64x(c[1] as i64, c[0] as i64),
            ))
        }
    }
    #[inline(always)]
    unsafe fn permute(self, i: &[usize; 8]) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe {
            if i[0] == 0 {
                self
            } else {
                X2(_mm_shuffle_epi32::<0x4E>(self.0))
            }
        }
    }
}

impl Half for X4 {
    const LANES: usize = 4;
    #[inline(always)]
    unsafe fn load(words: &[u64]) -> Self {
        assert!(words.len() >= 4);
        // SAFETY: four readable words, unaligned load.
        X4(unsafe { _mm256_loadu_si256(words.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, words: &mut [u64]) {
        assert!(words.len() >= 4);
        // SAFETY: four writable words, unaligned store.
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe { X4(_mm256_add_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe { X4(_mm256_xor_si256(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn rotl(self, c: &[u32; 8]) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe {
            let counts = _mm256_set_epi64x(c[3] as i64, c[2] as i64, c[1] as i64, c[0] as i64);
            X4(_mm256_rolv_epi64(self.0, counts))
        }
    }
    #[inline(always)]
    unsafe fn permute(self, i: &[usize; 8]) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe {
            match (i[0], i[1], i[2], i[3]) {
                (0, 1, 2, 3) => self,
                // Swapping within 128-bit halves is a one-cycle in-lane shuffle.
                (1, 0, 3, 2) => X4(_mm256_shuffle_epi32::<0x4E>(self.0)),
                (3, 2, 1, 0) => X4(_mm256_permute4x64_epi64::<0x1B>(self.0)),
                (a, b, c, d) => {
                    let index = _mm256_set_epi64x(d as i64, c as i64, b as i64, a as i64);
                    X4(_mm256_permutexvar_epi64(index, self.0))
                }
            }
        }
    }
}

impl Half for X8 {
    const LANES: usize = 8;
    #[inline(always)]
    unsafe fn load(words: &[u64]) -> Self {
        assert!(words.len() >= 8);
        // SAFETY: eight readable words, unaligned load.
        X8(unsafe { _mm512_loadu_si512(words.as_ptr().cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, words: &mut [u64]) {
        assert!(words.len() >= 8);
        // SAFETY: eight writable words, unaligned store.
        unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe { X8(_mm512_add_epi64(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: `Half` is used only under this backend's token.
        unsafe { X8(_mm512_xor_si512(self.0, o.0)) }
    }
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

#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn compress_256_avx512(
    chain: &mut [u64; 4],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: this function's target features are the ones X2 uses.
    unsafe { compress::<X2, 4>(chain, tweak, blocks, bytes_per_block) }
}
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn compress_512_avx512(
    chain: &mut [u64; 8],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: this function's target features are the ones X4 uses.
    unsafe { compress::<X4, 8>(chain, tweak, blocks, bytes_per_block) }
}
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn compress_1024_avx512(
    chain: &mut [u64; 16],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: this function's target features are the ones X8 uses.
    unsafe { compress::<X8, 16>(chain, tweak, blocks, bytes_per_block) }
}

pub(crate) fn compress_256(
    _: Token,
    chain: &mut [u64; 4],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: a Token exists only if detection found AVX-512F and VL.
    unsafe { compress_256_avx512(chain, tweak, blocks, bytes_per_block) }
}
pub(crate) fn compress_512(
    _: Token,
    chain: &mut [u64; 8],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: a Token exists only if detection found AVX-512F and VL.
    unsafe { compress_512_avx512(chain, tweak, blocks, bytes_per_block) }
}
pub(crate) fn compress_1024(
    _: Token,
    chain: &mut [u64; 16],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    // SAFETY: a Token exists only if detection found AVX-512F and VL.
    unsafe { compress_1024_avx512(chain, tweak, blocks, bytes_per_block) }
}
