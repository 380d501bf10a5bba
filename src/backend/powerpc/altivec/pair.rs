//! The `pair` layout (Skein-256): a register holds two whole words, high
//! half first, e.g. words (0, 2) and (1, 3). A 64-bit addition is add,
//! carry-out, move carries to the high lanes, add (4 instructions for 2
//! words); see the module documentation of `altivec`.

use super::vector::*;
use core::intrinsics::simd::{simd_add, simd_shuffle, simd_xor};
use core::mem::transmute;
use core::simd::Simd;

use crate::backend::even_odd::layout::key_pos;
use crate::backend::powerpc::Blocks;
use crate::spec::{rot, C240};

/// Threefish-256 state: even words (0, 2) and odd words in odd-lane order.
#[derive(Clone, Copy)]
struct Pair {
    e: V,
    o: V,
}

pub(super) fn pair_from_words(w: &[u64; 4]) -> Lanes {
    let mut l = Lanes([[0; 4]; 8]);
    l.0[0] = [hi(w[0]), lo(w[0]), hi(w[2]), lo(w[2])];
    l.0[1] = [hi(w[1]), lo(w[1]), hi(w[3]), lo(w[3])];
    l
}

pub(super) fn pair_to_words(l: &Lanes) -> [u64; 4] {
    let word = |v: usize, i: usize| (l.0[v][2 * i] as u64) << 32 | l.0[v][2 * i + 1] as u64;
    [word(0, 0), word(1, 0), word(0, 1), word(1, 1)]
}

/// The second word of one register and the first of another.
const NEXT_WORD: Simd<u32, 4> = idx4([2, 3, 4, 5]);

/// Move the carry-outs of the low lanes into the high lanes.
const CARRY_UP: Simd<u32, 4> = idx4([1, 4, 3, 4]);

/// `a + b` on two 64-bit words.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_add(a: V, b: V) -> V {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let carry: V = simd_shuffle(vec_addc(a, b), vconst([0; 4]), CARRY_UP);
        simd_add(simd_add(a, b), carry)
    }
}

/// `a + b + c` on two 64-bit words.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_add3(a: V, b: V, c: V) -> V {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let s = simd_add(a, b);
        let carries = simd_add(vec_addc(a, b), vec_addc(s, c));
        let carry: V = simd_shuffle(carries, vconst([0; 4]), CARRY_UP);
        simd_add(simd_add(s, c), carry)
    }
}

/// `vrlw` counts and `vsel` masks of round `d` for the odd register. In odd
/// rounds the even register holds (2, 0) (see [`pair_round_rest`]), so lane
/// 0 does MIX 1 and lane 1 MIX 0.
const fn pair_rot(d: usize) -> ([u32; 4], [u32; 4]) {
    let mut count = [0; 4];
    let mut mask = [0; 4];
    let mut k = 0;
    while k < 2 {
        let rot = rot::<4>(d, if d.is_multiple_of(2) { k } else { 1 - k });
        let s = rot % 32;
        let low = if s == 0 { 0 } else { u32::MAX >> (32 - s) };
        let m = if rot < 32 { low } else { !low };
        count[2 * k] = s;
        count[2 * k + 1] = s;
        mask[2 * k] = m;
        mask[2 * k + 1] = m;
        k += 1;
    }
    (count, mask)
}

/// The rotation constants of all rounds of the pair layout.
const fn pair_table() -> RotTable {
    let mut t = RotTable([[[[0; 4]; 8]; 2]; 2]);
    let mut d = 0;
    while d < 8 {
        let (c, m) = pair_rot(d);
        t.0[0][0][d] = c;
        t.0[1][0][d] = m;
        d += 1;
    }
    t
}

static PAIR_256: RotTable = pair_table();

/// One Threefish-256 round; `D` is the round number modulo 8.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_round<const D: usize>(x: &mut Pair, rc: &RotConsts) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        x.e = pair_add(x.e, x.o);
        pair_round_rest::<D>(x, rc);
    }
}

/// A round after its addition: rotate, xor, swap the even words.
///
/// The word permutation of Threefish-256 swaps words 1 and 3 every round.
/// Swapping the two even words instead (the register holds (0, 2) and
/// (2, 0) in turn) does the same pairing, and takes the shuffle off the
/// odd words' path rotate, xor, add: the swap of the new even words runs
/// beside the xor. After every two rounds both registers are back in the
/// natural order.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_round_rest<const D: usize>(x: &mut Pair, rc: &RotConsts) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let (c, _) = const { pair_rot(D) };
        let rotated = if c[0] == 0 && c[2] == 0 {
            // Both rotations are by 32: swap the halves.
            simd_shuffle(x.o, x.o, const { idx4([1, 0, 3, 2]) })
        } else {
            let y = vec_rl(x.o, rc.count(D, 0));
            let swapped: V = simd_shuffle(y, y, const { idx4([1, 0, 3, 2]) });
            vsel(y, swapped, rc.resident_mask[D])
        };
        x.o = simd_xor(rotated, x.e);
        x.e = simd_shuffle(x.e, x.e, const { idx4([2, 3, 0, 1]) });
    }
}

