//! AArch64 NEON multi-lane kernel: two computations at once, one per 64-bit
//! lane of a q register.
//!
//! Row `j` (one q register) holds word `j` of both states, so a Threefish
//! round is `W/2` ADD, `W/2` rotations and `W/2` EOR, and the word
//! permutation is only a renaming of registers. NEON has no vector rotate:
//! without the SHA3 extension a rotation is `SHL` then `SRI` (shift right and
//! insert) into the shifted copy; with FEAT_SHA3 (Apple M1 and later,
//! Neoverse V1/V2/N2) it is one `XAR` with a zero operand (`XAR` rotates
//! `a ^ b` right, so rotl(x, r) = XAR(x, 0, 64 - r)). The token records which
//! of the two kernels this CPU runs. Seam: the "many lanes" section of
//! `platform.rs`.

// Index loops follow the numbering of words and lanes in the specification.
#![allow(clippy::needless_range_loop)]

use crate::consts::T1_FIRST;
use crate::platform::LaneState;
use core::arch::aarch64::*;

/// Computations per call: two 64-bit lanes of a q register.
pub(crate) const LANES: usize = 2;

cpufeatures::new!(sha3_cpuid, "sha3");

/// Proof that this CPU has NEON (only `detect` makes one), and whether it has
/// the SHA3 extension too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    sha3: bool,
}

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        // NEON (ASIMD) is part of every AArch64 Linux target; SHA3 is optional
        // and asked of the OS at run time.
        cfg!(target_feature = "neon").then(|| Token { sha3: sha3_cpuid::get() })
    }

}

#[inline(always)]
fn add(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // SAFETY: NEON is enabled for the whole target (checked by `Token::detect`).
    unsafe { vaddq_u64(a, b) }
}

#[inline(always)]
fn xor(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    // SAFETY: as in `add`.
    unsafe { veorq_u64(a, b) }
}

#[inline(always)]
fn splat(v: u64) -> uint64x2_t {
    // SAFETY: as in `add`.
    unsafe { vdupq_n_u64(v) }
}

/// `$body` with `$n` the constant equal to `$r` (1..=63): the shift and
/// rotate intrinsics take their count as a const generic, and every rotation
/// count of the cipher is a constant once the round is inlined, so the match
/// folds away.
macro_rules! with_const_count {
    ($r:expr, $n:ident => $body:expr) => {
        with_const_count!(@arms $r, $n => $body; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25
            26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59
            60 61 62 63)
    };
    (@arms $r:expr, $n:ident => $body:expr; $($k:literal)*) => {
        match $r {
            $($k => {
                const $n: i32 = $k;
                $body
            })*
            _ => unreachable!("rotation counts are 1..=63"),
        }
    };
}

/// Rotate both lanes left by `r`: `SHL` by `r`, then `SRI` by `64 - r`
/// inserts the bits that wrap around; a rotation by 32 is one `REV64` of the
/// 32-bit halves.
#[inline(always)]
fn rol_shift(a: uint64x2_t, r: u32) -> uint64x2_t {
    // SAFETY: as in `add`.
    unsafe {
        if r == 32 {
            return vreinterpretq_u64_u32(vrev64q_u32(vreinterpretq_u32_u64(a)));
        }
        with_const_count!(r, N => vsriq_n_u64::<{ 64 - N }>(vshlq_n_u64::<N>(a), a))
    }
}

/// Rotate both lanes left by `r` with one `XAR` (a rotate right of `a ^ 0`).
///
#[target_feature(enable = "sha3")]
#[inline]
fn rol_xar(a: uint64x2_t, r: u32) -> uint64x2_t {
    with_const_count!(r, N => vxarq_u64::<{ 64 - N }>(a, vdupq_n_u64(0)))
}

/// Message rows of the block at byte `offset` of both lanes: each pair of
/// words of lane 0 and lane 1 is transposed with `TRN1`/`TRN2`.
///
/// # Safety
/// Every `blocks[i]` must hold at least `offset + 8 * W` bytes.
#[inline(always)]
unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [uint64x2_t; W] {
    let mut m = [splat(0); W];
    for pair in 0..W / 2 {
        // SAFETY: 16 readable bytes at `offset + 16 * pair` of each lane, since
        // 16 * (pair + 1) <= 8 * W; `vld1q_u8` has no alignment requirement.
        // Little-endian target, so the bytes are the words.
        unsafe {
            let a = vreinterpretq_u64_u8(vld1q_u8(blocks[0].as_ptr().add(offset + 16 * pair)));
            let b = vreinterpretq_u64_u8(vld1q_u8(blocks[1].as_ptr().add(offset + 16 * pair)));
            m[2 * pair] = vtrn1q_u64(a, b);
            m[2 * pair + 1] = vtrn2q_u64(a, b);
        }
    }
    m
}

#[inline(always)]
fn load_row(row: &[u64; 2]) -> uint64x2_t {
    // SAFETY: a row is 16 readable bytes.
    unsafe { vld1q_u64(row.as_ptr()) }
}

#[inline(always)]
fn store_row(row: &mut [u64; 2], v: uint64x2_t) {
    // SAFETY: a row is 16 writable bytes.
    unsafe { vst1q_u64(row.as_mut_ptr(), v) }
}

