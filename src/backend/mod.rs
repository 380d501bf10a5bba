//! Block-function backends, one folder per instruction set
//! (`portable/`, `x86/`, `aarch64/`, `powerpc/`, `riscv/`, `wasm32/`), and the one
//! table that lists them: detection, forcing and dispatch of both the
//! single-stream block function and the multi-lane kernels are generated
//! from it (`dispatch/registry.rs`) and written once over the traits of
//! `dispatch/isa.rs` (`dispatch/choice.rs`).
//!
//! Each instruction set's module offers a `Token` that implements
//! [`Isa`](dispatch::isa::Isa): detection, the single-stream block function
//! for every state width and, where it has one, the multi-lane kernel (seam
//! in `lanes/mod.rs`), written once in `lanes/kernel.rs` over the module's
//! [`Row`](dispatch::isa::Row). `even_odd/` is the register layout and
//! single-stream engine the SIMD instruction sets share. Adding an
//! instruction set is its folder plus one row of the table below and the
//! lines docs/adding-a-backend.md lists.

#[cfg(skein_simd_aarch64)]
pub(crate) mod aarch64;
mod dispatch;
#[cfg(any(skein_simd_x86, skein_simd_powerpc, skein_simd_wasm32))]
mod even_odd;
pub(crate) mod lanes;
pub(crate) mod portable;
#[cfg(skein_simd_powerpc)]
mod powerpc;
#[cfg(skein_simd_riscv)]
pub(crate) mod riscv;
#[cfg(skein_simd_wasm32)]
mod wasm32;
#[cfg(skein_simd_x86)]
pub(crate) mod x86;

use crate::Error;
use dispatch::registry;
use lanes::LaneChoice;
#[cfg(skein_simd_test_hooks)]
pub use lanes::LaneForm;
use zeroize::Zeroize;

// The backends, in the order of `Backend::ALL` (the order `skeinsum
// --list-backends` prints). `auto` ranks the automatic choice among the
// backends this CPU runs (highest wins, 0 only when forced): first for the
// single-stream block function, then, after `lanes`, for the multi-lane
// kernel (only rows whose token has one). The ranks follow the
// measurements in docs/performance.md (single stream) and docs/lanes.md
// (multi-lane kernels; the choice among a kernel's forms is each
// instruction set's rule, `Isa::lane_form`, not a rank).
registry::backend_table! {
    /// Plain Rust, fully unrolled; available everywhere.
    Portable = "portable", portable if cfg(all()), auto 1, lanes auto(_) 1;
    /// x86-64 SSE2.
    Sse2 = "sse2", x86::sse2 if cfg(skein_simd_x86), auto 0, lanes auto(_) 3;
    /// x86-64 AVX2.
    Avx2 = "avx2", x86::avx2 if cfg(skein_simd_x86), auto 0, lanes auto(_) 4;
    /// x86-64 AVX-512 F + VL.
    Avx512 = "avx512", x86::avx512 if cfg(skein_simd_x86), auto 0, lanes auto(_) 5;
    /// x86-64 scalar code in generated inline assembly (baseline
    /// instructions only); the automatic choice on x86-64.
    Asm = "asm", x86::asm if cfg(skein_simd_x86), auto 2;
    /// PowerPC AltiVec/VMX, 64-bit words emulated in 32-bit lanes; its
    /// four-lane kernel is the automatic multi-lane choice on 32-bit PowerPC
    /// (MPC7450 model: docs/powerpc.md).
    Altivec = "altivec", powerpc::altivec if cfg(skein_simd_powerpc),
        auto u32::from(cfg!(target_arch = "powerpc")) * 2,
        lanes auto(_) u32::from(cfg!(target_arch = "powerpc")) * 2;
    /// POWER8+ VSX with native 64-bit vector lanes.
    Vsx = "vsx", powerpc::vsx if cfg(skein_simd_powerpc),
        auto u32::from(cfg!(target_arch = "powerpc64")) * 2, lanes auto(_) 2;
    /// AArch64 NEON: the multi-lane kernel (`XAR` rotations with the SHA3
    /// extension, else NEON and scalar lanes side by side); its
    /// single-stream block function is the portable one, which a NEON
    /// single stream does not beat.
    Neon = "neon", aarch64::neon if cfg(skein_simd_aarch64), auto 0, lanes auto(_) 2;
    /// RISC-V V (RVV 1.0), any vector length: the two-lane kernel (rows of
    /// two 64-bit lanes); its single-stream block function is the portable
    /// one. The automatic multi-lane choice where VLEN is 128.
    Rvv = "rvv", riscv::rvv::vlen128 if cfg(skein_simd_riscv), auto 0, lanes auto(_) 2;
    /// RISC-V V with VLEN ≥ 256 (SpacemiT K1/M1): the four-lane kernel,
    /// the automatic multi-lane choice there; the single stream as `rvv`.
    Rvv256 = "rvv256", riscv::rvv::vlen256 if cfg(skein_simd_riscv), auto 0, lanes auto(_) 3;
    /// WebAssembly SIMD128 (a build with `+simd128`: WebAssembly has no
    /// run-time detection): the two-lane kernel is the automatic multi-lane
    /// choice; the single stream runs only when forced (docs/wasm.md).
    Simd128 = "simd128", wasm32::simd128 if cfg(skein_simd_wasm32), auto 0, lanes auto(_) 2;
}

