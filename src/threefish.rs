//! Threefish-256, -512 and -1024: the tweakable block cipher inside Skein,
//! usable on its own.
//!
//! The one place for the cipher's definition: key and tweak schedules, the
//! subkey formula ([`subkey_word_with`]), and the fully unrolled encryption
//! ([`encrypt_words_with`]) that the `portable` backend's block function runs.
//! Decryption is the straightforward inverse. A `const fn` version of the
//! cipher ([`encrypt_const`]) lets the compiler precompute Skein's IVs and
//! serves tests as a second, loop-based implementation.
//!
//! Words are never moved between rounds: each round names its MIX operands
//! through the compile-time slot table of [`crate::spec::slots`], so after
//! inlining every index, rotation count and subkey index is a constant and the
//! state lives in registers. Subkeys are formed on the fly from the extended
//! key and tweak (no subkey table, no modulo at run time).

use crate::spec::{rot, rounds, slots, C240};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Extended key: the W key words followed by the parity word, then unused.
pub(crate) type KeySchedule = [u64; 17];

/// Key words plus parity word `k[W] = C240 ^ k[0] ^ ... ^ k[W-1]`.
#[inline(always)]
pub(crate) const fn key_schedule<const W: usize>(key: &[u64; W]) -> KeySchedule {
    let mut ks = [0u64; 17];
    let mut parity = C240;
    let mut i = 0;
    while i < W {
        ks[i] = key[i];
        parity ^= key[i];
        i += 1;
    }
    ks[W] = parity;
    ks
}

/// Tweak words plus `t2 = t0 ^ t1`.
#[inline(always)]
pub(crate) const fn tweak_schedule(tweak: &[u64; 2]) -> [u64; 3] {
    [tweak[0], tweak[1], tweak[0] ^ tweak[1]]
}

/// Subkey word `i` of subkey `s` (spec 3.3.2), with the subkey number `s`
/// supplied as `number` (see [`SUBKEY_NUMBERS`]).
#[inline(always)]
pub(crate) const fn subkey_word_with<const W: usize>(
    ks: &KeySchedule,
    ts: &[u64; 3],
    s: usize,
    i: usize,
    number: u64,
) -> u64 {
    let mut k = ks[(s + i) % (W + 1)];
    if i == W - 3 {
        k = k.wrapping_add(ts[s % 3]);
    } else if i == W - 2 {
        k = k.wrapping_add(ts[(s + 1) % 3]);
    } else if i == W - 1 && s > 0 {
        k = k.wrapping_add(number);
    }
    k
}

/// Subkey word `i` of subkey `s` (spec 3.3.2).
#[inline(always)]
pub(crate) const fn subkey_word<const W: usize>(
    ks: &KeySchedule,
    ts: &[u64; 3],
    s: usize,
    i: usize,
) -> u64 {
    subkey_word_with::<W>(ks, ts, s, i, s as u64)
}

#[inline(always)]
fn round<const W: usize, const D: usize>(x: &mut [u64; W]) {
    let slot = const { slots::<W>()[D % 4] };
    for j in 0..W / 2 {
        let (a, b) = (slot[2 * j], slot[2 * j + 1]);
        x[a] = x[a].wrapping_add(x[b]);
        x[b] = x[b].rotate_left(rot::<W>(D, j)) ^ x[a];
    }
}

/// The subkey numbers 0..=20 (the last subkey word adds its number).
pub(crate) const SUBKEY_NUMBERS: [u64; 21] = {
    let mut n = [0u64; 21];
    let mut s = 0;
    while s < 21 {
        n[s] = s as u64;
        s += 1;
    }
    n
};

/// Add subkey `s`. The subkey number comes from `numbers` rather than a
/// literal: given a literal, LLVM moves the `+ s` to the end of the sum, onto
/// the state word's dependency chain (one more cycle per injection).
#[inline(always)]
fn inject<const W: usize>(
    x: &mut [u64; W],
    ks: &KeySchedule,
    ts: &[u64; 3],
    numbers: &[u64; 21],
    s: usize,
) {
    for i in 0..W {
        x[i] = x[i].wrapping_add(subkey_word_with::<W>(ks, ts, s, i, numbers[s]));
    }
}

/// Eight rounds starting at a multiple of eight, followed by subkeys S+1 and S+2.
#[inline(always)]
fn eight_rounds<const W: usize, const S: usize>(
    x: &mut [u64; W],
    ks: &KeySchedule,
    ts: &[u64; 3],
    n: &[u64; 21],
) {
    round::<W, 0>(x);
    round::<W, 1>(x);
    round::<W, 2>(x);
    round::<W, 3>(x);
    inject::<W>(x, ks, ts, n, S + 1);
    round::<W, 4>(x);
    round::<W, 5>(x);
    round::<W, 6>(x);
    round::<W, 7>(x);
    inject::<W>(x, ks, ts, n, S + 2);
}

