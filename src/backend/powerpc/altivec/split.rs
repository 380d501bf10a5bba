//! The `split` layout (Skein-512 and -1024): one register holds the high
//! halves of four words, another their low halves, so carries need no lane
//! movement (4 instructions for 4 words) and a rotation is two `vrlw` and
//! two `vsel` for four words (see the module documentation of `altivec`).

use super::vector::*;
use core::intrinsics::simd::{simd_add, simd_shuffle, simd_xor};
use core::mem::transmute;
use core::simd::Simd;

use crate::backend::even_odd::layout::{key_pos, lane_rot, odd_source};
use crate::backend::powerpc::Blocks;
use crate::spec::C240;

/// Threefish-512 or -1024 state: `eh[r]` lane l is the high half of even word
/// 2(4r+l), `el` the low halves, `oh`/`ol` the odd words in odd-lane order.
/// Only `[0]` is used for 8 words.
#[derive(Clone, Copy)]
struct Split {
    eh: [V; 2],
    el: [V; 2],
    oh: [V; 2],
    ol: [V; 2],
}

/// `Lanes` order of a split state: eh[0], eh[1], el[0], el[1], oh..., ol...
pub(super) fn split_from_words<const W: usize>(w: &[u64; W]) -> Lanes {
    let mut l = Lanes([[0; 4]; 8]);
    for k in 0..W / 2 {
        let (r, lane) = (k / 4, k % 4);
        l.0[r][lane] = hi(w[2 * k]);
        l.0[2 + r][lane] = lo(w[2 * k]);
        l.0[4 + r][lane] = hi(w[2 * k + 1]);
        l.0[6 + r][lane] = lo(w[2 * k + 1]);
    }
    l
}

pub(super) fn split_to_words<const W: usize>(l: &Lanes) -> [u64; W] {
    let mut w = [0u64; W];
    for k in 0..W / 2 {
        let (r, lane) = (k / 4, k % 4);
        w[2 * k] = (l.0[r][lane] as u64) << 32 | l.0[2 + r][lane] as u64;
        w[2 * k + 1] = (l.0[4 + r][lane] as u64) << 32 | l.0[6 + r][lane] as u64;
    }
    w
}

/// `(h, l) + (bh, bl)` on four 64-bit words.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn split_add(h: V, l: V, bh: V, bl: V) -> (V, V) {
    // SAFETY: caller enables AltiVec.
    unsafe { (simd_add(simd_add(h, bh), vec_addc(l, bl)), simd_add(l, bl)) }
}

/// `vrlw` counts and `vsel` masks rotating odd register `r` in round `d`
/// (zeros for a register the state does not have).
const fn split_rot<const W: usize>(d: usize, r: usize) -> ([u32; 4], [u32; 4]) {
    let mut count = [0; 4];
    let mut mask = [0; 4];
    let mut l = 0;
    while l < 4 && 4 * r < W / 2 {
        let rot = lane_rot::<W>(d, 4 * r + l);
        let s = rot % 32;
        let low = if s == 0 { 0 } else { u32::MAX >> (32 - s) };
        count[l] = s;
        mask[l] = if rot < 32 { low } else { !low };
        l += 1;
    }
    (count, mask)
}

/// The rotation constants of all rounds of the split layout.
const fn split_table<const W: usize>() -> RotTable {
    let mut t = RotTable([[[[0; 4]; 8]; 2]; 2]);
    let mut d = 0;
    while d < 8 {
        let mut r = 0;
        while r < W / 8 {
            let (c, m) = split_rot::<W>(d, r);
            t.0[0][r][d] = c;
            t.0[1][r][d] = m;
            r += 1;
        }
        d += 1;
    }
    t
}

static SPLIT_512: RotTable = split_table::<8>();
static SPLIT_1024: RotTable = split_table::<16>();

/// Rotate four words left, each by its own count.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn split_rotate(h: V, l: V, count: V, mask: V) -> (V, V) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let rh = vec_rl(h, count);
        let rl = vec_rl(l, count);
        (vsel(rh, rl, mask), vsel(rl, rh, mask))
    }
}

/// Shuffle indices moving the odd lanes of round `d` to round `d + 1`:
/// new register `r` from the concatenation of old registers 0 and 1.
const fn split_perm<const W: usize>(d: usize, r: usize) -> Simd<u32, 4> {
    let mut i = [0; 4];
    let mut l = 0;
    while l < 4 && 4 * r < W / 2 {
        i[l] = odd_source::<W>(d, 4 * r + l) as u32;
        l += 1;
    }
    idx4(i)
}

