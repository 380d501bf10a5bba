//! The multi-lane seam: the struct-of-arrays state that the multi-lane
//! kernels advance, the kernel and job traits, and [`LaneChoice`], a kernel
//! chosen at run time (in which form: `form.rs`). The scheduler that keeps
//! the lanes busy is `crate::schedule`; the kernel of every instruction set
//! with vectors is `kernel.rs`, reached through
//! [`Isa::run_lanes`](super::dispatch::isa::Isa::run_lanes).
//!
//! The state is struct-of-arrays, the layout of the vector registers: lane `i`
//! of row `j` is word `j` of computation `i` (`state.chain[j][i]`), and likewise
//! `state.tweak[k][i]`. A Threefish round is then the same add / rotate / xor on
//! whole rows, with one rotation count for all lanes, and the word permutation is
//! only a renaming of rows. Every `blocks[i]` has the same length, `n` whole
//! blocks of `8 * W` bytes (unaligned is fine); lane `i` does exactly what
//! `backend::portable::compress` does with its own chain, tweak and `bytes_per_block[i]`
//! for its `n` blocks. Lanes are independent: they may be at different
//! positions, carry different flags (first, final, bit pad, type, level), and
//! an unused lane may be given any readable bytes of the right length.

use super::{Backend, Choice};
use crate::spec::MAX_BLOCK_BYTES;

pub(super) mod form;
#[cfg(skein_simd_lanes)]
pub(super) mod kernel;

/// A form of a multi-lane kernel: which rows one call runs, and so how many
/// messages it hashes. Which form is fastest depends on the core and the
/// state size (docs/lanes.md); digests never do. Public only as a test hook
/// (`Platform::with_lane_form`).
// Only x86-64, AArch64 and SIMD128 WebAssembly build other forms; public
// only with the test hooks.
#[cfg_attr(not(skein_simd_x86), allow(dead_code))]
#[cfg_attr(not(skein_simd_test_hooks), allow(unreachable_pub))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneForm {
    /// One group of vector lanes: the instruction set's row.
    OneGroup,
    /// Two independent groups of vector lanes side by side (`TwoGroups`), for
    /// cores whose vector latency leaves pipes idle: twice the lanes.
    TwoGroups,
    /// One group of vector lanes and one lane in general-purpose registers
    /// beside it (`WithScalar`), for cores whose integer ALUs idle while
    /// the vector unit runs: one lane more.
    WithScalar,
    /// One lane in general-purpose registers and no vector lanes (the
    /// kernel on the scalar row alone), for state sizes whose vector rows
    /// spill so much that the lanes lose to one stream: one lane.
    // Only the SIMD128 rule picks it; elsewhere only the test hooks force it.
    #[cfg_attr(not(skein_simd_wasm32), allow(dead_code))]
    Scalar,
}

impl LaneForm {
    /// Messages per call of this form of a kernel of `lanes` lanes.
    pub(crate) const fn lanes(self, lanes: usize) -> usize {
        match self {
            LaneForm::OneGroup => lanes,
            LaneForm::TwoGroups => 2 * lanes,
            LaneForm::WithScalar => lanes + 1,
            LaneForm::Scalar => 1,
        }
    }
}

/// `L` UBI computations side by side, struct-of-arrays (see the seam above).
#[derive(Clone, Debug)]
pub(crate) struct LaneState<const W: usize, const L: usize> {
    /// `chain[j][i]`: chaining word `j` of lane `i`.
    pub(crate) chain: [[u64; L]; W],
    /// `tweak[k][i]`: tweak word `k` of lane `i`.
    pub(crate) tweak: [[u64; L]; 2],
}

impl<const W: usize, const L: usize> LaneState<W, L> {
    pub(crate) fn new() -> Self {
        LaneState {
            chain: [[0; L]; W],
            tweak: [[0; L]; 2],
        }
    }

    /// Start lane `lane` on a computation with this chain and tweak.
    #[inline]
    pub(crate) fn load(&mut self, lane: usize, chain: &[u64; W], tweak: [u64; 2]) {
        for (row, &word) in self.chain.iter_mut().zip(chain) {
            row[lane] = word;
        }
        self.tweak[0][lane] = tweak[0];
        self.tweak[1][lane] = tweak[1];
    }

    /// The chaining value of lane `lane`.
    #[inline]
    pub(crate) fn chain_of(&self, lane: usize) -> [u64; W] {
        core::array::from_fn(|j| self.chain[j][lane])
    }
}

