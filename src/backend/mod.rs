//! Block-function backends, one module per instruction set, and the one
//! table that lists them: detection, forcing and dispatch of both the
//! single-stream block function and the multi-lane kernels are generated
//! from it (`registry.rs`).
//!
//! Each instruction set's module offers the same seam: a `Token` whose
//! `detect()` succeeds only when this CPU runs the module's code; safe
//! `compress_256/512/1024(token, chain, tweak, blocks, bytes_per_block)`
//! block functions (see `portable::compress`); and, where it has one, a
//! multi-lane kernel `compress_lanes` with its lane count `LANES` (see
//! `lanes.rs`). Adding an instruction set is its module plus one row of the
//! table below (and, for a new folder, its `cfg` alias in `build.rs`).

#[cfg(skein_simd_aarch64)]
mod aarch64;
#[cfg(any(skein_simd_x86, skein_simd_aarch64, skein_simd_powerpc))]
mod lane_kernel;
pub(crate) mod lanes;
#[cfg(any(skein_simd_x86, skein_simd_powerpc))]
mod layout;
pub(crate) mod portable;
pub(crate) mod portable_lanes;
#[cfg(skein_simd_powerpc)]
mod powerpc;
mod registry;
#[cfg(skein_simd_x86)]
mod x86;

use crate::Error;
use lanes::{Kernel, LaneChoice, LaneJob};

