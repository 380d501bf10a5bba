//! AltiVec/VMX backend (PowerPC G4/G5, POWER6 and later; 32- and 64-bit,
//! either byte order). Chosen automatically on 32-bit PowerPC only: 64-bit
//! scalar code beats the emulated 64-bit lanes (the ranks of the backend
//! table in `backend/mod.rs`; figures in docs/performance.md).
//!
//! AltiVec has no 64-bit lanes, so each Threefish word is two 32-bit lanes
//! and additions carry by hand (`vaddcuw`). As in the published AltiVec
//! Skein, even words (the MIX addition targets) and odd words (rotated and
//! xored) live in separate registers, lined up so that one vector operation
//! does several MIXes and only the odd words move between rounds. Two
//! arrangements of the 32-bit halves are used, each where it needs the fewest
//! instructions (counted under QEMU, see tools/bench/ppc-insn-table.sh):
//!
//! * `pair` (Skein-256, `pair.rs`): a register holds two whole words, high half first,
//!   e.g. words (0, 2) and (1, 3). A 64-bit addition is add, carry-out, move
//!   carries to the high lanes, add (4 instructions for 2 words).
//! * `split` (Skein-512 and -1024, `split.rs`): one register holds the high halves of
//!   four words, another their low halves, so carries need no lane movement
//!   (4 instructions for 4 words) and a rotation is two `vrlw` and two
//!   `vsel` for four words.
//!
//! A 64-bit rotation by r is built from 32-bit rotations of both halves by
//! r mod 32 (`vrlw`, any count per lane) followed by a bit select (`vsel`)
//! with the mask of the low r mod 32 bits, inverted when r >= 32.
//!
//! Subkeys come from the key words arranged in the order 0, 2, 4, ..., 1, 3,
//! ... (steps of 2 modulo W+1): the even words, and the odd words, of every
//! subkey are then consecutive, so each subkey vector is one shift
//! (`vsldoi`) of registers built once per block.
//!
//! On the G4 (MPC7450) the bottleneck is the one simple vector-integer unit
//! VIU1 (add, carry, logic, select, rotate; `vmr`), not the permute unit or
//! the load-store unit, so the code trades VIU1 work for those where it can
//! (tools/bench/g4-viu1-table.sh counts VIU1-class instructions per byte):
//!
//! * The tweak and counter parts of a subkey cost no VIU1 work per subkey in
//!   Skein-512 (added into per-block key tables, see `FoldedKey`);
//!   Skein-1024 adds all three tweaked words with one 64-bit addition after
//!   gathering them (`vperm`). Skein-256 computes the odd words of each
//!   subkey off the chain, finishing their additions on the complex integer
//!   unit (`vmsumuhm`), and takes the even words from them by one shift.
//! * Rotation constants are loaded (`lvx`, addresses kept in GPRs) at each
//!   use instead of occupying vector registers: held in registers they
//!   forced spills and `vmr` copies.
//! * Skein-256 is one dependency chain through the in-order vector issue
//!   queue, so `pair.rs` writes its instructions in a fixed order (one
//!   `asm!` each) instead of leaving the order to LLVM.
//! * Byte-multiple rotations by `vperm` alone would need all four lanes of a
//!   register to rotate by multiples of 8 in the same round; that never
//!   happens in Skein-512 or -1024, and in Skein-256 only for the rotations
//!   by 32 (done as a half swap).
//!
//! The multi-lane kernel (`lanes.rs`) keeps each word of four computations
//! as a register of high halves and one of low halves.
//! Model cycle figures for the G4 are in docs/powerpc.md.
//!
//! LLVM only inlines functions with exactly the caller's target features on
//! PowerPC, so the code below calls no ordinary library function: helpers are
//! `#[inline(always)]` or carry the same `#[target_feature]`, and the only
//! operations are SIMD intrinsics, operators and raw pointers.

mod lanes;
mod pair;
mod split;
mod vector;

use crate::backend::dispatch::isa::{by_width, width, BlockRun, Isa, LaneEntry};
use crate::backend::lanes::LaneForm;
use crate::backend::lanes::{Kernel, LaneJob};
use pair::{pair_blocks_256, pair_from_words, pair_to_words};
use split::{split_blocks_altivec, split_from_words, split_to_words};

/// Proof that this CPU has AltiVec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token(());

impl Isa for Token {
    const LANES: usize = 4;
    const FORMS: &'static [LaneForm] = &[LaneForm::OneGroup];

    fn detect() -> Option<Token> {
        altivec_detected().then_some(Token(()))
    }

    /// Through a static of its entries (`isa::by_width` says why).
    #[inline]
    fn compress<const W: usize>(self, run: BlockRun<'_, W>) {
        type Entry<const W: usize> = fn(Token, BlockRun<'_, W>);
        static ENTRIES: (Entry<4>, Entry<8>, Entry<16>) =
            (compress::<4>, compress::<8>, compress::<16>);
        by_width::<W, Entry<W>, _, _, _>(&ENTRIES)(self, run)
    }

    #[inline]
    fn run_lanes<const W: usize, J: LaneJob<W>>(self, _: LaneForm, job: J) -> J::Output {
        static ENTRIES: (
            LaneEntry<Token, 4, 4>,
            LaneEntry<Token, 8, 4>,
            LaneEntry<Token, 16, 4>,
        ) = (lanes::lanes::<4>, lanes::lanes::<8>, lanes::lanes::<16>);
        job.run::<4, _>(Kernel(
            self,
            by_width::<W, LaneEntry<Token, W, 4>, _, _, _>(&ENTRIES),
        ))
    }
}

/// The single-stream block function ([`Isa::compress`]), out of line, one
/// instance per width, so that callers share it (also where AltiVec is the
/// target's baseline, ppc64le).
#[inline(never)]
fn compress<const W: usize>(_: Token, run: BlockRun<'_, W>) {
    let (chain, tweak, step) = (run.chain, run.tweak, run.bytes_per_block);
    let (start, n) = (run.blocks.as_ptr(), run.blocks.len() / (8 * W));
    if W == 4 {
        let chain = width::<_, W, 4>(chain);
        let mut lanes = pair_from_words(chain);
        // SAFETY: the token proves AltiVec; `blocks` holds `n` whole blocks.
        unsafe { pair_blocks_256(&mut lanes, tweak, start, n, step) };
        *chain = pair_to_words(&lanes);
    } else {
        let mut lanes = split_from_words(chain);
        // SAFETY: the token proves AltiVec; `blocks` holds `n` whole blocks.
        unsafe { split_blocks_altivec::<W>(&mut lanes, tweak, start, n, step) };
        *chain = split_to_words(&lanes);
    }
}

#[cfg(all(feature = "std", target_arch = "powerpc"))]
fn altivec_detected() -> bool {
    std::arch::is_powerpc_feature_detected!("altivec")
}
#[cfg(all(feature = "std", target_arch = "powerpc64"))]
fn altivec_detected() -> bool {
    std::arch::is_powerpc64_feature_detected!("altivec")
}
#[cfg(not(feature = "std"))]
fn altivec_detected() -> bool {
    cfg!(target_feature = "altivec")
}
