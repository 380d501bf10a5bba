//! The `pair` layout (Skein-256): a register holds two whole words, high
//! half first, e.g. words (0, 2) and (1, 3). A 64-bit addition is add,
//! carry-out, move carries to the high lanes, add (4 instructions for 2
//! words); see the module documentation of `altivec`.
//!
//! The single Skein-256 stream is one dependency chain, and the G4 issues
//! vector instructions in order: an instruction waiting for its operands
//! holds back every younger one. So the order of the instructions matters
//! as much as their number, and here it is written out, not left to LLVM:
//! every vector instruction of the block is one `asm!` statement with side
//! effects ([`add32`], [`perm`], [`sld8`] and the like, `load_vector`),
//! which LLVM keeps in the order of this file (it allocates the
//! registers). The order (carry
//! first, the rotation beside the addition, the subkey work in the gaps of
//! the chain) and what it gives in the MPC7450 model are in
//! docs/powerpc.md.
//!
//! Because the instructions are written directly, the vectors here are in
//! register order ("physical" lanes, big-endian numbering) on either byte
//! order: [`phys`] converts at the edges (words in and out, message, tweak,
//! constant tables).

use super::vector::*;
use core::arch::asm;
use core::intrinsics::simd::simd_shuffle;
use core::mem::transmute;
use core::simd::Simd;

use crate::backend::even_odd::layout::key_pos;
use crate::backend::powerpc::Blocks;
use crate::spec::{rot, C240};

/// Four 32-bit lanes in register order, as the elements of a vector built
/// or stored by Rust: the same on big-endian, reversed on little-endian
/// (where `lvx` and LLVM put element 0 in the last word of the register).
/// `#[inline(always)]`: an ordinary function call stays a call in AltiVec
/// code.
#[inline(always)]
const fn phys<T: Copy>(l: [T; 4]) -> [T; 4] {
    if cfg!(target_endian = "big") {
        l
    } else {
        [l[3], l[2], l[1], l[0]]
    }
}

/// Threefish-256 state: even words (0, 2) and odd words in odd-lane order.
#[derive(Clone, Copy)]
struct Pair {
    e: V,
    o: V,
}

pub(super) fn pair_from_words(w: &[u64; 4]) -> Lanes {
    let mut l = Lanes([[0; 4]; 8]);
    l.0[0] = phys([hi(w[0]), lo(w[0]), hi(w[2]), lo(w[2])]);
    l.0[1] = phys([hi(w[1]), lo(w[1]), hi(w[3]), lo(w[3])]);
    l
}

pub(super) fn pair_to_words(l: &Lanes) -> [u64; 4] {
    let (e, o) = (phys(l.0[0]), phys(l.0[1]));
    let word = |v: [u32; 4], i: usize| (v[2 * i] as u64) << 32 | v[2 * i + 1] as u64;
    [word(e, 0), word(o, 0), word(e, 1), word(o, 1)]
}

/// `insn d, a, b`, one AltiVec instruction kept in program order (see the
/// module documentation).
macro_rules! op2_fn {
    ($($name:ident = $insn:literal),+) => {$(
        #[target_feature(enable = "altivec")]
        #[inline]
        fn $name(a: V, b: V) -> V {
            let r: V;
            // SAFETY: reads two vector registers, writes one; nothing else.
            unsafe {
                asm!(concat!($insn, " {0}, {1}, {2}"), lateout(vreg) r, in(vreg) a, in(vreg) b,
                     options(nomem, nostack, preserves_flags));
            }
            r
        }
    )+};
}
op2_fn! { add32 = "vadduwm", carry32 = "vaddcuw", xor = "vxor", rotl32 = "vrlw" }

/// `insn d, a, b, c`, kept in program order.
macro_rules! op3_fn {
    ($($name:ident = $insn:literal),+) => {$(
        #[target_feature(enable = "altivec")]
        #[inline]
        fn $name(a: V, b: V, c: V) -> V {
            let r: V;
            // SAFETY: reads three vector registers, writes one; nothing else.
            unsafe {
                asm!(concat!($insn, " {0}, {1}, {2}, {3}"), lateout(vreg) r, in(vreg) a,
                     in(vreg) b, in(vreg) c, options(nomem, nostack, preserves_flags));
            }
            r
        }
    )+};
}
// `perm(a, b, p)`: bytes of a:b picked by p; `select(a, b, m)`: bits of b
// where m is set, of a elsewhere; `msum(a, b, c)`: per word, the two
// halfword products of a and b plus c (here a 0/1 carry plus c, on the
// complex integer unit instead of the simple one).
op3_fn! { perm = "vperm", select = "vsel", msum = "vmsumuhm" }