// The backends, in the order of `Backend::ALL` (the order `skeinsum
// --list-backends` prints). `auto` ranks the automatic choice among the
// backends this CPU runs (highest wins, 0 only when forced): first for the
// single-stream block function, then, after `lanes`, for the multi-lane
// kernel. The measurements behind the ranks:
//
// Single stream, x86-64, AMD Zen 5 (EPYC; a VM exposing AVX2, hiding
// AVX-512), all backends interleaved in one run (tools/bench/bench.py),
// cycles per byte at 16 MiB, Skein-256 / -512 / -1024:
//   asm 5.9 4.3 5.0   portable 6.8 5.0 5.2   avx2 13.1 10.1 8.1   sse2 15.9 10.0 13.9
// Single-stream Threefish is a chain of dependent rounds: the even/odd SIMD
// layout puts a shuffle (and, without AVX-512, a shift/shift/or rotate) on
// every round's chain, while scalar code runs a round as add then xor with
// the rotate beside it. So scalar wins every size, and the generated
// assembly (x86/asm.rs) beats the compiled Rust. avx512 stays forced-only
// until it is measured on a CPU that exposes it.
//
// Single stream, PowerPC, instructions per message byte under QEMU user mode
// (tools/bench/ppc-insn-table.sh; instruction counts stand in for time),
// Skein-256 / -512 / -1024:
//   ppc32, 7450 (G4):     altivec 32.2 25.7 28.9   portable 50.3 51.9 83.9
//   ppc64 BE, POWER8:     vsx 15.2 12.5 16.7   portable 21.9 19.0 22.1
//                         altivec 37.0 26.7 29.9 (same code on POWER7)
//   ppc64le, POWER9:      vsx 12.9 11.5 16.6   portable 19.2 18.2 21.2
//                         altivec 31.7 23.4 27.2
// 32-bit code has no 64-bit scalar instructions, so AltiVec wins there;
// 64-bit scalar code beats the AltiVec emulation of 64-bit lanes, so on
// ppc64 it is vsx (POWER8+) or portable, and altivec only when forced.
// AArch64: NEON's single-stream block function is the portable one.
//
// Multi-lane, an AMD EPYC VM without AVX-512 (cpuinfo family 23, model 49),
// 16 KiB messages in L2, same-run
// ratios (examples/many_table.rs; docs/lanes.md): AVX2 1.7-2.5x one stream
// (Skein-1024 to Skein-256), SSE2 0.9-1.2x, portable 0.9x. AVX-512 x8
// comes first by construction (twice the lanes, one-instruction rotates).
// AArch64 NEON x4 (with SHA3 only: `neon::Token::lanes_preferred`) and
// POWER8+ VSX x2 come before portable by llvm-mca's cycle estimates
// (docs/aarch64.md, docs/powerpc.md). The portable kernel has one lane (see
// `portable_lanes::LANES`).
//
// `interleaved`: the same kernel over two independent groups of lanes per
// call, for cores whose vector latency leaves pipes idle. Which form runs is
// not ranked here but measured once per backend and state size at first use
// (`lanes::interleave_measured`): on that VM (AVX-512 hidden;
// 1-cycle vector latency, one shift pipe; tools/bench/latency-probe) AVX2
// 2x4 is 1.2-1.3x x4 for Skein-256, where 16 ymm still hold both groups' 8
// state rows, and slower for Skein-512 (spills) and Skein-1024 (spills,
// rounds out of line); SSE2 2x2 likewise. On the Zen 5 of the AVX-512 figures (2-cycle latency) two
// groups of 8 are expected to pay; it could not be measured here.
registry::backend_table! {
    /// Plain Rust, fully unrolled; available everywhere.
    Portable = "portable", portable if cfg(all()), auto 1, lanes portable_lanes if cfg(all()), auto(_) 1;
    /// x86-64 SSE2.
    Sse2 = "sse2", x86::sse2 if cfg(skein_simd_x86), auto 0, lanes x86::sse2 if cfg(skein_simd_x86), auto(_) 3, interleaved x86::sse2::interleaved;
    /// x86-64 AVX2.
    Avx2 = "avx2", x86::avx2 if cfg(skein_simd_x86), auto 0, lanes x86::avx2 if cfg(skein_simd_x86), auto(_) 4, interleaved x86::avx2::interleaved;
    /// x86-64 AVX-512 F + VL.
    Avx512 = "avx512", x86::avx512 if cfg(skein_simd_x86), auto 0, lanes x86::avx512 if cfg(skein_simd_x86), auto(_) 5, interleaved x86::avx512::interleaved;
    /// x86-64 scalar code in generated inline assembly (baseline
    /// instructions only); the automatic choice on x86-64.
    Asm = "asm", x86::asm if cfg(skein_simd_x86), auto 2;
    /// PowerPC AltiVec/VMX, 64-bit words emulated in 32-bit lanes; its
    /// four-lane kernel is the automatic multi-lane choice on 32-bit PowerPC
    /// (MPC7450 model: docs/powerpc.md).
    Altivec = "altivec", powerpc::altivec if cfg(skein_simd_powerpc), auto u32::from(cfg!(target_arch = "powerpc")) * 2,
        lanes powerpc::altivec if cfg(skein_simd_powerpc), auto(_) u32::from(cfg!(target_arch = "powerpc")) * 2;
    /// POWER8+ VSX with native 64-bit vector lanes.
    Vsx = "vsx", powerpc::vsx if cfg(skein_simd_powerpc), auto u32::from(cfg!(target_arch = "powerpc64")) * 2,
        lanes powerpc::vsx if cfg(all(skein_simd_powerpc, target_arch = "powerpc64")), auto(_) 2;
    /// AArch64 NEON: the multi-lane kernel (`XAR` rotations with the SHA3
    /// extension); its single-stream block function is the portable one,
    /// which a NEON single stream does not beat.
    Neon = "neon", aarch64::neon if cfg(skein_simd_aarch64), auto 0,
        lanes aarch64::neon if cfg(skein_simd_aarch64), auto(t) u32::from(t.lanes_preferred()) * 2;
}

impl Choice {
    /// The portable backend, which needs no detection.
    fn portable() -> Choice {
        Choice::Portable(portable::Token)
    }

