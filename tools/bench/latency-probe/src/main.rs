//! Latency and throughput of the instructions a Threefish round is made of
//! (`vpaddq`, `vpxor(q)`, `vpsllq`, `vpor`, `vpshufb`, `vpsllvq`, and with
//! AVX-512 `vprolq`), on xmm, ymm and (when the CPU exposes AVX-512) zmm,
//! in cycles of the core clock measured by a dependent scalar-add chain
//! (`bench_clock::clock_ghz`, one add per cycle).
//!
//! Latency: one register through a chain of 16 dependent instructions.
//! Throughput: 12 independent chains, instructions per cycle.
//! Best of many short trials; run on an idle core.

#[cfg(target_arch = "x86_64")]
mod probe {
    use core::arch::asm;
    use std::time::Instant;

    /// Loop iterations per trial.
    const ITERS: u64 = 20_000;
    const TRIALS: usize = 60;

    /// Best nanoseconds of one call of `f` over the trials.
    fn best(mut f: impl FnMut()) -> f64 {
        f();
        let mut best = f64::MAX;
        for _ in 0..TRIALS {
            let t = Instant::now();
            f();
            best = best.min(t.elapsed().as_nanos() as f64);
        }
        best
    }

    /// 16 copies of one instruction text.
    macro_rules! x16 {
        ($i:expr) => {
            concat!(
                $i, "\n", $i, "\n", $i, "\n", $i, "\n", $i, "\n", $i, "\n", $i, "\n", $i, "\n", $i,
                "\n", $i, "\n", $i, "\n", $i, "\n", $i, "\n", $i, "\n", $i, "\n", $i, "\n"
            )
        };
    }

    /// The instruction on registers 0..12 (independent) with 15 as source,
    /// `$r` the register prefix; `{d}`-style templates: `$op $r0, $r0, ...`.
    macro_rules! x12 {
        ($op:literal, $r:literal, $tail:literal) => {
            concat!(
                $op, " ", $r, "0, ", $r, "0", $tail, "\n", $op, " ", $r, "1, ", $r, "1", $tail,
                "\n", $op, " ", $r, "2, ", $r, "2", $tail, "\n", $op, " ", $r, "3, ", $r, "3",
                $tail, "\n", $op, " ", $r, "4, ", $r, "4", $tail, "\n", $op, " ", $r, "5, ", $r,
                "5", $tail, "\n", $op, " ", $r, "6, ", $r, "6", $tail, "\n", $op, " ", $r, "7, ",
                $r, "7", $tail, "\n", $op, " ", $r, "8, ", $r, "8", $tail, "\n", $op, " ", $r,
                "9, ", $r, "9", $tail, "\n", $op, " ", $r, "10, ", $r, "10", $tail, "\n", $op, " ",
                $r, "11, ", $r, "11", $tail, "\n"
            )
        };
    }

    /// A latency and a throughput loop for `$op` on register file `$r`
    /// (`xmm`, `ymm`, `zmm`) with operand tail `$tail` (", xmm15" or ", 7").
    macro_rules! pair {
        ($lat:ident, $thr:ident, $feature:literal, $op:literal, $r:literal, $tail:literal) => {
            #[target_feature(enable = $feature)]
            unsafe fn $lat() {
                for _ in 0..ITERS {
                    // SAFETY: register arithmetic only; the clobbered
                    // registers are declared.
                    unsafe {
                        asm!(
                            x16!(concat!($op, " ", $r, "0, ", $r, "0", $tail)),
                            out("xmm0") _, out("xmm15") _,
                            options(nomem, nostack),
                        );
                    }
                }
            }
            #[target_feature(enable = $feature)]
            unsafe fn $thr() {
                for _ in 0..ITERS {
                    // SAFETY: register arithmetic only; the clobbered
                    // registers are declared.
                    unsafe {
                        asm!(
                            x12!($op, $r, $tail),
                            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                            out("xmm15") _,
                            options(nomem, nostack),
                        );
                    }
                }
            }
        };
    }

