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
//! scalar lane (five messages). For Skein-512 the four-lane form runs its
//! rounds in generated assembly ([`AsmHybrid`]), where nothing spills.
//! Which form runs: [`lane_form`].
//!
//! **Single stream**: the portable block function. A64's scalar code does a
//! MIX in two instructions (`ADD`, then `EOR` with a rotated operand) on four
//! to six integer pipes; a NEON single stream needs three per two MIXes plus
//! a permute per round on the dependency chain, and loses (docs/aarch64.md).

// Index loops follow the numbering of words and lanes in the specification.
#![allow(clippy::needless_range_loop)]

use crate::backend::dispatch::feature_glue::lane_entry;
use crate::backend::dispatch::isa::{by_width, BlockRun, Isa, LaneEntry, Row, Scalar, WithScalar};
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
    /// What MIDR_EL1's part number says of the cores ([`Pipeline`]).
    core: Option<Pipeline>,
}

impl Token {
    /// This CPU's kernel for Skein with `words` words of state.
    fn shape(self, words: usize) -> Shape {
        lane_shape(self.sha3, self.core, words)
    }
}

impl Isa for Token {
    const LANES: usize = 4;
    const FORMS: &'static [LaneForm] = &[LaneForm::OneGroup, LaneForm::WithScalar];

    /// The hybrid of five is the `WithScalar` form; every other shape
    /// runs in the one-group form (the same for short messages and long).
    fn lane_form(words: usize, _: Workload) -> LaneForm {
        match Token::detect().map(|token| token.shape(words)) {
            Some(Shape::HybridOfFive) => LaneForm::WithScalar,
            _ => LaneForm::OneGroup,
        }
    }