    /// The backend this CPU runs with the highest `rank` (the first in table
    /// order among equals), if any ranks above 0.
    fn best(rank: impl Fn(Choice) -> u32) -> Option<Choice> {
        let mut best: Option<Choice> = None;
        for choice in Backend::ALL.into_iter().filter_map(Choice::of) {
            if rank(choice) > best.map_or(0, &rank) {
                best = Some(choice);
            }
        }
        best
    }
}

impl Backend {
    /// The backend of that name, if the name is known.
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether this build has the backend and this CPU can run it.
    pub fn is_available(self) -> bool {
        Choice::of(self).is_some()
    }

    /// Whether the backend can hash a state of `state_bits` bits here: false
    /// for anything but 256, 512 and 1024, and otherwise whether it is
    /// available. Every backend of this crate implements all three state
    /// sizes, so for those this is [`is_available`](Self::is_available).
    ///
    /// ```
    /// use skein_simd::Backend;
    /// assert!(Backend::Portable.supports(1024));
    /// assert!(!Backend::Portable.supports(384));
    /// ```
    pub fn supports(self, state_bits: usize) -> bool {
        matches!(state_bits, 256 | 512 | 1024) && self.is_available()
    }

    /// The backends usable here, the automatic choice for Skein-512 first.
    #[cfg(feature = "alloc")]
    pub fn available() -> alloc::vec::Vec<Backend> {
        let auto = Platform::detect().backend(512);
        let mut list = alloc::vec![auto];
        list.extend(
            Backend::ALL
                .into_iter()
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
    /// the kernel has an interleaved form, which form runs is measured once
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
    /// build and on this CPU, by independent groups of lanes per call:
    /// `[1]`, `[1, 2]` (an interleaved form too), or none. The automatic
    /// choice takes the faster form; [`Platform::with_lane_interleave`]
    /// forces one.
    #[doc(hidden)]
    pub fn lane_interleaves(self) -> &'static [usize] {
        lanes::interleaves(self)
    }
}

/// The backend chosen for each state size; chosen once, copied into every
/// hasher.
///
/// ```
/// use skein_simd::{Backend, Platform};
/// let auto = Platform::detect();
/// let forced = Platform::force(Backend::Portable).unwrap();
/// assert_eq!(forced.backend(512), Backend::Portable);
/// # let _ = auto;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform {
    s256: Choice,
    s512: Choice,
    s1024: Choice,
    /// The multi-lane kernel for tree hashing, `hash_many` and long outputs:
    /// the fastest one, or that of the forced backend.
    lanes: LaneChoice,
}

impl Platform {
    /// The fastest backends this CPU supports, per state size.
    ///
    /// Detected once per process (with `std`) and then read from a cache:
    /// every hasher starts here, and detecting anew cost about 30
    /// instructions per hash (callgrind, 64-byte one-shots).
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
        // One choice for every state size: no measurement ranks the
        // backends differently by size.
        let choice = Choice::best(Choice::rank).unwrap_or_else(Choice::portable);
        Platform {
            s256: choice,
            s512: choice,
            s1024: choice,
            lanes: LaneChoice::detect(),
        }
    }

    /// Use `backend` for every state size, if this CPU and build have it, and
    /// its instruction set's multi-lane kernel (the portable one when it has
    /// none) for tree hashing and long outputs.
    pub fn force(backend: Backend) -> Result<Platform, Error> {
        let c = Choice::of(backend).ok_or(Error::BackendUnavailable(backend))?;
        Ok(Platform {
            s256: c,
            s512: c,
            s1024: c,
            lanes: LaneChoice::forced(c),
        })
    }

    /// The backend used for a state of `state_bits` bits.
    pub fn backend(&self, state_bits: usize) -> Backend {
        match state_bits {
            256 => self.s256.backend(),
            1024 => self.s1024.backend(),
            _ => self.s512.backend(),
        }
    }

    /// Test hook: run `f` with every multi-lane kernel chosen on this thread
    /// (by `force`, `Params::backend`, `Backend::lanes`, `raw::compress_lanes`;
    /// not `detect`, which is cached) in the form with `interleave`
    /// independent groups of lanes per call (1 or 2, see
    /// [`Backend::lane_interleaves`]; 1 for kernels without a second form).
    /// Results are the same in every form; the tests check that.
    ///
    /// # Panics
    /// If `interleave` is not 1 or 2.
    #[doc(hidden)]
    #[cfg(feature = "std")]
    pub fn with_lane_interleave<R>(interleave: usize, f: impl FnOnce() -> R) -> R {
        lanes::with_interleave(interleave, f)
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
        match W {
            4 => self
                .s256
                .compress_256(as_words(chain), tweak, blocks, bytes_per_block),
            8 => self
                .s512
                .compress_512(as_words(chain), tweak, blocks, bytes_per_block),
            _ => self
                .s1024
                .compress_1024(as_words(chain), tweak, blocks, bytes_per_block),
        }
    }
}

