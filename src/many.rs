//! Many independent messages at once: the lane scheduler shared by
//! [`SkeinMany`] (`hash_many`) and parallel tree hashing.
//!
//! A multi-lane kernel (see the "many lanes" section of `platform.rs`)
//! advances `L` UBI computations by the same number of blocks in one call.
//! The scheduler keeps `L` lanes busy: each lane runs one UBI (its message
//! blocks, then its final block with the final flag), and a lane whose UBI is
//! done is refilled with the next one. Each call advances every lane by the
//! smallest number of blocks any lane has left before its final block, so
//! equal-length messages go through in a single call per batch of `L`.
//!
//! `hash_many` runs two such passes: the message UBIs of all messages (longest
//! first, so that lanes finish together), then the output-stage UBIs (one per
//! output block of each message, spec 3.5.3). The chaining value after key,
//! configuration and the other arguments is computed once and shared by all
//! lanes.

use crate::consts::{types, T1_BIT_PAD, T1_FINAL};
use crate::platform::{LaneChoice, LaneJob, LaneKernel, LaneState};
use crate::threefish::words_to_le;
use crate::hasher::argument_chain;
use crate::ubi::start_tweak;
use crate::{Backend, Error, Params, Platform, Skein};
use alloc::vec::Vec;
use zeroize::Zeroize;

/// Largest block: Skein-1024's 128 bytes.
const MAX_BLOCK: usize = 128;

/// Below this many message bytes in total, threads cost more than they bring.
pub(crate) const PARALLEL_MIN_BYTES: usize = 128 * 1024;

/// One UBI computation for the lanes: starting chain and tweak (as made by
/// [`start_tweak`]), the whole input, and whether its last byte is bit-padded.
#[derive(Clone, Copy)]
pub(crate) struct UbiJob<'a, const W: usize> {
    pub(crate) chain: &'a [u64; W],
    pub(crate) tweak: [u64; 2],
    pub(crate) data: &'a [u8],
    pub(crate) bit_pad: bool,
}

/// A lane's UBI in progress: the whole blocks before the last one, then the
/// last block (copied, zero-padded, into the lane's buffer) with its true
/// length.
struct Lane<'a> {
    job: usize,
    body: &'a [u8],
    last_len: usize,
    at_last: bool,
    /// Flags of the last block's tweak: final, and maybe bit pad.
    last_flags: u64,
}

