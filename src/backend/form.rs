//! Which form of a multi-lane kernel runs: one group of lanes per call, or
//! the interleaved form of two groups (where the instruction set has one).
//! The faster form depends on the core and the state size (register
//! pressure), so it is timed once per backend and state size at first use
//! (docs/lanes.md); tests force a form per thread.

#[cfg(feature = "std")]
use super::lanes::{LaneJob, LaneKernel, LaneState};
#[cfg(any(feature = "std", test, feature = "test-hooks"))]
use super::Backend;
use super::Choice;

/// The forms of `backend`'s multi-lane kernel here, by groups of lanes per
/// call: `[1]`, `[1, 2]`, or none (see `Backend::lane_interleaves`).
#[cfg(any(test, feature = "test-hooks"))]
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
#[cfg(all(feature = "std", any(test, feature = "test-hooks")))]
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
    /// for a state of `W` words: the two groups' register pressure decides, and
    /// that differs by state size and core (docs/lanes.md). Measured once per
    /// backend, state size and process (both forms on the same few blocks,
    /// best of a few rounds, about a tenth of a millisecond), then cached. Results
    /// never depend on it, only speed. Without `std` (no clock) the one-group
    /// form.
    pub(super) fn interleave_measured<const W: usize>(self) -> bool {
        let choice = self;
        #[cfg(feature = "std")]
        {
            use core::sync::atomic::{AtomicU8, Ordering};
            // Per backend and state size: 0 not measured yet, 1 one group, 2 two.
            static MEASURED: [[AtomicU8; 3]; Backend::ALL.len()] =
                [const { [const { AtomicU8::new(0) }; 3] }; Backend::ALL.len()];
            let index = Backend::ALL
                .iter()
                .position(|&b| b == choice.backend())
                .expect("a backend of the table");
            let cell = &MEASURED[index][W.trailing_zeros() as usize - 2];
            match cell.load(Ordering::Relaxed) {
                1 => false,
                2 => true,
                _ => {
                    let two = measure_interleave::<W>(choice);
                    cell.store(if two { 2 } else { 1 }, Ordering::Relaxed);
                    two
                }
            }
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = choice;
            false
        }
    }
}

/// Time both forms of `choice`'s kernel on blocks of `W` words:
/// nanoseconds per lane, best of a few alternating rounds; whether the
/// interleaved one is at least 5% faster.
#[cfg(feature = "std")]
fn measure_interleave<const W: usize>(choice: Choice) -> bool {
    /// Bytes per lane and call (16, 8 or 4 blocks): long enough that the
    /// loop, not the call's loads, stores and transposes, is timed, short
    /// enough that the whole measurement stays within about a tenth of a
    /// millisecond (the figures behind both: docs/lanes.md).
    const BYTES: usize = 512;
    const ROUNDS: usize = 16;
    struct Time(usize);
    impl<const W: usize> LaneJob<W> for Time {
        type Output = f64;
        fn run<const L: usize, K: LaneKernel<W, L>>(self, kernel: K) -> f64 {
            let data = [0x5au8; BYTES];
            let data = &data[..];
            let mut state = LaneState::<W, L>::new();
            let mut best = f64::MAX;
            for _ in 0..self.0 {
                let t = std::time::Instant::now();
                kernel.compress(&mut state, [data; L], [8 * W as u64; L]);
                best = best.min(t.elapsed().as_nanos() as f64);
            }
            best / L as f64
        }
    }
    // A first call of each to fault in code and data, then alternate.
    choice.run_lanes::<W, _>(false, Time(1));
    choice.run_lanes::<W, _>(true, Time(1));
    let (mut one, mut two) = (f64::MAX, f64::MAX);
    for _ in 0..ROUNDS {
        one = one.min(choice.run_lanes::<W, _>(false, Time(1)));
        two = two.min(choice.run_lanes::<W, _>(true, Time(1)));
    }
    // The interleaved form must win clearly: a noisy tie keeps the form
    // with fewer spills.
    two < 0.95 * one
}