impl Backend {
    /// The backend of that name, if the name is known.
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.iter().copied().find(|b| b.name() == name)
    }

    /// Whether this build has the backend and this CPU can run it.
    pub fn is_available(self) -> bool {
        Choice::of(self).is_some()
    }

    /// The backends usable here, the automatic choice for Skein-512 first.
    #[cfg(feature = "alloc")]
    pub fn available() -> alloc::vec::Vec<Backend> {
        let auto = Platform::detect().backend();
        let mut list = alloc::vec![auto];
        list.extend(
            Backend::ALL
                .iter()
                .copied()
                .filter(|b| b.is_available() && *b != auto),
        );
        list
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl Backend {
    /// How many messages this backend's multi-lane kernel hashes at once for
    /// a 512-bit state, if this build and CPU have one (the form of the
    /// kernel, and so the count, may differ by state size:
    /// [`SkeinMany::lanes`](crate::SkeinMany::lanes) tells for each). Where
    /// the kernel has several forms, which form runs is measured once
    /// per process, so on a loaded machine the count can differ from one
    /// run to the next; digests never do.
    ///
    /// ```
    /// use skein_simd::Backend;
    /// assert!(Backend::Portable.lanes().unwrap() >= 1);
    /// ```
    pub fn lanes(self) -> Option<usize> {
        LaneChoice::of(self).map(LaneChoice::lanes_for::<8>)
    }

    /// Test hook: the forms of this backend's multi-lane kernel in this
    /// build and on this CPU, [`LaneForm::OneGroup`] first, or none. The
    /// automatic choice takes the fastest form; [`Platform::with_lane_form`]
    /// forces one.
    #[cfg(skein_simd_test_hooks)]
    pub fn lane_forms(self) -> &'static [LaneForm] {
        lanes::form::forms(self)
    }
}

/// The backend chosen, for every state size (no measurement ranks the
/// backends differently by size); chosen once, copied into every hasher.
///
/// ```
/// use skein_simd::{Backend, Platform};
/// let auto = Platform::detect();
/// let forced = Platform::force(Backend::Portable).unwrap();
/// assert_eq!(forced.backend(), Backend::Portable);
/// # let _ = auto;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform {
    /// The single-stream block function's instruction set.
    choice: Choice,
    /// The multi-lane kernel for tree hashing, `hash_many` and long outputs:
    /// the fastest one, or that of the forced backend.
    lanes: LaneChoice,
}