/// The block loop of one kernel, around its instance of the round skeleton
/// (`lane_threefish!`): the rotation and the target feature are all that
/// differ between the two kernels.
macro_rules! neon_kernel {
    ($feature:literal, $rol:path) => {
        use super::{add, load_row, load_rows, splat, store_row, xor};
        use super::{LaneState, T1_FIRST};
        use core::arch::aarch64::*;

        #[target_feature(enable = $feature)]
        #[inline]
        fn rol(a: uint64x2_t, r: u32) -> uint64x2_t {
            // SAFETY: the kernel's target feature is enabled in this function.
            #[allow(unused_unsafe)]
            unsafe {
                $rol(a, r)
            }
        }

        crate::backend::lanes_portable::lane_threefish!($feature, uint64x2_t, add, xor, rol, splat);

        /// # Safety
        /// Every `blocks[i]` must hold `n * 8 * W` bytes; the CPU has the
        /// kernel's target feature.
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn compress<const W: usize>(
            state: &mut LaneState<W, 2>,
            blocks: &[&[u8]; 2],
            bytes_per_block: &[u64; 2],
            n: usize,
        ) {
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
                // The 128-bit tweak position: a carry out of word 0 (sum < step,
                // an all-ones mask) adds one to word 1.
                let sum = add(t0, step);
                t1 = vsubq_u64(t1, vcltq_u64(sum, step));
                t0 = sum;
                let (ks, ts) = schedules::<W>(&chain, t0, t1);
                let mut x = m;
                encrypt::<W>(&mut x, &ks, &ts);
                for j in 0..W {
                    chain[j] = xor(x[j], m[j]);
                }
                t1 = vandq_u64(t1, not_first);
            }
            for j in 0..W {
                store_row(&mut state.chain[j], chain[j]);
            }
            store_row(&mut state.tweak[0], t0);
            store_row(&mut state.tweak[1], t1);
        }
    };
}

/// The kernel without SHA3: rotations are `SHL` + `SRI`.
mod shift {
    neon_kernel!("neon", super::rol_shift);
}

/// The kernel with SHA3: rotations are one `XAR`.
mod xar {
    neon_kernel!("sha3", super::rol_xar);
}

/// The multi-lane block function (seam in `platform.rs`).
///
/// # Panics
/// If the `blocks` are not all the same whole number of blocks long.
pub(crate) fn compress<const W: usize>(token: Token, state: &mut LaneState<W, 2>, blocks: [&[u8]; 2], bytes_per_block: [u64; 2]) {
    let total = blocks[0].len();
    assert!(total.is_multiple_of(8 * W) && blocks.iter().all(|b| b.len() == total), "lanes: unequal blocks");
    let n = total / (8 * W);
    if token.sha3 {
        // SAFETY: the token proves NEON and SHA3; every lane holds `n` whole blocks.
        unsafe { xar::compress::<W>(state, &blocks, &bytes_per_block, n) }
    } else {
        // SAFETY: the token proves NEON; every lane holds `n` whole blocks.
        unsafe { shift::compress::<W>(state, &blocks, &bytes_per_block, n) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::portable;
    use rand::{Rng, SeedableRng};

    /// Both kernels (the XAR one where this CPU has SHA3) against the
    /// portable block function, lane by lane: random chains, tweaks near the
    /// 64-bit carry, different lengths per lane, unaligned input.
    fn check<const W: usize>(token: Token, seed: u64) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        for n in [1usize, 3] {
            let mut state = LaneState::<W, 2>::new();
            let data: Vec<Vec<u8>> = (0..2).map(|_| (0..n * 8 * W + 1).map(|_| rng.gen()).collect()).collect();
            let bytes_per_block = [8 * W as u64, rng.gen_range(1..8 * W as u64)];
            let mut want = Vec::new();
            for i in 0..2 {
                let chain: [u64; W] = core::array::from_fn(|_| rng.gen());
                let tweak = [u64::MAX - rng.gen_range(0..2 * 8 * W as u64), rng.gen::<u64>() | T1_FIRST];
                state.load(i, &chain, tweak);
                let (mut c, mut t) = (chain, tweak);
                portable::compress::<W>(&mut c, &mut t, &data[i][i..i + n * 8 * W], bytes_per_block[i]);
                want.push((c, t));
            }
            compress::<W>(token, &mut state, [&data[0][..n * 8 * W], &data[1][1..1 + n * 8 * W]], bytes_per_block);
            for (i, (c, t)) in want.iter().enumerate() {
                assert_eq!(&state.chain_of(i), c, "W={W} n={n} lane {i} sha3={}", token.sha3);
                assert_eq!([state.tweak[0][i], state.tweak[1][i]], *t, "W={W} n={n} lane {i} tweak");
            }
        }
    }

    #[test]
    fn both_kernels_match_portable() {
        let token = Token::detect().expect("NEON on every AArch64 Linux");
        // CI runs this under QEMU CPUs with and without SHA3, and says which.
        match std::env::var("SKEIN_SIMD_EXPECT_SHA3").as_deref() {
            Ok("1") => assert!(token.sha3, "SHA3 expected on this CPU"),
            Ok("0") => assert!(!token.sha3, "SHA3 not expected on this CPU"),
            _ => {}
        }
        let kernels = if token.sha3 { vec![token, Token { sha3: false }] } else { vec![token] };
        for (k, kernel) in kernels.into_iter().enumerate() {
            check::<4>(kernel, 10 + k as u64);
            check::<8>(kernel, 20 + k as u64);
            check::<16>(kernel, 30 + k as u64);
        }
    }
}
