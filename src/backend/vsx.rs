//! VSX backend for POWER8 and later (64-bit PowerPC, either byte order).
//!
//! POWER8 added 64-bit vector lanes (`vaddudm`, `vrld`), so a register holds
//! two whole Threefish words and each MIX is three instructions for two
//! words. The layout is the AltiVec backend's word-pair layout: even words
//! (0, 2), (4, 6), ... stay in place, the odd words in the same lanes are
//! their MIX partners of the current round and are moved between rounds
//! (`xxpermdi`), and subkeys are two-word windows of the key words in the
//! order 0, 2, 4, ..., 1, 3, ... (see `altivec::layout`).
//!
//! `core::arch::powerpc64` offers no 64-bit vector addition, so the code uses
//! the generic SIMD intrinsics (`simd_add`, `simd_funnel_shl`, ...), which
//! LLVM lowers to the POWER8 instructions inside `power8-vector` functions.
//! LLVM only inlines functions with exactly the caller's target features on
//! PowerPC, so everything here is an intrinsic, an operator or an
//! `#[inline(always)]` helper.

#[cfg(target_arch = "powerpc64")]
pub(crate) use imp::*;

/// Proof that this CPU has POWER8 vector instructions (never on 32-bit
/// PowerPC: QEMU, the test platform, has no 32-bit POWER8 model).
#[cfg(target_arch = "powerpc")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token {}

#[cfg(target_arch = "powerpc")]
impl Token {
    pub(crate) fn detect() -> Option<Token> {
        None
    }
}

#[cfg(target_arch = "powerpc")]
pub(crate) fn compress_256(t: Token, _: &mut [u64; 4], _: &mut [u64; 2], _: &[u8], _: u64) {
    match t {}
}
#[cfg(target_arch = "powerpc")]
pub(crate) fn compress_512(t: Token, _: &mut [u64; 8], _: &mut [u64; 2], _: &[u8], _: u64) {
    match t {}
}
#[cfg(target_arch = "powerpc")]
pub(crate) fn compress_1024(t: Token, _: &mut [u64; 16], _: &mut [u64; 2], _: &[u8], _: u64) {
    match t {}
}

#[cfg(target_arch = "powerpc64")]
mod imp {
    use core::arch::powerpc64::vector_unsigned_long;
    use core::intrinsics::simd::{simd_add, simd_funnel_shl, simd_shuffle, simd_xor};
    use core::mem::transmute;
    use core::simd::Simd;

    use crate::backend::altivec::layout::{key_pos, lane_rot, odd_source};
    use crate::consts::{C240, T1_FIRST};

    /// Proof that this CPU has POWER8 vector instructions.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) struct Token(());

    impl Token {
        pub(crate) fn detect() -> Option<Token> {
            if power8_vector_detected() {
                Some(Token(()))
            } else {
                None
            }
        }
    }

    #[cfg(feature = "std")]
    fn power8_vector_detected() -> bool {
        std::arch::is_powerpc64_feature_detected!("power8-vector")
    }
    #[cfg(not(feature = "std"))]
    fn power8_vector_detected() -> bool {
        cfg!(target_feature = "power8-vector")
    }

    pub(crate) fn compress_256(_: Token, chain: &mut [u64; 4], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
        let mut words = Words::from_chain(chain);
        // SAFETY: the token proves POWER8 vectors; `blocks` holds `len / 32` whole blocks.
        unsafe { blocks_256(&mut words, tweak, blocks.as_ptr(), blocks.len() / 32, bytes_per_block) };
        *chain = words.to_chain();
    }

    pub(crate) fn compress_512(_: Token, chain: &mut [u64; 8], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
        let mut words = Words::from_chain(chain);
        // SAFETY: the token proves POWER8 vectors; `blocks` holds `len / 64` whole blocks.
        unsafe { blocks_512(&mut words, tweak, blocks.as_ptr(), blocks.len() / 64, bytes_per_block) };
        *chain = words.to_chain();
    }

    pub(crate) fn compress_1024(_: Token, chain: &mut [u64; 16], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
        let mut words = Words::from_chain(chain);
        // SAFETY: the token proves POWER8 vectors; `blocks` holds `len / 128` whole blocks.
        unsafe { blocks_1024(&mut words, tweak, blocks.as_ptr(), blocks.len() / 128, bytes_per_block) };
        *chain = words.to_chain();
    }

