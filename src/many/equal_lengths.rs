//! Whole lane groups of messages of one length, outside the general
//! scheduler: per group, the message UBI and the first output block in one
//! kernel call, digests stored straight from the lanes
//! (`hash_many`'s common case; outside the kernel, the general path costs
//! each message several times the instructions: docs/lanes.md, "Why").

use crate::backend::lanes::{LaneChoice, LaneJob, LaneKernel, LaneState, MessageRun};
use crate::spec::{MAX_BLOCK_BYTES, T1_FINAL};
use crate::threefish::words_to_le;
use zeroize::Zeroize;

/// Whole messages, `L` at a time, the `L` of each group of one length: the
/// message UBI from `chain` and `tweaks[0]` (no head, no bit pad) and the
/// output stage (`tweaks[1]`). A group is one kernel call for the whole
/// message and the first output block ([`MessageRun`]: the state stays in
/// registers, the tweak is a broadcast scalar) and one per further output
/// block; no per-lane bookkeeping, no second pass. The `i`-th of `count` (a
/// multiple of the lane count `L`; `i / L` a group) is
/// `messages[index(i)]`; its digest goes straight from the lanes to window
/// `index(i)` of `out`, `len` bytes each.
///
/// # Panics
/// If `count` is not a multiple of `L` or a group's lengths differ.
pub(crate) struct EqualLengths<'c, const W: usize, M, G> {
    pub(crate) chain: &'c [u64; W],
    pub(crate) tweaks: [[u64; 2]; 2],
    pub(crate) count: usize,
    pub(crate) messages: &'c [M],
    pub(crate) index: G,
}

impl<const W: usize, M, G> EqualLengths<'_, W, M, G>
where
    M: AsRef<[u8]>,
    G: Fn(usize) -> usize,
{
    /// Run it on `lanes`' kernel.
    pub(crate) fn run(self, lanes: LaneChoice, out: &mut [u8], len: usize) {
        struct Job<'o, S> {
            short: S,
            out: &'o mut [u8],
            len: usize,
        }
        impl<const W: usize, M, G> LaneJob<W> for Job<'_, EqualLengths<'_, W, M, G>>
        where
            M: AsRef<[u8]>,
            G: Fn(usize) -> usize,
        {
            type Output = ();
            fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
                self.short.on::<L, K>(kernel, self.out, self.len)
            }
        }
        if self.count > 0 {
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
            count,
            messages,
            index,
        } = self;
        assert!(count.is_multiple_of(L), "equal lengths: whole groups");
        let block = 8 * W;
        let out_blocks = len.div_ceil(block);
        // Zero-padded last blocks, made at the first group that needs them
        // (none where every last block is whole or 16 bytes, read in
        // place: no 2 KiB memset a batch); bytes past `dirty` are still
        // zero.
        let mut lasts_storage: Option<[[u8; MAX_BLOCK_BYTES]; L]> = None;
        let mut dirty = 0;
        // Output blocks after the first (digests longer than a block):
        // the chains after the message, the state and the counter block.
        let mut further: Option<Further<W, L>> = None;
        let mut digests = [[0u64; W]; L];
        for first in (0..count).step_by(L) {
            let msgs: [&[u8]; L] = core::array::from_fn(|l| messages[index(first + l)].as_ref());
            let size = msgs[0].len();
            assert!(
                msgs.iter().all(|m| m.len() == size),
                "equal lengths: one length per group"
            );
            let body_len = size.saturating_sub(1) / block * block;
            let tail = size - body_len;
            // A whole last block, or one of exactly 16 bytes (the kernel
            // reads no more: `MessageRun::last`), is read in place; other
            // partial ones are copied.
            let last: [&[u8]; L] = if tail == block || tail == 16 {
                msgs.map(|m| &m[body_len..])
            } else {
                let lasts = lasts_storage.get_or_insert([[0u8; MAX_BLOCK_BYTES]; L]);
                for (buf, m) in lasts.iter_mut().zip(msgs) {
                    buf[..tail].copy_from_slice(&m[body_len..]);
                    if dirty > tail {
                        buf[tail..dirty].fill(0);
                    }
                }
                dirty = tail;
                let lasts = &*lasts;
                core::array::from_fn(|l| &lasts[l][..block])
            };
            let more = (out_blocks > 1).then(|| further.get_or_insert_with(Further::new));
            // The message and the first output block in one call.
            kernel.messages(MessageRun {
                chain,
                tweak,
                body: msgs.map(|m| &m[..body_len]),
                last,
                tail: tail as u64,
                out_tweak,
                finals: more.map(|f| &mut f.finals),
                out: &mut digests,
            });
            let to = len.min(block);
            for (l, digest) in digests.iter().enumerate() {
                let at = index(first + l) * len;
                words_to_le(digest, &mut out[at..at + to]);
            }
            // Further output blocks: one UBI of a counter block each.
            if let Some(f) = further.as_mut() {
                for c in 1..out_blocks {
                    f.counter[..8].copy_from_slice(&(c as u64).to_le_bytes());
                    f.state.chain = f.finals;
                    f.state.tweak = [[out_tweak[0]; L], [out_tweak[1] | T1_FINAL; L]];
                    kernel.compress_lanes(&mut f.state, [&f.counter[..block]; L], [8; L]);
                    let (from, to) = (c * block, len.min((c + 1) * block));
                    for l in 0..L {
                        let at = index(first + l) * len;
                        lane_to_le(&f.state.chain, l, &mut out[at + from..at + to]);
                    }
                }
            }
        }
        // Only the bytes that held message bytes (most batches: none).
        if let Some(lasts) = &mut lasts_storage {
            for buf in lasts {
                buf[..dirty].zeroize();
            }
        }
        // Words of the first output block past a short digest (all of a
        // whole one went to `out`).
        if len < block {
            digests.zeroize();
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
