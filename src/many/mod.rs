//! Many independent messages at once: [`SkeinMany`] (`hash_many`), on the
//! lane scheduler of `crate::schedule`.
//!
//! Whole lane groups of messages of one length go first, each group
//! through message UBI and output stage in a few kernel calls
//! (`equal_lengths.rs`). The other messages take two scheduler passes:
//! the message UBIs (longest first, so that lanes finish together), then the
//! output-stage UBIs (one per output block of each message, spec 3.5.3).
//! The chaining value after key, configuration and the other arguments is
//! computed once and shared by all lanes.

use crate::backend::lanes::LaneChoice;
use crate::hasher::Message;
use crate::params::argument_chain;
use crate::schedule::{for_each_chunk, run_ubis_after, run_ubis_on, UbiJob, PARALLEL_MIN_BYTES};
use crate::spec::BlockType;
use crate::ubi::{output_on_lanes, start_tweak};
use crate::{Backend, Error, Params, Platform, Skein};
use alloc::vec::Vec;
use equal_lengths::{EqualLengths, Groups};
use zeroize::Zeroize;

mod equal_lengths;

/// Skein over many independent messages at once, with the same arguments
/// ([`Params`]) for all; the fast way to hash a batch of records or blocks.
///
/// The messages go through a multi-lane kernel that hashes several of them
/// per instruction (8 with AVX-512, 4 with AVX2, 2 with SSE2, twice that
/// where two interleaved groups of lanes are faster on the CPU, one more
/// where a lane in general-purpose registers beside them is; plain Rust
/// does one at a time), and, with the `rayon` feature (on by default), a large batch is split
/// across the threads of the current rayon pool (choose their number with
/// `rayon::ThreadPool::install`). Messages may have any lengths; equal
/// lengths are fastest. The chaining value after the key, configuration and
/// other arguments is computed once, in [`with_params`](Self::with_params), and shared by every
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
/// let many = SkeinMany512::with_params(&params).unwrap();
/// let blocks: Vec<Vec<u8>> = (0..10u8).map(|i| vec![i; 4096]).collect();
/// let mut sums = vec![0u8; blocks.len() * many.output_len()];
/// many.hash_many_into(&blocks, &mut sums);
///
/// let mut one = Skein512::with_params(&params).unwrap();
/// one.update(&blocks[3]);
/// assert_eq!(&sums[3 * 32..4 * 32], &one.finalize_vec()[..]);
/// ```
#[derive(Clone)]
pub struct SkeinMany<const W: usize> {
    platform: Platform,
    lanes: LaneChoice,
    output_bits: u64,
    /// Where every message's UBI starts: the chaining value once every
    /// argument before the message is hashed (or a hasher's, after the
    /// blocks it compressed), the tweak there, and the bytes before every
    /// message not compressed yet (`head[..head_len]`, at most a block).
    start: [u64; W],
    tweak: [u64; 2],
    head: [u8; 128],
    head_len: usize,
    /// With tree parameters: a hasher to clone per message.
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
    /// kernel, or the portable one when it has none (see [`Backend::lanes`]),
    /// as [`Platform::force`](crate::Platform::force) does; error if this CPU or build lacks the
    /// backend. Otherwise the fastest kernel is used.
    ///
    /// ```
    /// use skein_simd::{Backend, Params, SkeinMany256};
    /// let portable = SkeinMany256::with_params(&Params::new().backend(Backend::Portable)).unwrap();
    /// assert_eq!(portable.backend(), Backend::Portable);
    /// assert!(SkeinMany256::with_params(&Params::new().output_bits(0)).is_err());
    /// ```
    pub fn with_params(params: &Params<'_>) -> Result<Self, Error> {
        // A forced backend brings its own lane kernel, or the portable one
        // (the rule of `Platform::force`).
        let (output_bits, platform) = params.output_and_platform::<W>()?;
        let lanes = platform.lane_choice();
        let tree = match params.tree {
            Some(_) => Some(Skein::<W>::with_params(params)?),
            None => None,
        };
        let start = argument_chain::<W>(&platform, params, output_bits);
        Ok(SkeinMany {
            platform,
            lanes,
            output_bits,
            start,
            tweak: start_tweak(BlockType::Message, 0, 0),
            head: [0; 128],
            head_len: 0,
            tree,
        })
    }

