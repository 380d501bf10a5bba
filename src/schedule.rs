//! The lane scheduler: many UBI computations side by side on a multi-lane
//! kernel (the seam is `backend::lanes`), and the one rule that spreads
//! independent work over threads. `hash_many` (`many/`), tree hashing
//! (`tree.rs`) and the long output stage (`ubi.rs`) all run on it, through
//! [`run_ubis_on`].
//!
//! The scheduler ([`run_ubis`]) keeps `L` lanes busy: each lane runs one UBI
//! (its message blocks, then its final block with the final flag), and a lane
//! whose UBI is done is refilled with the next one. Each call advances every
//! lane by the smallest number of blocks any lane has left before its final
//! block, so equal-length UBIs go through in a single call per batch of `L`.

use crate::backend::lanes::{LaneChoice, LaneJob, LaneKernel, LaneState};
use crate::spec::{MAX_BLOCK_BYTES, T1_BIT_PAD, T1_FINAL};
use zeroize::Zeroize;

/// Below this many message bytes in total, threads cost more than they bring
/// (`hash_many` and tree hashing).
#[cfg(feature = "alloc")]
pub(crate) const PARALLEL_MIN_BYTES: usize = 128 * 1024;

/// Threads that work may be spread over: those of the current rayon pool,
/// or 1 without the `rayon` feature and in a forked child.
///
/// After `fork()` the child has the parent's pool state but none of its
/// threads, so work handed to the pool there would wait for ever. The
/// process id seen when the library first asks for the pool is kept; in any
/// other process (a child forked after that), work runs on the caller's
/// thread.
#[cfg(feature = "alloc")]
pub(crate) fn threads() -> usize {
    #[cfg(feature = "rayon")]
    {
        use core::sync::atomic::{AtomicU32, Ordering};
        // 0: not asked yet (no process has id 0).
        static POOL_PROCESS: AtomicU32 = AtomicU32::new(0);
        // WebAssembly has no fork, and `std::process::id` panics there
        // ("unsupported" on WASI): one process, whatever its id.
        let me = if cfg!(target_family = "wasm") {
            1
        } else {
            std::process::id()
        };
        let first = match POOL_PROCESS.compare_exchange(0, me, Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => me,
            Err(first) => first,
        };
        if first == me {
            return rayon::current_num_threads();
        }
    }
    1
}

/// The one rule for spreading `count` independent items over threads.
/// Item `i` owns `out[i * per_item..(i + 1) * per_item]`; `f(items, out)` is
/// called on consecutive ranges of items that together cover `0..count`,
/// each a whole number of `lanes` groups but the last, with their part of
/// `out`. The items go to the threads of [`threads`] when `worth_threads`
/// (enough work to pay for them) and there are more items than lanes, a few
/// chunks per thread; otherwise `f(0..count, out)` runs here.
#[cfg(feature = "alloc")]
pub(crate) fn for_each_chunk<T: Send>(
    count: usize,
    lanes: usize,
    worth_threads: bool,
    out: &mut [T],
    per_item: usize,
    f: impl Fn(core::ops::Range<usize>, &mut [T]) + Sync,
) {
    debug_assert_eq!(out.len(), count * per_item);
    // (`threads()` asks for the process id: only when threads could help,
    // not for every small batch.)
    #[cfg(feature = "rayon")]
    if worth_threads && count > lanes && per_item > 0 {
        let threads = threads();
        if threads > 1 {
            use rayon::prelude::*;
            let per_chunk = count.div_ceil(4 * threads).next_multiple_of(lanes);
            out.par_chunks_mut(per_chunk * per_item)
                .enumerate()
                .for_each(|(c, out)| {
                    let first = c * per_chunk;
                    f(first..first + out.len() / per_item, out)
                });
            return;
        }
    }
    let _ = (worth_threads, lanes);
    f(0..count, out)
}

