//! Skein's optional arguments (spec 3.5): everything that is hashed before the
//! message, plus the output length, tree shape and backend; and the chaining
//! value they lead to.

use crate::spec::{iv, BlockType};
use crate::ubi::{config_chain_from, ubi};
use crate::{Backend, Error, Platform};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use zeroize::Zeroize;
#[cfg(feature = "alloc")]
use zeroize::Zeroizing;

/// Tree-hashing shape (spec 3.5.6): leaves of `2^leaf_log2` blocks, nodes
/// of `2^fan_out_log2` children, at most `max_height` levels.
///
/// ```
/// use skein_simd::TreeParams;
/// let t = TreeParams::new(10, 1, 255).unwrap();
/// assert_eq!(t.leaf_log2(), 10);
/// assert!(TreeParams::new(0, 1, 255).is_err());
/// assert!(TreeParams::new(1, 1, 1).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TreeParams {
    leaf: u8,
    fan_out: u8,
    max_height: u8,
}

impl TreeParams {
    /// `leaf_log2` (the specification's Yl: a leaf is `2^leaf_log2`
    /// blocks; >= 1), `fan_out_log2` (Yf: a node has `2^fan_out_log2`
    /// children; >= 1) and `max_height` (Ym: at most that many levels;
    /// 2..=255): the names of the getters below.
    pub fn new(leaf_log2: u8, fan_out_log2: u8, max_height: u8) -> Result<Self, Error> {
        if leaf_log2 == 0 || fan_out_log2 == 0 || max_height < 2 {
            return Err(Error::InvalidTree);
        }
        Ok(TreeParams {
            leaf: leaf_log2,
            fan_out: fan_out_log2,
            max_height,
        })
    }
    /// Yl: a leaf is `2^Yl` state-size blocks.
    pub fn leaf_log2(&self) -> u8 {
        self.leaf
    }
    /// Yf: a node has `2^Yf` children.
    pub fn fan_out_log2(&self) -> u8 {
        self.fan_out
    }
    /// Ym: the maximum tree height.
    pub fn max_height(&self) -> u8 {
        self.max_height
    }
}

/// Everything of a Skein computation except the message, borrowed.
///
/// Arguments are hashed in the specification's order: key, configuration,
/// personalization, public key, key identifier, nonce, then the message.
/// An empty argument is the same as an absent one, as in the reference code.
///
/// ```
/// use skein_simd::{Params, Skein512};
/// let key = [0x42u8; 32];
/// let params = Params::new()
///     .output_bits(256)
///     .key(&key)
///     .personalization(b"20261130 me@example.org app/v1");
/// let mut mac = Skein512::with_params(&params).unwrap();
/// mac.update(b"message");
/// let tag = mac.finalize_vec();
/// assert_eq!(tag.len(), 32);
/// ```
///
/// Its `Debug` output shows the key's length only, never its bytes.
#[derive(Clone, Copy, Default)]
pub struct Params<'a> {
    pub(crate) output_bits: Option<u64>,
    pub(crate) key: &'a [u8],
    pub(crate) personalization: &'a [u8],
    pub(crate) public_key: &'a [u8],
    pub(crate) key_id: &'a [u8],
    pub(crate) nonce: &'a [u8],
    pub(crate) tree: Option<TreeParams>,
    pub(crate) backend: Option<Backend>,
}

