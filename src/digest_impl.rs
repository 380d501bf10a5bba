//! RustCrypto traits: fixed-size hashers ([`SkeinFixed`], for `Digest`),
//! keyed hashing ([`SkeinMac`], for `Mac` with constant-time verification)
//! and a run-time output length ([`SkeinVar`]).
//!
//! The traits are those of `digest` 0.11 (feature `digest`, on by default)
//! and, with the feature `digest010`, also those of `digest` 0.10 (re-exported
//! as `skein_simd::digest010`): the same types implement both. `digest` 0.11
//! has no `VariableOutput` trait any more, so [`SkeinVar`] has its `new`,
//! `output_size` and `finalize_variable` as methods of its own (and
//! implements 0.10's `VariableOutput` with `digest010`).

use crate::{Params, Skein};
use core::marker::PhantomData;

#[cfg(feature = "digest")]
use digest::{consts, typenum::Unsigned, InvalidBufferSize, InvalidOutputSize};
#[cfg(all(feature = "digest010", not(feature = "digest")))]
use digest010::{consts, typenum::Unsigned, InvalidBufferSize, InvalidOutputSize};

/// Skein with a `W`-word state and an output of `N` bytes (a `typenum`
/// number, e.g. `consts::U32`), for the RustCrypto `Digest` trait.
///
/// ```
/// # #[cfg(feature = "digest")] {
/// use skein_simd::Skein512_256;
/// use digest::Digest;
/// let d = Skein512_256::digest(b"abc");
/// assert_eq!(d.len(), 32);
/// # }
/// ```
pub struct SkeinFixed<const W: usize, N: 'static> {
    inner: Skein<W>,
    _n: PhantomData<N>,
}

impl<const W: usize, N: Unsigned + 'static> Default for SkeinFixed<W, N> {
    fn default() -> Self {
        SkeinFixed {
            inner: Skein::new(N::U64 * 8),
            _n: PhantomData,
        }
    }
}
impl<const W: usize, N: 'static> Clone for SkeinFixed<W, N> {
    fn clone(&self) -> Self {
        SkeinFixed {
            inner: self.inner.clone(),
            _n: PhantomData,
        }
    }
}
impl<const W: usize, N: 'static> core::fmt::Debug for SkeinFixed<W, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.inner.fmt(f)
    }
}

/// Skein-256 with a 128-bit result.
pub type Skein256_128 = SkeinFixed<4, consts::U16>;
/// Skein-256 with a 160-bit result.
pub type Skein256_160 = SkeinFixed<4, consts::U20>;
/// Skein-256 with a 224-bit result.
pub type Skein256_224 = SkeinFixed<4, consts::U28>;
/// Skein-256 with a 256-bit result.
pub type Skein256_256 = SkeinFixed<4, consts::U32>;
/// Skein-512 with a 128-bit result.
pub type Skein512_128 = SkeinFixed<8, consts::U16>;
/// Skein-512 with a 160-bit result.
pub type Skein512_160 = SkeinFixed<8, consts::U20>;
/// Skein-512 with a 224-bit result.
pub type Skein512_224 = SkeinFixed<8, consts::U28>;
/// Skein-512 with a 256-bit result.
pub type Skein512_256 = SkeinFixed<8, consts::U32>;
/// Skein-512 with a 384-bit result.
pub type Skein512_384 = SkeinFixed<8, consts::U48>;
/// Skein-512 with a 512-bit result.
pub type Skein512_512 = SkeinFixed<8, consts::U64>;
/// Skein-1024 with a 384-bit result.
pub type Skein1024_384 = SkeinFixed<16, consts::U48>;
/// Skein-1024 with a 512-bit result.
pub type Skein1024_512 = SkeinFixed<16, consts::U64>;
/// Skein-1024 with a 1024-bit result.
pub type Skein1024_1024 = SkeinFixed<16, consts::U128>;

/// Skein with a `W`-word state and an output length chosen at run time.
///
/// ```
/// use skein_simd::Skein1024Var;
/// let mut h = Skein1024Var::new(300).unwrap(); // 300 bytes: counter-mode output
/// h.update(b"abc");
/// let mut out = [0u8; 300];
/// h.finalize_variable(&mut out).unwrap();
/// assert_eq!(out.to_vec(), skein_simd::Skein1024::digest(2400, b"abc"));
/// ```
#[derive(Clone, Debug)]
pub struct SkeinVar<const W: usize> {
    inner: Skein<W>,
}

