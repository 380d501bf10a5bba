//! Subtrees of one object's tree (spec 3.5.6), hashed apart and merged: the
//! digest of an object too large for one machine, each machine hashing a
//! byte range, equal to what one tree hasher prints.
//!
//! Every leaf and node of Skein's tree is a UBI keyed only by the chain
//! after the configuration, its level and its position. So the nodes of
//! one level can be computed anywhere, given their bytes; the levels above
//! need only their outputs. [`ObjectTree`] describes the tree of an object
//! of a known length, [`SubtreeHasher`] hashes a run of whole subtrees of
//! one level from their bytes (on lanes and threads, as the tree hasher
//! does), [`Subtrees`] carries their chaining values (as bytes too, to
//! send them), and [`ObjectTree::root`] builds the levels above into the
//! output.
//!
//! Sharp tool: the values are checked to fit the tree (level, position,
//! count), never to come from the object's bytes; a value from another
//! object, key or parameter set gives a wrong digest, not an error.
//! Objects are whole bytes (no final partial byte, as `update_bits` gives).

use super::{node_bytes, start_of, tweak_at_position, ubis_into, TreeHasher};
use crate::output::OutputReader;
use crate::params::argument_chain;
use crate::schedule::{UbiJob, PARALLEL_MIN_BYTES};
use crate::threefish::words_to_le;
use crate::{Error, Params, Platform, TreeParams};
use alloc::vec::Vec;
use core::ops::Range;
use zeroize::Zeroize;

pub(crate) mod proof;

/// Levels below the root are split so that each part gets at least this
/// many nodes: a part's size is then within a sixteenth of the object's
/// share, at the cost of this many chaining values a part to send.
const NODES_PER_PART: u64 = 8;

/// The tree of one object: its parameters (key, personalization, tree
/// shape, output length and the rest of [`Params`]) and its length in
/// bytes. The starting point of every subtree computation; make the same
/// one on every machine (from the same parameters and length).
///
/// The chain after the configuration it holds (derived from the key, when
/// there is one) is zeroized on drop; `Debug` does not show it.
///
/// ```
/// use skein_simd::hazmat::ObjectTree;
/// use skein_simd::{Params, Skein512, TreeParams};
///
/// let object: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
/// let params = Params::new().key(b"key").tree(TreeParams::new(2, 2, 255).unwrap());
/// let tree = ObjectTree::<8>::new(&params, object.len() as u64).unwrap();
///
/// // Three parts, each hashed on its own (here in turn; anywhere in practice).
/// let parts: Vec<_> = tree
///     .split(3)
///     .iter()
///     .map(|range| {
///         let bytes = range.bytes();
///         let mut hasher = tree.hasher(range).unwrap();
///         hasher.update(&object[bytes.start as usize..bytes.end as usize]);
///         hasher.finish().unwrap()
///     })
///     .collect();
///
/// let mut digest = [0u8; 64];
/// tree.root(&parts).unwrap().fill(&mut digest);
///
/// let mut one = Skein512::with_params(&params).unwrap();
/// one.update(&object);
/// assert_eq!(digest.to_vec(), one.finalize_vec());
/// ```
#[derive(Clone)]
pub struct ObjectTree<const W: usize> {
    platform: Platform,
    key: [u64; W],
    output_bits: u64,
    tree: TreeParams,
    len: u64,
    root_level: u8,
}

/// A run of consecutive nodes of one level of an [`ObjectTree`]: the
/// subtrees under them, and so a range of the object's bytes. Made by
/// [`ObjectTree::split`] or [`ObjectTree::range`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubtreeRange {
    level: u8,
    first: u64,
    count: u64,
    bytes: (u64, u64),
}

/// The chaining values of a run of consecutive nodes of one level: what a
/// [`SubtreeHasher`] gives, what [`ObjectTree::parents`] and
/// [`ObjectTree::root`] take. Zeroized on drop (in a keyed tree they are
/// keyed values).
#[derive(Clone)]
pub struct Subtrees<const W: usize> {
    level: u8,
    first: u64,
    chains: Vec<[u64; W]>,
}

/// Hashes the bytes of one [`SubtreeRange`], in order and in pieces of any
/// size, into its [`Subtrees`]. Made by [`ObjectTree::hasher`].
#[derive(Clone)]
pub struct SubtreeHasher<const W: usize> {
    platform: Platform,
    range: SubtreeRange,
    received: u64,
    /// Whether the range is the root, the whole object: then the tree's
    /// own ending (a lone child is the result; the top level takes all).
    whole: bool,
    tree: TreeHasher<W>,
}

