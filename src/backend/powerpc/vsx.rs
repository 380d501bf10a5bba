//! VSX backend for POWER8 and later (64-bit PowerPC, either byte order).
//!
//! POWER8 added 64-bit vector lanes (`vaddudm`, `vrld`), so a register holds
//! two whole Threefish words and each MIX is three instructions for two
//! words. As in the AltiVec backend, even words stay in place, the odd words
//! in the same lanes are their MIX partners of the current round and are
//! moved between rounds (`xxswapd`/`xxpermdi`); which even words share a
//! register is chosen per state size to save those moves. Each subkey
//! vector is one `xxpermdi` of the chain registers and the parity word.
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
impl crate::backend::dispatch::isa::Isa for Token {
    fn detect() -> Option<Token> {
        None
    }

    fn compress<const W: usize>(self, _: crate::backend::dispatch::isa::BlockRun<'_, W>) {
        match self {}
    }
}

#[cfg(target_arch = "powerpc64")]
mod imp {
    use core::arch::powerpc64::vector_unsigned_long;
    use core::intrinsics::simd::{simd_add, simd_funnel_shl, simd_shuffle, simd_xor};
    use core::mem::transmute;
    use core::simd::Simd;

    use crate::backend::dispatch::feature_glue::feature_backend;
    use crate::backend::dispatch::isa::{BlockRun, SingleStream};
    use crate::backend::even_odd::layout::{mix_of, odd_source_in};
    use crate::backend::powerpc::Blocks;
    use crate::spec::{rot, C240};

    feature_backend! {
        /// Proof that this CPU has POWER8 vector instructions.
        token if power8_vector_detected(), features "power8-vector";
        single stream Power8;
        lanes D, 2;
    }

    #[cfg(feature = "std")]
    fn power8_vector_detected() -> bool {
        std::arch::is_powerpc64_feature_detected!("power8-vector")
    }
    #[cfg(not(feature = "std"))]
    fn power8_vector_detected() -> bool {
        cfg!(target_feature = "power8-vector")
    }

    type D = vector_unsigned_long;

    /// The even words lane by lane; register p holds lanes 2p and 2p+1.
    ///
    /// Chosen (by exhaustive search) so that as many odd registers as
    /// possible move between rounds as a whole, without a permute: every
    /// round for Skein-256 needs one, but Skein-512 with (0, 4), (2, 6) needs
    /// 4 per 4 rounds instead of 8, and Skein-1024 with (0, 2), (4, 6),
    /// (8, 12), (10, 14) 8 instead of 16.
    const fn even_order<const W: usize>() -> [usize; 8] {
        match W {
            4 => [0, 2, 0, 0, 0, 0, 0, 0],
            8 => [0, 4, 2, 6, 0, 0, 0, 0],
            _ => [0, 2, 4, 6, 8, 12, 10, 14],
        }
    }

    /// The lane of even word `e`.
    const fn lane_of<const W: usize>(e: usize) -> usize {
        let order = even_order::<W>();
        let mut k = 0;
        while k < W / 2 {
            if order[k] == e {
                return k;
            }
            k += 1;
        }
        panic!("not an even word")
    }

    /// The odd lane of round `d` whose word goes to odd lane `k` in round `d + 1`.
    const fn odd_source<const W: usize>(d: usize, k: usize) -> usize {
        odd_source_in::<W>(&even_order::<W>(), d, k)
    }

    /// The chain in register order: even registers, then odd registers (in
    /// the layout of round 0, where odd lane k holds word `even[k] + 1`).
    #[derive(Clone, Copy)]
    #[repr(C, align(16))]
    struct Words([[u64; 2]; 8]);

    impl Words {
        fn from_chain<const W: usize>(w: &[u64; W]) -> Words {
            let order = even_order::<W>();
            let mut v = Words([[0; 2]; 8]);
            for k in 0..W / 2 {
                v.0[k / 2][k % 2] = w[order[k]];
                v.0[4 + k / 2][k % 2] = w[order[k] + 1];
            }
            v
        }