/// Threefish encryption of `x` in place, all rounds unrolled.
#[inline(always)]
pub(crate) fn encrypt_words<const W: usize>(ks: &KeySchedule, ts: &[u64; 3], x: &mut [u64; W]) {
    encrypt_words_with::<W>(ks, ts, &SUBKEY_NUMBERS, x)
}

/// As `encrypt_words`, with the subkey numbers supplied (see `inject`).
#[inline(always)]
pub(crate) fn encrypt_words_with<const W: usize>(
    ks: &KeySchedule,
    ts: &[u64; 3],
    n: &[u64; 21],
    x: &mut [u64; W],
) {
    inject::<W>(x, ks, ts, n, 0);
    eight_rounds::<W, 0>(x, ks, ts, n);
    eight_rounds::<W, 2>(x, ks, ts, n);
    eight_rounds::<W, 4>(x, ks, ts, n);
    eight_rounds::<W, 6>(x, ks, ts, n);
    eight_rounds::<W, 8>(x, ks, ts, n);
    eight_rounds::<W, 10>(x, ks, ts, n);
    eight_rounds::<W, 12>(x, ks, ts, n);
    eight_rounds::<W, 14>(x, ks, ts, n);
    eight_rounds::<W, 16>(x, ks, ts, n);
    if W == 16 {
        eight_rounds::<W, 18>(x, ks, ts, n);
    }
}

pub(crate) fn words_from_le<const W: usize>(bytes: &[u8]) -> [u64; W] {
    let mut w = [0u64; W];
    for (word, chunk) in w.iter_mut().zip(bytes.chunks_exact(8)) {
        *word = u64::from_le_bytes(chunk.try_into().unwrap());
    }
    w
}

/// The first `bytes.len()` bytes (at most `8 * W`) of `words`,
/// little-endian: a digest, or a chaining value cut to the output length.
#[inline]
pub(crate) fn words_to_le<const W: usize>(words: &[u64; W], bytes: &mut [u8]) {
    if bytes.len() == 8 * W {
        // All the words: fixed offsets, one fixed-size copy once inlined
        // (below, the run-time length makes the copy a `memcpy` call).
        for (j, word) in words.iter().enumerate() {
            bytes[8 * j..8 * j + 8].copy_from_slice(&word.to_le_bytes());
        }
        return;
    }
    // Whole words as fixed-size stores; a variable-length copy per word
    // costs a `memcpy` call each (counted: docs/x86-64.md, "Single stream
    // against the reference C").
    let whole = bytes.len() / 8;
    let (head, tail) = bytes.split_at_mut(8 * whole);
    for (word, dst) in words.iter().zip(head.chunks_exact_mut(8)) {
        dst.copy_from_slice(&word.to_le_bytes());
    }
    if !tail.is_empty() {
        let n = tail.len();
        tail.copy_from_slice(&words[whole].to_le_bytes()[..n]);
    }
}

/// Threefish encryption written with plain loops, evaluable at compile time.
pub(crate) const fn encrypt_const<const W: usize>(
    key: &[u64; W],
    tweak: &[u64; 2],
    block: &[u64; W],
) -> [u64; W] {
    let ks = key_schedule(key);
    let ts = tweak_schedule(tweak);
    let slot = slots::<W>();
    let mut x = *block;
    let mut d = 0;
    while d < rounds(W) {
        if d % 4 == 0 {
            let s = d / 4;
            let mut i = 0;
            while i < W {
                x[i] = x[i].wrapping_add(subkey_word::<W>(&ks, &ts, s, i));
                i += 1;
            }
        }
        let mut j = 0;
        while j < W / 2 {
            let a = slot[d % 4][2 * j];
            let b = slot[d % 4][2 * j + 1];
            x[a] = x[a].wrapping_add(x[b]);
            x[b] = x[b].rotate_left(rot::<W>(d, j)) ^ x[a];
            j += 1;
        }
        d += 1;
    }
    let s = rounds(W) / 4;
    let mut i = 0;
    while i < W {
        x[i] = x[i].wrapping_add(subkey_word::<W>(&ks, &ts, s, i));
        i += 1;
    }
    x
}

fn decrypt_words<const W: usize>(ks: &KeySchedule, ts: &[u64; 3], block: &mut [u64; W]) {
    let slot = const { slots::<W>() };
    let x = block;
    let last = rounds(W) / 4;
    for i in 0..W {
        x[i] = x[i].wrapping_sub(subkey_word::<W>(ks, ts, last, i));
    }
    for d in (0..rounds(W)).rev() {
        for j in (0..W / 2).rev() {
            let a = slot[d % 4][2 * j];
            let b = slot[d % 4][2 * j + 1];
            x[b] = (x[b] ^ x[a]).rotate_right(rot::<W>(d, j));
            x[a] = x[a].wrapping_sub(x[b]);
        }
        if d % 4 == 0 {
            for i in 0..W {
                x[i] = x[i].wrapping_sub(subkey_word::<W>(ks, ts, d / 4, i));
            }
        }
    }
}

