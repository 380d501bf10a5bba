//! skein-simd against its peers, interleaved in one process on the same data:
//! the reference-derived C of crates.io `skein-ffi` 0.5.0 (one-shot
//! `skein_hash`), RustCrypto `skein` 0.2 and 0.1, Botan 2 (Skein-512, when
//! built), and skein-simd through its public API (automatic choice, every
//! backend forced, the one-shot `digest_into`, and `hash_many` over a batch
//! of copies of the message, per message). `tools/bench/bench.py` runs it,
//! adds pyskein, prints tables and writes the CSV the chart is drawn from:
//!
//!     cargo fetch --manifest-path tools/bench/peer-bench/Cargo.toml
//!     cargo run --release --manifest-path tools/bench/peer-bench/Cargo.toml -- --quick
//!
//! Output, one tab-separated line per (case, implementation):
//! `case  state_bits  output_bits  msg_bytes  impl  ns_per_hash`, the best of
//! several interleaved rounds (the least disturbed on a shared machine), and
//! one line `clock_ghz  X` from `bench-clock` (the lower of a dependent-add
//! and a dependent-imul chain's estimates).
//!
//! Options: `--quick` (no 16 MiB), `--sizes 64,1024,...`, `--rounds N`,
//! `--ms N` (milliseconds per measurement), `--only SUBSTRING` (cases).

use skein_simd::{Backend, Params, Skein};
use std::hint::black_box;
use std::time::Instant;

type HashFn = Box<dyn Fn(&[u8], &mut [u8])>;

extern "C" {
    /// `c_skein.c`: Skein-512 for `hashbitlen <= 512`, Skein-1024 above.
    fn skein_hash(hashbitlen: i32, data: *const u8, databitlen: usize, hashval: *mut u8) -> i32;
}

fn reference_c(output_bits: u64) -> HashFn {
    Box::new(move |data, out| {
        // SAFETY: `data` is readable for `8 * len` bits and `out` holds the
        // `output_bits / 8` bytes skein_hash writes (checked by the caller).
        let r = unsafe {
            skein_hash(
                output_bits as i32,
                data.as_ptr(),
                data.len() * 8,
                out.as_mut_ptr(),
            )
        };
        assert_eq!(r, 0);
    })
}

#[cfg(botan)]
mod botan {
    extern "C" {
        fn botan_skein_new(name: *const std::ffi::c_char) -> *mut std::ffi::c_void;
        fn botan_skein_hash(h: *mut std::ffi::c_void, data: *const u8, len: usize, out: *mut u8);
        fn botan_skein_output_len(h: *mut std::ffi::c_void) -> usize;
    }

    /// Botan's `Skein-512(bits)`: one hash object, reused (see botan_shim.cpp).
    pub fn skein512(output_bits: u64) -> super::HashFn {
        let name = std::ffi::CString::new(format!("Skein-512({output_bits})")).unwrap();
        // SAFETY: a valid C string; the shim throws (aborts) on unknown names.
        let h = unsafe { botan_skein_new(name.as_ptr()) } as usize;
        assert_eq!(
            // SAFETY: `h` is a live object made above and never freed.
            unsafe { botan_skein_output_len(h as *mut _) } as u64,
            output_bits / 8
        );
        Box::new(move |data, out| {
            assert_eq!(out.len() as u64, output_bits / 8);
            // SAFETY: `h` lives for the process; `out` has the output length.
            unsafe { botan_skein_hash(h as *mut _, data.as_ptr(), data.len(), out.as_mut_ptr()) }
        })
    }
}

/// skein-simd the way a user calls it: `new` (or `with_params` to force a
/// backend), `update`, `finalize_into`.
fn ours<const W: usize>(output_bits: u64, backend: Option<Backend>) -> HashFn {
    Box::new(move |data, out| {
        let mut h = match backend {
            None => Skein::<W>::new(output_bits),
            Some(b) => {
                Skein::<W>::with_params(&Params::new().output_bits(output_bits).backend(b)).unwrap()
            }
        };
        h.update(data);
        h.finalize_into(out);
    })
}

/// Name of the `hash_many` contender; its time is per message.
const MANY: &str = "skein-simd hash_many";
/// Messages per `hash_many` call: enough to fill every lane of the widest
/// kernel twice.
const MANY_BATCH: usize = 32;
/// No `hash_many` contender above this message size (a batch of 16 MiB
/// messages would take seconds per call).
const MANY_MAX_LEN: usize = 1 << 20;

