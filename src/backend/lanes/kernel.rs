//! The multi-lane kernel (seam in `backend::lanes`), written once over a
//! [`Row`]: here the block, in `calls.rs` the two calls of the seam. Each
//! instruction set instantiates [`run`] in one
//! `#[target_feature]` function, into which all here inlines so that row,
//! rotation and subkey indices become constants (but a row's own rounds
//! for the blocks a call runs once, `Row::own_rounds`' `OUT_OF_LINE`).
//! `while` loops and a
//! `const` round count: on 32-bit PowerPC `Range::next` and `spec::rounds`
//! do not inline into AltiVec code, and the calls then take most of the
//! kernel's time (docs/powerpc.md, "The lane kernel on 32-bit PowerPC").

use crate::backend::dispatch::isa::Row;
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

mod calls;
pub(crate) use calls::run;

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

/// UBI of one block of every lane: Threefish of `m` under the key `chain`
/// and the tweak rows `t0`, `t1`, xored with `m`. `OUT_OF_LINE`: a block
/// the call runs once ([`Row::own_rounds`]).
///
/// # Safety
/// The CPU runs `R`'s instructions.
#[inline(always)]
pub(super) unsafe fn ubi_block<
    R: Row<L>,
    const L: usize,
    const W: usize,
    const OUT_OF_LINE: bool,
>(
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
        if !R::own_rounds::<W, OUT_OF_LINE>(&mut x, &ks, &ts) {
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
        }
        upto!(j < W, x[j] = x[j].xor(m[j]));
        x
    }
}