        fn to_chain<const W: usize>(self) -> [u64; W] {
            let order = even_order::<W>();
            let mut w = [0; W];
            for k in 0..W / 2 {
                w[order[k]] = self.0[k / 2][k % 2];
                w[order[k] + 1] = self.0[4 + k / 2][k % 2];
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

    /// Even registers `e[0..W/4]`, odd registers `o` with the MIX partners
    /// of the same lanes.
    #[derive(Clone, Copy)]
    struct State {
        e: [D; 4],
        o: [D; 4],
    }

    /// Rotation counts of odd register `p` in round `d`.
    const fn rot_counts<const W: usize>(d: usize, p: usize) -> [u64; 2] {
        if 2 * p + 1 >= W / 2 {
            return [0; 2];
        }
        let order = even_order::<W>();
        let ja = mix_of::<W>(d, order[2 * p]).1;
        let jb = mix_of::<W>(d, order[2 * p + 1]).1;
        [rot::<W>(d, ja) as u64, rot::<W>(d, jb) as u64]
    }

    /// New odd register `p` of round `d + 1`: the old registers holding its
    /// two words and the shuffle of their concatenation.
    const fn odd_move<const W: usize>(d: usize, p: usize) -> (usize, usize, Simd<u32, 2>) {
        if 2 * p + 1 >= W / 2 {
            return (0, 0, idx2(0, 1));
        }
        let a = odd_source::<W>(d, 2 * p);
        let b = odd_source::<W>(d, 2 * p + 1);
        (a / 2, b / 2, idx2((a % 2) as u32, (2 + b % 2) as u32))
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

    /// Where extended-key word `i` is: an index into `[e0..e3, o0..o3, k_W]`
    /// (the chain registers and the parity word) and the lane.
    const fn key_location<const W: usize>(i: usize) -> (usize, usize) {
        if i == W {
            (8, 0)
        } else if i.is_multiple_of(2) {
            let k = lane_of::<W>(i);
            (k / 2, k % 2)
        } else {
            let k = lane_of::<W>(i - 1);
            (4 + k / 2, k % 2)
        }
    }

    /// The subkey-`s` vector of a register whose lanes hold words `a` and
    /// `b`: two key locations and the shuffle joining them.
    const fn subkey_pick<const W: usize>(
        s: usize,
        a: usize,
        b: usize,
    ) -> (usize, usize, Simd<u32, 2>) {
        let (ra, la) = key_location::<W>((s + a) % (W + 1));
        let (rb, lb) = key_location::<W>((s + b) % (W + 1));
        (ra, rb, idx2(la as u32, 2 + lb as u32))
    }

    /// Words of even register `p` (`odd`: of odd register `p` at a subkey).
    const fn reg_words<const W: usize>(p: usize, odd: bool) -> (usize, usize) {
        if 2 * p + 1 >= W / 2 {
            return (0, 0);
        }
        let order = even_order::<W>();
        let o = if odd { 1 } else { 0 };
        (order[2 * p] + o, order[2 * p + 1] + o)
    }

    macro_rules! subkey {
        ($k:expr, $w:ident, $s:expr, $p:expr, $odd:expr) => {{
            let k: &[D; 9] = $k;
            let (a, b, _) = const {
                subkey_pick::<$w>($s, reg_words::<$w>($p, $odd).0, reg_words::<$w>($p, $odd).1)
            };
            simd_shuffle(
                k[a],
                k[b],
                const {
                    subkey_pick::<$w>($s, reg_words::<$w>($p, $odd).0, reg_words::<$w>($p, $odd).1)
                        .2
                },
            )
        }};
    }

    /// # Safety
    /// POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn key<const W: usize>(x: &State) -> [D; 9] {
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
            [
                x.e[0], x.e[1], x.e[2], x.e[3], x.o[0], x.o[1], x.o[2], x.o[3], kw,
            ]
        }
    }

    /// Tweak schedule of one block: (t0, t1) and (t2, t2).
    #[derive(Clone, Copy)]
    struct Tweak {
        t01: D,
        t22: D,
    }

    /// Where the subkey's additions go: the lane of word W-2 (even) and of
    /// words W-3 and W-1 (odd).
    const fn tweak_lanes<const W: usize>() -> (usize, usize, usize) {
        (
            lane_of::<W>(W - 2),
            lane_of::<W>(W - 4),
            lane_of::<W>(W - 2),
        )
    }

    /// `ts[x]` in lane `lane` (0 or 1), the other lane from `other`.
    ///
    /// # Safety
    /// POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn tweak_word(t: &Tweak, x: usize, lane: usize, other: D) -> D {
        // SAFETY: caller enables POWER8 vectors.
        unsafe {
            match (x, lane) {
                (0, 0) => simd_shuffle(t.t01, other, const { idx2(0, 3) }),
                (1, 0) => simd_shuffle(t.t01, other, const { idx2(1, 3) }),
                (_, 0) => simd_shuffle(t.t22, other, const { idx2(0, 3) }),
                (0, _) => simd_shuffle(other, t.t01, const { idx2(0, 2) }),
                (1, _) => simd_shuffle(other, t.t01, const { idx2(0, 3) }),
                _ => simd_shuffle(other, t.t22, const { idx2(0, 2) }),
            }
        }
    }