impl<const W: usize> ObjectTree<W> {
    /// The tree of an object of `len` bytes hashed with `params`, which
    /// must have tree parameters ([`Params::tree`]), else
    /// [`Error::NoTree`].
    pub fn new(params: &Params<'_>, len: u64) -> Result<Self, Error> {
        const { assert!(W == 4 || W == 8 || W == 16, "Skein has 4, 8 or 16 words") };
        let tree = params.tree.ok_or(Error::NoTree)?;
        let (output_bits, platform) = params.output_and_platform::<W>()?;
        let key = argument_chain::<W>(&platform, params, output_bits);
        let mut object = ObjectTree {
            platform,
            key,
            output_bits,
            tree,
            len,
            root_level: 1,
        };
        while object.nodes_at(object.root_level) > 1 {
            object.root_level += 1;
        }
        Ok(object)
    }

    /// The object's length in bytes.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The output length in bits.
    pub fn output_bits(&self) -> u64 {
        self.output_bits
    }

    /// The tree parameters.
    pub fn tree_params(&self) -> TreeParams {
        self.tree
    }

    /// The level of the root, the lowest level with one node: 1 when the
    /// object fits in one leaf, at most the tree's maximum height `Ym`.
    pub fn root_level(&self) -> u8 {
        self.root_level
    }

    /// Message bytes under one node of `level` (1: a leaf, `Nb * 2^Yl`
    /// bytes; each level above `2^Yf` times more), saturating at
    /// `u64::MAX`. The root covers the whole object whatever this says.
    pub fn node_span(&self, level: u8) -> u64 {
        let log2 = u32::from(self.tree.leaf_log2())
            + u32::from(level.max(1) - 1) * u32::from(self.tree.fan_out_log2());
        let block = 8 * W as u64;
        if log2 > block.leading_zeros() {
            u64::MAX
        } else {
            block << log2
        }
    }

    /// Nodes of `level` in this object's tree: 1 at the root, 0 above it.
    /// Level 1 has one leaf for every `node_span(1)` bytes begun, one for
    /// the empty object; each level above one node per `2^Yf` nodes
    /// below it, except that the level `Ym` is one node.
    pub fn nodes_at(&self, level: u8) -> u64 {
        let mut nodes = self.len.div_ceil(self.node_span(1)).max(1);
        for l in 2..=level {
            if nodes == 1 {
                return 0;
            }
            nodes = if l == self.tree.max_height() {
                1
            } else {
                let fan_out = 1u64.checked_shl(self.tree.fan_out_log2().into());
                fan_out.map_or(1, |f| nodes.div_ceil(f))
            };
        }
        nodes
    }

    /// The nodes `first .. first + count` of `level`, if the tree has
    /// them (at the root level: the root, `first` 0 and `count` 1).
    pub fn range(&self, level: u8, first: u64, count: u64) -> Result<SubtreeRange, Error> {
        let nodes = self.nodes_at(level);
        let fits = level >= 1 && count >= 1 && first.checked_add(count).is_some_and(|e| e <= nodes);
        if !fits {
            return Err(Error::SubtreeMismatch);
        }
        let bytes = if level == self.root_level {
            (0, self.len)
        } else {
            let span = self.node_span(level);
            let at = |node: u64| node.saturating_mul(span).min(self.len);
            (at(first), at(first + count))
        };
        Ok(SubtreeRange {
            level,
            first,
            count,
            bytes,
        })
    }

    /// The object split into at most `parts` consecutive ranges of about
    /// equal size (at least one; fewer parts when the object has fewer
    /// nodes), each a run of whole subtrees of one level: the highest
    /// level below the root with at least eight nodes a part, else the
    /// leaves. An object of one leaf is one range, the root.
    pub fn split(&self, parts: usize) -> Vec<SubtreeRange> {
        let parts = parts.max(1) as u64;
        if self.root_level == 1 {
            return alloc::vec![self.range(1, 0, 1).expect("the root")];
        }
        let level = (1..self.root_level)
            .rev()
            .find(|&l| self.nodes_at(l) / NODES_PER_PART >= parts)
            .unwrap_or(1);
        let nodes = self.nodes_at(level);
        let parts = parts.min(nodes);
        let span = u128::from(self.node_span(level));
        let mut ranges = Vec::with_capacity(parts as usize);
        let mut first = 0;
        for i in 1..=parts {
            // The node boundary nearest to the i-th share of the bytes,
            // leaving at least one node to each part.
            let share = u128::from(self.len) * u128::from(i) / u128::from(parts);
            let nearest = ((share + span / 2) / span) as u64;
            let end = if i == parts {
                nodes
            } else {
                nearest.clamp(first + 1, nodes - (parts - i))
            };
            ranges.push(
                self.range(level, first, end - first)
                    .expect("inside the tree"),
            );
            first = end;
        }
        ranges
    }

