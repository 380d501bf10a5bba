//! Saved hasher states: a versioned byte format that holds everything needed
//! to continue a hash mid-stream (state size, output length, chaining values,
//! buffered bytes, the bit-pad flag, and a tree hasher's open leaf and
//! levels), and its validating import.
//!
//! Format version 1, all integers little-endian (docs/design.md has the
//! stability rule):
//!
//! ```text
//! magic "SKEIN-ST" (8 bytes), version 1 (u8), state words W (u8: 4, 8, 16),
//! flags (u8: bit 0 bit pad, bit 1 tree; the others 0), output bits (u64 >= 1),
//! start chain (W u64: the chaining value after key and arguments)
//! sequential:  compressed message bytes (u128 < 2^96, whole blocks), UBI
//! tree:        Yl, Yf, Ym (3 u8), closed leaves (u64), bytes in the open
//!              leaf (u64), its UBI, open levels (u8), then per level:
//!              children (u64), closed nodes (u64), children of the open
//!              node (u64), flags (u8: bit 0 held child, bit 1 open node),
//!              the held child (W u64) if any, the open node's UBI if any
//! UBI:         chain (W u64), buffered bytes n (u8 <= 8W), buffer (8W
//!              bytes, zero after n)
//! ```
//!
//! Tweaks are not stored: each is rebuilt from where its UBI stands, so an
//! import cannot hold one that disagrees with the rest. The backend is not
//! part of a state; an import runs on [`Platform::detect`].

use crate::hasher::{Message, Skein, MAX_RESUMED_POSITION};
use crate::spec::T1_FIRST;
use crate::tree::{node_bytes, start_of, tweak_at_position, Level, TreeHasher};
use crate::ubi::Ubi;
use crate::{DynSkein, Platform, TreeParams};
use alloc::boxed::Box;
use alloc::vec::Vec;
use zeroize::{Zeroize, Zeroizing};

/// First bytes of every saved state.
const MAGIC: &[u8; 8] = b"SKEIN-ST";
/// The format version this build writes (and the only one it reads).
const VERSION: u8 = 1;

const FLAG_BIT_PAD: u8 = 1;
const FLAG_TREE: u8 = 2;
const LEVEL_HELD: u8 = 1;
const LEVEL_NODE: u8 = 2;

/// Why a saved state was refused by `import_state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// The bytes do not begin with the magic `SKEIN-ST`: not a saved state.
    NotAState,
    /// A format version this build does not read.
    UnsupportedVersion(u8),
    /// A state of another size than the hasher asked to import it.
    StateSize {
        /// The hasher's state size in bits.
        expected: u64,
        /// The saved state's size in bits.
        found: u64,
    },
    /// The bytes end before the state does.
    Truncated,
    /// Bytes follow the end of the state.
    TrailingBytes,
    /// A field is out of range or disagrees with the others; says which.
    Invalid(&'static str),
}

