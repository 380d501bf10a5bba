//! `backend_table!`: everything that lists the backends, generated from the
//! one table in `backend/mod.rs`.
//!
//! Each row names a variant of [`Backend`](super::Backend), its name, the
//! module of its single-stream block function and the `cfg` under which that
//! module is built, its rank for the automatic single-stream choice, and,
//! when its instruction set has a multi-lane kernel, that kernel's module,
//! the `cfg` under which it is built (within the first), its rank for the automatic multi-lane
//! choice (a pattern binds the token, for a rank that depends on the CPU),
//! and, where it has one, the module of its interleaved form (two
//! independent groups of lanes per call, `interleaved_lane_kernel!`).
//! Rank 0 means "only when forced"; the highest rank this CPU runs wins.
//!
//! Generated: `Backend` with `ALL` and `name`; `Choice`, a backend with its
//! detection token, with `of`, `backend`, the single-stream dispatch
//! (`compress_256/512/1024`), the ranks, the lane count and the dispatch of
//! lane jobs.

macro_rules! backend_table {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal,
        $($module:ident)::+ if cfg($($cfg:tt)*),
        auto $rank:expr
        $(, lanes $($lanes:ident)::+ if cfg($($lanes_cfg:tt)*), auto($token:pat) $lane_rank:expr
            $(, interleaved $($pair:ident)::+)?)?
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
            /// Every backend this crate knows, available here or not.
            pub const ALL: [Backend; [$($name),*].len()] = [$(Backend::$variant),*];

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
                        Backend::$variant => $($module)::+::Token::detect().map(Choice::$variant),
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

            #[inline]
            fn compress_256(self, chain: &mut [u64; 4], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
                match self {
                    $(
                        #[cfg($($cfg)*)]
                        Choice::$variant(t) => $($module)::+::compress_256(t, chain, tweak, blocks, bytes_per_block),
                    )*
                }
            }

            #[inline]
            fn compress_512(self, chain: &mut [u64; 8], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
                match self {
                    $(
                        #[cfg($($cfg)*)]
                        Choice::$variant(t) => $($module)::+::compress_512(t, chain, tweak, blocks, bytes_per_block),
                    )*
                }
            }

            #[inline]
            fn compress_1024(self, chain: &mut [u64; 16], tweak: &mut [u64; 2], blocks: &[u8], bytes_per_block: u64) {
                match self {
                    $(
                        #[cfg($($cfg)*)]
                        Choice::$variant(t) => $($module)::+::compress_1024(t, chain, tweak, blocks, bytes_per_block),
                    )*
                }
            }

            /// How many computations one call of this instruction set's
            /// multi-lane kernel advances (`two`: its interleaved form, two
            /// groups of lanes, where it has one); `None` when it has none.
            fn lanes(self, two: bool) -> Option<usize> {
                match self {
                    $($(
                        #[cfg($($lanes_cfg)*)]
                        Choice::$variant(_) => {
                            $(if two {
                                return Some($($pair)::+::LANES);
                            })?
                            let _ = two;
                            Some($($lanes)::+::LANES)
                        }
                    )?)*
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }

            /// Whether the multi-lane kernel has an interleaved form.
            fn has_interleaved(self) -> bool {
                match self {
                    $($(
                        #[cfg($($lanes_cfg)*)]
                        Choice::$variant(_) => false $(|| { let _ = $($pair)::+::LANES; true })?,
                    )?)*
                    #[allow(unreachable_patterns)]
                    _ => false,
                }
            }

            /// Rank for the automatic multi-lane choice (0: forced only).
            fn lane_rank(self) -> u32 {
                match self {
                    $($(
                        #[cfg($($lanes_cfg)*)]
                        Choice::$variant($token) => $lane_rank,
                    )?)*
                    #[allow(unreachable_patterns)]
                    _ => 0,
                }
            }

            /// Run `job` on this instruction set's multi-lane kernel (`two`:
            /// its interleaved form, where it has one).
            fn run_lanes<const W: usize, J: LaneJob<W>>(self, two: bool, job: J) -> J::Output {
                match self {
                    $($(
                        #[cfg($($lanes_cfg)*)]
                        Choice::$variant(t) => {
                            $(if two {
                                return job.run::<{ $($pair)::+::LANES }, _>(
                                    Kernel(t, $($pair)::+::compress_lanes::<W>),
                                );
                            })?
                            let _ = two;
                            job.run::<{ $($lanes)::+::LANES }, _>(
                                Kernel(t, $($lanes)::+::compress_lanes::<W>),
                            )
                        }
                    )?)*
                    #[allow(unreachable_patterns)]
                    _ => unreachable!("a LaneChoice holds an instruction set with a multi-lane kernel"),
                }
            }
        }
    };
}
pub(super) use backend_table;