impl<const W: usize, const L: usize> Drop for LaneState<W, L> {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.chain.zeroize();
    }
}

/// Whole messages of one length, one in each lane, from one chain and tweak
/// (a scalar each, the same in every lane): the message UBI (the whole
/// blocks before the last, then the last block of which `tail` bytes
/// count, with the final flag) and the first block of the output stage
/// (counter 0, from `out_tweak`, final flag added). What the kernel runs in
/// one call with the state kept in registers, where the per-block seam
/// would take a call, a state load and a state store per block kind
/// ([`LaneCall::Messages`]). Only the messages and `out` change from one
/// group of a batch to the next: each lane is one slice, its last block
/// read in place or from `lasts`.
pub(crate) struct MessageRun<'a, const W: usize, const L: usize> {
    /// The chaining value every lane starts from.
    pub(crate) chain: &'a [u64; W],
    /// The message UBI's starting tweak (first flag, no final flag).
    pub(crate) tweak: [u64; 2],
    /// Every lane's whole message, all of one length: whole blocks, then
    /// the last block's `tail` bytes.
    pub(crate) messages: [&'a [u8]; L],
    /// The last blocks, zero-padded past `tail`, where they are not read
    /// from the messages in place. In place only where the last block is
    /// whole, or is 16 bytes (the kernel then reads 16: the rest of the
    /// block is zero).
    pub(crate) lasts: Option<&'a [[u8; MAX_BLOCK_BYTES]; L]>,
    /// The bytes of the last block that count (the tweak advances by it).
    pub(crate) tail: u64,
    /// The output UBI's starting tweak (first flag, no final flag).
    pub(crate) out_tweak: [u64; 2],
    /// Where the chain after the message goes, if wanted (for output
    /// blocks after the first).
    pub(crate) finals: Option<&'a mut [[u64; L]; W]>,
    /// Where the chain after the first output block goes, as bytes: lane
    /// `i`'s words little-endian at `8 * W * i` (the layout of `L` whole
    /// digests side by side); at least `8 * W * L` bytes.
    pub(crate) out: &'a mut [u8],
}

impl<const W: usize, const L: usize> MessageRun<'_, W, L> {
    /// The number of whole blocks before the last.
    ///
    /// # Panics
    /// If the messages differ in length or are shorter than `tail`, their
    /// length less `tail` is not whole blocks, `tail` is more than a block,
    /// a last block read in place is neither whole nor 16 bytes, or `out`
    /// is short of `L` digests of a block.
    pub(crate) fn body_blocks(&self) -> usize {
        let block = 8 * W;
        let size = self.messages[0].len();
        let tail = self.tail as usize;
        assert!(
            self.tail <= block as u64
                && size >= tail
                && (size - tail).is_multiple_of(block)
                && self.messages.iter().all(|m| m.len() == size)
                && (self.lasts.is_some() || tail == block || tail == 16)
                && self.out.len() >= L * block,
            "lanes: unequal messages"
        );
        (size - tail) / block
    }

    /// The bytes of every last block a kernel reads: a block, or 16
    /// where at most 16 count.
    pub(crate) fn last_len(&self) -> usize {
        if self.tail <= 16 {
            16
        } else {
            8 * W
        }
    }

    /// The last block of every lane, at least [`last_len`](Self::last_len)
    /// bytes, after `n` body blocks ([`body_blocks`](Self::body_blocks)).
    #[inline(always)]
    pub(crate) fn last_blocks(&self, n: usize) -> [&[u8]; L] {
        match self.lasts {
            Some(lasts) => lasts.each_ref().map(|b| &b[..]),
            None => self.messages.map(|m| &m[n * 8 * W..]),
        }
    }
}

/// One call of a multi-lane kernel: a run of blocks on a lane state (the
/// seam above), or whole messages of one length ([`MessageRun`]).
pub(crate) enum LaneCall<'a, const W: usize, const L: usize> {
    Blocks {
        state: &'a mut LaneState<W, L>,
        blocks: [&'a [u8]; L],
        bytes_per_block: [u64; L],
    },
    // Built only by `hash_many`'s equal-length path (and with `std`, the
    // form timing).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    Messages(MessageRun<'a, W, L>),
}

