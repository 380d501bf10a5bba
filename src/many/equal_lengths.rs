//! Whole lane groups of messages of one length, outside the general
//! scheduler: per group, the message UBI and the first output block in one
//! kernel call, digests stored straight from the lanes
//! (`hash_many`'s common case; outside the kernel, the general path costs
//! each message several times the instructions: docs/lanes.md, "Why").

use crate::backend::lanes::{LaneChoice, LaneJob, LaneKernel, LaneState, MessageRun};
use crate::spec::{MAX_BLOCK_BYTES, T1_FINAL};
use zeroize::Zeroize;

/// Whole messages, `L` at a time, the `L` of each group of one length: the
/// message UBI from `chain` and `tweaks[0]` (no head, no bit pad) and the
/// output stage (`tweaks[1]`). A group is one kernel call for the whole
/// message and the first output block ([`MessageRun`]: the state stays in
/// registers, the tweak is a broadcast scalar) and one per further output
/// block; no per-lane bookkeeping, no second pass. Which messages, and
/// where their digests go (`len` bytes each, digest `i` at `i * len` of
/// `out`): [`Groups`].
pub(crate) struct EqualLengths<'c, const W: usize, M> {
    pub(crate) chain: &'c [u64; W],
    pub(crate) tweaks: [[u64; 2]; 2],
    pub(crate) messages: &'c [M],
    pub(crate) groups: Groups<'c>,
}

/// The messages an [`EqualLengths`] hashes, `L` at a time.
pub(crate) enum Groups<'c> {
    /// The first `n` messages, in order (`n` a multiple of `L`): where the
    /// digests are whole blocks, the kernel stores a group's `L` side by
    /// side straight into `out`.
    First(usize),
    /// The messages at these indexes, `L` at a time (`L` divides the
    /// count).
    At(&'c [usize]),
}

impl<const W: usize, M: AsRef<[u8]>> EqualLengths<'_, W, M> {
    /// Run it on `lanes`' kernel.
    ///
    /// # Panics
    /// If the count is not a multiple of the kernel's lane count, or a
    /// group's lengths differ.
    pub(crate) fn run(self, lanes: LaneChoice, out: &mut [u8], len: usize) {
        struct Job<'o, S> {
            short: S,
            out: &'o mut [u8],
            len: usize,
        }
        impl<const W: usize, M: AsRef<[u8]>> LaneJob<W> for Job<'_, EqualLengths<'_, W, M>> {
            type Output = ();
            fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
                self.short.on::<L, K>(kernel, self.out, self.len)
            }
        }
        let empty = match self.groups {
            Groups::First(n) => n == 0,
            Groups::At(at) => at.is_empty(),
        };
        if !empty {
            lanes.run::<W, _>(Job {
                short: self,
                out,
                len,
            })
        }
    }

    fn on<const L: usize, K: LaneKernel<W, L>>(self, kernel: K, out: &mut [u8], len: usize) {
        let EqualLengths {
            chain,
            tweaks: [tweak, out_tweak],
            messages,
            groups,
        } = self;
        let block = 8 * W;
        let mut batch = Batch::<W, L> {
            chain,
            tweak,
            out_tweak,
            len,
            out_blocks: len.div_ceil(block),
            lasts: None,
            dirty: 0,
            further: None,
            digests: None,
        };
        match groups {
            Groups::First(n) => {
                let (whole, rest) = messages[..n].as_chunks::<L>();
                assert!(rest.is_empty(), "equal lengths: whole groups");
                // One length for all (the caller's promise; the kernel
                // checks each group): the last block's place once.
                let size = whole.first().map_or(0, |g| g[0].as_ref().len());
                let last = last_block::<W>(size);
                if len == block {
                    // Digests of a whole block: straight from the lanes to
                    // `out`, no copy, no per-lane offsets.
                    for (group, out) in whole.iter().zip(out.chunks_exact_mut(L * block)) {
                        let msgs = group.each_ref().map(|m| m.as_ref());
                        batch.group(kernel, msgs, last, Digests::Whole(out));
                    }
                } else {
                    for (g, group) in whole.iter().enumerate() {
                        let msgs = group.each_ref().map(|m| m.as_ref());
                        let at = core::array::from_fn(|l| g * L + l);
                        batch.group(kernel, msgs, last, Digests::At(at, &mut *out));
                    }
                }
            }
            Groups::At(indexes) => {
                let (whole, rest) = indexes.as_chunks::<L>();
                assert!(rest.is_empty(), "equal lengths: whole groups");
                for &at in whole {
                    let msgs = at.map(|i| messages[i].as_ref());
                    let last = last_block::<W>(msgs[0].len());
                    batch.group(kernel, msgs, last, Digests::At(at, &mut *out));
                }
            }
        }
    }
}

/// Where the last block of a message of `size` bytes starts, and the bytes
/// of it that count (1 to a block; none for an empty message).
#[inline(always)]
fn last_block<const W: usize>(size: usize) -> (usize, usize) {
    let block = 8 * W;
    let body_len = size.saturating_sub(1) / block * block;
    (body_len, size - body_len)
}

/// Where a group's digests go: `L` whole blocks side by side, or digest
/// `i` of the group at `at[i] * len` of the batch's output.
enum Digests<'o, const L: usize> {
    Whole(&'o mut [u8]),
    At([usize; L], &'o mut [u8]),
}

/// What the groups of one batch share: the arguments, and what only some
/// batches need, made at the first group that does (none of it for
/// messages whose last block is whole or 16 bytes and digests of a whole
/// block).
struct Batch<'c, const W: usize, const L: usize> {
    chain: &'c [u64; W],
    tweak: [u64; 2],
    out_tweak: [u64; 2],
    len: usize,
    /// Output blocks a digest takes.
    out_blocks: usize,
    /// Zero-padded last blocks (where they are neither whole nor 16
    /// bytes, read in place); bytes past `dirty` are still zero.
    lasts: Option<[[u8; MAX_BLOCK_BYTES]; L]>,
    dirty: usize,
    /// Output blocks after the first (digests longer than a block): the
    /// chains after the message, the state and the counter block.
    further: Option<Further<W, L>>,
    /// The first output block of each lane, where the digests do not go
    /// straight to the output (`Digests::At`).
    digests: Option<[[[u8; 8]; W]; L]>,
}

