//! The `#[target_feature]` glue of a backend, written once: the entry of a
//! multi-lane kernel compiled with a backend's features ([`lane_entry!`])
//! and a whole backend from its token, block function and row type
//! ([`feature_backend!`]). The traits they implement are in `isa.rs`; the
//! kernel they compile is `lanes/kernel.rs`.

/// The `#[target_feature]` entry of a multi-lane kernel, written once:
/// `$name::<R, L, W>(call)` runs `lanes::kernel::run` on rows `R` compiled
/// with `$features`.
///
/// # Safety (of the function it writes)
/// The CPU has `$features`.
#[cfg_attr(
    not(any(
        skein_simd_x86,
        skein_simd_powerpc,
        skein_simd_aarch64,
        skein_simd_riscv
    )),
    allow(unused_macros)
)]
macro_rules! lane_entry {
    ($name:ident, $features:literal) => {
        /// # Safety
        #[doc = concat!("The CPU has ", $features, ".")]
        #[target_feature(enable = $features)]
        unsafe fn $name<
            R: $crate::backend::dispatch::isa::Row<L>,
            const L: usize,
            const W: usize,
        >(
            call: $crate::backend::lanes::LaneCall<'_, W, L>,
        ) {
            // SAFETY: the caller's.
            unsafe { $crate::backend::lanes::kernel::run::<R, L, W>(call) }
        }
    };
}
#[cfg_attr(
    not(any(
        skein_simd_x86,
        skein_simd_powerpc,
        skein_simd_aarch64,
        skein_simd_riscv
    )),
    allow(unused_imports)
)]
pub(crate) use lane_entry;