    /// Add subkey `S`.
    ///
    /// # Safety
    /// POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn inject<const W: usize, const S: usize>(x: &mut State, k: &[D; 9], t: &Tweak) {
        // SAFETY: caller enables POWER8 vectors.
        unsafe {
            let (le, l3, l1) = const { tweak_lanes::<W>() };
            let mut counter = [0u64; 2];
            counter[l1 % 2] = S as u64;
            // The parts of the subkey that are not key words, per register.
            let zero = dconst([0; 2]);
            let te = tweak_word(t, (S + 1) % 3, le % 2, zero);
            let (ts_odd_a, ts_odd_b) = if l3 / 2 == l1 / 2 {
                (tweak_word(t, S % 3, l3 % 2, dconst(counter)), zero)
            } else {
                (tweak_word(t, S % 3, l3 % 2, zero), dconst(counter))
            };
            for_regs!(W, P => {
                let ke: D = subkey!(k, W, S, P, false);
                let ko: D = subkey!(k, W, S, P, true);
                x.e[P] = if P == le / 2 { simd_add(x.e[P], simd_add(ke, te)) } else { simd_add(x.e[P], ke) };
                x.o[P] = if P == l3 / 2 {
                    simd_add(x.o[P], simd_add(ko, ts_odd_a))
                } else if P == l1 / 2 {
                    simd_add(x.o[P], simd_add(ko, ts_odd_b))
                } else {
                    simd_add(x.o[P], ko)
                };
            });
        }
    }

