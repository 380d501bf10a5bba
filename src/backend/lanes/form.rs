//! Which form of a multi-lane kernel runs ([`LaneForm`]: one group of
//! lanes per call, two interleaved groups, or a group and a scalar lane,
//! as the instruction set has them). The fastest form depends on the core
//! and the state size (register pressure, vector latency, which ports the
//! vector and the integer work share): each instruction set states its
//! choice as a rule from measurements (`Isa::lane_form`, docs/lanes.md);
//! tests force a form per thread.

use super::{LaneForm, Workload};
use crate::backend::dispatch::choice::WithIsa;
use crate::backend::dispatch::isa::Isa;
#[cfg(skein_simd_test_hooks)]
use crate::backend::Backend;
use crate::backend::Choice;

/// The forms of `backend`'s multi-lane kernel here, the one-group form
/// first, or none (see `Backend::lane_forms`).
#[cfg(skein_simd_test_hooks)]
pub(in crate::backend) fn forms(backend: Backend) -> &'static [LaneForm] {
    Choice::of(backend).map_or(&[], Choice::forms)
}

#[cfg(feature = "std")]
std::thread_local! {
    /// The form a test forces on this thread (`Platform::with_lane_form`).
    static FORCED_FORM: core::cell::Cell<Option<LaneForm>> = const { core::cell::Cell::new(None) };
}

impl Choice {
    /// The form a test forces on this thread, if any.
    pub(in crate::backend) fn forced_form() -> Option<LaneForm> {
        #[cfg(feature = "std")]
        return FORCED_FORM.with(core::cell::Cell::get);
        #[cfg(not(feature = "std"))]
        None
    }
}

/// Run `f` with every lane kernel chosen on this thread in `form` (the
/// one-group form for kernels without it). The test hook behind
/// `Platform::with_lane_form`.
#[cfg(skein_simd_test_hooks)]
pub(in crate::backend) fn with_form<R>(form: LaneForm, f: impl FnOnce() -> R) -> R {
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
    /// The form of this instruction set's kernel for a state of `W` words
    /// and `work`: its rule ([`Isa::lane_form`]), a fixed function of the
    /// state size, the workload and, on x86, the core's vendor and family,
    /// written from measurements (docs/lanes.md), so the same on every run.
    /// Results never depend on it, only speed.
    pub(in crate::backend) fn form_for<const W: usize>(self, work: Workload) -> LaneForm {
        struct Rule(usize, Workload);
        impl WithIsa for Rule {
            type Output = LaneForm;
            fn call<I: Isa>(self, _: I) -> LaneForm {
                let form = I::lane_form(self.0, self.1);
                if I::has_form(form, self.0) {
                    form
                } else {
                    LaneForm::OneGroup
                }
            }
        }
        self.with(Rule(W, work))
    }

    /// `form` where this build has its kernel for a state of `W` words, else
    /// the rule's form for runs of blocks there (a forced form, or the
    /// one-group form for leftovers, at a width whose kernel the instruction
    /// set does not compile).
    pub(in crate::backend) fn compiled_form<const W: usize>(self, form: LaneForm) -> LaneForm {
        struct Compiled(LaneForm, usize);
        impl WithIsa for Compiled {
            type Output = bool;
            fn call<I: Isa>(self, _: I) -> bool {
                !I::FORMS.contains(&self.0) || I::has_form(self.0, self.1)
            }
        }
        if self.with(Compiled(form, W)) {
            form
        } else {
            self.form_for::<W>(Workload::Blocks)
        }
    }
}
