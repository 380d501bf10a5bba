//! Tree hashing (spec 3.5.6), streaming, on lanes and threads.
//!
//! Leaves of `Nb * 2^Yl` message bytes are hashed at tree level 1; each higher
//! level hashes groups of `2^Yf` child outputs, until one output remains, or
//! until level `Ym`, which hashes everything left in one node. A level keeps
//! only its open node, so memory is bounded by the height, not the input.
//! A level's first child is held back until a second one arrives: a lone
//! child is the result itself and must not be hashed again.
//!
//! Parallel path: whole leaves are hashed many at a time by the multi-lane
//! kernels (see `schedule.rs`), spread over the threads of the current rayon pool.
//! Leaves come either straight from a large `update` slice, or from a bounded
//! batch buffer (a few MiB, whatever the input size) that collects the bytes
//! of small `update` calls. The outputs of a group of leaves enter the level
//! stack together: at a node boundary, whole nodes of a level are hashed on
//! lanes as well, and only the pieces that straddle a boundary go one child at
//! a time through the sequential code. Leaves too large to batch (over 1 MiB)
//! are streamed one by one unless a single `update` holds several. The result
//! is the same as one leaf and one child at a time, whatever the split of the
//! input, the lane count or the thread count.

use crate::backend::lanes::LaneChoice;
use crate::schedule::{for_each_chunk, run_ubis_on, threads, UbiJob, PARALLEL_MIN_BYTES};
use crate::spec::BlockType;
use crate::threefish::words_to_le;
use crate::ubi::{start_tweak, Ubi};
use crate::{Platform, TreeParams};
use alloc::vec::Vec;
use zeroize::Zeroize;

pub(crate) mod subtree;

/// The batch buffer of leaf bytes aims at this size ...
const BATCH_TARGET_BYTES: u64 = 4 << 20;
/// ... but holds at least this many leaves, ...
const BATCH_MIN_LEAVES: u64 = 16;
/// ... and never more than this: larger leaves are not batched.
const BATCH_MAX_BYTES: u64 = 16 << 20;
/// Leaves hashed per round of the level stack: bounds the memory of their
/// outputs on huge `update` slices.
const ROUND_MAX_LEAVES: usize = 1 << 16;
/// Room left beside the tree's buffers (the batch, the outputs of a round,
/// the bytes of whole nodes). The small allocations of the rest of a
/// program, rayon's threads among them, abort when they fail; so under a
/// limit on memory (`ulimit -v`) a buffer that would leave less than this
/// is not taken, and the tree goes the sequential way instead, one leaf
/// or one child at a time, which needs no buffer: the same digest.
const SPARE_ROOM: usize = 1 << 20;

/// Room in `vec` for `additional` more items, if it has it or they can be
/// had with [`SPARE_ROOM`] to spare: asked by allocating both, untouched,
/// and letting the spare go before the buffer is taken.
fn reserve_with_room<T>(vec: &mut Vec<T>, additional: usize) -> bool {
    if vec.capacity() - vec.len() >= additional {
        return true;
    }
    let bytes = additional.saturating_mul(core::mem::size_of::<T>());
    let room = Vec::<u8>::new()
        .try_reserve_exact(bytes.saturating_add(SPARE_ROOM))
        .is_ok();
    room && vec.try_reserve_exact(additional).is_ok()
}

#[derive(Clone)]
pub(crate) struct Level<const W: usize> {
    /// Children received so far.
    pub(crate) children: u64,
    /// The first child, until a second one shows this level is needed.
    pub(crate) held: Option<[u64; W]>,
    /// The node being filled and how many children it has.
    pub(crate) node: Option<Ubi<W>>,
    pub(crate) node_children: u64,
    /// Nodes of this level closed so far.
    pub(crate) node_index: u64,
}

