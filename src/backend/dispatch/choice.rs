//! Dispatch: what a [`Choice`] (a backend with its token) does, written once
//! over the [`Isa`] trait that every backend's token implements.

use super::isa::{BlockRun, Isa};
use crate::backend::lanes::{LaneForm, LaneJob};
use crate::backend::{portable, Backend, Choice};

/// Code generic over the instruction set, run by [`Choice::with`] on the
/// chosen backend's token.
pub(crate) trait WithIsa {
    type Output;
    fn call<I: Isa>(self, isa: I) -> Self::Output;
}

impl Choice {
    /// The portable backend, which needs no detection.
    pub(in crate::backend) fn portable() -> Choice {
        Choice::Portable(portable::Token)
    }

    /// The backend this CPU runs with the highest `rank` (the first in table
    /// order among equals), if any ranks above 0.
    pub(in crate::backend) fn best(rank: impl Fn(Choice) -> u32) -> Option<Choice> {
        let mut best: Option<Choice> = None;
        for choice in Backend::ALL.iter().copied().filter_map(Choice::of) {
            if rank(choice) > best.map_or(0, &rank) {
                best = Some(choice);
            }
        }
        best
    }

    /// The single-stream block function ([`Isa::compress`]).
    #[inline]
    pub(in crate::backend) fn compress<const W: usize>(
        self,
        chain: &mut [u64; W],
        tweak: &mut [u64; 2],
        blocks: &[u8],
        bytes_per_block: u64,
    ) {
        struct Compress<'a, const W: usize>(BlockRun<'a, W>);
        impl<const W: usize> WithIsa for Compress<'_, W> {
            type Output = ();
            #[inline(always)]
            fn call<I: Isa>(self, isa: I) {
                isa.compress::<W>(self.0)
            }
        }
        let run = BlockRun {
            chain,
            tweak,
            blocks,
            bytes_per_block,
        };
        self.with(Compress(run))
    }

    /// [`Isa::compress_then_output`].
    #[inline]
    pub(in crate::backend) fn compress_then_output<const W: usize>(
        self,
        run: BlockRun<'_, W>,
        out: &mut [[u8; 8]; W],
    ) {
        struct ThenOutput<'a, 'b, const W: usize>(BlockRun<'a, W>, &'b mut [[u8; 8]; W]);
        impl<const W: usize> WithIsa for ThenOutput<'_, '_, W> {
            type Output = ();
            #[inline(always)]
            fn call<I: Isa>(self, isa: I) {
                isa.compress_then_output::<W>(self.0, self.1)
            }
        }
        self.with(ThenOutput(run, out))
    }

    /// The forms of this instruction set's multi-lane kernel,
    /// [`LaneForm::OneGroup`] first; none when it has no kernel.
    pub(in crate::backend) fn forms(self) -> &'static [LaneForm] {
        struct Forms;
        impl WithIsa for Forms {
            type Output = &'static [LaneForm];
            fn call<I: Isa>(self, _: I) -> &'static [LaneForm] {
                if I::LANES > 0 {
                    I::FORMS
                } else {
                    &[]
                }
            }
        }
        self.with(Forms)
    }

    /// How many computations one call of this instruction set's multi-lane
    /// kernel advances in `form` (the one-group form's count for a form it
    /// does not have); `None` when it has no kernel.
    pub(in crate::backend) fn lanes(self, form: LaneForm) -> Option<usize> {
        struct Lanes(LaneForm);
        impl WithIsa for Lanes {
            type Output = Option<usize>;
            fn call<I: Isa>(self, _: I) -> Option<usize> {
                let form = if I::FORMS.contains(&self.0) {
                    self.0
                } else {
                    LaneForm::OneGroup
                };
                (I::LANES > 0).then_some(form.lanes(I::LANES))
            }
        }
        self.with(Lanes(form))
    }

    /// Run `job` on this instruction set's multi-lane kernel in `form` (the
    /// one-group form for a form it does not have).
    pub(in crate::backend) fn run_lanes<const W: usize, J: LaneJob<W>>(
        self,
        form: LaneForm,
        job: J,
    ) -> J::Output {
        struct Run<J, const W: usize>(LaneForm, J);
        impl<const W: usize, J: LaneJob<W>> WithIsa for Run<J, W> {
            type Output = J::Output;
            #[inline(always)]
            fn call<I: Isa>(self, isa: I) -> J::Output {
                assert!(
                    I::LANES > 0,
                    "a LaneChoice holds an instruction set with lanes"
                );
                isa.run_lanes::<W, J>(self.0, self.1)
            }
        }
        self.with(Run::<J, W>(form, job))
    }
}