/// One UBI computation for the lanes: starting chain and tweak (as made by
/// [`start_tweak`], or a hasher's after its compressed blocks), the whole
/// input (after the run's `head`, see [`run_ubis_after`]), and whether its
/// last byte is bit-padded.
#[derive(Clone, Copy)]
pub(crate) struct UbiJob<'a, const W: usize> {
    pub(crate) chain: &'a [u64; W],
    pub(crate) tweak: [u64; 2],
    pub(crate) data: &'a [u8],
    pub(crate) bit_pad: bool,
}

/// Run UBIs `0..count` on `lanes`' kernel; `done(i, chain)` gets the result
/// of UBI `i` (in completion order). The one visitor of the kernels: every
/// user of the lanes goes through here.
pub(crate) fn run_ubis_on<'a, const W: usize>(
    lanes: LaneChoice,
    count: usize,
    job: impl Fn(usize) -> UbiJob<'a, W>,
    done: impl FnMut(usize, &[u64; W]),
) {
    run_ubis_with::<W, false>(lanes, &[], count, job, done)
}

/// [`run_ubis_on`] with `head` (at most one block, a hasher's buffered
/// bytes) before the data of every UBI: a lane's first block is built from
/// it in the lane's buffer, and the job's data is read in place after that.
#[cfg(feature = "alloc")]
pub(crate) fn run_ubis_after<'a, const W: usize>(
    lanes: LaneChoice,
    head: &[u8],
    count: usize,
    job: impl Fn(usize) -> UbiJob<'a, W>,
    done: impl FnMut(usize, &[u64; W]),
) {
    run_ubis_with::<W, true>(lanes, head, count, job, done)
}

/// The two above; `HEAD` false compiles the head's code out of the common
/// case (its branches stopped the job closures being inlined, at a cost
/// per message: docs/performance.md, "The scheduler, with
/// `hash_many_from`").
fn run_ubis_with<'a, const W: usize, const HEAD: bool>(
    lanes: LaneChoice,
    head: &[u8],
    count: usize,
    job: impl Fn(usize) -> UbiJob<'a, W>,
    done: impl FnMut(usize, &[u64; W]),
) {
    struct Ubis<'h, J, D, const HEAD: bool> {
        head: &'h [u8],
        count: usize,
        job: J,
        done: D,
    }
    impl<'a, const W: usize, const HEAD: bool, J, D> LaneJob<W> for Ubis<'_, J, D, HEAD>
    where
        J: Fn(usize) -> UbiJob<'a, W>,
        D: FnMut(usize, &[u64; W]),
    {
        type Output = ();
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
            run_ubis::<W, L, K, HEAD>(kernel, self.head, self.count, self.job, self.done)
        }
    }
    if count > 0 {
        lanes.run::<W, _>(Ubis::<_, _, HEAD> {
            head,
            count,
            job,
            done,
        })
    }
}

/// A lane's UBI in progress: the whole blocks before the last one, then the
/// last block (copied, zero-padded, into the lane's buffer) with its true
/// length. A job with a `head` that does not end in its last block starts
/// with a staged first block instead (head and the first bytes of `data`, in
/// the buffer, no flags), and `body` is what follows it. (No field more than
/// a plain lane has: a larger `Lane` cost `hash_many` instructions a
/// message, docs/performance.md, same section.)
struct Lane<'a> {
    job: usize,
    body: &'a [u8],
    last_len: usize,
    at_last: bool,
    /// The buffered block is a staged first block, not the last one.
    staged: bool,
    /// Flags of the UBI's final block: final, and maybe bit pad.
    last_flags: u64,
}

