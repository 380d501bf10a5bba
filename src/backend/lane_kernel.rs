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
/// rotation counts and subkey indices become constants.
macro_rules! lane_kernel {
    ($feature:literal, $v:ty, $lanes:literal) => {
        #[target_feature(enable = $feature)]
        #[inline]
        fn round<const W: usize, const D: usize>(x: &mut [$v; W]) {
            let slot = const { $crate::spec::slots::<W>()[D % 4] };
            for j in 0..W / 2 {
                let (a, b) = (slot[2 * j], slot[2 * j + 1]);
                x[a] = add(x[a], x[b]);
                x[b] = xor(rol(x[b], $crate::spec::rot::<W>(D, j)), x[a]);
            }
        }

        #[target_feature(enable = $feature)]
        #[inline]
        fn inject<const W: usize>(x: &mut [$v; W], ks: &[$v; 17], ts: &[$v; 3], s: usize) {
            for j in 0..W {
                x[j] = add(x[j], ks[(s + j) % (W + 1)]);
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
            if $crate::spec::rounds(W) == 80 {
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
            for j in 0..W {
                ks[j] = chain[j];
                parity = xor(parity, chain[j]);
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
            for j in 0..W {
                chain[j] = load_row(&state.chain[j]);
            }
            let mut t0 = load_row(&state.tweak[0]);
            let mut t1 = load_row(&state.tweak[1]);
            let step = load_row(bytes_per_block);
            let not_first = splat(!$crate::spec::T1_FIRST);
            for k in 0..n {
                // SAFETY: block k ends at (k + 1) * 8 * W <= n * 8 * W bytes.
                let m = unsafe { load_rows::<W>(blocks, k * 8 * W) };
                (t0, t1) = advance(t0, t1, step);
                let (ks, ts) = schedules::<W>(&chain, t0, t1);
                let mut x = m;
                encrypt::<W>(&mut x, &ks, &ts);
                for j in 0..W {
                    chain[j] = xor(x[j], m[j]);
                }
                t1 = and(t1, not_first);
            }
            for j in 0..W {
                store_row(&mut state.chain[j], chain[j]);
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
