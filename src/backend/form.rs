//! Which form of a multi-lane kernel runs ([`LaneForm`]: one group of
//! lanes per call, two interleaved groups, or a group and a scalar lane,
//! as the instruction set has them). The fastest form depends on the core
//! and the state size (register pressure, which ports the vector and the
//! integer work share), so it is timed once per backend and state size at
//! first use (docs/lanes.md); tests force a form per thread.

use super::lanes::{LaneForm, Workload};
#[cfg(feature = "std")]
use super::lanes::{LaneJob, LaneKernel, LaneState, MessageRun};
#[cfg(feature = "std")]
use super::Backend;
use super::Choice;
#[cfg(feature = "std")]
use crate::spec::T1_FIRST;

/// The forms of `backend`'s multi-lane kernel here, the one-group form
/// first, or none (see `Backend::lane_forms`).
#[cfg(feature = "test-hooks")]
pub(super) fn forms(backend: Backend) -> &'static [LaneForm] {
    Choice::of(backend).map_or(&[], Choice::forms)
}

#[cfg(feature = "std")]
std::thread_local! {
    /// The form a test forces on this thread (`Platform::with_lane_form`).
    static FORCED_FORM: core::cell::Cell<Option<LaneForm>> = const { core::cell::Cell::new(None) };
}

impl Choice {
    /// The form a test forces on this thread, if any.
    pub(super) fn forced_form() -> Option<LaneForm> {
        #[cfg(feature = "std")]
        return FORCED_FORM.with(core::cell::Cell::get);
        #[cfg(not(feature = "std"))]
        None
    }
}

/// Run `f` with every lane kernel chosen on this thread in `form` (the
/// one-group form for kernels without it). The test hook behind
/// `Platform::with_lane_form`.
#[cfg(feature = "test-hooks")]
pub(super) fn with_form<R>(form: LaneForm, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<LaneForm>);
    impl Drop for Restore {
        fn drop(&mut self) {
            FORCED_FORM.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FORCED_FORM.with(|c| c.replace(Some(form))));
    f()
}

impl Choice {
    /// The fastest form of `choice`'s kernel on this CPU for a state of `W`
    /// words and `work`: register pressure and the ports that the vector
    /// and the integer work share decide, and those differ by state size
    /// and core (docs/lanes.md). Measured once per backend, state size,
    /// workload and process (every form on the same few blocks, best of a
    /// few rounds; what that costs a process: docs/lanes.md), then cached.
    /// Results never depend on it, only speed. Without `std` (no clock)
    /// the one-group form.
    pub(super) fn form_measured<const W: usize>(self, work: Workload) -> LaneForm {
        let choice = self;
        #[cfg(feature = "std")]
        {
            use core::sync::atomic::{AtomicU8, Ordering};
            // Per workload, backend and state size: 0 not measured yet,
            // else 1 + the form's index in `choice.forms()`.
            static MEASURED: [[[AtomicU8; 3]; Backend::ALL.len()]; 2] =
                [const { [const { [const { AtomicU8::new(0) }; 3] }; Backend::ALL.len()] }; 2];
            let index = Backend::ALL
                .iter()
                .position(|&b| b == choice.backend())
                .expect("a backend of the table");
            let cell = &MEASURED[work as usize][index][W.trailing_zeros() as usize - 2];
            let forms = choice.forms();
            match cell.load(Ordering::Relaxed) {
                0 => {
                    let best = measure_forms::<W>(choice, work);
                    let at = forms
                        .iter()
                        .position(|&f| f == best)
                        .expect("a form of the kernel");
                    cell.store(at as u8 + 1, Ordering::Relaxed);
                    best
                }
                i => forms[usize::from(i) - 1],
            }
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = (choice, work);
            LaneForm::OneGroup
        }
    }
}

/// Time every form of `choice`'s kernel on `work` with blocks of `W`
/// words: nanoseconds per lane, best of a few alternating rounds; the
/// fastest form, where another form than the one-group form must be at
/// least 5% faster than it.
#[cfg(feature = "std")]
fn measure_forms<const W: usize>(choice: Choice, work: Workload) -> LaneForm {
    /// Bytes per lane and call of `Blocks` (16, 8 or 4 blocks): long enough
    /// that the loop, not the call's loads, stores and transposes, is
    /// timed, short enough that the whole measurement stays a small cost at
    /// the first use (the figures behind both: docs/lanes.md).
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
            let mut out = [[0u64; W]; L];
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
    let forms = choice.forms();
    let mut best = [f64::MAX; 3];
    for &form in forms {
        choice.run_lanes::<W, _>(form, Time(work));
    }
    for _ in 0..ROUNDS {
        for (i, &form) in forms.iter().enumerate() {
            best[i] = best[i].min(choice.run_lanes::<W, _>(form, Time(work)));
        }
    }
    // Another form must win clearly: a noisy tie keeps the form with fewer
    // spills. On short messages more clearly still: timed alone, the kernel
    // calls understate what the one-group form gains in a batch, where
    // back-to-back calls of independent groups overlap in the core
    // (measured: docs/lanes.md, "The forms of each x86 kernel, chosen per
    // CPU").
    let margin = match work {
        Workload::Blocks => 0.95,
        Workload::ShortMessages => 0.90,
    };
    let mut pick = 0;
    for i in 1..forms.len() {
        if best[i] < margin * best[0] && best[i] < best[pick] {
            pick = i;
        }
    }
    forms[pick]
}
