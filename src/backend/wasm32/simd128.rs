//! SIMD128 backend (WebAssembly with `+simd128`): 128-bit registers of two
//! 64-bit lanes with native `i64x2.add`, `v128.xor` and 64-bit shifts, the
//! register shape the even/odd layout was made for.
//!
//! **Single stream**: the even/odd engine (`backend::even_odd`): even
//! words, the MIX addition targets, stay in place; the odd words beside them
//! are rotated, xored and permuted between rounds. A half of Skein-256, -512
//! and -1024 spans one, two and four registers. SIMD128 shifts both lanes of
//! a register by one count, so a rotation whose two lanes differ is two shift
//! pairs and one `i64x2.shuffle` merge; each odd permutation is one
//! `i64x2.shuffle` per register.
//!
//! **Multi-lane kernel**: two computations at once, row `j` in one register
//! (word `j` of both), through `lanes::kernel`. A rotation is two shifts and
//! an or. Its second form, `WithScalar`, hashes a third computation in
//! WebAssembly's scalar `i64` beside them: the engine compiles those to the
//! CPU's integer instructions, which run on ports the vector lanes leave
//! idle. No two-groups form: one group's rounds are already bound by the
//! vector ports, not by latency (docs/wasm.md, "Multi-lane kernel").

use crate::backend::dispatch::feature_glue::feature_backend;
use crate::backend::dispatch::isa::Row;
use crate::backend::even_odd::engine::{each, two_lane_registers, EvenOdd, Half};
use crate::backend::lanes::{LaneForm, Workload};
use core::arch::wasm32::*;

feature_backend! {
    /// Proof that this build has SIMD128: always, since the module is only
    /// built with `+simd128` (a WebAssembly engine without SIMD refuses to
    /// load the whole module, so no code here runs there).
    token if cfg!(target_feature = "simd128"), features "simd128";
    single stream EvenOdd<Regs<1>, Regs<2>, Regs<4>>;
    lanes v128, 2, with_scalar, scalar;
    form by lane_form;
    compiled picked_by_rule;
}

/// The rule for the kernel's form (docs/wasm.md, "Multi-lane kernel"):
/// a scalar lane beside the two vector lanes for Skein-256 and -512, on
/// runs of blocks and short messages alike; for Skein-1024, whose 16 state
/// rows and 17 key rows spill in V8's 16 vector registers, the scalar row
/// alone (one lane: faster than the two vector lanes and than the scalar
/// lane beside them). WebAssembly cannot tell the CPU, so this is one rule
/// for every engine and core, fixed at compile time.
const fn lane_form(words: usize, _work: Workload) -> LaneForm {
    if words <= 8 {
        LaneForm::WithScalar
    } else {
        LaneForm::Scalar
    }
}

/// Only the kernels the rule picks are compiled, and the one-group form
/// where the rule's form has more lanes (it hashes the messages left over
/// after the whole groups, `LaneChoice::for_leftovers`): each kernel is a
/// large unrolled function, and a WebAssembly module is downloaded whole.
const fn picked_by_rule(form: LaneForm, words: usize) -> bool {
    let blocks = lane_form(words, Workload::Blocks);
    let short = lane_form(words, Workload::ShortMessages);
    let leftovers = matches!(form, LaneForm::OneGroup) && blocks.lanes(2) > 2;
    form as u8 == blocks as u8 || form as u8 == short as u8 || leftovers
}

/// `2 * K` lanes in `K` registers.
#[derive(Clone, Copy)]
struct Regs<const K: usize>([v128; K]);

/// Rotate both lanes of `v` left by `c` (1..=63): two shifts and an or.
/// SIMD128 shifts take their count as an operand, so this is the same code
/// whether or not `c` is a constant after inlining. (Byte-aligned counts as
/// one `i8x16.shuffle` were tried: where LLVM leaves a round's MIX loop
/// rolled, as it does on wasm32 for Skein-512 and -1024 (a bounds check per
/// round in the release build), the count is not a constant and the match
/// became a run-time switch of every arm on each rotation.)
#[inline(always)]
fn rotl_same(v: v128, c: u32) -> v128 {
    v128_or(i64x2_shl(v, c), u64x2_shr(v, 64 - c))
}

