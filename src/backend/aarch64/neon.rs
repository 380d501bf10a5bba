//! AArch64 NEON (ASIMD), present on every AArch64 Linux CPU, optionally with
//! the SHA3 extension.
//!
//! **Multi-lane kernel** (`lanes`, seam in `backend::lanes`): four
//! computations at once, in one of two row types chosen by the token.
//!
//! With FEAT_SHA3 (Apple M1 and later, Neoverse V1/V2/N2), [`Neon`]: row `j`
//! holds word `j` of the four states in a pair of q registers (lanes 0, 1
//! and 2, 3), so a Threefish round is `W` ADD, `W` rotations and `W` EOR,
//! and the word permutation is only a renaming of registers. A rotation is
//! one `XAR` with a zero operand (`XAR` rotates `a ^ b` right, so rotl(x, r)
//! = XAR(x, 0, 64 - r)). The two registers of a row are independent chains:
//! with one register per row (two lanes), the add, rotate, xor latency of
//! each round leaves a wide core's vector pipes idle (llvm-mca:
//! docs/aarch64.md).
//!
//! Without SHA3 (Neoverse N1, Cortex-A72, A53, A55), a NEON rotation is
//! `SHL`, then `SRI` (shift right and insert) into the shifted copy, and
//! both run on one of the two vector pipes of those cores: four NEON lanes
//! are slower than one scalar stream there. Scalar A64 rotates for free
//! inside `EOR`, but one scalar stream already fills the integer pipes. So
//! the kernel without SHA3 is [`Hybrid`]: two lanes in one q register per
//! row ([`Half`]) and two more in general-purpose registers beside them
//! ([`Scalar`](crate::backend::dispatch::isa::Scalar) rows, `WithScalar`), which the out-of-order core runs on the
//! vector and the integer pipes at once; the `WithScalar` form adds a third
//! scalar lane (five messages). Which form runs: [`lane_form`].
//!
//! **Single stream**: the portable block function. A64's scalar code does a
//! MIX in two instructions (`ADD`, then `EOR` with a rotated operand) on four
//! to six integer pipes; a NEON single stream needs three per two MIXes plus
//! a permute per round on the dependency chain, and loses (docs/aarch64.md).

// Index loops follow the numbering of words and lanes in the specification.
#![allow(clippy::needless_range_loop)]

use crate::backend::dispatch::feature_glue::lane_entry;
use crate::backend::dispatch::isa::{by_width, BlockRun, Isa, LaneEntry, Row, WithScalar};
use crate::backend::lanes::{Kernel, LaneCall, LaneJob};
use crate::backend::lanes::{LaneForm, Workload};
use crate::backend::portable;
use core::arch::aarch64::*;

cpufeatures::new!(sha3_cpuid, "sha3");

/// Proof that this CPU has NEON (only `detect` makes one), and whether it has
/// the SHA3 extension too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    sha3: bool,
}

impl Isa for Token {
    const LANES: usize = 4;
    const FORMS: &'static [LaneForm] = &[LaneForm::OneGroup, LaneForm::WithScalar];

    fn lane_form(words: usize, work: Workload) -> LaneForm {
        lane_form(sha3_cpuid::get(), lse_detected(), words, work)
    }

    fn detect() -> Option<Token> {
        // NEON is part of every AArch64 Linux target (so a compile-time
        // fact); SHA3 is optional and asked of the OS at run time.
        cfg!(target_feature = "neon").then(|| Token {
            sha3: sha3_cpuid::get(),
        })
    }

    /// The portable block function (see the module documentation).
    #[inline]
    fn compress<const W: usize>(self, run: BlockRun<'_, W>) {
        portable::Token.compress::<W>(run)
    }

    // Through statics of their entries (`isa::by_width` says why).
    #[inline]
    fn run_lanes<const W: usize, J: LaneJob<W>>(self, form: LaneForm, job: J) -> J::Output {
        if form == LaneForm::WithScalar {
            static ENTRIES: (
                LaneEntry<Token, 4, 5>,
                LaneEntry<Token, 8, 5>,
                LaneEntry<Token, 16, 5>,
            ) = (lanes_five::<4>, lanes_five::<8>, lanes_five::<16>);
            return job.run::<5, _>(Kernel(
                self,
                by_width::<W, LaneEntry<Token, W, 5>, _, _, _>(&ENTRIES),
            ));
        }
        static ENTRIES: (
            LaneEntry<Token, 4, 4>,
            LaneEntry<Token, 8, 4>,
            LaneEntry<Token, 16, 4>,
        ) = (lanes::<4>, lanes::<8>, lanes::<16>);
        job.run::<4, _>(Kernel(
            self,
            by_width::<W, LaneEntry<Token, W, 4>, _, _, _>(&ENTRIES),
        ))
    }
}