/// The second word of `a` and the first of `b` (`vsldoi` by 8 bytes), kept
/// in program order.
#[target_feature(enable = "altivec")]
#[inline]
fn sld8(a: V, b: V) -> V {
    let r: V;
    // SAFETY: reads two vector registers, writes one; nothing else.
    unsafe {
        asm!("vsldoi {0}, {1}, {2}, 8", lateout(vreg) r, in(vreg) a, in(vreg) b,
             options(nomem, nostack, preserves_flags));
    }
    r
}

/// Big-endian 32-bit lanes of 16 bytes.
const fn be_lanes(b: [u8; 16]) -> [u32; 4] {
    let mut l = [0u32; 4];
    let mut k = 0;
    while k < 4 {
        l[k] = u32::from_be_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]]);
        k += 1;
    }
    l
}

/// `vperm` pattern (with a zero vector second): the carries out of the low
/// halves into the high halves, (c1, 0, c3, 0).
const CARRY_UP: [u8; 16] = [4, 5, 6, 7, 16, 16, 16, 16, 12, 13, 14, 15, 16, 16, 16, 16];
/// `vperm` pattern: the two halves of each word swapped.
const HALF_SWAP: [u8; 16] = [4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11];

/// Every constant of the block, each entry one `lvx` in register order
/// ([`phys`] of big-endian lanes).
#[repr(C, align(16))]
struct PairConsts {
    /// `vrlw` counts of round `d` for the odd register.
    count: [[u32; 4]; 8],
    /// `vsel` masks of round `d`.
    mask: [[u32; 4]; 8],
    /// (0, s, 0, s): the subkey number s as both 64-bit words.
    counter: [[u32; 4]; 24],
    /// [`CARRY_UP`], [`HALF_SWAP`], halfwords of 1, zero, (C240, C240).
    misc: [[u32; 4]; 8],
}

/// `vrlw` counts and `vsel` masks of round `d` for the odd register. In odd
/// rounds the even register holds (2, 0) (see [`round`]), so lane 0 does
/// MIX 1 and lane 1 MIX 0.
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

const fn pair_consts() -> PairConsts {
    let mut t = PairConsts {
        count: [[0; 4]; 8],
        mask: [[0; 4]; 8],
        counter: [[0; 4]; 24],
        misc: [[0; 4]; 8],
    };
    let mut d = 0;
    while d < 8 {
        let (c, m) = pair_rot(d);
        t.count[d] = phys(c);
        t.mask[d] = phys(m);
        d += 1;
    }
    let mut s = 0;
    while s < 24 {
        t.counter[s] = phys([0, s as u32, 0, s as u32]);
        s += 1;
    }
    t.misc[0] = phys(be_lanes(CARRY_UP));
    t.misc[1] = phys(be_lanes(HALF_SWAP));
    t.misc[2] = [0x0001_0001; 4];
    t.misc[4] = phys([hi(C240), lo(C240), hi(C240), lo(C240)]);
    t
}

static PAIR_CONSTS: PairConsts = pair_consts();

/// Where the constants are: table addresses and the offsets 0, 16, ..., 112
/// in GPRs (each load one `lvx`, no address arithmetic), and the constants
/// every round uses in vector registers.
struct Consts {
    count: *const u8,
    mask: *const u8,
    counter: [*const u8; 3],
    off: [usize; 8],
    carry_up: V,
    half_swap: V,
    ones: V,
    zero: V,
    c240: V,
}