/// Run UBIs `0..count` on `kernel`, `L` at a time; `done(i, chain)` gets the
/// result of UBI `i` (in completion order).
pub(crate) fn run_ubis<'a, const W: usize, const L: usize, K: LaneKernel<W, L>>(
    kernel: K,
    count: usize,
    job: impl Fn(usize) -> UbiJob<'a, W>,
    mut done: impl FnMut(usize, &[u64; W]),
) {
    let block = 8 * W;
    let mut state = LaneState::<W, L>::new();
    let mut lanes: [Option<Lane<'a>>; L] = core::array::from_fn(|_| None);
    // Last blocks, one buffer per lane, reused from job to job and wiped once.
    let mut lasts = [[0u8; MAX_BLOCK]; L];
    let mut next = 0;
    loop {
        for (l, slot) in lanes.iter_mut().enumerate() {
            if slot.is_some() || next == count {
                continue;
            }
            let j = job(next);
            let body_len = j.data.len().saturating_sub(1) / block * block;
            let tail = &j.data[body_len..];
            lasts[l][..tail.len()].copy_from_slice(tail);
            lasts[l][tail.len()..block].fill(0);
            let last_flags = if j.bit_pad { T1_FINAL | T1_BIT_PAD } else { T1_FINAL };
            state.load(l, j.chain, j.tweak);
            *slot = Some(Lane { job: next, body: &j.data[..body_len], last_len: tail.len(), at_last: body_len == 0, last_flags });
            next += 1;
        }
        let Some(n) = lanes.iter().flatten().map(|lane| if lane.at_last { 1 } else { lane.body.len() / block }).min()
        else {
            break;
        };
        // Idle lanes compute on any readable bytes of the right length.
        let filler: &[u8] = match lanes.iter().enumerate().find_map(|(l, lane)| lane.as_ref().map(|lane| (l, lane))) {
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
                    state.tweak[1][l] |= lane.last_flags;
                }
                Some(lane) => blocks[l] = &lane.body[..n * block],
                None => {}
            }
        }
        kernel.compress(&mut state, blocks, bytes_per_block);
        for (l, slot) in lanes.iter_mut().enumerate() {
            let Some(lane) = slot else { continue };
            if lane.at_last {
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

/// Equal-shaped UBIs into `out[i]`, on lanes and, with `parallel`, on the
/// threads of the current rayon pool.
pub(crate) fn ubis_into<'a, const W: usize, F>(lanes: LaneChoice, jobs: F, out: &mut [[u64; W]], parallel: bool)
where
    F: Fn(usize) -> UbiJob<'a, W> + Sync,
{
    struct Job<'o, F, const W: usize> {
        jobs: F,
        out: &'o mut [[u64; W]],
        parallel: bool,
    }
    impl<'a, 'o, const W: usize, F: Fn(usize) -> UbiJob<'a, W> + Sync> LaneJob<W> for Job<'o, F, W> {
        type Output = ();
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
            let Job { jobs, out, parallel } = self;
            #[cfg(feature = "rayon")]
            if parallel && rayon::current_num_threads() > 1 && out.len() > L {
                use rayon::prelude::*;
                // A few chunks per thread, each a whole number of lane groups.
                let per_chunk = out.len().div_ceil(4 * rayon::current_num_threads()).next_multiple_of(L);
                out.par_chunks_mut(per_chunk).enumerate().for_each(|(c, outs)| {
                    let first = c * per_chunk;
                    run_ubis::<W, L, K>(kernel, outs.len(), |i| jobs(first + i), |i, chain| outs[i] = *chain);
                });
                return;
            }
            let _ = parallel;
            run_ubis::<W, L, K>(kernel, out.len(), &jobs, |i, chain| out[i] = *chain);
        }
    }
    lanes.run::<W, _>(Job { jobs, out, parallel })
}

/// The output stage (spec 3.5.3) on lanes: block `c` of `out` is
/// `UBI(g, c as 8 little-endian bytes, OUT)`, truncated to `out.len()`; the
/// same bytes as `ubi::output`, several blocks per kernel call. Worth it for
/// outputs of more than a few blocks (Skein as a KDF or stream cipher).
#[allow(dead_code)] // for the hasher's output stage; tested below
pub(crate) fn output_lanes<const W: usize>(lanes: LaneChoice, g: &[u64; W], out: &mut [u8]) {
    struct Output<'o, 'g, const W: usize> {
        g: &'g [u64; W],
        out: &'o mut [u8],
    }
    impl<const W: usize> LaneJob<W> for Output<'_, '_, W> {
        type Output = ();
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
            let Output { g, out } = self;
            let block = 8 * W;
            let counters: Vec<[u8; 8]> = (0..out.len().div_ceil(block) as u64).map(u64::to_le_bytes).collect();
            let tweak = start_tweak(types::OUT, 0, 0);
            let mut bytes = [0u8; MAX_BLOCK];
            let len = out.len();
            run_ubis::<W, L, K>(
                kernel,
                counters.len(),
                |c| UbiJob { chain: g, tweak, data: &counters[c], bit_pad: false },
                |c, chain| {
                    let chunk = &mut out[c * block..((c + 1) * block).min(len)];
                    words_to_le(chain, &mut bytes[..block]);
                    chunk.copy_from_slice(&bytes[..chunk.len()]);
                },
            );
            bytes.zeroize();
        }
    }
    lanes.run::<W, _>(Output { g, out })
}

