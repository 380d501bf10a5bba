//! Prints a throughput table for the many-lanes paths, each against plain
//! single-stream hashing measured in the same run:
//! `cargo run --release -p skein-simd-benches --bin many_table [-- --quick] [-- --kernels]`
//! (`--kernels`: only the lane kernel sections).
//!
//! Rows: `hash_many` over 1 KiB messages per multi-lane kernel form (one
//! group of lanes per call, and two interleaved groups where the kernel has
//! that form; one thread and all threads), each kernel form on 16 KiB
//! messages in L2 per state size, 16 KiB against 1 KiB and 256 B messages
//! on the automatic kernel (256 KiB and 2 MiB in all), the ZFS case (Skein-512-256 keyed, 128 KiB blocks), and tree
//! hashing 10,1,255 of a 1 GiB buffer. On x86-64 it also prints the clock
//! (`bench-clock`: the lower of a dependent-add and a dependent-imul chain's
//! estimates) and each one-thread row's
//! cycles per byte at that clock, for comparison with llvm-mca's estimates.

use skein_simd::{
    Backend, LaneForm, Params, Platform, Skein, Skein512, SkeinMany, SkeinMany512, TreeParams,
};
use std::time::Instant;

/// A case of a section: name, bytes processed per call, the work (run in
/// the given thread pool).
type Case<'a> = (String, usize, usize, Box<dyn FnMut() + Send + 'a>);

/// Time the cases of a section round-robin, `runs` rounds after a warm-up,
/// so that a change of machine load hits every case alike; print each one's
/// best throughput, its ratio to the first case (the baseline) and, for one
/// thread, its cycles per byte at `ghz`.
fn race(mut cases: Vec<Case<'_>>, runs: usize, ghz: f64) {
    let pools: Vec<rayon::ThreadPool> = cases.iter().map(|c| pool(c.2)).collect();
    let mut best = vec![f64::MAX; cases.len()];
    for round in 0..=runs {
        for (i, (_, _, _, work)) in cases.iter_mut().enumerate() {
            // Timed on the pool's thread: handing the work over and waking
            // the thread is not the work (what it added to earlier figures:
            // docs/performance.md, "Reproducing other figures").
            let elapsed = pools[i].install(|| {
                let t = Instant::now();
                work();
                t.elapsed().as_secs_f64()
            });
            if round > 0 {
                best[i] = best[i].min(elapsed);
            }
        }
    }
    let rates: Vec<f64> = cases
        .iter()
        .zip(&best)
        .map(|(c, t)| c.1 as f64 / t / 1e9)
        .collect();
    for (case, rate) in cases.iter().zip(&rates) {
        // Cycles per byte of one core, so for one thread only (the clock
        // of a loaded machine is not the idle one measured).
        let cpb = if case.2 == 1 {
            format!("{:.2}", ghz / rate)
        } else {
            "-".into()
        };
        println!(
            "| {:<58} | {:>7.2} | {:>6.2}x | {:>5} |",
            case.0,
            rate,
            rate / rates[0],
            cpb
        );
    }
}

use bench_clock::clock_ghz;

/// Every lane kernel form here: backend and form.
fn lane_forms() -> Vec<(Backend, LaneForm)> {
    Backend::ALL
        .iter()
        .copied()
        .flat_map(|b| b.lane_forms().iter().map(move |&f| (b, f)))
        .collect()
}

/// "x4" for one group of four lanes, "2x4" for two interleaved groups,
/// "x4+1" for a group of four and a scalar lane.
fn form(form: LaneForm, lanes: usize) -> String {
    match form {
        LaneForm::TwoGroups => format!("2x{}", lanes / 2),
        LaneForm::WithScalar => format!("x{}+1", lanes - 1),
        _ => format!("x{lanes}"),
    }
}

