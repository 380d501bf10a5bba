//! The output stage as a seekable stream: [`OutputReader`] reads
//! Output(G, No) (spec 3.5.3) of a finished hasher, where No is the
//! configured output length, up to 2^64 - 1 bits.
//!
//! Skein's output is a counter mode: output block `i` is
//! `UBI(G, i as 8 little-endian bytes, T_out)`, so any window costs only its
//! own blocks, and seeking is O(1) whatever the distance. Whole blocks of a
//! read go to the multi-lane kernel in batches (`ubi::output_from`); a read
//! that starts or ends inside a block computes that block once and keeps it
//! for the next read.

use crate::dyn_hasher::DynSkein;
use crate::hasher::Skein;
use crate::ubi::output_from;
use crate::Platform;
use zeroize::Zeroize;

/// The output of a finished Skein hasher as a stream of `ceil(No / 8)` bytes,
/// No being the output length the hasher was configured with (up to
/// 2^64 - 1 bits, about 2^61 bytes). Made by
/// [`Skein::finalize_xof`](crate::Skein::finalize_xof).
///
/// Reading from position 0 gives the bytes of
/// [`finalize_vec`](crate::Skein::finalize_vec), the last one included (when
/// No is not a multiple of 8, its low bits are output bits too, as
/// `finalize` writes them). [`position`](Self::position) and
/// [`set_position`](Self::set_position) are O(1); with `std` it implements
/// [`std::io::Read`] and [`std::io::Seek`]. The final chaining value G (a
/// secret for keyed hashing) is zeroized on drop.
///
/// ```
/// use skein_simd::{Params, Skein512};
/// // A keystream of 2^64 - 1 bits: read a window far into it directly.
/// let params = Params::new().output_bits(u64::MAX).key(b"key").nonce(b"nonce");
/// let mut reader = Skein512::with_params(&params).unwrap().finalize_xof();
/// reader.set_position(1 << 50);
/// let mut window = [0u8; 64];
/// assert_eq!(reader.fill(&mut window), 64);
/// assert_eq!(reader.position(), (1 << 50) + 64);
///
/// // A short output reads exactly what finalize writes, then 0 bytes.
/// let mut h = Skein512::new(200);
/// h.update(b"abc");
/// let mut reader = h.finalize_xof();
/// let mut out = [0u8; 30];
/// assert_eq!(reader.fill(&mut out), 25);
/// assert_eq!(reader.fill(&mut out), 0);
/// assert_eq!(&out[..25], &Skein512::hash_vec(200, b"abc")[..]);
/// ```
#[derive(Clone)]
pub struct OutputReader<const W: usize> {
    platform: Platform,
    g: [u64; W],
    len: u64,
    pos: u64,
    /// The counter of the block in `block`, once a read began or ended
    /// inside a block.
    cached: Option<u64>,
    block: [u8; 128],
}

impl<const W: usize> Skein<W> {
    /// Finish and return the output as a seekable stream of
    /// `ceil(output_bits / 8)` bytes (see [`OutputReader`]).
    ///
    /// ```
    /// let mut h = skein_simd::Skein256::new(1 << 40);
    /// h.update(b"abc");
    /// let reader = h.finalize_xof();
    /// assert_eq!(reader.len(), 1 << 37);
    /// ```
    pub fn finalize_xof(mut self) -> OutputReader<W> {
        let g = self.message_chain();
        OutputReader::new(self.platform(), g, self.output_bits())
    }
}

impl<const W: usize> OutputReader<W> {
    const BLOCK: u64 = 8 * W as u64;

    pub(crate) fn new(platform: Platform, g: [u64; W], output_bits: u64) -> Self {
        OutputReader {
            platform,
            g,
            len: output_bits.div_ceil(8),
            pos: 0,
            cached: None,
            block: [0; 128],
        }
    }

    /// Total output bytes: `ceil(No / 8)` for an output of No bits.
    #[allow(clippy::len_without_is_empty)] // never empty: No >= 1
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The byte position of the next read.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Move to byte `byte` of the output, in O(1). A position past the end is
    /// allowed; reads there return 0 bytes.
    pub fn set_position(&mut self, byte: u64) {
        self.pos = byte;
    }

    /// Read output bytes into `out` from the current position on; returns
    /// how many were written: `out.len()`, or fewer at the end of the output
    /// (0 once it is reached).
    pub fn fill(&mut self, out: &mut [u8]) -> usize {
        let n = (out.len() as u64).min(self.len.saturating_sub(self.pos)) as usize;
        let out = &mut out[..n];
        let block = Self::BLOCK as usize;
        let mut done = 0;
        // A start inside a block, or less than one block: through the cache.
        let offset = (self.pos % Self::BLOCK) as usize;
        if n > 0 && (offset != 0 || n < block) {
            let take = (block - offset).min(n);
            out[..take]
                .copy_from_slice(&self.cached_block(self.pos / Self::BLOCK)[offset..][..take]);
            done = take;
        }
        // Whole blocks straight into `out`, on lanes when there are enough.
        let whole = (n - done) / block * block;
        if whole > 0 {
            let counter = (self.pos + done as u64) / Self::BLOCK;
            output_from(
                &self.platform,
                &self.g,
                counter,
                &mut out[done..done + whole],
            );
            done += whole;
        }
        // A partial last block.
        if done < n {
            let counter = (self.pos + done as u64) / Self::BLOCK;
            let rest = n - done;
            out[done..].copy_from_slice(&self.cached_block(counter)[..rest]);
        }
        self.pos += n as u64;
        n
    }