/// View a `[u64; W]` as the `[u64; N]` it is when `W == N` (checked, free
/// after monomorphization).
#[inline(always)]
fn as_words<const W: usize, const N: usize>(words: &mut [u64; W]) -> &mut [u64; N] {
    <&mut [u64; N]>::try_from(&mut words[..]).expect("state size")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A forced backend brings its own instruction set's lane kernel (or the
    /// portable one); only the automatic choice takes the fastest.
    #[test]
    fn forced_backend_picks_its_own_lane_kernel() {
        for backend in Backend::ALL {
            let Ok(platform) = Platform::force(backend) else {
                continue;
            };
            let want = LaneChoice::of(backend).map_or(Backend::Portable, LaneChoice::backend);
            assert_eq!(platform.lane_choice().backend(), want, "forced {backend}");
        }
        assert_eq!(Platform::detect().lane_choice(), LaneChoice::detect());
    }

    /// The interleaved form runs twice the lanes of the one-group form, and
    /// the test hook reaches `Platform::force` and `Backend::lanes` alike.
    #[test]
    fn forced_interleave_doubles_the_lanes() {
        for backend in Backend::ALL {
            let forms = backend.lane_interleaves();
            assert_eq!(forms.is_empty(), backend.lanes().is_none(), "{backend}");
            let Some(&first) = forms.first() else {
                continue;
            };
            assert_eq!(first, 1, "{backend}");
            let one = Platform::with_lane_interleave(1, || backend.lanes()).unwrap();
            for &i in forms {
                let (lanes, platform) = Platform::with_lane_interleave(i, || {
                    (backend.lanes().unwrap(), Platform::force(backend).unwrap())
                });
                assert_eq!(lanes, i * one, "{backend} in {i} groups");
                let lane_choice = platform.lane_choice();
                assert_eq!(lane_choice.lanes_for::<4>(), lanes, "{backend}");
                assert_eq!(lane_choice.lanes_for::<16>(), lanes, "{backend}");
                assert_eq!(lane_choice.interleave_for::<8>(), i, "{backend}");
            }
            // Detection inside the hook still gives the automatic form (it
            // is cached for the process).
            assert_eq!(
                Platform::with_lane_interleave(2, LaneChoice::detect),
                LaneChoice::detect()
            );
            // Outside the hook: the automatic form, one of these, and the
            // chunking count a multiple of its lanes.
            let auto = LaneChoice::of(backend).unwrap();
            for (interleave, lanes) in [
                (auto.interleave_for::<4>(), auto.lanes_for::<4>()),
                (auto.interleave_for::<8>(), auto.lanes_for::<8>()),
                (auto.interleave_for::<16>(), auto.lanes_for::<16>()),
            ] {
                assert!(forms.contains(&interleave), "{backend}: {interleave}");
                assert_eq!(auto.lanes() % lanes, 0, "{backend}");
            }
        }
        #[cfg(skein_simd_x86)]
        if Backend::Avx2.is_available() {
            assert_eq!(Backend::Avx2.lane_interleaves(), [1, 2]);
        }
    }
}