    /// A hasher of the bytes of `range`.
    pub fn hasher(&self, range: &SubtreeRange) -> Result<SubtreeHasher<W>, Error> {
        if self.range(range.level, range.first, range.count)? != *range {
            return Err(Error::SubtreeMismatch);
        }
        let whole = range.level == self.root_level;
        let tree = if whole {
            TreeHasher::new(self.key, self.tree)
        } else {
            TreeHasher::for_subtrees(self.key, self.tree, range.level, range.first)
        };
        Ok(SubtreeHasher {
            platform: self.platform,
            range: *range,
            received: 0,
            whole,
            tree,
        })
    }

    /// The parents of `children` one level up: `children` must begin at
    /// a parent's first child and end at a parent's last one (or at the
    /// level's last node). At the root level, `children` must be the whole
    /// level below it, and the result is the root's chaining value.
    pub fn parents(&self, children: &Subtrees<W>) -> Result<Subtrees<W>, Error> {
        let level = children.level;
        let up = level.checked_add(1).ok_or(Error::SubtreeMismatch)?;
        let nodes = self.nodes_at(level);
        let end = children.first + children.chains.len() as u64;
        if up > self.root_level || children.chains.is_empty() || end > nodes {
            return Err(Error::SubtreeMismatch);
        }
        // The root takes every node below it (at the top level `Ym`, more
        // than the fan-out); any other node `2^Yf` of them.
        let fan_out = if up == self.root_level {
            nodes
        } else {
            1u64.checked_shl(self.tree.fan_out_log2().into())
                .unwrap_or(u64::MAX)
        };
        if !children.first.is_multiple_of(fan_out) || (!end.is_multiple_of(fan_out) && end != nodes)
        {
            return Err(Error::SubtreeMismatch);
        }
        let child_bytes = 8 * W;
        let mut bytes = alloc::vec![0u8; children.chains.len() * child_bytes];
        for (chain, b) in children
            .chains
            .iter()
            .zip(bytes.chunks_exact_mut(child_bytes))
        {
            words_to_le(chain, b);
        }
        let node_len = usize::try_from(fan_out)
            .unwrap_or(usize::MAX)
            .saturating_mul(child_bytes);
        let first = children.first / fan_out;
        let mut chains = alloc::vec![[0u64; W]; bytes.len().div_ceil(node_len)];
        let node_position = node_bytes(child_bytes as u64, self.tree.fan_out_log2());
        let key = &self.key;
        let jobs = |i: usize| UbiJob {
            chain: key,
            tweak: tweak_at_position(up, start_of(first + i as u64, node_position)),
            data: &bytes[i * node_len..bytes.len().min((i + 1) * node_len)],
            bit_pad: false,
        };
        let parallel = bytes.len() >= PARALLEL_MIN_BYTES;
        ubis_into(self.platform.lane_choice(), jobs, &mut chains, parallel);
        bytes.zeroize();
        Ok(Subtrees {
            level: up,
            first,
            chains,
        })
    }

    /// The output of the whole tree from `parts`: consecutive runs of one
    /// level that together hold all of its nodes, in order. Read the
    /// digest (the output length of the parameters) from the reader's
    /// start, or any window of a longer output.
    pub fn root(&self, parts: &[Subtrees<W>]) -> Result<OutputReader<W>, Error> {
        let mut level = Subtrees::join(parts)?;
        if level.first != 0 || level.chains.len() as u64 != self.nodes_at(level.level) {
            return Err(Error::SubtreeMismatch);
        }
        while level.level < self.root_level {
            level = self.parents(&level)?;
        }
        Ok(OutputReader::new(
            self.platform,
            level.chains[0],
            self.output_bits,
        ))
    }
}

impl<const W: usize> core::fmt::Debug for ObjectTree<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ObjectTree")
            .field("len", &self.len)
            .field("tree", &self.tree)
            .field("output_bits", &self.output_bits)
            .field("root_level", &self.root_level)
            .finish_non_exhaustive()
    }
}

