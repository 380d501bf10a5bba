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
            pub unsafe fn $lat() {
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
            pub unsafe fn $thr() {
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

    /// The instructions a probe needs beyond AVX2: none, or AVX-512F+VL.
    #[derive(Clone, Copy, PartialEq)]
    enum Needs {
        Avx2,
        Avx512,
    }

    /// Instruction, register file, latency loop, throughput loop.
    type Probe = (Needs, &'static str, &'static str, unsafe fn(), unsafe fn());

    /// One row a probe: the instruction sets it needs, their target
    /// features, a name, the table's label, the instruction, its register
    /// file and operand tail. Each becomes a module `name` with `lat` and `thr` (`pair!`),
    /// and a row of `PROBES`.
    macro_rules! probes {
        ($($needs:ident $feature:literal $name:ident $label:literal $op:literal $r:literal $tail:literal;)*) => {
            $(
                mod $name {
                    use super::*;
                    pair!(lat, thr, $feature, $op, $r, $tail);
                }
            )*
            const PROBES: &[Probe] = &[$((Needs::$needs, $label, $r, $name::lat, $name::thr)),*];
        };
    }

    probes! {
        Avx2 "avx2" add_x "vpaddq" "vpaddq" "xmm" ", xmm15";
        Avx2 "avx2" add_y "vpaddq" "vpaddq" "ymm" ", ymm15";
        Avx2 "avx2" xor_x "vpxor" "vpxor" "xmm" ", xmm15";
        Avx2 "avx2" xor_y "vpxor" "vpxor" "ymm" ", ymm15";
        Avx2 "avx2" or_x "vpor" "vpor" "xmm" ", xmm15";
        Avx2 "avx2" or_y "vpor" "vpor" "ymm" ", ymm15";
        Avx2 "avx2" sll_x "vpsllq imm" "vpsllq" "xmm" ", 7";
        Avx2 "avx2" sll_y "vpsllq imm" "vpsllq" "ymm" ", 7";
        Avx2 "avx2" srl_y "vpsrlq imm" "vpsrlq" "ymm" ", 7";
        Avx2 "avx2" mul_y "vpmuludq" "vpmuludq" "ymm" ", ymm15";
        Avx2 "avx2" shufd_y "vpshufd" "vpshufd" "ymm" ", 0x4e";
        Avx2 "avx2" sllv_y "vpsllvq" "vpsllvq" "ymm" ", ymm15";
        Avx2 "avx2" shufb_y "vpshufb" "vpshufb" "ymm" ", ymm15";
        Avx512 "avx512f" add_z "vpaddq" "vpaddq" "zmm" ", zmm15";
        Avx512 "avx512f" xor_z "vpxorq" "vpxorq" "zmm" ", zmm15";
        Avx512 "avx512f" or_z "vporq" "vporq" "zmm" ", zmm15";
        Avx512 "avx512f" sll_z "vpsllq imm" "vpsllq" "zmm" ", 7";
        Avx512 "avx512f,avx512vl" rol_x "vprolq imm" "vprolq" "xmm" ", 7";
        Avx512 "avx512f,avx512vl" rol_y "vprolq imm" "vprolq" "ymm" ", 7";
        Avx512 "avx512f" rol_z "vprolq imm" "vprolq" "zmm" ", 7";
    }

    /// Nanoseconds of one scalar add, from the dependent chain (one add per
    /// cycle), measured in the same trial round as the probe it scales, so
    /// that a clock change between probes scales both alike.
    fn ns_per_cycle() -> f64 {
        best(scalar) / (16.0 * ITERS as f64)
    }

    /// Instructions per cycle of a loop of 12 independent chains that took
    /// `ns` nanoseconds.
    fn per_cycle(ns: f64, ns_per_cycle: f64) -> f64 {
        12.0 * ITERS as f64 / (ns / ns_per_cycle)
    }

    pub fn run() {
        let avx2 = std::arch::is_x86_feature_detected!("avx2");
        let avx512 = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl");
        let ghz = bench_clock::clock_ghz();
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
                let cycle = ns_per_cycle();
                // SAFETY: AVX2 was detected.
                let t = best(|| unsafe { f() });
                println!("  {name}: {:.2}", per_cycle(t, cycle));
            }
        }
        println!("| instruction | register | latency (cycles) | throughput (per cycle) |");
        println!("|---|---|---|---|");
        let detected = |needs| match needs {
            Needs::Avx2 => avx2,
            Needs::Avx512 => avx512,
        };
        for &(_, name, reg, lat, thr) in PROBES.iter().filter(|p| detected(p.0)) {
            let cycle = ns_per_cycle();
            // SAFETY: each probe runs only when its features were detected.
            let l = best(|| unsafe { lat() });
            // SAFETY: as above.
            let t = best(|| unsafe { thr() });
            let latency = l / (16.0 * ITERS as f64) / cycle;
            println!(
                "| `{name}` | {reg} | {latency:.2} | {:.2} |",
                per_cycle(t, cycle)
            );
        }
    }
}

fn main() {
    #[cfg(target_arch = "x86_64")]
    probe::run();
    #[cfg(not(target_arch = "x86_64"))]
    eprintln!("latency-probe: x86-64 only");
}