impl Consts {
    /// # Safety
    /// AltiVec enabled.
    #[inline(always)]
    unsafe fn new() -> Consts {
        let t = &PAIR_CONSTS;
        let counter = t.counter.as_ptr();
        let misc = opaque_ptr(t.misc.as_ptr() as *const u8);
        let off = opaque_offsets();
        // SAFETY: AltiVec (caller); in bounds, 16-byte aligned entries of
        // the static.
        unsafe {
            Consts {
                count: opaque_ptr(t.count.as_ptr() as *const u8),
                mask: opaque_ptr(t.mask.as_ptr() as *const u8),
                counter: [
                    opaque_ptr(counter as *const u8),
                    opaque_ptr(counter.add(8) as *const u8),
                    opaque_ptr(counter.add(16) as *const u8),
                ],
                off,
                carry_up: load_vector(misc, off[0]),
                half_swap: load_vector(misc, off[1]),
                ones: load_vector(misc, off[2]),
                zero: load_vector(misc, off[3]),
                c240: load_vector(misc, off[4]),
            }
        }
    }

    /// # Safety
    /// AltiVec enabled.
    #[inline(always)]
    unsafe fn count(&self, d: usize) -> V {
        // SAFETY: an aligned entry of the static (d < 8).
        unsafe { load_vector(self.count, self.off[d]) }
    }

    /// # Safety
    /// AltiVec enabled.
    #[inline(always)]
    unsafe fn mask(&self, d: usize) -> V {
        // SAFETY: an aligned entry of the static (d < 8).
        unsafe { load_vector(self.mask, self.off[d]) }
    }

    /// # Safety
    /// AltiVec enabled; `s < 24`.
    #[inline(always)]
    unsafe fn counter(&self, s: usize) -> V {
        // SAFETY: an aligned entry of the static.
        unsafe { load_vector(self.counter[s / 8], self.off[s % 8]) }
    }

    /// The carries of `a + b` (per word, from `vaddcuw`) moved up.
    ///
    /// # Safety
    /// AltiVec enabled.
    #[inline(always)]
    unsafe fn carry_up(&self, carries: V) -> V {
        // SAFETY: AltiVec (caller).
        unsafe { perm(carries, self.zero, self.carry_up) }
    }
}

/// The key of one block: its five windows, the subkey word pairs of key
/// order (k0, k2, k4, k1, k3) at positions 0..5, and the tweak words as
/// (t1, t0), (t0, t1) and (t2, t2).
struct Key {
    window: [V; 5],
    tweak: [V; 3],
}

/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn key(chain: &Pair, t01: V, c: &Consts) -> Key {
    // SAFETY: AltiVec (caller).
    unsafe {
        let p = xor(chain.e, chain.o);
        let p = xor(p, sld8(p, p));
        let k4 = xor(p, c.c240);
        let t10 = sld8(t01, t01);
        Key {
            window: [
                chain.e,
                sld8(chain.e, k4),
                sld8(k4, chain.o),
                chain.o,
                sld8(chain.o, chain.e),
            ],
            tweak: [t10, t01, xor(t01, t10)],
        }
    }
}

/// The odd words of subkey `s`, (k[s+1] + t[s mod 3], k[s+3] + s), in
/// steps: the tweak and counter pair, then the sum and carry words, the
/// carry moved up, and the carry added on the complex integer unit (the
/// subkeys are off the chain; the simple integer unit is the bottleneck).
struct OddSubkey {
    tc: V,
    sum: V,
    carry: V,
}

impl OddSubkey {
    /// # Safety
    /// AltiVec enabled; `s < 24`.
    #[inline(always)]
    unsafe fn start(s: usize, k: &Key, c: &Consts) -> OddSubkey {
        // SAFETY: AltiVec (caller).
        let tc = unsafe { sld8(k.tweak[s % 3], c.counter(s)) };
        OddSubkey {
            tc,
            sum: tc,
            carry: tc,
        }
    }
    /// # Safety
    /// AltiVec enabled.
    #[inline(always)]
    unsafe fn carries(&mut self, s: usize, k: &Key) {
        // SAFETY: AltiVec (caller).
        self.carry = unsafe { carry32(k.window[key_pos::<4>(s + 1)], self.tc) };
    }
    /// # Safety
    /// AltiVec enabled.
    #[inline(always)]
    unsafe fn sum(&mut self, s: usize, k: &Key) {
        // SAFETY: AltiVec (caller).
        self.sum = unsafe { add32(k.window[key_pos::<4>(s + 1)], self.tc) };
    }
    /// # Safety
    /// AltiVec enabled.
    #[inline(always)]
    unsafe fn carry_up(&mut self, c: &Consts) {
        // SAFETY: AltiVec (caller).
        self.carry = unsafe { c.carry_up(self.carry) };
    }
    /// # Safety
    /// AltiVec enabled.
    #[inline(always)]
    unsafe fn finish(&self, c: &Consts) -> V {
        // SAFETY: AltiVec (caller).
        unsafe { msum(self.carry, c.ones, self.sum) }
    }
    /// All steps at once (the first two subkeys of a block).
    ///
    /// # Safety
    /// AltiVec enabled; `s < 24`.
    #[inline(always)]
    unsafe fn now(s: usize, k: &Key, c: &Consts) -> V {
        // SAFETY: AltiVec (caller).
        unsafe {
            let mut o = OddSubkey::start(s, k, c);
            o.carries(s, k);
            o.sum(s, k);
            o.carry_up(c);
            o.finish(c)
        }
    }
}