    /// Eight rounds, then subkeys `S1` and `S2 = S1 + 1`.
    ///
    /// # Safety
    /// POWER8 vectors enabled.
    #[inline(always)]
    unsafe fn eight<const W: usize, const S1: usize, const S2: usize>(
        x: &mut State,
        k: &[D; 9],
        t: &Tweak,
    ) {
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

    /// Sixteen bytes at `base + offset` (any alignment) as two
    /// little-endian words, in the order `lxvd2x` leaves them: on
    /// little-endian, word 1 in lane 0 and word 0 in lane 1. The lane
    /// kernel's transposing shuffles take the words from either lane at no
    /// cost, so the `xxswapd` that a plain load adds on little-endian
    /// POWER8 is left out. Base and offset apart: `lxvd2x` adds two
    /// registers, and the bases stay the same from block to block.
    ///
    /// # Safety
    /// `base + offset..base + offset + 16` readable; POWER8 vectors enabled.
    #[cfg(target_endian = "little")]
    #[inline(always)]
    unsafe fn load_pair(base: *const u8, offset: usize) -> D {
        let v: D;
        // SAFETY: the caller's; `lxvd2x` reads the 16 bytes at
        // `base + offset` and has no alignment requirement.
        unsafe {
            core::arch::asm!("lxvd2x {0}, {1}, {2}", lateout(vsreg) v, in(reg_nonzero) base,
                             in(reg) offset, options(pure, readonly, nostack, preserves_flags));
        }
        v
    }
    /// [`load_words`] (big-endian: the byte swap puts word 0 in lane 0).
    ///
    /// # Safety
    /// `base + offset..base + offset + 16` readable; POWER8 vectors enabled.
    #[cfg(target_endian = "big")]
    #[inline(always)]
    unsafe fn load_pair(base: *const u8, offset: usize) -> D {
        // SAFETY: the caller's.
        unsafe { load_words(base.add(offset)) }
    }

    /// Message register `p` (even or odd words) from the block's loads.
    const fn message_pick<const W: usize>(p: usize, odd: bool) -> (usize, usize, Simd<u32, 2>) {
        let (a, b) = reg_words::<W>(p, odd);
        (a / 2, b / 2, idx2((a % 2) as u32, (2 + b % 2) as u32))
    }

    /// # Safety
    /// The walk's blocks are readable blocks of `8 * W` bytes; POWER8
    /// vectors enabled.
    #[inline(always)]
    unsafe fn blocks<const W: usize>(words: &mut Words, tweak: &mut [u64; 2], mut walk: Blocks) {
        // SAFETY: caller; `Words` is 16-byte aligned.
        unsafe {
            let np = W / 4;
            let v = transmute::<Words, [D; 8]>(*words);
            let mut chain = State {
                e: [v[0], v[1], v[2], v[3]],
                o: [v[4], v[5], v[6], v[7]],
            };
            while let Some((block, t0, t1)) = walk.next() {
                let mut l = [dconst([0; 2]); 8];
                let mut i = 0;
                while i < W / 2 {
                    l[i] = load_words(block.add(16 * i));
                    i += 1;
                }
                let mut m = chain;
                for_regs!(W, P => {
                    let (a, b, _) = const { message_pick::<W>(P, false) };
                    m.e[P] = simd_shuffle(l[a], l[b], const { message_pick::<W>(P, false).2 });
                    let (a, b, _) = const { message_pick::<W>(P, true) };
                    m.o[P] = simd_shuffle(l[a], l[b], const { message_pick::<W>(P, true).2 });
                });
                let k = key::<W>(&chain);
                let t = Tweak {
                    t01: dconst([t0, t1]),
                    t22: dconst([t0 ^ t1; 2]),
                };
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
                walk.done();
            }
            let out = [
                chain.e[0], chain.e[1], chain.e[2], chain.e[3], chain.o[0], chain.o[1], chain.o[2],
                chain.o[3],
            ];
            *words = transmute::<[D; 8], Words>(out);
            *tweak = walk.tweak();
        }
    }

    /// The single-stream block function on the `Words` layout.
    struct Power8;

    impl SingleStream for Power8 {
        #[inline(always)]
        unsafe fn compress<const W: usize>(run: BlockRun<'_, W>) {
            let mut words = Words::from_chain(run.chain);
            let n = run.blocks.len() / (8 * W);
            let start = run.blocks.as_ptr();
            let walk = Blocks::new(run.tweak, start, n, 8 * W, run.bytes_per_block);
            // SAFETY: the caller's (POWER8 vectors); `blocks` holds `n`
            // whole blocks.
            unsafe { blocks::<W>(&mut words, run.tweak, walk) };
            *run.chain = words.to_chain();
        }
    }

    // =======================================================================
    // Multi-lane kernel (seam in `backend::lanes`): two computations at once,
    // one per 64-bit lane of a register. Row `j` (one register) holds word
    // `j` of both states, so a round is `W/2` `vaddudm`, `W/2` `vrld` (one
    // count for both lanes) and `W/2` `xxlxor`, and the word permutation is
    // only a renaming of registers: none of the `xxpermdi` moves the single
    // stream needs between rounds. Message blocks are transposed into rows
    // as they are loaded (`xxpermdi`).
    // =======================================================================

    mod lanes {
        use super::{idx2, load_pair, D};
        use crate::backend::dispatch::isa::{lanewise, Row};
        use core::intrinsics::simd::{
            simd_add, simd_and, simd_funnel_shl, simd_lt, simd_shuffle, simd_sub, simd_xor,
        };
        use core::mem::transmute;

        impl Row<2> for D {
            // Skein-256: fewer register moves and instructions per byte
            // (counted under QEMU: docs/performance.md, "Instruction counts,
            // before and after"); 512 and 1024 are better inlined up front. Only where the whole crate is built with
            // POWER8 vectors (ppc64le): elsewhere LLVM does not inline the
            // featureless round into the kernel, and calls it.
            const ROUNDS_INLINED_LATE: usize = if cfg!(target_feature = "power8-vector") {
                4
            } else {
                0
            };
            #[inline(always)]
            unsafe fn splat(v: u64) -> Self {
                // SAFETY: the vector is the 16 bytes of two `u64`.
                unsafe { transmute([v, v]) }
            }
            // `vaddudm`, `xxlxor`, `xxland`.
            lanewise! { add = simd_add, xor = simd_xor, and = simd_and }
            /// One `vrld`: a funnel shift of a word with itself is a rotation.
            #[inline(always)]
            unsafe fn rol(self, r: u32) -> Self {
                // SAFETY: the CPU has POWER8 vectors (the trait's contract);
                // the count `r` is 1..=63, below the lanes' 64 bits, as
                // `simd_funnel_shl` requires.
                unsafe { simd_funnel_shl(self, self, Self::splat(r as u64)) }
            }
            /// A carry out of word 0 (sum < step, an all-ones lane) adds one
            /// to word 1.
            #[inline(always)]
            unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
                // SAFETY: the CPU has POWER8 vectors (the trait's contract);
                // wrapping lane-wise arithmetic on vectors of one type, and
                // `simd_lt` gives a mask of the same lanes.
                unsafe {
                    let sum = simd_add(t0, step);
                    (sum, simd_sub(t1, simd_lt::<D, D>(sum, step)))
                }
            }
            #[inline(always)]
            unsafe fn load_row(row: &[u64; 2]) -> Self {
                // SAFETY: the vector is the 16 bytes of two `u64`.
                unsafe { transmute(*row) }
            }
            #[inline(always)]
            unsafe fn store_row(self, row: &mut [u64; 2]) {
                // SAFETY: the vector is the 16 bytes of two `u64`.
                *row = unsafe { transmute::<D, [u64; 2]>(self) };
            }
            /// Each pair of words of lane 0 and lane 1 transposed with two
            /// `xxpermdi`.
            #[inline(always)]
            unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 2], offset: usize) -> [Self; W] {
                // SAFETY: the CPU has POWER8 vectors (the trait's contract),
                // as `load_pair` requires, and there are
                // 16 readable bytes at `offset + 16 * pair` of each lane,
                // since 16 * (pair + 1) <= 8 * W (the contract); the
                // shuffles' indices are below 4, the lanes of `a` and `b`.
                unsafe {
                    let mut m = [Self::splat(0); W];
                    // Where word 2 * pair and word 2 * pair + 1 of a lane
                    // are in its loaded register.
                    const LO: u32 = if cfg!(target_endian = "little") { 1 } else { 0 };
                    // `while`, not `for`: `Range::next` does not inline here.
                    let mut pair = 0;
                    while pair < W / 2 {
                        let a = load_pair(blocks[0].as_ptr().add(16 * pair), offset);
                        let b = load_pair(blocks[1].as_ptr().add(16 * pair), offset);
                        m[2 * pair] = simd_shuffle(a, b, const { idx2(LO, 2 + LO) });
                        m[2 * pair + 1] = simd_shuffle(a, b, const { idx2(1 - LO, 3 - LO) });
                        pair += 1;
                    }
                    m
                }
            }
        }
    }
}