    /// Prepare for hashing messages that each continue `hasher`'s state:
    /// digest `i` is what a clone of `hasher` updated with `messages[i]`
    /// finalizes to. Messages that share a prefix (a key, a header, a
    /// common first block) hash it once: absorb it into a hasher, then hash
    /// the rest of each on the multi-lane kernel of the hasher's
    /// [`platform`](Skein::platform), as [`with_params`](Self::with_params)
    /// does. When the hasher has a whole block buffered (Skein keeps the
    /// last block back until it knows it is final) and no message is
    /// empty, that block is compressed once for all of them. A tree hasher
    /// is cloned and finished for each message in turn.
    ///
    /// # Panics
    /// After [`update_bits`](Skein::update_bits) absorbed a partial byte
    /// (no input may follow it).
    ///
    /// ```
    /// use skein_simd::{Skein512, SkeinMany512};
    /// // 80-byte headers sharing their first 64 bytes.
    /// let mut h = Skein512::new(256);
    /// h.update(&[7u8; 64]);
    /// let nonces: Vec<[u8; 16]> = (0..8u8).map(|i| [i; 16]).collect();
    /// let mut out = vec![0u8; 8 * 32];
    /// SkeinMany512::continuing(&h).hash_many_into(&nonces, &mut out);
    /// let mut one = h.clone();
    /// one.update(&nonces[5]);
    /// assert_eq!(&out[5 * 32..6 * 32], &one.finalize_vec()[..]);
    /// ```
    pub fn continuing(hasher: &Skein<W>) -> Self {
        assert!(
            !hasher.bit_pad,
            "Skein: no input may follow a partial final byte"
        );
        match &hasher.msg {
            Message::Sequential(u) => SkeinMany::from_state(
                hasher.platform,
                u.chain(),
                u.tweak(),
                u.buffered(),
                hasher.output_bits,
            ),
            Message::Tree(_) => SkeinMany {
                tree: Some(hasher.clone()),
                ..SkeinMany::from_state(hasher.platform, &[0; W], [0; 2], &[], hasher.output_bits)
            },
        }
    }

    /// Messages continuing a UBI state kept as plain data (see
    /// [`hazmat::many_continuing`](crate::hazmat::many_continuing)).
    pub(crate) fn from_state(
        platform: Platform,
        chain: &[u64; W],
        tweak: [u64; 2],
        buffered: &[u8],
        output_bits: u64,
    ) -> Self {
        let mut head = [0; 128];
        head[..buffered.len()].copy_from_slice(buffered);
        SkeinMany {
            platform,
            lanes: platform.lane_choice(),
            output_bits,
            start: *chain,
            tweak,
            head,
            head_len: buffered.len(),
            tree: None,
        }
    }

    /// Output length of each digest in bytes: `ceil(output_bits / 8)`, or
    /// `usize::MAX` where that does not fit a `usize` (32-bit targets): no
    /// buffer holds such a digest, so only an empty batch can be hashed.
    pub fn output_len(&self) -> usize {
        usize::try_from(self.output_bits.div_ceil(8)).unwrap_or(usize::MAX)
    }

    /// The instruction set of the multi-lane kernel in use.
    pub fn backend(&self) -> Backend {
        self.lanes.backend()
    }

    /// How many messages one kernel call hashes side by side.
    pub fn lanes(&self) -> usize {
        self.lanes.lanes_for::<W>()
    }

    /// Test hook (cfg `skein_simd_test_hooks`, set only inside this repository): the form of the multi-lane kernel
    /// the calls run (the fastest on this CPU, or the one a test forces).
    #[cfg(skein_simd_test_hooks)]
    pub fn lane_form(&self) -> crate::backend::LaneForm {
        self.lanes.form_for::<W>()
    }