impl<const W: usize> Level<W> {
    pub(crate) fn new() -> Self {
        Level {
            children: 0,
            held: None,
            node: None,
            node_children: 0,
            node_index: 0,
        }
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
    pub(crate) leaf_bytes: u64,
    pub(crate) node_children: u64,
    /// The leaf being filled, `leaf_fill` bytes so far, and how many leaves
    /// were closed before it.
    pub(crate) leaf: Ubi<W>,
    pub(crate) leaf_fill: u64,
    pub(crate) leaf_index: u64,
    /// `levels[i]` builds tree level `i + 2` from level `i + 1` outputs.
    pub(crate) levels: Vec<Level<W>>,
    /// Leaves per batch; 0 when leaves are too large to batch.
    batch_leaves: u64,
    /// Buffered bytes of whole leaves and at most one partial last leaf (used
    /// instead of `leaf` when `batch_leaves > 0`, except that a leaf already
    /// begun in `leaf`, as a restored state may have one, is filled there
    /// first).
    batch: Vec<u8>,
    /// The multi-lane kernel, chosen from the platform on first use.
    lanes: Option<LaneChoice>,
    /// Set in a hasher of subtrees ([`subtree`]): the level whose node
    /// outputs are kept instead of going up.
    collect: Option<Collected<W>>,
}

/// The outputs of tree level `level`, in order, kept by a hasher of
/// subtrees. Below that level every node is hashed, a lone child too: the
/// whole tree has more than one node there, so no child is the result.
#[derive(Clone)]
struct Collected<const W: usize> {
    level: u8,
    outputs: Vec<[u64; W]>,
}

/// `base << log2`, saturating at `u64::MAX`: a leaf or node of 2^64 bytes
/// or children or more is treated as unbounded. `base << log2` itself when
/// it fits, 2^63 included.
fn saturating_shl(base: u64, log2: u8) -> u64 {
    if (log2 as u32) > base.leading_zeros() {
        u64::MAX
    } else {
        base << log2
    }
}

/// Bytes of a node of `2^log2` children of `block` bytes, saturating at
/// `u128::MAX` (beyond any 96-bit position).
pub(crate) fn node_bytes(block: u64, log2: u8) -> u128 {
    let block = block as u128;
    if (log2 as u32) > block.leading_zeros() {
        u128::MAX
    } else {
        block << log2
    }
}

/// The 96-bit position of the `index`-th leaf or node of `bytes` bytes
/// each: positions past 2^64 carry into the tweak's high word.
pub(crate) fn start_of(index: u64, bytes: u128) -> u128 {
    if index == 0 {
        0
    } else {
        (index as u128).saturating_mul(bytes)
    }
}

/// The tweak of the first block of a message UBI at tree `level` that
/// starts at the 96-bit byte `position`.
pub(crate) fn tweak_at_position(level: u8, position: u128) -> [u64; 2] {
    debug_assert!(position < 1 << 96, "a tree position past 2^96");
    let mut tweak = start_tweak(BlockType::Message, level, position as u64);
    tweak[1] |= (position >> 64) as u64 & 0xFFFF_FFFF;
    tweak
}

/// A message UBI of a tree node at `level` starting at `position`.
fn node_ubi<const W: usize>(key: [u64; W], level: u8, position: u128) -> Ubi<W> {
    Ubi::from_parts(key, tweak_at_position(level, position), &[])
}

impl<const W: usize> TreeHasher<W> {
    pub(crate) fn new(key: [u64; W], params: TreeParams) -> Self {
        let leaf_bytes = saturating_shl(8 * W as u64, params.leaf_log2());
        let batch_leaves = (BATCH_TARGET_BYTES / leaf_bytes).max(BATCH_MIN_LEAVES);
        let batchable = batch_leaves
            .checked_mul(leaf_bytes)
            .is_some_and(|b| b <= BATCH_MAX_BYTES);
        TreeHasher {
            params,
            key,
            leaf_bytes,
            node_children: saturating_shl(1, params.fan_out_log2()),
            leaf: Ubi::new(key, BlockType::Message, 1, 0),
            leaf_fill: 0,
            leaf_index: 0,
            levels: Vec::new(),
            batch_leaves: if batchable { batch_leaves } else { 0 },
            batch: Vec::new(),
            lanes: None,
            collect: None,
        }
    }

    /// A hasher of the consecutive subtrees of tree `level` (at least 1)
    /// from the `first`-th one on, which keeps their outputs
    /// ([`finish_subtrees`](Self::finish_subtrees)) instead of building the
    /// levels above. The caller makes sure that `level` is below the
    /// tree's root, so that no level up to it is the top one (`Ym`).
    pub(crate) fn for_subtrees(key: [u64; W], params: TreeParams, level: u8, first: u64) -> Self {
        let mut tree = Self::new(key, params);
        // Node `first` of `level` starts at node `first * fan_out^(level -
        // l)` of each level `l` below it (an index below 2^64 when the node
        // starts inside the object; `first` is 0 where the shift is wider).
        let below = |l: u8| {
            let shift = u32::from(level - l) * u32::from(params.fan_out_log2());
            first.checked_shl(shift).unwrap_or(0)
        };
        tree.leaf_index = below(1);
        tree.leaf = tree.leaf_ubi();
        tree.levels = (2..=level)
            .map(|l| {
                let mut open = Level::new();
                open.node_index = below(l);
                open
            })
            .collect();
        tree.collect = Some(Collected {
            level,
            outputs: Vec::new(),
        });
        tree
    }

