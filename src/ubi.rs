//! Unique Block Iteration (spec 3.4): the tweak, block buffering, and the
//! configuration and output stages. UBI knows nothing of instruction sets: it
//! hands whole runs of blocks to [`Platform::compress`], or, for long outputs,
//! to the platform's multi-lane kernel.

use crate::backend::lanes::LaneChoice;
use crate::schedule::{run_ubis_on, UbiJob};
use crate::spec::{BlockType, T1_BIT_PAD, T1_FINAL, T1_FIRST, T1_LEVEL_SHIFT, T1_TYPE_SHIFT};
use crate::threefish::{encrypt_const, words_to_le};
use crate::Platform;
use zeroize::Zeroize;

/// Tweak of the first block of a UBI of `ubi_type` at tree `level`, starting at
/// byte `position`.
pub(crate) const fn start_tweak(ubi_type: BlockType, level: u8, position: u64) -> [u64; 2] {
    [
        position,
        T1_FIRST | ((ubi_type as u64) << T1_TYPE_SHIFT) | ((level as u64) << T1_LEVEL_SHIFT),
    ]
}

/// One UBI computation in progress. The last block (full or not) always stays
/// buffered, since only `finish` knows it is final.
///
/// The buffer is one block kept as words and used as bytes (`bytemuck`):
/// `zeroize` wipes a byte array one volatile byte store at a time (the
/// former 128-byte buffer took 128 stores and a loop per hasher), a word
/// array in W stores, and the hasher is smaller to move.
#[derive(Clone)]
pub(crate) struct Ubi<const W: usize> {
    chain: [u64; W],
    tweak: [u64; 2],
    buf: [u64; W],
    buf_len: usize,
}

impl<const W: usize> Ubi<W> {
    const BLOCK: usize = 8 * W;

    pub(crate) fn new(chain: [u64; W], ubi_type: BlockType, level: u8, position: u64) -> Self {
        Ubi {
            chain,
            tweak: start_tweak(ubi_type, level, position),
            buf: [0; W],
            buf_len: 0,
        }
    }

    /// A UBI in progress from its parts (a saved state): `chain` and `tweak`
    /// after the blocks compressed so far, and the buffered bytes (at most
    /// one block).
    #[cfg(any(feature = "alloc", feature = "digest"))]
    pub(crate) fn from_parts(chain: [u64; W], tweak: [u64; 2], buffered: &[u8]) -> Self {
        let mut u = Ubi {
            chain,
            tweak,
            buf: [0; W],
            buf_len: buffered.len(),
        };
        u.buf()[..buffered.len()].copy_from_slice(buffered);
        u
    }

    /// The chaining value after the blocks compressed so far.
    #[cfg(any(feature = "alloc", feature = "digest"))]
    pub(crate) fn chain(&self) -> &[u64; W] {
        &self.chain
    }

    /// The tweak of the next block to compress.
    #[cfg(any(feature = "alloc", feature = "digest"))]
    pub(crate) fn tweak(&self) -> [u64; 2] {
        self.tweak
    }

    /// The buffered bytes not compressed yet (the last block, full or not).
    #[cfg(any(feature = "alloc", feature = "digest"))]
    pub(crate) fn buffered(&self) -> &[u8] {
        &bytemuck::cast_slice::<u64, u8>(&self.buf[..])[..self.buf_len]
    }

    fn buf(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(&mut self.buf[..])
    }

    pub(crate) fn update(&mut self, platform: &Platform, mut data: &[u8]) {
        let block = Self::BLOCK;
        if self.buf_len + data.len() > block {
            if self.buf_len > 0 {
                let fill = block - self.buf_len;
                let at = self.buf_len;
                self.buf()[at..block].copy_from_slice(&data[..fill]);
                data = &data[fill..];
                let buf: &[u8] = bytemuck::cast_slice(&self.buf[..]);
                platform.compress::<W>(&mut self.chain, &mut self.tweak, buf, block as u64);
                self.buf_len = 0;
            }
            if data.len() > block {
                let whole = (data.len() - 1) / block * block;
                platform.compress::<W>(
                    &mut self.chain,
                    &mut self.tweak,
                    &data[..whole],
                    block as u64,
                );
                data = &data[whole..];
            }
        }
        let at = self.buf_len;
        self.buf()[at..at + data.len()].copy_from_slice(data);
        self.buf_len += data.len();
    }