impl<const W: usize> Drop for ObjectTree<W> {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl SubtreeRange {
    /// The level of the nodes (1: leaves).
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The index of the first node in its level.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// How many nodes.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The object's bytes under them.
    pub fn bytes(&self) -> Range<u64> {
        self.bytes.0..self.bytes.1
    }
}

impl<const W: usize> SubtreeHasher<W> {
    /// Absorb the next bytes of the range.
    ///
    /// # Panics
    /// If the bytes so far are more than the range has.
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        let range = self.range.bytes();
        let received = self.received.checked_add(data.len() as u64);
        assert!(
            received.is_some_and(|r| r <= range.end - range.start),
            "SubtreeHasher: more bytes than the range {range:?} has"
        );
        self.received += data.len() as u64;
        self.tree.update(&self.platform, data, false);
        self
    }

    /// The range's chaining values, once all its bytes went in; else
    /// [`Error::SubtreeMismatch`].
    pub fn finish(mut self) -> Result<Subtrees<W>, Error> {
        let range = self.range.bytes();
        if self.received != range.end - range.start {
            return Err(Error::SubtreeMismatch);
        }
        let chains = if self.whole {
            alloc::vec![self.tree.finish(&self.platform, false)]
        } else {
            self.tree.finish_subtrees(&self.platform)
        };
        debug_assert_eq!(chains.len() as u64, self.range.count);
        Ok(Subtrees {
            level: self.range.level,
            first: self.range.first,
            chains,
        })
    }
}

impl<const W: usize> Subtrees<W> {
    /// Bytes of [`to_bytes`](Self::to_bytes) before the chaining values.
    const HEADER: usize = 1 + 1 + 8;

    /// The level of the nodes (1: leaves).
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The index of the first node in its level.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// How many nodes.
    pub fn count(&self) -> u64 {
        self.chains.len() as u64
    }

    /// Consecutive runs of one level as one run.
    pub fn join(parts: &[Subtrees<W>]) -> Result<Subtrees<W>, Error> {
        let (head, rest) = parts.split_first().ok_or(Error::SubtreeMismatch)?;
        let mut joined = head.clone();
        for part in rest {
            if part.level != joined.level || part.first != joined.first + joined.count() {
                return Err(Error::SubtreeMismatch);
            }
            joined.chains.extend_from_slice(&part.chains);
        }
        Ok(joined)
    }

    /// A self-describing byte string, to send to another process or
    /// machine: the state size in bytes / 8 (`W`), the level, the first
    /// index (8 bytes, little-endian) and the chaining values (`8 * W`
    /// bytes each, as the spec writes them).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::HEADER + self.chains.len() * 8 * W);
        out.push(W as u8);
        out.push(self.level);
        out.extend_from_slice(&self.first.to_le_bytes());
        for chain in &self.chains {
            out.extend(chain.iter().flat_map(|w| w.to_le_bytes()));
        }
        out
    }

    /// The values [`to_bytes`](Self::to_bytes) wrote, if `bytes` is such a
    /// string for this state size (else [`Error::SubtreeMismatch`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Subtrees<W>, Error> {
        let (header, values) = bytes
            .split_at_checked(Self::HEADER)
            .ok_or(Error::SubtreeMismatch)?;
        let level = header[1];
        let first = u64::from_le_bytes(header[2..].try_into().expect("8 bytes"));
        if header[0] as usize != W
            || level == 0
            || values.is_empty()
            || !values.len().is_multiple_of(8 * W)
        {
            return Err(Error::SubtreeMismatch);
        }
        let chains: Vec<[u64; W]> = values
            .chunks_exact(8 * W)
            .map(|c| {
                core::array::from_fn(|i| {
                    u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().unwrap())
                })
            })
            .collect();
        if first.checked_add(chains.len() as u64).is_none() {
            return Err(Error::SubtreeMismatch);
        }
        Ok(Subtrees {
            level,
            first,
            chains,
        })
    }
}

impl<const W: usize> core::fmt::Debug for Subtrees<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Subtrees")
            .field("level", &self.level)
            .field("first", &self.first)
            .field("count", &self.chains.len())
            .finish_non_exhaustive()
    }
}

impl<const W: usize> Drop for Subtrees<W> {
    fn drop(&mut self) {
        self.chains.iter_mut().for_each(Zeroize::zeroize);
    }
}