/// Skein-256 with a run-time output length.
pub type Skein256Var = SkeinVar<4>;
/// Skein-512 with a run-time output length.
pub type Skein512Var = SkeinVar<8>;
/// Skein-1024 with a run-time output length.
pub type Skein1024Var = SkeinVar<16>;

impl<const W: usize> SkeinVar<W> {
    /// Largest output length in bytes.
    pub const MAX_OUTPUT_SIZE: usize = usize::MAX / 8;

    /// A hasher with an output of `output_size` bytes (1 ..= `MAX_OUTPUT_SIZE`).
    pub fn new(output_size: usize) -> Result<Self, InvalidOutputSize> {
        if output_size == 0 || output_size > Self::MAX_OUTPUT_SIZE {
            return Err(InvalidOutputSize);
        }
        Ok(SkeinVar {
            inner: Skein::new(output_size as u64 * 8),
        })
    }
    /// Absorb more input.
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }
    /// Output length in bytes.
    pub fn output_size(&self) -> usize {
        self.inner.output_len()
    }
    /// Finish into `out`, which must be `output_size()` bytes.
    pub fn finalize_variable(self, out: &mut [u8]) -> Result<(), InvalidBufferSize> {
        if out.len() != self.inner.output_len() {
            return Err(InvalidBufferSize);
        }
        self.inner.finalize_into(out);
        Ok(())
    }
    /// Finish into `out` and start over.
    pub fn finalize_variable_reset(&mut self, out: &mut [u8]) -> Result<(), InvalidBufferSize> {
        if out.len() != self.inner.output_len() {
            return Err(InvalidBufferSize);
        }
        self.inner.clone().finalize_into(out);
        self.inner.reset();
        Ok(())
    }
}

/// Skein-MAC with a `W`-word state and an `N`-byte tag, for the RustCrypto
/// `Mac` trait: keys of any length (`KeyInit::new_from_slice`), constant-time
/// `verify_slice`.
///
/// ```
/// # #[cfg(feature = "digest")] {
/// use skein_simd::SkeinMac512_256;
/// use digest::{KeyInit, Mac};
/// let mut mac = SkeinMac512_256::new_from_slice(b"any length key").unwrap();
/// mac.update(b"message");
/// let tag = mac.finalize().into_bytes();
/// let mut check = SkeinMac512_256::new_from_slice(b"any length key").unwrap();
/// check.update(b"message");
/// assert!(check.verify_slice(&tag).is_ok());
/// # }
/// ```
pub struct SkeinMac<const W: usize, N: 'static> {
    inner: Skein<W>,
    _n: PhantomData<N>,
}

impl<const W: usize, N: 'static> Clone for SkeinMac<W, N> {
    fn clone(&self) -> Self {
        SkeinMac {
            inner: self.inner.clone(),
            _n: PhantomData,
        }
    }
}
impl<const W: usize, N: 'static> core::fmt::Debug for SkeinMac<W, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SkeinMac{} {{ .. }}", 64 * W)
    }
}

impl<const W: usize, N: Unsigned + 'static> SkeinMac<W, N> {
    fn keyed(key: &[u8]) -> Self {
        let params = Params::new().output_bits(N::U64 * 8).key(key);
        let inner = Skein::with_params(&params).expect("the output length is at least 1 bit");
        SkeinMac {
            inner,
            _n: PhantomData,
        }
    }
}

/// Skein-256-MAC with a 256-bit tag.
pub type SkeinMac256_256 = SkeinMac<4, consts::U32>;
/// Skein-512-MAC with a 256-bit tag (the ZFS checksum construction).
pub type SkeinMac512_256 = SkeinMac<8, consts::U32>;
/// Skein-512-MAC with a 512-bit tag.
pub type SkeinMac512_512 = SkeinMac<8, consts::U64>;
/// Skein-1024-MAC with a 1024-bit tag.
pub type SkeinMac1024_1024 = SkeinMac<16, consts::U128>;