    /// Process the buffered last block with the final flag (and the bit-pad
    /// flag when the message ended inside a byte); return the chaining value.
    pub(crate) fn finish(&mut self, platform: &Platform, bit_pad: bool) -> [u64; W] {
        self.finish_with(bit_pad, |chain, tweak, last, len| {
            platform.compress::<W>(chain, tweak, last, len)
        });
        self.chain
    }

    /// [`finish`](Self::finish), then the output stage of one block into
    /// `out` (at most a block), in one call of the block function
    /// ([`Platform::compress_then_output`]).
    pub(crate) fn finish_then_output(
        &mut self,
        platform: &Platform,
        bit_pad: bool,
        out: &mut [u8],
    ) {
        self.finish_with(bit_pad, |chain, tweak, last, len| {
            platform.compress_then_output::<W>(chain, tweak, last, len, out)
        });
    }

    /// The end of the UBI both of the above share: the final flag (and the
    /// bit-pad flag), the buffered last block padded with zeros and handed
    /// to `last_block` as `(chain, tweak, block, bytes)`, nothing left
    /// buffered.
    #[inline(always)]
    fn finish_with(
        &mut self,
        bit_pad: bool,
        last_block: impl FnOnce(&mut [u64; W], &mut [u64; 2], &[u8], u64),
    ) {
        let block = Self::BLOCK;
        self.tweak[1] |= T1_FINAL | if bit_pad { T1_BIT_PAD } else { 0 };
        let at = self.buf_len;
        if at < block {
            // (A zero-length fill is still a `memset` call.)
            self.buf()[at..block].fill(0);
        }
        let buf: &[u8] = bytemuck::cast_slice(&self.buf[..]);
        last_block(&mut self.chain, &mut self.tweak, buf, self.buf_len as u64);
        self.buf_len = 0;
    }
}

impl<const W: usize> Drop for Ubi<W> {
    fn drop(&mut self) {
        self.chain.zeroize();
        self.buf.zeroize();
    }
}

/// A whole UBI over `data` in one call. Blocks are read from `data` in
/// place; only a partial (or empty) last block is copied, to pad it.
pub(crate) fn ubi<const W: usize>(
    platform: &Platform,
    chain: [u64; W],
    ubi_type: BlockType,
    data: &[u8],
) -> [u64; W] {
    ubi_with(
        platform,
        chain,
        ubi_type,
        data,
        |chain, tweak, last, len| platform.compress::<W>(chain, tweak, last, len),
    )
}

/// [`ubi`] of a message, then the output stage of one block into `out` (at
/// most a block), its last block and the output block in one call of the
/// block function ([`Platform::compress_then_output`]). The chaining value
/// is wiped.
pub(crate) fn ubi_then_output<const W: usize>(
    platform: &Platform,
    chain: [u64; W],
    data: &[u8],
    out: &mut [u8],
) {
    let mut g = ubi_with(
        platform,
        chain,
        BlockType::Message,
        data,
        |chain, tweak, last, len| platform.compress_then_output::<W>(chain, tweak, last, len, out),
    );
    g.zeroize();
}

/// The UBI of [`ubi`], its last block (final flag set, padded) handed to
/// `last` as `(chain, tweak, block, bytes)`.
#[inline(always)]
fn ubi_with<const W: usize>(
    platform: &Platform,
    mut chain: [u64; W],
    ubi_type: BlockType,
    data: &[u8],
    last_block: impl FnOnce(&mut [u64; W], &mut [u64; 2], &[u8], u64),
) -> [u64; W] {
    let block = 8 * W;
    let mut tweak = start_tweak(ubi_type, 0, 0);
    let whole = data.len().saturating_sub(1) / block * block;
    let (body, last) = data.split_at(whole);
    if !body.is_empty() {
        platform.compress::<W>(&mut chain, &mut tweak, body, block as u64);
    }
    tweak[1] |= T1_FINAL;
    if last.len() == block {
        last_block(&mut chain, &mut tweak, last, block as u64);
    } else {
        let mut buf = [0u64; W];
        bytemuck::cast_slice_mut::<u64, u8>(&mut buf[..])[..last.len()].copy_from_slice(last);
        last_block(
            &mut chain,
            &mut tweak,
            bytemuck::cast_slice(&buf[..]),
            last.len() as u64,
        );
        buf.zeroize();
    }
    chain
}

