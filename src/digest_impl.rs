//! RustCrypto traits: fixed-size hashers ([`SkeinFixed`], for `Digest`),
//! keyed hashing ([`SkeinMac`], for `Mac` with constant-time verification),
//! a run-time output length ([`SkeinVar`]) and an extendable output
//! ([`SkeinXof`], for `ExtendableOutput`, read by [`OutputReader`]).
//!
//! With `digest` 0.11 every one of them implements `SerializableState`
//! (`digest::common::hazmat`): the layout of RustCrypto `skein` 0.2, so a
//! state it saved for `Skein512<U32>` restores as [`Skein512_256`] and back
//! (the layout is in `saved_state::rustcrypto`).
//!
//! The traits are those of `digest` 0.11 (feature `digest`, on by default)
//! and, with the feature `digest010`, also those of `digest` 0.10 (re-exported
//! as `skein_simd::digest010`): the same types implement both. `digest` 0.11
//! has no `VariableOutput` trait any more, so [`SkeinVar`] has its `new`,
//! `output_size` and `finalize_variable` as methods of its own (and
//! implements 0.10's `VariableOutput` with `digest010`). Those methods
//! return the crate's own [`Error`], so that no signature changes when
//! another crate in the build turns `digest` or `digest010` on.

use crate::{Error, OutputReader, Params, Skein};
use core::marker::PhantomData;

#[cfg(feature = "digest")]
use digest::{consts, typenum::Unsigned};
#[cfg(all(feature = "digest010", not(feature = "digest")))]
use digest010::{consts, typenum::Unsigned};

/// One alias a state size of `$ty<W>`, documented "Skein-<bits> `$what`".
macro_rules! per_size_aliases {
    ($ty:ident, $what:literal: $s256:ident, $s512:ident, $s1024:ident) => {
        #[doc = concat!("Skein-256 ", $what)]
        pub type $s256 = $ty<4>;
        #[doc = concat!("Skein-512 ", $what)]
        pub type $s512 = $ty<8>;
        #[doc = concat!("Skein-1024 ", $what)]
        pub type $s1024 = $ty<16>;
    };
}

/// `Clone` for a type of a `Skein<W>` and a `PhantomData<N>`, with no
/// `N: Clone` bound (the derive would add one).
macro_rules! clone_without_bound {
    ($ty:ident) => {
        impl<const W: usize, N: 'static> Clone for $ty<W, N> {
            fn clone(&self) -> Self {
                $ty {
                    inner: self.inner.clone(),
                    _n: PhantomData,
                }
            }
        }
    };
}

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
clone_without_bound!(SkeinFixed);
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
/// assert_eq!(out.to_vec(), skein_simd::Skein1024::hash_vec(2400, b"abc"));
/// ```
#[derive(Clone, Debug)]
pub struct SkeinVar<const W: usize> {
    inner: Skein<W>,
}

per_size_aliases!(
    SkeinVar, "with a run-time output length.":
    Skein256Var, Skein512Var, Skein1024Var
);

impl<const W: usize> SkeinVar<W> {
    /// Largest output length in bytes.
    pub const MAX_OUTPUT_SIZE: usize = usize::MAX / 8;

