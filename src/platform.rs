//! The one place that knows which backends exist: detection, forcing and
//! dispatch of the block function.

use crate::backend::portable;
#[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
use crate::backend::{altivec, vsx};
#[cfg(target_arch = "aarch64")]
use crate::backend::neon;
#[cfg(target_arch = "x86_64")]
use crate::backend::{avx2, avx512, sse2, x86_asm};
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
    /// PowerPC AltiVec/VMX, 64-bit words emulated in 32-bit lanes.
    Altivec,
    /// POWER8+ VSX with native 64-bit vector lanes.
    Vsx,
    /// AArch64 NEON.
    Neon,
    /// x86-64 scalar code in inline assembly (baseline instructions only);
    /// the automatic choice on x86-64.
    Asm,
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
            Backend::Altivec => "altivec",
            Backend::Vsx => "vsx",
            Backend::Neon => "neon",
            Backend::Asm => "asm",
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

    /// Whether the backend implements the block function for a state of
    /// `state_bits` bits (256, 512 or 1024).
    pub fn supports(self, state_bits: usize) -> bool {
        matches!(state_bits, 256 | 512 | 1024) && self.is_available()
    }

    /// The backends usable here, the automatic choice for Skein-512 first.
    #[cfg(feature = "alloc")]
    pub fn available() -> alloc::vec::Vec<Backend> {
        let auto = Platform::detect().backend(512);
        let mut list = alloc::vec![auto];
        list.extend(Backend::ALL.into_iter().filter(|b| b.is_available() && *b != auto));
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
    #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
    Altivec(altivec::Token),
    #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
    Vsx(vsx::Token),
    #[cfg(target_arch = "aarch64")]
    Neon(neon::Token),
    #[cfg(target_arch = "x86_64")]
    Asm(x86_asm::Token),
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
            Backend::Asm => x86_asm::Token::detect().map(Choice::Asm),
            #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
            Backend::Altivec => altivec::Token::detect().map(Choice::Altivec),
            #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
            Backend::Vsx => vsx::Token::detect().map(Choice::Vsx),
            #[cfg(target_arch = "aarch64")]
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
            #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
            Choice::Altivec(_) => Backend::Altivec,
            #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
            Choice::Vsx(_) => Backend::Vsx,
            #[cfg(target_arch = "aarch64")]
            Choice::Neon(_) => Backend::Neon,
        }
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
}

/// The automatic choice per state size, fastest first; the first one this CPU
/// has wins. Each list's order is a measurement, recorded beside it.
fn preference(state_bits: usize) -> &'static [Backend] {
    let _ = state_bits;
    // x86-64, measured on AMD Zen 5 (EPYC; this VM exposes AVX2 but hides
    // AVX-512) with examples/bench_table (all backends interleaved, best of
    // 200 rounds, 16 KiB messages), time relative to portable:
    //   Skein-256:  portable 1.00, avx2 1.81, sse2 2.21
    //   Skein-512:  portable 1.00, avx2 1.98, sse2 1.91
    //   Skein-1024: portable 1.00, avx2 1.48, sse2 2.19
    // Single-stream Threefish is latency-bound: the even/odd SIMD layout puts
    // a shuffle (and, without AVX-512, a shift/shift/or rotate) on every
    // round's dependency chain, while scalar code runs each round as add then
    // xor with the rotate alongside. So scalar wins every size here. avx512
    // is left out until it is measured on a CPU that exposes it (forcing it
    // with `Params::backend` works and is tested there).
    if cfg!(target_arch = "x86_64") {
        return &[Backend::Asm, Backend::Portable];
    }
    // PowerPC, instructions per message byte under QEMU user mode
    // (tools/ppc-insn-table.sh; no PowerPC hardware here, so instruction
    // counts stand in for time), Skein-256 / -512 / -1024:
    //   ppc32, 7450 (G4):     altivec 34.0 26.3 29.5   portable 50.3 51.9 83.9
    //   ppc64 BE, POWER8:     vsx 15.2 12.5 16.7   portable 21.9 19.0 22.1
    //                         altivec 37.0 26.7 29.9 (same code on POWER7)
    //   ppc64le, POWER9:      vsx 12.9 11.5 16.6   portable 19.2 18.2 21.2
    //                         altivec 30.0 24.3 28.9
    // 32-bit code has no 64-bit scalar instructions, so AltiVec wins there;
    // 64-bit scalar code beats the AltiVec emulation of 64-bit lanes, so on
    // ppc64 it is vsx (POWER8+) or portable, and altivec only when forced.
    if cfg!(target_arch = "powerpc") {
        return &[Backend::Altivec, Backend::Portable];
    }
    if cfg!(target_arch = "powerpc64") {
        return &[Backend::Vsx, Backend::Portable];
    }
    &[Backend::Portable]
}

