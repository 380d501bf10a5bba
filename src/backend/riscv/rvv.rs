//! RISC-V V (the vector extension, RVV 1.0): multi-lane kernels on
//! `core::simd`, which LLVM lowers to RVV inside the kernels'
//! `#[target_feature]` functions (Rust has no stable RVV intrinsics).
//!
//! **Multi-lane kernels**: row `j` holds word `j` of `L` computations in one
//! vector register, so a Threefish round is `W` `vadd.vv`, `W` rotations and
//! `W` `vxor.vv`, and the word permutation is only a renaming of registers.
//! RVV 1.0 has no rotate (Zvbb adds one), so a rotation is `vsll`, `vsrl`
//! and `vor`. How many 64-bit lanes a register holds is the core's vector
//! length VLEN, which the code reads at run time (the `vlenb` CSR), and
//! each length has its row in the backend table:
//!
//! * `rvv` ([`vlen128`]): two lanes, rows of `Simd<u64, 2>`, compiled with
//!   `v` alone, which promises VLEN ≥ 128: every RVV 1.0 core;
//! * `rvv256` ([`vlen256`]): four lanes, rows of `Simd<u64, 4>`, compiled
//!   with `v` and `zvl256b` (VLEN ≥ 256), so that LLVM keeps a row in one
//!   register (LMUL 1; with `v` alone it takes register pairs, LMUL 2, and
//!   has half the registers for the state): only where VLEN ≥ 256
//!   (SpacemiT K1/M1).
//!
//! **Single stream**: the portable block function. One Threefish state
//! spans a few words, so a vector single stream would permute words between
//! registers in every round, on the dependency chain; scalar RV64 does a MIX
//! in five instructions (three without Zbb's rotate) with no permutes.
//!
//! docs/riscv.md has the instruction counts under QEMU.

use crate::backend::dispatch::feature_glue::lane_entry;
use crate::backend::dispatch::isa::{by_width, BlockRun, Isa, LaneEntry, Row};
use crate::backend::lanes::{Kernel, LaneCall, LaneForm, LaneJob};
use crate::backend::portable;
use core::intrinsics::simd::{simd_funnel_shl, simd_lt};
use core::simd::{simd_swizzle, Simd};

/// Whether this CPU, and the OS for this process, run V instructions (the
/// OS must save the vector registers: Linux says so in `AT_HWCAP`, its
/// `riscv_hwprobe` call and `prctl`, which std reads).
#[cfg(feature = "std")]
fn v_detected() -> bool {
    std::arch::is_riscv_feature_detected!("v")
}

/// Without std, no run-time detection: V where the build has it.
#[cfg(not(feature = "std"))]
fn v_detected() -> bool {
    cfg!(target_feature = "v")
}

/// The vector length VLEN in bits, where the CPU runs V instructions.
fn vlen() -> Option<usize> {
    // SAFETY: V is there (detected), so reading its CSR is legal.
    v_detected().then(|| unsafe { vlenb() } * 8)
}

/// The `vlenb` CSR: VLEN in bytes.
///
/// # Safety
/// The CPU runs V instructions (without V the CSR does not exist and the
/// read traps).
#[target_feature(enable = "v")]
unsafe fn vlenb() -> usize {
    let bytes: usize;
    // SAFETY: the caller's; a read of a read-only CSR (0xc22, vlenb),
    // which touches no memory and no flags.
    unsafe {
        core::arch::asm!(
            "csrr {0}, 0xc22",
            out(reg) bytes,
            options(nomem, nostack, preserves_flags)
        )
    };
    bytes
}