/// Skein over many independent messages at once, with the same arguments
/// ([`Params`]) for all; the fast way to hash a batch of records or blocks.
///
/// The messages go through a multi-lane kernel that hashes several of them
/// per instruction (8 with AVX-512, 4 with AVX2, 2 with SSE2; plain Rust does
/// one at a time), and, with the `rayon` feature (on by default), a large batch is split
/// across the threads of the current rayon pool (choose their number with
/// `rayon::ThreadPool::install`). Messages may have any lengths; equal
/// lengths are fastest. The chaining value after the key, configuration and
/// other arguments is computed once, in [`new`](Self::new), and shared by every
/// message, so a keyed hash of many small blocks costs no more than an
/// unkeyed one.
///
/// Results equal [`Skein::with_params`] + `update` + `finalize` for each
/// message. With tree parameters, each message is hashed by its own tree
/// hasher, in turn.
///
/// Tree hashing ([`Params::tree`] with [`Skein`]) uses the same kernels and
/// threads for the leaves and nodes of one long message. To bound the number
/// of threads of either, run it inside a pool:
///
/// ```
/// use skein_simd::{Params, Skein512, TreeParams};
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let params = Params::new().tree(TreeParams::new(10, 1, 255).unwrap());
/// let data = vec![0u8; 1 << 20];
/// let digest = pool.install(|| {
///     let mut h = Skein512::with_params(&params).unwrap();
///     h.update(&data);
///     h.finalize_vec()
/// });
/// # assert_eq!(digest.len(), 64);
/// ```
///
/// ```
/// use skein_simd::{Params, Skein512, SkeinMany512};
///
/// // ZFS-style checksums: Skein-512-256 keyed with a 32-byte salt.
/// let salt = [7u8; 32];
/// let params = Params::new().output_bits(256).key(&salt);
/// let many = SkeinMany512::new(&params).unwrap();
/// let blocks: Vec<Vec<u8>> = (0..10u8).map(|i| vec![i; 4096]).collect();
/// let mut sums = vec![0u8; blocks.len() * many.output_len()];
/// many.hash_into(&blocks, &mut sums);
///
/// let mut one = Skein512::with_params(&params).unwrap();
/// one.update(&blocks[3]);
/// assert_eq!(&sums[3 * 32..4 * 32], &one.finalize_vec()[..]);
/// ```
#[derive(Clone)]
pub struct SkeinMany<const W: usize> {
    lanes: LaneChoice,
    output_bits: u64,
    /// Chaining value once every argument before the message is hashed.
    start: [u64; W],
    /// With tree parameters: a fresh hasher to clone per message.
    tree: Option<Skein<W>>,
}

/// [`SkeinMany`] with a 256-bit state.
pub type SkeinMany256 = SkeinMany<4>;
/// [`SkeinMany`] with a 512-bit state.
pub type SkeinMany512 = SkeinMany<8>;
/// [`SkeinMany`] with a 1024-bit state.
pub type SkeinMany1024 = SkeinMany<16>;


impl<const W: usize> SkeinMany<W> {
    /// Prepare for hashing messages with these arguments.
    ///
    /// A forced [`Params::backend`] picks that instruction set's multi-lane
    /// kernel (error if this CPU or build has none: see [`Backend::lanes`]);
    /// otherwise the fastest one is used.
    ///
    /// ```
    /// use skein_simd::{Backend, Params, SkeinMany256};
    /// let portable = SkeinMany256::new(&Params::new().backend(Backend::Portable)).unwrap();
    /// assert_eq!(portable.backend(), Backend::Portable);
    /// assert!(SkeinMany256::new(&Params::new().output_bits(0)).is_err());
    /// ```
    pub fn new(params: &Params<'_>) -> Result<Self, Error> {
        let output_bits = params.output_bits.unwrap_or(64 * W as u64);
        if output_bits == 0 {
            return Err(Error::ZeroOutputBits);
        }
        let lanes = match params.backend {
            Some(b) => LaneChoice::of(b).ok_or(Error::BackendUnavailable(b))?,
            None => LaneChoice::detect(),
        };
        let tree = match params.tree {
            Some(_) => Some(Skein::<W>::with_params(params)?),
            None => None,
        };
        let start = argument_chain::<W>(&Platform::detect(), params, output_bits);
        Ok(SkeinMany { lanes, output_bits, start, tree })
    }

    /// Output length of each digest in bytes: `ceil(output_bits / 8)`.
    pub fn output_len(&self) -> usize {
        self.output_bits.div_ceil(8) as usize
    }

    /// The instruction set of the multi-lane kernel in use.
    pub fn backend(&self) -> Backend {
        self.lanes.backend()
    }

    /// How many messages one kernel call hashes side by side.
    pub fn lanes(&self) -> usize {
        self.lanes.lanes()
    }