/// `SkeinMany::hash_many_into` over `MANY_BATCH` copies of the message, one
/// thread (this harness builds skein-simd without rayon), automatic kernel;
/// writes the first digest. Its time is divided by `MANY_BATCH` when printed.
fn many_per_message<const W: usize>(output_bits: u64) -> HashFn {
    let many =
        skein_simd::SkeinMany::<W>::with_params(&Params::new().output_bits(output_bits)).unwrap();
    let sums = std::cell::RefCell::new(vec![0u8; MANY_BATCH * many.output_len()]);
    Box::new(move |data, out| {
        let batch = [data; MANY_BATCH];
        let mut sums = sums.borrow_mut();
        many.hash_many_into(&batch, &mut sums);
        out.copy_from_slice(&sums[..out.len()]);
    })
}

fn rustcrypto(state: u64, output_bits: u64, version: u8) -> Option<HashFn> {
    macro_rules! rc {
        ($t:ty, $digest:path) => {{
            use $digest;
            Some(
                Box::new(|data: &[u8], out: &mut [u8]| out.copy_from_slice(&<$t>::digest(data)))
                    as HashFn,
            )
        }};
    }
    use skein01::consts as c1;
    match (version, state, output_bits) {
        (1, 256, 256) => rc!(skein01::Skein256<c1::U32>, skein01::Digest),
        (1, 512, 256) => rc!(skein01::Skein512<c1::U32>, skein01::Digest),
        (1, 512, 512) => rc!(skein01::Skein512<c1::U64>, skein01::Digest),
        (1, 1024, 1024) => rc!(skein01::Skein1024<c1::U128>, skein01::Digest),
        (2, 256, 256) => rc!(skein02::Skein256_256, skein02::Digest),
        (2, 512, 256) => rc!(skein02::Skein512_256, skein02::Digest),
        (2, 512, 512) => rc!(skein02::Skein512_512, skein02::Digest),
        (2, 1024, 1024) => rc!(skein02::Skein1024_1024, skein02::Digest),
        _ => None,
    }
}

use bench_clock::clock_ghz;