/// Key words of one Threefish-256 block: (k0, k2), (k1, k3) and (k4, k4).
/// The subkey windows of key order (k0, k2, k4, k1, k3) are cut from them.
#[derive(Clone, Copy)]
struct PairKey {
    e: V,
    o: V,
    k4: V,
}

/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_key(x: &Pair) -> PairKey {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let p = simd_xor(x.e, x.o);
        let p = simd_xor(p, simd_shuffle(p, p, const { idx4([2, 3, 0, 1]) }));
        let k4 = simd_xor(p, vconst([hi(C240), lo(C240), hi(C240), lo(C240)]));
        PairKey { e: x.e, o: x.o, k4 }
    }
}

/// Subkey window at key position `q` (two words).
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_window(k: &PairKey, q: usize) -> V {
    // SAFETY: caller enables AltiVec. Opaque copies keep LLVM from keeping
    // every window alive for the whole block.
    unsafe {
        let (e, o, k4) = (opaque(k.e), opaque(k.o), opaque(k.k4));
        match q {
            0 => e,
            1 => simd_shuffle(e, k4, NEXT_WORD),
            2 => simd_shuffle(k4, o, NEXT_WORD),
            3 => o,
            _ => simd_shuffle(o, e, NEXT_WORD),
        }
    }
}

/// Tweak schedule of one block: (t0, t1) and (t2, t2).
#[derive(Clone, Copy)]
struct PairTweak {
    t01: V,
    t22: V,
}

/// (0, ts[i]): the tweak word added to word 2.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_tweak_even(t: &PairTweak, i: usize) -> V {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let z = vconst([0; 4]);
        let t = PairTweak {
            t01: opaque(t.t01),
            t22: opaque(t.t22),
        };
        match i {
            0 => simd_shuffle(z, t.t01, NEXT_WORD),
            1 => simd_shuffle(t.t01, z, const { idx4([4, 5, 2, 3]) }),
            _ => simd_shuffle(z, t.t22, NEXT_WORD),
        }
    }
}

/// `a + b + c + d` on two 64-bit words.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_add4(a: V, b: V, c: V, d: V) -> V {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let s1 = simd_add(a, b);
        let s2 = simd_add(s1, c);
        let carries = simd_add(simd_add(vec_addc(a, b), vec_addc(s1, c)), vec_addc(s2, d));
        let carry: V = simd_shuffle(carries, vconst([0; 4]), CARRY_UP);
        simd_add(simd_add(s2, d), carry)
    }
}

/// The tweak parts of subkey `S`: (0, ts[(s+1) % 3]) for the even words and
/// (ts[s % 3], s) for the odd ones, the counter taken from `COUNTERS` by one
/// shuffle (a permute-unit instruction, not two vector additions).
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_tweak_parts<const S: usize>(t: &PairTweak, rc: &RotConsts) -> (V, V) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let even = pair_tweak_even(t, const { (S + 1) % 3 });
        let c = rc.counter(S);
        let odd = match S % 3 {
            0 => simd_shuffle(opaque(t.t01), c, const { idx4([0, 1, 6, 7]) }),
            1 => simd_shuffle(opaque(t.t01), c, const { idx4([2, 3, 6, 7]) }),
            _ => simd_shuffle(opaque(t.t22), c, const { idx4([0, 1, 6, 7]) }),
        };
        (even, odd)
    }
}

/// Add subkey `S`.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_inject<const S: usize>(x: &mut Pair, k: &PairKey, t: &PairTweak, rc: &RotConsts) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let (te, to) = pair_tweak_parts::<S>(t, rc);
        x.e = pair_add3(x.e, pair_window(k, const { key_pos::<4>(S) }), te);
        x.o = pair_add3(x.o, pair_window(k, const { key_pos::<4>(S + 1) }), to);
    }
}

