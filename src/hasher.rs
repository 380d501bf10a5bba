//! The streaming Skein hasher: one generic core for the three state sizes.

use crate::params::{argument_chain, plain_chain};
use crate::spec::BlockType;
use crate::ubi::{output, ubi, ubi_then_output, Ubi};
use crate::{Error, Params, Platform};
use zeroize::Zeroize;

#[cfg(feature = "alloc")]
use crate::tree::TreeHasher;
#[cfg(feature = "alloc")]
use alloc::{boxed::Box, vec::Vec};

/// The highest message position a saved state may hold (state.rs's
/// `import_state`, digest's `SerializableState::deserialize`): 2^64 bytes
/// below the end of the 96-bit field, so that no input after the import can
/// carry the position into the tweak's reserved bits (no real input comes
/// near it).
#[cfg(any(feature = "alloc", feature = "digest"))]
pub(crate) const MAX_RESUMED_POSITION: u128 = (1 << 96) - (1 << 64);

/// The message stage: one UBI, or a tree hasher.
#[derive(Clone)]
pub(crate) enum Message<const W: usize> {
    Sequential(Ubi<W>),
    #[cfg(feature = "alloc")]
    Tree(Box<TreeHasher<W>>),
}

/// A streaming Skein hasher with a state of `W` 64-bit words; use the aliases
/// [`Skein256`], [`Skein512`] and [`Skein1024`].
///
/// Any split of the input across [`update`](Self::update) calls gives the same
/// result; a hasher can be cloned mid-stream. Secret state is zeroized on drop.
///
/// ```
/// use skein_simd::Skein512;
/// let mut h = Skein512::new(256);
/// h.update(b"hello ");
/// h.update(b"world");
/// let mut out = [0u8; 32];
/// h.finalize_into(&mut out);
/// assert_eq!(out.to_vec(), Skein512::hash_vec(256, b"hello world"));
/// ```
#[derive(Clone)]
pub struct Skein<const W: usize> {
    pub(crate) platform: Platform,
    pub(crate) output_bits: u64,
    /// Chaining value once every argument before the message is hashed.
    pub(crate) start: [u64; W],
    pub(crate) msg: Message<W>,
    /// Set once a partial final byte was absorbed; no input may follow.
    pub(crate) bit_pad: bool,
}

/// Skein with a 256-bit state.
pub type Skein256 = Skein<4>;
/// Skein with a 512-bit state.
pub type Skein512 = Skein<8>;
/// Skein with a 1024-bit state.
pub type Skein1024 = Skein<16>;

impl<const W: usize> Skein<W> {
    const VALID: () = assert!(W == 4 || W == 8 || W == 16, "Skein has 4, 8 or 16 words");

    /// State size in bits.
    pub const STATE_BITS: usize = 64 * W;
    /// Block size in bytes.
    pub const BLOCK_BYTES: usize = 8 * W;

    /// Plain hashing with an output of `output_bits` bits.
    ///
    /// # Panics
    /// If `output_bits` is 0.
    ///
    /// ```
    /// let h = skein_simd::Skein1024::new(1024);
    /// assert_eq!(h.output_len(), 128);
    /// ```
    #[inline]
    pub fn new(output_bits: u64) -> Self {
        assert!(output_bits != 0, "output_bits must be at least 1");
        // Not through `with_params`: moving the hasher out of its `Result`
        // was a 240-byte `memcpy` per hash (callgrind, 64-byte one-shots).
        Self::from_valid_params(Platform::detect(), &Params::new(), output_bits)
    }

    /// A hasher for any combination of Skein arguments.
    ///
    /// ```
    /// use skein_simd::{Params, Skein256, TreeParams};
    /// let params = Params::new().output_bits(160).nonce(b"n0nce").tree(TreeParams::new(2, 2, 8).unwrap());
    /// let mut h = Skein256::with_params(&params).unwrap();
    /// h.update(&[0u8; 1000]);
    /// assert_eq!(h.finalize_vec().len(), 20);
    /// ```
    pub fn with_params(params: &Params<'_>) -> Result<Self, Error> {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        let (output_bits, platform) = params.output_and_platform::<W>()?;
        #[cfg(not(feature = "alloc"))]
        if params.tree.is_some() {
            return Err(Error::TreeNeedsAlloc);
        }
        Ok(Self::from_valid_params(platform, params, output_bits))
    }

    /// The hasher for arguments `with_params` has checked.
    #[inline]
    fn from_valid_params(platform: Platform, params: &Params<'_>, output_bits: u64) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        let chain = argument_chain::<W>(&platform, params, output_bits);
        let msg = Self::message_state(&chain, params.tree);
        Skein {
            platform,
            output_bits,
            start: chain,
            msg,
            bit_pad: false,
        }
    }

