//! The one place that knows which backends exist: detection, forcing and
//! dispatch of the block function.

use crate::backend::portable;
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
}

impl Backend {
    /// Every backend this crate knows, available here or not.
    pub const ALL: [Backend; 7] = [
        Backend::Portable,
        Backend::Sse2,
        Backend::Avx2,
        Backend::Avx512,
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
        }
    }

    /// The backend of that name, if the name is known.
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether this build has the backend and this CPU can run it.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            _ => false,
        }
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
    s256: Backend,
    s512: Backend,
    s1024: Backend,
}

impl Platform {
    /// The fastest backends this CPU supports, per state size.
    pub fn detect() -> Platform {
        Platform { s256: Backend::Portable, s512: Backend::Portable, s1024: Backend::Portable }
    }

    /// Use `backend` for every state size, if this CPU and build have it.
    pub fn force(backend: Backend) -> Result<Platform, Error> {
        if !backend.is_available() {
            return Err(Error::BackendUnavailable(backend));
        }
        Ok(Platform { s256: backend, s512: backend, s1024: backend })
    }

    /// The backend used for a state of `state_bits` bits.
    pub fn backend(&self, state_bits: usize) -> Backend {
        match state_bits {
            256 => self.s256,
            1024 => self.s1024,
            _ => self.s512,
        }
    }

    /// Process consecutive blocks of one UBI: see `portable::compress`.
    #[inline]
    pub(crate) fn compress<const W: usize>(&self, chain: &mut [u64; W], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
        match W {
            4 => self.compress_256(as_words(chain), tweak, blocks, bytes_per_block),
            8 => self.compress_512(as_words(chain), tweak, blocks, bytes_per_block),
            _ => self.compress_1024(as_words(chain), tweak, blocks, bytes_per_block),
        }
    }

    fn compress_256(&self, chain: &mut [u64; 4], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
        match self.s256 {
            _ => portable::compress_256(chain, tweak, blocks, bytes_per_block),
        }
    }

    fn compress_512(&self, chain: &mut [u64; 8], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
        match self.s512 {
            _ => portable::compress_512(chain, tweak, blocks, bytes_per_block),
        }
    }

    fn compress_1024(&self, chain: &mut [u64; 16], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
        match self.s1024 {
            _ => portable::compress_1024(chain, tweak, blocks, bytes_per_block),
        }
    }
}

/// View a `[u64; W]` as the `[u64; N]` it is when `W == N` (checked, free
/// after monomorphization).
#[inline(always)]
fn as_words<const W: usize, const N: usize>(words: &mut [u64; W]) -> &mut [u64; N] {
    <&mut [u64; N]>::try_from(&mut words[..]).expect("state size")
}