/// "SHA3" then version 1, little-endian: the first word of every
/// configuration string (spec 3.5.2).
const CONFIG_SCHEMA: u64 = 0x0000_0001_3341_4853;
/// Tweak flags of the configuration UBI, whose one block holds
/// [`CONFIG_BYTES`] bytes.
const CONFIG_FLAGS: u64 = T1_FIRST | T1_FINAL | ((BlockType::Config as u64) << T1_TYPE_SHIFT);
const CONFIG_BYTES: u64 = 32;

/// Words of the 32-byte configuration string (spec 3.5.2), zero-padded to a
/// block: schema "SHA3", version 1, output length in bits, and the tree word
/// `leaf | fan_out << 8 | max_height << 16` (hashed as given).
pub(crate) const fn config_block<const W: usize>(output_bits: u64, tree_info: u64) -> [u64; W] {
    let mut c = [0u64; W];
    c[0] = CONFIG_SCHEMA;
    c[1] = output_bits;
    c[2] = tree_info;
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
    let tree_info = leaf as u64 | (fan_out as u64) << 8 | (max_height as u64) << 16;
    let block = config_block::<W>(output_bits, tree_info);
    let tweak = [CONFIG_BYTES, CONFIG_FLAGS];
    let mut x = encrypt_const::<W>(chain, &tweak, &block);
    let mut i = 0;
    while i < W {
        x[i] ^= block[i];
        i += 1;
    }
    x
}

/// The same configuration UBI at run time on `platform`'s block function,
/// for any tree word.
pub(crate) fn config_ubi<const W: usize>(
    platform: &Platform,
    chain: &[u64; W],
    output_bits: u64,
    tree_info: u64,
) -> [u64; W] {
    // Words in memory as the little-endian bytes of the block.
    let block = config_block::<W>(output_bits, tree_info).map(u64::to_le);
    let mut out = *chain;
    let mut tweak = [0, CONFIG_FLAGS];
    platform.compress::<W>(
        &mut out,
        &mut tweak,
        bytemuck::cast_slice(&block[..]),
        CONFIG_BYTES,
    );
    out
}

/// Chaining value after configuration for an unkeyed hash.
pub(crate) const fn config_chain<const W: usize>(
    output_bits: u64,
    leaf: u8,
    fan_out: u8,
    max_height: u8,
) -> [u64; W] {
    config_chain_from::<W>(&[0; W], output_bits, leaf, fan_out, max_height)
}

/// Outputs of at least this many blocks go through the multi-lane kernel
/// (several output blocks per call); shorter ones through the single-stream
/// block function (one call per block, no idle lanes).
pub(crate) const LANE_OUTPUT_MIN_BLOCKS: usize = 8;

/// The output stage (spec 3.5.3): block `i` of the result is
/// `UBI(G, i as 8 little-endian bytes, T_out)`, truncated to `out.len()`.
pub(crate) fn output<const W: usize>(platform: &Platform, g: &[u64; W], out: &mut [u8]) {
    output_from(platform, g, 0, out)
}

/// The output stage from block `first_counter` on: `out` gets output blocks
/// `first_counter`, `first_counter + 1`, ... (the last one truncated). Any
/// window of the output costs only its own blocks: Skein's output is a
/// counter mode. Long windows are spread over threads as well (the
/// `schedule` rule), short ones run on the lanes or, under
/// [`LANE_OUTPUT_MIN_BLOCKS`], one block at a time.
pub(crate) fn output_from<const W: usize>(
    platform: &Platform,
    g: &[u64; W],
    first_counter: u64,
    out: &mut [u8],
) {
    #[cfg(feature = "alloc")]
    if out.len() >= crate::schedule::PARALLEL_MIN_BYTES {
        let block = 8 * W;
        let whole = out.len() / block;
        let (body, tail) = out.split_at_mut(whole * block);
        let lanes = platform.lane_choice();
        crate::schedule::for_each_chunk(whole, lanes.lanes(), true, body, block, |items, out| {
            let len = out.len();
            let first = first_counter.wrapping_add(items.start as u64);
            output_on_lanes_from::<W>(lanes, core::slice::from_ref(g), |m| m, first, out, len)
        });
        let last = first_counter.wrapping_add(whole as u64);
        return output_sequential_from(platform, g, last, tail);
    }
    if out.len().div_ceil(8 * W) >= LANE_OUTPUT_MIN_BLOCKS {
        let len = out.len();
        return output_on_lanes_from::<W>(
            platform.lane_choice(),
            core::slice::from_ref(g),
            |m| m,
            first_counter,
            out,
            len,
        );
    }
    output_sequential_from(platform, g, first_counter, out)
}