/// Skein-(64 W): one stream against every multi-lane kernel, one thread,
/// on messages that stay in L2: 80 of 8 KiB, a whole number of calls of
/// every form (2, 4, 5, 8 and 16 lanes).
fn kernel_section<const W: usize>(runs: usize, ghz: f64) {
    let messages: Vec<Vec<u8>> = (0..80u32).map(|i| vec![i as u8; 8 << 10]).collect();
    let total = messages.len() << 13;
    let bits = 64 * W as u64;
    let auto = Skein::<W>::new(bits).platform().backend();
    let mut cases: Vec<Case> = vec![(
        format!("Skein-{bits} single-stream ({auto}), 8 KiB msgs in L2"),
        total,
        1,
        Box::new(|| {
            for m in &messages {
                std::hint::black_box(Skein::<W>::hash_vec(bits, m));
            }
        }),
    )];
    for (backend, lane_form) in lane_forms() {
        let Ok(many) = Platform::with_lane_form(lane_form, || {
            SkeinMany::<W>::with_params(&Params::new().backend(backend))
        }) else {
            continue;
        };
        let messages = &messages;
        let mut out = vec![0u8; messages.len() * 8 * W];
        let name = format!(
            "Skein-{bits} hash_many, {backend} {}, 1 thread",
            form(lane_form, many.lanes())
        );
        cases.push((
            name,
            total,
            1,
            Box::new(move || many.hash_many_into(messages, &mut out)),
        ));
    }
    // The automatic choice: backend by rank, form by the instruction set's rule.
    let many = SkeinMany::<W>::with_params(&Params::new()).unwrap();
    let name = format!(
        "Skein-{bits} hash_many, automatic ({} {}), 1 thread",
        many.backend(),
        form(many.lane_form(), many.lanes())
    );
    let mut out = vec![0u8; messages.len() * 8 * W];
    let messages = &messages;
    cases.push((
        name,
        total,
        1,
        Box::new(move || many.hash_many_into(messages, &mut out)),
    ));
    race(cases, runs, ghz);
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// `--tree-digest FILE YL YF YM`: print the Skein-512-512 tree digest of the
/// file and the time taken (for comparison with other implementations).
fn tree_digest(args: &[String]) {
    let data = std::fs::read(&args[0]).unwrap();
    let shape: Vec<u8> = args[1..4].iter().map(|a| a.parse().unwrap()).collect();
    let params = Params::new().tree(TreeParams::new(shape[0], shape[1], shape[2]).unwrap());
    let mut best = f64::MAX;
    let mut digest = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let mut h = Skein512::with_params(&params).unwrap();
        h.update(&data);
        digest = h.finalize_vec();
        best = best.min(t.elapsed().as_secs_f64());
    }
    let hex = hex::encode(&digest);
    println!("{hex} {:.2} GB/s", data.len() as f64 / best / 1e9);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--tree-digest") {
        return tree_digest(&args[1..]);
    }
    let quick = std::env::args().any(|a| a == "--quick");
    let kernels_only = std::env::args().any(|a| a == "--kernels");
    let runs = if quick { 3 } else { 7 };
    let threads = rayon::current_num_threads();
    // Measured once: every row's cycles per byte use the clock printed here.
    let ghz = clock_ghz();
    println!("clock {ghz:.2} GHz (bench-clock: add and imul chains)");
    println!(
        "| {:<58} | {:>7} | {:>7} | {:>5} |",
        "case (ratio: to the first row of its section)", "GB/s", "ratio", "c/B"
    );
    println!("|{:-<60}|{:-<9}|{:-<9}|{:-<7}|", "", "", "", "");

    // 1 KiB messages.
    let messages: Vec<Vec<u8>> = (0..2048u32).map(|i| vec![i as u8; 1024]).collect();
    let total = messages.len() * 1024;
    let auto = Skein512::new(512).platform().backend();
    let mut cases: Vec<Case> = vec![(
        format!("Skein-512-512 single-stream ({auto}), 1 KiB msgs"),
        total,
        1,
        Box::new(|| {
            for m in &messages {
                std::hint::black_box(Skein512::hash_vec(512, m));
            }
        }),
    )];
    for (backend, lane_form) in lane_forms() {
        let many = Platform::with_lane_form(lane_form, || {
            SkeinMany512::with_params(&Params::new().backend(backend)).unwrap()
        });
        for t in [1, threads] {
            let (many, messages) = (many.clone(), &messages);
            let mut out = vec![0u8; messages.len() * 64];
            let name = format!(
                "hash_many 1 KiB, {backend} {}, {t} thread(s)",
                form(lane_form, many.lanes())
            );
            cases.push((
                name,
                total,
                t,
                Box::new(move || many.hash_many_into(messages, &mut out)),
            ));
        }
    }
    if !kernels_only {
        race(cases, runs, ghz);
    }

    // The lane kernels alone: long messages that stay in L2 (80 x 8 KiB),
    // against one stream over them; llvm-mca estimates the same block loop
    // (tools/bench/mca-loop.py).
    // Short cases (640 KiB of messages each): many rounds, so that the
    // best one is a quiet one on a shared machine.
    kernel_section::<4>(40 * runs, ghz);
    kernel_section::<8>(40 * runs, ghz);
    kernel_section::<16>(40 * runs, ghz);
    if kernels_only {
        return;
    }

    // Small messages against long ones on the automatic kernel, one
    // thread, the same bytes in total: the per-message overhead. 256 KiB
    // stays in L2; 2 MiB comes from L3, where short messages also lose the
    // hardware prefetchers' long streams.
    let auto = SkeinMany512::with_params(&Params::new()).unwrap();
    for total in [256usize << 10, 2 << 20] {
        let mut cases: Vec<Case> = Vec::new();
        for size in [16usize << 10, 1 << 10, 256] {
            let messages: Vec<Vec<u8>> = (0..total / size).map(|i| vec![i as u8; size]).collect();
            let mut out = vec![0u8; messages.len() * 64];
            let many = auto.clone();
            cases.push((
                format!(
                    "hash_many {} B msgs, {} KiB, {} {}, 1 thread",
                    size,
                    total >> 10,
                    many.backend(),
                    form(many.lane_form(), many.lanes())
                ),
                total,
                1,
                Box::new(move || many.hash_many_into(&messages, &mut out)),
            ));
        }
        race(cases, 40 * runs, ghz);
    }

    // ZFS: Skein-512-256 keyed with a 32-byte salt, 128 KiB blocks.
    let salt = [0x5au8; 32];
    let zfs = Params::new().output_bits(256).key(&salt);
    let blocks: Vec<Vec<u8>> = (0..(if quick { 32 } else { 128 }))
        .map(|i| vec![i as u8; 128 * 1024])
        .collect();
    let total = blocks.len() * 128 * 1024;
    let prepared = Skein512::with_params(&zfs).unwrap();
    let mut cases: Vec<Case> = vec![(
        "ZFS Skein-512-256 keyed 128 KiB, single-stream".into(),
        total,
        1,
        Box::new(|| {
            for b in &blocks {
                let mut h = prepared.clone();
                h.update(b);
                std::hint::black_box(h.finalize_vec());
            }
        }),
    )];
    let many = SkeinMany512::with_params(&zfs).unwrap();
    for t in [1, threads] {
        let (many, blocks) = (many.clone(), &blocks);
        let mut out = vec![0u8; blocks.len() * 32];
        let name = format!(
            "ZFS hash_many ({} {}), {t} thread(s)",
            many.backend(),
            form(many.lane_form(), many.lanes())
        );
        cases.push((
            name,
            total,
            t,
            Box::new(move || many.hash_many_into(blocks, &mut out)),
        ));
    }
    // Every lane kernel and form forced, one thread: the ZFS target is set
    // per instruction set (AVX2 against one stream, not only the best).
    for (backend, lane_form) in lane_forms() {
        let Ok(many) = Platform::with_lane_form(lane_form, || {
            SkeinMany512::with_params(&zfs.backend(backend))
        }) else {
            continue;
        };
        let blocks = &blocks;
        let mut out = vec![0u8; blocks.len() * 32];
        let name = format!(
            "ZFS hash_many, {backend} {}, 1 thread",
            form(lane_form, many.lanes())
        );
        cases.push((
            name,
            total,
            1,
            Box::new(move || many.hash_many_into(blocks, &mut out)),
        ));
    }
    race(cases, runs, ghz);

    // Tree 10,1,255 over a large buffer.
    let size = if quick { 256 << 20 } else { 1 << 30 };
    let data: Vec<u8> = (0..size).map(|i| (i * 7 + (i >> 13)) as u8).collect();
    let tree = Params::new().tree(TreeParams::new(10, 1, 255).unwrap());
    let mut cases: Vec<Case> = vec![(
        format!("Skein-512-512 single-stream, {} MiB buffer", size >> 20),
        size,
        1,
        Box::new(|| {
            std::hint::black_box(Skein512::hash_vec(512, &data));
        }),
    )];
    for t in [1, threads] {
        let (data, tree) = (&data, &tree);
        cases.push((
            format!("tree 10,1,255 whole buffer, {t} thread(s)"),
            size,
            t,
            Box::new(move || {
                let mut h = Skein512::with_params(tree).unwrap();
                h.update(data);
                std::hint::black_box(h.finalize_vec());
            }),
        ));
    }
    let (data_ref, tree_ref) = (&data, &tree);
    cases.push((
        format!("tree 10,1,255 streamed in 100 kB updates, {threads} thread(s)"),
        size,
        threads,
        Box::new(move || {
            let mut h = Skein512::with_params(tree_ref).unwrap();
            for chunk in data_ref.chunks(100_000) {
                h.update(chunk);
            }
            std::hint::black_box(h.finalize_vec());
        }),
    ));
    race(cases, if quick { 2 } else { 3 }, ghz);
}
