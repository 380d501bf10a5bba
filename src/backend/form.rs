//! Which form of a multi-lane kernel runs: one group of lanes per call, or
//! the interleaved form of two groups (where the instruction set has one).
//! The faster form depends on the core and the state size (register
//! pressure), so it is timed once per backend and state size at first use
//! (docs/lanes.md); tests force a form per thread.

use super::lanes::Workload;
#[cfg(feature = "std")]
use super::lanes::{LaneJob, LaneKernel, LaneState, MessageRun};
#[cfg(feature = "std")]
use super::Backend;
use super::Choice;
#[cfg(feature = "std")]
use crate::spec::T1_FIRST;

/// The forms of `backend`'s multi-lane kernel here, by groups of lanes per
/// call: `[1]`, `[1, 2]`, or none (see `Backend::lane_interleaves`).
#[cfg(feature = "test-hooks")]
pub(super) fn interleaves(backend: Backend) -> &'static [usize] {
    match Choice::of(backend) {
        Some(c) if c.has_interleaved() => &[1, 2],
        Some(c) if c.lanes(false).is_some() => &[1],
        _ => &[],
    }
}

#[cfg(feature = "std")]
std::thread_local! {
    /// The form a test forces on this thread (`Platform::with_lane_interleave`).
    static FORCED_INTERLEAVE: core::cell::Cell<Option<usize>> = const { core::cell::Cell::new(None) };
}

impl Choice {
    /// The form a test forces on this thread, if any (groups of lanes).
    pub(super) fn forced_interleave() -> Option<usize> {
        #[cfg(feature = "std")]
        return FORCED_INTERLEAVE.with(core::cell::Cell::get);
        #[cfg(not(feature = "std"))]
        None
    }
}

/// Run `f` with every lane kernel chosen on this thread in the form with
/// `interleave` groups of lanes per call (1 or 2; 1 for kernels without an
/// interleaved form). The test hook behind `Platform::with_lane_interleave`.
#[cfg(feature = "test-hooks")]
pub(super) fn with_interleave<R>(interleave: usize, f: impl FnOnce() -> R) -> R {
    assert!(matches!(interleave, 1 | 2), "1 or 2 groups of lanes");
    struct Restore(Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            FORCED_INTERLEAVE.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FORCED_INTERLEAVE.with(|c| c.replace(Some(interleave))));
    f()
}

impl Choice {
    /// Whether `choice`'s interleaved kernel is the faster form on this CPU
    /// for a state of `W` words and `work`: the two groups' register
    /// pressure decides, and that differs by state size and core
    /// (docs/lanes.md). Measured once per backend, state size, workload and
    /// process (both forms on the same few blocks, best of a few rounds,
    /// about a tenth of a millisecond), then cached. Results never depend
    /// on it, only speed. Without `std` (no clock) the one-group form.
    pub(super) fn interleave_measured<const W: usize>(self, work: Workload) -> bool {
        let choice = self;
        #[cfg(feature = "std")]
        {
            use core::sync::atomic::{AtomicU8, Ordering};
            // Per workload, backend and state size: 0 not measured yet, 1
            // one group, 2 two.
            static MEASURED: [[[AtomicU8; 3]; Backend::ALL.len()]; 2] =
                [const { [const { [const { AtomicU8::new(0) }; 3] }; Backend::ALL.len()] }; 2];
            let index = Backend::ALL
                .iter()
                .position(|&b| b == choice.backend())
                .expect("a backend of the table");
            let cell = &MEASURED[work as usize][index][W.trailing_zeros() as usize - 2];
            match cell.load(Ordering::Relaxed) {
                1 => false,
                2 => true,
                _ => {
                    let two = measure_interleave::<W>(choice, work);
                    cell.store(if two { 2 } else { 1 }, Ordering::Relaxed);
                    two
                }
            }
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = (choice, work);
            false
        }
    }
}

/// Time both forms of `choice`'s kernel on `work` with blocks of `W`
/// words: nanoseconds per lane, best of a few alternating rounds; whether
/// the interleaved one is at least 5% faster.
#[cfg(feature = "std")]
fn measure_interleave<const W: usize>(choice: Choice, work: Workload) -> bool {
    /// Bytes per lane and call of `Blocks` (16, 8 or 4 blocks): long enough
    /// that the loop, not the call's loads, stores and transposes, is
    /// timed, short enough that the whole measurement stays within about a
    /// tenth of a millisecond (the figures behind both: docs/lanes.md).
    const BYTES: usize = 512;
    const ROUNDS: usize = 16;
    /// Calls of `ShortMessages` per timing (two blocks each).
    const CALLS: usize = 8;
    struct Time(Workload);
    impl<const W: usize> LaneJob<W> for Time {
        type Output = f64;
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) -> f64 {
            let data = [0x5au8; BYTES];
            let data = &data[..];
            // Made outside the timing, dropped after it.
            let mut state = LaneState::<W, L>::new();
            let mut out = [[0u64; L]; W];
            let t = std::time::Instant::now();
            let calls = match self.0 {
                Workload::Blocks => {
                    kernel.compress(&mut state, [data; L], [8 * W as u64; L]);
                    1
                }
                Workload::ShortMessages => {
                    // Back to back, as a batch runs them: independent calls
                    // overlap, so throughput is timed, not one call's latency
                    // (which alone favours the interleaved form).
                    for _ in 0..CALLS {
                        kernel.messages(MessageRun {
                            chain: &[0; W],
                            tweak: [0, T1_FIRST],
                            body: [&[]; L],
                            last: [&data[..8 * W]; L],
                            tail: 8 * W as u64,
                            out_tweak: [0, T1_FIRST],
                            finals: None,
                            out: &mut out,
                        });
                    }
                    CALLS
                }
            };
            t.elapsed().as_nanos() as f64 / (calls * L) as f64
        }
    }
    // A first call of each to fault in code and data, then alternate.
    choice.run_lanes::<W, _>(false, Time(work));
    choice.run_lanes::<W, _>(true, Time(work));
    let (mut one, mut two) = (f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        one = one.min(choice.run_lanes::<W, _>(false, Time(work)));
        two = two.min(choice.run_lanes::<W, _>(true, Time(work)));
    }
    // The interleaved form must win clearly: a noisy tie keeps the form
    // with fewer spills. On short messages more clearly still: timed alone,
    // the kernel calls understate what the one-group form gains in a batch
    // (Zen 4, AVX-512, 64-byte messages: the interleaved calls 4% faster
    // alone, 6% slower in batches of 64; docs/lanes.md).
    let margin = match work {
        Workload::Blocks => 0.95,
        Workload::ShortMessages => 0.90,
    };
    two < margin * one
}