    /// Test hook (cfg `skein_simd_test_hooks`): the form a batch of messages
    /// of `bytes` bytes each runs, which differs from
    /// [`lane_form`](Self::lane_form) for short messages on some cores
    /// (docs/lanes.md).
    #[cfg(skein_simd_test_hooks)]
    pub fn lane_form_for_length(&self, bytes: usize) -> crate::backend::LaneForm {
        self.lanes.for_messages::<W>(bytes).form_for::<W>()
    }

    /// Hash every message; digest `i` goes to
    /// `out[i * output_len()..(i + 1) * output_len()]`.
    ///
    /// # Panics
    /// If `out.len() != messages.len() * self.output_len()`.
    ///
    /// ```
    /// use skein_simd::{Params, Skein256, SkeinMany256};
    /// let many = SkeinMany256::with_params(&Params::new().output_bits(128)).unwrap();
    /// let messages: [&[u8]; 3] = [b"", b"abc", &[0u8; 1000]];
    /// let mut out = [0u8; 3 * 16];
    /// many.hash_many_into(&messages, &mut out);
    /// assert_eq!(&out[16..32], &Skein256::hash_vec(128, b"abc")[..]);
    /// ```
    pub fn hash_many_into<M: AsRef<[u8]> + Sync>(&self, messages: &[M], out: &mut [u8]) {
        let len = self.output_len();
        assert_eq!(
            Some(out.len()),
            messages.len().checked_mul(len),
            "hash_many: output must be messages.len() * output_len() bytes"
        );
        if messages.is_empty() {
            // Nothing to hash, however long each digest would be.
            return;
        }
        if let Some(tree) = &self.tree {
            for (message, digest) in messages.iter().zip(out.chunks_exact_mut(len)) {
                let mut h = tree.clone();
                h.update(message.as_ref());
                h.finalize_into(digest);
            }
            return;
        }
        // One look at every message: the bytes in all (threads or not) and
        // whether they are all of one length (the batch's groups then need
        // no look of their own).
        // (Wrapping: only the choice of threads reads the total, and no
        // batch of real slices reaches `usize::MAX` bytes; neither
        // accumulator branches, so the loop vectorizes.)
        let first_len = messages[0].as_ref().len();
        let (mut total, mut differ) = (0usize, 0usize);
        for m in messages {
            let n = m.as_ref().len();
            total = total.wrapping_add(n);
            differ |= n ^ first_len;
        }
        let one_length = differ == 0;
        // A copy of the chain (keyed, so wiped below).
        let mut chain = self.start;
        let mut tweak = self.tweak;
        let mut head = &self.head[..self.head_len];
        let none_empty = || match one_length {
            true => first_len > 0,
            false => messages.iter().all(|m| !m.as_ref().is_empty()),
        };
        if head.len() == 8 * W && none_empty() {
            // Not the last block of any message: compress it once, for all.
            (self.platform).compress::<W>(&mut chain, &mut tweak, head, head.len() as u64);
            head = &[];
        }
        let start = Continuation {
            chain: &chain,
            tweak,
            head,
        };
        for_each_chunk(
            messages.len(),
            self.lanes(),
            total >= PARALLEL_MIN_BYTES,
            out,
            len,
            |range, out| hash_batch(self.lanes, &start, &messages[range], out, len, one_length),
        );
        chain.zeroize();
    }

    /// Hash every message and return the digests in order.
    ///
    /// ```
    /// use skein_simd::{Params, Skein1024, SkeinMany1024};
    /// let many = SkeinMany1024::with_params(&Params::new()).unwrap();
    /// let digests = many.hash_many_vec(&["one", "two", "three"]);
    /// assert_eq!(digests[1], Skein1024::hash_vec(1024, b"two"));
    /// ```
    pub fn hash_many_vec<M: AsRef<[u8]> + Sync>(&self, messages: &[M]) -> Vec<Vec<u8>> {
        if messages.is_empty() {
            return Vec::new();
        }
        let len = self.output_len();
        let total = messages
            .len()
            .checked_mul(len)
            .expect("hash_many: digests exceed usize");
        let mut flat = alloc::vec![0u8; total];
        self.hash_many_into(messages, &mut flat);
        flat.chunks_exact(len).map(<[u8]>::to_vec).collect()
    }
}