/// One Threefish round; `D` is the round number modulo 8.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn split_round<const W: usize, const D: usize>(x: &mut Split, rc: &RotConsts) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        (x.eh[0], x.el[0]) = split_add(x.eh[0], x.el[0], x.oh[0], x.ol[0]);
        let (h, l) = split_rotate(x.oh[0], x.ol[0], rc.count(D, 0), rc.mask(D, 0));
        x.oh[0] = simd_xor(h, x.eh[0]);
        x.ol[0] = simd_xor(l, x.el[0]);
        if W == 16 {
            (x.eh[1], x.el[1]) = split_add(x.eh[1], x.el[1], x.oh[1], x.ol[1]);
            let (h, l) = split_rotate(x.oh[1], x.ol[1], rc.count(D, 1), rc.mask(D, 1));
            x.oh[1] = simd_xor(h, x.eh[1]);
            x.ol[1] = simd_xor(l, x.el[1]);

            let (h0, h1, l0, l1) = (x.oh[0], x.oh[1], x.ol[0], x.ol[1]);
            x.oh[0] = simd_shuffle(h0, h1, const { split_perm::<W>(D, 0) });
            x.oh[1] = simd_shuffle(h0, h1, const { split_perm::<W>(D, 1) });
            x.ol[0] = simd_shuffle(l0, l1, const { split_perm::<W>(D, 0) });
            x.ol[1] = simd_shuffle(l0, l1, const { split_perm::<W>(D, 1) });
        } else {
            x.oh[0] = simd_shuffle(x.oh[0], x.oh[0], const { split_perm::<W>(D, 0) });
            x.ol[0] = simd_shuffle(x.ol[0], x.ol[0], const { split_perm::<W>(D, 0) });
        }
    }
}

/// Key words of one block in key-position order (see [`key_pos`]),
/// as the aligned four-lane vectors every subkey window is cut from:
/// `[E_0, .., E_{n-1}, (k_W, o_1, o_3, o_5), O_0, .., O_{n-1}, E_0]`.
#[derive(Clone, Copy)]
struct SplitKey {
    h: [V; 6],
    l: [V; 6],
}

/// Where the subkey window at key position `q` comes from: two entries of
/// `SplitKey` and the shuffle picking four consecutive lanes of them.
const fn split_window<const W: usize>(q: usize) -> (usize, usize, Simd<u32, 4>) {
    let nr = W / 8;
    let (a, off) = if q <= W / 2 {
        (q / 4, q % 4)
    } else {
        let q2 = q - W / 2 - 1;
        (nr + 1 + q2 / 4, q2 % 4)
    };
    let o = off as u32;
    (a, a + 1, idx4([o, o + 1, o + 2, o + 3]))
}

/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn split_key<const W: usize>(x: &Split) -> SplitKey {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let nr = W / 8;
        let mut ph = simd_xor(x.eh[0], x.oh[0]);
        let mut pl = simd_xor(x.el[0], x.ol[0]);
        if nr == 2 {
            ph = simd_xor(ph, simd_xor(x.eh[1], x.oh[1]));
            pl = simd_xor(pl, simd_xor(x.el[1], x.ol[1]));
        }
        // Fold the four lanes: every lane ends up with the xor of all words.
        ph = simd_xor(ph, simd_shuffle(ph, ph, const { idx4([2, 3, 0, 1]) }));
        pl = simd_xor(pl, simd_shuffle(pl, pl, const { idx4([2, 3, 0, 1]) }));
        ph = simd_xor(ph, simd_shuffle(ph, ph, const { idx4([1, 0, 3, 2]) }));
        pl = simd_xor(pl, simd_shuffle(pl, pl, const { idx4([1, 0, 3, 2]) }));
        let kh = simd_xor(ph, vconst([hi(C240); 4]));
        let kl = simd_xor(pl, vconst([lo(C240); 4]));
        let koh: V = simd_shuffle(kh, x.oh[0], const { idx4([0, 4, 5, 6]) });
        let kol: V = simd_shuffle(kl, x.ol[0], const { idx4([0, 4, 5, 6]) });
        let mut k = SplitKey {
            h: [x.eh[0]; 6],
            l: [x.el[0]; 6],
        };
        k.h[0] = x.eh[0];
        k.l[0] = x.el[0];
        if nr == 2 {
            k.h[1] = x.eh[1];
            k.l[1] = x.el[1];
        }
        k.h[nr] = koh;
        k.l[nr] = kol;
        k.h[nr + 1] = x.oh[0];
        k.l[nr + 1] = x.ol[0];
        if nr == 2 {
            k.h[nr + 2] = x.oh[1];
            k.l[nr + 2] = x.ol[1];
        }
        k.h[2 * nr + 1] = x.eh[0];
        k.l[2 * nr + 1] = x.el[0];
        k
    }
}

