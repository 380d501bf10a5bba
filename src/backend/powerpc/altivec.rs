//! AltiVec/VMX backend (PowerPC G4/G5, POWER6 and later; 32- and 64-bit,
//! either byte order). Chosen automatically on 32-bit PowerPC only: 64-bit
//! scalar code beats the emulated 64-bit lanes (see `backend::preference`).
//!
//! AltiVec has no 64-bit lanes, so each Threefish word is two 32-bit lanes
//! and additions carry by hand (`vaddcuw`). As in the published AltiVec
//! Skein, even words (the MIX addition targets) and odd words (rotated and
//! xored) live in separate registers, lined up so that one vector operation
//! does several MIXes and only the odd words move between rounds. Two
//! arrangements of the 32-bit halves are used, each where it needs the fewest
//! instructions (counted under QEMU, see tools/bench/ppc-insn-table.sh):
//!
//! * `pair` (Skein-256): a register holds two whole words, high half first,
//!   e.g. words (0, 2) and (1, 3). A 64-bit addition is add, carry-out, move
//!   carries to the high lanes, add (4 instructions for 2 words).
//! * `split` (Skein-512 and -1024): one register holds the high halves of
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
//!   Skein-256 (counter from a table by one shuffle) and Skein-512 (added
//!   into per-block key tables, see `FoldedKey`); Skein-1024 adds all three
//!   tweaked words with one 64-bit addition after gathering them (`vperm`).
//! * Rotation constants are loaded (`lvx`, addresses kept in GPRs) at each
//!   use instead of occupying vector registers: held in registers they
//!   forced spills and `vmr` copies (Skein-256 keeps its 8 masks resident).
//! * Byte-multiple rotations by `vperm` alone would need all four lanes of a
//!   register to rotate by multiples of 8 in the same round; that never
//!   happens in Skein-512 or -1024, and in Skein-256 only for the rotations
//!   by 32 (done as a half swap).
//!
//! The multi-lane kernel (`compress_lanes`, at the end) keeps each word of
//! four computations as a register of high halves and one of low halves.
//! Model cycle figures for the G4 are in docs/powerpc.md.
//!
//! LLVM only inlines functions with exactly the caller's target features on
//! PowerPC, so the code below calls no ordinary library function: helpers are
//! `#[inline(always)]` or carry the same `#[target_feature]`, and the only
//! operations are SIMD intrinsics, operators and raw pointers.

use core::arch::asm;
#[cfg(target_arch = "powerpc")]
use core::arch::powerpc::{vec_addc, vec_rl, vector_unsigned_char, vector_unsigned_int};
#[cfg(target_arch = "powerpc64")]
use core::arch::powerpc64::{vec_addc, vec_rl, vector_unsigned_char, vector_unsigned_int};
use core::intrinsics::simd::{simd_add, simd_shuffle, simd_xor};
use core::mem::transmute;
use core::simd::Simd;

use crate::backend::layout::{key_pos, lane_rot, odd_source};
use crate::spec::{rot, C240, T1_FIRST};

/// Proof that this CPU has AltiVec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token(());