/// Add subkey `S`, then round `D`, sharing the carry work of the additions.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_inject_round<const S: usize, const D: usize>(
    x: &mut Pair,
    k: &PairKey,
    t: &PairTweak,
    rc: &RotConsts,
) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let (te, to) = pair_tweak_parts::<S>(t, rc);
        x.o = pair_add3(x.o, pair_window(k, const { key_pos::<4>(S + 1) }), to);
        x.e = pair_add4(x.e, pair_window(k, const { key_pos::<4>(S) }), te, x.o);
        pair_round_rest::<D>(x, rc);
    }
}

/// Subkey `S` and rounds 0-3 (`S` even) or 4-7 (`S` odd) of a group of eight.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn pair_four<const S: usize>(x: &mut Pair, k: &PairKey, t: &PairTweak, rc: &RotConsts) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        if S & 1 == 0 {
            pair_inject_round::<S, 0>(x, k, t, rc);
            pair_round::<1>(x, rc);
            pair_round::<2>(x, rc);
            pair_round::<3>(x, rc);
        } else {
            pair_inject_round::<S, 4>(x, k, t, rc);
            pair_round::<5>(x, rc);
            pair_round::<6>(x, rc);
            pair_round::<7>(x, rc);
        }
    }
}

/// # Safety
/// `blocks` points to `n` blocks of 32 bytes; AltiVec enabled.
#[target_feature(enable = "altivec")]
pub(super) unsafe fn pair_blocks_256(
    lanes: &mut Lanes,
    tweak: &mut [u64; 2],
    blocks: *const u8,
    n: usize,
    bytes_per_block: u64,
) {
    // Words g and 2 + g, each high half then low half.
    const fn pick(g: usize) -> Simd<u32, 16> {
        lane_pick([(8 * g, 0), (8 * g, 1), (16 + 8 * g, 0), (16 + 8 * g, 1)])
    }
    // SAFETY: caller; `Lanes` is 16-byte aligned.
    unsafe {
        let mut chain = Pair {
            e: vconst(lanes.0[0]),
            o: vconst(lanes.0[1]),
        };
        let mut rc = RotConsts::new(&PAIR_256);
        let mut d = 0;
        while d < 8 {
            rc.resident_mask[d] = opaque(rc.mask(d, 0));
            d += 1;
        }
        let mut walk = Blocks::new(tweak, blocks, n, 32, bytes_per_block);
        while let Some((block, t0, t1)) = walk.next() {
            prefetch_next(block, 32);
            let (l0, l1) = (load_bytes(block), load_bytes(block.add(16)));
            let m = Pair {
                e: transmute::<Bytes, V>(simd_shuffle(l0, l1, const { pick(0) })),
                o: transmute::<Bytes, V>(simd_shuffle(l0, l1, const { pick(1) })),
            };
            let k = pair_key(&chain);
            let t01 = vconst([hi(t0), lo(t0), hi(t1), lo(t1)]);
            let t = PairTweak {
                t01,
                t22: simd_xor(t01, simd_shuffle(t01, t01, const { idx4([2, 3, 0, 1]) })),
            };
            let mut x = m;
            pair_four::<0>(&mut x, &k, &t, &rc);
            pair_four::<1>(&mut x, &k, &t, &rc);
            pair_four::<2>(&mut x, &k, &t, &rc);
            pair_four::<3>(&mut x, &k, &t, &rc);
            pair_four::<4>(&mut x, &k, &t, &rc);
            pair_four::<5>(&mut x, &k, &t, &rc);
            pair_four::<6>(&mut x, &k, &t, &rc);
            pair_four::<7>(&mut x, &k, &t, &rc);
            pair_four::<8>(&mut x, &k, &t, &rc);
            pair_four::<9>(&mut x, &k, &t, &rc);
            pair_four::<10>(&mut x, &k, &t, &rc);
            pair_four::<11>(&mut x, &k, &t, &rc);
            pair_four::<12>(&mut x, &k, &t, &rc);
            pair_four::<13>(&mut x, &k, &t, &rc);
            pair_four::<14>(&mut x, &k, &t, &rc);
            pair_four::<15>(&mut x, &k, &t, &rc);
            pair_four::<16>(&mut x, &k, &t, &rc);
            pair_four::<17>(&mut x, &k, &t, &rc);
            pair_inject::<18>(&mut x, &k, &t, &rc);
            chain = Pair {
                e: simd_xor(x.e, m.e),
                o: simd_xor(x.o, m.o),
            };
            walk.done();
        }
        prefetch_stop();
        lanes.0[0] = transmute::<V, [u32; 4]>(chain.e);
        lanes.0[1] = transmute::<V, [u32; 4]>(chain.o);
        *tweak = walk.tweak();
    }
}
