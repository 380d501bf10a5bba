//! The clock of the core this runs on, for benchmarks that report cycles
//! per byte: used by `benches/src/bin/many_table.rs` and `tools/bench/peer-bench`.

/// Clock in GHz from a chain of dependent adds (one per cycle on any core
/// this runs on), best of many short trials.
#[cfg(target_arch = "x86_64")]
pub fn clock_ghz() -> f64 {
    let mut best = 0.0f64;
    for _ in 0..40 {
        let n = 200_000u64;
        let mut x = 0u64;
        let t = std::time::Instant::now();
        for _ in 0..n {
            // SAFETY: register arithmetic only.
            unsafe {
                core::arch::asm!(
                    "add {0}, 1", "add {0}, 1", "add {0}, 1", "add {0}, 1",
                    "add {0}, 1", "add {0}, 1", "add {0}, 1", "add {0}, 1",
                    "add {0}, 1", "add {0}, 1", "add {0}, 1", "add {0}, 1",
                    "add {0}, 1", "add {0}, 1", "add {0}, 1", "add {0}, 1",
                    inout(reg) x, options(nomem, nostack),
                );
            }
        }
        std::hint::black_box(x);
        best = best.max(16.0 * n as f64 / t.elapsed().as_nanos() as f64);
    }
    best
}
#[cfg(not(target_arch = "x86_64"))]
pub fn clock_ghz() -> f64 {
    f64::NAN
}