/// Threefish with a state of `W` 64-bit words (4, 8 or 16); use the aliases
/// [`Threefish256`], [`Threefish512`] and [`Threefish1024`].
///
/// The expanded key is zeroized on drop.
///
/// ```
/// use skein_simd::Threefish512;
/// let key = [7u8; 64];
/// let tweak = [1u8; 16];
/// let cipher = Threefish512::new(&key, &tweak);
/// let mut block = *b"sixty-four bytes of plaintext go into one Threefish-512 block...";
/// let original = block;
/// cipher.encrypt_block(&mut block);
/// assert_ne!(block, original);
/// cipher.decrypt_block(&mut block);
/// assert_eq!(block, original);
/// ```
#[derive(Clone)]
pub struct Threefish<const W: usize> {
    ks: KeySchedule,
    ts: [u64; 3],
}

/// Threefish with a 256-bit block and key.
pub type Threefish256 = Threefish<4>;
/// Threefish with a 512-bit block and key.
pub type Threefish512 = Threefish<8>;
/// Threefish with a 1024-bit block and key.
pub type Threefish1024 = Threefish<16>;

impl<const W: usize> Threefish<W> {
    const VALID: () = assert!(
        W == 4 || W == 8 || W == 16,
        "Threefish has 4, 8 or 16 words"
    );

    /// Block (and key) size in bytes.
    pub const BLOCK_BYTES: usize = 8 * W;

    /// A cipher from a key of `8 * W` bytes and a 16-byte tweak, both read as
    /// little-endian 64-bit words.
    ///
    /// # Panics
    /// If `key` is not exactly [`Self::BLOCK_BYTES`] long.
    ///
    /// ```
    /// let cipher = skein_simd::Threefish256::new(&[0u8; 32], &[0u8; 16]);
    /// # let _ = cipher;
    /// ```
    pub fn new(key: &[u8], tweak: &[u8; 16]) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        assert_eq!(key.len(), 8 * W, "Threefish key must be {} bytes", 8 * W);
        let mut key_words = words_from_le::<W>(key);
        let tweak_words = words_from_le::<2>(tweak);
        let ks = key_schedule(&key_words);
        key_words.zeroize();
        Threefish {
            ks,
            ts: tweak_schedule(&tweak_words),
        }
    }

    /// Encrypt one block of `8 * W` bytes in place.
    ///
    /// # Panics
    /// If `block` is not exactly [`Self::BLOCK_BYTES`] long.
    ///
    /// ```
    /// let cipher = skein_simd::Threefish1024::new(&[0u8; 128], &[0u8; 16]);
    /// let mut block = [0u8; 128];
    /// cipher.encrypt_block(&mut block);
    /// ```
    pub fn encrypt_block(&self, block: &mut [u8]) {
        self.in_place(block, encrypt_words::<W>);
    }

    /// Decrypt one block of `8 * W` bytes in place.
    ///
    /// # Panics
    /// If `block` is not exactly [`Self::BLOCK_BYTES`] long.
    ///
    /// ```
    /// let cipher = skein_simd::Threefish256::new(&[1u8; 32], &[2u8; 16]);
    /// let mut block = [3u8; 32];
    /// cipher.encrypt_block(&mut block);
    /// cipher.decrypt_block(&mut block);
    /// assert_eq!(block, [3u8; 32]);
    /// ```
    pub fn decrypt_block(&self, block: &mut [u8]) {
        self.in_place(block, decrypt_words::<W>);
    }
}

impl<const W: usize> Threefish<W> {
    /// `cipher` (encryption or decryption) on `block` as words, in place.
    fn in_place(&self, block: &mut [u8], cipher: fn(&KeySchedule, &[u64; 3], &mut [u64; W])) {
        assert_eq!(
            block.len(),
            8 * W,
            "Threefish block must be {} bytes",
            8 * W
        );
        let mut x = words_from_le::<W>(block);
        cipher(&self.ks, &self.ts, &mut x);
        words_to_le(&x, block);
        x.zeroize();
    }
}

impl<const W: usize> Drop for Threefish<W> {
    fn drop(&mut self) {
        self.ks.zeroize();
        self.ts.zeroize();
    }
}

impl<const W: usize> ZeroizeOnDrop for Threefish<W> {}

impl<const W: usize> core::fmt::Debug for Threefish<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Threefish{} {{ .. }}", 64 * W)
    }
}