impl Token {
    pub(crate) fn detect() -> Option<Token> {
        if altivec_detected() {
            Some(Token(()))
        } else {
            None
        }
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

pub(crate) fn compress_256(
    _: Token,
    chain: &mut [u64; 4],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    let mut lanes = pair_from_words(chain);
    // SAFETY: the token proves AltiVec; `blocks` holds `len / 32` whole blocks.
    unsafe {
        pair_blocks_256(
            &mut lanes,
            tweak,
            blocks.as_ptr(),
            blocks.len() / 32,
            bytes_per_block,
        )
    };
    *chain = pair_to_words(&lanes);
}

pub(crate) fn compress_512(
    _: Token,
    chain: &mut [u64; 8],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    let mut lanes = split_from_words(chain);
    // SAFETY: the token proves AltiVec; `blocks` holds `len / 64` whole blocks.
    unsafe {
        split_blocks_512(
            &mut lanes,
            tweak,
            blocks.as_ptr(),
            blocks.len() / 64,
            bytes_per_block,
        )
    };
    *chain = split_to_words(&lanes);
}

pub(crate) fn compress_1024(
    _: Token,
    chain: &mut [u64; 16],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    let mut lanes = split_from_words(chain);
    // SAFETY: the token proves AltiVec; `blocks` holds `len / 128` whole blocks.
    unsafe {
        split_blocks_1024(
            &mut lanes,
            tweak,
            blocks.as_ptr(),
            blocks.len() / 128,
            bytes_per_block,
        )
    };
    *chain = split_to_words(&lanes);
}

type V = vector_unsigned_int;
type Bytes = vector_unsigned_char;

/// Vectors as 32-bit lanes in memory, aligned for `lvx`/`stvx`.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Lanes([[u32; 4]; 8]);

#[inline(always)]
fn vconst(lanes: [u32; 4]) -> V {
    // SAFETY: plain 16-byte values of the same size.
    unsafe { transmute(lanes) }
}

#[inline(always)]
const fn idx4(i: [u32; 4]) -> Simd<u32, 4> {
    Simd::from_array(i)
}

#[inline(always)]
const fn hi(w: u64) -> u32 {
    (w >> 32) as u32
}
#[inline(always)]
const fn lo(w: u64) -> u32 {
    w as u32
}

/// Bit select: bits of `b` where `m` is set, of `a` elsewhere. (Written as
/// `vsel` because LLVM does not form it from and/andc/or on AltiVec.)
#[target_feature(enable = "altivec")]
#[inline]
fn vsel(a: V, b: V, m: V) -> V {
    let r: V;
    // SAFETY: reads three vector registers, writes one; nothing else.
    unsafe {
        asm!("vsel {0}, {1}, {2}, {3}", lateout(vreg) r, in(vreg) a, in(vreg) b, in(vreg) m,
             options(pure, nomem, nostack, preserves_flags));
    }
    r
}

/// `v`, hidden from LLVM: a constant passed through here is kept in a
/// register (or spilled once) instead of being reloaded from the constant
/// pool at every use.
#[target_feature(enable = "altivec")]
#[inline]
fn opaque(mut v: V) -> V {
    // SAFETY: an empty instruction sequence; `v` stays in its register.
    unsafe { asm!("/* {0} */", inout(vreg) v, options(pure, nomem, nostack, preserves_flags)) };
    v
}

/// Rotation counts and select masks of rounds 0..8, one pair per odd
/// register: `0[0][r][d]` the `vrlw` counts, `0[1][r][d]` the `vsel` masks.
#[repr(C, align(16))]
struct RotTable([[[[u32; 4]; 8]; 2]; 2]);

/// Where the rotation constants are, with the addresses in GPRs: each use is
/// one `lvx` (a load-store unit instruction) instead of a vector register
/// held for the whole block. Sixteen (Skein-1024: 32) constants do not fit
/// in the 32 vector registers beside the state and the key, and a spilled
/// one costs `li` + `lvx` per use; GPRs are plentiful here.
#[derive(Clone, Copy)]
struct RotConsts {
    /// `base[kind][r]`: the counts (kind 0) or masks (kind 1) of register r.
    base: [[*const u8; 2]; 2],
    /// `off[d]`: 16 * d.
    off: [usize; 8],
    /// `counter_base[i]`: entries 8i.. of `COUNTERS`.
    counter_base: [*const u8; 3],
    /// Pair layout only: the masks of rounds 0..8 in vector registers (the
    /// Skein-256 block has registers to spare; one `lvx` per round less).
    resident_mask: [V; 8],
}

/// (0, 0, 0, s) for subkey counters s = 0..24: the low half of a 64-bit
/// word s in the last lane.
#[repr(C, align(16))]
struct CounterTable([[u32; 4]; 24]);

const fn counter_table() -> CounterTable {
    let mut t = CounterTable([[0; 4]; 24]);
    let mut s = 0;
    while s < 24 {
        t.0[s][3] = s as u32;
        s += 1;
    }
    t
}

static COUNTERS: CounterTable = counter_table();

impl RotConsts {
    /// # Safety
    /// `table` outlives every use of the result.
    #[inline(always)]
    unsafe fn new(table: &'static RotTable) -> RotConsts {
        let t = table as *const RotTable as *const [[[u32; 4]; 8]; 2];
        let base = |kind: usize, r: usize| {
            // SAFETY: in bounds of `table`.
            opaque_ptr(unsafe { (*t.add(kind))[r].as_ptr() as *const u8 })
        };
        let counters = COUNTERS.0.as_ptr() as *const u8;
        let zero = vconst([0; 4]);
        RotConsts {
            resident_mask: [zero; 8],
            base: [[base(0, 0), base(0, 1)], [base(1, 0), base(1, 1)]],
            // SAFETY: in bounds of `COUNTERS`.
            counter_base: unsafe {
                [
                    opaque_ptr(counters),
                    opaque_ptr(counters.add(128)),
                    opaque_ptr(counters.add(256)),
                ]
            },
            off: [
                opaque_usize(0),
                opaque_usize(16),
                opaque_usize(32),
                opaque_usize(48),
                opaque_usize(64),
                opaque_usize(80),
                opaque_usize(96),
                opaque_usize(112),
            ],
        }
    }

    /// The `vrlw` counts of register `r` in round `d`.
    ///
    /// # Safety
    /// AltiVec enabled.
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn count(&self, d: usize, r: usize) -> V {
        // SAFETY: a 16-byte aligned entry of the 'static table.
        unsafe { load_vector(self.base[0][r], self.off[d]) }
    }

    /// (0, 0, 0, s).
    ///
    /// # Safety
    /// AltiVec enabled.
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn counter(&self, s: usize) -> V {
        // SAFETY: a 16-byte aligned entry of the 'static table (s < 24).
        unsafe { load_vector(self.counter_base[s / 8], self.off[s % 8]) }
    }

    /// The `vsel` mask of register `r` in round `d`.
    ///
    /// # Safety
    /// AltiVec enabled.
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn mask(&self, d: usize, r: usize) -> V {
        // SAFETY: a 16-byte aligned entry of the 'static table.
        unsafe { load_vector(self.base[1][r], self.off[d]) }
    }
}

/// `lvx` from `base + off`, kept where it is written (not hoisted, merged or
/// turned into a vector register held across the block).
///
/// # Safety
/// `base + off` is 16-byte aligned and readable.
#[target_feature(enable = "altivec")]
#[inline]
unsafe fn load_vector(base: *const u8, off: usize) -> V {
    let v: V;
    // SAFETY: caller; reads 16 bytes, writes one vector register.
    unsafe {
        asm!("lvx {0}, {1}, {2}", out(vreg) v, in(reg_nonzero) base, in(reg) off,
             options(nostack, readonly, preserves_flags));
    }
    v
}

/// `p`, hidden from LLVM so that it stays in a GPR.
#[inline(always)]
#[allow(clippy::pointers_in_nomem_asm_block)] // the asm is empty: nothing is dereferenced
fn opaque_ptr(mut p: *const u8) -> *const u8 {
    // SAFETY: an empty instruction sequence.
    unsafe { asm!("/* {0} */", inout(reg) p, options(pure, nomem, nostack, preserves_flags)) };
    p
}

/// `n`, hidden from LLVM so that it stays in a GPR.
#[inline(always)]
fn opaque_usize(mut n: usize) -> usize {
    // SAFETY: an empty instruction sequence.
    unsafe { asm!("/* {0} */", inout(reg) n, options(pure, nomem, nostack, preserves_flags)) };
    n
}

/// Sixteen message bytes at `p` (any alignment).
///
/// # Safety
/// `p..p+16` readable; AltiVec enabled.
#[inline(always)]
unsafe fn load_bytes(p: *const u8) -> Bytes {
    // SAFETY: caller; `[u8; 16]` has alignment 1, LLVM emits lvx/lvsl/vperm.
    unsafe { transmute(*(p as *const [u8; 16])) }
}

/// Byte index of the high (`half == 0`) or low (`half == 1`) 32-bit lane
/// value of the little-endian word at byte `offset` of a 32-byte pair of
/// loads, as four shuffle indices.
const fn half_bytes(offset: usize, half: usize) -> [usize; 4] {
    let base = if half == 0 { offset + 4 } else { offset };
    if cfg!(target_endian = "big") {
        [base + 3, base + 2, base + 1, base]
    } else {
        [base, base + 1, base + 2, base + 3]
    }
}

/// Start prefetching the `block`-byte blocks after `p` (the next two) into
/// the data cache: one `dst` data stream, re-aimed every block as the
/// original AltiVec Skein does. On the G4 (32-bit) only: a `dst` is a hint
/// that raises no exception for any address, and POWER processors of the
/// 64-bit targets ignore it.
#[inline(always)]
fn prefetch_next(p: *const u8, block: usize) {
    prefetch_stream::<0>(p, block);
}

/// [`prefetch_next`] on data stream `S` (0..=3).
#[inline(always)]
fn prefetch_stream<const S: u32>(p: *const u8, block: usize) {
    #[cfg(target_arch = "powerpc")]
    {
        // Control word: block size in 16-byte vectors, block count, stride.
        let control = ((block as u32 / 16) << 24) | (2 << 16) | block as u32;
        let next = p.wrapping_add(block);
        // SAFETY: a stream touch only hints the cache (at most reads
        // memory); it writes no register and never faults.
        unsafe {
            asm!("dst {0}, {1}, {2}", in(reg_nonzero) next, in(reg) control, const S,
                 options(readonly, nostack, preserves_flags));
        }
    }
    #[cfg(not(target_arch = "powerpc"))]
    let _ = (p, block);
}

/// Stop the stream of [`prefetch_next`].
#[inline(always)]
fn prefetch_stop() {
    #[cfg(target_arch = "powerpc")]
    // SAFETY: stops data stream 0; no other effect.
    unsafe {
        asm!("dss 0", options(nomem, nostack, preserves_flags));
    }
}

/// Advance the 128-bit position in `t0`, `t1` by one block.
#[inline(always)]
fn advance(t0: &mut u64, t1: &mut u64, bytes_per_block: u64) {
    *t0 = t0.wrapping_add(bytes_per_block);
    if *t0 < bytes_per_block {
        *t1 = t1.wrapping_add(1);
    }
}

// ---------------------------------------------------------------------------
// `split`: high and low halves in separate registers, four words each.
// ---------------------------------------------------------------------------

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
fn split_from_words<const W: usize>(w: &[u64; W]) -> Lanes {
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

fn split_to_words<const W: usize>(l: &Lanes) -> [u64; W] {
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

/// Key words of one block in key-position order (see [`layout::key_pos`]),
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
        let a = 8 * g;
        let b = 16 + 8 * g;
        let (ah, bh, al, bl) = (
            half_bytes(a, 0),
            half_bytes(b, 0),
            half_bytes(a, 1),
            half_bytes(b, 1),
        );
        let mut i = [0u32; 16];
        let mut n = 0;
        while n < 4 {
            i[n] = ah[n] as u32;
            i[4 + n] = bh[n] as u32;
            i[8 + n] = al[n] as u32;
            i[12 + n] = bl[n] as u32;
            n += 1;
        }
        Simd::from_array(i)
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
/// `blocks` points to `n` blocks of `8 * W` bytes; AltiVec enabled.
#[inline(always)]
unsafe fn split_blocks<const W: usize>(
    lanes: &mut Lanes,
    tweak: &mut [u64; 2],
    mut blocks: *const u8,
    mut n: usize,
    bytes_per_block: u64,
) {
    // SAFETY: caller; `Lanes` is 16-byte aligned.
    unsafe {
        let l = transmute::<Lanes, [V; 8]>(*lanes);
        let mut chain = Split {
            eh: [l[0], l[1]],
            el: [l[2], l[3]],
            oh: [l[4], l[5]],
            ol: [l[6], l[7]],
        };
        let (mut t0, mut t1) = (tweak[0], tweak[1]);
        let rc = RotConsts::new(if W == 8 { &SPLIT_512 } else { &SPLIT_1024 });
        while n != 0 {
            prefetch_next(blocks, 8 * W);
            advance(&mut t0, &mut t1, bytes_per_block);
            let m = split_load::<W>(blocks);
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
            t1 &= !T1_FIRST;
            blocks = blocks.add(8 * W);
            n -= 1;
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
        *tweak = [t0, t1];
    }
}

#[target_feature(enable = "altivec")]
unsafe fn split_blocks_512(
    lanes: &mut Lanes,
    tweak: &mut [u64; 2],
    blocks: *const u8,
    n: usize,
    bytes_per_block: u64,
) {
    // SAFETY: forwarded from the caller; AltiVec is enabled here.
    unsafe { split_blocks::<8>(lanes, tweak, blocks, n, bytes_per_block) }
}

#[target_feature(enable = "altivec")]
unsafe fn split_blocks_1024(
    lanes: &mut Lanes,
    tweak: &mut [u64; 2],
    blocks: *const u8,
    n: usize,
    bytes_per_block: u64,
) {
    // SAFETY: forwarded from the caller; AltiVec is enabled here.
    unsafe { split_blocks::<16>(lanes, tweak, blocks, n, bytes_per_block) }
}

// ---------------------------------------------------------------------------
// `pair`: two whole words per register, high half first.
// ---------------------------------------------------------------------------

/// Threefish-256 state: even words (0, 2) and odd words in odd-lane order.
#[derive(Clone, Copy)]
struct Pair {
    e: V,
    o: V,
}

fn pair_from_words(w: &[u64; 4]) -> Lanes {
    let mut l = Lanes([[0; 4]; 8]);
    l.0[0] = [hi(w[0]), lo(w[0]), hi(w[2]), lo(w[2])];
    l.0[1] = [hi(w[1]), lo(w[1]), hi(w[3]), lo(w[3])];
    l
}

fn pair_to_words(l: &Lanes) -> [u64; 4] {
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
unsafe fn pair_blocks_256(
    lanes: &mut Lanes,
    tweak: &mut [u64; 2],
    mut blocks: *const u8,
    mut n: usize,
    bytes_per_block: u64,
) {
    const fn pick(g: usize) -> Simd<u32, 16> {
        let (ah, al) = (half_bytes(8 * g, 0), half_bytes(8 * g, 1));
        let (bh, bl) = (half_bytes(16 + 8 * g, 0), half_bytes(16 + 8 * g, 1));
        let mut i = [0u32; 16];
        let mut n = 0;
        while n < 4 {
            i[n] = ah[n] as u32;
            i[4 + n] = al[n] as u32;
            i[8 + n] = bh[n] as u32;
            i[12 + n] = bl[n] as u32;
            n += 1;
        }
        Simd::from_array(i)
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
        let (mut t0, mut t1) = (tweak[0], tweak[1]);
        while n != 0 {
            prefetch_next(blocks, 32);
            advance(&mut t0, &mut t1, bytes_per_block);
            let (l0, l1) = (load_bytes(blocks), load_bytes(blocks.add(16)));
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
            t1 &= !T1_FIRST;
            blocks = blocks.add(32);
            n -= 1;
        }
        prefetch_stop();
        lanes.0[0] = transmute::<V, [u32; 4]>(chain.e);
        lanes.0[1] = transmute::<V, [u32; 4]>(chain.o);
        *tweak = [t0, t1];
    }
}

// ---------------------------------------------------------------------------
// Multi-lane kernel: four computations, each 64-bit word as two 32-bit halves.
// ---------------------------------------------------------------------------

pub(crate) use lanes::LANES;

/// The multi-lane block function (seam in `backend::lanes`): the four-lane
/// kernel for Skein-256; for Skein-512 and -1024 the single-stream block
/// function on each lane in turn. The single stream's split layout already
/// fills every 32-bit lane at those sizes and folds the tweak into its key
/// tables, so four lanes do not beat it (MPC7450 model: Skein-512 17.9
/// against 17.3 c/B), and at Skein-1024 16 rows of two registers are all 32
/// vector registers: the four-lane kernel spills (52.7 against 18.9 c/B).
/// See docs/powerpc.md.
///
/// # Panics
/// If the `blocks` are not all the same whole number of blocks long.
pub(crate) fn compress_lanes<const W: usize>(
    token: Token,
    state: &mut crate::backend::lanes::LaneState<W, LANES>,
    blocks: [&[u8]; LANES],
    bytes_per_block: [u64; LANES],
) {
    if W == 4 {
        return lanes::compress_lanes::<W>(token, state, blocks, bytes_per_block);
    }
    let total = blocks[0].len();
    assert!(
        total.is_multiple_of(8 * W) && blocks.iter().all(|b| b.len() == total),
        "lanes: unequal blocks"
    );
    let mut words = [0u64; W];
    for (lane, (block, step)) in blocks.iter().zip(bytes_per_block).enumerate() {
        for (j, w) in words.iter_mut().enumerate() {
            *w = state.chain[j][lane];
        }
        let mut tweak = [state.tweak[0][lane], state.tweak[1][lane]];
        if let Ok(chain) = <&mut [u64; 8]>::try_from(&mut words[..]) {
            compress_512(token, chain, &mut tweak, block, step);
        } else if let Ok(chain) = <&mut [u64; 16]>::try_from(&mut words[..]) {
            compress_1024(token, chain, &mut tweak, block, step);
        }
        state.load(lane, &words, tweak);
    }
    zeroize::Zeroize::zeroize(&mut words);
}

/// The multi-lane kernel (`lane_kernel!`, seam in `backend::lanes`): a row
/// is word `j` of four computations as two registers, the high halves and
/// the low halves, so that a 64-bit addition is `vaddcuw` and three
/// `vadduwm` with no lane moves, a rotation is two `vrlw` and two `vsel`
/// (the halves trade places for counts of 32 and more, which costs nothing),
/// and the word permutation is a renaming of rows. Four lanes, twice the
/// 32-bit lanes of a register, so that each instruction does a whole row.
mod lanes {
    use super::{
        half_bytes, hi, idx4, lo, load_bytes, prefetch_stream, vconst, vec_addc, vec_rl, vsel,
        Bytes,
    };
    use super::{Token, V};
    use crate::backend::lane_kernel::lane_kernel;
    use core::intrinsics::simd::{simd_add, simd_and, simd_shl, simd_shuffle, simd_xor};
    use core::mem::transmute;
    use core::simd::Simd;

    /// Word `j` of four computations: high halves in `h`, low halves in `l`.
    #[derive(Clone, Copy)]
    pub(crate) struct Row {
        h: V,
        l: V,
    }

    /// Where the high and the low half of each of four native-endian `u64`
    /// (two registers of `u32` lanes) are.
    const ROW_HI: Simd<u32, 4> = if cfg!(target_endian = "big") {
        idx4([0, 2, 4, 6])
    } else {
        idx4([1, 3, 5, 7])
    };
    const ROW_LO: Simd<u32, 4> = if cfg!(target_endian = "big") {
        idx4([1, 3, 5, 7])
    } else {
        idx4([0, 2, 4, 6])
    };
    /// The inverse: native-endian `u64` 0, 1 and 2, 3 from `h` and `l`.
    const WORDS_01: Simd<u32, 4> = if cfg!(target_endian = "big") {
        idx4([0, 4, 1, 5])
    } else {
        idx4([4, 0, 5, 1])
    };
    const WORDS_23: Simd<u32, 4> = if cfg!(target_endian = "big") {
        idx4([2, 6, 3, 7])
    } else {
        idx4([6, 2, 7, 3])
    };

    #[target_feature(enable = "altivec")]
    #[inline]
    fn splat(v: u64) -> Row {
        Row {
            h: vconst([hi(v); 4]),
            l: vconst([lo(v); 4]),
        }
    }

    #[target_feature(enable = "altivec")]
    #[inline]
    fn add(a: Row, b: Row) -> Row {
        // SAFETY: lane-wise adds and carries; AltiVec is enabled.
        unsafe {
            Row {
                h: simd_add(simd_add(a.h, b.h), vec_addc(a.l, b.l)),
                l: simd_add(a.l, b.l),
            }
        }
    }

    #[target_feature(enable = "altivec")]
    #[inline]
    fn xor(a: Row, b: Row) -> Row {
        // SAFETY: lane-wise xors.
        unsafe {
            Row {
                h: simd_xor(a.h, b.h),
                l: simd_xor(a.l, b.l),
            }
        }
    }

    #[target_feature(enable = "altivec")]
    #[inline]
    fn and(a: Row, b: Row) -> Row {
        // SAFETY: lane-wise ands.
        unsafe {
            Row {
                h: simd_and(a.h, b.h),
                l: simd_and(a.l, b.l),
            }
        }
    }

    /// Rotate the four words left by `r`: both halves rotated by `r % 32`
    /// (`vrlw` reads the low five bits of each count), then each result half
    /// keeps its bits above `r % 32` and takes the low ones from the other
    /// rotated half; the halves trade places when `r >= 32`. Branch-free, so
    /// that the kernel's loop over a round's MIXes is small enough for LLVM
    /// to unroll, after which every count and mask is a constant.
    #[target_feature(enable = "altivec")]
    #[inline]
    fn rol(a: Row, r: u32) -> Row {
        let swap = r >= 32;
        let (h, l) = (if swap { a.l } else { a.h }, if swap { a.h } else { a.l });
        let count = vconst([r % 32; 4]);
        // SAFETY: lane-wise rotations and shifts by counts below 32; AltiVec
        // is enabled.
        let (rh, rl, high) = unsafe {
            (
                vec_rl(h, count),
                vec_rl(l, count),
                simd_shl(vconst([u32::MAX; 4]), count),
            )
        };
        Row {
            h: vsel(rl, rh, high),
            l: vsel(rh, rl, high),
        }
    }

    /// Tweak words plus `step`: the carry out of word 0 adds one to word 1.
    #[target_feature(enable = "altivec")]
    #[inline]
    fn advance(t0: Row, t1: Row, step: Row) -> (Row, Row) {
        // SAFETY: lane-wise adds and carries; AltiVec is enabled.
        unsafe {
            let carry_lo = vec_addc(t0.l, step.l);
            let h = simd_add(t0.h, step.h);
            let carry: V = simd_add(vec_addc(t0.h, step.h), vec_addc(h, carry_lo));
            let sum = Row {
                h: simd_add(h, carry_lo),
                l: simd_add(t0.l, step.l),
            };
            let zero = vconst([0; 4]);
            (sum, add(t1, Row { h: zero, l: carry }))
        }
    }

    #[target_feature(enable = "altivec")]
    #[inline]
    fn load_row(row: &[u64; 4]) -> Row {
        // SAFETY: four u64 are the 32 bytes of two vectors.
        let v: [V; 2] = unsafe { transmute(*row) };
        // SAFETY: lane shuffles.
        unsafe {
            Row {
                h: simd_shuffle(v[0], v[1], ROW_HI),
                l: simd_shuffle(v[0], v[1], ROW_LO),
            }
        }
    }

    #[target_feature(enable = "altivec")]
    #[inline]
    fn store_row(row: &mut [u64; 4], v: Row) {
        // SAFETY: lane shuffles; two vectors are the 32 bytes of four u64.
        unsafe {
            let w: [V; 2] = [
                simd_shuffle(v.h, v.l, WORDS_01),
                simd_shuffle(v.h, v.l, WORDS_23),
            ];
            *row = transmute::<[V; 2], [u64; 4]>(w);
        }
    }

    /// Byte shuffle of 16 bytes of lane a and of lane b giving (high half of
    /// the word at byte `offset` of a, of b, low half of a, of b).
    const fn halves_of_two(offset: usize) -> Simd<u32, 16> {
        let (h, l) = (half_bytes(offset, 0), half_bytes(offset, 1));
        let mut i = [0u32; 16];
        let mut n = 0;
        while n < 4 {
            i[n] = h[n] as u32;
            i[4 + n] = 16 + h[n] as u32;
            i[8 + n] = l[n] as u32;
            i[12 + n] = 16 + l[n] as u32;
            n += 1;
        }
        Simd::from_array(i)
    }

    /// The row from (high halves of lanes 0, 1, low halves of lanes 0, 1) and
    /// the same of lanes 2, 3.
    #[target_feature(enable = "altivec")]
    #[inline]
    fn gather(p01: Bytes, p23: Bytes) -> Row {
        // SAFETY: 16-byte values of the same size; lane shuffles.
        unsafe {
            let (p01, p23) = (transmute::<Bytes, V>(p01), transmute::<Bytes, V>(p23));
            Row {
                h: simd_shuffle(p01, p23, const { idx4([0, 1, 4, 5]) }),
                l: simd_shuffle(p01, p23, const { idx4([2, 3, 6, 7]) }),
            }
        }
    }

    /// Message rows of the block at byte `offset` of the four lanes: 16 bytes
    /// (two words) of each lane, their halves gathered for two lanes at a
    /// time, then the two pairs of lanes joined.
    ///
    /// # Safety
    /// Every `blocks[i]` must hold at least `offset + 8 * W` bytes.
    #[target_feature(enable = "altivec")]
    #[inline]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 4], offset: usize) -> [Row; W] {
        // The streams end by themselves after two blocks.
        prefetch_stream::<0>(blocks[0].as_ptr().wrapping_add(offset), 8 * W);
        prefetch_stream::<1>(blocks[1].as_ptr().wrapping_add(offset), 8 * W);
        prefetch_stream::<2>(blocks[2].as_ptr().wrapping_add(offset), 8 * W);
        prefetch_stream::<3>(blocks[3].as_ptr().wrapping_add(offset), 8 * W);
        let mut m = [splat(0); W];
        // `while`, not `for`: a library iterator would not inline here.
        let mut pair = 0;
        while pair < W / 2 {
            // SAFETY: 16 readable bytes at `offset + 16 * pair` of each lane,
            // since 16 * (pair + 1) <= 8 * W; the rest are shuffles.
            unsafe {
                let at = offset + 16 * pair;
                let a: [Bytes; 4] = [
                    load_bytes(blocks[0].as_ptr().add(at)),
                    load_bytes(blocks[1].as_ptr().add(at)),
                    load_bytes(blocks[2].as_ptr().add(at)),
                    load_bytes(blocks[3].as_ptr().add(at)),
                ];
                m[2 * pair] = gather(
                    simd_shuffle(a[0], a[1], const { halves_of_two(0) }),
                    simd_shuffle(a[2], a[3], const { halves_of_two(0) }),
                );
                m[2 * pair + 1] = gather(
                    simd_shuffle(a[0], a[1], const { halves_of_two(8) }),
                    simd_shuffle(a[2], a[3], const { halves_of_two(8) }),
                );
            }
            pair += 1;
        }
        m
    }

    lane_kernel!("altivec", Row, 4);
}
