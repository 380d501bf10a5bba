//! The two calls of the multi-lane kernel (`lanes::LaneCall`): a run of
//! blocks on a lane state, and a group's whole message with its first
//! output block ([`MessageRun`]), over the block of the parent module.

use super::ubi_block;
use crate::backend::dispatch::isa::Row;
use crate::backend::lanes::{block_count, LaneCall, LaneState, MessageRun};
use crate::spec;

/// One call of the kernel (seam in `backend::lanes`), checked.
///
/// # Safety
/// The CPU runs `R`'s instructions.
///
/// # Panics
/// If the lanes' blocks or messages differ in length or are not whole blocks.
#[inline(always)]
pub(crate) unsafe fn run<R: Row<L>, const L: usize, const W: usize>(call: LaneCall<'_, W, L>) {
    match call {
        LaneCall::Blocks {
            state,
            blocks: b,
            bytes_per_block,
        } => {
            let n = block_count::<W, L>(&b);
            // SAFETY: the caller's; every lane holds `n` whole blocks.
            unsafe { blocks::<R, L, W>(state, &b, &bytes_per_block, n) }
        }
        LaneCall::Messages(run) => {
            let n = run.body_blocks();
            // SAFETY: the caller's; every message holds `n` whole blocks
            // and every last block a whole one, or 16 bytes where at most
            // 16 count, and `out` holds `L` digests of a block.
            unsafe { messages::<R, L, W>(run, n) }
        }
    }
}

/// `n` blocks of every lane (seam in `backend::lanes`).
///
/// # Safety
/// The CPU runs `R`'s instructions; every `blocks[i]` holds `n * 8 * W` bytes.
#[inline(always)]
unsafe fn blocks<R: Row<L>, const L: usize, const W: usize>(
    state: &mut LaneState<W, L>,
    blocks: &[&[u8]; L],
    bytes_per_block: &[u64; L],
    n: usize,
) {
    // SAFETY: the caller's; block k ends at (k + 1) * 8 * W <= n * 8 * W bytes.
    unsafe {
        let mut chain = [R::splat(0); W];
        upto!(j < W, chain[j] = R::load_row(&state.chain[j]));
        let mut t0 = R::load_row(&state.tweak[0]);
        let mut t1 = R::load_row(&state.tweak[1]);
        let step = R::load_row(bytes_per_block);
        let not_first = R::splat(!spec::T1_FIRST);
        let mut k = 0;
        while k < n {
            let m = R::load_rows::<W>(blocks, k * 8 * W);
            (t0, t1) = R::advance(t0, t1, step);
            chain = ubi_block::<R, L, W, false>(&chain, &m, t0, t1);
            t1 = t1.and(not_first);
            k += 1;
        }
        upto!(j < W, chain[j].store_row(&mut state.chain[j]));
        t0.store_row(&mut state.tweak[0]);
        t1.store_row(&mut state.tweak[1]);
    }
}

/// Whole messages of one length and their first output block
/// ([`MessageRun`]), the state in registers throughout. Every lane is at
/// the same position, so the tweak is a scalar, advanced once and
/// broadcast, not a row advanced lane by lane.
///
/// # Safety
/// The CPU runs `R`'s instructions; every `run.messages[i]` holds `n * 8
/// * W` bytes, every last block ([`MessageRun::last_blocks`]) at least `8
/// * W`, or 16 where `run.tail` is at most 16, and `run.out` `L * 8 * W`.
#[inline(always)]
unsafe fn messages<R: Row<L>, const L: usize, const W: usize>(run: MessageRun<'_, W, L>, n: usize) {
    let block = 8 * W;
    // SAFETY: the caller's; body block k of a message ends at
    // (k + 1) * 8 * W <= n * 8 * W bytes, and the last block (at n * 8 * W
    // of the message, or in `lasts`) is read for 8 * W bytes (16 where
    // `run.tail <= 16`).
    // `R::store_lanes` writes the first `L * 8 * W` bytes of `run.out`.
    unsafe {
        let mut chain = [R::splat(0); W];
        upto!(j < W, chain[j] = R::splat(run.chain[j]));
        let mut tweak = run.tweak;
        // The body, then the last block with the final flag. The last
        // block after the loop leaves a straight loop that LLVM allocates
        // like the block-run loop (fewer instructions a block: VSX,
        // docs/powerpc.md; AVX2 alike). Not on wasm32: a third inlined
        // block function made the kernel one that V8 runs far slower
        // (SIMD128 `hashMany` 1.3x the portable build instead of 2.0x,
        // docs/wasm.md), so there the last block is the loop's last round.
        let mut k = 0;
        if cfg!(target_arch = "wasm32") {
            while k <= n {
                let (m, step) = if k < n {
                    (R::load_rows::<W>(&run.messages, k * block), block as u64)
                } else {
                    tweak[1] |= spec::T1_FINAL;
                    (last_rows::<R, L, W>(&run, n), run.tail)
                };
                tweak = spec::advance_tweak(tweak, step);
                chain =
                    ubi_block::<R, L, W, false>(&chain, &m, R::splat(tweak[0]), R::splat(tweak[1]));
                tweak[1] &= !spec::T1_FIRST;
                k += 1;
            }
        } else {
            while k < n {
                let m = R::load_rows::<W>(&run.messages, k * block);
                tweak = spec::advance_tweak(tweak, block as u64);
                chain =
                    ubi_block::<R, L, W, false>(&chain, &m, R::splat(tweak[0]), R::splat(tweak[1]));
                tweak[1] &= !spec::T1_FIRST;
                k += 1;
            }
            tweak[1] |= spec::T1_FINAL;
            let m = last_rows::<R, L, W>(&run, n);
            tweak = spec::advance_tweak(tweak, run.tail);
            chain = ubi_block::<R, L, W, true>(&chain, &m, R::splat(tweak[0]), R::splat(tweak[1]));
        }
        if let Some(finals) = run.finals {
            upto!(j < W, chain[j].store_row(&mut finals[j]));
        }
        // Output block 0: the counter block is all zeros (the additions and
        // xors of a zero message fold away).
        let [o0, o1] = spec::advance_tweak(run.out_tweak, 8);
        let o1 = o1 | spec::T1_FINAL;
        let zero = [R::splat(0); W];
        chain = ubi_block::<R, L, W, true>(&chain, &zero, R::splat(o0), R::splat(o1));
        R::store_lanes::<W>(&chain, run.out);
    }
}

/// The rows of the last block of every lane of `run`, after `n` body
/// blocks: read from the messages in place (offset `n * 8 * W`) or from
/// `run.lasts`.
///
/// # Safety
/// The CPU runs `R`'s instructions; every last block holds at least
/// `8 * W` bytes, or 16 where `run.tail` is at most 16.
#[inline(always)]
unsafe fn last_rows<R: Row<L>, const L: usize, const W: usize>(
    run: &MessageRun<'_, W, L>,
    n: usize,
) -> [R; W] {
    let (blocks, offset) = match run.lasts {
        Some(lasts) => (lasts.each_ref().map(|b| &b[..]), 0),
        None => (run.messages, n * 8 * W),
    };
    // SAFETY: the caller's.
    unsafe {
        if run.tail <= 16 {
            // At most two words (a header's tail, an 80-byte message's
            // last block): two rows from 16 bytes of each lane, the others
            // zero, without the block's transpose.
            let mut m = [R::splat(0); W];
            [m[0], m[1]] = R::load_two_rows(&blocks, offset);
            m
        } else {
            R::load_rows::<W>(&blocks, offset)
        }
    }
}
