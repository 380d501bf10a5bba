//! RustCrypto `digest` traits: fixed-size hashers (`Digest`), variable output
//! (`VariableOutput`) and keyed hashing (`Mac`, constant-time verification).

use crate::{Params, Skein};
use core::marker::PhantomData;
use digest::crypto_common::KeySizeUser;
use digest::generic_array::ArrayLength;
use digest::typenum::{U128, U16, U20, U28, U32, U48, U64};
use digest::{
    FixedOutput, FixedOutputReset, HashMarker, InvalidBufferSize, InvalidLength, InvalidOutputSize, Key, KeyInit,
    MacMarker, Output, OutputSizeUser, Reset, Update, VariableOutput, VariableOutputReset,
};

/// Skein with a `W`-word state and an output of `N` bytes, for the RustCrypto
/// [`digest::Digest`] trait.
///
/// ```
/// use skein_simd::Skein512_256;
/// use digest::Digest;
/// let d = Skein512_256::digest(b"abc");
/// assert_eq!(d.len(), 32);
/// ```
#[derive(Clone)]
pub struct SkeinFixed<const W: usize, N: ArrayLength<u8> + 'static> {
    inner: Skein<W>,
    _n: PhantomData<N>,
}

impl<const W: usize, N: ArrayLength<u8> + 'static> Default for SkeinFixed<W, N> {
    fn default() -> Self {
        SkeinFixed { inner: Skein::new(N::U64 * 8), _n: PhantomData }
    }
}
impl<const W: usize, N: ArrayLength<u8> + 'static> HashMarker for SkeinFixed<W, N> {}
impl<const W: usize, N: ArrayLength<u8> + 'static> Update for SkeinFixed<W, N> {
    fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }
}
impl<const W: usize, N: ArrayLength<u8> + 'static> OutputSizeUser for SkeinFixed<W, N> {
    type OutputSize = N;
}
impl<const W: usize, N: ArrayLength<u8> + 'static> FixedOutput for SkeinFixed<W, N> {
    fn finalize_into(self, out: &mut Output<Self>) {
        self.inner.finalize_into(out);
    }
}
impl<const W: usize, N: ArrayLength<u8> + 'static> Reset for SkeinFixed<W, N> {
    fn reset(&mut self) {
        self.inner.reset();
    }
}
impl<const W: usize, N: ArrayLength<u8> + 'static> FixedOutputReset for SkeinFixed<W, N> {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        self.inner.clone().finalize_into(out);
        self.inner.reset();
    }
}

/// Skein-256 with a 128-bit result.
pub type Skein256_128 = SkeinFixed<4, U16>;
/// Skein-256 with a 160-bit result.
pub type Skein256_160 = SkeinFixed<4, U20>;
/// Skein-256 with a 224-bit result.
pub type Skein256_224 = SkeinFixed<4, U28>;
/// Skein-256 with a 256-bit result.
pub type Skein256_256 = SkeinFixed<4, U32>;
/// Skein-512 with a 128-bit result.
pub type Skein512_128 = SkeinFixed<8, U16>;
/// Skein-512 with a 160-bit result.
pub type Skein512_160 = SkeinFixed<8, U20>;
/// Skein-512 with a 224-bit result.
pub type Skein512_224 = SkeinFixed<8, U28>;
/// Skein-512 with a 256-bit result.
pub type Skein512_256 = SkeinFixed<8, U32>;
/// Skein-512 with a 384-bit result.
pub type Skein512_384 = SkeinFixed<8, U48>;
/// Skein-512 with a 512-bit result.
pub type Skein512_512 = SkeinFixed<8, U64>;
/// Skein-1024 with a 384-bit result.
pub type Skein1024_384 = SkeinFixed<16, U48>;
/// Skein-1024 with a 512-bit result.
pub type Skein1024_512 = SkeinFixed<16, U64>;
/// Skein-1024 with a 1024-bit result.
pub type Skein1024_1024 = SkeinFixed<16, U128>;

/// Skein with a `W`-word state and an output length chosen at run time, for
/// [`digest::VariableOutput`].
///
/// ```
/// use skein_simd::Skein1024Var;
/// use digest::{Update, VariableOutput};
/// let mut h = Skein1024Var::new(300).unwrap(); // 300 bytes: counter-mode output
/// h.update(b"abc");
/// let mut out = [0u8; 300];
/// h.finalize_variable(&mut out).unwrap();
/// ```
#[derive(Clone)]
pub struct SkeinVar<const W: usize> {
    inner: Skein<W>,
}

/// Skein-256 with a run-time output length.
pub type Skein256Var = SkeinVar<4>;
/// Skein-512 with a run-time output length.
pub type Skein512Var = SkeinVar<8>;
/// Skein-1024 with a run-time output length.
pub type Skein1024Var = SkeinVar<16>;