/// Skein's arguments, listed once: the setters of [`Params`] (borrowing)
/// and of [`OwnedParams`] (owning), and the conversions between the two.
/// `bytes` are the byte strings hashed before the message, `settings` the
/// optional values.
macro_rules! arguments {
    (
        bytes { $($(#[$bytes_doc:meta])* $bytes:ident;)* }
        settings { $($(#[$setting_doc:meta])* $setting:ident: $ty:ty;)* }
    ) => {
        impl<'a> Params<'a> {
            $(
                $(#[$bytes_doc])*
                pub fn $bytes(mut self, $bytes: &'a [u8]) -> Self {
                    self.$bytes = $bytes;
                    self
                }
            )*
            $(
                $(#[$setting_doc])*
                pub fn $setting(mut self, $setting: $ty) -> Self {
                    self.$setting = Some($setting);
                    self
                }
            )*
        }

        #[cfg(feature = "alloc")]
        impl OwnedParams {
            $(
                $(#[$bytes_doc])*
                ///
                /// The `Vec` is taken as it is: its bytes are not copied.
                pub fn $bytes(mut self, $bytes: Vec<u8>) -> Self {
                    // For the key, dropping the replaced value wipes it.
                    self.$bytes = $bytes.into();
                    self
                }
            )*
            $(
                $(#[$setting_doc])*
                pub fn $setting(mut self, $setting: $ty) -> Self {
                    self.settings.$setting = Some($setting);
                    self
                }
            )*
            /// The arguments, borrowed: what the hashers are built from
            /// (`Skein512::with_params(&owned.params())`).
            pub fn params(&self) -> Params<'_> {
                Params {
                    $($bytes: &self.$bytes,)*
                    ..self.settings
                }
            }
        }

        /// A copy of every argument; the key's copy is wiped when dropped.
        #[cfg(feature = "alloc")]
        impl From<&Params<'_>> for OwnedParams {
            fn from(params: &Params<'_>) -> Self {
                OwnedParams {
                    $($bytes: params.$bytes.to_vec().into(),)*
                    settings: Params {
                        $($setting: params.$setting,)*
                        ..Params::new()
                    },
                }
            }
        }
    };
}

impl Params<'_> {
    /// Plain hashing with the state size as output length.
    pub fn new() -> Self {
        Params::default()
    }
}

arguments! {
    bytes {
        /// MAC key (makes the result Skein-MAC; with `key_id`, a KDF).
        key;
        /// Personalization string.
        personalization;
        /// Public key (for hashing messages to be signed).
        public_key;
        /// Key identifier (KDF use, together with a key).
        key_id;
        /// Nonce (randomized hashing, stream-cipher use).
        nonce;
    }
    settings {
        /// Output length in bits (any value >= 1); default: the state size.
        output_bits: u64;
        /// Tree hashing with this shape.
        tree: TreeParams;
        /// Force a block-function backend instead of the detected one.
        backend: Backend;
    }
}

/// Everything of a Skein computation except the message, owned: the
/// arguments a program reads once (from its command line, a file, a
/// caller in another language) and hashes with for as long as it runs.
///
/// The setters are those of [`Params`], taking a `Vec<u8>` for each byte
/// string; [`params`](OwnedParams::params) lends them as a [`Params`] to
/// build hashers with, and `OwnedParams::from(&params)` copies borrowed
/// ones.
///
/// ```
/// use skein_simd::{OwnedParams, Params, Skein512};
/// // Arguments read once and kept: the key is moved in, not copied.
/// let key: Vec<u8> = vec![0x42; 32];
/// let args = OwnedParams::new()
///     .key(key)
///     .personalization(b"20261130 me@example.org app/v1".to_vec());
/// let tag = |message: &[u8]| {
///     let mut mac = Skein512::with_params(&args.params().output_bits(256)).unwrap();
///     mac.update(message);
///     mac.finalize_vec()
/// };
/// // The same arguments borrowed, and copied from borrowed ones.
/// let borrowed = Params::new()
///     .key(&[0x42; 32])
///     .personalization(b"20261130 me@example.org app/v1");
/// let copied = OwnedParams::from(&borrowed);
/// for params in [borrowed, copied.params()] {
///     let mut mac = Skein512::with_params(&params.output_bits(256)).unwrap();
///     mac.update(b"message");
///     assert_eq!(mac.finalize_vec(), tag(b"message"));
/// }
/// ```
///
/// The key's buffer is wiped (its whole capacity overwritten with zeros)
/// when the value is dropped and when [`key`](OwnedParams::key) replaces
/// it; a clone's key is a copy wiped the same way. Not wiped: the other
/// byte strings, which are not secret, and copies of the key made before
/// it was handed over (the old buffer of a `Vec` that grew). `Debug`
/// shows the key's length only, never its bytes. There is no `PartialEq`:
/// comparing keys would have to be constant-time, and nothing needs it.
#[cfg(feature = "alloc")]
#[derive(Clone, Default)]
pub struct OwnedParams {
    /// The output length, tree shape and backend; its byte strings stay
    /// empty (the ones below are lent by `params`).
    settings: Params<'static>,
    key: Zeroizing<Vec<u8>>,
    personalization: Vec<u8>,
    public_key: Vec<u8>,
    key_id: Vec<u8>,
    nonce: Vec<u8>,
}

#[cfg(feature = "alloc")]
impl OwnedParams {
    /// No arguments: plain hashing with the state size as output length.
    pub fn new() -> Self {
        OwnedParams::default()
    }
}

impl core::fmt::Debug for Params<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.debug_as("Params", f)
    }
}

#[cfg(feature = "alloc")]
impl core::fmt::Debug for OwnedParams {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.params().debug_as("OwnedParams", f)
    }
}

impl Params<'_> {
    /// The fields under the type name `name`, the key as its length only:
    /// it is a secret.
    fn debug_as(&self, name: &str, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        struct Redacted(usize);
        impl core::fmt::Debug for Redacted {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "<{} bytes redacted>", self.0)
            }
        }
        f.debug_struct(name)
            .field("output_bits", &self.output_bits)
            .field("key", &Redacted(self.key.len()))
            .field("personalization", &self.personalization)
            .field("public_key", &self.public_key)
            .field("key_id", &self.key_id)
            .field("nonce", &self.nonce)
            .field("tree", &self.tree)
            .field("backend", &self.backend)
            .finish()
    }
}

/// The chaining value once every argument before the message is hashed, in
/// the specification's order: key, configuration (from the precomputed IVs
/// when there is neither key nor tree), personalization, public key, key
/// identifier, nonce.
pub(crate) fn argument_chain<const W: usize>(
    platform: &Platform,
    params: &Params<'_>,
    output_bits: u64,
) -> [u64; W] {
    // Plain hashing first: nothing to hash and nothing secret to wipe
    // (the general path below costs more per hasher: docs/x86-64.md,
    // "Single stream against the reference C").
    let plain = params.key.is_empty()
        && params.tree.is_none()
        && params.personalization.is_empty()
        && params.public_key.is_empty()
        && params.key_id.is_empty()
        && params.nonce.is_empty();
    if plain {
        return plain_chain::<W>(output_bits);
    }
    let (leaf, fan_out, max_height) = params.tree.map_or((0, 0, 0), |t| {
        (t.leaf_log2(), t.fan_out_log2(), t.max_height())
    });
    // Each step's input chain is overwritten by its result; the replaced
    // values are wiped as they go.
    let mut chain = [0u64; W];
    if !params.key.is_empty() {
        chain = ubi(platform, chain, BlockType::Key, params.key);
    }
    let mut next = if params.key.is_empty() && params.tree.is_none() {
        plain_chain::<W>(output_bits)
    } else {
        config_chain_from::<W>(&chain, output_bits, leaf, fan_out, max_height)
    };
    chain.zeroize();
    chain = next;
    next.zeroize();
    for (ubi_type, arg) in [
        (BlockType::Personalization, params.personalization),
        (BlockType::PublicKey, params.public_key),
        (BlockType::KeyId, params.key_id),
        (BlockType::Nonce, params.nonce),
    ] {
        if !arg.is_empty() {
            let mut next = ubi(platform, chain, ubi_type, arg);
            chain.zeroize();
            chain = next;
            next.zeroize();
        }
    }
    chain
}

impl Params<'_> {
    /// The output length (default: the state of `W` words) and the
    /// backends these arguments ask for: an output of 0 bits or an
    /// unavailable forced backend is an error.
    pub(crate) fn output_and_platform<const W: usize>(&self) -> Result<(u64, Platform), Error> {
        let output_bits = self.output_bits.unwrap_or(64 * W as u64);
        if output_bits == 0 {
            return Err(Error::ZeroOutputBits);
        }
        let platform = match self.backend {
            Some(b) => Platform::force(b)?,
            None => Platform::detect(),
        };
        Ok((output_bits, platform))
    }
}

