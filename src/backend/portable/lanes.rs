//! Portable multi-lane kernel: plain Rust over struct-of-arrays rows.
//!
//! Each operation of a round is a loop over the `L` lanes of a row, which the
//! compiler unrolls (and may vectorize); the round structure, slot table and
//! subkey formation are those of [`super`]. See `backend::lanes` for the
//! seam.

// Index loops follow the numbering of words and lanes in the specification.
#![allow(clippy::needless_range_loop)]

use super::{block_function, Token};
use crate::backend::dispatch::isa::{by_width, BlockRun, Isa, LaneEntry};
use crate::backend::lanes::LaneForm;
use crate::backend::lanes::{Kernel, LaneCall, LaneJob, LaneState};
use crate::spec::{advance_tweak, rot, rounds, slots, C240, T1_FIRST};

/// Lanes the portable kernel is used with (measured: docs/lanes.md); the
/// generic code serves any lane count (the scheduler's tests use several).
pub(crate) const LANES: usize = 1;

type Rows<const W: usize, const L: usize> = [[u64; L]; W];

#[inline(always)]
fn add_row<const L: usize>(a: &mut [u64; L], b: &[u64; L]) {
    for i in 0..L {
        a[i] = a[i].wrapping_add(b[i]);
    }
}

#[inline(always)]
fn round<const W: usize, const L: usize, const D: usize>(x: &mut Rows<W, L>) {
    let slot = const { slots::<W>()[D % 4] };
    for j in 0..W / 2 {
        let (a, b) = (slot[2 * j], slot[2 * j + 1]);
        let r = rot::<W>(D, j);
        for i in 0..L {
            x[a][i] = x[a][i].wrapping_add(x[b][i]);
            x[b][i] = x[b][i].rotate_left(r) ^ x[a][i];
        }
    }
}

/// Add subkey `s`: key row `(s + j) mod (W + 1)`, plus tweak rows on words
/// W-3 and W-2 and the counter `s` on word W-1.
#[inline(always)]
fn inject<const W: usize, const L: usize>(
    x: &mut Rows<W, L>,
    ks: &[[u64; L]; 17],
    ts: &[[u64; L]; 3],
    s: usize,
) {
    for j in 0..W {
        add_row(&mut x[j], &ks[(s + j) % (W + 1)]);
    }
    add_row(&mut x[W - 3], &ts[s % 3]);
    add_row(&mut x[W - 2], &ts[(s + 1) % 3]);
    for i in 0..L {
        x[W - 1][i] = x[W - 1][i].wrapping_add(s as u64);
    }
}

#[inline(always)]
fn eight_rounds<const W: usize, const L: usize, const S: usize>(
    x: &mut Rows<W, L>,
    ks: &[[u64; L]; 17],
    ts: &[[u64; L]; 3],
) {
    round::<W, L, 0>(x);
    round::<W, L, 1>(x);
    round::<W, L, 2>(x);
    round::<W, L, 3>(x);
    inject(x, ks, ts, S + 1);
    round::<W, L, 4>(x);
    round::<W, L, 5>(x);
    round::<W, L, 6>(x);
    round::<W, L, 7>(x);
    inject(x, ks, ts, S + 2);
}

/// Threefish on every lane; `ks` rows 0..=W are the key schedule, `ts` rows the
/// tweak schedule.
#[inline(always)]
fn encrypt<const W: usize, const L: usize>(
    x: &mut Rows<W, L>,
    ks: &[[u64; L]; 17],
    ts: &[[u64; L]; 3],
) {
    inject(x, ks, ts, 0);
    eight_rounds::<W, L, 0>(x, ks, ts);
    eight_rounds::<W, L, 2>(x, ks, ts);
    eight_rounds::<W, L, 4>(x, ks, ts);
    eight_rounds::<W, L, 6>(x, ks, ts);
    eight_rounds::<W, L, 8>(x, ks, ts);
    eight_rounds::<W, L, 10>(x, ks, ts);
    eight_rounds::<W, L, 12>(x, ks, ts);
    eight_rounds::<W, L, 14>(x, ks, ts);
    eight_rounds::<W, L, 16>(x, ks, ts);
    if rounds(W) == 80 {
        eight_rounds::<W, L, 18>(x, ks, ts);
    }
}