/// The subkey window at key position `Q` (one shuffle, or none).
macro_rules! split_window {
    ($k:expr, $w:ident, $q:expr) => {{
        let k: &SplitKey = $k;
        let (a, b, _) = const { split_window::<$w>($q) };
        (
            simd_shuffle(k.h[a], k.h[b], const { split_window::<$w>($q).2 }),
            simd_shuffle(k.l[a], k.l[b], const { split_window::<$w>($q).2 }),
        )
    }};
}

/// Threefish-512: the three subkey words that get more than a key word
/// (words 5, 6 and 7 of subkey s get t[s % 3], t[(s + 1) % 3] and s), with
/// those parts added once per block instead of once per subkey, laid out
/// like the `SplitKey` vectors so a subkey window of them is cut the same
/// way. This works because 3 divides W + 1 = 9: key word w serves word 5 or
/// 6 of a subkey only together with t[(w + 1) % 3] (`tk`), and word 7 of
/// subkey s is key word (s + 7) % 9, so s is (w + 2) % 9 for s < 9 (`ck`)
/// (`ck`, which gets 9 more for 9 <= s < 18, and subkey 18 adds 9 again). A subkey
/// addition is then one 64-bit addition per register pair instead of
/// three-operand ones: 8 VIU1 instructions instead of 17, against 30 per
/// block to build these.
#[derive(Clone, Copy)]
struct FoldedKey {
    tk: SplitKey,
    ck: SplitKey,
}

/// Key word in lane `lane` of `SplitKey` vector `j`, Threefish-512.
const fn key_word_512(j: usize, lane: usize) -> usize {
    match j {
        0 | 3 => 2 * lane,
        1 => [8, 1, 3, 5][lane],
        _ => 2 * lane + 1,
    }
}

/// Counter lanes of `FoldedKey::ck` for subkeys 0..9.
const fn counter_512(j: usize) -> [u32; 4] {
    let mut c = [0; 4];
    let mut lane = 0;
    while lane < 4 {
        c[lane] = ((key_word_512(j, lane) + 2) % 9) as u32;
        lane += 1;
    }
    c
}

/// The tweak words of one block, (t0, t1, t2, 0) as high and low halves
/// (split layout).
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct FoldTweak {
    h: [u32; 4],
    l: [u32; 4],
    /// Threefish-1024: (t[(v + 1) % 3], t[v], 0, 0) for v = s % 3.
    gather_h: [[u32; 4]; 3],
    gather_l: [[u32; 4]; 3],
}

impl FoldTweak {
    #[inline(always)]
    fn new<const W: usize>(t0: u64, t1: u64) -> FoldTweak {
        let ts = [t0, t1, t0 ^ t1];
        let mut f = FoldTweak {
            h: [hi(ts[0]), hi(ts[1]), hi(ts[2]), 0],
            l: [lo(ts[0]), lo(ts[1]), lo(ts[2]), 0],
            gather_h: [[0; 4]; 3],
            gather_l: [[0; 4]; 3],
        };
        if W == 16 {
            let mut v = 0;
            while v < 3 {
                let (a, b) = (ts[(v + 1) % 3], ts[v]);
                f.gather_h[v] = [hi(a), hi(b), 0, 0];
                f.gather_l[v] = [lo(a), lo(b), 0, 0];
                v += 1;
            }
        }
        f
    }
}

/// Shuffle of (t0, t1, t2, 0) giving t[(w + 1) % 3] for the key words of
/// `SplitKey` vector `j`.
const fn fold_tweak_pick(j: usize) -> Simd<u32, 4> {
    let mut i = [0; 4];
    let mut lane = 0;
    while lane < 4 {
        i[lane] = ((key_word_512(j, lane) + 1) % 3) as u32;
        lane += 1;
    }
    idx4(i)
}