/// The output stage one block at a time on the single-stream block function:
/// the reference the checks below hold the lanes to.
#[cfg(skein_simd_test_hooks)]
pub(crate) fn output_sequential<const W: usize>(platform: &Platform, g: &[u64; W], out: &mut [u8]) {
    output_sequential_from(platform, g, 0, out)
}

/// [`output_sequential`] from block `first_counter` on.
fn output_sequential_from<const W: usize>(
    platform: &Platform,
    g: &[u64; W],
    first_counter: u64,
    out: &mut [u8],
) {
    let mut block = [0u64; W];
    for (counter, chunk) in (first_counter..).zip(out.chunks_mut(8 * W)) {
        block[0] = counter.to_le();
        let mut chain = *g;
        let mut tweak = start_tweak(BlockType::Output, 0, 0);
        tweak[1] |= T1_FINAL;
        platform.compress::<W>(&mut chain, &mut tweak, bytemuck::cast_slice(&block[..]), 8);
        words_to_le(&chain, chunk);
        chain.zeroize();
    }
}

/// The output stage of several final chains on lanes: the digest of
/// `finals[k]`, of `len` bytes, is window `m = window(k)`,
/// `out[m * len..(m + 1) * len]`; the same bytes as [`output`] for each,
/// several blocks per kernel call.
#[cfg(feature = "alloc")]
pub(crate) fn output_on_lanes<const W: usize>(
    lanes: LaneChoice,
    finals: &[[u64; W]],
    window: impl Fn(usize) -> usize,
    out: &mut [u8],
    len: usize,
) {
    output_on_lanes_from(lanes, finals, window, 0, out, len)
}

