//! Block-function backends, one module per instruction set, and the one
//! place that knows which exist: detection, forcing and dispatch of both the
//! single-stream block function and the multi-lane kernels.
//!
//! Each instruction set's module offers the same seam: a `Token` whose
//! `detect()` succeeds only when this CPU runs the module's code; safe
//! `compress_256/512/1024(token, chain, tweak, blocks, bytes_per_block)`
//! block functions (see `portable::compress`); and, where it has one, a
//! multi-lane kernel `compress_lanes` with its lane count `LANES` (see
//! `crate::lanes`). Adding an instruction set is its module plus one line in
//! each table below: `Backend` (variant, `ALL`, `name`), `Choice` (variant,
//! `of`, `backend`), `dispatch!`, the lane tables `lanes` and `run` if it has
//! a multi-lane kernel, and the preference lists.

#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
mod aarch64;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "powerpc64", skein_simd_nightly)
))]
mod lane_kernel;
#[cfg(any(
    target_arch = "x86_64",
    all(
        any(target_arch = "powerpc", target_arch = "powerpc64"),
        skein_simd_nightly
    )
))]
mod layout;
pub(crate) mod portable;
pub(crate) mod portable_lanes;
#[cfg(all(
    any(target_arch = "powerpc", target_arch = "powerpc64"),
    skein_simd_nightly
))]
mod powerpc;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
use aarch64::neon;
#[cfg(all(
    any(target_arch = "powerpc", target_arch = "powerpc64"),
    skein_simd_nightly
))]
use powerpc::{altivec, vsx};
#[cfg(target_arch = "x86_64")]
use x86::{asm, avx2, avx512, sse2};

use crate::lanes::{LaneJob, LaneKernel, LaneState};
use crate::Error;

/// A block-function implementation.
///
/// ```
/// use skein_simd::Backend;
/// assert!(Backend::Portable.is_available());
/// assert_eq!(Backend::from_name("portable"), Some(Backend::Portable));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Plain Rust, fully unrolled; available everywhere.
    Portable,
    /// x86-64 SSE2.
    Sse2,
    /// x86-64 AVX2.
    Avx2,
    /// x86-64 AVX-512 F + VL.
    Avx512,
    /// x86-64 scalar code in generated inline assembly (baseline
    /// instructions only); the automatic choice on x86-64.
    Asm,
    /// PowerPC AltiVec/VMX, 64-bit words emulated in 32-bit lanes.
    Altivec,
    /// POWER8+ VSX with native 64-bit vector lanes.
    Vsx,
    /// AArch64 NEON: the multi-lane kernel (`XAR` rotations with the SHA3
    /// extension); its single-stream block function is the portable one,
    /// which a NEON single stream does not beat.
    Neon,
}

impl Backend {
    /// Every backend this crate knows, available here or not.
    pub const ALL: [Backend; 8] = [
        Backend::Portable,
        Backend::Sse2,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Asm,
        Backend::Altivec,
        Backend::Vsx,
        Backend::Neon,
    ];

    /// Lower-case name, as accepted by `skeinsum --backend`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Sse2 => "sse2",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Asm => "asm",
            Backend::Altivec => "altivec",
            Backend::Vsx => "vsx",
            Backend::Neon => "neon",
        }
    }

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

/// A backend together with the proof (a token from its module's detection)
/// that this CPU can run it. Only `Choice::of` makes one, so holding a
/// `Choice` is what lets the safe dispatch below call SIMD code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Sse2(sse2::Token),
    #[cfg(target_arch = "x86_64")]
    Avx2(avx2::Token),
    #[cfg(target_arch = "x86_64")]
    Avx512(avx512::Token),
    #[cfg(target_arch = "x86_64")]
    Asm(asm::Token),
    #[cfg(all(
        any(target_arch = "powerpc", target_arch = "powerpc64"),
        skein_simd_nightly
    ))]
    Altivec(altivec::Token),
    #[cfg(all(
        any(target_arch = "powerpc", target_arch = "powerpc64"),
        skein_simd_nightly
    ))]
    Vsx(vsx::Token),
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    Neon(neon::Token),
}