/// The even words of subkey `s`, (k[s], k[s+2] + t[(s+1) mod 3]): the
/// second is the first odd word of subkey s + 1, `odd_next`.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn even_subkey(s: usize, k: &Key, odd_next: V) -> V {
    // SAFETY: AltiVec (caller). The window before k[s]'s ends with k[s].
    unsafe { sld8(k.window[(key_pos::<4>(s) + 4) % 5], odd_next) }
}

/// Add the subkey (`even`, `odd`): both additions side by side, carries
/// first.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn inject(x: &mut Pair, even: V, odd: V, c: &Consts) {
    // SAFETY: AltiVec (caller).
    unsafe {
        let co = carry32(x.o, odd);
        let ce = carry32(x.e, even);
        let co = c.carry_up(co);
        let so = add32(x.o, odd);
        let ce = c.carry_up(ce);
        let se = add32(x.e, even);
        x.o = add32(so, co);
        x.e = add32(se, ce);
    }
}

/// A round up to its addition's last step: the sum and the moved carry of
/// `e + o`, and `o` rotated (a whole rotation, or the two halves rotated,
/// their swap and the select mask).
struct Half {
    sum: V,
    carry: V,
    rotated: V,
    select: Option<(V, V)>,
}

/// The first half of round `D` (modulo 8): the carry of `e + o` first (it
/// is on the chain), the rotation of `o` beside the addition.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn round_start<const D: usize>(x: &Pair, c: &Consts) -> Half {
    // SAFETY: AltiVec (caller).
    unsafe {
        let (count, _) = const { pair_rot(D) };
        if count[0] == 0 && count[2] == 0 {
            // Both rotations are by 32: swap the halves.
            let carry = c.carry_up(carry32(x.e, x.o));
            let rotated = perm(x.o, x.o, c.half_swap);
            let sum = add32(x.e, x.o);
            Half {
                sum,
                carry,
                rotated,
                select: None,
            }
        } else {
            let (n, m) = (c.count(D), c.mask(D));
            let carry = c.carry_up(carry32(x.e, x.o));
            let y = rotl32(x.o, n);
            let sum = add32(x.e, x.o);
            let swapped = perm(y, y, c.half_swap);
            Half {
                sum,
                carry,
                rotated: y,
                select: Some((swapped, m)),
            }
        }
    }
}

/// The rest of the round: the addition's last step, the rotation's select,
/// the even words swapped and the xor.
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
unsafe fn round_end(x: &mut Pair, h: Half) {
    // SAFETY: AltiVec (caller).
    unsafe {
        let e = add32(h.sum, h.carry);
        let r = match h.select {
            Some((swapped, m)) => select(h.rotated, swapped, m),
            None => h.rotated,
        };
        x.e = sld8(e, e);
        x.o = xor(r, e);
    }
}

/// The subkeys in flight: the odd words of subkeys s and s + 1 and the
/// even words of subkey s.
struct Subkeys {
    odd: V,
    odd_next: V,
    even: V,
}

/// Subkey `S`, then rounds 0-3 (`S` even) or 4-7 (`S` odd) of a group of
/// eight, with the odd words of subkey `S + 2` computed in the gaps of the
/// chain (one or two instructions per round).
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn group<const S: usize>(x: &mut Pair, k: &Key, sk: &mut Subkeys, c: &Consts) {
    // SAFETY: AltiVec (caller).
    unsafe {
        if S.is_multiple_of(2) {
            group_rounds::<S, 0, 1, 2, 3>(x, k, sk, c)
        } else {
            group_rounds::<S, 4, 5, 6, 7>(x, k, sk, c)
        }
    }
}