    pair!(add_x_lat, add_x_thr, "avx2", "vpaddq", "xmm", ", xmm15");
    pair!(add_y_lat, add_y_thr, "avx2", "vpaddq", "ymm", ", ymm15");
    pair!(xor_x_lat, xor_x_thr, "avx2", "vpxor", "xmm", ", xmm15");
    pair!(xor_y_lat, xor_y_thr, "avx2", "vpxor", "ymm", ", ymm15");
    pair!(or_x_lat, or_x_thr, "avx2", "vpor", "xmm", ", xmm15");
    pair!(or_y_lat, or_y_thr, "avx2", "vpor", "ymm", ", ymm15");
    pair!(sll_x_lat, sll_x_thr, "avx2", "vpsllq", "xmm", ", 7");
    pair!(sll_y_lat, sll_y_thr, "avx2", "vpsllq", "ymm", ", 7");
    pair!(srl_y_lat, srl_y_thr, "avx2", "vpsrlq", "ymm", ", 7");
    pair!(mul_y_lat, mul_y_thr, "avx2", "vpmuludq", "ymm", ", ymm15");
    pair!(shufd_y_lat, shufd_y_thr, "avx2", "vpshufd", "ymm", ", 0x4e");
    pair!(sllv_y_lat, sllv_y_thr, "avx2", "vpsllvq", "ymm", ", ymm15");
    pair!(
        shufb_y_lat,
        shufb_y_thr,
        "avx2",
        "vpshufb",
        "ymm",
        ", ymm15"
    );
    pair!(add_z_lat, add_z_thr, "avx512f", "vpaddq", "zmm", ", zmm15");
    pair!(xor_z_lat, xor_z_thr, "avx512f", "vpxorq", "zmm", ", zmm15");
    pair!(or_z_lat, or_z_thr, "avx512f", "vporq", "zmm", ", zmm15");
    pair!(sll_z_lat, sll_z_thr, "avx512f", "vpsllq", "zmm", ", 7");
    pair!(
        rol_x_lat,
        rol_x_thr,
        "avx512f,avx512vl",
        "vprolq",
        "xmm",
        ", 7"
    );
    pair!(
        rol_y_lat,
        rol_y_thr,
        "avx512f,avx512vl",
        "vprolq",
        "ymm",
        ", 7"
    );
    pair!(rol_z_lat, rol_z_thr, "avx512f", "vprolq", "zmm", ", 7");

    /// Two instructions alternating on 12 independent registers: whether
    /// they share a pipe (`$a` on even registers, `$b` on odd ones).
    macro_rules! mixed {
        ($name:ident, $a:literal, $at:literal, $b:literal, $bt:literal) => {
            #[target_feature(enable = "avx2")]
            unsafe fn $name() {
                for _ in 0..ITERS {
                    // SAFETY: register arithmetic only; the clobbered
                    // registers are declared.
                    unsafe {
                        asm!(
                            concat!(
                                $a, " ymm0, ymm0", $at, "\n", $b, " ymm1, ymm1", $bt, "\n",
                                $a, " ymm2, ymm2", $at, "\n", $b, " ymm3, ymm3", $bt, "\n",
                                $a, " ymm4, ymm4", $at, "\n", $b, " ymm5, ymm5", $bt, "\n",
                                $a, " ymm6, ymm6", $at, "\n", $b, " ymm7, ymm7", $bt, "\n",
                                $a, " ymm8, ymm8", $at, "\n", $b, " ymm9, ymm9", $bt, "\n",
                                $a, " ymm10, ymm10", $at, "\n", $b, " ymm11, ymm11", $bt, "\n",
                            ),
                            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                            out("xmm15") _,
                            options(nomem, nostack),
                        );
                    }
                }
            }
        };
    }
    mixed!(sll_mul, "vpsllq", ", 7", "vpmuludq", ", ymm15");
    mixed!(sll_srl, "vpsllq", ", 7", "vpsrlq", ", 7");
    mixed!(sll_shufb, "vpsllq", ", 7", "vpshufb", ", ymm15");
    mixed!(sll_shufd, "vpsllq", ", 7", "vpshufd", ", 0x4e");
    mixed!(sll_add, "vpsllq", ", 7", "vpaddq", ", ymm15");

    /// The reference: 16 dependent scalar adds per iteration (1 cycle each).
    fn scalar() {
        let mut x = 0u64;
        for _ in 0..ITERS {
            // SAFETY: register arithmetic only.
            unsafe { asm!(x16!("add {0}, 1"), inout(reg) x, options(nomem, nostack)) };
        }
        std::hint::black_box(x);
    }

