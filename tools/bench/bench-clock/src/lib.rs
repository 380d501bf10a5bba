//! The clock of the core this runs on, for benchmarks that report cycles
//! per byte: used by `benches/src/bin/many_table.rs` and `tools/bench/peer-bench`.

/// Clock in GHz: the lower of two estimates, each the best of many short
/// trials. A chain of dependent adds (one a cycle) alone is not enough: a
/// core that folds adds at rename runs it faster than its clock (what it
/// read on Intel Xeon VMs is in docs/performance.md). A chain of dependent
/// `imul`s, three cycles each on the Intel Core and AMD Zen cores this
/// project measures on, cannot be folded. (On a core whose `imul` is
/// slower, that estimate, and so the result, is low by the ratio.)
#[cfg(target_arch = "x86_64")]
pub fn clock_ghz() -> f64 {
    add_chain_ghz().min(imul_chain_ghz())
}

/// Cycles per nanosecond of the best of 40 trials of 200,000 runs of an
/// `asm!` chain that takes `$cycles` cycles, its value in `$x` (the
/// chain's register, kept in it by the loop).
#[cfg(target_arch = "x86_64")]
macro_rules! best_rate {
    ($cycles:expr, $x:ident, $chain:expr) => {{
        let n = 200_000u32;
        let mut best = 0.0f64;
        for _ in 0..40 {
            let t = std::time::Instant::now();
            for _ in 0..n {
                $chain;
            }
            best = best.max($cycles * f64::from(n) / t.elapsed().as_nanos() as f64);
        }
        std::hint::black_box($x);
        best
    }};
}

/// 16 dependent adds of a register (not an immediate) per run.
#[cfg(target_arch = "x86_64")]
fn add_chain_ghz() -> f64 {
    let (mut x, one) = (0u64, std::hint::black_box(1u64));
    // SAFETY: register arithmetic only.
    best_rate!(16.0, x, unsafe {
        core::arch::asm!(
            "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}",
            "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}",
            "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}",
            "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}",
            inout(reg) x, in(reg) one, options(nomem, nostack),
        )
    })
}

/// 8 dependent `imul`s (3 cycles each) per run.
#[cfg(target_arch = "x86_64")]
fn imul_chain_ghz() -> f64 {
    let (mut x, k) = (1u64, std::hint::black_box(3u64));
    // SAFETY: register arithmetic only.
    best_rate!(24.0, x, unsafe {
        core::arch::asm!(
            "imul {0}, {1}", "imul {0}, {1}", "imul {0}, {1}", "imul {0}, {1}",
            "imul {0}, {1}", "imul {0}, {1}", "imul {0}, {1}", "imul {0}, {1}",
            inout(reg) x, in(reg) k, options(nomem, nostack),
        )
    })
}

#[cfg(not(target_arch = "x86_64"))]
pub fn clock_ghz() -> f64 {
    f64::NAN
}