    pub(crate) fn params(&self) -> TreeParams {
        self.params
    }

    /// Absorb message bytes; `bit_pad` is set when they end with the
    /// bit-padded final byte.
    pub(crate) fn update(&mut self, platform: &Platform, mut data: &[u8], bit_pad: bool) {
        let lanes = *self.lanes.get_or_insert_with(|| platform.lane_choice());
        let leaf_bytes = self.leaf_bytes;
        let batch_bytes = (self.batch_leaves * leaf_bytes) as usize;
        while !data.is_empty() {
            let at_boundary = self.leaf_fill == 0 && self.batch.is_empty();
            // Whole leaves straight from the caller's slice, when there are
            // enough of them to fill the lanes (or leaves are too big to batch).
            let whole = (data.len() as u64 / leaf_bytes) as usize;
            let enough = if self.batch_leaves == 0 {
                2
            } else {
                lanes.lanes() * threads()
            };
            if at_boundary && !bit_pad && whole >= enough {
                let (leaves, rest) = data.split_at(whole * leaf_bytes as usize);
                self.hash_leaves(platform, lanes, leaves, false);
                data = rest;
                continue;
            }
            if self.batch_leaves > 0 && self.leaf_fill == 0 {
                if self.batch.len() == batch_bytes {
                    // Full, and more input follows: none of it is the last leaf.
                    let batch = core::mem::take(&mut self.batch);
                    self.hash_leaves(platform, lanes, &batch, false);
                    self.batch = batch;
                    self.batch.clear();
                }
                let take = (batch_bytes - self.batch.len()).min(data.len());
                // Grown by doubling up to the batch's size exactly.
                let len = self.batch.len();
                let grown = (len + take).max(2 * self.batch.capacity()).min(batch_bytes);
                if reserve_with_room(&mut self.batch, grown - len) {
                    self.batch.extend_from_slice(&data[..take]);
                    data = &data[take..];
                    continue;
                }
                // No memory for the batch (a limit on the address space):
                // from here on as for leaves too large to batch, which needs
                // no buffer; the same digest.
                self.stop_batching(platform, lanes);
                continue;
            }
            let room = leaf_bytes - self.leaf_fill;
            let take = room.min(data.len() as u64) as usize;
            self.leaf.update(platform, &data[..take]);
            self.leaf_fill += take as u64;
            data = &data[take..];
            if self.leaf_fill == leaf_bytes {
                // A full leaf is complete whatever follows.
                self.close_leaf(platform, bit_pad && data.is_empty());
            }
        }
    }

    /// Hash the whole leaves of the batch, move the partial one after them
    /// into the open leaf, and batch no more.
    fn stop_batching(&mut self, platform: &Platform, lanes: LaneChoice) {
        let mut batch = core::mem::take(&mut self.batch);
        let leaf_bytes = self.leaf_bytes as usize;
        let whole = batch.len() / leaf_bytes * leaf_bytes;
        if whole > 0 {
            self.hash_leaves(platform, lanes, &batch[..whole], false);
        }
        let tail = &batch[whole..];
        self.leaf.update(platform, tail);
        self.leaf_fill = tail.len() as u64;
        batch.zeroize();
        self.batch_leaves = 0;
    }