/// `(h, l) + (0, c)`: a 64-bit addition of small numbers (3 instructions).
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn split_add_lo(h: V, l: V, c: V) -> (V, V) {
    // SAFETY: caller enables AltiVec.
    unsafe { (simd_add(h, vec_addc(l, c)), simd_add(l, c)) }
}

/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn folded_key(k: &SplitKey, t: &FoldTweak) -> FoldedKey {
    // SAFETY: caller enables AltiVec; loads are from aligned fields.
    unsafe {
        let mut f = FoldedKey { tk: *k, ck: *k };
        let (th, tl) = (vconst(t.h), vconst(t.l));
        (f.tk.h[0], f.tk.l[0]) = split_add(
            k.h[0],
            k.l[0],
            simd_shuffle(th, th, const { fold_tweak_pick(0) }),
            simd_shuffle(tl, tl, const { fold_tweak_pick(0) }),
        );
        (f.tk.h[1], f.tk.l[1]) = split_add(
            k.h[1],
            k.l[1],
            simd_shuffle(th, th, const { fold_tweak_pick(1) }),
            simd_shuffle(tl, tl, const { fold_tweak_pick(1) }),
        );
        (f.tk.h[2], f.tk.l[2]) = split_add(
            k.h[2],
            k.l[2],
            simd_shuffle(th, th, const { fold_tweak_pick(2) }),
            simd_shuffle(tl, tl, const { fold_tweak_pick(2) }),
        );
        f.tk.h[3] = f.tk.h[0];
        f.tk.l[3] = f.tk.l[0];
        (f.ck.h[0], f.ck.l[0]) = split_add_lo(k.h[0], k.l[0], vconst(const { counter_512(0) }));
        (f.ck.h[1], f.ck.l[1]) = split_add_lo(k.h[1], k.l[1], vconst(const { counter_512(1) }));
        (f.ck.h[2], f.ck.l[2]) = split_add_lo(k.h[2], k.l[2], vconst(const { counter_512(2) }));
        f.ck.h[3] = f.ck.h[0];
        f.ck.l[3] = f.ck.l[0];
        f
    }
}

/// Move `FoldedKey::ck` from subkeys 0..9 to subkeys 9..18 (adds 9).
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn folded_ck_next(f: &mut FoldedKey) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        let nine = vconst([9; 4]);
        let mut j = 0;
        while j < 3 {
            (f.ck.h[j], f.ck.l[j]) = split_add_lo(f.ck.h[j], f.ck.l[j], nine);
            j += 1;
        }
        f.ck.h[3] = f.ck.h[0];
        f.ck.l[3] = f.ck.l[0];
    }
}

/// Add subkey `S` of Threefish-512 from the folded key words.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn split_inject_folded<const W: usize, const S: usize>(
    x: &mut Split,
    k: &SplitKey,
    f: &mut FoldedKey,
) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        if S == 9 {
            folded_ck_next(f);
        }
        let (kh, kl): (V, V) = split_window!(k, W, key_pos::<W>(S) % (W + 1));
        let (th, tl): (V, V) = split_window!(&f.tk, W, key_pos::<W>(S) % (W + 1));
        let eh: V = simd_shuffle(kh, th, const { idx4([0, 1, 2, 7]) });
        let el: V = simd_shuffle(kl, tl, const { idx4([0, 1, 2, 7]) });
        (x.eh[0], x.el[0]) = split_add(x.eh[0], x.el[0], eh, el);
        let c = &f.ck;
        let (kh, kl): (V, V) = split_window!(k, W, key_pos::<W>(S + 1) % (W + 1));
        let (th, tl): (V, V) = split_window!(&f.tk, W, key_pos::<W>(S + 1) % (W + 1));
        let (ch, cl): (V, V) = split_window!(c, W, key_pos::<W>(S + 1) % (W + 1));
        let oh: V = simd_shuffle(kh, th, const { idx4([0, 1, 6, 3]) });
        let ol: V = simd_shuffle(kl, tl, const { idx4([0, 1, 6, 3]) });
        let mut oh: V = simd_shuffle(oh, ch, const { idx4([0, 1, 2, 7]) });
        let mut ol: V = simd_shuffle(ol, cl, const { idx4([0, 1, 2, 7]) });
        if S == 18 {
            (oh, ol) = split_add_lo(oh, ol, vconst([0, 0, 0, 9]));
        }
        (x.oh[0], x.ol[0]) = split_add(x.oh[0], x.ol[0], oh, ol);
    }
}