/// Where the message UBI of every message of a batch starts: a chaining
/// value and tweak, and bytes (at most a block) that come before each
/// message.
struct Continuation<'a, const W: usize> {
    chain: &'a [u64; W],
    tweak: [u64; 2],
    head: &'a [u8],
}

/// Digest `i` (`len` bytes, `out[i * len..]`) of the message `start`
/// continued by `messages[i]`: message UBIs, then output UBIs, on lanes.
/// `same_length`: the caller saw every message of one length.
fn hash_batch<const W: usize, M: AsRef<[u8]>>(
    lanes: LaneChoice,
    start: &Continuation<'_, W>,
    messages: &[M],
    out: &mut [u8],
    len: usize,
    same_length: bool,
) {
    let output_tweak = start_tweak(BlockType::Output, 0, 0);
    let size = messages.first().map_or(0, |m| m.as_ref().len());
    let one_length =
        start.head.is_empty() && (same_length || messages.iter().all(|m| m.as_ref().len() == size));
    let lanes = if one_length {
        lanes.for_messages::<W>(size)
    } else {
        lanes
    };
    let group = lanes.lanes_for::<W>();
    let order: Vec<usize> = if one_length && messages.len() >= group {
        // One length: whole lane groups in order, no sorting.
        let whole = messages.len() / group * group;
        EqualLengths {
            chain: start.chain,
            tweaks: [start.tweak, output_tweak],
            messages,
            groups: Groups::First(whole),
        }
        .run(lanes, out, len);
        (whole..messages.len()).collect()
    } else {
        // Longest first: lanes that start together end together.
        let mut order: Vec<usize> = (0..messages.len()).collect();
        order.sort_by_key(|&i| core::cmp::Reverse(messages[i].as_ref().len()));
        if start.head.is_empty() {
            // Whole lane groups of one length as above, the rest below.
            let grouped = take_equal_lengths(&mut order, messages, group);
            EqualLengths {
                chain: start.chain,
                tweaks: [start.tweak, output_tweak],
                messages,
                groups: Groups::At(&grouped),
            }
            .run(lanes, out, len);
        }
        order
    };
    if order.is_empty() {
        return;
    }
    let lanes = lanes.for_leftovers::<W>(order.len());
    let mut finals = alloc::vec![[0u64; W]; order.len()];
    let job = |i: usize| UbiJob {
        chain: start.chain,
        tweak: start.tweak,
        data: messages[order[i]].as_ref(),
        bit_pad: false,
    };
    let done = |i: usize, chain: &[u64; W]| finals[i] = *chain;
    // Without a head, the scheduler's plain form: the head's code costs
    // every message instructions (counted: docs/performance.md, "The
    // scheduler, with `hash_many_from`").
    if start.head.is_empty() {
        run_ubis_on::<W>(lanes, order.len(), job, done);
    } else {
        run_ubis_after::<W>(lanes, start.head, order.len(), job, done);
    }
    output_on_lanes::<W>(lanes, &finals, |k| order[k], out, len);
    finals.iter_mut().for_each(Zeroize::zeroize);
}