/// The trait implementations of one `digest` version, whose crate is `$d`
/// and whose output-length bound is `$size`.
macro_rules! digest_traits {
    // `KeySize` is the state size; keys of any length are accepted.
    (@key $d:ident, $key_size_user:path, $size:path, $($w:literal => $k:ident),*) => {$(
        impl<N: $size + 'static> $key_size_user for SkeinMac<$w, N> {
            type KeySize = $d::consts::$k;
        }
        impl<N: $size + 'static> $d::KeyInit for SkeinMac<$w, N> {
            fn new(key: &$d::Key<Self>) -> Self {
                Self::keyed(key)
            }
            fn new_from_slice(key: &[u8]) -> Result<Self, $d::InvalidLength> {
                Ok(Self::keyed(key))
            }
        }
    )*};
    ($d:ident, $key_size_user:path, $size:path) => {
        impl<const W: usize, N: $size + 'static> $d::HashMarker for SkeinFixed<W, N> {}
        impl<const W: usize, N: $size + 'static> $d::Update for SkeinFixed<W, N> {
            fn update(&mut self, data: &[u8]) {
                self.inner.update(data);
            }
        }
        impl<const W: usize, N: $size + 'static> $d::OutputSizeUser for SkeinFixed<W, N> {
            type OutputSize = N;
        }
        impl<const W: usize, N: $size + 'static> $d::FixedOutput for SkeinFixed<W, N> {
            fn finalize_into(self, out: &mut $d::Output<Self>) {
                self.inner.finalize_into(out);
            }
        }
        impl<const W: usize, N: $size + 'static> $d::Reset for SkeinFixed<W, N> {
            fn reset(&mut self) {
                self.inner.reset();
            }
        }
        impl<const W: usize, N: $size + 'static> $d::FixedOutputReset for SkeinFixed<W, N> {
            fn finalize_into_reset(&mut self, out: &mut $d::Output<Self>) {
                self.inner.clone().finalize_into(out);
                self.inner.reset();
            }
        }

        impl<const W: usize> $d::HashMarker for SkeinVar<W> {}
        impl<const W: usize> $d::Update for SkeinVar<W> {
            fn update(&mut self, data: &[u8]) {
                self.inner.update(data);
            }
        }
        impl<const W: usize> $d::Reset for SkeinVar<W> {
            fn reset(&mut self) {
                self.inner.reset();
            }
        }

        digest_traits!(@key $d, $key_size_user, $size, 4 => U32, 8 => U64, 16 => U128);
        impl<const W: usize, N: $size + 'static> $d::MacMarker for SkeinMac<W, N> {}
        impl<const W: usize, N: $size + 'static> $d::Update for SkeinMac<W, N> {
            fn update(&mut self, data: &[u8]) {
                self.inner.update(data);
            }
        }
        impl<const W: usize, N: $size + 'static> $d::OutputSizeUser for SkeinMac<W, N> {
            type OutputSize = N;
        }
        impl<const W: usize, N: $size + 'static> $d::FixedOutput for SkeinMac<W, N> {
            fn finalize_into(self, out: &mut $d::Output<Self>) {
                self.inner.finalize_into(out);
            }
        }
        impl<const W: usize, N: $size + 'static> $d::Reset for SkeinMac<W, N> {
            fn reset(&mut self) {
                self.inner.reset();
            }
        }
        impl<const W: usize, N: $size + 'static> $d::FixedOutputReset for SkeinMac<W, N> {
            fn finalize_into_reset(&mut self, out: &mut $d::Output<Self>) {
                self.inner.clone().finalize_into(out);
                self.inner.reset();
            }
        }
    };
}

#[cfg(feature = "digest")]
digest_traits!(
    digest,
    digest::common::KeySizeUser,
    digest::array::ArraySize
);

#[cfg(feature = "digest010")]
digest_traits!(
    digest010,
    digest010::crypto_common::KeySizeUser,
    digest010::generic_array::ArrayLength<u8>
);

#[cfg(feature = "digest010")]
impl<const W: usize> digest010::VariableOutput for SkeinVar<W> {
    const MAX_OUTPUT_SIZE: usize = usize::MAX / 8;
    fn new(output_size: usize) -> Result<Self, digest010::InvalidOutputSize> {
        SkeinVar::new(output_size).map_err(|_| digest010::InvalidOutputSize)
    }
    fn output_size(&self) -> usize {
        self.inner.output_len()
    }
    fn finalize_variable(self, out: &mut [u8]) -> Result<(), digest010::InvalidBufferSize> {
        SkeinVar::finalize_variable(self, out).map_err(|_| digest010::InvalidBufferSize)
    }
}

#[cfg(feature = "digest010")]
impl<const W: usize> digest010::VariableOutputReset for SkeinVar<W> {
    fn finalize_variable_reset(
        &mut self,
        out: &mut [u8],
    ) -> Result<(), digest010::InvalidBufferSize> {
        SkeinVar::finalize_variable_reset(self, out).map_err(|_| digest010::InvalidBufferSize)
    }
}