impl Platform {
    /// The fastest backends this CPU supports, per state size.
    pub fn detect() -> Platform {
        let pick = |bits| {
            preference(bits).iter().find_map(|&b| Choice::of(b)).unwrap_or(Choice::Portable)
        };
        Platform { s256: pick(256), s512: pick(512), s1024: pick(1024) }
    }

    /// Use `backend` for every state size, if this CPU and build have it.
    pub fn force(backend: Backend) -> Result<Platform, Error> {
        let c = Choice::of(backend).ok_or(Error::BackendUnavailable(backend))?;
        Ok(Platform { s256: c, s512: c, s1024: c })
    }

    /// The backend used for a state of `state_bits` bits.
    pub fn backend(&self, state_bits: usize) -> Backend {
        match state_bits {
            256 => self.s256.backend(),
            1024 => self.s1024.backend(),
            _ => self.s512.backend(),
        }
    }

    /// Process consecutive blocks of one UBI: for each block of `8 * W` bytes,
    /// advance the tweak position by `bytes_per_block`, set
    /// `chain = Threefish(chain, tweak, block) ^ block`, clear the first flag.
    #[inline]
    pub(crate) fn compress<const W: usize>(&self, chain: &mut [u64; W], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
        match W {
            4 => dispatch!(self.s256, compress_256(as_words(chain), tweak, blocks, bytes_per_block)),
            8 => dispatch!(self.s512, compress_512(as_words(chain), tweak, blocks, bytes_per_block)),
            _ => dispatch!(self.s1024, compress_1024(as_words(chain), tweak, blocks, bytes_per_block)),
        }
    }
}

/// Call `function` of the chosen backend's module, handing it the token.
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
            Choice::Asm(t) => x86_asm::$function(t, $($arg),*),
            #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
            Choice::Altivec(t) => altivec::$function(t, $($arg),*),
            #[cfg(all(any(target_arch = "powerpc", target_arch = "powerpc64"), skein_simd_nightly))]
            Choice::Vsx(t) => vsx::$function(t, $($arg),*),
            #[cfg(target_arch = "aarch64")]
            Choice::Neon(t) => neon::$function(t, $($arg),*),
        }
    };
}
use dispatch;

/// View a `[u64; W]` as the `[u64; N]` it is when `W == N` (checked, free
/// after monomorphization).
#[inline(always)]
fn as_words<const W: usize, const N: usize>(words: &mut [u64; W]) -> &mut [u64; N] {
    <&mut [u64; N]>::try_from(&mut words[..]).expect("state size")
}

// ===========================================================================
// Many lanes: block functions that advance several independent UBI
// computations at once, for `hash_many` and parallel tree hashing.
// ===========================================================================
//
// Seam of every multi-lane kernel module (`backend/lanes_*.rs`):
//
// * `pub(crate) const LANES: usize` — how many computations one call advances
//   (the portable module is generic over the lane count instead);
// * a `Token` whose `detect()` succeeds only where the kernel runs (as for the
//   single-stream backends);
// * `pub(crate) fn compress<const W: usize>(token, state: &mut LaneState<W, LANES>,
//   blocks: [&[u8]; LANES], bytes_per_block: [u64; LANES])`.
//
// The state is struct-of-arrays, the layout of the vector registers: lane `i`
// of row `j` is word `j` of computation `i` (`state.chain[j][i]`), and likewise
// `state.tweak[k][i]`. A Threefish round is then the same add / rotate / xor on
// whole rows, with one rotation count for all lanes, and the word permutation is
// only a renaming of rows. Every `blocks[i]` has the same length, `n` whole
// blocks of `8 * W` bytes (unaligned is fine); lane `i` does exactly what
// `portable::compress` does with its own chain, tweak and `bytes_per_block[i]`
// for its `n` blocks. Lanes are independent: they may be at different
// positions, carry different flags (first, final, bit pad, type, level), and
// an unused lane may be given any readable bytes of the right length.