/// A kernel of `$lanes` lanes, its token (V with VLEN ≥ `$min_vlen`) and
/// its `#[target_feature]` entry, compiled with `$features`.
macro_rules! rvv_kernel {
    ($(#[$doc:meta])* $module:ident, lanes $lanes:literal, vlen $min_vlen:literal, $features:literal) => {
        $(#[$doc])*
        pub(crate) mod $module {
            use super::*;

            #[doc = concat!("Proof that this CPU runs V with VLEN ≥ ", $min_vlen, " (only `detect` makes one).")]
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub(crate) struct Token(());

            impl Isa for Token {
                const LANES: usize = $lanes;
                const FORMS: &'static [LaneForm] = &[LaneForm::OneGroup];

                fn detect() -> Option<Token> {
                    vlen().filter(|&bits| bits >= $min_vlen).map(|_| Token(()))
                }

                /// The portable block function (see the module documentation).
                #[inline]
                fn compress<const W: usize>(self, run: BlockRun<'_, W>) {
                    portable::Token.compress::<W>(run)
                }

                // Through a static of its entries (`isa::by_width` says why).
                #[inline]
                fn run_lanes<const W: usize, J: LaneJob<W>>(self, _: LaneForm, job: J) -> J::Output {
                    static ENTRIES: (
                        LaneEntry<Token, 4, $lanes>,
                        LaneEntry<Token, 8, $lanes>,
                        LaneEntry<Token, 16, $lanes>,
                    ) = (lanes::<4>, lanes::<8>, lanes::<16>);
                    job.run::<$lanes, _>(Kernel(
                        self,
                        by_width::<W, LaneEntry<Token, W, $lanes>, _, _, _>(&ENTRIES),
                    ))
                }
            }

            /// The multi-lane kernel (seam in `backend::lanes`).
            ///
            /// # Panics
            /// If the lanes' blocks or messages differ in length.
            pub(super) fn lanes<const W: usize>(_: Token, call: LaneCall<'_, W, $lanes>) {
                // SAFETY: the token proves V with this VLEN.
                unsafe { kernel::<Simd<u64, $lanes>, $lanes, W>(call) }
            }

            lane_entry!(kernel, $features);
        }
    };
}

rvv_kernel! {
    /// The two-lane kernel, for every VLEN (backend `rvv`).
    vlen128, lanes 2, vlen 128, "v"
}

rvv_kernel! {
    /// The four-lane kernel, for VLEN ≥ 256 (backend `rvv256`).
    vlen256, lanes 4, vlen 256, "v,zvl256b"
}

/// The operations of a row in one vector register, the same for both
/// kernels: `vadd.vv`, `vxor.vv`, `vand.vv`; a rotation is `vsll`, `vsrl`
/// and `vor` (a funnel shift of a word with itself); the tweak's carry is
/// a compare (`vmsltu`) whose all-ones lanes subtract -1.
macro_rules! vector_row {
    ($lanes:literal) => {
        #[inline(always)]
        unsafe fn splat(v: u64) -> Self {
            Simd::splat(v)
        }
        #[inline(always)]
        unsafe fn add(self, o: Self) -> Self {
            self + o
        }
        #[inline(always)]
        unsafe fn xor(self, o: Self) -> Self {
            self ^ o
        }
        #[inline(always)]
        unsafe fn and(self, o: Self) -> Self {
            self & o
        }
        #[inline(always)]
        unsafe fn rol(self, r: u32) -> Self {
            // SAFETY: the count is below 64 (rotation counts are 1..=63).
            unsafe { simd_funnel_shl(self, self, Simd::splat(u64::from(r))) }
        }
        #[inline(always)]
        unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
            let sum = t0 + step;
            // SAFETY: a lane-wise compare of two vectors of one type.
            let carry: Self = unsafe { simd_lt(sum, step) };
            (sum, t1 - carry)
        }
        #[inline(always)]
        unsafe fn load_row(row: &[u64; $lanes]) -> Self {
            Simd::from_array(*row)
        }
        #[inline(always)]
        unsafe fn store_row(self, row: &mut [u64; $lanes]) {
            *row = self.to_array();
        }
    };
}

/// `N` little-endian words at byte `at` of `block`, any alignment (LLVM
/// loads them as bytes, `vle8.v`, where it cannot prove the alignment).
///
/// # Safety
/// `at + 8 * N <= block.len()`.
#[inline(always)]
unsafe fn words<const N: usize>(block: &[u8], at: usize) -> Simd<u64, N> {
    // SAFETY: the caller's; `read_unaligned` needs no alignment; the target
    // is little-endian, so the bytes are the words.
    unsafe {
        block
            .as_ptr()
            .add(at)
            .cast::<Simd<u64, N>>()
            .read_unaligned()
    }
}

impl Row<2> for Simd<u64, 2> {
    vector_row!(2);
    /// Each pair of words of the two lanes, one 16-byte load per lane,
    /// transposed into two rows by two shuffles.
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [Self; W] {
        let mut m = [Simd::splat(0); W];
        // `while`, not `for`: as in the kernel, so that nothing is left to a call.
        let mut pair = 0;
        while pair < W / 2 {
            // SAFETY: the trait's contract: each block holds offset + 8 * W
            // bytes, and 16 * (pair + 1) <= 8 * W.
            let (a, b) = unsafe {
                (
                    words::<2>(blocks[0], offset + 16 * pair),
                    words::<2>(blocks[1], offset + 16 * pair),
                )
            };
            m[2 * pair] = simd_swizzle!(a, b, [0, 2]);
            m[2 * pair + 1] = simd_swizzle!(a, b, [1, 3]);
            pair += 1;
        }
        m
    }
}

impl Row<4> for Simd<u64, 4> {
    vector_row!(4);
    /// Each four words of the four lanes, one 32-byte load per lane,
    /// transposed (4 × 4) into four rows by eight shuffles.
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 4], offset: usize) -> [Self; W] {
        let mut m = [Simd::splat(0); W];
        let mut quad = 0;
        while quad < W / 4 {
            let at = offset + 32 * quad;
            // SAFETY: the trait's contract: each block holds offset + 8 * W
            // bytes, and 32 * (quad + 1) <= 8 * W.
            let (a, b, c, d) = unsafe {
                (
                    words::<4>(blocks[0], at),
                    words::<4>(blocks[1], at),
                    words::<4>(blocks[2], at),
                    words::<4>(blocks[3], at),
                )
            };
            // a0 b0 a2 b2, a1 b1 a3 b3, then the same of c and d
            let ab_even = simd_swizzle!(a, b, [0, 4, 2, 6]);
            let ab_odd = simd_swizzle!(a, b, [1, 5, 3, 7]);
            let cd_even = simd_swizzle!(c, d, [0, 4, 2, 6]);
            let cd_odd = simd_swizzle!(c, d, [1, 5, 3, 7]);
            m[4 * quad] = simd_swizzle!(ab_even, cd_even, [0, 1, 4, 5]);
            m[4 * quad + 1] = simd_swizzle!(ab_odd, cd_odd, [0, 1, 4, 5]);
            m[4 * quad + 2] = simd_swizzle!(ab_even, cd_even, [2, 3, 6, 7]);
            m[4 * quad + 3] = simd_swizzle!(ab_odd, cd_odd, [2, 3, 6, 7]);
            quad += 1;
        }
        m
    }
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this
/// repository): checks of this module's internals, run as tests by
/// `tests/suite/internals.rs`.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    use super::*;

    /// VLEN as detected against `SKEIN_SIMD_EXPECT_VLEN` (CI's QEMU runs
    /// say which CPU they emulate; 0: no V), and each kernel available
    /// exactly where its VLEN is. (The kernels themselves meet `portable`
    /// in the shared suites, as every backend of the table does.)
    pub fn detection_matches_the_cpu() {
        let found = vlen();
        if let Ok(want) = std::env::var("SKEIN_SIMD_EXPECT_VLEN") {
            let want: usize = want.parse().expect("SKEIN_SIMD_EXPECT_VLEN: bits");
            assert_eq!(found.unwrap_or(0), want, "VLEN (0: no V)");
        }
        if let Some(bits) = found {
            assert!(bits >= 128 && bits.is_power_of_two(), "VLEN {bits}");
        }
        assert_eq!(vlen128::Token::detect().is_some(), found.is_some());
        assert_eq!(
            vlen256::Token::detect().is_some(),
            found.is_some_and(|bits| bits >= 256)
        );
    }
}
