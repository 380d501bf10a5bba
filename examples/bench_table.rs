//! Side-by-side timing of every backend this CPU has and RustCrypto `skein`,
//! interleaved in one process on the same data; driven by `tools/bench.py`,
//! which adds the C reference and the clock and prints the README table.
//!
//! Output: one tab-separated line per (case, implementation):
//! `case  state_bits  output_bits  msg_bytes  impl  ns_per_hash`, where
//! `ns_per_hash` is the best of several interleaved rounds (the least
//! disturbed by other load on a shared machine).
//!
//! Options: `--quick` (fewer rounds, no 16 MiB), `--state 256|512|1024`
//! (only that state size), `--sizes 64,1024,...` (message sizes),
//! `--rounds N`, `--ms N` (target milliseconds per measurement).

use skein::digest::{consts, Digest};
use skein_simd::{Backend, DynSkein, Params, StateSize};
use std::hint::black_box;
use std::time::Instant;

struct Case {
    name: String,
    state: StateSize,
    output_bits: u64,
    len: usize,
}

type HashFn<'a> = Box<dyn Fn(&[u8], &mut [u8]) + 'a>;

fn ours(state: StateSize, output_bits: u64, backend: Backend) -> HashFn<'static> {
    Box::new(move |data, out| {
        let mut h = DynSkein::new(state, &Params::new().output_bits(output_bits).backend(backend)).unwrap();
        h.update(data);
        h.finalize_into(out);
    })
}

fn rustcrypto(state: StateSize, output_bits: u64) -> Option<HashFn<'static>> {
    macro_rules! rc {
        ($t:ty) => {
            Some(Box::new(|data: &[u8], out: &mut [u8]| out.copy_from_slice(&<$t>::digest(data))))
        };
    }
    match (state, output_bits) {
        (StateSize::S256, 256) => rc!(skein::Skein256<consts::U32>),
        (StateSize::S512, 256) => rc!(skein::Skein512<consts::U32>),
        (StateSize::S512, 512) => rc!(skein::Skein512<consts::U64>),
        (StateSize::S1024, 1024) => rc!(skein::Skein1024<consts::U128>),
        _ => None,
    }
}

/// Nanoseconds per call of `f` over a batch of `iters` calls.
fn time_batch(f: &HashFn<'_>, data: &[u8], out: &mut [u8], iters: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..iters {
        f(black_box(data), out);
        black_box(&mut *out);
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let quick = args.iter().any(|a| a == "--quick");
    let rounds: usize = opt("--rounds").map_or(if quick { 3 } else { 7 }, |v| v.parse().unwrap());
    let target_ms: f64 = opt("--ms").map_or(if quick { 10.0 } else { 25.0 }, |v| v.parse().unwrap());
    let sizes: Vec<usize> = opt("--sizes").map_or_else(
        || if quick { vec![64, 1024, 65536] } else { vec![64, 1024, 65536, 16 << 20] },
        |v| v.split(',').map(|s| s.parse().unwrap()).collect(),
    );
    let only_state: Option<u64> = opt("--state").map(|v| v.parse().unwrap());

    let mut cases = Vec::new();
    for state in [StateSize::S256, StateSize::S512, StateSize::S1024] {
        if only_state.is_some_and(|s| s != state.bits()) {
            continue;
        }
        for &len in &sizes {
            cases.push(Case { name: format!("Skein-{}", state.bits()), state, output_bits: state.bits(), len });
        }
        if state == StateSize::S512 && sizes.contains(&64) {
            cases.push(Case { name: "Skein-512-256 one-shot".into(), state, output_bits: 256, len: 64 });
        }
    }

    // Deterministic pseudo-random message bytes (xorshift), the same for everyone.
    let max_len = cases.iter().map(|c| c.len).max().unwrap_or(0);
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let data: Vec<u8> = (0..max_len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();

    let backends: Vec<Backend> = Backend::ALL.into_iter().filter(|b| b.is_available()).collect();
    let auto = skein_simd::Platform::detect();
    eprintln!(
        "backends: {:?}; automatic choice: 256 -> {}, 512 -> {}, 1024 -> {}",
        backends.iter().map(|b| b.name()).collect::<Vec<_>>(),
        auto.backend(256),
        auto.backend(512),
        auto.backend(1024)
    );

    for case in &cases {
        let msg = &data[..case.len];
        let mut contenders: Vec<(String, HashFn<'static>)> =
            backends.iter().map(|&b| (b.name().to_string(), ours(case.state, case.output_bits, b))).collect();
        if let Some(f) = rustcrypto(case.state, case.output_bits) {
            contenders.push(("rustcrypto".into(), f));
        }
        let mut out = vec![0u8; case.output_bits as usize / 8];
        // Everyone must agree before anyone is timed.
        let mut reference = vec![0u8; out.len()];
        contenders[0].1(msg, &mut reference);
        for (name, f) in &contenders {
            f(msg, &mut out);
            assert_eq!(out, reference, "{name} disagrees on {} of {} bytes", case.name, case.len);
        }
        // Calibrate a batch size per contender, then interleave the rounds.
        let iters: Vec<u64> = contenders
            .iter()
            .map(|(_, f)| {
                let ns = time_batch(f, msg, &mut out, 1).max(time_batch(f, msg, &mut out, 3));
                ((target_ms * 1e6 / ns) as u64).clamp(1, 10_000_000)
            })
            .collect();
        let mut best = vec![f64::INFINITY; contenders.len()];
        for _ in 0..rounds {
            for (i, (_, f)) in contenders.iter().enumerate() {
                best[i] = best[i].min(time_batch(f, msg, &mut out, iters[i]));
            }
        }
        for (i, (name, _)) in contenders.iter().enumerate() {
            println!("{}\t{}\t{}\t{}\t{}\t{:.2}", case.name, case.state.bits(), case.output_bits, case.len, name, best[i]);
        }
    }
}