// Everything multi-lane serves `hash_many` and tree hashing, which allocate.
#[cfg(feature = "alloc")]
pub(crate) use many_lanes::{LaneChoice, LaneJob, LaneKernel, LaneState};

#[cfg(feature = "alloc")]
mod many_lanes {
    use super::{Backend, Platform};
    #[cfg(target_arch = "x86_64")]
    use crate::backend::{lanes_avx2, lanes_avx512, lanes_sse2};
    use crate::backend::lanes_portable;

    /// `L` UBI computations side by side, struct-of-arrays (see the seam above).
    #[derive(Clone, Debug)]
    pub(crate) struct LaneState<const W: usize, const L: usize> {
        /// `chain[j][i]`: chaining word `j` of lane `i`.
        pub(crate) chain: [[u64; L]; W],
        /// `tweak[k][i]`: tweak word `k` of lane `i`.
        pub(crate) tweak: [[u64; L]; 2],
    }

    impl<const W: usize, const L: usize> LaneState<W, L> {
        pub(crate) fn new() -> Self {
            LaneState { chain: [[0; L]; W], tweak: [[0; L]; 2] }
        }

        /// Start lane `lane` on a computation with this chain and tweak.
        #[inline]
        pub(crate) fn load(&mut self, lane: usize, chain: &[u64; W], tweak: [u64; 2]) {
            for (row, &word) in self.chain.iter_mut().zip(chain) {
                row[lane] = word;
            }
            self.tweak[0][lane] = tweak[0];
            self.tweak[1][lane] = tweak[1];
        }

        /// The chaining value of lane `lane`.
        #[inline]
        pub(crate) fn chain_of(&self, lane: usize) -> [u64; W] {
            core::array::from_fn(|j| self.chain[j][lane])
        }
    }

    impl<const W: usize, const L: usize> Drop for LaneState<W, L> {
        fn drop(&mut self) {
            use zeroize::Zeroize;
            self.chain.zeroize();
        }
    }

    /// One multi-lane kernel, callable safely (it holds its detection token).
    pub(crate) trait LaneKernel<const W: usize, const L: usize>: Copy + Send + Sync {
        fn compress(self, state: &mut LaneState<W, L>, blocks: [&[u8]; L], bytes_per_block: [u64; L]);
    }