    fn detect() -> Option<Token> {
        // NEON is part of every AArch64 Linux target (so a compile-time
        // fact); SHA3 and the core are asked of the OS at run time.
        cfg!(target_feature = "neon").then(|| Token {
            sha3: sha3_cpuid::get(),
            core: core_detected(),
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

/// The kind of core, by MIDR_EL1's part number, as far as the kernel
/// without SHA3 cares (docs/aarch64.md, "Without SHA3"; ordered from the
/// narrowest to the widest).
// Without std or outside Linux only `None` is ever detected.
#[cfg_attr(
    not(all(feature = "std", any(target_os = "linux", target_os = "android"))),
    allow(dead_code)
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Pipeline {
    /// In-order (Cortex-A35, A53, A55): every hybrid is slower than one
    /// stream by the LLVM models, so the lanes are hashed one by one.
    InOrder,
    /// Out-of-order, three-wide decode (Cortex-A57, A72, A73, A75).
    ThreeWide,
    /// Out-of-order, four-wide decode or more without SHA3 (Cortex-A76,
    /// A77, A78, X1, Neoverse N1).
    FourWide,
}

/// What the part number of a MIDR_EL1 value says: cores designed by Arm
/// (implementer 0x41) only; `None` for every other core.
// Built with std everywhere, so that the internal checks run on every OS;
// used outside them only where MIDR_EL1 is read (Linux, Android).
#[cfg(feature = "std")]
#[cfg_attr(not(any(target_os = "linux", target_os = "android")), allow(dead_code))]
fn pipeline(midr: u64) -> Option<Pipeline> {
    let implementer = (midr >> 24) & 0xff;
    let part = (midr >> 4) & 0xfff;
    if implementer != 0x41 {
        return None;
    }
    // The part numbers of Arm's Technical Reference Manuals.
    const CORTEX_A35: u64 = 0xd04;
    const CORTEX_A53: u64 = 0xd03;
    const CORTEX_A55: u64 = 0xd05;
    const CORTEX_A57: u64 = 0xd07;
    const CORTEX_A72: u64 = 0xd08;
    const CORTEX_A73: u64 = 0xd09;
    const CORTEX_A75: u64 = 0xd0a;
    const CORTEX_A76: u64 = 0xd0b;
    const NEOVERSE_N1: u64 = 0xd0c;
    const CORTEX_A77: u64 = 0xd0d;
    const CORTEX_A78: u64 = 0xd41;
    const CORTEX_X1: u64 = 0xd44;
    const CORTEX_A78C: u64 = 0xd4b;
    match part {
        CORTEX_A35 | CORTEX_A53 | CORTEX_A55 => Some(Pipeline::InOrder),
        CORTEX_A57 | CORTEX_A72 | CORTEX_A73 | CORTEX_A75 => Some(Pipeline::ThreeWide),
        CORTEX_A76 | NEOVERSE_N1 | CORTEX_A77 | CORTEX_A78 | CORTEX_X1 | CORTEX_A78C => {
            Some(Pipeline::FourWide)
        }
        _ => None,
    }
}

/// The kind of core of a CPU whose cores have these MIDR_EL1 values (more
/// than one kind on a big.LITTLE system, where a thread runs on either):
/// in-order if any core is, so that `hash_many` is never slower than one
/// stream on the little cores, which lose most (1.24x the single stream's
/// cycles at Skein-512 on the Cortex-A55 model, where a big core's hybrid
/// gains 1.07x to 1.32x); else the narrowest, if every core is known.
#[cfg(feature = "std")]
#[cfg_attr(not(any(target_os = "linux", target_os = "android")), allow(dead_code))]
fn pipeline_of_cores(midrs: impl IntoIterator<Item = u64>) -> Option<Pipeline> {
    let kinds: Vec<Option<Pipeline>> = midrs.into_iter().map(pipeline).collect();
    if kinds.contains(&Some(Pipeline::InOrder)) {
        return Some(Pipeline::InOrder);
    }
    kinds.into_iter().min().flatten()
}

/// The kind of this CPU's cores, read once: the kernel's MIDR_EL1 of every
/// core in sysfs, else (no sysfs, as under QEMU user mode) the `MRS` of
/// MIDR_EL1 on this core, which the kernel emulates where it sets
/// HWCAP_CPUID (Linux 4.11 and later).
#[cfg(all(feature = "std", any(target_os = "linux", target_os = "android")))]
fn core_detected() -> Option<Pipeline> {
    static CORE: std::sync::OnceLock<Option<Pipeline>> = std::sync::OnceLock::new();
    *CORE.get_or_init(|| {
        let from_sysfs = sysfs_midrs();
        if from_sysfs.is_empty() {
            pipeline_of_cores(mrs_midr())
        } else {
            pipeline_of_cores(from_sysfs)
        }
    })
}

/// No MIDR_EL1 without std or outside Linux: the rule by features alone.
#[cfg(not(all(feature = "std", any(target_os = "linux", target_os = "android"))))]
fn core_detected() -> Option<Pipeline> {
    None
}

/// MIDR_EL1 of every core that sysfs lists (`regs/identification/midr_el1`,
/// hexadecimal); empty where sysfs has none.
#[cfg(all(feature = "std", any(target_os = "linux", target_os = "android")))]
fn sysfs_midrs() -> Vec<u64> {
    let Ok(cpus) = std::fs::read_dir("/sys/devices/system/cpu") else {
        return Vec::new();
    };
    cpus.flatten()
        .filter(|cpu| {
            let name = cpu.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix("cpu")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter_map(|cpu| {
            let text =
                std::fs::read_to_string(cpu.path().join("regs/identification/midr_el1")).ok()?;
            let text = text.trim();
            u64::from_str_radix(text.strip_prefix("0x").unwrap_or(text), 16).ok()
        })
        .collect()
}

/// MIDR_EL1 of the core this thread runs on, by `MRS`, where the kernel
/// says (HWCAP_CPUID) that it emulates the read from user space.
#[cfg(all(feature = "std", any(target_os = "linux", target_os = "android")))]
fn mrs_midr() -> Option<u64> {
    // SAFETY: getauxval has no preconditions; AT_HWCAP is always defined.
    let hwcap = unsafe { libc::getauxval(libc::AT_HWCAP) };
    if hwcap & libc::HWCAP_CPUID == 0 {
        return None;
    }
    let midr: u64;
    // SAFETY: with HWCAP_CPUID the kernel traps and emulates this read at
    // EL0 (Documentation/arch/arm64/cpu-feature-registers.rst); it reads
    // one register and touches no memory.
    unsafe {
        core::arch::asm!("mrs {}, midr_el1", out(reg) midr, options(nomem, nostack, preserves_flags))
    };
    Some(midr)
}

/// The kernel a CPU runs for `hash_many` (the rule, [`lane_shape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Four NEON lanes, rotations by `XAR`.
    Xar,
    /// Two NEON lanes (`SHL` + `SRI`) and two scalar lanes; for
    /// Skein-512 with the rounds in assembly ([`AsmHybrid`]).
    HybridOfFour,
    /// Two NEON lanes and three scalar lanes (the `WithScalar` form).
    HybridOfFive,
    /// The lanes one after the other on the portable block function: the
    /// single stream's speed.
    OneByOne,
}

/// The rule for the kernel (docs/aarch64.md, "Without SHA3"): with SHA3
/// the four `XAR` lanes. Without, on an in-order core every form hashes
/// the lanes one by one (every hybrid is slower than one stream there);
/// elsewhere Skein-1024 hashes its lanes one by one (every hybrid spills),
/// Skein-256 takes the hybrid of five and Skein-512 the hybrid of four,
/// whose rounds are assembly there (fastest by the Neoverse N1 and
/// Cortex-A72 models, at N1's real four-wide dispatch too).
fn lane_shape(sha3: bool, core: Option<Pipeline>, words: usize) -> Shape {
    if sha3 {
        Shape::Xar
    } else if words == 16 || core == Some(Pipeline::InOrder) {
        Shape::OneByOne
    } else if words == 8 {
        Shape::HybridOfFour
    } else {
        Shape::HybridOfFive
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

/// [`Hybrid`] with Threefish-512's rounds in generated assembly
/// ([`Row::own_rounds`]; `tools/gen/gen-aarch64-hybrid-asm.py` says why):
/// the Skein-512 kernel without SHA3. Every other operation is
/// [`Hybrid`]'s.
#[derive(Clone, Copy)]
struct AsmHybrid(Hybrid);

impl AsmHybrid {
    /// The NEON lanes' word (lanes 0 and 1) and the scalar lanes' (2, 3).
    #[inline(always)]
    fn parts(self) -> (uint64x2_t, u64, u64) {
        let WithScalar(WithScalar(Half(v), a), b) = self.0;
        (v, a.0, b.0)
    }
}

include!("hybrid_generated.rs");

impl Row<4> for AsmHybrid {
    const ROUNDS_INLINED_LATE: usize = <Hybrid as Row<4>>::ROUNDS_INLINED_LATE;
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        // SAFETY: the caller's (the trait's contract).
        AsmHybrid(unsafe { <Hybrid as Row<4>>::splat(v) })
    }
    #[inline(always)]
    unsafe fn add(self, b: Self) -> Self {
        // SAFETY: the caller's (the trait's contract).
        AsmHybrid(unsafe { <Hybrid as Row<4>>::add(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, b: Self) -> Self {
        // SAFETY: the caller's (the trait's contract).
        AsmHybrid(unsafe { <Hybrid as Row<4>>::xor(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn and(self, b: Self) -> Self {
        // SAFETY: the caller's (the trait's contract).
        AsmHybrid(unsafe { <Hybrid as Row<4>>::and(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        // SAFETY: the caller's (the trait's contract).
        AsmHybrid(unsafe { <Hybrid as Row<4>>::rol(self.0, r) })
    }
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        // SAFETY: the caller's (the trait's contract).
        let (t0, t1) = unsafe { <Hybrid as Row<4>>::advance(t0.0, t1.0, step.0) };
        (AsmHybrid(t0), AsmHybrid(t1))
    }
    #[inline(always)]
    unsafe fn load_row(row: &[u64; 4]) -> Self {
        // SAFETY: the caller's (the trait's contract).
        AsmHybrid(unsafe { <Hybrid as Row<4>>::load_row(row) })
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; 4]) {
        // SAFETY: the caller's (the trait's contract).
        unsafe { <Hybrid as Row<4>>::store_row(self.0, row) }
    }
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 4], offset: usize) -> [Self; W] {
        // SAFETY: the caller's (the trait's contract and the bytes).
        unsafe { <Hybrid as Row<4>>::load_rows::<W>(blocks, offset) }.map(AsmHybrid)
    }
    #[inline(always)]
    unsafe fn load_two_rows(blocks: &[&[u8]; 4], offset: usize) -> [Self; 2] {
        // SAFETY: the caller's (the trait's contract and the bytes).
        unsafe { <Hybrid as Row<4>>::load_two_rows(blocks, offset) }.map(AsmHybrid)
    }
    #[inline(always)]
    unsafe fn store_lanes<const W: usize>(rows: &[Self; W], out: &mut [u8]) {
        // SAFETY: the caller's (the trait's contract).
        unsafe { <Hybrid as Row<4>>::store_lanes::<W>(&rows.map(|r| r.0), out) }
    }
    /// Threefish-512 in the generated assembly; false (the generic
    /// rounds) for the other state sizes.
    #[inline(always)]
    unsafe fn own_rounds<const W: usize, const OUT_OF_LINE: bool>(
        x: &mut [Self; W],
        ks: &[Self; 17],
        ts: &[Self; 3],
    ) -> bool {
        if W != 8 {
            return false;
        }
        let ks: [(uint64x2_t, u64, u64); 9] = core::array::from_fn(|j| ks[j].parts());
        let ts: [(uint64x2_t, u64, u64); 3] = core::array::from_fn(|i| ts[i].parts());
        let mut v: [uint64x2_t; 8] = core::array::from_fn(|j| x[j].parts().0);
        let mut a: [u64; 8] = core::array::from_fn(|j| x[j].parts().1);
        let mut b: [u64; 8] = core::array::from_fn(|j| x[j].parts().2);
        // The scalar key words the assembly loads (its layout): the second
        // lane's key schedule, then e[i] = ks[i] + ts[(i + 1) % 3] of the
        // second lane and of the first, then the first lane's key word 8.
        let mut words = [0u64; 28];
        for i in 0..9 {
            words[i] = ks[i].2;
            words[9 + i] = ks[i].2.wrapping_add(ts[(i + 1) % 3].2);
            words[18 + i] = ks[i].1.wrapping_add(ts[(i + 1) % 3].1);
        }
        words[27] = ks[8].1;
        // SAFETY: the CPU has NEON (the trait's contract). The code reads
        // the 28 words of `words` and no other memory, writes no memory,
        // and only the registers named here.
        unsafe {
            let (zero, one) = (vdupq_n_u64(0), vdupq_n_u64(1));
            hybrid_rounds_512!(
                v0 = inout(vreg) v[0], v1 = inout(vreg) v[1],
                v2 = inout(vreg) v[2], v3 = inout(vreg) v[3],
                v4 = inout(vreg) v[4], v5 = inout(vreg) v[5],
                v6 = inout(vreg) v[6], v7 = inout(vreg) v[7],
                k0 = in(vreg) ks[0].0, k1 = in(vreg) ks[1].0, k2 = in(vreg) ks[2].0,
                k3 = in(vreg) ks[3].0, k4 = in(vreg) ks[4].0, k5 = in(vreg) ks[5].0,
                k6 = in(vreg) ks[6].0, k7 = in(vreg) ks[7].0, k8 = in(vreg) ks[8].0,
                t0 = in(vreg) ts[0].0, t1 = in(vreg) ts[1].0, t2 = in(vreg) ts[2].0,
                vc = inout(vreg) zero => _, one = in(vreg) one, vt = out(vreg) _,
                a0 = inout(reg) a[0], a1 = inout(reg) a[1], a2 = inout(reg) a[2],
                a3 = inout(reg) a[3], a4 = inout(reg) a[4], a5 = inout(reg) a[5],
                a6 = inout(reg) a[6], a7 = inout(reg) a[7],
                b0 = inout(reg) b[0], b1 = inout(reg) b[1], b2 = inout(reg) b[2],
                b3 = inout(reg) b[3], b4 = inout(reg) b[4], b5 = inout(reg) b[5],
                b6 = inout(reg) b[6], b7 = inout(reg) b[7],
                c0 = in(reg) ks[0].1, c1 = in(reg) ks[1].1, c2 = in(reg) ks[2].1,
                c3 = in(reg) ks[3].1, c4 = in(reg) ks[4].1, c5 = in(reg) ks[5].1,
                c6 = in(reg) ks[6].1, c7 = in(reg) ks[7].1,
                p = in(reg) words.as_ptr(), u = out(reg) _, w = out(reg) _,
                options(readonly, nostack, preserves_flags),
            );
        }
        for j in 0..8 {
            x[j] = AsmHybrid(WithScalar(
                WithScalar(Half(v[j]), Scalar(a[j])),
                Scalar(b[j]),
            ));
        }
        true
    }
}

/// The multi-lane kernel (seam in `backend::lanes`): the `XAR` kernel
/// where the token found SHA3, else the hybrid one, but for Skein-1024
/// the lanes one by one on the portable block function.
///
/// # Panics
/// If the lanes' blocks or messages differ in length.
fn lanes<const W: usize>(token: Token, call: LaneCall<'_, W, 4>) {
    // SAFETY: the token proves NEON, and SHA3 where it says so.
    unsafe {
        match token.shape(W) {
            Shape::Xar => lanes_xar::<Neon, 4, W>(call),
            Shape::OneByOne => one_by_one(call),
            // Skein-512: the rounds in assembly. Elsewhere the hybrid of
            // five's rows without its third scalar lane, where the
            // one-group form is forced.
            Shape::HybridOfFour | Shape::HybridOfFive if W == 8 => {
                lanes_shift::<AsmHybrid, 4, W>(call)
            }
            Shape::HybridOfFour | Shape::HybridOfFive => lanes_shift::<Hybrid, 4, W>(call),
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

impl Row<4> for Neon {
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
        let r = unsafe { vdupq_n_u64(v) };
        Neon([r, r])
    }
    #[inline(always)]
    unsafe fn add(self, b: Self) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
        unsafe { Neon([vaddq_u64(self.0[0], b.0[0]), vaddq_u64(self.0[1], b.0[1])]) }
    }
    #[inline(always)]
    unsafe fn xor(self, b: Self) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
        unsafe { Neon([veorq_u64(self.0[0], b.0[0]), veorq_u64(self.0[1], b.0[1])]) }
    }
    #[inline(always)]
    unsafe fn and(self, b: Self) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
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
        // SAFETY: the CPU has NEON (the trait's contract).
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
        // SAFETY: the CPU has NEON (the trait's contract); the two loads
        // read words 0..2 and 2..4 of `row`.
        unsafe { Neon([vld1q_u64(row.as_ptr()), vld1q_u64(row.as_ptr().add(2))]) }
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; 4]) {
        // SAFETY: the CPU has NEON (the trait's contract); the two stores
        // write words 0..2 and 2..4 of `row`.
        unsafe {
            vst1q_u64(row.as_mut_ptr(), self.0[0]);
            vst1q_u64(row.as_mut_ptr().add(2), self.0[1]);
        }
    }
    /// Each pair of words of lanes 2h and 2h + 1 is transposed with
    /// `TRN1`/`TRN2` into register h of two rows.
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 4], offset: usize) -> [Self; W] {
        // SAFETY: the CPU has NEON (the trait's contract), and there are
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

impl Row<2> for Half {
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
        Half(unsafe { vdupq_n_u64(v) })
    }
    #[inline(always)]
    unsafe fn add(self, b: Self) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
        Half(unsafe { vaddq_u64(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, b: Self) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
        Half(unsafe { veorq_u64(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn and(self, b: Self) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
        Half(unsafe { vandq_u64(self.0, b.0) })
    }
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract).
        Half(unsafe { rol_shift(self.0, r) })
    }
    /// A carry out of word 0 (sum < step, an all-ones lane) adds one to
    /// word 1.
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        // SAFETY: the CPU has NEON (the trait's contract).
        unsafe {
            let sum = vaddq_u64(t0.0, step.0);
            (Half(sum), Half(vsubq_u64(t1.0, vcltq_u64(sum, step.0))))
        }
    }
    #[inline(always)]
    unsafe fn load_row(row: &[u64; 2]) -> Self {
        // SAFETY: the CPU has NEON (the trait's contract); the load reads
        // the two words of `row`.
        Half(unsafe { vld1q_u64(row.as_ptr()) })
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; 2]) {
        // SAFETY: the CPU has NEON (the trait's contract); the store writes
        // the two words of `row`.
        unsafe { vst1q_u64(row.as_mut_ptr(), self.0) }
    }
    /// Each pair of words of the two lanes is transposed with
    /// `TRN1`/`TRN2` into two rows.
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [Self; W] {
        // SAFETY: the CPU has NEON (the trait's contract), and there are
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

    /// Both four-lane kernels (the `XAR` one where the CPU has SHA3) and
    /// the lanes one by one against `portable`; the rule per core; SHA3
    /// and core detection against `SKEIN_SIMD_EXPECT_SHA3` and
    /// `SKEIN_SIMD_EXPECT_CORE`.
    pub fn both_kernels_match_portable() {
        let token = Token::detect().expect("NEON on every AArch64 Linux");
        // The part numbers of Arm's Technical Reference Manuals, in MIDR_EL1
        // values such cores report (QEMU's for the Cortex-A53, A72, A76
        // and Neoverse N1 models; `max` is implementer 0, Apple's M1 0x61).
        use Pipeline::*;
        for (midr, kind) in [
            (0x410f_d034, Some(InOrder)),   // Cortex-A53 r0p4
            (0x411f_d050, Some(InOrder)),   // Cortex-A55 r1p0
            (0x410f_d040, Some(InOrder)),   // Cortex-A35
            (0x410f_d070, Some(ThreeWide)), // Cortex-A57
            (0x410f_d083, Some(ThreeWide)), // Cortex-A72 r0p3
            (0x410f_d092, Some(ThreeWide)), // Cortex-A73
            (0x412f_d0a0, Some(ThreeWide)), // Cortex-A75
            (0x414f_d0b1, Some(FourWide)),  // Cortex-A76 r4p1
            (0x413f_d0c1, Some(FourWide)),  // Neoverse N1 r3p1
            (0x410f_d0d0, Some(FourWide)),  // Cortex-A77
            (0x411f_d410, Some(FourWide)),  // Cortex-A78
            (0x410f_d440, Some(FourWide)),  // Cortex-X1
            (0x000f_0510, None),            // QEMU `max`
            (0x611f_0221, None),            // Apple M1 (Firestorm)
            (0x410f_d490, None),            // Neoverse N2: SHA3, not listed
            (0x420f_d030, None),            // 0xd03 of another implementer
        ] {
            assert_eq!(pipeline(midr), kind, "MIDR_EL1 {midr:#x}");
        }
        // big.LITTLE: any in-order core makes the CPU in-order; otherwise
        // the narrowest, where every core is known.
        assert_eq!(pipeline_of_cores([0x414f_d0b1, 0x411f_d050]), Some(InOrder));
        assert_eq!(
            pipeline_of_cores([0x410f_d092, 0x414f_d0b1]),
            Some(ThreeWide)
        );
        assert_eq!(
            pipeline_of_cores([0x414f_d0b1, 0x413f_d0c1]),
            Some(FourWide)
        );
        assert_eq!(pipeline_of_cores([0x414f_d0b1, 0x611f_0221]), None);
        assert_eq!(pipeline_of_cores([]), None);
        // The rule per core (docs/aarch64.md, "Without SHA3"), Skein-256,
        // Skein-512 and Skein-1024: (SHA3, kind of core, shapes).
        use Shape::*;
        for (sha3, core, shapes) in [
            // Cortex-A53 and A55 (in-order): one stream per message
            (false, Some(InOrder), [OneByOne, OneByOne, OneByOne]),
            // Cortex-A72, A73, A75 (three-wide)
            (
                false,
                Some(ThreeWide),
                [HybridOfFive, HybridOfFour, OneByOne],
            ),
            // Cortex-A76, Neoverse N1
            (
                false,
                Some(FourWide),
                [HybridOfFive, HybridOfFour, OneByOne],
            ),
            // Unknown cores
            (false, None, [HybridOfFive, HybridOfFour, OneByOne]),
            // SHA3 (Apple M1, Neoverse V1/V2/N2, QEMU `max`)
            (true, None, [Xar, Xar, Xar]),
            (true, Some(InOrder), [Xar, Xar, Xar]),
        ] {
            for (words, shape) in [4, 8, 16].into_iter().zip(shapes) {
                assert_eq!(
                    lane_shape(sha3, core, words),
                    shape,
                    "sha3 {sha3} core {core:?} words {words}"
                );
            }
        }
        // CI's QEMU CPU models, and what their MIDR_EL1 says.
        match std::env::var("SKEIN_SIMD_EXPECT_CORE").as_deref() {
            Ok("in-order") => assert_eq!(token.core, Some(InOrder)),
            Ok("three-wide") => assert_eq!(token.core, Some(ThreeWide)),
            Ok("four-wide") => assert_eq!(token.core, Some(FourWide)),
            Ok("unknown") => assert_eq!(token.core, None),
            Ok(other) => panic!("SKEIN_SIMD_EXPECT_CORE: unknown value {other:?}"),
            Err(_) => {}
        }
        // CI runs this under QEMU CPUs with and without SHA3, and says which.
        match std::env::var("SKEIN_SIMD_EXPECT_SHA3").as_deref() {
            Ok("1") => assert!(token.sha3, "SHA3 expected on this CPU"),
            Ok("0") => assert!(!token.sha3, "SHA3 not expected on this CPU"),
            _ => {}
        }
        // Every kernel on every CPU: the one detected, the hybrid and the
        // lanes one by one.
        let mut kernels = vec![token];
        for core in [None, Some(InOrder)] {
            let other = Token { sha3: false, core };
            if !kernels.contains(&other) {
                kernels.push(other);
            }
        }
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