impl Choice {
    fn of(backend: Backend) -> Option<Choice> {
        match backend {
            Backend::Portable => Some(Choice::Portable),
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2 => sse2::Token::detect().map(Choice::Sse2),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => avx2::Token::detect().map(Choice::Avx2),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => avx512::Token::detect().map(Choice::Avx512),
            #[cfg(target_arch = "x86_64")]
            Backend::Asm => asm::Token::detect().map(Choice::Asm),
            #[cfg(all(
                any(target_arch = "powerpc", target_arch = "powerpc64"),
                skein_simd_nightly
            ))]
            Backend::Altivec => altivec::Token::detect().map(Choice::Altivec),
            #[cfg(all(
                any(target_arch = "powerpc", target_arch = "powerpc64"),
                skein_simd_nightly
            ))]
            Backend::Vsx => vsx::Token::detect().map(Choice::Vsx),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Backend::Neon => neon::Token::detect().map(Choice::Neon),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    fn backend(self) -> Backend {
        match self {
            Choice::Portable => Backend::Portable,
            #[cfg(target_arch = "x86_64")]
            Choice::Sse2(_) => Backend::Sse2,
            #[cfg(target_arch = "x86_64")]
            Choice::Avx2(_) => Backend::Avx2,
            #[cfg(target_arch = "x86_64")]
            Choice::Avx512(_) => Backend::Avx512,
            #[cfg(target_arch = "x86_64")]
            Choice::Asm(_) => Backend::Asm,
            #[cfg(all(
                any(target_arch = "powerpc", target_arch = "powerpc64"),
                skein_simd_nightly
            ))]
            Choice::Altivec(_) => Backend::Altivec,
            #[cfg(all(
                any(target_arch = "powerpc", target_arch = "powerpc64"),
                skein_simd_nightly
            ))]
            Choice::Vsx(_) => Backend::Vsx,
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Choice::Neon(_) => Backend::Neon,
        }
    }
}