/// Whether the CPU has FEAT_LSE (the ARMv8.1 atomics): the rule's sign of
/// a core of the Neoverse N1 / Cortex-A76 generation or later (four-wide
/// decode) rather than an ARMv8.0 core (Cortex-A72, A57, A53: three-wide
/// or in-order), which [`lane_form`] treats differently without SHA3.
#[cfg(feature = "std")]
fn lse_detected() -> bool {
    std::arch::is_aarch64_feature_detected!("lse")
}

/// Without std, no run-time detection: LSE where the build has it.
#[cfg(not(feature = "std"))]
fn lse_detected() -> bool {
    cfg!(target_feature = "lse")
}

/// The rule for the kernel's form (docs/aarch64.md, "Without SHA3"): with
/// SHA3 the four `XAR` lanes. Without, Skein-1024 hashes its lanes one by
/// one (every hybrid spills), and Skein-256 takes the hybrid with a third
/// scalar lane (five messages). At Skein-512 the cores differ (llvm-mca):
/// with LSE (Neoverse N1 and later) the hybrid of five, without (an
/// ARMv8.0 core such as the Cortex-A72, whose model dispatches three
/// instructions a cycle) the hybrid of four, which spills less.
fn lane_form(sha3: bool, lse: bool, words: usize, work: Workload) -> LaneForm {
    let _ = work;
    if sha3 || words == 16 || (words == 8 && !lse) {
        LaneForm::OneGroup
    } else {
        LaneForm::WithScalar
    }
}

// ===========================================================================
// Multi-lane kernel
// ===========================================================================

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

/// Two NEON lanes and two scalar lanes: the rows of the kernel without
/// SHA3 (see the module documentation).
type Hybrid = WithScalar<WithScalar<Half, 2>, 3>;

/// The multi-lane kernel (seam in `backend::lanes`): the `XAR` kernel
/// where the token found SHA3, else the hybrid one, but for Skein-1024
/// the lanes one by one on the portable block function.
///
/// # Panics
/// If the lanes' blocks or messages differ in length.
fn lanes<const W: usize>(token: Token, call: LaneCall<'_, W, 4>) {
    // SAFETY: the token proves NEON, and SHA3 where it says so.
    unsafe {
        if token.sha3 {
            lanes_xar::<Neon, 4, W>(call)
        } else if W == 16 {
            one_by_one(call)
        } else {
            lanes_shift::<Hybrid, 4, W>(call)
        }
    }
}

/// The `WithScalar` form: the hybrid rows and a third scalar lane, with
/// or without SHA3; for Skein-1024 the lanes one by one.
///
/// # Panics
/// If the lanes' blocks or messages differ in length.
fn lanes_five<const W: usize>(_: Token, call: LaneCall<'_, W, 5>) {
    if W == 16 {
        return one_by_one(call);
    }
    // SAFETY: the token proves NEON.
    unsafe { lanes_shift::<WithScalar<Hybrid, 4>, 5, W>(call) }
}

/// The lanes one after the other on the portable block function: the
/// kernel without SHA3 for Skein-1024, whose 16 words per lane leave the
/// hybrid rows too few registers (llvm-mca: more than twice the cycles
/// per byte of one stream, docs/aarch64.md), so that `hash_many` runs at
/// the single stream's speed there instead.
///
/// # Panics
/// If the lanes' blocks or messages differ in length.
fn one_by_one<const W: usize, const L: usize>(call: LaneCall<'_, W, L>) {
    call.by_blocks(|state, blocks, bytes_per_block| {
        let total = blocks[0].len();
        assert!(
            blocks.iter().all(|b| b.len() == total),
            "lanes: unequal blocks"
        );
        for i in 0..L {
            let mut chain = state.chain_of(i);
            let mut tweak = [state.tweak[0][i], state.tweak[1][i]];
            portable::Token.compress::<W>(BlockRun {
                chain: &mut chain,
                tweak: &mut tweak,
                blocks: blocks[i],
                bytes_per_block: bytes_per_block[i],
            });
            state.load(i, &chain, tweak);
        }
    })
}

lane_entry!(lanes_shift, "neon");
lane_entry!(lanes_xar, "sha3");

