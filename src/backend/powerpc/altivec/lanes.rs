//! The AltiVec multi-lane kernel (`lanes/kernel.rs` over [`Halves`], seam in
//! `backend::lanes`): a row is word `j` of four computations as two
//! registers, the high halves and the low halves, so that a 64-bit addition
//! is `vaddcuw` and three `vadduwm` with no lane moves, a rotation is two
//! `vrlw` and two `vsel` (the halves trade places for counts of 32 and more,
//! which costs nothing), and the word permutation is a renaming of rows.
//! Four lanes, twice the 32-bit lanes of a register, so that each
//! instruction does a whole row.

use super::vector::*;
use super::Token;
use crate::backend::dispatch::feature_glue::lane_entry;
use crate::backend::dispatch::isa::{BlockRun, Isa, Row};
use crate::backend::lanes::LaneCall;
use core::intrinsics::simd::{simd_add, simd_and, simd_shl, simd_shuffle, simd_xor};
use core::mem::transmute;
use core::simd::Simd;

/// The multi-lane block function (seam in `backend::lanes`): the four-lane
/// kernel for Skein-256; for Skein-512 and -1024 the single-stream block
/// function on each lane in turn. The single stream's split layout already
/// fills every 32-bit lane at those sizes and folds the tweak into its key
/// tables, so four lanes do not beat it, and at Skein-1024 16 rows of two
/// registers are all 32 vector registers: the four-lane kernel spills
/// (MPC7450 model figures: docs/powerpc.md).
///
/// # Panics
/// If the lanes' blocks or messages differ in length.
pub(super) fn lanes<const W: usize>(token: Token, call: LaneCall<'_, W, 4>) {
    if W == 4 {
        // SAFETY: the token proves AltiVec.
        return unsafe { lanes_altivec::<Halves, 4, W>(call) };
    }
    call.by_blocks(|state, blocks, bytes_per_block| {
        let mut words = [0u64; W];
        for (lane, (block, step)) in blocks.iter().zip(bytes_per_block).enumerate() {
            for (j, w) in words.iter_mut().enumerate() {
                *w = state.chain[j][lane];
            }
            let mut tweak = [state.tweak[0][lane], state.tweak[1][lane]];
            token.compress::<W>(BlockRun {
                chain: &mut words,
                tweak: &mut tweak,
                blocks: block,
                bytes_per_block: step,
            });
            state.load(lane, &words, tweak);
        }
        zeroize::Zeroize::zeroize(&mut words);
    })
}

lane_entry!(lanes_altivec, "altivec");

/// Word `j` of four computations: high halves in `h`, low halves in `l`.
#[derive(Clone, Copy)]
pub(super) struct Halves {
    h: V,
    l: V,
}

/// Where the high and the low half of each of four native-endian `u64`
/// (two registers of `u32` lanes) are.
const ROW_HI: Simd<u32, 4> = if cfg!(target_endian = "big") {
    idx4([0, 2, 4, 6])
} else {
    idx4([1, 3, 5, 7])
};
const ROW_LO: Simd<u32, 4> = if cfg!(target_endian = "big") {
    idx4([1, 3, 5, 7])
} else {
    idx4([0, 2, 4, 6])
};
/// The inverse: native-endian `u64` 0, 1 and 2, 3 from `h` and `l`.
const WORDS_01: Simd<u32, 4> = if cfg!(target_endian = "big") {
    idx4([0, 4, 1, 5])
} else {
    idx4([4, 0, 5, 1])
};
const WORDS_23: Simd<u32, 4> = if cfg!(target_endian = "big") {
    idx4([2, 6, 3, 7])
} else {
    idx4([6, 2, 7, 3])
};