/// Nanoseconds per call of `f` over a batch of `iters` calls.
fn time_batch(f: &HashFn, data: &[u8], out: &mut [u8], iters: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..iters {
        f(black_box(data), out);
        black_box(&mut *out);
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

struct Case {
    name: String,
    state: u64,
    output_bits: u64,
    len: usize,
    contenders: Vec<(String, HashFn)>,
}

fn plain_case(state: u64, output_bits: u64, len: usize, backends: &[Backend]) -> Case {
    let mut contenders: Vec<(String, HashFn)> = Vec::new();
    let ours_of = |b| match state {
        256 => ours::<4>(output_bits, b),
        512 => ours::<8>(output_bits, b),
        _ => ours::<16>(output_bits, b),
    };
    contenders.push(("skein-simd".into(), ours_of(None)));
    let oneshot: HashFn = match state {
        256 => Box::new(move |data, out| Skein::<4>::hash_into(output_bits, data, out)),
        512 => Box::new(move |data, out| Skein::<8>::hash_into(output_bits, data, out)),
        _ => Box::new(move |data, out| Skein::<16>::hash_into(output_bits, data, out)),
    };
    contenders.push(("skein-simd digest_into".into(), oneshot));
    for &b in backends {
        contenders.push((format!("skein-simd/{}", b.name()), ours_of(Some(b))));
    }
    if len <= MANY_MAX_LEN {
        let many: HashFn = match state {
            256 => many_per_message::<4>(output_bits),
            512 => many_per_message::<8>(output_bits),
            _ => many_per_message::<16>(output_bits),
        };
        contenders.push((MANY.into(), many));
    }
    // skein_hash picks Skein-512 up to 512 bits of output, Skein-1024 above.
    if (state == 512 && output_bits <= 512) || (state == 1024 && output_bits > 512) {
        contenders.push(("skein-ffi C".into(), reference_c(output_bits)));
    }
    for v in [2, 1] {
        if let Some(f) = rustcrypto(state, output_bits, v) {
            contenders.push((format!("RustCrypto 0.{v}"), f));
        }
    }
    #[cfg(botan)]
    if state == 512 {
        contenders.push(("Botan 2".into(), botan::skein512(output_bits)));
    }
    Case {
        name: format!("Skein-{state}-{output_bits}"),
        state,
        output_bits,
        len,
        contenders,
    }
}

/// The ZFS pattern: Skein-512-256 keyed with a per-pool salt, the keyed
/// state made once and cloned for every 128 KiB block; beside it the unkeyed
/// hash of the same block (the target: no more costly).
fn zfs_case(backends: &[Backend]) -> Case {
    let salt: [u8; 32] = core::array::from_fn(|i| i as u8 * 7 + 1);
    let mut contenders: Vec<(String, HashFn)> = Vec::new();
    let template = |b: Option<Backend>| {
        let mut p = Params::new().output_bits(256).key(&salt);
        if let Some(b) = b {
            p = p.backend(b);
        }
        let t = Skein::<8>::with_params(&p).unwrap();
        Box::new(move |data: &[u8], out: &mut [u8]| {
            let mut h = t.clone();
            h.update(data);
            h.finalize_into(out);
        }) as HashFn
    };
    contenders.push(("skein-simd keyed template clone".into(), template(None)));
    contenders.push(("skein-simd unkeyed".into(), ours::<8>(256, None)));
    for &b in backends {
        contenders.push((
            format!("skein-simd/{} keyed template clone", b.name()),
            template(Some(b)),
        ));
    }
    Case {
        name: "ZFS Skein-512-256 salted, 128 KiB".into(),
        state: 512,
        output_bits: 256,
        len: 128 << 10,
        contenders,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let quick = args.iter().any(|a| a == "--quick");
    let rounds: usize = opt("--rounds").map_or(if quick { 3 } else { 7 }, |v| v.parse().unwrap());
    let target_ms: f64 =
        opt("--ms").map_or(if quick { 10.0 } else { 25.0 }, |v| v.parse().unwrap());
    let sizes: Vec<usize> = opt("--sizes").map_or_else(
        || {
            if quick {
                vec![64, 1024]
            } else {
                vec![64, 1024, 16 << 20]
            }
        },
        |v| v.split(',').map(|s| s.parse().unwrap()).collect(),
    );
    let only = opt("--only");

    let backends: Vec<Backend> = Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    let auto = skein_simd::Platform::detect();
    eprintln!(
        "backends: {:?}; automatic choice: {}",
        backends.iter().map(|b| b.name()).collect::<Vec<_>>(),
        auto.backend()
    );

    let mut cases = Vec::new();
    for (state, output_bits) in [(512, 256), (512, 512), (1024, 1024), (256, 256)] {
        for &len in &sizes {
            cases.push(plain_case(state, output_bits, len, &backends));
        }
    }
    if !quick {
        cases.push(zfs_case(&backends));
    }
    cases.retain(|c| only.as_ref().is_none_or(|o| c.name.contains(o.as_str())));

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

    let mut ghz = clock_ghz();
    for case in &cases {
        let msg = &data[..case.len];
        let mut out = vec![0u8; case.output_bits as usize / 8];
        // Everyone must agree before anyone is timed (the ZFS case compares
        // keyed with keyed only).
        let mut reference = vec![0u8; out.len()];
        case.contenders[0].1(msg, &mut reference);
        for (name, f) in &case.contenders {
            if case.name.starts_with("ZFS") && name.contains("unkeyed") {
                continue;
            }
            f(msg, &mut out);
            assert_eq!(
                out, reference,
                "{name} disagrees on {} of {} bytes",
                case.name, case.len
            );
        }
        let iters: Vec<u64> = case
            .contenders
            .iter()
            .map(|(_, f)| {
                let ns = time_batch(f, msg, &mut out, 1).max(time_batch(f, msg, &mut out, 3));
                ((target_ms * 1e6 / ns) as u64).clamp(1, 10_000_000)
            })
            .collect();
        let mut best = vec![f64::INFINITY; case.contenders.len()];
        for _ in 0..rounds {
            for (i, (_, f)) in case.contenders.iter().enumerate() {
                best[i] = best[i].min(time_batch(f, msg, &mut out, iters[i]));
            }
        }
        for (i, (name, _)) in case.contenders.iter().enumerate() {
            let per_message = if name == MANY {
                best[i] / MANY_BATCH as f64
            } else {
                best[i]
            };
            println!(
                "{}\t{}\t{}\t{}\t{}\t{:.2}",
                case.name, case.state, case.output_bits, case.len, name, per_message
            );
        }
        ghz = ghz.max(clock_ghz());
    }
    println!("clock_ghz\t{ghz:.3}");
}