    /// A hasher with an output of `output_size` bytes (1 ..= `MAX_OUTPUT_SIZE`).
    pub fn new(output_size: usize) -> Result<Self, Error> {
        if output_size == 0 || output_size > Self::MAX_OUTPUT_SIZE {
            return Err(Error::InvalidOutputSize);
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
    pub fn finalize_variable(self, out: &mut [u8]) -> Result<(), Error> {
        if out.len() != self.inner.output_len() {
            return Err(Error::InvalidBufferSize);
        }
        self.inner.finalize_into(out);
        Ok(())
    }
    /// Finish into `out` and start over.
    pub fn finalize_variable_reset(&mut self, out: &mut [u8]) -> Result<(), Error> {
        if out.len() != self.inner.output_len() {
            return Err(Error::InvalidBufferSize);
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

clone_without_bound!(SkeinMac);
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

/// Skein as an extendable-output function (XOF): the output length No is
/// 2^64 - 1 bits, the Skein paper's convention for using Skein as a stream
/// cipher or PRNG (section 4.11: key, nonce and the maximum output length),
/// so the output is one stream of 2^61 bytes, read by an [`OutputReader`].
/// Outputs of different lengths (or of `Skein512::new(bits)`) are different:
/// No is part of the configuration.
///
/// ```
/// # #[cfg(feature = "digest")] {
/// use skein_simd::{Skein512, Skein512Xof};
/// use digest::{ExtendableOutput, Update, XofReader};
/// let mut xof = Skein512Xof::default();
/// xof.update(b"abc");
/// let mut reader = xof.finalize_xof();
/// let mut out = [0u8; 100];
/// reader.read(&mut out);
/// // The same as the first 100 bytes of Skein-512 with No = 2^64 - 1 bits.
/// let mut h = Skein512::new(u64::MAX);
/// h.update(b"abc");
/// let mut same = [0u8; 100];
/// h.finalize_xof().fill(&mut same);
/// assert_eq!(out, same);
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct SkeinXof<const W: usize> {
    inner: Skein<W>,
}

per_size_aliases!(
    SkeinXof, "as an XOF (No = 2^64 - 1 bits).":
    Skein256Xof, Skein512Xof, Skein1024Xof
);

impl<const W: usize> Default for SkeinXof<W> {
    fn default() -> Self {
        SkeinXof {
            inner: Skein::new(u64::MAX),
        }
    }
}

impl<const W: usize> SkeinXof<W> {
    /// An XOF with Skein's other arguments (key, personalization, nonce ...;
    /// the stream cipher of the Skein paper is a key and a nonce). The
    /// output length of `params` is ignored: it is 2^64 - 1 bits. Tree
    /// hashing is refused ([`Error::InvalidTree`]): its state has no fixed
    /// size; use [`Skein::finalize_xof`] for a tree's output.
    ///
    /// ```
    /// use skein_simd::{Params, Skein512Xof};
    /// let cipher = Skein512Xof::with_params(&Params::new().key(b"key").nonce(b"nonce")).unwrap();
    /// let mut keystream = cipher.finalize_xof();
    /// keystream.set_position(1 << 40);
    /// ```
    pub fn with_params(params: &Params<'_>) -> Result<Self, Error> {
        if params.tree.is_some() {
            return Err(Error::InvalidTree);
        }
        Ok(SkeinXof {
            inner: Skein::with_params(&params.output_bits(u64::MAX))?,
        })
    }
    /// Absorb more input.
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }
    /// Finish and return the output reader (what `ExtendableOutput`'s
    /// `finalize_xof` returns).
    pub fn finalize_xof(self) -> OutputReader<W> {
        self.inner.finalize_xof()
    }
}

impl<const W: usize> OutputReader<W> {
    /// `XofReader::read`: fill all of `buffer`.
    ///
    /// # Panics
    /// Past the end of the output (2^61 bytes for [`SkeinXof`]).
    fn read_all(&mut self, buffer: &mut [u8]) {
        let n = self.fill(buffer);
        assert_eq!(n, buffer.len(), "Skein: read past the end of the output");
    }
}

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
    // The fixed-length output of the hash and MAC types, both a `Skein<W>`
    // named `inner`.
    (@fixed $d:ident, $size:path, $ty:ident) => {
        impl<const W: usize, N: $size + 'static> $d::Update for $ty<W, N> {
            fn update(&mut self, data: &[u8]) {
                self.inner.update(data);
            }
        }
        impl<const W: usize, N: $size + 'static> $d::OutputSizeUser for $ty<W, N> {
            type OutputSize = N;
        }
        impl<const W: usize, N: $size + 'static> $d::FixedOutput for $ty<W, N> {
            fn finalize_into(self, out: &mut $d::Output<Self>) {
                self.inner.finalize_into(out);
            }
        }
        impl<const W: usize, N: $size + 'static> $d::Reset for $ty<W, N> {
            fn reset(&mut self) {
                self.inner.reset();
            }
        }
        impl<const W: usize, N: $size + 'static> $d::FixedOutputReset for $ty<W, N> {
            fn finalize_into_reset(&mut self, out: &mut $d::Output<Self>) {
                self.inner.clone().finalize_into(out);
                self.inner.reset();
            }
        }
    };
    // Input and reset of the run-time-length and XOF types.
    (@stream $d:ident, $ty:ident) => {
        impl<const W: usize> $d::Update for $ty<W> {
            fn update(&mut self, data: &[u8]) {
                self.inner.update(data);
            }
        }
        impl<const W: usize> $d::Reset for $ty<W> {
            fn reset(&mut self) {
                self.inner.reset();
            }
        }
    };
    ($d:ident, $key_size_user:path, $size:path) => {
        impl<const W: usize, N: $size + 'static> $d::HashMarker for SkeinFixed<W, N> {}
        digest_traits!(@fixed $d, $size, SkeinFixed);

        impl<const W: usize> $d::HashMarker for SkeinVar<W> {}
        digest_traits!(@stream $d, SkeinVar);

        impl<const W: usize> $d::HashMarker for SkeinXof<W> {}
        digest_traits!(@stream $d, SkeinXof);
        impl<const W: usize> $d::ExtendableOutput for SkeinXof<W> {
            type Reader = OutputReader<W>;
            fn finalize_xof(self) -> OutputReader<W> {
                self.inner.finalize_xof()
            }
        }
        impl<const W: usize> $d::ExtendableOutputReset for SkeinXof<W> {
            fn finalize_xof_reset(&mut self) -> OutputReader<W> {
                let reader = self.inner.clone().finalize_xof();
                self.inner.reset();
                reader
            }
        }
        impl<const W: usize> $d::XofReader for OutputReader<W> {
            fn read(&mut self, buffer: &mut [u8]) {
                self.read_all(buffer);
            }
        }

        digest_traits!(@key $d, $key_size_user, $size, 4 => U32, 8 => U64, 16 => U128);
        impl<const W: usize, N: $size + 'static> $d::MacMarker for SkeinMac<W, N> {}
        digest_traits!(@fixed $d, $size, SkeinMac);
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

/// `SerializableState` for each state size, whose serialized sizes are
/// `typenum` numbers: the layout, then for [`SkeinVar`] the output length
/// in bits (u64), for [`SkeinMac`] and [`SkeinXof`] the chaining value after
/// key and arguments (W words: a keyed state is as secret as the key) and
/// the output length in bits (u64), checked against the type's: a MAC state
/// of another tag length or an XOF state does not load. The fixed types have
/// RustCrypto's layout, with no room for the output length: a state that has
/// compressed nothing has the chaining value of its output length's
/// configuration (checked), one that has compressed a block does not show
/// its output length and loads as any fixed type of its state size.
#[cfg(feature = "digest")]
mod serializable {
    use super::*;
    use crate::saved_state::rustcrypto::{
        deserialize_fixed, deserialize_keyed, deserialize_with_length, serialize_keyed,
        serialize_layout, serialize_with_length,
    };
    use digest::array::ArraySize;
    use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};

    /// `SerializableState` for `$ty`: `$save` writes the state, `$load`
    /// (given the saved bytes as `$state`) rebuilds it.
    macro_rules! state_format {
        ([$($gen:tt)*] $ty:ty, $size:ident, $save:ident, |$state:ident| $load:expr) => {
            impl<$($gen)*> SerializableState for $ty {
                type SerializedStateSize = digest::consts::$size;
                fn serialize(&self) -> SerializedState<Self> {
                    let mut out = SerializedState::<Self>::default();
                    $save(&self.inner, &mut out);
                    out
                }
                fn deserialize(
                    $state: &SerializedState<Self>,
                ) -> Result<Self, DeserializeStateError> {
                    $load
                }
            }
        };
    }

    macro_rules! serializable {
        ($($w:literal => $base:ident, $var:ident, $keyed:ident;)*) => {$(
            state_format!([N: ArraySize + 'static] SkeinFixed<$w, N>, $base, serialize_layout, |s| {
                let inner = deserialize_fixed::<$w>(s, N::U64 * 8)?;
                Ok(SkeinFixed { inner, _n: PhantomData })
            });
            state_format!([] SkeinVar<$w>, $var, serialize_with_length, |s| {
                let inner = deserialize_with_length::<$w>(s, Self::MAX_OUTPUT_SIZE as u64)?;
                Ok(SkeinVar { inner })
            });
            state_format!([N: ArraySize + 'static] SkeinMac<$w, N>, $keyed, serialize_keyed, |s| {
                let inner = deserialize_keyed::<$w>(s, N::U64 * 8)?;
                Ok(SkeinMac { inner, _n: PhantomData })
            });
            state_format!([] SkeinXof<$w>, $keyed, serialize_keyed, |s| {
                let inner = deserialize_keyed::<$w>(s, u64::MAX)?;
                Ok(SkeinXof { inner })
            });
        )*};
    }

    serializable! {
        4 => U81, U89, U121;
        8 => U145, U153, U217;
        16 => U273, U281, U409;
    }
}