/// The portable backend: the single-stream block function of `mod.rs`
/// and this kernel.
impl Isa for Token {
    const LANES: usize = LANES;
    const FORMS: &'static [LaneForm] = &[LaneForm::OneGroup];

    fn detect() -> Option<Token> {
        Some(Token)
    }

    // Through statics of their entries, like every backend (`isa::by_width`
    // says why).
    #[inline]
    fn compress<const W: usize>(self, run: BlockRun<'_, W>) {
        type Entry<const W: usize> = fn(&mut [u64; W], &mut [u64; 2], &[u8], u64);
        static ENTRIES: (Entry<4>, Entry<8>, Entry<16>) = (
            block_function::<4>,
            block_function::<8>,
            block_function::<16>,
        );
        let entry = by_width::<W, Entry<W>, _, _, _>(&ENTRIES);
        entry(run.chain, run.tweak, run.blocks, run.bytes_per_block)
    }

    #[inline]
    fn run_lanes<const W: usize, J: LaneJob<W>>(self, _: LaneForm, job: J) -> J::Output {
        static ENTRIES: (
            LaneEntry<Token, 4, LANES>,
            LaneEntry<Token, 8, LANES>,
            LaneEntry<Token, 16, LANES>,
        ) = (lanes::<4>, lanes::<8>, lanes::<16>);
        let entry = by_width::<W, LaneEntry<Token, W, LANES>, _, _, _>(&ENTRIES);
        job.run::<{ LANES }, _>(Kernel(self, entry))
    }
}

/// The portable multi-lane kernel at the lane count of the backend table.
#[inline]
fn lanes<const W: usize>(_: Token, call: LaneCall<'_, W, { LANES }>) {
    call.by_blocks(compress_lanes::<W, { LANES }>)
}

/// The multi-lane block function at any lane count (seam in `backend::lanes`).
///
/// # Panics
/// If the `blocks` are not all the same whole number of blocks long.
#[inline(never)]
pub(crate) fn compress_lanes<const W: usize, const L: usize>(
    state: &mut LaneState<W, L>,
    blocks: [&[u8]; L],
    bytes_per_block: [u64; L],
) {
    let block_bytes = 8 * W;
    let total = blocks[0].len();
    assert!(
        total.is_multiple_of(block_bytes) && blocks.iter().all(|b| b.len() == total),
        "lanes: unequal blocks"
    );
    if L == 1 {
        // One lane is the single-stream block function.
        let mut chain: [u64; W] = core::array::from_fn(|j| state.chain[j][0]);
        let mut tweak = [state.tweak[0][0], state.tweak[1][0]];
        super::compress::<W>(&mut chain, &mut tweak, blocks[0], bytes_per_block[0]);
        for j in 0..W {
            state.chain[j][0] = chain[j];
        }
        state.tweak[0][0] = tweak[0];
        state.tweak[1][0] = tweak[1];
        return;
    }
    for n in 0..total / block_bytes {
        let mut m: Rows<W, L> = [[0; L]; W];
        for (i, lane) in blocks.iter().enumerate() {
            let block = &lane[n * block_bytes..(n + 1) * block_bytes];
            for (j, word) in block.chunks_exact(8).enumerate() {
                m[j][i] = u64::from_le_bytes(word.try_into().unwrap());
            }
        }
        let tweak = &mut state.tweak;
        for i in 0..L {
            [tweak[0][i], tweak[1][i]] =
                advance_tweak([tweak[0][i], tweak[1][i]], bytes_per_block[i]);
        }
        let mut ks = [[0u64; L]; 17];
        ks[W] = [C240; L];
        for j in 0..W {
            ks[j] = state.chain[j];
            for i in 0..L {
                ks[W][i] ^= state.chain[j][i];
            }
        }
        let mut ts = [tweak[0], tweak[1], [0; L]];
        for i in 0..L {
            ts[2][i] = ts[0][i] ^ ts[1][i];
        }
        let mut x = m;
        encrypt::<W, L>(&mut x, &ks, &ts);
        for j in 0..W {
            for i in 0..L {
                state.chain[j][i] = x[j][i] ^ m[j][i];
            }
        }
        for i in 0..L {
            tweak[1][i] &= !T1_FIRST;
        }
    }
}