impl Platform {
    /// The fastest backend this CPU supports.
    ///
    /// Detected once per process (with `std`) and then read from a cache:
    /// every hasher starts here, and detecting anew costs instructions on
    /// every hash (counted: docs/x86-64.md, "Single stream against the
    /// reference C").
    pub fn detect() -> Platform {
        #[cfg(feature = "std")]
        {
            static DETECTED: std::sync::OnceLock<Platform> = std::sync::OnceLock::new();
            *DETECTED.get_or_init(Platform::detect_now)
        }
        #[cfg(not(feature = "std"))]
        Platform::detect_now()
    }

    fn detect_now() -> Platform {
        Platform {
            choice: Choice::best(Choice::rank).unwrap_or_else(Choice::portable),
            lanes: LaneChoice::detect(),
        }
    }

    /// Use `backend` for every state size, if this CPU and build have it, and
    /// its instruction set's multi-lane kernel (the portable one when it has
    /// none) for tree hashing and long outputs.
    pub fn force(backend: Backend) -> Result<Platform, Error> {
        let c = Choice::of(backend).ok_or(Error::BackendUnavailable(backend))?;
        Ok(Platform {
            choice: c,
            lanes: LaneChoice::forced(c),
        })
    }

    /// The backend of the single-stream block function, for every state
    /// size (the multi-lane kernel's: [`Backend::lanes`]).
    pub fn backend(&self) -> Backend {
        self.choice.backend()
    }

    /// Test hook: run `f` with every multi-lane kernel chosen on this thread
    /// (by `force`, `Params::backend`, `Backend::lanes`, `hazmat::compress_lanes`;
    /// not `detect`, which is cached) in `form` (see
    /// [`Backend::lane_forms`]; the one-group form for kernels without
    /// it). Results are the same in every form; the tests check that.
    #[cfg(skein_simd_test_hooks)]
    pub fn with_lane_form<R>(form: LaneForm, f: impl FnOnce() -> R) -> R {
        lanes::form::with_form(form, f)
    }

    /// The multi-lane kernel that goes with this platform (see `force`).
    pub(crate) fn lane_choice(&self) -> LaneChoice {
        self.lanes
    }

    /// Process consecutive blocks of one UBI: for each block of `8 * W` bytes,
    /// advance the tweak position by `bytes_per_block`, set
    /// `chain = Threefish(chain, tweak, block) ^ block`, clear the first flag.
    #[inline]
    pub(crate) fn compress<const W: usize>(
        &self,
        chain: &mut [u64; W],
        tweak: &mut [u64; 2],
        blocks: &[u8],
        bytes_per_block: u64,
    ) {
        self.choice
            .compress::<W>(chain, tweak, blocks, bytes_per_block)
    }

    /// [`compress`](Self::compress) of a UBI's last blocks, then the first
    /// output block (counter 0) from the chain they leave: its first
    /// `out.len()` bytes (at most a block) into `out`. One call of the block
    /// function where the backend has it (x86-64's assembly). A whole block
    /// is written into `out` in place; a shorter `out` gets a prefix of a
    /// block made on the stack, which is then wiped. The one place of that
    /// choice, for `hazmat::compress_then_output` and the UBI's ends.
    /// Always inlined: the caller tests the length (which it often knows)
    /// and calls the dispatch of its path directly. Left to LLVM, this
    /// function stayed out of line with both paths, and the C library's
    /// `Final` took 4 to 7 instructions more (callgrind).
    #[inline(always)]
    pub(crate) fn compress_then_output<const W: usize>(
        &self,
        chain: &mut [u64; W],
        tweak: &mut [u64; 2],
        blocks: &[u8],
        bytes_per_block: u64,
        out: &mut [u8],
    ) {
        let run = dispatch::isa::BlockRun {
            chain,
            tweak,
            blocks,
            bytes_per_block,
        };
        let (words, tail) = out.as_chunks_mut::<8>();
        if let (Ok(whole), []) = (<&mut [[u8; 8]; W]>::try_from(words), &tail[..]) {
            return self.choice.compress_then_output::<W>(run, whole);
        }
        // Words, so that the wipe is W stores (bytes would take 8 W).
        let mut block = [0u64; W];
        let bytes = bytemuck::cast_slice_mut::<u64, [u8; 8]>(&mut block[..]);
        let bytes = <&mut [[u8; 8]; W]>::try_from(bytes).expect("W words");
        self.choice.compress_then_output::<W>(run, bytes);
        out.copy_from_slice(&bytes.as_flattened()[..out.len()]);
        block.zeroize();
    }
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    use super::*;