/// A backend whose detection token proves one set of target features, with
/// a [`SingleStream`](super::isa::SingleStream) block function and a multi-lane kernel on one row
/// type, written once: the `Token` (`$doc` is its documentation), its
/// [`Isa`](super::isa::Isa) and the `#[target_feature(enable = $features)]` entries that
/// reach the code. `$detect` must be true only where the CPU (and OS) runs
/// `$features`: it is what makes the entries sound. After the lane count,
/// the kernel's other forms ([`LaneForm`](crate::backend::lanes::LaneForm)):
/// `two_groups` ([`TwoGroups`](super::isa::TwoGroups) of two rows), `with_scalar`
/// ([`WithScalar`](super::isa::WithScalar): a row and a scalar lane),
/// `scalar` ([`Scalar`](super::isa::Scalar) alone: one lane); with
/// other forms, `form by $rule;` names the rule that picks one
/// ([`Isa::lane_form`](super::isa::Isa::lane_form)); `compiled $which;`
/// names a `const fn(LaneForm, usize) -> bool` that says which forms'
/// kernels are compiled at which state width (without it, all of them):
/// a kernel the rule never picks then costs no code
/// ([`Isa::has_form`](super::isa::Isa::has_form)).
#[cfg_attr(
    not(any(skein_simd_x86, all(skein_simd_powerpc, target_arch = "powerpc64"))),
    allow(unused_macros)
)]
macro_rules! feature_backend {
    (
        $(#[$doc:meta])*
        token if $detect:expr, features $features:literal;
        single stream $stream:ty;
        lanes $row:ty, $lanes:literal $(, $form:ident)*;
        $(form by $rule:path;)?
        $(compiled $compiled:path;)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) struct Token(());

        impl $crate::backend::dispatch::isa::Isa for Token {
            const LANES: usize = $lanes;
            const FORMS: &'static [$crate::backend::lanes::LaneForm] = &[
                $crate::backend::lanes::LaneForm::OneGroup,
                $($crate::backend::dispatch::feature_glue::feature_backend!(@form $form),)*
            ];

            fn detect() -> Option<Token> {
                ($detect).then_some(Token(()))
            }

            fn has_form(form: $crate::backend::lanes::LaneForm, words: usize) -> bool {
                Self::FORMS.contains(&form) && compiled_kernel(form, words)
            }

            $(
                fn lane_form(
                    words: usize,
                    work: $crate::backend::lanes::Workload,
                ) -> $crate::backend::lanes::LaneForm {
                    $rule(words, work)
                }
            )?

            #[inline]
            fn compress<const W: usize>(self, run: $crate::backend::dispatch::isa::BlockRun<'_, W>) {
                let $crate::backend::dispatch::isa::BlockRun { chain, tweak, blocks, bytes_per_block } = run;
                static ENTRIES: (
                    $crate::backend::dispatch::isa::StreamEntry<4>,
                    $crate::backend::dispatch::isa::StreamEntry<8>,
                    $crate::backend::dispatch::isa::StreamEntry<16>,
                ) = (single_stream::<4>, single_stream::<8>, single_stream::<16>);
                let entry = $crate::backend::dispatch::isa::by_width::<W, $crate::backend::dispatch::isa::StreamEntry<W>, _, _, _>(&ENTRIES);
                // SAFETY: a Token exists only where detection found the features.
                unsafe { entry(chain, tweak, blocks, bytes_per_block) }
            }

            #[inline]
            fn run_lanes<const W: usize, J: $crate::backend::lanes::LaneJob<W>>(
                self,
                form: $crate::backend::lanes::LaneForm,
                job: J,
            ) -> J::Output {
                use $crate::backend::dispatch::isa::{by_width, LaneEntry};
                use $crate::backend::lanes::Kernel;
                let token = self;
                $($crate::backend::dispatch::feature_glue::feature_backend!(@run $form, form, job, token, $row, $lanes);)*
                let _ = form; // the one-group form
                type OneGroup = $row;
                $crate::backend::dispatch::feature_glue::feature_backend!(@entries OneGroup, $lanes, OneGroup, job, token);
            }
        }

        /// Whether the kernel in `form` for a state of `words` words is
        /// compiled (see `feature_backend!`).
        const fn compiled_kernel(form: $crate::backend::lanes::LaneForm, words: usize) -> bool {
            $crate::backend::dispatch::feature_glue::feature_backend!(@compiled form, words $(, $compiled)?)
        }

        /// The single-stream block function with the token's features. Out
        /// of line, one instance per width, so that callers share it (also
        /// where the features are the target's baseline).
        ///
        /// # Safety
        /// The CPU has the features.
        #[target_feature(enable = $features)]
        #[inline(never)]
        unsafe fn single_stream<const W: usize>(
            chain: &mut [u64; W],
            tweak: &mut [u64; 2],
            blocks: &[u8],
            bytes_per_block: u64,
        ) {
            let run = $crate::backend::dispatch::isa::BlockRun { chain, tweak, blocks, bytes_per_block };
            // SAFETY: the caller's.
            unsafe { <$stream as $crate::backend::dispatch::isa::SingleStream>::compress::<W>(run) }
        }

        /// The multi-lane kernel on rows `R` (seam in `backend::lanes`).
        ///
        /// # Panics
        /// If the lanes' blocks or messages differ in length.
        fn lanes<R: $crate::backend::dispatch::isa::Row<L>, const L: usize, const W: usize>(
            _: Token,
            call: $crate::backend::lanes::LaneCall<'_, W, L>,
        ) {
            // SAFETY: the token proves the features.
            unsafe { lanes_with_features::<R, L, W>(call) }
        }

        $crate::backend::dispatch::feature_glue::lane_entry!(lanes_with_features, $features);
    };
    (@form two_groups) => { $crate::backend::lanes::LaneForm::TwoGroups };
    (@form with_scalar) => { $crate::backend::lanes::LaneForm::WithScalar };
    (@form scalar) => { $crate::backend::lanes::LaneForm::Scalar };
    (@compiled $f:ident, $w:ident) => {{
        let _ = ($f, $w);
        true
    }};
    (@compiled $f:ident, $w:ident, $which:path) => { $which($f, $w) };
    // The kernel on rows `$r` of `$l` lanes in form `$form` for the job's
    // width: its entry among those of the widths where it is compiled. A
    // static compiles the functions its value points to, so a `None`
    // (`entry` is evaluated at compile time) leaves that width's kernel out.
    (@entries $r:ty, $l:expr, $form:ident, $job:ident, $token:ident) => {{
        const fn entry<const W: usize>() -> Option<LaneEntry<Token, W, { $l }>> {
            if compiled_kernel($crate::backend::lanes::LaneForm::$form, W) {
                Some(lanes::<$r, { $l }, W> as LaneEntry<Token, W, { $l }>)
            } else {
                None
            }
        }
        static ENTRIES: (
            Option<LaneEntry<Token, 4, { $l }>>,
            Option<LaneEntry<Token, 8, { $l }>>,
            Option<LaneEntry<Token, 16, { $l }>>,
        ) = (entry::<4>(), entry::<8>(), entry::<16>());
        let entry = by_width::<W, Option<LaneEntry<Token, W, { $l }>>, _, _, _>(&ENTRIES)
            .expect("a form's kernel is compiled where the rule picks it");
        return $job.run::<{ $l }, _>(Kernel($token, entry));
    }};
    (@run two_groups, $f:ident, $job:ident, $token:ident, $row:ty, $lanes:literal) => {
        if $f == $crate::backend::lanes::LaneForm::TwoGroups {
            type TwoGroups = $crate::backend::dispatch::isa::TwoGroups<$row, $lanes>;
            $crate::backend::dispatch::feature_glue::feature_backend!(@entries TwoGroups, 2 * $lanes, TwoGroups, $job, $token);
        }
    };
    (@run with_scalar, $f:ident, $job:ident, $token:ident, $row:ty, $lanes:literal) => {
        if $f == $crate::backend::lanes::LaneForm::WithScalar {
            type WithScalar = $crate::backend::dispatch::isa::WithScalar<$row, $lanes>;
            $crate::backend::dispatch::feature_glue::feature_backend!(@entries WithScalar, $lanes + 1, WithScalar, $job, $token);
        }
    };
    (@run scalar, $f:ident, $job:ident, $token:ident, $row:ty, $lanes:literal) => {
        if $f == $crate::backend::lanes::LaneForm::Scalar {
            type Scalar = $crate::backend::dispatch::isa::Scalar;
            $crate::backend::dispatch::feature_glue::feature_backend!(@entries Scalar, 1, Scalar, $job, $token);
        }
    };
}
#[cfg_attr(
    not(any(skein_simd_x86, all(skein_simd_powerpc, target_arch = "powerpc64"))),
    allow(unused_imports)
)]
pub(crate) use feature_backend;