/// Rotate lane 0 left by `c0` and lane 1 by `c1`.
#[inline(always)]
fn rotl2(v: v128, c0: u32, c1: u32) -> v128 {
    let low = rotl_same(v, c0);
    if c0 == c1 {
        low
    } else {
        i64x2_shuffle::<0, 3>(low, rotl_same(v, c1))
    }
}

/// Two lanes picked from registers `v`: lane 0 is lane `a`, lane 1 lane `b`
/// of the concatenation.
#[inline(always)]
fn gather<const K: usize>(v: &[v128; K], a: usize, b: usize) -> v128 {
    let (x, y) = (v[a / 2], v[b / 2]);
    match (a % 2, b % 2) {
        (0, 1) if a / 2 == b / 2 => x,
        (0, 0) => i64x2_shuffle::<0, 2>(x, y),
        (0, _) => i64x2_shuffle::<0, 3>(x, y),
        (_, 0) => i64x2_shuffle::<1, 2>(x, y),
        _ => i64x2_shuffle::<1, 3>(x, y),
    }
}

// The intrinsics are safe functions that need `simd128`, which the whole
// module is compiled with (see the token); only the loads and stores are
// `unsafe`.
impl<const K: usize> Half for Regs<K> {
    two_lane_registers! { load = v128_load, store = v128_store, add = i64x2_add, xor = v128_xor }
    #[inline(always)]
    unsafe fn rotl(self, c: &[u32; 8]) -> Self {
        Regs(each::<_, K>(|r| rotl2(self.0[r], c[2 * r], c[2 * r + 1])))
    }
    #[inline(always)]
    unsafe fn permute(self, i: &[usize; 8]) -> Self {
        Regs(each::<_, K>(|r| gather(&self.0, i[2 * r], i[2 * r + 1])))
    }
}

// ===========================================================================
// Multi-lane kernel: 2 computations at once, one per 64-bit lane.
// ===========================================================================

// The arithmetic is safe (see `Half` above); `isa::lanewise!` and
// `register_row!` would wrap it in `unsafe` blocks that warn here.
impl Row<2> for v128 {
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        u64x2_splat(v)
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        i64x2_add(self, o)
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        v128_xor(self, o)
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        v128_and(self, o)
    }
    #[inline(always)]
    unsafe fn load_row(row: &[u64; 2]) -> Self {
        // SAFETY: `row` is 16 readable bytes; no alignment needed.
        unsafe { v128_load(row.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; 2]) {
        // SAFETY: `row` is 16 writable bytes; no alignment needed.
        unsafe { v128_store(row.as_mut_ptr().cast(), self) }
    }
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        rotl_same(self, r)
    }
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        // Unsigned `sum < step` (the carry) as a signed compare of both
        // with the top bit flipped; the all-ones mask is -1.
        let sum = i64x2_add(t0, step);
        let top = i64x2_splat(i64::MIN);
        let carry = i64x2_lt(v128_xor(sum, top), v128_xor(step, top));
        (sum, i64x2_sub(t1, carry))
    }
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [Self; W] {
        let mut m = [i64x2_splat(0); W];
        for pair in 0..W / 2 {
            // Bytes at..at + 16 lie inside the block, which ends at
            // offset + 8 * W (v128 loads need no alignment).
            let at = offset + 16 * pair;
            // SAFETY: the trait's contract (each block holds at least
            // offset + 8 * W bytes).
            let (r0, r1) = unsafe {
                (
                    v128_load(blocks[0].as_ptr().add(at).cast()),
                    v128_load(blocks[1].as_ptr().add(at).cast()),
                )
            };
            m[2 * pair] = i64x2_shuffle::<0, 2>(r0, r1);
            m[2 * pair + 1] = i64x2_shuffle::<1, 3>(r0, r1);
        }
        m
    }
}