    /// Output block `counter` as bytes, computed once.
    fn cached_block(&mut self, counter: u64) -> &[u8] {
        if self.cached != Some(counter) {
            output_from(&self.platform, &self.g, counter, &mut self.block[..8 * W]);
            self.cached = Some(counter);
        }
        &self.block[..8 * W]
    }
}

impl<const W: usize> Drop for OutputReader<W> {
    fn drop(&mut self) {
        self.g.zeroize();
        self.block.zeroize();
    }
}

impl<const W: usize> core::fmt::Debug for OutputReader<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never the chaining value.
        f.debug_struct("OutputReader")
            .field("state_bits", &(64 * W))
            .field("len", &self.len)
            .field("position", &self.pos)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "std")]
impl<const W: usize> std::io::Read for OutputReader<W> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Ok(self.fill(buf))
    }
}

/// The new position of a seek from `base` by `offset`, if it is in
/// `0..=u64::MAX`.
#[cfg(feature = "std")]
fn seek_target(base: u64, offset: i64) -> std::io::Result<u64> {
    base.checked_add_signed(offset).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "Skein output: seek before byte 0 or past byte 2^64 - 1",
        )
    })
}

#[cfg(feature = "std")]
impl<const W: usize> std::io::Seek for OutputReader<W> {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        use std::io::SeekFrom;
        let target = match pos {
            SeekFrom::Start(n) => n,
            SeekFrom::End(d) => seek_target(self.len, d)?,
            SeekFrom::Current(d) => seek_target(self.pos, d)?,
        };
        self.set_position(target);
        Ok(target)
    }
    fn stream_position(&mut self) -> std::io::Result<u64> {
        Ok(self.pos)
    }
}

/// The output reader of a [`DynSkein`]: an [`OutputReader`] of any state size.
///
/// ```
/// use std::io::{Read, Seek, SeekFrom};
/// use skein_simd::{DynSkein, Params, StateSize};
/// let h = DynSkein::new(StateSize::S1024, &Params::new().output_bits(8 * 1000)).unwrap();
/// let mut reader = h.finalize_xof();
/// reader.seek(SeekFrom::End(-10)).unwrap();
/// let mut tail = Vec::new();
/// reader.read_to_end(&mut tail).unwrap();
/// assert_eq!(tail.len(), 10);
/// ```
#[derive(Clone, Debug)]
pub enum DynOutputReader {
    /// Skein-256's output.
    S256(OutputReader<4>),
    /// Skein-512's output.
    S512(OutputReader<8>),
    /// Skein-1024's output.
    S1024(OutputReader<16>),
}

macro_rules! each_reader {
    ($self:expr, $r:ident => $e:expr) => {
        crate::dyn_hasher::each_size!(DynOutputReader, $self, $r => $e)
    };
}

impl DynSkein {
    /// Finish and return the output as a seekable stream (see
    /// [`OutputReader`]).
    pub fn finalize_xof(self) -> DynOutputReader {
        crate::dyn_hasher::each_size!(DynSkein, self, h => h.finalize_xof() => DynOutputReader)
    }
}

impl DynOutputReader {
    /// Total output bytes (see [`OutputReader::len`]).
    #[allow(clippy::len_without_is_empty)] // never empty: No >= 1
    pub fn len(&self) -> u64 {
        each_reader!(self, r => r.len())
    }
    /// The byte position of the next read.
    pub fn position(&self) -> u64 {
        each_reader!(self, r => r.position())
    }
    /// Move to byte `byte` of the output, in O(1) (see
    /// [`OutputReader::set_position`]).
    pub fn set_position(&mut self, byte: u64) {
        each_reader!(self, r => r.set_position(byte))
    }
    /// Read output bytes into `out`; returns how many (see
    /// [`OutputReader::fill`]).
    pub fn fill(&mut self, out: &mut [u8]) -> usize {
        each_reader!(self, r => r.fill(out))
    }
}

#[cfg(feature = "std")]
impl std::io::Read for DynOutputReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Ok(self.fill(buf))
    }
}

#[cfg(feature = "std")]
impl std::io::Seek for DynOutputReader {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        each_reader!(self, r => r.seek(pos))
    }
    fn stream_position(&mut self) -> std::io::Result<u64> {
        Ok(self.position())
    }
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    /// Every way of cutting the output reads the bytes `finalize` writes.
    pub fn chunked_reads_match_finalize() {
        let mut h = crate::Skein512::new(8 * 1000 - 3);
        h.update(b"abc");
        let want = h.clone().finalize_vec();
        for chunk in [1, 7, 63, 64, 65, 500, 1000, 2000] {
            let mut reader = h.clone().finalize_xof();
            let mut got = alloc::vec::Vec::new();
            let mut buf = alloc::vec![0u8; chunk];
            loop {
                let n = reader.fill(&mut buf);
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            assert_eq!(got, want, "chunk {chunk}");
        }
    }
}

/// Clears the bits of `digest`'s last byte beyond `output_bits` (spec 3.5.3
/// outputs whole bytes; pyskein and skeinsum show an `output_bits`-bit digest
/// with those bits zero). `digest` is the whole digest, `output_bits.div_ceil(8)`
/// bytes; a shorter or longer slice is left as it is.
///
/// ```
/// let mut d = [0xff, 0xff];
/// skein_simd::mask_unused_bits(&mut d, 13);
/// assert_eq!(d, [0xff, 0xf8]);
/// ```
pub fn mask_unused_bits(digest: &mut [u8], output_bits: u64) {
    let unused = (8 * digest.len() as u64).wrapping_sub(output_bits);
    if let (Some(last), 1..=7) = (digest.last_mut(), unused) {
        *last &= 0xFF << unused;
    }
}