impl<const W: usize, const L: usize> LaneCall<'_, W, L> {
    /// This call as calls of a per-block kernel `compress_lanes`: what kernels
    /// without a fused message path (portable, AltiVec beyond Skein-256)
    /// do, and what the fused path must equal.
    pub(crate) fn by_blocks(
        self,
        mut compress_lanes: impl FnMut(&mut LaneState<W, L>, [&[u8]; L], [u64; L]),
    ) {
        let run = match self {
            LaneCall::Blocks {
                state,
                blocks,
                bytes_per_block,
            } => return compress_lanes(state, blocks, bytes_per_block),
            LaneCall::Messages(run) => run,
        };
        let n = run.body_blocks();
        let block = 8 * W;
        let mut state = LaneState::<W, L>::new();
        state.chain = core::array::from_fn(|j| [run.chain[j]; L]);
        state.tweak = [[run.tweak[0]; L], [run.tweak[1]; L]];
        if n > 0 {
            compress_lanes(
                &mut state,
                run.messages.map(|m| &m[..n * block]),
                [block as u64; L],
            );
        }
        state.tweak[1] = state.tweak[1].map(|t| t | crate::spec::T1_FINAL);
        // A last block of 16 bytes, zero-padded to a whole one.
        let mut padded = [[0u8; MAX_BLOCK_BYTES]; L];
        let last_len = run.last_len();
        let lasts = run.last_blocks(n);
        let last: [&[u8]; L] = if last_len == block {
            lasts.map(|b| &b[..block])
        } else {
            for (pad, b) in padded.iter_mut().zip(lasts) {
                pad[..last_len].copy_from_slice(&b[..last_len]);
            }
            core::array::from_fn(|i| &padded[i][..block])
        };
        compress_lanes(&mut state, last, [run.tail; L]);
        if last_len != block {
            zeroize::Zeroize::zeroize(&mut padded);
        }
        if let Some(finals) = run.finals {
            *finals = state.chain;
        }
        state.tweak = [
            [run.out_tweak[0]; L],
            [run.out_tweak[1] | crate::spec::T1_FINAL; L],
        ];
        const ZEROS: [u8; MAX_BLOCK_BYTES] = [0; MAX_BLOCK_BYTES];
        compress_lanes(&mut state, [&ZEROS[..block]; L], [8; L]);
        for (i, digest) in run.out.chunks_exact_mut(block).take(L).enumerate() {
            for (j, word) in digest.chunks_exact_mut(8).enumerate() {
                word.copy_from_slice(&state.chain[j][i].to_le_bytes());
            }
        }
    }
}

/// One multi-lane kernel, callable safely (it holds its detection token).
pub(crate) trait LaneKernel<const W: usize, const L: usize>: Copy + Send + Sync {
    /// Run `call`.
    fn call(self, call: LaneCall<'_, W, L>);

    /// `n` blocks of every lane (the seam above).
    #[inline]
    fn compress_lanes(
        self,
        state: &mut LaneState<W, L>,
        blocks: [&[u8]; L],
        bytes_per_block: [u64; L],
    ) {
        self.call(LaneCall::Blocks {
            state,
            blocks,
            bytes_per_block,
        })
    }

    /// Whole messages of one length and their first output block.
    #[inline]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    fn messages(self, run: MessageRun<'_, W, L>) {
        self.call(LaneCall::Messages(run))
    }
}

/// Work that runs on whichever kernel was chosen; generic over the lane count
/// so that each kernel gets its own monomorphized driver.
pub(crate) trait LaneJob<const W: usize> {
    type Output;
    fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) -> Self::Output;
}

/// A multi-lane kernel as a safe value: the token and a function (a
/// zero-sized function item or closure, so calls stay direct) that reaches
/// the instruction set's kernel with it.
#[derive(Clone, Copy)]
pub(crate) struct Kernel<T, F>(pub(crate) T, pub(crate) F);

impl<const W: usize, const L: usize, T, F> LaneKernel<W, L> for Kernel<T, F>
where
    T: Copy + Send + Sync,
    F: Fn(T, LaneCall<'_, W, L>) + Copy + Send + Sync,
{
    #[inline]
    fn call(self, call: LaneCall<'_, W, L>) {
        (self.1)(self.0, call)
    }
}

/// The number of whole blocks in `blocks`, each lane the same.
///
/// # Panics
/// If the `blocks` are not all the same whole number of blocks long.
#[inline]
#[cfg(skein_simd_lanes)]
pub(crate) fn block_count<const W: usize, const L: usize>(blocks: &[&[u8]; L]) -> usize {
    let total = blocks[0].len();
    assert!(
        total.is_multiple_of(8 * W) && blocks.iter().all(|b| b.len() == total),
        "lanes: unequal blocks"
    );
    total / (8 * W)
}

/// What a form is chosen for: runs of blocks (long messages, trees, the
/// general scheduler), or the whole-message call of short messages
/// (`lanes::MessageRun`, the equal-length path), where the two-groups
/// form may lose what it wins on long runs (docs/lanes.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Workload {
    Blocks,
    /// Messages of up to [`SHORT_MESSAGE_BLOCKS`] blocks.
    ShortMessages,
}