impl<'a> Lane<'a> {
    /// Lane for job `job`, input `head` then `data`; its buffered block goes
    /// into `buf`. Inlined, with the rare `head` case out of line: more code
    /// here stopped the job closures being inlined, at a cost per message
    /// (docs/performance.md, "The scheduler, with `hash_many_from`").
    #[inline(always)]
    fn new(
        job: usize,
        head: &[u8],
        data: &'a [u8],
        final_flags: u64,
        buf: &mut [u8; MAX_BLOCK_BYTES],
        block: usize,
    ) -> Self {
        if !head.is_empty() {
            return Self::after_head(job, head, data, final_flags, buf, block);
        }
        let body_len = data.len().saturating_sub(1) / block * block;
        let tail = &data[body_len..];
        buf[..tail.len()].copy_from_slice(tail);
        buf[tail.len()..block].fill(0);
        Lane {
            job,
            body: &data[..body_len],
            last_len: tail.len(),
            at_last: body_len == 0,
            staged: false,
            last_flags: final_flags,
        }
    }

    /// [`Lane::new`] with a non-empty `head` (at most a block).
    #[cold]
    #[inline(never)]
    fn after_head(
        job: usize,
        head: &[u8],
        data: &'a [u8],
        final_flags: u64,
        buf: &mut [u8; MAX_BLOCK_BYTES],
        block: usize,
    ) -> Self {
        debug_assert!(head.len() <= block);
        if head.len() + data.len() > block {
            // A staged first block: head and the first bytes of data.
            let (first, rest) = data.split_at(block - head.len());
            buf[..head.len()].copy_from_slice(head);
            buf[head.len()..block].copy_from_slice(first);
            return Lane {
                job,
                body: rest,
                last_len: block,
                at_last: true,
                staged: true,
                last_flags: final_flags,
            };
        }
        // `head` and all of `data` make the last (and only) block.
        let last_len = head.len() + data.len();
        buf[..head.len()].copy_from_slice(head);
        buf[head.len()..last_len].copy_from_slice(data);
        buf[last_len..block].fill(0);
        Lane {
            job,
            body: &[],
            last_len,
            at_last: true,
            staged: false,
            last_flags: final_flags,
        }
    }
}

/// Run UBIs `0..count` on `kernel`, `L` at a time, each after `head` (see
/// [`run_ubis_after`]); `done(i, chain)` gets the result of UBI `i` (in
/// completion order).
pub(crate) fn run_ubis<
    'a,
    const W: usize,
    const L: usize,
    K: LaneKernel<W, L>,
    const HEAD: bool,