    type D = vector_unsigned_long;

    /// The chain in register order: even pairs (0, 2), (4, 6), ..., then odd
    /// pairs (1, 3), (5, 7), ...
    #[derive(Clone, Copy)]
    #[repr(C, align(16))]
    struct Words([[u64; 2]; 8]);

    impl Words {
        fn from_chain<const W: usize>(w: &[u64; W]) -> Words {
            let mut v = Words([[0; 2]; 8]);
            for p in 0..W / 4 {
                v.0[p] = [w[4 * p], w[4 * p + 2]];
                v.0[4 + p] = [w[4 * p + 1], w[4 * p + 3]];
            }
            v
        }

        fn to_chain<const W: usize>(&self) -> [u64; W] {
            let mut w = [0; W];
            for p in 0..W / 4 {
                [w[4 * p], w[4 * p + 2]] = self.0[p];
                [w[4 * p + 1], w[4 * p + 3]] = self.0[4 + p];
            }
            w
        }
    }

    #[inline(always)]
    fn dconst(lanes: [u64; 2]) -> D {
        // SAFETY: plain 16-byte values of the same size.
        unsafe { transmute(lanes) }
    }

    #[inline(always)]
    const fn idx2(a: u32, b: u32) -> Simd<u32, 2> {
        Simd::from_array([a, b])
    }

    /// Even words in `e[0..W/4]`, their MIX partners in the same lanes of `o`.
    #[derive(Clone, Copy)]
    struct State {
        e: [D; 4],
        o: [D; 4],
    }

    /// Rotation counts of the odd register `p` in round `d`.
    const fn rot_counts<const W: usize>(d: usize, p: usize) -> [u64; 2] {
        if 2 * p + 1 >= W / 2 {
            return [0; 2];
        }
        [lane_rot::<W>(d, 2 * p) as u64, lane_rot::<W>(d, 2 * p + 1) as u64]
    }

    /// New odd register `p` of round `d + 1`: the two old registers it takes
    /// its words from and the shuffle of their concatenation.
    const fn odd_move<const W: usize>(d: usize, p: usize) -> (usize, usize, Simd<u32, 2>) {
        if 2 * p + 1 >= W / 2 {
            return (0, 0, idx2(0, 1));
        }
        let a = odd_source::<W>(d, 2 * p);
        let b = odd_source::<W>(d, 2 * p + 1);
        let (ra, rb) = (a / 2, b / 2);
        (ra, rb, idx2((a % 2) as u32, (2 + b % 2) as u32))
    }

    macro_rules! for_regs {
        ($w:ident, $p:ident => $body:block) => {{
            {
                const $p: usize = 0;
                $body
            }
            if $w >= 8 {
                const $p: usize = 1;
                $body
            }
            if $w >= 16 {
                const $p: usize = 2;
                $body
            }
            if $w >= 16 {
                const $p: usize = 3;
                $body
            }
        }};
    }