    /// Work that runs on whichever kernel was chosen; generic over the lane count
    /// so that each kernel gets its own monomorphized driver.
    pub(crate) trait LaneJob<const W: usize> {
        type Output;
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) -> Self::Output;
    }

    /// Lanes of the portable kernel: one, which is the single-stream portable
    /// block function. Since that one keeps the key parity and tweak carry off
    /// the dependency chain, it beats two interleaved lanes of the generic
    /// multi-lane code. Measured on Zen 5 (AVX2 VM, loaded), Skein-512 over
    /// 1 KiB messages, ratio to single-stream portable in the same run, three
    /// runs: one lane 0.95-1.5x, two lanes 0.6-0.95x (before that tuning, two
    /// lanes had won: 2.3-3.1x against 0.9-1.4x).
    pub(crate) const PORTABLE_LANES: usize = lanes_portable::LANES;

    #[derive(Clone, Copy)]
    struct PortableLanes;
    impl<const W: usize, const L: usize> LaneKernel<W, L> for PortableLanes {
        #[inline]
        fn compress(self, state: &mut LaneState<W, L>, blocks: [&[u8]; L], bytes_per_block: [u64; L]) {
            lanes_portable::compress::<W, L>(state, blocks, bytes_per_block)
        }
    }

    #[cfg(target_arch = "x86_64")]
    macro_rules! x86_lane_kernel {
        ($name:ident, $module:ident) => {
            #[derive(Clone, Copy)]
            struct $name($module::Token);
            impl<const W: usize> LaneKernel<W, { $module::LANES }> for $name {
                #[inline]
                fn compress(
                    self,
                    state: &mut LaneState<W, { $module::LANES }>,
                    blocks: [&[u8]; $module::LANES],
                    bytes_per_block: [u64; $module::LANES],
                ) {
                    $module::compress::<W>(self.0, state, blocks, bytes_per_block)
                }
            }
        };
    }
    #[cfg(target_arch = "x86_64")]
    x86_lane_kernel!(Sse2Lanes, lanes_sse2);
    #[cfg(target_arch = "x86_64")]
    x86_lane_kernel!(Avx2Lanes, lanes_avx2);
    #[cfg(target_arch = "x86_64")]
    x86_lane_kernel!(Avx512Lanes, lanes_avx512);

    /// A multi-lane kernel with the proof that this CPU runs it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum LaneChoice {
        Portable,
        #[cfg(target_arch = "x86_64")]
        Sse2(lanes_sse2::Token),
        #[cfg(target_arch = "x86_64")]
        Avx2(lanes_avx2::Token),
        #[cfg(target_arch = "x86_64")]
        Avx512(lanes_avx512::Token),
    }

    /// The automatic multi-lane choice, fastest first (any state size).
    /// Measured on AMD Zen 5 in a VM without AVX-512, Skein-512 over 1 KiB
    /// messages, same-run ratios (examples/many_table.rs, benches/many.rs):
    /// AVX2 x4 about 2x SSE2 x2, SSE2 x2 about 1.2x portable. AVX-512 x8
    /// comes first by construction (twice the lanes, one-instruction rotates);
    /// it could only be checked for correctness here, in an emulator.
    const LANE_PREFERENCE: [Backend; 4] = [Backend::Avx512, Backend::Avx2, Backend::Sse2, Backend::Portable];

    impl LaneChoice {
        /// The multi-lane kernel of `backend`'s instruction set, if this build and
        /// CPU have one.
        pub(crate) fn of(backend: Backend) -> Option<LaneChoice> {
            match backend {
                Backend::Portable => Some(LaneChoice::Portable),
                #[cfg(target_arch = "x86_64")]
                Backend::Sse2 => lanes_sse2::Token::detect().map(LaneChoice::Sse2),
                #[cfg(target_arch = "x86_64")]
                Backend::Avx2 => lanes_avx2::Token::detect().map(LaneChoice::Avx2),
                #[cfg(target_arch = "x86_64")]
                Backend::Avx512 => lanes_avx512::Token::detect().map(LaneChoice::Avx512),
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The fastest multi-lane kernel this CPU runs.
        pub(crate) fn detect() -> LaneChoice {
            LANE_PREFERENCE.iter().find_map(|&b| LaneChoice::of(b)).unwrap_or(LaneChoice::Portable)
        }

        pub(crate) fn backend(self) -> Backend {
            match self {
                LaneChoice::Portable => Backend::Portable,
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Sse2(_) => Backend::Sse2,
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Avx2(_) => Backend::Avx2,
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Avx512(_) => Backend::Avx512,
            }
        }

        /// How many computations one kernel call advances.
        pub(crate) fn lanes(self) -> usize {
            match self {
                LaneChoice::Portable => PORTABLE_LANES,
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Sse2(_) => lanes_sse2::LANES,
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Avx2(_) => lanes_avx2::LANES,
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Avx512(_) => lanes_avx512::LANES,
            }
        }

        /// Run `job` on this kernel.
        pub(crate) fn run<const W: usize, J: LaneJob<W>>(self, job: J) -> J::Output {
            match self {
                LaneChoice::Portable => job.run::<PORTABLE_LANES, _>(PortableLanes),
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Sse2(t) => job.run::<{ lanes_sse2::LANES }, _>(Sse2Lanes(t)),
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Avx2(t) => job.run::<{ lanes_avx2::LANES }, _>(Avx2Lanes(t)),
                #[cfg(target_arch = "x86_64")]
                LaneChoice::Avx512(t) => job.run::<{ lanes_avx512::LANES }, _>(Avx512Lanes(t)),
            }
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

    impl Platform {
        /// The multi-lane kernel that goes with this platform: the fastest one
        /// when the platform is the automatic choice, else the kernel of the forced
        /// backend's instruction set (portable when it has none).
        pub(crate) fn lane_choice(&self, state_bits: usize) -> LaneChoice {
            if *self == Platform::detect() {
                LaneChoice::detect()
            } else {
                LaneChoice::of(self.backend(state_bits)).unwrap_or(LaneChoice::Portable)
            }
        }
    }
}