/// The messages of `order` (longest first) that [`EqualLengths`] takes:
/// every whole group of `lanes` messages of one length, in groups; `order`
/// keeps the others, in order.
fn take_equal_lengths<M: AsRef<[u8]>>(
    order: &mut Vec<usize>,
    messages: &[M],
    lanes: usize,
) -> Vec<usize> {
    let len_of = |i: usize| messages[i].as_ref().len();
    let mut grouped = Vec::with_capacity(order.len());
    let mut kept = 0;
    let mut run = 0;
    // One look at each message (no search, no call per run: batches of
    // all different lengths pay next to nothing here).
    while run < order.len() {
        let len = len_of(order[run]);
        let mut end = run + 1;
        while end < order.len() && len_of(order[end]) == len {
            end += 1;
        }
        let whole = run + (end - run) / lanes * lanes;
        grouped.extend_from_slice(&order[run..whole]);
        for k in whole..end {
            order[kept] = order[k];
            kept += 1;
        }
        run = end;
    }
    order.truncate(kept);
    grouped
}

impl<const W: usize> Drop for SkeinMany<W> {
    fn drop(&mut self) {
        self.start.zeroize();
        self.head.zeroize();
    }
}

impl<const W: usize> core::fmt::Debug for SkeinMany<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "SkeinMany{}-{} {{ backend: {}, lanes: {} }}",
            64 * W,
            self.output_bits,
            self.backend(),
            self.lanes()
        )
    }
}

/// Not part of the API (cfg `skein_simd_test_hooks`, set only inside this repository): checks of this module's
/// internals, run as tests by `tests/suite/internals.rs`.
#[cfg(skein_simd_test_hooks)]
pub mod checks {
    use crate::hasher::Message;
    use crate::spec::{BlockType, T1_TYPE_SHIFT};
    use crate::test_rng::TestRng;
    use crate::ubi::Ubi;
    use crate::{Backend, Platform, Skein, SkeinMany};
    use alloc::vec::Vec;

    /// Hashers whose message position is near or past 2^64 (no input of
    /// bytes gets there): the lanes must start from the hasher's tweak,
    /// carry into its second word included, on every lane kernel.
    fn large_positions<const W: usize>(seed: u64) {
        let mut rng = TestRng::seed_from_u64(seed);
        let block = 8 * W;
        let message = (BlockType::Message as u64) << T1_TYPE_SHIFT;
        let tweaks = [
            [u64::MAX - 3, message],
            [u64::MAX - 2 * block as u64, message],
            [u64::MAX - block as u64, message | 0xffff_fffe],
            [17, message | 1],
        ];
        // Equal lengths: whole lane groups (17 fills any) of one length.
        let suffix_sets: [&[usize]; 5] = [
            &[1, 16, 200, 3],
            &[0, 5, 64, 128, 129],
            &[0],
            &[16; 17],
            &[block; 17],
        ];
        for backend in Backend::ALL.iter().copied().filter(|b| b.is_available()) {
            let platform = Platform::force(backend).unwrap();
            for tweak in tweaks {
                for buffered_len in [0, 1, block - 1, block] {
                    let chain: [u64; W] = core::array::from_fn(|_| rng.gen());
                    let buffered: Vec<u8> = (0..buffered_len).map(|_| rng.gen()).collect();
                    let u = Ubi::from_parts(chain, tweak, &buffered);
                    let h = Skein::<W>::from_parts(
                        platform,
                        8 * block as u64,
                        [0; W],
                        Message::Sequential(u),
                        false,
                    );
                    for lens in suffix_sets {
                        let suffixes: Vec<Vec<u8>> = lens
                            .iter()
                            .map(|&n| (0..n).map(|_| rng.gen()).collect())
                            .collect();
                        let got = SkeinMany::continuing(&h).hash_many_vec(&suffixes);
                        for (i, s) in suffixes.iter().enumerate() {
                            let mut one = h.clone();
                            one.update(s);
                            assert_eq!(
                                got[i],
                                one.finalize_vec(),
                                "W={W} {backend} tweak {tweak:x?} buffered {buffered_len} suffix {i} of {lens:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// `hash_many_from` of hashers at positions near and past 2^64, every backend, against one hasher at a time.
    pub fn continuations_at_positions_past_2_pow_64() {
        large_positions::<4>(1);
        large_positions::<8>(2);
        large_positions::<16>(3);
    }
}