/// Messages of up to this many blocks take the form for short messages
/// ([`LaneChoice::for_messages`]): where the forms differ, the one-group
/// form wins up to this length and loses from a few blocks more
/// (docs/lanes.md).
const SHORT_MESSAGE_BLOCKS: usize = 2;

/// The form a [`LaneChoice`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// This one (a form the instruction set has).
    Fixed(LaneForm),
    /// The instruction set's rule, per state size and workload
    /// (`form.rs`).
    Auto,
}

/// A backend whose instruction set has a multi-lane kernel, with its token,
/// and the form of that kernel ([`LaneForm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LaneChoice {
    choice: Choice,
    form: Form,
}

impl LaneChoice {
    /// Run `job` on this kernel.
    pub(crate) fn run<const W: usize, J: LaneJob<W>>(self, job: J) -> J::Output {
        self.choice.run_lanes::<W, J>(self.form_for::<W>(), job)
    }

    /// The form calls with a state of `W` words run.
    pub(crate) fn form_for<const W: usize>(self) -> LaneForm {
        match self.form {
            Form::Fixed(form) => self.choice.compiled_form::<W>(form),
            Form::Auto => self.choice.form_for::<W>(Workload::Blocks),
        }
    }

    /// This kernel in the form for whole messages of `bytes` bytes each, all
    /// of one length (the equal-length path): for messages of at most
    /// [`SHORT_MESSAGE_BLOCKS`] blocks the form for that call, else the
    /// form for runs of blocks. A forced form stays.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) fn for_messages<const W: usize>(self, bytes: usize) -> LaneChoice {
        if self.form != Form::Auto || bytes > SHORT_MESSAGE_BLOCKS * 8 * W {
            return self;
        }
        let form = self.choice.form_for::<W>(Workload::ShortMessages);
        LaneChoice {
            form: Form::Fixed(form),
            ..self
        }
    }

    /// The multi-lane kernel of `backend`'s instruction set, if this build and
    /// CPU have one.
    pub(crate) fn of(backend: Backend) -> Option<LaneChoice> {
        Choice::of(backend).and_then(LaneChoice::with)
    }

    /// The multi-lane kernel of `choice`'s instruction set, if it has one, in
    /// the form this CPU runs fastest (or the one a test forces).
    pub(super) fn with(choice: Choice) -> Option<LaneChoice> {
        LaneChoice::in_form(choice, Choice::forced_form())
    }

    /// `choice`'s kernel in the `forced` form (the one-group form if it has
    /// no such form), or the automatic form.
    fn in_form(choice: Choice, forced: Option<LaneForm>) -> Option<LaneChoice> {
        let forms = choice.forms();
        let form = match forced {
            _ if forms.is_empty() => return None,
            Some(f) if forms.contains(&f) => Form::Fixed(f),
            Some(_) => Form::Fixed(LaneForm::OneGroup),
            None if forms.len() > 1 => Form::Auto,
            None => Form::Fixed(LaneForm::OneGroup),
        };
        Some(LaneChoice { choice, form })
    }

    /// The kernel a forced `choice` brings: its own, or the portable one.
    pub(super) fn forced(choice: Choice) -> LaneChoice {
        LaneChoice::with(choice).unwrap_or_else(LaneChoice::portable)
    }

    /// The portable kernel, there on every target.
    fn portable() -> LaneChoice {
        LaneChoice::with(Choice::portable()).expect("the portable backend has lanes")
    }

    /// The fastest multi-lane kernel this CPU runs: the highest lane rank
    /// in the backend table, in its automatic form (never a form a test
    /// forces: `Platform::detect` caches this for the process).
    pub(crate) fn detect() -> LaneChoice {
        Choice::best(Choice::lane_rank)
            .and_then(|c| LaneChoice::in_form(c, None))
            .unwrap_or_else(LaneChoice::portable)
    }

    /// The instruction set of the kernel (`SkeinMany` and tree hashing ask).
    #[cfg(feature = "alloc")]
    pub(crate) fn backend(self) -> Backend {
        self.choice.backend()
    }

    /// A multiple of the computations one kernel call advances, whatever
    /// the state size (the form may depend on it): the count to split work
    /// into per thread. Exact: [`lanes_for`](Self::lanes_for).
    #[cfg(feature = "alloc")]
    pub(crate) fn lanes(self) -> usize {
        let (a, b, c) = (
            self.lanes_for::<4>(),
            self.lanes_for::<8>(),
            self.lanes_for::<16>(),
        );
        lcm(lcm(a, b), c)
    }

    /// The kernel for the `count` computations left after the whole
    /// groups: the one-group form where they fit in one group and this
    /// form has more lanes (a two-groups call or one with a scalar lane
    /// would hash unused lanes). A forced form stays.
    #[cfg(feature = "alloc")]
    pub(crate) fn for_leftovers<const W: usize>(self, count: usize) -> LaneChoice {
        let one = LaneForm::OneGroup;
        let fits = self.choice.lanes(one).is_some_and(|l| count <= l);
        if fits && Choice::forced_form().is_none() && self.form_for::<W>() != one {
            return LaneChoice {
                form: Form::Fixed(one),
                ..self
            };
        }
        self
    }

    /// How many computations one kernel call advances with a state of `W`
    /// words.
    pub(crate) fn lanes_for<const W: usize>(self) -> usize {
        self.choice
            .lanes(self.form_for::<W>())
            .expect("a LaneChoice has lanes")
    }

    /// Every form of `backend`'s multi-lane kernel here, for the tests shared
    /// by all kernels.
    #[cfg(skein_simd_test_hooks)]
    pub(crate) fn every_form(backend: Backend) -> alloc::vec::Vec<LaneChoice> {
        let Some(choice) = Choice::of(backend) else {
            return alloc::vec::Vec::new();
        };
        let forms = choice.forms().iter();
        forms
            .map(|&f| LaneChoice {
                choice,
                form: Form::Fixed(f),
            })
            .collect()
    }
}