impl core::fmt::Display for StateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StateError::NotAState => f.write_str("not a saved Skein state (bad magic)"),
            StateError::UnsupportedVersion(v) => write!(
                f,
                "saved Skein state has format version {v}; this build reads version {VERSION}"
            ),
            StateError::StateSize { expected, found } => write!(
                f,
                "saved state is of Skein-{found}, not of Skein-{expected}"
            ),
            StateError::Truncated => f.write_str("saved Skein state is truncated"),
            StateError::TrailingBytes => f.write_str("saved Skein state has trailing bytes"),
            StateError::Invalid(what) => write!(f, "invalid saved Skein state: {what}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for StateError {}

fn invalid(what: &'static str) -> StateError {
    StateError::Invalid(what)
}

/// Bytes of a UBI record.
const fn ubi_bytes<const W: usize>() -> usize {
    16 * W + 1
}

/// The tweak of a message UBI at tree `level` that started at byte `start`
/// and has compressed `compressed` bytes since (96-bit positions).
fn tweak_at(level: u8, start: u128, compressed: u128) -> Option<[u64; 2]> {
    let position = start.checked_add(compressed)?;
    if position > MAX_RESUMED_POSITION {
        return None;
    }
    let mut tweak = tweak_at_position(level, position);
    if compressed > 0 {
        tweak[1] &= !T1_FIRST;
    }
    Some(tweak)
}

/// The 96-bit position of a tweak.
fn position(tweak: [u64; 2]) -> u128 {
    tweak[0] as u128 | ((tweak[1] & 0xFFFF_FFFF) as u128) << 64
}

/// Writes into a buffer sized in advance: a `Vec` that grew would leave
/// copies of the secret bytes behind in freed memory.
struct Writer(Zeroizing<Vec<u8>>);

impl Writer {
    fn with_capacity(n: usize) -> Self {
        Writer(Zeroizing::new(Vec::with_capacity(n)))
    }
    fn bytes(&mut self, b: &[u8]) {
        debug_assert!(self.0.len() + b.len() <= self.0.capacity());
        self.0.extend_from_slice(b);
    }
    fn u8(&mut self, v: u8) {
        self.bytes(&[v]);
    }
    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    fn u128(&mut self, v: u128) {
        self.bytes(&v.to_le_bytes());
    }
    fn words(&mut self, w: &[u64]) {
        for v in w {
            self.u64(*v);
        }
    }
    fn ubi<const W: usize>(&mut self, u: &Ubi<W>) {
        self.words(u.chain());
        let buffered = u.buffered();
        self.u8(buffered.len() as u8);
        let mut block = [0u8; 128];
        block[..buffered.len()].copy_from_slice(buffered);
        self.bytes(&block[..8 * W]);
        block.zeroize();
    }
    fn finish(self) -> Zeroizing<Vec<u8>> {
        debug_assert_eq!(self.0.len(), self.0.capacity());
        self.0
    }
}

/// Reads fields off the front of a saved state.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], StateError> {
        if self.0.len() < n {
            return Err(StateError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, StateError> {
        Ok(self.take(1)?[0])
    }
    fn u64(&mut self) -> Result<u64, StateError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    fn u128(&mut self) -> Result<u128, StateError> {
        Ok(u128::from_le_bytes(self.take(16)?.try_into().unwrap()))
    }
    fn words<const W: usize>(&mut self) -> Result<[u64; W], StateError> {
        let mut w = [0u64; W];
        for v in w.iter_mut() {
            *v = self.u64()?;
        }
        Ok(w)
    }
    /// A UBI record: chain and buffered bytes (checked: at most a block,
    /// zeros after them).
    fn ubi<const W: usize>(&mut self) -> Result<([u64; W], &'a [u8]), StateError> {
        let chain = self.words::<W>()?;
        let n = self.u8()? as usize;
        let block = self.take(8 * W)?;
        if n > 8 * W {
            return Err(invalid("more buffered bytes than a block"));
        }
        if block[n..].iter().any(|&b| b != 0) {
            return Err(invalid("nonzero bytes after the buffered ones"));
        }
        Ok((chain, &block[..n]))
    }
}

/// A UBI rebuilt from its record, having compressed `compressed` bytes since
/// it started at `start` with chaining value `initial`. The buffer rule of
/// [`Ubi`]: once anything is compressed, the last block (1 to 8W bytes)
/// stays buffered.
fn rebuild_ubi<const W: usize>(
    (chain, buffered): ([u64; W], &[u8]),
    initial: &[u64; W],
    level: u8,
    start: u128,
    compressed: u128,
) -> Result<Ubi<W>, StateError> {
    if !compressed.is_multiple_of((8 * W) as u128) {
        return Err(invalid("compressed bytes not a whole number of blocks"));
    }
    if compressed > 0 && buffered.is_empty() {
        return Err(invalid("compressed blocks but an empty buffer"));
    }
    if compressed == 0 && chain != *initial {
        return Err(invalid("chaining value of a UBI with nothing compressed"));
    }
    let tweak = tweak_at(level, start, compressed)
        .ok_or(invalid("message position within 2^64 bytes of 2^96"))?;
    Ok(Ubi::from_parts(chain, tweak, buffered))
}

fn state_size_of(words: u8) -> Result<u64, StateError> {
    match words {
        4 | 8 | 16 => Ok(64 * words as u64),
        _ => Err(invalid("state words not 4, 8 or 16")),
    }
}

impl<const W: usize> Skein<W> {
    /// The hasher's state as bytes, to continue it later with
    /// [`import_state`](Self::import_state), in this process or another:
    /// state size, output length, chaining values, buffered bytes, bit-pad
    /// flag, and a tree hasher's open leaf and levels (the format is in
    /// docs/design.md; version 1 is stable). The backend is not saved.
    ///
    /// The bytes hold key-derived chaining values and message bytes: treat
    /// them as the key. They come in a [`Zeroizing`] buffer, wiped on drop.
    ///
    /// ```
    /// use skein_simd::{Params, Skein512, TreeParams};
    /// let params = Params::new().key(b"key").tree(TreeParams::new(1, 1, 8).unwrap());
    /// let mut h = Skein512::with_params(&params).unwrap();
    /// h.update(&[7u8; 1000]);
    /// let saved = h.export_state();
    /// let mut resumed = Skein512::import_state(&saved).unwrap();
    /// h.update(b"tail");
    /// resumed.update(b"tail");
    /// assert_eq!(resumed.finalize_vec(), h.finalize_vec());
    /// ```
    pub fn export_state(&self) -> Zeroizing<Vec<u8>> {
        let head = MAGIC.len() + 3 + 8 + 8 * W;
        let mut flags = if self.bit_pad { FLAG_BIT_PAD } else { 0 };
        let w = match &self.msg {
            Message::Sequential(u) => {
                let mut w = Writer::with_capacity(head + 16 + ubi_bytes::<W>());
                self.write_head(&mut w, flags);
                w.u128(position(u.tweak()));
                w.ubi(u);
                w
            }
            Message::Tree(t) => {
                flags |= FLAG_TREE;
                let t = t.settled(&self.platform, self.bit_pad);
                let levels: usize = t
                    .levels
                    .iter()
                    .map(|l| {
                        25 + l.held.map_or(0, |_| 8 * W)
                            + l.node.as_ref().map_or(0, |_| ubi_bytes::<W>())
                    })
                    .sum();
                let size = head + 3 + 16 + ubi_bytes::<W>() + 1 + levels;
                let mut w = Writer::with_capacity(size);
                self.write_head(&mut w, flags);
                let p = t.params();
                w.bytes(&[p.leaf_log2(), p.fan_out_log2(), p.max_height()]);
                w.u64(t.leaf_index);
                w.u64(t.leaf_fill);
                w.ubi(&t.leaf);
                w.u8(t.levels.len() as u8);
                for l in &t.levels {
                    w.u64(l.children);
                    w.u64(l.node_index);
                    w.u64(l.node_children);
                    let held = if l.held.is_some() { LEVEL_HELD } else { 0 };
                    let node = if l.node.is_some() { LEVEL_NODE } else { 0 };
                    w.u8(held | node);
                    if let Some(h) = &l.held {
                        w.words(h);
                    }
                    if let Some(n) = &l.node {
                        w.ubi(n);
                    }
                }
                w
            }
        };
        w.finish()
    }

    fn write_head(&self, w: &mut Writer, flags: u8) {
        w.bytes(MAGIC);
        w.u8(VERSION);
        w.u8(W as u8);
        w.u8(flags);
        w.u64(self.output_bits);
        w.words(&self.start);
    }

    /// A hasher continued from the bytes of
    /// [`export_state`](Self::export_state), running on the backends
    /// [`Platform::detect`] picks. The bytes are checked: a state of another
    /// size, a bad magic or version, wrong lengths, flags, buffer counts or
    /// tree level counts give a [`StateError`] (never a panic; memory is
    /// bounded by the length of `state`).
    ///
    /// ```
    /// use skein_simd::{Skein256, Skein512, StateError};
    /// let saved = Skein512::new(512).export_state();
    /// assert!(matches!(Skein256::import_state(&saved), Err(StateError::StateSize { .. })));
    /// assert_eq!(Skein512::import_state(&saved[..10]).unwrap_err(), StateError::Truncated);
    /// ```
    pub fn import_state(state: &[u8]) -> Result<Self, StateError> {
        let mut r = Reader(state);
        let (words, flags) = read_head(&mut r)?;
        if words as usize != W {
            return Err(StateError::StateSize {
                expected: 64 * W as u64,
                found: state_size_of(words)?,
            });
        }
        let bit_pad = flags & FLAG_BIT_PAD != 0;
        let output_bits = r.u64()?;
        if output_bits == 0 {
            return Err(invalid("output length of 0 bits"));
        }
        let start = Zeroizing::new(r.words::<W>()?);
        let msg = if flags & FLAG_TREE == 0 {
            let compressed = r.u128()?;
            let record = r.ubi::<W>()?;
            let absorbed = compressed > 0 || !record.1.is_empty();
            let u = rebuild_ubi(record, &start, 0, 0, compressed)?;
            if bit_pad && !absorbed {
                return Err(invalid("bit-pad flag on an empty message"));
            }
            Message::Sequential(u)
        } else {
            let t = read_tree::<W>(&mut r, &start, bit_pad)?;
            Message::Tree(Box::new(t))
        };
        if !r.0.is_empty() {
            return Err(StateError::TrailingBytes);
        }
        Ok(Skein::from_parts(
            Platform::detect(),
            output_bits,
            *start,
            msg,
            bit_pad,
        ))
    }
}

/// Magic, version, state words (not checked here) and flags (checked).
fn read_head(r: &mut Reader<'_>) -> Result<(u8, u8), StateError> {
    if r.0.len() < MAGIC.len() || &r.0[..MAGIC.len()] != MAGIC {
        return Err(if MAGIC.starts_with(r.0) {
            StateError::Truncated
        } else {
            StateError::NotAState
        });
    }
    r.take(MAGIC.len())?;
    let version = r.u8()?;
    if version != VERSION {
        return Err(StateError::UnsupportedVersion(version));
    }
    let words = r.u8()?;
    let flags = r.u8()?;
    if flags & !(FLAG_BIT_PAD | FLAG_TREE) != 0 {
        return Err(invalid("unknown flag bits"));
    }
    Ok((words, flags))
}

/// The tree part of a saved state, checked against the tree parameters:
/// level count, children per level and per node, held children, and each
/// level's children against the nodes closed below it.
fn read_tree<const W: usize>(
    r: &mut Reader<'_>,
    key: &[u64; W],
    bit_pad: bool,
) -> Result<TreeHasher<W>, StateError> {
    let [leaf, fan_out, height] = [r.u8()?, r.u8()?, r.u8()?];
    let params = TreeParams::new(leaf, fan_out, height)
        .map_err(|_| invalid("tree parameters outside Yl >= 1, Yf >= 1, 2 <= Ym"))?;
    let mut t = TreeHasher::new(*key, params);
    let block = 8 * W as u64;
    let leaf_index = r.u64()?;
    let leaf_fill = r.u64()?;
    if leaf_fill >= t.leaf_bytes {
        return Err(invalid("open leaf holds a whole leaf or more"));
    }
    let record = r.ubi::<W>()?;
    let buffered = record.1.len() as u64;
    if buffered > leaf_fill {
        return Err(invalid("more buffered bytes than the open leaf holds"));
    }
    // Counters in range: 2^64 more bytes (more than any input) close at
    // most 2^64 / leaf bytes + 1 leaves, and the last partial one another.
    leaf_index
        .checked_add(u64::MAX / t.leaf_bytes + 2)
        .ok_or(invalid("too many closed leaves to count 2^64 more bytes"))?;
    // Positions of 96 bits: past 2^64 they carry into the tweak's high word.
    let leaf_start = start_of(leaf_index, t.leaf_bytes as u128);
    t.leaf = rebuild_ubi(record, key, 1, leaf_start, (leaf_fill - buffered) as u128)?;
    t.leaf_fill = leaf_fill;
    t.leaf_index = leaf_index;
    if bit_pad && leaf_index == 0 && leaf_fill == 0 {
        return Err(invalid("bit-pad flag on an empty message"));
    }

    let count = r.u8()? as usize;
    if count > height as usize - 1 {
        return Err(invalid("more open levels than the tree height allows"));
    }
    let fan_out = t.node_children as u128;
    let node_bytes = node_bytes(block, params.fan_out_log2());
    let mut below = leaf_index;
    let mut levels = Vec::with_capacity(count);
    for index in 0..count {
        let tree_level = (index + 2) as u8;
        let top = tree_level == height;
        let mut l = Level::new();
        l.children = r.u64()?;
        l.node_index = r.u64()?;
        l.node_children = r.u64()?;
        let flags = r.u8()?;
        if flags & !(LEVEL_HELD | LEVEL_NODE) != 0 {
            return Err(invalid("unknown level flag bits"));
        }
        if l.children != below {
            return Err(invalid(
                "a level's children disagree with the nodes closed below it",
            ));
        }
        if l.children == 0 {
            return Err(invalid("an open level without children"));
        }
        let held = flags & LEVEL_HELD != 0;
        if held != (l.children == 1) {
            return Err(invalid(
                "a held child where a level has not exactly one child",
            ));
        }
        if held {
            l.held = Some(r.words::<W>()?);
        }
        if flags & LEVEL_NODE != 0 {
            if held {
                return Err(invalid("a level with both a held child and an open node"));
            }
            if l.node_children == 0 || (!top && l.node_children as u128 >= fan_out) {
                return Err(invalid("children of an open node out of range"));
            }
            let start = if top {
                0
            } else {
                start_of(l.node_index, node_bytes)
            };
            let record = r.ubi::<W>()?;
            if record.1.len() as u64 != block {
                return Err(invalid("an open node's buffer is not its last child"));
            }
            let compressed = (l.node_children as u128 - 1) * block as u128;
            l.node = Some(rebuild_ubi(record, key, tree_level, start, compressed)?);
        } else if l.node_children != 0 {
            return Err(invalid("children of a node that is not open"));
        }
        if top && l.node_index != 0 {
            return Err(invalid("closed nodes at the top level"));
        }
        let counted = l.node_index as u128 * fan_out + l.node_children as u128 + held as u128;
        if counted != l.children as u128 {
            return Err(invalid("a level's children disagree with its nodes"));
        }
        below = l.node_index;
        levels.push(l);
    }
    if below != 0 {
        return Err(invalid("closed nodes at the last open level"));
    }
    t.levels = levels;
    Ok(t)
}

impl DynSkein {
    /// The hasher's state as bytes (see [`Skein::export_state`]); the state
    /// size is part of them.
    pub fn export_state(&self) -> Zeroizing<Vec<u8>> {
        match self {
            DynSkein::S256(h) => h.export_state(),
            DynSkein::S512(h) => h.export_state(),
            DynSkein::S1024(h) => h.export_state(),
        }
    }

    /// A hasher of the state size the saved state says, continued from it
    /// (see [`Skein::import_state`]).
    ///
    /// ```
    /// use skein_simd::{DynSkein, Params, StateSize};
    /// let mut h = DynSkein::new(StateSize::S1024, &Params::new().output_bits(256)).unwrap();
    /// h.update(b"abc");
    /// let resumed = DynSkein::import_state(&h.export_state()).unwrap();
    /// assert_eq!(resumed.finalize_vec(), h.finalize_vec());
    /// ```
    pub fn import_state(state: &[u8]) -> Result<DynSkein, StateError> {
        let mut r = Reader(state);
        let (words, _) = read_head(&mut r)?;
        Ok(match state_size_of(words)? {
            256 => DynSkein::S256(Skein::import_state(state)?),
            512 => DynSkein::S512(Skein::import_state(state)?),
            _ => DynSkein::S1024(Skein::import_state(state)?),
        })
    }
}