    /// A forced backend brings its own instruction set's lane kernel (or the
    /// portable one); only the automatic choice takes the fastest.
    pub fn forced_backend_picks_its_own_lane_kernel() {
        let forced = Backend::ALL
            .iter()
            .copied()
            .filter_map(|backend| Some((backend, Platform::force(backend).ok()?)));
        for (backend, platform) in forced {
            let want = LaneChoice::of(backend).map_or(Backend::Portable, LaneChoice::backend);
            assert_eq!(platform.lane_choice().backend(), want, "forced {backend}");
        }
        assert_eq!(Platform::detect().lane_choice(), LaneChoice::detect());
    }

    /// Each form runs the lanes it says (twice the one-group form's, one
    /// more, or one), at every state width where this build has its kernel
    /// (at least one; elsewhere another of the forms runs, `Isa::has_form`),
    /// and the test hook reaches `Platform::force` and `Backend::lanes`
    /// alike.
    pub fn forced_form_runs_its_lanes() {
        for &backend in Backend::ALL {
            let forms = backend.lane_forms();
            assert_eq!(forms.is_empty(), backend.lanes().is_none(), "{backend}");
            let Some(&first) = forms.first() else {
                continue;
            };
            assert_eq!(first, LaneForm::OneGroup, "{backend}");
            let one = Platform::with_lane_form(LaneForm::OneGroup, || backend.lanes()).unwrap();
            for &form in forms {
                let (lanes, platform) = Platform::with_lane_form(form, || {
                    (backend.lanes().unwrap(), Platform::force(backend).unwrap())
                });
                let want = match form {
                    LaneForm::OneGroup => one,
                    LaneForm::TwoGroups => 2 * one,
                    LaneForm::WithScalar => one + 1,
                    LaneForm::Scalar => 1,
                };
                let lane_choice = platform.lane_choice();
                let at = [
                    (lane_choice.form_for::<4>(), lane_choice.lanes_for::<4>()),
                    (lane_choice.form_for::<8>(), lane_choice.lanes_for::<8>()),
                    (lane_choice.form_for::<16>(), lane_choice.lanes_for::<16>()),
                ];
                assert_eq!(at[1].1, lanes, "{backend}");
                assert!(
                    at.iter().any(|&(f, _)| f == form),
                    "{backend}: no {form:?} kernel"
                );
                for (runs, lanes) in at {
                    assert!(forms.contains(&runs), "{backend}: {runs:?}");
                    if runs == form {
                        assert_eq!(lanes, want, "{backend} in {form:?}");
                    }
                }
            }
            // Detection inside the hook still gives the automatic form (it
            // is cached for the process).
            assert_eq!(
                Platform::with_lane_form(LaneForm::TwoGroups, LaneChoice::detect),
                LaneChoice::detect()
            );
            // Outside the hook: the automatic form, one of these, and the
            // chunking count a multiple of its lanes.
            let auto = LaneChoice::of(backend).unwrap();
            for (form, lanes) in [
                (auto.form_for::<4>(), auto.lanes_for::<4>()),
                (auto.form_for::<8>(), auto.lanes_for::<8>()),
                (auto.form_for::<16>(), auto.lanes_for::<16>()),
            ] {
                assert!(forms.contains(&form), "{backend}: {form:?}");
                assert_eq!(auto.lanes() % lanes, 0, "{backend}");
            }
        }
        #[cfg(skein_simd_x86)]
        if Backend::Avx2.is_available() {
            assert_eq!(
                Backend::Avx2.lane_forms(),
                [
                    LaneForm::OneGroup,
                    LaneForm::TwoGroups,
                    LaneForm::WithScalar
                ]
            );
        }
    }
}
