//! The multi-lane kernel (seam in `backend::lanes`), written once for every
//! instruction set that has one (x86 SSE2/AVX2/AVX-512, AArch64 NEON,
//! POWER8 VSX) as the macro `lane_kernel!`.

/// The multi-lane kernel (seam in `backend::lanes`), written once over `W` row
/// vectors of type `$v` with `$lanes` 64-bit lanes: the Threefish rounds,
/// schedules, tweak carry and feed-forward. Each instruction set instantiates
/// it with its `add`, `xor`, `and`, `rol` (rotate left by a constant), `splat`,
/// `advance` (tweak position plus bytes, with the carry into word 1),
/// `load_row`/`store_row` (one row of the state) and `load_rows` (the message
/// rows of one block of every lane). Every helper carries the instruction
/// set's `target_feature`, so it inlines into the kernel and all row indices,
/// rotation counts and subkey indices become constants. The loops are
/// `while` loops and the round count a `const`: on 32-bit PowerPC LLVM does
/// not inline `Range::next` or `spec::rounds` into AltiVec code, and the
/// calls made the G4's four-lane Skein-256 loop 105 instead of 17 model
/// cycles per byte (docs/powerpc.md).
macro_rules! lane_kernel {
    ($feature:literal, $v:ty, $lanes:literal) => {
        #[target_feature(enable = $feature)]
        #[inline]
        fn round<const W: usize, const D: usize>(x: &mut [$v; W]) {
            let slot = const { $crate::spec::slots::<W>()[D % 4] };
            let mut j = 0;
            while j < W / 2 {
                let (a, b) = (slot[2 * j], slot[2 * j + 1]);
                x[a] = add(x[a], x[b]);
                x[b] = xor(rol(x[b], $crate::spec::rot::<W>(D, j)), x[a]);
                j += 1;
            }
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn inject<const W: usize>(x: &mut [$v; W], ks: &[$v; 17], ts: &[$v; 3], s: usize) {
            let mut j = 0;
            while j < W {
                x[j] = add(x[j], ks[(s + j) % (W + 1)]);
                j += 1;
            }
            x[W - 3] = add(x[W - 3], ts[s % 3]);
            x[W - 2] = add(x[W - 2], ts[(s + 1) % 3]);
            x[W - 1] = add(x[W - 1], splat(s as u64));
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn eight_rounds<const W: usize, const S: usize>(
            x: &mut [$v; W],
            ks: &[$v; 17],
            ts: &[$v; 3],
        ) {
            round::<W, 0>(x);
            round::<W, 1>(x);
            round::<W, 2>(x);
            round::<W, 3>(x);
            inject(x, ks, ts, S + 1);
            round::<W, 4>(x);
            round::<W, 5>(x);
            round::<W, 6>(x);
            round::<W, 7>(x);
            inject(x, ks, ts, S + 2);
        }

        /// Threefish on every lane: `ks[0..=W]` key schedule rows, `ts` tweak
        /// schedule rows.
        #[target_feature(enable = $feature)]
        #[inline]
        fn encrypt<const W: usize>(x: &mut [$v; W], ks: &[$v; 17], ts: &[$v; 3]) {
            inject(x, ks, ts, 0);
            eight_rounds::<W, 0>(x, ks, ts);
            eight_rounds::<W, 2>(x, ks, ts);
            eight_rounds::<W, 4>(x, ks, ts);
            eight_rounds::<W, 6>(x, ks, ts);
            eight_rounds::<W, 8>(x, ks, ts);
            eight_rounds::<W, 10>(x, ks, ts);
            eight_rounds::<W, 12>(x, ks, ts);
            eight_rounds::<W, 14>(x, ks, ts);
            eight_rounds::<W, 16>(x, ks, ts);
            if const { $crate::spec::rounds(W) } == 80 {
                eight_rounds::<W, 18>(x, ks, ts);
            }
        }

        /// Key schedule rows (chain rows plus the parity row) and tweak
        /// schedule rows of one block.
        #[target_feature(enable = $feature)]
        #[inline]
        fn schedules<const W: usize>(chain: &[$v; W], t0: $v, t1: $v) -> ([$v; 17], [$v; 3]) {
            let mut ks = [splat(0); 17];
            let mut parity = splat($crate::spec::C240);
            let mut j = 0;
            while j < W {
                ks[j] = chain[j];
                parity = xor(parity, chain[j]);
                j += 1;
            }
            ks[W] = parity;
            (ks, [t0, t1, xor(t0, t1)])
        }

        /// # Safety
        /// Every `blocks[i]` must hold `n * 8 * W` bytes.
        #[target_feature(enable = $feature)]
        unsafe fn lane_blocks<const W: usize>(
            state: &mut $crate::backend::lanes::LaneState<W, $lanes>,
            blocks: &[&[u8]; $lanes],
            bytes_per_block: &[u64; $lanes],
            n: usize,
        ) {
            let mut chain = [splat(0); W];
            let mut j = 0;
            while j < W {
                chain[j] = load_row(&state.chain[j]);
                j += 1;
            }
            let mut t0 = load_row(&state.tweak[0]);
            let mut t1 = load_row(&state.tweak[1]);
            let step = load_row(bytes_per_block);
            let not_first = splat(!$crate::spec::T1_FIRST);
            let mut k = 0;
            while k < n {
                // SAFETY: block k ends at (k + 1) * 8 * W <= n * 8 * W bytes.
                let m = unsafe { load_rows::<W>(blocks, k * 8 * W) };
                (t0, t1) = advance(t0, t1, step);
                let (ks, ts) = schedules::<W>(&chain, t0, t1);
                let mut x = m;
                encrypt::<W>(&mut x, &ks, &ts);
                let mut j = 0;
                while j < W {
                    chain[j] = xor(x[j], m[j]);
                    j += 1;
                }
                t1 = and(t1, not_first);
                k += 1;
            }
            let mut j = 0;
            while j < W {
                store_row(&mut state.chain[j], chain[j]);
                j += 1;
            }
            store_row(&mut state.tweak[0], t0);
            store_row(&mut state.tweak[1], t1);
        }

        /// Computations per multi-lane call.
        pub(crate) const LANES: usize = $lanes;

        /// The multi-lane block function (seam in `backend::lanes`).
        ///
        /// # Panics
        /// If the `blocks` are not all the same whole number of blocks long.
        pub(crate) fn compress_lanes<const W: usize>(
            _: Token,
            state: &mut $crate::backend::lanes::LaneState<W, $lanes>,
            blocks: [&[u8]; $lanes],
            bytes_per_block: [u64; $lanes],
        ) {
            let total = blocks[0].len();
            assert!(
                total.is_multiple_of(8 * W) && blocks.iter().all(|b| b.len() == total),
                "lanes: unequal blocks"
            );
            // SAFETY: the token proves the target feature; every lane holds
            // `total` bytes, which is `n` whole blocks.
            unsafe { lane_blocks::<W>(state, &blocks, &bytes_per_block, total / (8 * W)) }
        }
    };
}
pub(crate) use lane_kernel;

/// The same kernel over two independent groups of lanes per call, for
/// cores whose vector latency leaves pipes idle behind one group's
/// dependency chains (Zen 5: 2 cycles per add, xor or shift, docs/lanes.md).
/// Invoked inside a child module of an instruction set's module whose
/// helpers (`add`, `xor`, `and`, `rol`, `splat`, `advance`, `load_row`,
/// `store_row`, `load_rows`, `Token`) serve `$v` with `$lanes` lanes; every
/// row becomes a pair `[$v; 2]` (lanes `0..$lanes` and `$lanes..$total`,
/// `$total = 2 * $lanes`) and each helper acts on both halves side by
/// side, so the kernel written once in `lane_kernel!` runs two independent
/// chains that the compiler interleaves instruction by instruction.
/// (Only x86 has interleaved forms so far, hence the `cfg`.)
#[cfg(skein_simd_x86)]
macro_rules! interleaved_lane_kernel {
    ($feature:literal, $v:ty, $lanes:literal, $total:literal) => {
        use super::Token;
        use $crate::backend::lane_kernel::lane_kernel;

        const _: () = assert!($total == 2 * $lanes);

        /// Two independent groups of lanes, one row each.
        type Pair = [$v; 2];

        #[target_feature(enable = $feature)]
        #[inline]
        fn add(a: Pair, b: Pair) -> Pair {
            [super::add(a[0], b[0]), super::add(a[1], b[1])]
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn xor(a: Pair, b: Pair) -> Pair {
            [super::xor(a[0], b[0]), super::xor(a[1], b[1])]
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn and(a: Pair, b: Pair) -> Pair {
            [super::and(a[0], b[0]), super::and(a[1], b[1])]
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn rol(a: Pair, r: u32) -> Pair {
            [super::rol(a[0], r), super::rol(a[1], r)]
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn splat(v: u64) -> Pair {
            let s = super::splat(v);
            [s, s]
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn advance(t0: Pair, t1: Pair, step: Pair) -> (Pair, Pair) {
            let (a0, a1) = super::advance(t0[0], t1[0], step[0]);
            let (b0, b1) = super::advance(t0[1], t1[1], step[1]);
            ([a0, b0], [a1, b1])
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn load_row(row: &[u64; $total]) -> Pair {
            let (lo, hi) = row.split_at($lanes);
            [
                super::load_row(lo.try_into().expect("half a row")),
                super::load_row(hi.try_into().expect("half a row")),
            ]
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn store_row(row: &mut [u64; $total], v: Pair) {
            let (lo, hi) = row.split_at_mut($lanes);
            super::store_row(lo.try_into().expect("half a row"), v[0]);
            super::store_row(hi.try_into().expect("half a row"), v[1]);
        }

        /// # Safety
        /// Every `blocks[i]` must hold at least `offset + 8 * W` bytes.
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; $total], offset: usize) -> [Pair; W] {
            let (lo, hi) = blocks.split_at($lanes);
            // SAFETY: the caller's guarantee, for each half of the lanes.
            let (lo, hi) = unsafe {
                (
                    super::load_rows::<W>(lo.try_into().expect("half the lanes"), offset),
                    super::load_rows::<W>(hi.try_into().expect("half the lanes"), offset),
                )
            };
            core::array::from_fn(|j| [lo[j], hi[j]])
        }

        lane_kernel!($feature, Pair, $total);
    };
}
#[cfg(skein_simd_x86)]
pub(crate) use interleaved_lane_kernel;