    /// Hash every message; digest `i` goes to
    /// `out[i * output_len()..(i + 1) * output_len()]`.
    ///
    /// # Panics
    /// If `out.len() != messages.len() * self.output_len()`.
    ///
    /// ```
    /// use skein_simd::{Params, Skein256, SkeinMany256};
    /// let many = SkeinMany256::new(&Params::new().output_bits(128)).unwrap();
    /// let messages: [&[u8]; 3] = [b"", b"abc", &[0u8; 1000]];
    /// let mut out = [0u8; 3 * 16];
    /// many.hash_into(&messages, &mut out);
    /// assert_eq!(&out[16..32], &Skein256::digest(128, b"abc")[..]);
    /// ```
    pub fn hash_into<M: AsRef<[u8]> + Sync>(&self, messages: &[M], out: &mut [u8]) {
        let len = self.output_len();
        assert_eq!(out.len(), messages.len() * len, "hash_many: output must be messages.len() * output_len() bytes");
        if let Some(tree) = &self.tree {
            for (message, digest) in messages.iter().zip(out.chunks_exact_mut(len)) {
                let mut h = tree.clone();
                h.update(message.as_ref());
                h.finalize_into(digest);
            }
            return;
        }
        #[cfg(feature = "rayon")]
        {
            let total: usize = messages.iter().map(|m| m.as_ref().len()).sum();
            let threads = rayon::current_num_threads();
            if threads > 1 && messages.len() > self.lanes() && total >= PARALLEL_MIN_BYTES {
                use rayon::prelude::*;
                let per_chunk = messages.len().div_ceil(4 * threads).max(self.lanes());
                messages
                    .par_chunks(per_chunk)
                    .zip(out.par_chunks_mut(per_chunk * len))
                    .for_each(|(messages, out)| self.hash_batch(messages, out));
                return;
            }
        }
        self.hash_batch(messages, out);
    }

    /// Hash every message and return the digests in order.
    ///
    /// ```
    /// use skein_simd::{Params, Skein1024, SkeinMany1024};
    /// let many = SkeinMany1024::new(&Params::new()).unwrap();
    /// let digests = many.hash_vec(&["one", "two", "three"]);
    /// assert_eq!(digests[1], Skein1024::digest(1024, b"two"));
    /// ```
    pub fn hash_vec<M: AsRef<[u8]> + Sync>(&self, messages: &[M]) -> Vec<Vec<u8>> {
        let len = self.output_len();
        let mut flat = alloc::vec![0u8; messages.len() * len];
        self.hash_into(messages, &mut flat);
        flat.chunks_exact(len).map(<[u8]>::to_vec).collect()
    }

    /// One thread's share: message UBIs, then output UBIs, on lanes.
    fn hash_batch<M: AsRef<[u8]>>(&self, messages: &[M], out: &mut [u8]) {
        struct Batch<'s, 'm, M, const W: usize> {
            many: &'s SkeinMany<W>,
            messages: &'m [M],
            out: &'m mut [u8],
        }
        impl<M: AsRef<[u8]>, const W: usize> LaneJob<W> for Batch<'_, '_, M, W> {
            type Output = ();
            fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
                let Batch { many, messages, out } = self;
                let block = 8 * W;
                // Longest first: lanes that start together end together.
                let mut order: Vec<usize> = (0..messages.len()).collect();
                order.sort_by_key(|&i| core::cmp::Reverse(messages[i].as_ref().len()));
                let mut finals = alloc::vec![[0u64; W]; messages.len()];
                let message_tweak = start_tweak(types::MSG, 0, 0);
                run_ubis::<W, L, K>(
                    kernel,
                    messages.len(),
                    |i| UbiJob { chain: &many.start, tweak: message_tweak, data: messages[order[i]].as_ref(), bit_pad: false },
                    |i, chain| finals[order[i]] = *chain,
                );
                // Output stage: block c of a digest is UBI(G, c as 8 bytes, OUT).
                let len = many.output_len();
                let out_blocks = len.div_ceil(block);
                let counters: Vec<[u8; 8]> = (0..out_blocks as u64).map(u64::to_le_bytes).collect();
                let output_tweak = start_tweak(types::OUT, 0, 0);
                let mut bytes = [0u8; MAX_BLOCK];
                run_ubis::<W, L, K>(
                    kernel,
                    messages.len() * out_blocks,
                    |i| UbiJob { chain: &finals[i / out_blocks], tweak: output_tweak, data: &counters[i % out_blocks], bit_pad: false },
                    |i, chain| {
                        let (m, c) = (i / out_blocks, i % out_blocks);
                        let digest = &mut out[m * len..(m + 1) * len];
                        let chunk = &mut digest[c * block..len.min((c + 1) * block)];
                        words_to_le(chain, &mut bytes[..block]);
                        chunk.copy_from_slice(&bytes[..chunk.len()]);
                    },
                );
                bytes.zeroize();
                finals.iter_mut().for_each(Zeroize::zeroize);
            }
        }
        self.lanes.run::<W, _>(Batch { many: self, messages, out })
    }
}

impl<const W: usize> Drop for SkeinMany<W> {
    fn drop(&mut self) {
        self.start.zeroize();
    }
}

