//! The multi-lane kernel (seam in `backend::lanes`), written once over a
//! [`Row`]; each instruction set instantiates [`run`] in one
//! `#[target_feature]` function, into which all here inlines so that row,
//! rotation and subkey indices become constants. `while` loops and a
//! `const` round count: on 32-bit PowerPC `Range::next` and `spec::rounds`
//! do not inline into AltiVec code (the calls cost 6x, docs/powerpc.md).

use super::isa::Row;
use super::lanes::{block_count, LaneCall, LaneState, MessageRun};
use crate::spec;

/// `for $j in 0..$n { $body }` as a `while` loop (see above).
macro_rules! upto {
    ($j:ident < $n:expr, $body:expr) => {{
        let mut $j = 0;
        while $j < $n {
            $body;
            $j += 1;
        }
    }};
}

// Safety of every function here: the CPU runs `R`'s instructions.
#[inline(always)]
unsafe fn round<R: Row<L>, const L: usize, const W: usize, const D: usize>(x: &mut [R; W]) {
    // SAFETY: the caller's.
    unsafe {
        if const { W == R::ROUNDS_INLINED_LATE } {
            round_late::<R, L, W, D>(x)
        } else {
            round_now::<R, L, W, D>(x)
        }
    }
}

/// A round, written once for [`round_now`], inlined up front, and
/// [`round_late`], left to LLVM's inliner: the same instructions, allocated
/// to registers differently ([`Row::ROUNDS_INLINED_LATE`]).
macro_rules! round_fns {
    ($(#[$inline:meta] $name:ident),+) => {$(
        #[$inline]
        unsafe fn $name<R: Row<L>, const L: usize, const W: usize, const D: usize>(x: &mut [R; W]) {
            let slot = const { spec::slots::<W>()[D % 4] };
            upto!(j < W / 2, {
                let (a, b) = (slot[2 * j], slot[2 * j + 1]);
                // SAFETY: the caller's.
                unsafe {
                    x[a] = x[a].add(x[b]);
                    x[b] = x[b].rol(spec::rot::<W>(D, j)).xor(x[a]);
                }
            })
        }
    )+};
}
round_fns! { #[inline(always)] round_now, #[inline] round_late }

#[inline(always)]
unsafe fn inject<R: Row<L>, const L: usize, const W: usize>(
    x: &mut [R; W],
    ks: &[R; 17],
    ts: &[R; 3],
    s: usize,
) {
    // SAFETY: the caller's.
    unsafe {
        upto!(j < W, x[j] = x[j].add(ks[(s + j) % (W + 1)]));
        x[W - 3] = x[W - 3].add(ts[s % 3]);
        x[W - 2] = x[W - 2].add(ts[(s + 1) % 3]);
        x[W - 1] = x[W - 1].add(R::splat(s as u64));
    }
}

#[inline(always)]
unsafe fn eight_rounds<R: Row<L>, const L: usize, const W: usize, const S: usize>(
    x: &mut [R; W],
    ks: &[R; 17],
    ts: &[R; 3],
) {
    // SAFETY: the caller's.
    unsafe {
        round::<R, L, W, 0>(x);
        round::<R, L, W, 1>(x);
        round::<R, L, W, 2>(x);
        round::<R, L, W, 3>(x);
        inject::<R, L, W>(x, ks, ts, S + 1);
        round::<R, L, W, 4>(x);
        round::<R, L, W, 5>(x);
        round::<R, L, W, 6>(x);
        round::<R, L, W, 7>(x);
        inject::<R, L, W>(x, ks, ts, S + 2);
    }
}

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
            // SAFETY: the caller's; every body holds `n` whole blocks and
            // every last block a whole one.
            unsafe { messages::<R, L, W>(run, n) }
        }
    }
}

