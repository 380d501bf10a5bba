//! What the AltiVec layouts (`split`, `pair`) and the lanes share: vector
//! types and constants, `vsel`, addresses and offsets hidden from LLVM so
//! that they stay in registers, the rotation-constant tables read by `lvx`
//! (`split`; `pair` has its own), message loads and the `dst` prefetch of
//! the G4.

use core::arch::asm;
#[cfg(target_arch = "powerpc")]
pub(super) use core::arch::powerpc::{vec_addc, vec_rl, vector_unsigned_char, vector_unsigned_int};
#[cfg(target_arch = "powerpc64")]
pub(super) use core::arch::powerpc64::{
    vec_addc, vec_rl, vector_unsigned_char, vector_unsigned_int,
};
use core::mem::transmute;
use core::simd::Simd;

pub(super) type V = vector_unsigned_int;
pub(super) type Bytes = vector_unsigned_char;

/// Vectors as 32-bit lanes in memory, aligned for `lvx`/`stvx`.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(super) struct Lanes(pub(super) [[u32; 4]; 8]);

#[inline(always)]
pub(super) fn vconst(lanes: [u32; 4]) -> V {
    // SAFETY: plain 16-byte values of the same size.
    unsafe { transmute(lanes) }
}

#[inline(always)]
pub(super) const fn idx4(i: [u32; 4]) -> Simd<u32, 4> {
    Simd::from_array(i)
}

#[inline(always)]
pub(super) const fn hi(w: u64) -> u32 {
    (w >> 32) as u32
}
#[inline(always)]
pub(super) const fn lo(w: u64) -> u32 {
    w as u32
}

/// Bit select: bits of `b` where `m` is set, of `a` elsewhere. (Written as
/// `vsel` because LLVM does not form it from and/andc/or on AltiVec.)
#[target_feature(enable = "altivec")]
#[inline]
pub(super) fn vsel(a: V, b: V, m: V) -> V {
    let r: V;
    // SAFETY: reads three vector registers, writes one; nothing else.
    unsafe {
        asm!("vsel {0}, {1}, {2}, {3}", lateout(vreg) r, in(vreg) a, in(vreg) b, in(vreg) m,
             options(pure, nomem, nostack, preserves_flags));
    }
    r
}

/// Rotation counts and select masks of rounds 0..8, one pair per odd
/// register: `0[0][r][d]` the `vrlw` counts, `0[1][r][d]` the `vsel` masks.
#[repr(C, align(16))]
pub(super) struct RotTable(pub(super) [[[[u32; 4]; 8]; 2]; 2]);

/// Where the rotation constants are, with the addresses in GPRs: each use is
/// one `lvx` (a load-store unit instruction) instead of a vector register
/// held for the whole block. Sixteen (Skein-1024: 32) constants do not fit
/// in the 32 vector registers beside the state and the key, and a spilled
/// one costs `li` + `lvx` per use; GPRs are plentiful here.
#[derive(Clone, Copy)]
pub(super) struct RotConsts {
    /// `base[kind][r]`: the counts (kind 0) or masks (kind 1) of register r.
    base: [[*const u8; 2]; 2],
    /// `off[d]`: 16 * d.
    off: [usize; 8],
    /// `counter_base[i]`: entries 8i.. of `COUNTERS`.
    counter_base: [*const u8; 3],
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
    pub(super) unsafe fn new(table: &'static RotTable) -> RotConsts {
        let t = table as *const RotTable as *const [[[u32; 4]; 8]; 2];
        let base = |kind: usize, r: usize| {
            // SAFETY: in bounds of `table`.
            opaque_ptr(unsafe { (*t.add(kind))[r].as_ptr() as *const u8 })
        };
        let counters = COUNTERS.0.as_ptr() as *const u8;
        RotConsts {
            base: [[base(0, 0), base(0, 1)], [base(1, 0), base(1, 1)]],
            // SAFETY: in bounds of `COUNTERS`.
            counter_base: unsafe {
                [
                    opaque_ptr(counters),
                    opaque_ptr(counters.add(128)),
                    opaque_ptr(counters.add(256)),
                ]
            },
            off: opaque_offsets(),
        }
    }