impl<const W: usize> core::fmt::Debug for SkeinMany<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SkeinMany{}-{} {{ backend: {}, lanes: {} }}", 64 * W, self.output_bits, self.backend(), self.lanes())
    }
}

impl<const W: usize> Skein<W> {
    /// Hash a batch of independent messages with the same arguments; digest
    /// `i` goes to `out[i * len..(i + 1) * len]` with `len` the output length
    /// in bytes. A one-call form of [`SkeinMany`] (which see; keep a
    /// `SkeinMany` to reuse the prepared arguments).
    ///
    /// # Panics
    /// If `out.len()` is not `messages.len()` times the output length.
    ///
    /// ```
    /// use skein_simd::{Params, Skein512};
    /// let messages = [vec![1u8; 1024], vec![2u8; 1024], vec![3u8; 100]];
    /// let mut out = vec![0u8; 3 * 64];
    /// Skein512::hash_many(&Params::new(), &messages, &mut out).unwrap();
    /// assert_eq!(&out[128..], &Skein512::digest(512, &messages[2])[..]);
    /// ```
    pub fn hash_many<M: AsRef<[u8]> + Sync>(params: &Params<'_>, messages: &[M], out: &mut [u8]) -> Result<(), Error> {
        SkeinMany::<W>::new(params)?.hash_into(messages, out);
        Ok(())
    }

    /// Hash a batch of independent messages with the same arguments and
    /// return the digests in order (see [`SkeinMany`]).
    ///
    /// ```
    /// use skein_simd::{Params, Skein256};
    /// let digests = Skein256::hash_many_vec(&Params::new().output_bits(160), &[&b"a"[..], b"bc"]).unwrap();
    /// assert_eq!(digests, [Skein256::digest(160, b"a"), Skein256::digest(160, b"bc")]);
    /// ```
    pub fn hash_many_vec<M: AsRef<[u8]> + Sync>(params: &Params<'_>, messages: &[M]) -> Result<Vec<Vec<u8>>, Error> {
        Ok(SkeinMany::<W>::new(params)?.hash_vec(messages))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{lanes_portable, portable};
    use crate::consts::T1_FIRST;
    use rand::{Rng, SeedableRng};

    /// The portable kernel at any lane count.
    #[derive(Clone, Copy)]
    struct AnyLanes;
    impl<const W: usize, const L: usize> LaneKernel<W, L> for AnyLanes {
        fn compress(self, state: &mut LaneState<W, L>, blocks: [&[u8]; L], bytes_per_block: [u64; L]) {
            lanes_portable::compress::<W, L>(state, blocks, bytes_per_block)
        }
    }

    /// (chain, level, position, data, bit pad)
    type Job<const W: usize> = ([u64; W], u8, u64, Vec<u8>, bool);

    fn random_jobs<const W: usize>(rng: &mut impl Rng, count: usize) -> Vec<Job<W>> {
        (0..count)
            .map(|_| {
                let chain: [u64; W] = core::array::from_fn(|_| rng.gen());
                // Positions near 2^64 make the tweak add carry into word 1.
                let position = if rng.gen() { u64::MAX - rng.gen_range(0..2000) } else { rng.gen_range(0..1 << 40) };
                let level = rng.gen_range(0..4);
                let len = if rng.gen_range(0..4) == 0 { rng.gen_range(0..3000) } else { rng.gen_range(0..300) };
                let data = (0..len).map(|_| rng.gen()).collect();
                (chain, level, position, data, rng.gen_range(0..4) == 0)
            })
            .collect()
    }

    /// One UBI at a time with the single-stream code.
    fn sequential<const W: usize>((chain, level, position, data, bit_pad): &Job<W>) -> [u64; W] {
        let platform = Platform::force(Backend::Portable).unwrap();
        let mut u = crate::ubi::Ubi::<W>::new(*chain, types::MSG, *level, *position);
        u.update(&platform, data);
        u.finish(&platform, *bit_pad)
    }

    fn scheduler_matches<const W: usize, const L: usize>(seed: u64) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        for count in [0, 1, L - 1, L, L + 1, 3 * L + 2, 40] {
            let jobs = random_jobs::<W>(&mut rng, count);
            let mut got = alloc::vec![None; count];
            run_ubis::<W, L, _>(
                AnyLanes,
                count,
                |i| UbiJob {
                    chain: &jobs[i].0,
                    tweak: start_tweak(types::MSG, jobs[i].1, jobs[i].2),
                    data: &jobs[i].3,
                    bit_pad: jobs[i].4,
                },
                |i, chain| {
                    assert!(got[i].is_none(), "job {i} finished twice");
                    got[i] = Some(*chain);
                },
            );
            for (i, job) in jobs.iter().enumerate() {
                assert_eq!(got[i], Some(sequential::<W>(job)), "W={W} L={L} job {i} of {count}");
            }
        }
    }