/// Least common multiple (of lane counts: small, nonzero).
#[cfg(feature = "alloc")]
const fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

/// Test hook for the conformance tests: run `backend`'s multi-lane kernel
/// once over its `L` lanes (`L` from [`Backend::lanes`]): lane `i` starts at
/// `chains[i]`, `tweaks[i]` and processes `blocks[i]` (the same whole number
/// of blocks in every lane) with `bytes_per_block[i]`; the results replace
/// `chains` and `tweaks`. `None` when this build or CPU has no such kernel.
///
/// # Panics
/// If a slice does not have `L` entries or the blocks differ in length.
#[cfg(skein_simd_test_hooks)]
pub fn compress_lanes<const W: usize>(
    backend: Backend,
    chains: &mut [[u64; W]],
    tweaks: &mut [[u64; 2]],
    blocks: &[&[u8]],
    bytes_per_block: &[u64],
) -> Option<()> {
    const { assert!(W == 4 || W == 8 || W == 16, "Skein has 4, 8 or 16 words") };
    struct Once<'a, const W: usize> {
        chains: &'a mut [[u64; W]],
        tweaks: &'a mut [[u64; 2]],
        blocks: &'a [&'a [u8]],
        bytes_per_block: &'a [u64],
    }
    impl<const W: usize> LaneJob<W> for Once<'_, W> {
        type Output = ();
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) {
            assert_eq!(self.chains.len(), L, "one chain per lane");
            assert_eq!(self.tweaks.len(), L, "one tweak per lane");
            let mut state = LaneState::<W, L>::new();
            for (i, (chain, tweak)) in self.chains.iter().zip(self.tweaks.iter()).enumerate() {
                state.load(i, chain, *tweak);
            }
            let blocks: [&[u8]; L] = self.blocks.try_into().expect("one block run per lane");
            let bytes: [u64; L] = self.bytes_per_block.try_into().expect("one count per lane");
            kernel.compress_lanes(&mut state, blocks, bytes);
            for (i, (chain, tweak)) in self
                .chains
                .iter_mut()
                .zip(self.tweaks.iter_mut())
                .enumerate()
            {
                *chain = state.chain_of(i);
                *tweak = [state.tweak[0][i], state.tweak[1][i]];
            }
        }
    }
    LaneChoice::of(backend)?.run::<W, _>(Once {
        chains,
        tweaks,
        blocks,
        bytes_per_block,
    });
    Some(())
}