impl<const W: usize, const L: usize> Batch<'_, W, L> {
    /// Hash one group of `L` messages of one length, whose last block is
    /// at `body_len` and has `tail` bytes ([`last_block`]).
    #[inline(always)]
    fn group<K: LaneKernel<W, L>>(
        &mut self,
        kernel: K,
        msgs: [&[u8]; L],
        (body_len, tail): (usize, usize),
        to: Digests<'_, L>,
    ) {
        let block = 8 * W;
        // A whole last block, or one of exactly 16 bytes (the kernel
        // reads no more), is read in place; other partial ones are
        // copied. (The kernel checks that the lengths are equal.)
        let lasts = if tail == block || tail == 16 {
            None
        } else {
            let lasts = self.lasts.get_or_insert([[0u8; MAX_BLOCK_BYTES]; L]);
            for (buf, m) in lasts.iter_mut().zip(msgs) {
                buf[..tail].copy_from_slice(&m[body_len..]);
                if self.dirty > tail {
                    buf[tail..self.dirty].fill(0);
                }
            }
            self.dirty = tail;
            Some(&*lasts)
        };
        let out_blocks = self.out_blocks;
        let more = (out_blocks > 1).then(|| self.further.get_or_insert_with(Further::new));
        let (first, at, out) = match to {
            Digests::Whole(out) => (out, None, None),
            Digests::At(at, out) => {
                let digests = self.digests.get_or_insert([[[0; 8]; W]; L]);
                (
                    digests.as_flattened_mut().as_flattened_mut(),
                    Some(at),
                    Some(out),
                )
            }
        };
        // The message and the first output block in one call.
        kernel.messages(MessageRun {
            chain: self.chain,
            tweak: self.tweak,
            messages: msgs,
            lasts,
            tail: tail as u64,
            out_tweak: self.out_tweak,
            finals: more.map(|f| &mut f.finals),
            out: first,
        });
        let (Some(at), Some(out)) = (at, out) else {
            return;
        };
        let len = self.len;
        let to = len.min(block);
        for (l, &i) in at.iter().enumerate() {
            out[i * len..i * len + to].copy_from_slice(&first[l * block..l * block + to]);
        }
        // Further output blocks: one UBI of a counter block each.
        if let Some(f) = self.further.as_mut() {
            for c in 1..out_blocks {
                f.counter[..8].copy_from_slice(&(c as u64).to_le_bytes());
                f.state.chain = f.finals;
                f.state.tweak = [[self.out_tweak[0]; L], [self.out_tweak[1] | T1_FINAL; L]];
                kernel.compress_lanes(&mut f.state, [&f.counter[..block]; L], [8; L]);
                let (from, to) = (c * block, len.min((c + 1) * block));
                for (l, &i) in at.iter().enumerate() {
                    lane_to_le(&f.state.chain, l, &mut out[i * len + from..i * len + to]);
                }
            }
        }
    }
}

impl<const W: usize, const L: usize> Drop for Batch<'_, W, L> {
    fn drop(&mut self) {
        // Only the bytes that held message bytes (most batches: none).
        if let Some(lasts) = &mut self.lasts {
            for buf in lasts {
                buf[..self.dirty].zeroize();
            }
        }
        // Words of the first output blocks past a short digest (all of a
        // whole one went to the output).
        if let Some(digests) = &mut self.digests {
            if self.len < 8 * W {
                digests.as_flattened_mut().as_flattened_mut().zeroize();
            }
        }
    }
}

/// What output blocks after the first take (`LaneState` wipes its chains
/// when dropped).
struct Further<const W: usize, const L: usize> {
    finals: [[u64; L]; W],
    state: LaneState<W, L>,
    counter: [u8; MAX_BLOCK_BYTES],
}

impl<const W: usize, const L: usize> Further<W, L> {
    fn new() -> Self {
        Further {
            finals: [[0; L]; W],
            state: LaneState::new(),
            counter: [0; MAX_BLOCK_BYTES],
        }
    }
}

impl<const W: usize, const L: usize> Drop for Further<W, L> {
    fn drop(&mut self) {
        self.finals.zeroize();
    }
}

/// The first `bytes.len()` bytes (at most `8 * W`) of lane `l`'s words,
/// little-endian ([`crate::threefish::words_to_le`] on a lane, without
/// gathering it first).
#[inline(always)]
fn lane_to_le<const W: usize, const L: usize>(rows: &[[u64; L]; W], l: usize, bytes: &mut [u8]) {
    if bytes.len() == 8 * W {
        // A whole block: fixed offsets, no per-word length checks.
        for (j, row) in rows.iter().enumerate() {
            bytes[8 * j..8 * j + 8].copy_from_slice(&row[l].to_le_bytes());
        }
        return;
    }
    let whole = bytes.len() / 8;
    let (head, tail) = bytes.split_at_mut(8 * whole);
    for (row, dst) in rows.iter().zip(head.chunks_exact_mut(8)) {
        dst.copy_from_slice(&row[l].to_le_bytes());
    }
    if !tail.is_empty() {
        let n = tail.len();
        tail.copy_from_slice(&rows[whole][l].to_le_bytes()[..n]);
    }
}
