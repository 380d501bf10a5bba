//! The checks of the library's internals (`skein_simd::internal_checks`,
//! cfg `skein_simd_test_hooks`), each defined beside the code it checks: the
//! scheduler and the output stage on lanes against the single-stream code,
//! every lane kernel (and both NEON kernels) against `portable`, forced
//! backends reaching their own kernels, continuations past 2^64, the x86-64
//! assembly against `portable`. The library has no unit-test harness, so a
//! test build compiles it once; the `cfg`s are the library's (its build
//! script sets them for this suite too).

use skein_simd::internal_checks as checks;

macro_rules! check_tests {
    ($($(#[$attr:meta])* $module:ident::$name:ident),* $(,)?) => {$(
        #[test]
        $(#[$attr])*
        fn $name() {
            checks::$module::$name()
        }
    )*};
}

check_tests! {
    backend::forced_backend_picks_its_own_lane_kernel,
    backend::forced_form_runs_its_lanes,
    many::continuations_at_positions_past_2_pow_64,
    output::chunked_reads_match_finalize,
    params::owned_setters_keep_the_callers_buffers,
    #[should_panic(expected = "whole blocks")]
    hazmat::compress_rejects_partial_blocks,
    hazmat::config_chain_matches_the_precomputed_ivs_when_computed,
    schedule::every_kernel_matches_portable_per_lane,
    tree::forced_backend_reaches_tree_leaves,
    tree::stopping_batching_midway_keeps_the_digest,
    tree::leaves_without_buffers_keep_the_digest,
    ubi::output_stage_on_lanes_matches_sequential,
    ubi::scheduler_every_lane_count,
}

#[cfg(skein_simd_aarch64)]
check_tests! {
    neon::both_kernels_match_portable,
}

#[cfg(skein_simd_riscv)]
check_tests! {
    rvv::detection_matches_the_cpu,
}

#[cfg(skein_simd_x86)]
check_tests! {
    asm::asm_matches_portable_256,
    asm::asm_matches_portable_512,
    asm::asm_matches_portable_1024,
}