impl Row<4> for Halves {
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn splat(v: u64) -> Self {
        Halves {
            h: vconst([hi(v); 4]),
            l: vconst([lo(v); 4]),
        }
    }
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn add(self, b: Self) -> Self {
        // SAFETY: the CPU has AltiVec (the trait's contract), which this
        // function enables; `simd_add` is a wrapping lane-wise add of two
        // vectors of one type.
        unsafe {
            Halves {
                h: simd_add(simd_add(self.h, b.h), vec_addc(self.l, b.l)),
                l: simd_add(self.l, b.l),
            }
        }
    }
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn xor(self, b: Self) -> Self {
        // SAFETY: lane-wise logic on two vectors of one type.
        unsafe {
            Halves {
                h: simd_xor(self.h, b.h),
                l: simd_xor(self.l, b.l),
            }
        }
    }
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn and(self, b: Self) -> Self {
        // SAFETY: lane-wise logic on two vectors of one type.
        unsafe {
            Halves {
                h: simd_and(self.h, b.h),
                l: simd_and(self.l, b.l),
            }
        }
    }
    /// Both halves rotated by `r % 32` (`vrlw` reads the low five bits of
    /// each count), then each result half keeps its bits above `r % 32` and
    /// takes the low ones from the other rotated half; the halves trade
    /// places when `r >= 32`. Branch-free, so that the kernel's loop over a
    /// round's MIXes is small enough for LLVM to unroll, after which every
    /// count and mask is a constant.
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn rol(self, r: u32) -> Self {
        let swap = r >= 32;
        let (h, l) = (
            if swap { self.l } else { self.h },
            if swap { self.h } else { self.l },
        );
        let count = vconst([r % 32; 4]);
        // SAFETY: the CPU has AltiVec (the trait's contract), which this
        // function enables; the shift count `r % 32` is below the lanes'
        // 32 bits, as `simd_shl` requires.
        unsafe {
            let (rh, rl) = (vec_rl(h, count), vec_rl(l, count));
            let high = simd_shl(vconst([u32::MAX; 4]), count);
            Halves {
                h: vsel(rl, rh, high),
                l: vsel(rh, rl, high),
            }
        }
    }
    /// The carry out of word 0 adds one to word 1.
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        // SAFETY: the CPU has AltiVec (the trait's contract), which this
        // function enables; `simd_add` is a wrapping lane-wise add of two
        // vectors of one type.
        unsafe {
            let carry_lo = vec_addc(t0.l, step.l);
            let h = simd_add(t0.h, step.h);
            let carry: V = simd_add(vec_addc(t0.h, step.h), vec_addc(h, carry_lo));
            let sum = Halves {
                h: simd_add(h, carry_lo),
                l: simd_add(t0.l, step.l),
            };
            let zero = vconst([0; 4]);
            (sum, t1.add(Halves { h: zero, l: carry }))
        }
    }
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn load_row(row: &[u64; 4]) -> Self {
        // SAFETY: `transmute` between two plain types of 32 bytes; the
        // indices of `ROW_HI` and `ROW_LO` are below 8, the lanes of the
        // two vectors shuffled.
        unsafe {
            // Four u64 are the 32 bytes of two vectors.
            let v: [V; 2] = transmute(*row);
            Halves {
                h: simd_shuffle(v[0], v[1], ROW_HI),
                l: simd_shuffle(v[0], v[1], ROW_LO),
            }
        }
    }
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn store_row(self, row: &mut [u64; 4]) {
        // SAFETY: the indices of `WORDS_01` and `WORDS_23` are below 8, the
        // lanes of the two vectors shuffled; `transmute` between two plain
        // types of 32 bytes.
        unsafe {
            let w: [V; 2] = [
                simd_shuffle(self.h, self.l, WORDS_01),
                simd_shuffle(self.h, self.l, WORDS_23),
            ];
            *row = transmute::<[V; 2], [u64; 4]>(w);
        }
    }
    /// 16 bytes (two words) of each lane, their halves gathered for two
    /// lanes at a time, then the two pairs of lanes joined.
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 4], offset: usize) -> [Self; W] {
        // The streams end by themselves after two blocks.
        prefetch_stream::<0>(blocks[0].as_ptr().wrapping_add(offset), 8 * W);
        prefetch_stream::<1>(blocks[1].as_ptr().wrapping_add(offset), 8 * W);
        prefetch_stream::<2>(blocks[2].as_ptr().wrapping_add(offset), 8 * W);
        prefetch_stream::<3>(blocks[3].as_ptr().wrapping_add(offset), 8 * W);
        // SAFETY: the CPU has AltiVec (the trait's contract), which this
        // function enables, as `load_bytes` requires; there are
        // 16 readable bytes at `offset + 16 * pair` of each lane, since
        // 16 * (pair + 1) <= 8 * W (the contract); the indices of
        // `halves_of_two` are below 32, the lanes of the two vectors shuffled.
        unsafe {
            let mut m = [Self::splat(0); W];
            // `while`, not `for`: a library iterator would not inline here.
            let mut pair = 0;
            while pair < W / 2 {
                let at = offset + 16 * pair;
                let a: [Bytes; 4] = [
                    load_bytes(blocks[0].as_ptr().add(at)),
                    load_bytes(blocks[1].as_ptr().add(at)),
                    load_bytes(blocks[2].as_ptr().add(at)),
                    load_bytes(blocks[3].as_ptr().add(at)),
                ];
                m[2 * pair] = gather(
                    simd_shuffle(a[0], a[1], const { halves_of_two(0) }),
                    simd_shuffle(a[2], a[3], const { halves_of_two(0) }),
                );
                m[2 * pair + 1] = gather(
                    simd_shuffle(a[0], a[1], const { halves_of_two(8) }),
                    simd_shuffle(a[2], a[3], const { halves_of_two(8) }),
                );
                pair += 1;
            }
            m
        }
    }
}

/// Byte shuffle of 16 bytes of lane a and of lane b giving (high half of
/// the word at byte `offset` of a, of b, low half of a, of b).
const fn halves_of_two(offset: usize) -> Simd<u32, 16> {
    let (h, l) = (half_bytes(offset, 0), half_bytes(offset, 1));
    let mut i = [0u32; 16];
    let mut n = 0;
    while n < 4 {
        i[n] = h[n] as u32;
        i[4 + n] = 16 + h[n] as u32;
        i[8 + n] = l[n] as u32;
        i[12 + n] = 16 + l[n] as u32;
        n += 1;
    }
    Simd::from_array(i)
}

/// The row from (high halves of lanes 0, 1, low halves of lanes 0, 1) and
/// the same of lanes 2, 3.
#[target_feature(enable = "altivec")]
#[inline]
fn gather(p01: Bytes, p23: Bytes) -> Halves {
    // SAFETY: 16-byte values of the same size; lane shuffles.
    unsafe {
        let (p01, p23) = (transmute::<Bytes, V>(p01), transmute::<Bytes, V>(p23));
        Halves {
            h: simd_shuffle(p01, p23, const { idx4([0, 1, 4, 5]) }),
            l: simd_shuffle(p01, p23, const { idx4([2, 3, 6, 7]) }),
        }
    }
}
