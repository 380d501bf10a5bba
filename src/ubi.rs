//! Unique Block Iteration (spec 3.4): the tweak, block buffering, and the
//! configuration and output stages. UBI knows nothing of instruction sets: it
//! hands whole runs of blocks to [`Platform::compress`].

use crate::consts::{types, T1_BIT_PAD, T1_FINAL, T1_FIRST, T1_LEVEL_SHIFT, T1_TYPE_SHIFT};
use crate::threefish::{encrypt_const, words_to_le};
use crate::Platform;
use zeroize::Zeroize;

/// Largest block: Skein-1024's 128 bytes.
const MAX_BLOCK: usize = 128;

/// Tweak of the first block of a UBI of `ubi_type` at tree `level`, starting at
/// byte `position`.
pub(crate) const fn start_tweak(ubi_type: u64, level: u8, position: u64) -> [u64; 2] {
    [position, T1_FIRST | (ubi_type << T1_TYPE_SHIFT) | ((level as u64) << T1_LEVEL_SHIFT)]
}

/// One UBI computation in progress. The last block (full or not) always stays
/// buffered, since only `finish` knows it is final.
#[derive(Clone)]
pub(crate) struct Ubi<const W: usize> {
    chain: [u64; W],
    tweak: [u64; 2],
    buf: [u8; MAX_BLOCK],
    buf_len: usize,
}

impl<const W: usize> Ubi<W> {
    const BLOCK: usize = 8 * W;

    pub(crate) fn new(chain: [u64; W], ubi_type: u64, level: u8, position: u64) -> Self {
        Ubi { chain, tweak: start_tweak(ubi_type, level, position), buf: [0; MAX_BLOCK], buf_len: 0 }
    }

    pub(crate) fn update(&mut self, platform: &Platform, mut data: &[u8]) {
        let block = Self::BLOCK;
        if self.buf_len + data.len() > block {
            if self.buf_len > 0 {
                let fill = block - self.buf_len;
                self.buf[self.buf_len..block].copy_from_slice(&data[..fill]);
                data = &data[fill..];
                platform.compress::<W>(&mut self.chain, &mut self.tweak, &self.buf[..block], block as u64);
                self.buf_len = 0;
            }
            if data.len() > block {
                let whole = (data.len() - 1) / block * block;
                platform.compress::<W>(&mut self.chain, &mut self.tweak, &data[..whole], block as u64);
                data = &data[whole..];
            }
        }
        self.buf[self.buf_len..self.buf_len + data.len()].copy_from_slice(data);
        self.buf_len += data.len();
    }

    /// Process the buffered last block with the final flag (and the bit-pad
    /// flag when the message ended inside a byte); return the chaining value.
    pub(crate) fn finish(&mut self, platform: &Platform, bit_pad: bool) -> [u64; W] {
        let block = Self::BLOCK;
        self.tweak[1] |= T1_FINAL | if bit_pad { T1_BIT_PAD } else { 0 };
        self.buf[self.buf_len..block].fill(0);
        platform.compress::<W>(&mut self.chain, &mut self.tweak, &self.buf[..block], self.buf_len as u64);
        self.buf_len = 0;
        self.chain
    }
}

impl<const W: usize> Drop for Ubi<W> {
    fn drop(&mut self) {
        self.chain.zeroize();
        self.buf.zeroize();
    }
}

/// A whole UBI over `data` in one call.
pub(crate) fn ubi<const W: usize>(platform: &Platform, chain: [u64; W], ubi_type: u64, data: &[u8]) -> [u64; W] {
    let mut u = Ubi::new(chain, ubi_type, 0, 0);
    u.update(platform, data);
    u.finish(platform, false)
}

/// Words of the 32-byte configuration string (spec 3.5.2), zero-padded to a
/// block: schema "SHA3", version 1, output length in bits, tree parameters.
pub(crate) const fn config_words<const W: usize>(output_bits: u64, leaf: u8, fan_out: u8, max_height: u8) -> [u64; W] {
    let mut c = [0u64; W];
    c[0] = 0x0000_0001_3341_4853; // "SHA3" then version 1, little-endian
    c[1] = output_bits;
    c[2] = leaf as u64 | (fan_out as u64) << 8 | (max_height as u64) << 16;
    c
}

/// Chaining value after the configuration UBI, starting from `chain` (zero
/// when there is no key); computable at compile time.
pub(crate) const fn config_chain_from<const W: usize>(
    chain: &[u64; W],
    output_bits: u64,
    leaf: u8,
    fan_out: u8,
    max_height: u8,
) -> [u64; W] {
    let block = config_words::<W>(output_bits, leaf, fan_out, max_height);
    let tweak = [32, T1_FIRST | T1_FINAL | (types::CFG << T1_TYPE_SHIFT)];
    let mut x = encrypt_const::<W>(chain, &tweak, &block);
    let mut i = 0;
    while i < W {
        x[i] ^= block[i];
        i += 1;
    }
    x
}

/// Chaining value after configuration for an unkeyed hash.
pub(crate) const fn config_chain<const W: usize>(output_bits: u64, leaf: u8, fan_out: u8, max_height: u8) -> [u64; W] {
    config_chain_from::<W>(&[0; W], output_bits, leaf, fan_out, max_height)
}

/// The output stage (spec 3.5.3): block `i` of the result is
/// `UBI(G, i as 8 little-endian bytes, T_out)`, truncated to `out.len()`.
pub(crate) fn output<const W: usize>(platform: &Platform, g: &[u64; W], out: &mut [u8]) {
    let mut block = [0u8; MAX_BLOCK];
    let mut bytes = [0u8; MAX_BLOCK];
    for (counter, chunk) in out.chunks_mut(8 * W).enumerate() {
        block[..8].copy_from_slice(&(counter as u64).to_le_bytes());
        let mut chain = *g;
        let mut tweak = [0, T1_FIRST | T1_FINAL | (types::OUT << T1_TYPE_SHIFT)];
        platform.compress::<W>(&mut chain, &mut tweak, &block[..8 * W], 8);
        words_to_le(&chain, &mut bytes[..8 * W]);
        chunk.copy_from_slice(&bytes[..chunk.len()]);
        chain.zeroize();
    }
    bytes.zeroize();
}