/// The chaining value for plain hashing (no key, tree or other argument):
/// precomputed for the common output sizes.
#[inline]
pub(crate) fn plain_chain<const W: usize>(output_bits: u64) -> [u64; W] {
    iv::lookup::<W>(output_bits)
        .unwrap_or_else(|| config_chain_from::<W>(&[0; W], output_bits, 0, 0, 0))
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    use super::*;
    use alloc::vec;

    /// The owned setters keep the buffers they are given (no copy).
    pub fn owned_setters_keep_the_callers_buffers() {
        let buffers = [
            vec![1u8; 40],
            vec![2; 41],
            vec![3; 42],
            vec![4; 43],
            vec![5; 44],
        ];
        let pointers = buffers.each_ref().map(|b| b.as_ptr());
        let [key, personalization, public_key, key_id, nonce] = buffers;
        let owned = OwnedParams::new()
            .key(key)
            .personalization(personalization)
            .public_key(public_key)
            .key_id(key_id)
            .nonce(nonce);
        let p = owned.params();
        let lent = [p.key, p.personalization, p.public_key, p.key_id, p.nonce];
        assert_eq!(lent.map(<[u8]>::as_ptr), pointers);
        assert_eq!(lent.map(<[u8]>::len), [40, 41, 42, 43, 44]);
    }
}