>(
    kernel: K,
    head: &[u8],
    count: usize,
    job: impl Fn(usize) -> UbiJob<'a, W>,
    mut done: impl FnMut(usize, &[u64; W]),
) {
    let block = 8 * W;
    let mut state = LaneState::<W, L>::new();
    let mut lanes: [Option<Lane<'a>>; L] = core::array::from_fn(|_| None);
    // Last blocks, one buffer per lane, reused from job to job and wiped once.
    let mut lasts = [[0u8; MAX_BLOCK_BYTES]; L];
    let mut next = 0;
    loop {
        for (l, slot) in lanes.iter_mut().enumerate() {
            if slot.is_some() || next == count {
                continue;
            }
            let j = job(next);
            let final_flags = if j.bit_pad {
                T1_FINAL | T1_BIT_PAD
            } else {
                T1_FINAL
            };
            state.load(l, j.chain, j.tweak);
            *slot = Some(Lane::new(
                next,
                if HEAD { head } else { &[] },
                j.data,
                final_flags,
                &mut lasts[l],
                block,
            ));
            next += 1;
        }
        let Some(n) = lanes
            .iter()
            .flatten()
            .map(|lane| {
                if lane.at_last {
                    1
                } else {
                    lane.body.len() / block
                }
            })
            .min()
        else {
            break;
        };
        // Idle lanes compute on any readable bytes of the right length.
        let filler: &[u8] = match lanes
            .iter()
            .enumerate()
            .find_map(|(l, lane)| lane.as_ref().map(|lane| (l, lane)))
        {
            Some((l, lane)) if lane.at_last => &lasts[l][..block],
            Some((_, lane)) => &lane.body[..n * block],
            None => unreachable!(),
        };
        let mut blocks = [filler; L];
        let mut bytes_per_block = [block as u64; L];
        for (l, lane) in lanes.iter().enumerate() {
            match lane {
                Some(lane) if lane.at_last => {
                    blocks[l] = &lasts[l][..block];
                    bytes_per_block[l] = lane.last_len as u64;
                    if !(HEAD && lane.staged) {
                        state.tweak[1][l] |= lane.last_flags;
                    }
                }
                Some(lane) => blocks[l] = &lane.body[..n * block],
                None => {}
            }
        }
        kernel.compress_lanes(&mut state, blocks, bytes_per_block);
        for (l, slot) in lanes.iter_mut().enumerate() {
            let Some(lane) = slot else { continue };
            if HEAD && lane.staged {
                // The staged first block is done: on with the rest.
                *lane = Lane::new(
                    lane.job,
                    &[],
                    lane.body,
                    lane.last_flags,
                    &mut lasts[l],
                    block,
                );
            } else if lane.at_last {
                let mut chain = state.chain_of(l);
                done(lane.job, &chain);
                chain.zeroize();
                *slot = None;
            } else {
                lane.body = &lane.body[n * block..];
                lane.at_last = lane.body.is_empty();
            }
        }
    }
    lasts.zeroize();
}

/// The lane-kernel check the scheduler's checks and the NEON kernels' checks
/// share (cfg `skein_simd_test_hooks`, set only inside this repository).
#[cfg(skein_simd_test_hooks)]
pub(crate) mod kernel_check {
    use crate::backend::lanes::{LaneJob, LaneKernel, LaneState, MessageRun};
    use crate::backend::portable;
    use crate::spec::{T1_FINAL, T1_FIRST};
    use crate::test_rng::TestRng;

    /// Every kernel this CPU runs, straight against `portable::compress`
    /// lane by lane: random chains, tweaks near the carry, per-lane lengths.
    pub(crate) struct KernelCheck<const W: usize>(pub(crate) u64);
    impl<const W: usize> LaneJob<W> for KernelCheck<W> {
        type Output = ();
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
            let mut rng = TestRng::seed_from_u64(self.0);
            for n in [1usize, 2, 5] {
                let mut state = LaneState::<W, L>::new();
                let mut want = Vec::new();
                let data: Vec<Vec<u8>> = (0..L)
                    .map(|_| (0..n * 8 * W + 7).map(|_| rng.gen()).collect())
                    .collect();
                let mut bytes_per_block = [0u64; L];
                for i in 0..L {
                    let chain: [u64; W] = core::array::from_fn(|_| rng.gen());
                    let tweak = [
                        u64::MAX - rng.gen_range(0..3 * 8 * W as u64),
                        rng.gen::<u64>() | T1_FIRST,
                    ];
                    bytes_per_block[i] =
                        [8 * W as u64, rng.gen_range(1..=8 * W as u64), rng.gen()][i % 3];
                    state.load(i, &chain, tweak);
                    let (mut c, mut t) = (chain, tweak);
                    let offset = i % 8; // unaligned
                    portable::compress::<W>(
                        &mut c,
                        &mut t,
                        &data[i][offset..offset + n * 8 * W],
                        bytes_per_block[i],
                    );
                    want.push((c, t));
                }
                let blocks: [&[u8]; L] =
                    core::array::from_fn(|i| &data[i][i % 8..i % 8 + n * 8 * W]);
                kernel.compress_lanes(&mut state, blocks, bytes_per_block);
                for (i, (c, t)) in want.iter().enumerate() {
                    assert_eq!(&state.chain_of(i), c, "W={W} L={L} n={n} lane {i}");
                    assert_eq!(
                        [state.tweak[0][i], state.tweak[1][i]],
                        *t,
                        "W={W} L={L} n={n} lane {i} tweak"
                    );
                }
            }
            messages::<W, L, K>(kernel, &mut rng);
        }
    }

    /// The kernel's whole-message call ([`MessageRun`]) against
    /// `portable::compress` on each lane: 0 to 3 body blocks, every kind of
    /// last block (whole and 16 bytes read in place, with random bytes
    /// after them; the others from zero-padded copies), tweaks that carry
    /// into their second word, unaligned data, with and without the chain
    /// after the message; the digests as little-endian bytes.
    fn messages<const W: usize, const L: usize, K: LaneKernel<W, L>>(kernel: K, rng: &mut TestRng) {
        let block = 8 * W;
        for (case, n) in [0usize, 1, 2, 3, 0, 1, 2].into_iter().enumerate() {
            let tail = [0, 1, block - 1, block, rng.gen_range(1..block), 8, 16][case];
            let chain: [u64; W] = core::array::from_fn(|_| rng.gen());
            // Positions the message, or the output's 8 bytes, carry out of.
            let advance = (n * block + tail).max(1) as u64;
            let tweak = [
                u64::MAX - rng.gen_range(0..advance),
                rng.gen::<u64>() & !T1_FINAL | T1_FIRST,
            ];
            let out_tweak = [
                [0, u64::MAX - rng.gen_range(0..8)][case % 2],
                rng.gen::<u64>() & !T1_FINAL | T1_FIRST,
            ];
            // Random bytes after every message: read in place, the kernel
            // must stop at the message's end.
            let data: Vec<Vec<u8>> = (0..L)
                .map(|_| (0..(n + 1) * block + 7).map(|_| rng.gen()).collect())
                .collect();
            let messages: [&[u8]; L] =
                core::array::from_fn(|i| &data[i][i % 8..i % 8 + n * block + tail]);
            // The last blocks zero-padded past `tail` (the seam's contract).
            let mut padded = [[0u8; crate::spec::MAX_BLOCK_BYTES]; L];
            for (pad, m) in padded.iter_mut().zip(messages) {
                pad[..tail].copy_from_slice(&m[n * block..]);
            }
            let in_place = tail == block || tail == 16;
            let (mut finals, mut out) = ([[0u64; L]; W], vec![0u8; L * block]);
            kernel.messages(MessageRun {
                chain: &chain,
                tweak,
                messages,
                lasts: (!in_place).then_some(&padded),
                tail: tail as u64,
                out_tweak,
                finals: (case % 2 == 0).then_some(&mut finals),
                out: &mut out,
            });
            for i in 0..L {
                let (mut c, mut t) = (chain, tweak);
                portable::compress::<W>(&mut c, &mut t, &messages[i][..n * block], block as u64);
                t[1] |= T1_FINAL;
                portable::compress::<W>(&mut c, &mut t, &padded[i][..block], tail as u64);
                let after = c;
                let mut t = out_tweak;
                t[1] |= T1_FINAL;
                portable::compress::<W>(&mut c, &mut t, &[0; 128][..block], 8);
                let lane =
                    |rows: &[[u64; L]; W]| -> [u64; W] { core::array::from_fn(|j| rows[j][i]) };
                let want: Vec<u8> = c.iter().flat_map(|w| w.to_le_bytes()).collect();
                assert_eq!(
                    &out[i * block..(i + 1) * block],
                    &want[..],
                    "W={W} L={L} n={n} tail {tail} lane {i}"
                );
                if case % 2 == 0 {
                    assert_eq!(lane(&finals), after, "W={W} L={L} n={n} lane {i} finals");
                }
            }
        }
    }
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    use super::kernel_check::KernelCheck;
    use super::*;
    use crate::Backend;

    /// Every lane kernel form this CPU runs against `portable`, lane by lane.
    pub fn every_kernel_matches_portable_per_lane() {
        for choice in Backend::ALL
            .iter()
            .copied()
            .flat_map(LaneChoice::every_form)
        {
            choice.run::<4, _>(KernelCheck::<4>(1));
            choice.run::<8, _>(KernelCheck::<8>(2));
            choice.run::<16, _>(KernelCheck::<16>(3));
        }
    }
}