/// UBI of one block of every lane: Threefish of `m` under the key `chain`
/// and the tweak rows `t0`, `t1`, xored with `m`.
///
/// # Safety
/// The CPU runs `R`'s instructions.
#[inline(always)]
unsafe fn ubi_block<R: Row<L>, const L: usize, const W: usize>(
    chain: &[R; W],
    m: &[R; W],
    t0: R,
    t1: R,
) -> [R; W] {
    // SAFETY: the caller's.
    unsafe {
        // Key schedule rows: the chain rows and their parity row.
        let mut ks = [R::splat(0); 17];
        let mut parity = R::splat(spec::C240);
        upto!(j < W, {
            ks[j] = chain[j];
            parity = parity.xor(chain[j]);
        });
        ks[W] = parity;
        let ts = [t0, t1, t0.xor(t1)];
        // Threefish on every lane, then the feed-forward.
        let mut x = *m;
        inject::<R, L, W>(&mut x, &ks, &ts, 0);
        eight_rounds::<R, L, W, 0>(&mut x, &ks, &ts);
        eight_rounds::<R, L, W, 2>(&mut x, &ks, &ts);
        eight_rounds::<R, L, W, 4>(&mut x, &ks, &ts);
        eight_rounds::<R, L, W, 6>(&mut x, &ks, &ts);
        eight_rounds::<R, L, W, 8>(&mut x, &ks, &ts);
        eight_rounds::<R, L, W, 10>(&mut x, &ks, &ts);
        eight_rounds::<R, L, W, 12>(&mut x, &ks, &ts);
        eight_rounds::<R, L, W, 14>(&mut x, &ks, &ts);
        eight_rounds::<R, L, W, 16>(&mut x, &ks, &ts);
        if const { spec::rounds(W) } == 80 {
            eight_rounds::<R, L, W, 18>(&mut x, &ks, &ts);
        }
        upto!(j < W, x[j] = x[j].xor(m[j]));
        x
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
            chain = ubi_block::<R, L, W>(&chain, &m, t0, t1);
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
/// The CPU runs `R`'s instructions; every `run.body[i]` holds `n * 8 * W`
/// bytes and every `run.last[i]` at least `8 * W`.
#[inline(always)]
unsafe fn messages<R: Row<L>, const L: usize, const W: usize>(run: MessageRun<'_, W, L>, n: usize) {
    let block = 8 * W;
    // SAFETY: the caller's; body block k ends at (k + 1) * 8 * W <= n * 8 * W
    // bytes, and the last block at 8 * W.
    unsafe {
        let mut chain = [R::splat(0); W];
        upto!(j < W, chain[j] = R::splat(run.chain[j]));
        let [mut t0, mut t1] = run.tweak;
        // The body, then the last block (k == n) with the final flag.
        let mut k = 0;
        while k <= n {
            let (m, step) = if k < n {
                (R::load_rows::<W>(&run.body, k * block), block as u64)
            } else {
                t1 |= spec::T1_FINAL;
                (R::load_rows::<W>(&run.last, 0), run.tail)
            };
            let (low, carry) = t0.overflowing_add(step);
            (t0, t1) = (low, t1.wrapping_add(carry as u64));
            chain = ubi_block::<R, L, W>(&chain, &m, R::splat(t0), R::splat(t1));
            t1 &= !spec::T1_FIRST;
            k += 1;
        }
        if let Some(finals) = run.finals {
            upto!(j < W, chain[j].store_row(&mut finals[j]));
        }
        // Output block 0: the counter block is all zeros (the additions and
        // xors of a zero message fold away).
        let [o0, o1] = run.out_tweak;
        let (low, carry) = o0.overflowing_add(8);
        let (o0, o1) = (low, o1.wrapping_add(carry as u64) | spec::T1_FINAL);
        chain = ubi_block::<R, L, W>(&chain, &[R::splat(0); W], R::splat(o0), R::splat(o1));
        upto!(j < W, chain[j].store_row(&mut run.out[j]));
    }
}