/// Add subkey `S`.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn split_inject<const W: usize, const S: usize>(
    x: &mut Split,
    k: &SplitKey,
    t: &FoldTweak,
    f: &mut FoldedKey,
    rc: &RotConsts,
) {
    // SAFETY: caller enables AltiVec; loads are from aligned fields.
    unsafe {
        if W == 8 {
            split_inject_folded::<W, S>(x, k, f);
            return;
        }
        // Threefish-1024: plain key additions on all four register pairs,
        // then the three tweaked words (14, 13, 15: lanes 3, 2, 3 of the
        // second even and odd pairs) gathered into one pair, one 64-bit
        // addition of (t[(s+1) % 3], t[s % 3], s, 0) there, and put back:
        // 20 VIU1 instructions instead of 25, for 8 permutes.
        let (kh, kl): (V, V) = split_window!(k, W, (key_pos::<W>(S)) % (W + 1));
        (x.eh[0], x.el[0]) = split_add(x.eh[0], x.el[0], kh, kl);
        let (kh, kl): (V, V) = split_window!(k, W, (key_pos::<W>(S + 1)) % (W + 1));
        (x.oh[0], x.ol[0]) = split_add(x.oh[0], x.ol[0], kh, kl);
        let (kh, kl): (V, V) = split_window!(k, W, (key_pos::<W>(S) + 4) % (W + 1));
        (x.eh[1], x.el[1]) = split_add(x.eh[1], x.el[1], kh, kl);
        let (kh, kl): (V, V) = split_window!(k, W, (key_pos::<W>(S + 1) + 4) % (W + 1));
        (x.oh[1], x.ol[1]) = split_add(x.oh[1], x.ol[1], kh, kl);
        let gh: V = simd_shuffle(x.eh[1], x.oh[1], const { idx4([3, 6, 7, 7]) });
        let gl: V = simd_shuffle(x.el[1], x.ol[1], const { idx4([3, 6, 7, 7]) });
        let twh = vconst(t.gather_h[S % 3]);
        let twl: V = simd_shuffle(
            vconst(t.gather_l[S % 3]),
            rc.counter(S),
            const { idx4([0, 1, 7, 3]) },
        );
        let (gh, gl) = split_add(gh, gl, twh, twl);
        x.eh[1] = simd_shuffle(x.eh[1], gh, const { idx4([0, 1, 2, 4]) });
        x.el[1] = simd_shuffle(x.el[1], gl, const { idx4([0, 1, 2, 4]) });
        x.oh[1] = simd_shuffle(x.oh[1], gh, const { idx4([0, 1, 5, 6]) });
        x.ol[1] = simd_shuffle(x.ol[1], gl, const { idx4([0, 1, 5, 6]) });
    }
}

/// Eight rounds then subkeys `S1` and `S2 = S1 + 1`.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn split_eight<const W: usize, const S1: usize, const S2: usize>(
    x: &mut Split,
    k: &SplitKey,
    t: &FoldTweak,
    f: &mut FoldedKey,
    rc: &RotConsts,
) {
    // SAFETY: caller enables AltiVec.
    unsafe {
        split_round::<W, 0>(x, rc);
        split_round::<W, 1>(x, rc);
        split_round::<W, 2>(x, rc);
        split_round::<W, 3>(x, rc);
        split_inject::<W, S1>(x, k, t, f, rc);
        split_round::<W, 4>(x, rc);
        split_round::<W, 5>(x, rc);
        split_round::<W, 6>(x, rc);
        split_round::<W, 7>(x, rc);
        split_inject::<W, S2>(x, k, t, f, rc);
    }
}