    /// Hash consecutive leaves from the current leaf index on: whole leaves,
    /// except that the last one may be partial; `bit_pad` marks the last one.
    /// Their outputs go up the level stack.
    fn hash_leaves(&mut self, platform: &Platform, lanes: LaneChoice, data: &[u8], bit_pad: bool) {
        let leaf_bytes = self.leaf_bytes as usize;
        let count = data.len().div_ceil(leaf_bytes);
        let mut outs = Vec::new();
        let mut first = 0;
        while first < count {
            let n = (count - first).min(ROUND_MAX_LEAVES);
            outs.clear();
            if !reserve_with_room(&mut outs, n) {
                self.leaves_one_by_one(platform, &data[first * leaf_bytes..], bit_pad);
                break;
            }
            outs.resize(n, [0u64; W]);
            let round = &data[first * leaf_bytes..data.len().min((first + n) * leaf_bytes)];
            let (key, leaf_index) = (&self.key, self.leaf_index);
            let jobs = |i: usize| UbiJob {
                chain: key,
                tweak: tweak_at_position(1, start_of(leaf_index + i as u64, leaf_bytes as u128)),
                data: &round[i * leaf_bytes..round.len().min((i + 1) * leaf_bytes)],
                bit_pad: bit_pad && first + i + 1 == count,
            };
            ubis_into(lanes, jobs, &mut outs, round.len() >= PARALLEL_MIN_BYTES);
            self.leaf_index += n as u64;
            self.push_many(platform, lanes, 0, &outs);
            first += n;
        }
        outs.iter_mut().for_each(Zeroize::zeroize);
        self.leaf = self.leaf_ubi();
        self.leaf_fill = 0;
    }

    /// [`hash_leaves`](Self::hash_leaves) without buffers: each leaf through
    /// the open leaf's UBI, its output pushed alone.
    fn leaves_one_by_one(&mut self, platform: &Platform, data: &[u8], bit_pad: bool) {
        self.leaf = self.leaf_ubi();
        let count = data.len().div_ceil(self.leaf_bytes as usize);
        for (i, leaf) in data.chunks(self.leaf_bytes as usize).enumerate() {
            self.leaf.update(platform, leaf);
            self.close_leaf(platform, bit_pad && i + 1 == count);
        }
    }

    /// A new UBI for the leaf after the `leaf_index` closed ones.
    fn leaf_ubi(&self) -> Ubi<W> {
        node_ubi(
            self.key,
            1,
            start_of(self.leaf_index, self.leaf_bytes as u128),
        )
    }

    /// Give consecutive child outputs to `levels[index]`: whole nodes at a
    /// node boundary on lanes, the rest one by one.
    fn push_many(
        &mut self,
        platform: &Platform,
        lanes: LaneChoice,
        index: usize,
        children: &[[u64; W]],
    ) {
        if let Some(c) = self
            .collect
            .as_mut()
            .filter(|c| index + 1 == c.level as usize)
        {
            c.outputs.extend_from_slice(children);
            return;
        }
        let top = index + 2 == self.params.max_height() as usize;
        let fan_out = self.node_children;
        let mut rest = children;
        while let Some((&child, after)) = rest.split_first() {
            let at_boundary = self
                .levels
                .get(index)
                .is_none_or(|l| l.node.is_none() && l.held.is_none());
            if at_boundary && !top && rest.len() as u64 >= fan_out {
                let whole = rest.len() / fan_out as usize * fan_out as usize;
                self.hash_nodes(platform, lanes, index, &rest[..whole]);
                rest = &rest[whole..];
                continue;
            }
            self.push(platform, index, child);
            rest = after;
        }
    }

    /// Whole nodes of `levels[index]`, which sits at a node boundary.
    fn hash_nodes(
        &mut self,
        platform: &Platform,
        lanes: LaneChoice,
        index: usize,
        children: &[[u64; W]],
    ) {
        let nodes = children.len() / self.node_children as usize;
        let (mut bytes, mut outs) = (Vec::new(), Vec::new());
        if !reserve_with_room(&mut bytes, children.len() * 8 * W)
            || !reserve_with_room(&mut outs, nodes)
        {
            for &child in children {
                self.push(platform, index, child);
            }
            return;
        }
        if self.levels.len() == index {
            self.levels.push(Level::new());
        }
        let tree_level = (index + 2) as u8;
        let node_bytes = 8 * W * self.node_children as usize;
        bytes.resize(children.len() * 8 * W, 0);
        for (child, b) in children.iter().zip(bytes.chunks_exact_mut(8 * W)) {
            words_to_le(child, b);
        }
        outs.resize(nodes, [0u64; W]);
        let (key, first) = (&self.key, self.levels[index].node_index);
        let jobs = |i: usize| UbiJob {
            chain: key,
            tweak: tweak_at_position(tree_level, start_of(first + i as u64, node_bytes as u128)),
            data: &bytes[i * node_bytes..(i + 1) * node_bytes],
            bit_pad: false,
        };
        ubis_into(lanes, jobs, &mut outs, bytes.len() >= PARALLEL_MIN_BYTES);
        bytes.zeroize();
        let lvl = &mut self.levels[index];
        lvl.children += children.len() as u64;
        lvl.node_index += nodes as u64;
        self.push_many(platform, lanes, index + 1, &outs);
        outs.iter_mut().for_each(Zeroize::zeroize);
    }