/// Rotate both lanes left by `r`: `SHL` by `r`, then `SRI` by `64 - r`
/// inserts the bits that wrap around; a rotation by 32 is one `REV64` of
/// the 32-bit halves.
#[inline(always)]
unsafe fn rol_shift(a: uint64x2_t, r: u32) -> uint64x2_t {
    // SAFETY: NEON is part of the target.
    unsafe {
        if r == 32 {
            return vreinterpretq_u64_u32(vrev64q_u32(vreinterpretq_u32_u64(a)));
        }
        with_const_count!(r, N => vsriq_n_u64::<{ 64 - N }>(vshlq_n_u64::<N>(a), a))
    }
}

/// Rotate every lane left by `r` with one `XAR` per register (a rotate right
/// of `a ^ 0`). A function of its own with SHA3 enabled: `vxarq_u64`
/// inlines only into code with that feature.
#[target_feature(enable = "sha3")]
#[inline]
fn rol_xar(a: [uint64x2_t; 2], r: u32) -> [uint64x2_t; 2] {
    let zero = vdupq_n_u64(0);
    [
        with_const_count!(r, N => vxarq_u64::<{ 64 - N }>(a[0], zero)),
        with_const_count!(r, N => vxarq_u64::<{ 64 - N }>(a[1], zero)),
    ]
}

/// A row: word `j` of lanes 0, 1 (first register) and 2, 3 (second);
/// rotations by one `XAR`.
#[derive(Clone, Copy)]
struct Neon([uint64x2_t; 2]);

// SAFETY (every `unsafe` block in this impl): the trait's contract, the CPU
// has NEON and SHA3; loads and stores stay within the arrays they are given.
impl Row<4> for Neon {
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        let r = unsafe { vdupq_n_u64(v) };
        Neon([r, r])
    }
    #[inline(always)]
    unsafe fn add(self, b: Self) -> Self {
        unsafe { Neon([vaddq_u64(self.0[0], b.0[0]), vaddq_u64(self.0[1], b.0[1])]) }
    }
    #[inline(always)]
    unsafe fn xor(self, b: Self) -> Self {
        unsafe { Neon([veorq_u64(self.0[0], b.0[0]), veorq_u64(self.0[1], b.0[1])]) }
    }
    #[inline(always)]
    unsafe fn and(self, b: Self) -> Self {
        unsafe { Neon([vandq_u64(self.0[0], b.0[0]), vandq_u64(self.0[1], b.0[1])]) }
    }
    /// One `XAR` per register (a rotate right of `a ^ 0`).
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        // SAFETY: `Neon` runs only where the CPU has SHA3.
        Neon(unsafe { rol_xar(self.0, r) })
    }
    /// A carry out of word 0 (sum < step, an all-ones lane) adds one to
    /// word 1.
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        unsafe {
            let sum = t0.add(step);
            let t1 = Neon([
                vsubq_u64(t1.0[0], vcltq_u64(sum.0[0], step.0[0])),
                vsubq_u64(t1.0[1], vcltq_u64(sum.0[1], step.0[1])),
            ]);
            (sum, t1)
        }
    }
    #[inline(always)]
    unsafe fn load_row(row: &[u64; 4]) -> Self {
        unsafe { Neon([vld1q_u64(row.as_ptr()), vld1q_u64(row.as_ptr().add(2))]) }
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; 4]) {
        unsafe {
            vst1q_u64(row.as_mut_ptr(), self.0[0]);
            vst1q_u64(row.as_mut_ptr().add(2), self.0[1]);
        }
    }
    /// Each pair of words of lanes 2h and 2h + 1 is transposed with
    /// `TRN1`/`TRN2` into register h of two rows.
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 4], offset: usize) -> [Self; W] {
        // 16 readable bytes at `offset + 16 * pair` of each lane, since
        // 16 * (pair + 1) <= 8 * W; `vld1q_u8` has no alignment
        // requirement. Little-endian target, so the bytes are the words.
        unsafe {
            let mut m = [Self::splat(0); W];
            for pair in 0..W / 2 {
                for h in 0..2 {
                    let at = offset + 16 * pair;
                    let a = vreinterpretq_u64_u8(vld1q_u8(blocks[2 * h].as_ptr().add(at)));
                    let b = vreinterpretq_u64_u8(vld1q_u8(blocks[2 * h + 1].as_ptr().add(at)));
                    m[2 * pair].0[h] = vtrn1q_u64(a, b);
                    m[2 * pair + 1].0[h] = vtrn2q_u64(a, b);
                }
            }
            m
        }
    }
}

/// A row of two lanes in one q register, rotated by `SHL` + `SRI`: the
/// vector part of [`Hybrid`].
#[derive(Clone, Copy)]
struct Half(uint64x2_t);