    /// One Threefish round; `R` is the round number modulo 8.
    ///
    /// # Safety
    /// POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn round<const W: usize, const R: usize>(x: &mut State) {
        // SAFETY: caller enables POWER8 vectors.
        unsafe {
            for_regs!(W, P => {
                x.e[P] = simd_add(x.e[P], x.o[P]);
                let counts = dconst(const { rot_counts::<W>(R, P) });
                x.o[P] = simd_xor(simd_funnel_shl(x.o[P], x.o[P], counts), x.e[P]);
            });
            let old = x.o;
            for_regs!(W, P => {
                let (a, b, _) = const { odd_move::<W>(R, P) };
                x.o[P] = simd_shuffle(old[a], old[b], const { odd_move::<W>(R, P).2 });
            });
        }
    }

    /// Key words of one block in key order (k0, k2, ..., kW, k1, k3, ...), as
    /// `[E_0, .., E_{n-1}, (kW, k1), O_0, .., O_{n-1}, E_0]` so that every
    /// subkey window is one shuffle of two neighbours.
    #[derive(Clone, Copy)]
    struct Key([D; 10]);

    /// The two `Key` entries and shuffle giving the window at key position `q`.
    const fn window<const W: usize>(q: usize) -> (usize, usize, Simd<u32, 2>) {
        let np = W / 4;
        let (a, off) = if q <= W / 2 {
            (q / 2, q % 2)
        } else {
            let q2 = q - W / 2 - 1;
            (np + 1 + q2 / 2, q2 % 2)
        };
        (a, a + 1, if off == 0 { idx2(0, 1) } else { idx2(1, 2) })
    }

    macro_rules! window {
        ($k:expr, $w:ident, $q:expr) => {{
            let k: &Key = $k;
            let (a, b, _) = const { window::<$w>($q) };
            simd_shuffle(k.0[a], k.0[b], const { window::<$w>($q).2 })
        }};
    }

    /// # Safety
    /// POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn key<const W: usize>(x: &State) -> Key {
        // SAFETY: caller enables POWER8 vectors.
        unsafe {
            let np = W / 4;
            let mut p = simd_xor(x.e[0], x.o[0]);
            let mut i = 1;
            while i < np {
                p = simd_xor(p, simd_xor(x.e[i], x.o[i]));
                i += 1;
            }
            let p = simd_xor(p, simd_shuffle(p, p, const { idx2(1, 0) }));
            let kw: D = simd_xor(p, dconst([C240; 2]));
            let mut k = Key([x.e[0]; 10]);
            let mut i = 0;
            while i < np {
                k.0[i] = x.e[i];
                k.0[np + 1 + i] = x.o[i];
                i += 1;
            }
            k.0[np] = simd_shuffle(kw, x.o[0], const { idx2(0, 2) });
            k.0[2 * np + 1] = x.e[0];
            k
        }
    }

    /// Tweak schedule of one block: (t0, t1) and (t2, t2).
    #[derive(Clone, Copy)]
    struct Tweak {
        t01: D,
        t22: D,
    }

    /// Add subkey `S`.
    ///
    /// # Safety
    /// POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn inject<const W: usize, const S: usize>(x: &mut State, k: &Key, t: &Tweak) {
        // SAFETY: caller enables POWER8 vectors.
        unsafe {
            let last = W / 4 - 1;
            let zero = dconst([0; 2]);
            let counter = dconst([0, S as u64]);
            // Word W-2 (lane 1 of the last even register) gets ts[(s+1) % 3];
            // word W-3 (lane 0 of the last odd register) ts[s % 3], word W-1 s.
            let te: D = match (S + 1) % 3 {
                0 => simd_shuffle(zero, t.t01, const { idx2(0, 2) }),
                1 => simd_shuffle(zero, t.t01, const { idx2(0, 3) }),
                _ => simd_shuffle(zero, t.t22, const { idx2(0, 2) }),
            };
            let to: D = match S % 3 {
                0 => simd_shuffle(t.t01, counter, const { idx2(0, 3) }),
                1 => simd_shuffle(t.t01, counter, const { idx2(1, 3) }),
                _ => simd_shuffle(t.t22, counter, const { idx2(0, 3) }),
            };
            for_regs!(W, P => {
                let ke: D = window!(k, W, (const { key_pos::<W>(S) } + 2 * P) % (W + 1));
                let ko: D = window!(k, W, (const { key_pos::<W>(S + 1) } + 2 * P) % (W + 1));
                if P == last {
                    x.e[P] = simd_add(x.e[P], simd_add(ke, te));
                    x.o[P] = simd_add(x.o[P], simd_add(ko, to));
                } else {
                    x.e[P] = simd_add(x.e[P], ke);
                    x.o[P] = simd_add(x.o[P], ko);
                }
            });
        }
    }

    /// Eight rounds, then subkeys `S1` and `S2 = S1 + 1`.
    ///
    /// # Safety
    /// POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn eight<const W: usize, const S1: usize, const S2: usize>(x: &mut State, k: &Key, t: &Tweak) {
        // SAFETY: caller enables POWER8 vectors.
        unsafe {
            round::<W, 0>(x);
            round::<W, 1>(x);
            round::<W, 2>(x);
            round::<W, 3>(x);
            inject::<W, S1>(x, k, t);
            round::<W, 4>(x);
            round::<W, 5>(x);
            round::<W, 6>(x);
            round::<W, 7>(x);
            inject::<W, S2>(x, k, t);
        }
    }

    /// Sixteen bytes at `p` (any alignment) as two little-endian words.
    ///
    /// # Safety
    /// `p..p+16` readable; POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn load_words(p: *const u8) -> D {
        // SAFETY: caller; `[u8; 16]` has alignment 1.
        unsafe {
            let v: D = transmute(*(p as *const [u8; 16]));
            #[cfg(target_endian = "big")]
            let v: D = core::intrinsics::simd::simd_bswap(v);
            v
        }
    }

    /// # Safety
    /// `blocks` points to `n` blocks of `8 * W` bytes; POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn blocks<const W: usize>(words: &mut Words, tweak: &mut [u64; 2], mut blocks: *const u8, mut n: usize, bytes_per_block: u64) {
        // SAFETY: caller; `Words` is 16-byte aligned.
        unsafe {
            let np = W / 4;
            let v = transmute::<Words, [D; 8]>(*words);
            let mut chain = State { e: [v[0], v[1], v[2], v[3]], o: [v[4], v[5], v[6], v[7]] };
            let (mut t0, mut t1) = (tweak[0], tweak[1]);
            while n != 0 {
                t0 = t0.wrapping_add(bytes_per_block);
                if t0 < bytes_per_block {
                    t1 = t1.wrapping_add(1);
                }
                let mut m = chain;
                let mut p = 0;
                while p < np {
                    let a = load_words(blocks.add(32 * p));
                    let b = load_words(blocks.add(32 * p + 16));
                    m.e[p] = simd_shuffle(a, b, const { idx2(0, 2) });
                    m.o[p] = simd_shuffle(a, b, const { idx2(1, 3) });
                    p += 1;
                }
                let k = key::<W>(&chain);
                let t01 = dconst([t0, t1]);
                let t = Tweak { t01, t22: dconst([t0 ^ t1; 2]) };
                let mut x = m;
                inject::<W, 0>(&mut x, &k, &t);
                eight::<W, 1, 2>(&mut x, &k, &t);
                eight::<W, 3, 4>(&mut x, &k, &t);
                eight::<W, 5, 6>(&mut x, &k, &t);
                eight::<W, 7, 8>(&mut x, &k, &t);
                eight::<W, 9, 10>(&mut x, &k, &t);
                eight::<W, 11, 12>(&mut x, &k, &t);
                eight::<W, 13, 14>(&mut x, &k, &t);
                eight::<W, 15, 16>(&mut x, &k, &t);
                eight::<W, 17, 18>(&mut x, &k, &t);
                if W == 16 {
                    eight::<W, 19, 20>(&mut x, &k, &t);
                }
                let mut p = 0;
                while p < np {
                    chain.e[p] = simd_xor(x.e[p], m.e[p]);
                    chain.o[p] = simd_xor(x.o[p], m.o[p]);
                    p += 1;
                }
                t1 &= !T1_FIRST;
                blocks = blocks.add(8 * W);
                n -= 1;
            }
            let out = [chain.e[0], chain.e[1], chain.e[2], chain.e[3], chain.o[0], chain.o[1], chain.o[2], chain.o[3]];
            *words = transmute::<[D; 8], Words>(out);
            *tweak = [t0, t1];
        }
    }

    #[target_feature(enable = "power8-vector")]
    unsafe fn blocks_256(words: &mut Words, tweak: &mut [u64; 2], b: *const u8, n: usize, bytes_per_block: u64) {
        // SAFETY: forwarded from the caller; POWER8 vectors are enabled here.
        unsafe { blocks::<4>(words, tweak, b, n, bytes_per_block) }
    }

    #[target_feature(enable = "power8-vector")]
    unsafe fn blocks_512(words: &mut Words, tweak: &mut [u64; 2], b: *const u8, n: usize, bytes_per_block: u64) {
        // SAFETY: forwarded from the caller; POWER8 vectors are enabled here.
        unsafe { blocks::<8>(words, tweak, b, n, bytes_per_block) }
    }

    #[target_feature(enable = "power8-vector")]
    unsafe fn blocks_1024(words: &mut Words, tweak: &mut [u64; 2], b: *const u8, n: usize, bytes_per_block: u64) {
        // SAFETY: forwarded from the caller; POWER8 vectors are enabled here.
        unsafe { blocks::<16>(words, tweak, b, n, bytes_per_block) }
    }
}