/// Call single-stream `function` of the chosen backend's module, handing it the token.
macro_rules! dispatch {
    ($choice:expr, $function:ident($($arg:expr),*)) => {
        match $choice {
            Choice::Portable => portable::$function($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Choice::Sse2(t) => sse2::$function(t, $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Choice::Avx2(t) => avx2::$function(t, $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Choice::Avx512(t) => avx512::$function(t, $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Choice::Asm(t) => asm::$function(t, $($arg),*),
            #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
            Choice::Altivec(t) => altivec::$function(t, $($arg),*),
            #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
            Choice::Vsx(t) => vsx::$function(t, $($arg),*),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Choice::Neon(t) => neon::$function(t, $($arg),*),
        }
    };
}

/// A backend whose instruction set has a multi-lane kernel, with its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LaneChoice(Choice);

/// A multi-lane kernel as a safe value: the token and the module's
/// `compress_lanes` (a zero-sized function item, so calls stay direct).
#[derive(Clone, Copy)]
struct Kernel<T, F>(T, F);

impl<const W: usize, const L: usize, T, F> LaneKernel<W, L> for Kernel<T, F>
where
    T: Copy + Send + Sync,
    F: Fn(T, &mut LaneState<W, L>, [&[u8]; L], [u64; L]) + Copy + Send + Sync,
{
    #[inline]
    fn compress(self, state: &mut LaneState<W, L>, blocks: [&[u8]; L], bytes_per_block: [u64; L]) {
        (self.1)(self.0, state, blocks, bytes_per_block)
    }
}

/// Lanes of the portable kernel: one, which is the single-stream portable
/// block function. Since that one keeps the key parity and tweak carry off
/// the dependency chain, it beats two interleaved lanes of the generic
/// multi-lane code. Measured on Zen 5 (AVX2 VM, loaded), Skein-512 over
/// 1 KiB messages, ratio to single-stream portable in the same run, three
/// runs: one lane 0.95-1.5x, two lanes 0.6-0.95x (before that tuning, two
/// lanes had won: 2.3-3.1x against 0.9-1.4x).
const PORTABLE_LANES: usize = portable_lanes::LANES;

/// The automatic multi-lane choice, fastest first (any state size).
/// Measured on AMD Zen 5 in a VM without AVX-512, Skein-512 over 1 KiB
/// messages, same-run ratios (examples/many_table.rs, benches/many.rs):
/// AVX2 x4 about 2x SSE2 x2, SSE2 x2 about 1.2x portable. AVX-512 x8
/// comes first by construction (twice the lanes, one-instruction rotates);
/// it could only be checked for correctness here, in an emulator.
/// AArch64 NEON x4 (with SHA3 only: `neon::Token::lanes_preferred`) and
/// POWER8+ VSX x2 come before portable by llvm-mca's cycle estimates (README,
/// "AArch64" and "PowerPC"); both run the whole suite under QEMU in CI.
const LANE_PREFERENCE: [Backend; 6] = [
    Backend::Avx512,
    Backend::Avx2,
    Backend::Sse2,
    Backend::Neon,
    Backend::Vsx,
    Backend::Portable,
];

impl LaneChoice {
    /// How many computations one call of `choice`'s multi-lane kernel
    /// advances; `None` when its instruction set has no multi-lane kernel.
    fn lanes_of(choice: Choice) -> Option<usize> {
        match choice {
            Choice::Portable => Some(PORTABLE_LANES),
            #[cfg(target_arch = "x86_64")]
            Choice::Sse2(_) => Some(sse2::LANES),
            #[cfg(target_arch = "x86_64")]
            Choice::Avx2(_) => Some(avx2::LANES),
            #[cfg(target_arch = "x86_64")]
            Choice::Avx512(_) => Some(avx512::LANES),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Choice::Neon(_) => Some(neon::LANES),
            #[cfg(all(target_arch = "powerpc64", skein_simd_nightly))]
            Choice::Vsx(_) => Some(vsx::LANES),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// Run `job` on this kernel.
    pub(crate) fn run<const W: usize, J: LaneJob<W>>(self, job: J) -> J::Output {
        match self.0 {
            Choice::Portable => job.run::<PORTABLE_LANES, _>(Kernel(
                (),
                |(), s: &mut LaneState<W, PORTABLE_LANES>, b: [&[u8]; PORTABLE_LANES], n| {
                    portable_lanes::compress::<W, PORTABLE_LANES>(s, b, n)
                },
            )),
            #[cfg(target_arch = "x86_64")]
            Choice::Sse2(t) => job.run::<{ sse2::LANES }, _>(Kernel(t, sse2::compress_lanes::<W>)),
            #[cfg(target_arch = "x86_64")]
            Choice::Avx2(t) => job.run::<{ avx2::LANES }, _>(Kernel(t, avx2::compress_lanes::<W>)),
            #[cfg(target_arch = "x86_64")]
            Choice::Avx512(t) => {
                job.run::<{ avx512::LANES }, _>(Kernel(t, avx512::compress_lanes::<W>))
            }
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Choice::Neon(t) => job.run::<{ neon::LANES }, _>(Kernel(t, neon::compress_lanes::<W>)),
            #[cfg(all(target_arch = "powerpc64", skein_simd_nightly))]
            Choice::Vsx(t) => job.run::<{ vsx::LANES }, _>(Kernel(t, vsx::compress_lanes::<W>)),
            #[allow(unreachable_patterns)]
            _ => unreachable!("a LaneChoice holds an instruction set with a multi-lane kernel"),
        }
    }

    /// The multi-lane kernel of `backend`'s instruction set, if this build and
    /// CPU have one.
    pub(crate) fn of(backend: Backend) -> Option<LaneChoice> {
        let choice = Choice::of(backend)?;
        LaneChoice::lanes_of(choice).map(|_| LaneChoice(choice))
    }

    /// The fastest multi-lane kernel this CPU runs.
    pub(crate) fn detect() -> LaneChoice {
        LANE_PREFERENCE
            .iter()
            .find_map(|&b| LaneChoice::of(b).filter(|c| c.preferred()))
            .unwrap_or(LaneChoice(Choice::Portable))
    }

    /// Whether the automatic choice may take this kernel on this CPU.
    fn preferred(self) -> bool {
        match self.0 {
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            Choice::Neon(t) => t.lanes_preferred(),
            _ => true,
        }
    }

    /// The instruction set of the kernel (`SkeinMany` and tree hashing ask).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) fn backend(self) -> Backend {
        self.0.backend()
    }

    /// How many computations one kernel call advances.
    pub(crate) fn lanes(self) -> usize {
        LaneChoice::lanes_of(self.0).expect("a LaneChoice has lanes")
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

/// The automatic choice per state size, fastest first; the first one this CPU
/// has wins. Each list's order is a measurement, recorded beside it.
fn preference(state_bits: usize) -> &'static [Backend] {
    let _ = state_bits;
    // x86-64, measured on AMD Zen 5 (EPYC; this VM exposes AVX2 but hides
    // AVX-512), all backends interleaved in one run (tools/bench/bench.py), cycles
    // per byte at 16 MiB, Skein-256 / -512 / -1024:
    //   asm 5.9 4.3 5.0   portable 6.8 5.0 5.2   avx2 13.1 10.1 8.1   sse2 15.9 10.0 13.9
    // Single-stream Threefish is a chain of dependent rounds: the even/odd
    // SIMD layout puts a shuffle (and, without AVX-512, a shift/shift/or
    // rotate) on every round's chain, while scalar code runs a round as add
    // then xor with the rotate beside it. So scalar wins every size here,
    // and the generated assembly (see backend/x86/asm.rs) beats the compiled
    // Rust. avx512 is left out until it is measured on a CPU that exposes it
    // (forcing it with `Params::backend` works and is tested there).
    if cfg!(target_arch = "x86_64") {
        return &[Backend::Asm, Backend::Portable];
    }
    // PowerPC, instructions per message byte under QEMU user mode
    // (tools/bench/ppc-insn-table.sh; no PowerPC hardware here, so instruction
    // counts stand in for time), Skein-256 / -512 / -1024:
    //   ppc32, 7450 (G4):     altivec 32.2 25.7 28.9   portable 50.3 51.9 83.9
    //   ppc64 BE, POWER8:     vsx 15.2 12.5 16.7   portable 21.9 19.0 22.1
    //                         altivec 37.0 26.7 29.9 (same code on POWER7)
    //   ppc64le, POWER9:      vsx 12.9 11.5 16.6   portable 19.2 18.2 21.2
    //                         altivec 31.7 23.4 27.2
    // 32-bit code has no 64-bit scalar instructions, so AltiVec wins there;
    // 64-bit scalar code beats the AltiVec emulation of 64-bit lanes, so on
    // ppc64 it is vsx (POWER8+) or portable, and altivec only when forced.
    if cfg!(target_arch = "powerpc") {
        return &[Backend::Altivec, Backend::Portable];
    }
    if cfg!(target_arch = "powerpc64") {
        return &[Backend::Vsx, Backend::Portable];
    }
    // AArch64: portable. NEON's single-stream block function is the portable
    // one (see `Backend::Neon`), so listing it would change nothing.
    &[Backend::Portable]
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
        let pick = |bits| {
            preference(bits)
                .iter()
                .find_map(|&b| Choice::of(b))
                .unwrap_or(Choice::Portable)
        };
        Platform {
            s256: pick(256),
            s512: pick(512),
            s1024: pick(1024),
            lanes: LaneChoice::detect(),
        }
    }

    /// Use `backend` for every state size, if this CPU and build have it, and
    /// its instruction set's multi-lane kernel (the portable one when it has
    /// none) for tree hashing and long outputs.
    pub fn force(backend: Backend) -> Result<Platform, Error> {
        let c = Choice::of(backend).ok_or(Error::BackendUnavailable(backend))?;
        let lanes = LaneChoice::of(backend).unwrap_or(LaneChoice(Choice::Portable));
        Ok(Platform {
            s256: c,
            s512: c,
            s1024: c,
            lanes,
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
            4 => dispatch!(
                self.s256,
                compress_256(as_words(chain), tweak, blocks, bytes_per_block)
            ),
            8 => dispatch!(
                self.s512,
                compress_512(as_words(chain), tweak, blocks, bytes_per_block)
            ),
            _ => dispatch!(
                self.s1024,
                compress_1024(as_words(chain), tweak, blocks, bytes_per_block)
            ),
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