/// Load one message block in split form.
///
/// # Safety
/// `p..p + 8W` readable; AltiVec enabled.
#[inline(always)]
unsafe fn split_load<const W: usize>(p: *const u8) -> Split {
    // Word pair (2j + g, 2j + 2 + g) of a 32-byte pair of loads, as
    // (high, high, low, low) lanes.
    const fn pick(g: usize) -> Simd<u32, 16> {
        lane_pick([(8 * g, 0), (16 + 8 * g, 0), (8 * g, 1), (16 + 8 * g, 1)])
    }
    // SAFETY: caller.
    unsafe {
        let mut x = Split {
            eh: [vconst([0; 4]); 2],
            el: [vconst([0; 4]); 2],
            oh: [vconst([0; 4]); 2],
            ol: [vconst([0; 4]); 2],
        };
        let mut r = 0;
        while r < W / 8 {
            let q = p.add(64 * r);
            let (l0, l1, l2, l3) = (
                load_bytes(q),
                load_bytes(q.add(16)),
                load_bytes(q.add(32)),
                load_bytes(q.add(48)),
            );
            let e0: V = transmute::<Bytes, V>(simd_shuffle(l0, l1, const { pick(0) }));
            let e1: V = transmute::<Bytes, V>(simd_shuffle(l2, l3, const { pick(0) }));
            let o0: V = transmute::<Bytes, V>(simd_shuffle(l0, l1, const { pick(1) }));
            let o1: V = transmute::<Bytes, V>(simd_shuffle(l2, l3, const { pick(1) }));
            x.eh[r] = simd_shuffle(e0, e1, const { idx4([0, 1, 4, 5]) });
            x.el[r] = simd_shuffle(e0, e1, const { idx4([2, 3, 6, 7]) });
            x.oh[r] = simd_shuffle(o0, o1, const { idx4([0, 1, 4, 5]) });
            x.ol[r] = simd_shuffle(o0, o1, const { idx4([2, 3, 6, 7]) });
            r += 1;
        }
        x
    }
}

/// # Safety
/// The walk's blocks are readable blocks of `8 * W` bytes; AltiVec enabled.
#[inline(always)]
unsafe fn split_blocks<const W: usize>(lanes: &mut Lanes, tweak: &mut [u64; 2], mut walk: Blocks) {
    // SAFETY: caller; `Lanes` is 16-byte aligned.
    unsafe {
        let l = transmute::<Lanes, [V; 8]>(*lanes);
        let mut chain = Split {
            eh: [l[0], l[1]],
            el: [l[2], l[3]],
            oh: [l[4], l[5]],
            ol: [l[6], l[7]],
        };
        let rc = RotConsts::new(if W == 8 { &SPLIT_512 } else { &SPLIT_1024 });
        while let Some((block, t0, t1)) = walk.next() {
            prefetch_next(block, 8 * W);
            let m = split_load::<W>(block);
            let k = split_key::<W>(&chain);
            let t = FoldTweak::new::<W>(t0, t1);
            let mut f = if W == 8 {
                folded_key(&k, &t)
            } else {
                FoldedKey { tk: k, ck: k }
            };
            let mut x = m;
            split_inject::<W, 0>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 1, 2>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 3, 4>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 5, 6>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 7, 8>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 9, 10>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 11, 12>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 13, 14>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 15, 16>(&mut x, &k, &t, &mut f, &rc);
            split_eight::<W, 17, 18>(&mut x, &k, &t, &mut f, &rc);
            if W == 16 {
                split_eight::<W, 19, 20>(&mut x, &k, &t, &mut f, &rc);
            }
            let mut r = 0;
            while r < W / 8 {
                chain.eh[r] = simd_xor(x.eh[r], m.eh[r]);
                chain.el[r] = simd_xor(x.el[r], m.el[r]);
                chain.oh[r] = simd_xor(x.oh[r], m.oh[r]);
                chain.ol[r] = simd_xor(x.ol[r], m.ol[r]);
                r += 1;
            }
            walk.done();
        }
        prefetch_stop();
        let out = [
            chain.eh[0],
            chain.eh[1],
            chain.el[0],
            chain.el[1],
            chain.oh[0],
            chain.oh[1],
            chain.ol[0],
            chain.ol[1],
        ];
        *lanes = transmute::<[V; 8], Lanes>(out);
        *tweak = walk.tweak();
    }
}

/// The split layout's block function, Skein-512 (`W` = 8) or -1024 (16).
///
/// # Safety
/// `blocks` points to `n` blocks of `8 * W` bytes; AltiVec enabled.
#[target_feature(enable = "altivec")]
pub(super) unsafe fn split_blocks_altivec<const W: usize>(
    lanes: &mut Lanes,
    tweak: &mut [u64; 2],
    blocks: *const u8,
    n: usize,
    bytes_per_block: u64,
) {
    let walk = Blocks::new(tweak, blocks, n, 8 * W, bytes_per_block);
    // SAFETY: forwarded from the caller; AltiVec is enabled here.
    unsafe { split_blocks::<W>(lanes, tweak, walk) }
}