// SAFETY (every `unsafe` block in this impl): the trait's contract, the CPU
// has NEON; loads and stores stay within the arrays they are given.
impl Row<2> for Half {
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        Half(unsafe { vdupq_n_u64(v) })
    }
    #[inline(always)]
    unsafe fn add(self, b: Self) -> Self {
        Half(unsafe { vaddq_u64(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, b: Self) -> Self {
        Half(unsafe { veorq_u64(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn and(self, b: Self) -> Self {
        Half(unsafe { vandq_u64(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        Half(unsafe { rol_shift(self.0, r) })
    }
    /// A carry out of word 0 (sum < step, an all-ones lane) adds one to
    /// word 1.
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        unsafe {
            let sum = vaddq_u64(t0.0, step.0);
            (Half(sum), Half(vsubq_u64(t1.0, vcltq_u64(sum, step.0))))
        }
    }
    #[inline(always)]
    unsafe fn load_row(row: &[u64; 2]) -> Self {
        Half(unsafe { vld1q_u64(row.as_ptr()) })
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; 2]) {
        unsafe { vst1q_u64(row.as_mut_ptr(), self.0) }
    }
    /// Each pair of words of the two lanes is transposed with
    /// `TRN1`/`TRN2` into two rows.
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [Self; W] {
        // 16 readable bytes at `offset + 16 * pair` of each lane, since
        // 16 * (pair + 1) <= 8 * W; little-endian, so the bytes are the
        // words.
        unsafe {
            let mut m = [Self::splat(0); W];
            for pair in 0..W / 2 {
                let at = offset + 16 * pair;
                let a = vreinterpretq_u64_u8(vld1q_u8(blocks[0].as_ptr().add(at)));
                let b = vreinterpretq_u64_u8(vld1q_u8(blocks[1].as_ptr().add(at)));
                m[2 * pair] = Half(vtrn1q_u64(a, b));
                m[2 * pair + 1] = Half(vtrn2q_u64(a, b));
            }
            m
        }
    }
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    use super::*;
    use crate::schedule::kernel_check::KernelCheck;

    /// Both four-lane kernels (the `XAR` one where the CPU has SHA3) against
    /// `portable`, and SHA3 detection against `SKEIN_SIMD_EXPECT_SHA3`.
    pub fn both_kernels_match_portable() {
        let token = Token::detect().expect("NEON on every AArch64 Linux");
        // The form rule per core (docs/aarch64.md, "Without SHA3").
        for w in [
            Workload::Blocks,
            Workload::ShortMessages,
            Workload::OneBlockMessages,
        ] {
            for (sha3, lse, words, form) in [
                (true, true, 8, LaneForm::OneGroup),
                (false, true, 4, LaneForm::WithScalar),
                (false, false, 4, LaneForm::WithScalar),
                (false, true, 8, LaneForm::WithScalar),
                (false, false, 8, LaneForm::OneGroup),
                (false, true, 16, LaneForm::OneGroup),
                (false, false, 16, LaneForm::OneGroup),
            ] {
                assert_eq!(
                    lane_form(sha3, lse, words, w),
                    form,
                    "sha3 {sha3} lse {lse} words {words}"
                );
            }
        }
        // CI runs this under QEMU CPUs with and without SHA3, and says which.
        match std::env::var("SKEIN_SIMD_EXPECT_SHA3").as_deref() {
            Ok("1") => assert!(token.sha3, "SHA3 expected on this CPU"),
            Ok("0") => assert!(!token.sha3, "SHA3 not expected on this CPU"),
            _ => {}
        }
        let kernels = if token.sha3 {
            vec![token, Token { sha3: false }]
        } else {
            vec![token]
        };
        // Each kernel against the portable block function, lane by lane
        // (the check of every kernel in `schedule.rs`).
        for (k, token) in kernels.into_iter().enumerate() {
            KernelCheck::<4>(10 + k as u64).run::<4, _>(Kernel(token, lanes::<4>));
            KernelCheck::<8>(20 + k as u64).run::<4, _>(Kernel(token, lanes::<8>));
            KernelCheck::<16>(30 + k as u64).run::<4, _>(Kernel(token, lanes::<16>));
        }
        // The form with a third scalar lane, the same kernel with or
        // without SHA3.
        KernelCheck::<4>(40).run::<5, _>(Kernel(token, lanes_five::<4>));
        KernelCheck::<8>(50).run::<5, _>(Kernel(token, lanes_five::<8>));
        KernelCheck::<16>(60).run::<5, _>(Kernel(token, lanes_five::<16>));
    }
}
