//! `backend_table!`: everything that lists the backends, generated from the
//! one table in `backend/mod.rs`.
//!
//! A row: a variant of [`Backend`](crate::backend::Backend), its name, the module
//! whose `Token` implements [`Isa`](super::isa::Isa) and its `cfg`, the rank
//! for the automatic single-stream choice and, with a multi-lane kernel, for
//! the multi-lane one (a pattern binds the token, for a rank that depends on
//! the CPU). Rank 0: only when forced; the highest rank this CPU runs wins.
//! Generated: `Backend` (`ALL`, `name`) and `Choice`, a backend with its
//! token (`of`, `backend`, ranks, and `with`, which hands the token to the
//! dispatch written once over `Isa` in `choice.rs`).

macro_rules! backend_table {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal,
        $($module:ident)::+ if cfg($($cfg:tt)*),
        auto $rank:expr
        $(, lanes auto($token:pat) $lane_rank:expr)?
        ;
    )*) => {
        /// A block-function implementation.
        ///
        /// ```
        /// use skein_simd::Backend;
        /// assert!(Backend::Portable.is_available());
        /// assert_eq!(Backend::from_name("portable"), Some(Backend::Portable));
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Backend {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Backend {
            /// Every backend this crate knows, available here or not, in
            /// the order of the backend table (a slice: its type stays the
            /// same when a backend is added).
            pub const ALL: &'static [Backend] = &[$(Backend::$variant),*];

            /// Lower-case name, as accepted by `skeinsum --backend`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Backend::$variant => $name,)*
                }
            }
        }

        /// A backend together with the proof (a token from its module's
        /// detection) that this CPU can run it. Only `Choice::of` makes one,
        /// so holding a `Choice` is what lets the safe dispatch call SIMD code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Choice {
            $(
                #[cfg($($cfg)*)]
                $variant($($module)::+::Token),
            )*
        }

        impl Choice {
            fn of(backend: Backend) -> Option<Choice> {
                match backend {
                    $(
                        #[cfg($($cfg)*)]
                        Backend::$variant => {
                            <$($module)::+::Token as $crate::backend::dispatch::isa::Isa>::detect()
                                .map(Choice::$variant)
                        }
                    )*
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            fn backend(self) -> Backend {
                match self {
                    $(
                        #[cfg($($cfg)*)]
                        Choice::$variant(_) => Backend::$variant,
                    )*
                }
            }

            /// Rank for the automatic single-stream choice (0: forced only).
            fn rank(self) -> u32 {
                match self {
                    $(
                        #[cfg($($cfg)*)]
                        Choice::$variant(_) => $rank,
                    )*
                }
            }

            /// Rank for the automatic multi-lane choice (0: forced only, or
            /// no multi-lane kernel).
            #[allow(unreachable_code, unused_variables)]
            fn lane_rank(self) -> u32 {
                match self {
                    $(
                        #[cfg($($cfg)*)]
                        Choice::$variant(t) => {
                            $(let $token = t; return $lane_rank;)?
                            0
                        }
                    )*
                }
            }

            /// `f` on this backend's token.
            #[inline(always)]
            fn with<F: $crate::backend::dispatch::choice::WithIsa>(self, f: F) -> F::Output {
                match self {
                    $(
                        #[cfg($($cfg)*)]
                        Choice::$variant(t) => f.call(t),
                    )*
                }
            }
        }
    };
}
pub(crate) use backend_table;
