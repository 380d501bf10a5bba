//! Tree hashing (spec 3.5.6), streaming and sequential.
//!
//! Leaves of `Nb * 2^Yl` message bytes are hashed at tree level 1; each higher
//! level hashes groups of `2^Yf` child outputs, until one output remains, or
//! until level `Ym`, which hashes everything left in one node. A level keeps
//! only its open node, so memory is bounded by the height, not the input.
//! A level's first child is held back until a second one arrives: a lone
//! child is the result itself and must not be hashed again.

use crate::consts::types;
use crate::threefish::words_to_le;
use crate::ubi::Ubi;
use crate::{Platform, TreeParams};
use alloc::vec::Vec;
use zeroize::Zeroize;

#[derive(Clone)]
struct Level<const W: usize> {
    /// Children received so far.
    children: u64,
    /// The first child, until a second one shows this level is needed.
    held: Option<[u64; W]>,
    /// The node being filled and how many children it has.
    node: Option<Ubi<W>>,
    node_children: u64,
    node_index: u64,
}

impl<const W: usize> Level<W> {
    fn new() -> Self {
        Level { children: 0, held: None, node: None, node_children: 0, node_index: 0 }
    }
}

impl<const W: usize> Drop for Level<W> {
    fn drop(&mut self) {
        if let Some(h) = &mut self.held {
            h.zeroize();
        }
    }
}

/// Streaming tree hasher.
#[derive(Clone)]
pub(crate) struct TreeHasher<const W: usize> {
    params: TreeParams,
    key: [u64; W],
    leaf_bytes: u64,
    node_children: u64,
    leaf: Ubi<W>,
    leaf_fill: u64,
    leaf_index: u64,
    /// `levels[i]` builds tree level `i + 2` from level `i + 1` outputs.
    levels: Vec<Level<W>>,
}

/// `base << log2`, saturating: a leaf or node larger than any input is the
/// same as an unbounded one.
pub(crate) fn saturating_shl(base: u64, log2: u8) -> u64 {
    if (log2 as u32) >= base.leading_zeros() {
        u64::MAX
    } else {
        base << log2
    }
}

impl<const W: usize> TreeHasher<W> {
    pub(crate) fn new(key: [u64; W], params: TreeParams) -> Self {
        TreeHasher {
            params,
            key,
            leaf_bytes: saturating_shl(8 * W as u64, params.leaf_log2()),
            node_children: saturating_shl(1, params.fan_out_log2()),
            leaf: Ubi::new(key, types::MSG, 1, 0),
            leaf_fill: 0,
            leaf_index: 0,
            levels: Vec::new(),
        }
    }

    pub(crate) fn params(&self) -> TreeParams {
        self.params
    }

    /// Absorb message bytes; `bit_pad` is set when they end with the
    /// bit-padded final byte.
    pub(crate) fn update(&mut self, platform: &Platform, mut data: &[u8], bit_pad: bool) {
        while !data.is_empty() {
            let room = self.leaf_bytes - self.leaf_fill;
            let take = room.min(data.len() as u64) as usize;
            self.leaf.update(platform, &data[..take]);
            self.leaf_fill += take as u64;
            data = &data[take..];
            if self.leaf_fill == self.leaf_bytes {
                // A full leaf is complete whatever follows.
                self.close_leaf(platform, bit_pad && data.is_empty());
            }
        }
    }

    fn close_leaf(&mut self, platform: &Platform, bit_pad: bool) {
        let out = self.leaf.finish(platform, bit_pad);
        self.leaf_index += 1;
        self.leaf_fill = 0;
        let position = self.leaf_index.saturating_mul(self.leaf_bytes);
        self.leaf = Ubi::new(self.key, types::MSG, 1, position);
        self.push(platform, 0, out);
    }

    /// Give a child output to `levels[index]` (tree level `index + 2`).
    fn push(&mut self, platform: &Platform, index: usize, child: [u64; W]) {
        if self.levels.len() == index {
            self.levels.push(Level::new());
        }
        let tree_level = (index + 2) as u8;
        let top = tree_level == self.params.max_height();
        let node_bytes = saturating_shl(8 * W as u64, self.params.fan_out_log2());
        let mut bytes = [0u8; 128];
        let lvl = &mut self.levels[index];
        lvl.children += 1;
        if lvl.children == 1 {
            lvl.held = Some(child);
            return;
        }
        if lvl.node.is_none() {
            let position = if top { 0 } else { lvl.node_index.saturating_mul(node_bytes) };
            let mut node = Ubi::new(self.key, types::MSG, tree_level, position);
            if let Some(mut first) = lvl.held.take() {
                words_to_le(&first, &mut bytes[..8 * W]);
                node.update(platform, &bytes[..8 * W]);
                lvl.node_children = 1;
                first.zeroize();
            }
            lvl.node = Some(node);
        }
        words_to_le(&child, &mut bytes[..8 * W]);
        let node = lvl.node.as_mut().unwrap();
        node.update(platform, &bytes[..8 * W]);
        lvl.node_children += 1;
        bytes.zeroize();
        if !top && lvl.node_children == self.node_children {
            let out = node.finish(platform, false);
            lvl.node = None;
            lvl.node_children = 0;
            lvl.node_index += 1;
            self.push(platform, index + 1, out);
        }
    }

    /// The chaining value that goes into the output stage.
    pub(crate) fn finish(&mut self, platform: &Platform, bit_pad: bool) -> [u64; W] {
        // The last, partial leaf; an empty message is one empty leaf.
        if self.leaf_fill > 0 || self.leaf_index == 0 {
            self.close_leaf(platform, bit_pad);
        }
        let mut index = 0;
        loop {
            let lvl = &mut self.levels[index];
            if lvl.children == 1 {
                return lvl.held.take().unwrap();
            }
            if let Some(mut node) = lvl.node.take() {
                let out = node.finish(platform, false);
                self.push(platform, index + 1, out);
            }
            index += 1;
        }
    }
}

impl<const W: usize> Drop for TreeHasher<W> {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}