    type Probe = (&'static str, &'static str, unsafe fn(), unsafe fn());

    pub fn run() {
        let avx2 = std::arch::is_x86_feature_detected!("avx2");
        let avx512 = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl");
        let ghz = bench_clock::clock_ghz();
        let mut probes: Vec<Probe> = Vec::new();
        if avx2 {
            probes.extend([
                (
                    "vpaddq",
                    "xmm",
                    add_x_lat as unsafe fn(),
                    add_x_thr as unsafe fn(),
                ),
                ("vpaddq", "ymm", add_y_lat, add_y_thr),
                ("vpxor", "xmm", xor_x_lat, xor_x_thr),
                ("vpxor", "ymm", xor_y_lat, xor_y_thr),
                ("vpor", "xmm", or_x_lat, or_x_thr),
                ("vpor", "ymm", or_y_lat, or_y_thr),
                ("vpsllq imm", "xmm", sll_x_lat, sll_x_thr),
                ("vpsllq imm", "ymm", sll_y_lat, sll_y_thr),
                ("vpsrlq imm", "ymm", srl_y_lat, srl_y_thr),
                ("vpmuludq", "ymm", mul_y_lat, mul_y_thr),
                ("vpshufd", "ymm", shufd_y_lat, shufd_y_thr),
                ("vpsllvq", "ymm", sllv_y_lat, sllv_y_thr),
                ("vpshufb", "ymm", shufb_y_lat, shufb_y_thr),
            ] as [Probe; 13]);
        }
        if avx512 {
            probes.extend([
                (
                    "vpaddq",
                    "zmm",
                    add_z_lat as unsafe fn(),
                    add_z_thr as unsafe fn(),
                ),
                ("vpxorq", "zmm", xor_z_lat, xor_z_thr),
                ("vporq", "zmm", or_z_lat, or_z_thr),
                ("vpsllq imm", "zmm", sll_z_lat, sll_z_thr),
                ("vprolq imm", "xmm", rol_x_lat, rol_x_thr),
                ("vprolq imm", "ymm", rol_y_lat, rol_y_thr),
                ("vprolq imm", "zmm", rol_z_lat, rol_z_thr),
            ] as [Probe; 7]);
        }
        println!(
            "clock {ghz:.2} GHz (dependent adds); AVX2 {}, AVX-512F+VL {}",
            if avx2 { "yes" } else { "no" },
            if avx512 {
                "yes"
            } else {
                "hidden or absent: no zmm/vprolq rows"
            }
        );
        if avx2 {
            println!("mixed pairs, ymm, instructions per cycle (12 independent chains):");
            for (name, f) in [
                ("vpsllq + vpmuludq", sll_mul as unsafe fn()),
                ("vpsllq + vpsrlq", sll_srl),
                ("vpsllq + vpshufb", sll_shufb),
                ("vpsllq + vpshufd", sll_shufd),
                ("vpsllq + vpaddq", sll_add),
            ] {
                let add = best(scalar);
                // SAFETY: AVX2 was detected.
                let t = best(|| unsafe { f() });
                let per_add = add / (16.0 * ITERS as f64);
                println!("  {name}: {:.2}", 12.0 * ITERS as f64 / (t / per_add));
            }
        }
        println!("| instruction | register | latency (cycles) | throughput (per cycle) |");
        println!("|---|---|---|---|");
        // Cycles are measured against the scalar chain of the same trial
        // round, so a clock change between probes scales both alike.
        for (name, reg, lat, thr) in probes {
            let add = best(scalar);
            // SAFETY: each probe runs only when its features were detected.
            let l = best(|| unsafe { lat() });
            // SAFETY: as above.
            let t = best(|| unsafe { thr() });
            let per_add = add / (16.0 * ITERS as f64);
            let latency = l / (16.0 * ITERS as f64) / per_add;
            let throughput = (12.0 * ITERS as f64) / (t / per_add);
            println!("| `{name}` | {reg} | {latency:.2} | {throughput:.2} |");
        }
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    probe::run();
    #[cfg(not(target_arch = "x86_64"))]
    eprintln!("latency-probe: x86-64 only");
}