/// [`group`] with its round numbers.
///
/// # Safety
/// AltiVec enabled.
#[inline(always)]
unsafe fn group_rounds<
    const S: usize,
    const A: usize,
    const B: usize,
    const C: usize,
    const D: usize,
>(
    x: &mut Pair,
    k: &Key,
    sk: &mut Subkeys,
    c: &Consts,
) {
    // SAFETY: AltiVec (caller).
    unsafe {
        inject(x, sk.even, sk.odd, c);
        let mut next = OddSubkey::start(S + 2, k, c);
        let h = round_start::<A>(x, c);
        round_end(x, h);
        let h = round_start::<B>(x, c);
        next.carries(S + 2, k);
        round_end(x, h);
        let h = round_start::<C>(x, c);
        next.sum(S + 2, k);
        round_end(x, h);
        next.carry_up(c);
        let h = round_start::<D>(x, c);
        let odd = next.finish(c);
        round_end(x, h);
        *sk = Subkeys {
            odd: sk.odd_next,
            odd_next: odd,
            even: even_subkey(S + 1, k, odd),
        };
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
    // Words g and 2 + g, each high half then low half, in register order.
    const fn pick(g: usize) -> Simd<u32, 16> {
        lane_pick(phys([
            (8 * g, 0),
            (8 * g, 1),
            (16 + 8 * g, 0),
            (16 + 8 * g, 1),
        ]))
    }
    // SAFETY: caller; `Lanes` is 16-byte aligned.
    unsafe {
        let mut chain = Pair {
            e: vconst(lanes.0[0]),
            o: vconst(lanes.0[1]),
        };
        let c = Consts::new();
        let mut walk = Blocks::new(tweak, blocks, n, 32, bytes_per_block);
        while let Some((block, t0, t1)) = walk.next() {
            prefetch_next(block, 32);
            let (l0, l1) = (load_bytes(block), load_bytes(block.add(16)));
            let m = Pair {
                e: transmute::<Bytes, V>(simd_shuffle(l0, l1, const { pick(0) })),
                o: transmute::<Bytes, V>(simd_shuffle(l0, l1, const { pick(1) })),
            };
            let k = key(&chain, vconst(phys([hi(t0), lo(t0), hi(t1), lo(t1)])), &c);
            let odd = OddSubkey::now(0, &k, &c);
            let odd_next = OddSubkey::now(1, &k, &c);
            let mut sk = Subkeys {
                odd,
                odd_next,
                even: even_subkey(0, &k, odd_next),
            };
            let mut x = m;
            group::<0>(&mut x, &k, &mut sk, &c);
            group::<1>(&mut x, &k, &mut sk, &c);
            group::<2>(&mut x, &k, &mut sk, &c);
            group::<3>(&mut x, &k, &mut sk, &c);
            group::<4>(&mut x, &k, &mut sk, &c);
            group::<5>(&mut x, &k, &mut sk, &c);
            group::<6>(&mut x, &k, &mut sk, &c);
            group::<7>(&mut x, &k, &mut sk, &c);
            group::<8>(&mut x, &k, &mut sk, &c);
            group::<9>(&mut x, &k, &mut sk, &c);
            group::<10>(&mut x, &k, &mut sk, &c);
            group::<11>(&mut x, &k, &mut sk, &c);
            group::<12>(&mut x, &k, &mut sk, &c);
            group::<13>(&mut x, &k, &mut sk, &c);
            group::<14>(&mut x, &k, &mut sk, &c);
            group::<15>(&mut x, &k, &mut sk, &c);
            group::<16>(&mut x, &k, &mut sk, &c);
            group::<17>(&mut x, &k, &mut sk, &c);
            inject(&mut x, sk.even, sk.odd, &c);
            chain = Pair {
                e: xor(x.e, m.e),
                o: xor(x.o, m.o),
            };
            walk.done();
        }
        prefetch_stop();
        lanes.0[0] = transmute::<V, [u32; 4]>(chain.e);
        lanes.0[1] = transmute::<V, [u32; 4]>(chain.o);
        *tweak = walk.tweak();
    }
}