    /// A hasher from its parts (a saved state, checked by the caller).
    #[cfg(any(feature = "alloc", feature = "digest"))]
    pub(crate) fn from_parts(
        platform: Platform,
        output_bits: u64,
        start: [u64; W],
        msg: Message<W>,
        bit_pad: bool,
    ) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        Skein {
            platform,
            output_bits,
            start,
            msg,
            bit_pad,
        }
    }

    #[allow(unused_variables)]
    fn message_state(start: &[u64; W], tree: Option<crate::TreeParams>) -> Message<W> {
        #[cfg(feature = "alloc")]
        if let Some(t) = tree {
            return Message::Tree(Box::new(TreeHasher::new(*start, t)));
        }
        Message::Sequential(Ubi::new(*start, BlockType::Message, 0, 0))
    }

    /// One-shot hash of `data` with an output of `output_bits` bits.
    ///
    /// ```
    /// let d = skein_simd::Skein256::hash_vec(128, b"abc");
    /// assert_eq!(d.len(), 16);
    /// ```
    #[cfg(feature = "alloc")]
    pub fn hash_vec(output_bits: u64, data: &[u8]) -> Vec<u8> {
        let mut out = alloc::vec![0u8; output_bits.div_ceil(8) as usize];
        Self::hash_into(output_bits, data, &mut out);
        out
    }

    /// One-shot hash of `data` with an output of `output_bits` bits, written
    /// into `out`. The same result as `new`, `update`, `finalize_into`, but
    /// with no hasher to build, move and wipe: message blocks are read in
    /// place and only a partial last block is copied (the fastest path for
    /// short messages).
    ///
    /// # Panics
    /// If `output_bits` is 0 or `out.len() != ceil(output_bits / 8)`.
    ///
    /// ```
    /// let mut out = [0u8; 32];
    /// skein_simd::Skein512::hash_into(256, b"abc", &mut out);
    /// assert_eq!(out.to_vec(), skein_simd::Skein512::hash_vec(256, b"abc"));
    /// ```
    pub fn hash_into(output_bits: u64, data: &[u8], out: &mut [u8]) {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        assert!(output_bits != 0, "output_bits must be at least 1");
        assert_eq!(
            out.len() as u64,
            output_bits.div_ceil(8),
            "Skein: output buffer must be ceil(output_bits / 8) bytes"
        );
        let platform = Platform::detect();
        if out.len() <= 8 * W {
            return ubi_then_output::<W>(&platform, plain_chain::<W>(output_bits), data, out);
        }
        let mut g = ubi::<W>(
            &platform,
            plain_chain::<W>(output_bits),
            BlockType::Message,
            data,
        );
        output::<W>(&platform, &g, out);
        g.zeroize();
    }

    /// Output length in bits.
    pub fn output_bits(&self) -> u64 {
        self.output_bits
    }

    /// Output length in bytes: `ceil(output_bits / 8)`.
    pub fn output_len(&self) -> usize {
        self.output_bits.div_ceil(8) as usize
    }

    /// The backends doing the work for this hasher.
    pub fn platform(&self) -> Platform {
        self.platform
    }

    /// Absorb more message bytes.
    ///
    /// # Panics
    /// After [`update_bits`](Self::update_bits) absorbed a partial byte.
    ///
    /// ```
    /// let mut h = skein_simd::Skein512::new(512);
    /// h.update(b"abc");
    /// ```
    pub fn update(&mut self, data: &[u8]) {
        assert!(
            !self.bit_pad,
            "Skein: no input may follow a partial final byte"
        );
        self.absorb(data);
    }

    fn absorb(&mut self, data: &[u8]) {
        match &mut self.msg {
            Message::Sequential(u) => u.update(&self.platform, data),
            #[cfg(feature = "alloc")]
            Message::Tree(t) => t.update(&self.platform, data, self.bit_pad),
        }
    }

    /// Absorb the first `bits` bits of `data` (most significant bit of each
    /// byte first, as in the specification). `data` must hold exactly
    /// `ceil(bits / 8)` bytes. When `bits` is not a multiple of 8 this ends
    /// the message: the last byte is padded with a single 1 bit and the
    /// bit-padding flag goes into the final tweak.
    ///
    /// # Panics
    /// If `data.len() != ceil(bits / 8)`, or after a partial byte.
    ///
    /// ```
    /// let mut h = skein_simd::Skein256::new(256);
    /// h.update_bits(&[0b1010_0000], 3); // the bits 1, 0, 1
    /// let _ = h.finalize_vec();
    /// ```
    pub fn update_bits(&mut self, data: &[u8], bits: u64) {
        assert_eq!(
            data.len() as u64,
            bits.div_ceil(8),
            "Skein: update_bits needs ceil(bits/8) bytes"
        );
        let partial = (bits % 8) as u32;
        if partial == 0 {
            self.update(data);
            return;
        }
        let (whole, last) = data.split_at(data.len() - 1);
        self.update(whole);
        let pad = 0x80u8 >> partial;
        let last = (last[0] & !(pad.wrapping_sub(1)) & !pad) | pad;
        // Flag first: a tree leaf that this byte fills is the padded last one.
        self.bit_pad = true;
        self.absorb(&[last]);
    }

    /// The chaining value G that goes into the output stage.
    pub(crate) fn message_chain(&mut self) -> [u64; W] {
        match &mut self.msg {
            Message::Sequential(u) => u.finish(&self.platform, self.bit_pad),
            #[cfg(feature = "alloc")]
            Message::Tree(t) => t.finish(&self.platform, self.bit_pad),
        }
    }

    /// Finish and write the `output_len()` result bytes into `out`.
    ///
    /// # Panics
    /// If `out.len() != self.output_len()`.
    ///
    /// ```
    /// let mut h = skein_simd::Skein512::new(160);
    /// h.update(b"data");
    /// let mut out = [0u8; 20];
    /// h.finalize_into(&mut out);
    /// ```
    #[inline(always)]
    pub fn finalize_into(mut self, out: &mut [u8]) {
        // By reference from here: a by-value hasher passed to an outlined
        // function was copied first (a 240-byte `memcpy` per hash).
        self.finish_into(out);
    }

    fn finish_into(&mut self, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            self.output_len(),
            "Skein: output buffer must be output_len() bytes"
        );
        if let (Message::Sequential(u), true) = (&mut self.msg, out.len() <= 8 * W) {
            // The last block and the one output block in one call.
            return u.finish_then_output(&self.platform, self.bit_pad, out);
        }
        let mut g = self.message_chain();
        output::<W>(&self.platform, &g, out);
        g.zeroize();
    }

    /// Finish and return the result.
    ///
    /// ```
    /// let mut h = skein_simd::Skein512::new(2056); // longer than the state: counter-mode output
    /// h.update(b"data");
    /// assert_eq!(h.finalize_vec().len(), 257);
    /// ```
    #[cfg(feature = "alloc")]
    pub fn finalize_vec(self) -> Vec<u8> {
        let mut out = alloc::vec![0u8; self.output_len()];
        self.finalize_into(&mut out);
        out
    }

    /// Finish and compare the result with `expected` in constant time (a MAC
    /// check). Returns false when the lengths differ.
    ///
    /// ```
    /// use skein_simd::{Params, Skein512};
    /// let params = Params::new().key(b"secret key");
    /// let mut a = Skein512::with_params(&params).unwrap();
    /// a.update(b"msg");
    /// let tag = a.finalize_vec();
    /// let mut b = Skein512::with_params(&params).unwrap();
    /// b.update(b"msg");
    /// assert!(b.verify(&tag));
    /// ```
    #[cfg(feature = "alloc")]
    pub fn verify(self, expected: &[u8]) -> bool {
        use subtle::ConstantTimeEq;
        let mut tag = self.finalize_vec();
        let ok = tag.len() == expected.len() && bool::from(tag.ct_eq(expected));
        tag.zeroize();
        ok
    }

    /// Back to the state right after the arguments (key, personalization …),
    /// ready for a new message.
    ///
    /// ```
    /// let mut h = skein_simd::Skein256::new(256);
    /// h.update(b"discarded");
    /// h.reset();
    /// h.update(b"abc");
    /// assert_eq!(h.finalize_vec(), skein_simd::Skein256::hash_vec(256, b"abc"));
    /// ```
    pub fn reset(&mut self) {
        #[cfg(feature = "alloc")]
        let tree = match &self.msg {
            Message::Tree(t) => Some(t.params()),
            _ => None,
        };
        #[cfg(not(feature = "alloc"))]
        let tree = None;
        self.msg = Self::message_state(&self.start, tree);
        self.bit_pad = false;
    }
}

impl<const W: usize> Drop for Skein<W> {
    fn drop(&mut self) {
        self.start.zeroize();
    }
}

impl<const W: usize> core::fmt::Debug for Skein<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Skein{}-{} {{ .. }}", 64 * W, self.output_bits)
    }
}