impl<const W: usize> HashMarker for SkeinVar<W> {}
impl<const W: usize> Update for SkeinVar<W> {
    fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }
}
impl<const W: usize> VariableOutput for SkeinVar<W> {
    const MAX_OUTPUT_SIZE: usize = usize::MAX / 8;
    fn new(output_size: usize) -> Result<Self, InvalidOutputSize> {
        if output_size == 0 || output_size > Self::MAX_OUTPUT_SIZE {
            return Err(InvalidOutputSize);
        }
        Ok(SkeinVar { inner: Skein::new(output_size as u64 * 8) })
    }
    fn output_size(&self) -> usize {
        self.inner.output_len()
    }
    fn finalize_variable(self, out: &mut [u8]) -> Result<(), InvalidBufferSize> {
        if out.len() != self.inner.output_len() {
            return Err(InvalidBufferSize);
        }
        self.inner.finalize_into(out);
        Ok(())
    }
}
impl<const W: usize> VariableOutputReset for SkeinVar<W> {
    fn finalize_variable_reset(&mut self, out: &mut [u8]) -> Result<(), InvalidBufferSize> {
        if out.len() != self.inner.output_len() {
            return Err(InvalidBufferSize);
        }
        self.inner.clone().finalize_into(out);
        self.inner.reset();
        Ok(())
    }
}
impl<const W: usize> Reset for SkeinVar<W> {
    fn reset(&mut self) {
        self.inner.reset();
    }
}

/// Skein-MAC with a `W`-word state and an `N`-byte tag, for [`digest::Mac`]:
/// keys of any length (`new_from_slice`), constant-time `verify_slice`.
///
/// ```
/// use skein_simd::SkeinMac512_256;
/// use digest::Mac;
/// let mut mac = SkeinMac512_256::new_from_slice(b"any length key").unwrap();
/// mac.update(b"message");
/// let tag = mac.finalize().into_bytes();
/// let mut check = SkeinMac512_256::new_from_slice(b"any length key").unwrap();
/// check.update(b"message");
/// assert!(check.verify_slice(&tag).is_ok());
/// ```
#[derive(Clone)]
pub struct SkeinMac<const W: usize, N: ArrayLength<u8> + 'static> {
    inner: Skein<W>,
    _n: PhantomData<N>,
}

macro_rules! mac_key_size {
    ($($w:literal => $k:ty),*) => {$(
        impl<N: ArrayLength<u8> + 'static> KeySizeUser for SkeinMac<$w, N> {
            type KeySize = $k;
        }
        impl<N: ArrayLength<u8> + 'static> KeyInit for SkeinMac<$w, N> {
            fn new(key: &Key<Self>) -> Self {
                Self::new_from_slice(key).expect("any key length is valid")
            }
            fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
                let params = Params::new().output_bits(N::U64 * 8).key(key);
                let inner = Skein::with_params(&params).map_err(|_| InvalidLength)?;
                Ok(SkeinMac { inner, _n: PhantomData })
            }
        }
    )*};
}
mac_key_size!(4 => U32, 8 => U64, 16 => U128);

impl<const W: usize, N: ArrayLength<u8> + 'static> MacMarker for SkeinMac<W, N> {}
impl<const W: usize, N: ArrayLength<u8> + 'static> Update for SkeinMac<W, N> {
    fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }
}
impl<const W: usize, N: ArrayLength<u8> + 'static> OutputSizeUser for SkeinMac<W, N> {
    type OutputSize = N;
}
impl<const W: usize, N: ArrayLength<u8> + 'static> FixedOutput for SkeinMac<W, N> {
    fn finalize_into(self, out: &mut Output<Self>) {
        self.inner.finalize_into(out);
    }
}
impl<const W: usize, N: ArrayLength<u8> + 'static> Reset for SkeinMac<W, N> {
    fn reset(&mut self) {
        self.inner.reset();
    }
}
impl<const W: usize, N: ArrayLength<u8> + 'static> FixedOutputReset for SkeinMac<W, N> {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        self.inner.clone().finalize_into(out);
        self.inner.reset();
    }
}

/// Skein-256-MAC with a 256-bit tag.
pub type SkeinMac256_256 = SkeinMac<4, U32>;
/// Skein-512-MAC with a 256-bit tag (the ZFS checksum construction).
pub type SkeinMac512_256 = SkeinMac<8, U32>;
/// Skein-512-MAC with a 512-bit tag.
pub type SkeinMac512_512 = SkeinMac<8, U64>;
/// Skein-1024-MAC with a 1024-bit tag.
pub type SkeinMac1024_1024 = SkeinMac<16, U128>;