    #[test]
    fn scheduler_every_lane_count() {
        scheduler_matches::<4, 1>(1);
        scheduler_matches::<4, 3>(2);
        scheduler_matches::<8, 2>(3);
        scheduler_matches::<8, 4>(4);
        scheduler_matches::<8, 8>(5);
        scheduler_matches::<16, 5>(6);
        scheduler_matches::<16, 8>(7);
    }

    /// Every kernel this CPU runs, straight against `portable::compress`
    /// lane by lane: random chains, tweaks near the carry, per-lane lengths.
    struct KernelCheck<const W: usize>(u64);
    impl<const W: usize> LaneJob<W> for KernelCheck<W> {
        type Output = ();
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
            let mut rng = rand::rngs::StdRng::seed_from_u64(self.0);
            for n in [1usize, 2, 5] {
                let mut state = LaneState::<W, L>::new();
                let mut want = Vec::new();
                let data: Vec<Vec<u8>> = (0..L).map(|_| (0..n * 8 * W + 7).map(|_| rng.gen()).collect()).collect();
                let mut bytes_per_block = [0u64; L];
                for i in 0..L {
                    let chain: [u64; W] = core::array::from_fn(|_| rng.gen());
                    let tweak = [u64::MAX - rng.gen_range(0..3 * 8 * W as u64), rng.gen::<u64>() | T1_FIRST];
                    bytes_per_block[i] = [8 * W as u64, rng.gen_range(1..=8 * W as u64), rng.gen()][i % 3];
                    state.load(i, &chain, tweak);
                    let (mut c, mut t) = (chain, tweak);
                    let offset = i % 8; // unaligned
                    portable::compress::<W>(&mut c, &mut t, &data[i][offset..offset + n * 8 * W], bytes_per_block[i]);
                    want.push((c, t));
                }
                let blocks: [&[u8]; L] = core::array::from_fn(|i| &data[i][i % 8..i % 8 + n * 8 * W]);
                kernel.compress(&mut state, blocks, bytes_per_block);
                for (i, (c, t)) in want.iter().enumerate() {
                    assert_eq!(&state.chain_of(i), c, "W={W} L={L} n={n} lane {i}");
                    assert_eq!([state.tweak[0][i], state.tweak[1][i]], *t, "W={W} L={L} n={n} lane {i} tweak");
                }
            }
        }
    }

    #[test]
    fn output_stage_on_lanes_matches_sequential() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let platform = Platform::force(Backend::Portable).unwrap();
        for backend in Backend::ALL {
            let Some(lanes) = LaneChoice::of(backend) else { continue };
            for len in [1usize, 31, 32, 64, 65, 200, 1000, 4097] {
                let g4: [u64; 4] = rng.gen();
                let g8: [u64; 8] = rng.gen();
                let g16: [u64; 16] = core::array::from_fn(|_| rng.gen());
                let (mut a, mut b) = (alloc::vec![0u8; len], alloc::vec![0u8; len]);
                crate::ubi::output::<4>(&platform, &g4, &mut a);
                output_lanes::<4>(lanes, &g4, &mut b);
                assert_eq!(a, b, "256 {backend} {len}");
                crate::ubi::output::<8>(&platform, &g8, &mut a);
                output_lanes::<8>(lanes, &g8, &mut b);
                assert_eq!(a, b, "512 {backend} {len}");
                crate::ubi::output::<16>(&platform, &g16, &mut a);
                output_lanes::<16>(lanes, &g16, &mut b);
                assert_eq!(a, b, "1024 {backend} {len}");
            }
        }
    }

    #[test]
    fn every_kernel_matches_portable_per_lane() {
        for backend in Backend::ALL {
            let Some(choice) = LaneChoice::of(backend) else { continue };
            choice.run::<4, _>(KernelCheck::<4>(1));
            choice.run::<8, _>(KernelCheck::<8>(2));
            choice.run::<16, _>(KernelCheck::<16>(3));
        }
    }
}