/// [`output_on_lanes`] from output block `first_counter` on: window
/// `window(k)` gets blocks `first_counter, ...` of `finals[k]`'s output.
pub(crate) fn output_on_lanes_from<const W: usize>(
    lanes: LaneChoice,
    finals: &[[u64; W]],
    window: impl Fn(usize) -> usize,
    first_counter: u64,
    out: &mut [u8],
    len: usize,
) {
    // Counter blocks a window at a time: no allocation, and a whole number
    // of lane groups per window.
    const WINDOW: usize = 64;
    if finals.is_empty() {
        // No digests: the loop below would still walk every output block.
        return;
    }
    let block = 8 * W;
    let blocks = len.div_ceil(block);
    let tweak = start_tweak(BlockType::Output, 0, 0);
    let mut counters = [[0u8; 8]; WINDOW];
    for first in (0..blocks).step_by(WINDOW) {
        let n = WINDOW.min(blocks - first);
        for (k, counter) in counters[..n].iter_mut().enumerate() {
            *counter = first_counter.wrapping_add((first + k) as u64).to_le_bytes();
        }
        run_ubis_on::<W>(
            lanes,
            finals.len() * n,
            |i| UbiJob {
                chain: &finals[i / n],
                tweak,
                data: &counters[i % n],
                bit_pad: false,
            },
            |i, chain| {
                let (m, c) = (window(i / n), first + i % n);
                let digest = &mut out[m * len..(m + 1) * len];
                words_to_le(chain, &mut digest[c * block..len.min((c + 1) * block)]);
            },
        );
    }
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`: the scheduler
/// (`schedule.rs`) and the output stage on lanes against one UBI at a time.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    use super::*;
    use crate::backend::lanes::{LaneCall, LaneKernel};
    use crate::backend::portable::lanes as portable_lanes;
    use crate::schedule::run_ubis;
    use crate::test_rng::TestRng;
    use crate::Backend;
    use alloc::vec::Vec;

    /// The portable kernel at any lane count.
    #[derive(Clone, Copy)]
    struct AnyLanes;
    impl<const W: usize, const L: usize> LaneKernel<W, L> for AnyLanes {
        fn call(self, call: LaneCall<'_, W, L>) {
            call.by_blocks(portable_lanes::compress_lanes::<W, L>)
        }
    }

    /// (chain, level, position, data, bit pad)
    type Job<const W: usize> = ([u64; W], u8, u64, Vec<u8>, bool);

    fn random_jobs<const W: usize>(rng: &mut TestRng, count: usize) -> Vec<Job<W>> {
        (0..count)
            .map(|_| {
                let chain: [u64; W] = core::array::from_fn(|_| rng.gen());
                // Positions near 2^64 make the tweak add carry into word 1.
                let position = if rng.gen() {
                    u64::MAX - rng.gen_range(0..2000)
                } else {
                    rng.gen_range(0..1 << 40)
                };
                let level = rng.gen_range(0..4);
                let len = if rng.gen_range(0..4) == 0 {
                    rng.gen_range(0..3000)
                } else {
                    rng.gen_range(0..300)
                };
                let data = (0..len).map(|_| rng.gen()).collect();
                (chain, level, position, data, rng.gen_range(0..4) == 0)
            })
            .collect()
    }

    /// One UBI at a time with the single-stream code, `head` first.
    fn sequential<const W: usize>(
        head: &[u8],
        (chain, level, position, data, bit_pad): &Job<W>,
    ) -> [u64; W] {
        let platform = Platform::force(Backend::Portable).unwrap();
        let mut u = crate::ubi::Ubi::<W>::new(*chain, BlockType::Message, *level, *position);
        u.update(&platform, head);
        u.update(&platform, data);
        u.finish(&platform, *bit_pad)
    }

    fn scheduler_matches<const W: usize, const L: usize>(seed: u64) {
        let mut rng = TestRng::seed_from_u64(seed);
        for count in [0, 1, L - 1, L, L + 1, 3 * L + 2, 40] {
            let jobs = random_jobs::<W>(&mut rng, count);
            // Bytes before every job's data (none in half the runs).
            let head_len = match rng.gen_range(0..4) {
                0 | 1 => 0,
                2 => 8 * W,
                _ => rng.gen_range(1..8 * W),
            };
            let head: Vec<u8> = (0..head_len).map(|_| rng.gen()).collect();
            let mut got = alloc::vec![None; count];
            run_ubis::<W, L, _, true>(
                AnyLanes,
                &head,
                count,
                |i| UbiJob {
                    chain: &jobs[i].0,
                    tweak: start_tweak(BlockType::Message, jobs[i].1, jobs[i].2),
                    data: &jobs[i].3,
                    bit_pad: jobs[i].4,
                },
                |i, chain| {
                    assert!(got[i].is_none(), "job {i} finished twice");
                    got[i] = Some(*chain);
                },
            );
            for (i, job) in jobs.iter().enumerate() {
                assert_eq!(
                    got[i],
                    Some(sequential::<W>(&head, job)),
                    "W={W} L={L} job {i} of {count}"
                );
            }
        }
    }

    /// The scheduler at every lane count against one UBI at a time.
    pub fn scheduler_every_lane_count() {
        scheduler_matches::<4, 1>(1);
        scheduler_matches::<4, 3>(2);
        scheduler_matches::<8, 2>(3);
        scheduler_matches::<8, 4>(4);
        scheduler_matches::<8, 8>(5);
        scheduler_matches::<16, 5>(6);
        scheduler_matches::<16, 8>(7);
    }

    /// `output_on_lanes` on `lanes` against the single-stream output stage,
    /// for one and for several final chains.
    fn output_check<const W: usize>(lanes: LaneChoice, seed: u64) {
        let mut rng = TestRng::seed_from_u64(seed);
        let platform = Platform::force(Backend::Portable).unwrap();
        for len in [1usize, 31, 32, 64, 65, 200, 1000, 4097, 64 * 128 + 5] {
            for count in [1usize, 3] {
                let finals: Vec<[u64; W]> = (0..count)
                    .map(|_| core::array::from_fn(|_| rng.gen()))
                    .collect();
                let mut want = alloc::vec![0u8; count * len];
                for (g, digest) in finals.iter().zip(want.chunks_exact_mut(len)) {
                    output_sequential::<W>(&platform, g, digest);
                }
                let mut got = alloc::vec![0u8; count * len];
                output_on_lanes::<W>(lanes, &finals, |m| m, &mut got, len);
                let (b, l) = (lanes.backend(), lanes.lanes());
                assert_eq!(got, want, "{b} W={W} L={l} len={len} count={count}");
            }
        }
    }

    /// The output stage on every lane kernel form against the single-stream one.
    pub fn output_stage_on_lanes_matches_sequential() {
        for choice in Backend::ALL
            .iter()
            .copied()
            .flat_map(LaneChoice::every_form)
        {
            output_check::<4>(choice, 11);
            output_check::<8>(choice, 12);
            output_check::<16>(choice, 13);
        }
    }
}
