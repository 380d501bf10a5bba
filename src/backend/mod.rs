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
// Multi-lane, Zen 5 without AVX-512, Skein-512 over 1 KiB messages, same-run
// ratios (examples/many_table.rs, benches/many.rs): AVX2 x4 about 2x SSE2
// x2, SSE2 x2 about 1.2x portable. AVX-512 x8 comes first by construction
// (twice the lanes, one-instruction rotates). AArch64 NEON x4 (with SHA3
// only: `neon::Token::lanes_preferred`) and POWER8+ VSX x2 come before
// portable by llvm-mca's cycle estimates (docs/aarch64.md, docs/powerpc.md).
// The portable kernel has one lane (see `portable_lanes::LANES`).
registry::backend_table! {
    /// Plain Rust, fully unrolled; available everywhere.
    Portable = "portable", portable if cfg(all()), auto 1, lanes portable_lanes if cfg(all()), auto(_) 1;
    /// x86-64 SSE2.
    Sse2 = "sse2", x86::sse2 if cfg(skein_simd_x86), auto 0, lanes x86::sse2 if cfg(skein_simd_x86), auto(_) 3;
    /// x86-64 AVX2.
    Avx2 = "avx2", x86::avx2 if cfg(skein_simd_x86), auto 0, lanes x86::avx2 if cfg(skein_simd_x86), auto(_) 4;
    /// x86-64 AVX-512 F + VL.
    Avx512 = "avx512", x86::avx512 if cfg(skein_simd_x86), auto 0, lanes x86::avx512 if cfg(skein_simd_x86), auto(_) 5;
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
    /// How many messages this backend's multi-lane kernel hashes at once, if
    /// this build and CPU have one (see [`SkeinMany`](crate::SkeinMany)).
    ///
    /// ```
    /// use skein_simd::Backend;
    /// assert!(Backend::Portable.lanes().unwrap() >= 1);
    /// ```
    pub fn lanes(self) -> Option<usize> {
        LaneChoice::of(self).map(LaneChoice::lanes)
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
}