    /// The `vrlw` counts of register `r` in round `d`.
    ///
    /// # Safety
    /// AltiVec enabled.
    #[target_feature(enable = "altivec")]
    #[inline]
    pub(super) unsafe fn count(&self, d: usize, r: usize) -> V {
        // SAFETY: a 16-byte aligned entry of the 'static table.
        unsafe { load_vector(self.base[0][r], self.off[d]) }
    }

    /// (0, 0, 0, s).
    ///
    /// # Safety
    /// AltiVec enabled.
    #[target_feature(enable = "altivec")]
    #[inline]
    pub(super) unsafe fn counter(&self, s: usize) -> V {
        // SAFETY: a 16-byte aligned entry of the 'static table (s < 24).
        unsafe { load_vector(self.counter_base[s / 8], self.off[s % 8]) }
    }

    /// The `vsel` mask of register `r` in round `d`.
    ///
    /// # Safety
    /// AltiVec enabled.
    #[target_feature(enable = "altivec")]
    #[inline]
    pub(super) unsafe fn mask(&self, d: usize, r: usize) -> V {
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
pub(super) unsafe fn load_vector(base: *const u8, off: usize) -> V {
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
pub(super) fn opaque_ptr(mut p: *const u8) -> *const u8 {
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

/// The byte offsets of eight consecutive vectors, 0, 16, ..., 112, each
/// hidden from LLVM ([`opaque_usize`]): the index registers of `lvx` from
/// a constant table, kept in GPRs instead of rebuilt before every load.
#[inline(always)]
pub(super) fn opaque_offsets() -> [usize; 8] {
    // No `array::map`: library functions do not inline into AltiVec code.
    [
        opaque_usize(0),
        opaque_usize(16),
        opaque_usize(32),
        opaque_usize(48),
        opaque_usize(64),
        opaque_usize(80),
        opaque_usize(96),
        opaque_usize(112),
    ]
}

/// Sixteen message bytes at `p` (any alignment).
///
/// # Safety
/// `p..p+16` readable; AltiVec enabled.
#[inline(always)]
pub(super) unsafe fn load_bytes(p: *const u8) -> Bytes {
    // SAFETY: caller; `[u8; 16]` has alignment 1, LLVM emits lvx/lvsl/vperm.
    unsafe { transmute(*(p as *const [u8; 16])) }
}

/// Byte index of the high (`half == 0`) or low (`half == 1`) 32-bit lane
/// value of the little-endian word at byte `offset` of a 32-byte pair of
/// loads, as four shuffle indices.
pub(super) const fn half_bytes(offset: usize, half: usize) -> [usize; 4] {
    let base = if half == 0 { offset + 4 } else { offset };
    if cfg!(target_endian = "big") {
        [base + 3, base + 2, base + 1, base]
    } else {
        [base, base + 1, base + 2, base + 3]
    }
}

/// The byte shuffle of a 32-byte pair of loads that puts the 32-bit lane
/// values `[word byte offset, half]` (as [`half_bytes`]) in lanes 0..4, in
/// order: the message loads of both layouts.
pub(super) const fn lane_pick(lanes: [(usize, usize); 4]) -> Simd<u32, 16> {
    let mut i = [0u32; 16];
    let mut lane = 0;
    while lane < 4 {
        let bytes = half_bytes(lanes[lane].0, lanes[lane].1);
        let mut n = 0;
        while n < 4 {
            i[4 * lane + n] = bytes[n] as u32;
            n += 1;
        }
        lane += 1;
    }
    Simd::from_array(i)
}

/// Start prefetching the `block`-byte blocks after `p` (the next two) into
/// the data cache: one `dst` data stream, re-aimed every block as the
/// original AltiVec Skein does. On the G4 (32-bit) only: a `dst` is a hint
/// that raises no exception for any address, and POWER processors of the
/// 64-bit targets ignore it.
#[inline(always)]
pub(super) fn prefetch_next(p: *const u8, block: usize) {
    prefetch_stream::<0>(p, block);
}

/// [`prefetch_next`] on data stream `S` (0..=3).
#[inline(always)]
pub(super) fn prefetch_stream<const S: u32>(p: *const u8, block: usize) {
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
pub(super) fn prefetch_stop() {
    #[cfg(target_arch = "powerpc")]
    // SAFETY: stops data stream 0; no other effect.
    unsafe {
        asm!("dss 0", options(nomem, nostack, preserves_flags));
    }
}