    fn close_leaf(&mut self, platform: &Platform, bit_pad: bool) {
        let out = self.leaf.finish(platform, bit_pad);
        self.leaf_index += 1;
        self.leaf_fill = 0;
        self.leaf = self.leaf_ubi();
        self.push(platform, 0, out);
    }

    /// Give a child output to `levels[index]` (tree level `index + 2`).
    fn push(&mut self, platform: &Platform, index: usize, child: [u64; W]) {
        if let Some(c) = self
            .collect
            .as_mut()
            .filter(|c| index + 1 == c.level as usize)
        {
            c.outputs.push(child);
            return;
        }
        let hold_first = self.collect.is_none();
        if self.levels.len() == index {
            self.levels.push(Level::new());
        }
        let tree_level = (index + 2) as u8;
        let top = tree_level == self.params.max_height();
        let node_bytes = node_bytes(8 * W as u64, self.params.fan_out_log2());
        let mut bytes = [0u8; 128];
        let lvl = &mut self.levels[index];
        lvl.children += 1;
        if lvl.children == 1 && hold_first {
            lvl.held = Some(child);
            return;
        }
        if lvl.node.is_none() {
            let position = if top {
                0
            } else {
                start_of(lvl.node_index, node_bytes)
            };
            let mut node = node_ubi(self.key, tree_level, position);
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

    /// The same state with no leaf bytes in the batch buffer (a clone): its
    /// whole leaves hashed, a partial last one in `leaf`. Whatever the
    /// batching, the state is then the open leaf and the open levels only
    /// (the form a saved state has). `bit_pad`: the message has ended with
    /// a bit-padded byte, so a full last leaf is hashed as the padded one.
    pub(crate) fn settled(&self, platform: &Platform, bit_pad: bool) -> Self {
        let mut t = self.clone();
        if t.batch.is_empty() {
            return t;
        }
        let lanes = *t.lanes.get_or_insert_with(|| platform.lane_choice());
        let mut batch = core::mem::take(&mut t.batch);
        let leaf_bytes = t.leaf_bytes as usize;
        let whole = if bit_pad && batch.len().is_multiple_of(leaf_bytes) {
            batch.len()
        } else {
            batch.len() / leaf_bytes * leaf_bytes
        };
        if whole > 0 {
            t.hash_leaves(
                platform,
                lanes,
                &batch[..whole],
                bit_pad && whole == batch.len(),
            );
        }
        let tail = &batch[whole..];
        t.leaf.update(platform, tail);
        t.leaf_fill = tail.len() as u64;
        batch.zeroize();
        t
    }

    /// The chaining value that goes into the output stage.
    pub(crate) fn finish(&mut self, platform: &Platform, bit_pad: bool) -> [u64; W] {
        if !self.batch.is_empty() {
            // Buffered leaves, the last one (partial or not) with the bit pad.
            let lanes = *self.lanes.get_or_insert_with(|| platform.lane_choice());
            let batch = core::mem::take(&mut self.batch);
            self.hash_leaves(platform, lanes, &batch, bit_pad);
            self.batch = batch;
            self.batch.zeroize();
        } else if self.leaf_fill > 0 || self.leaf_index == 0 {
            // The last, partial leaf; an empty message is one empty leaf.
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

impl<const W: usize> TreeHasher<W> {
    /// The outputs of the subtrees of a hasher made by
    /// [`for_subtrees`](Self::for_subtrees), once all their bytes went in:
    /// the last leaf and the open nodes up to the kept level are closed
    /// (the last node of a level may have fewer children than the fan-out,
    /// one included).
    pub(crate) fn finish_subtrees(&mut self, platform: &Platform) -> Vec<[u64; W]> {
        if !self.batch.is_empty() {
            let lanes = *self.lanes.get_or_insert_with(|| platform.lane_choice());
            let batch = core::mem::take(&mut self.batch);
            self.hash_leaves(platform, lanes, &batch, false);
            self.batch = batch;
            self.batch.zeroize();
        } else if self.leaf_fill > 0 {
            self.close_leaf(platform, false);
        }
        let level = self.collect.as_ref().map_or(1, |c| c.level);
        for index in 0..level as usize - 1 {
            if let Some(mut node) = self.levels[index].node.take() {
                let out = node.finish(platform, false);
                self.push(platform, index + 1, out);
            }
        }
        self.collect
            .as_mut()
            .map(|c| core::mem::take(&mut c.outputs))
            .unwrap_or_default()
    }
}

/// Equal-shaped UBIs into `out[i]`, on lanes and, with `parallel`, on the
/// threads of the current rayon pool.
pub(crate) fn ubis_into<'a, const W: usize, F>(
    lanes: LaneChoice,
    jobs: F,
    out: &mut [[u64; W]],
    parallel: bool,
) where
    F: Fn(usize) -> UbiJob<'a, W> + Sync,
{
    let count = out.len();
    for_each_chunk(count, lanes.lanes(), parallel, out, 1, |items, outs| {
        run_ubis_on::<W>(
            lanes,
            items.len(),
            |i| jobs(items.start + i),
            |i, chain| outs[i] = *chain,
        );
    });
}

impl<const W: usize> Drop for TreeHasher<W> {
    fn drop(&mut self) {
        self.key.zeroize();
        self.batch.zeroize();
        if let Some(c) = &mut self.collect {
            c.outputs.iter_mut().for_each(Zeroize::zeroize);
        }
    }
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    use super::*;
    use crate::Backend;

    /// Tree leaves run on the forced backend's lanes, not the fastest ones.
    pub fn forced_backend_reaches_tree_leaves() {
        let forced = Backend::ALL
            .iter()
            .copied()
            .filter_map(|b| Platform::force(b).ok());
        for platform in forced {
            let mut tree = TreeHasher::<8>::new([1; 8], TreeParams::new(1, 1, 255).unwrap());
            tree.update(&platform, &[7u8; 64 * 1024], false);
            // The platform's lane kernel (the backend's own or the portable
            // one; see `backend`'s checks), not the fastest.
            assert_eq!(tree.lanes, Some(platform.lane_choice()), "{platform:?}");
        }
    }

    /// Leaves hashed one by one (no memory for the outputs of a round)
    /// give the same chaining value as on lanes, with a partial or
    /// bit-padded last leaf too; whole nodes pushed one child at a time are
    /// the sequential path every tree test takes.
    pub fn leaves_without_buffers_keep_the_digest() {
        let platform = Platform::detect();
        let params = TreeParams::new(1, 2, 255).unwrap();
        let message: Vec<u8> = (0..20_000u32).map(|i| (i * 13 + (i >> 9)) as u8).collect();
        for len in [128, 128 * 3, 128 * 40, 128 * 40 + 17, 20_000] {
            for bit_pad in [false, true] {
                let hash = |one_by_one: bool| {
                    let mut tree = TreeHasher::<8>::new([5; 8], params);
                    let lanes = platform.lane_choice();
                    if one_by_one {
                        tree.leaves_one_by_one(&platform, &message[..len], bit_pad);
                    } else {
                        tree.hash_leaves(&platform, lanes, &message[..len], bit_pad);
                    }
                    tree.finish(&platform, bit_pad)
                };
                assert_eq!(hash(true), hash(false), "{len} bytes, bit pad {bit_pad}");
            }
        }
    }

    /// A hasher that stops batching (its batch buffer refused) at any
    /// point, a partial leaf in the batch or none, gives the same chaining
    /// value as one that batches to the end.
    pub fn stopping_batching_midway_keeps_the_digest() {
        let platform = Platform::detect();
        let params = TreeParams::new(1, 2, 255).unwrap();
        let message: Vec<u8> = (0..300_000u32).map(|i| (i * 7 + (i >> 8)) as u8).collect();
        let feed = |tree: &mut TreeHasher<8>, stop_at: Option<usize>| {
            for (i, piece) in message.chunks(1000).enumerate() {
                if stop_at == Some(i) {
                    let lanes = *tree.lanes.get_or_insert_with(|| platform.lane_choice());
                    tree.stop_batching(&platform, lanes);
                }
                tree.update(&platform, piece, false);
            }
            tree.finish(&platform, false)
        };
        let expected = feed(&mut TreeHasher::new([3; 8], params), None);
        for stop_at in [0, 1, 7, 128, 299] {
            let mut tree = TreeHasher::new([3; 8], params);
            assert_eq!(feed(&mut tree, Some(stop_at)), expected, "{stop_at}");
            assert_eq!(tree.batch_leaves, 0);
        }
    }
}
