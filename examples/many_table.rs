//! Prints a throughput table for the many-lanes paths, each against plain
//! single-stream hashing measured in the same run:
//! `cargo run --release --example many_table [-- --quick]`.
//!
//! Rows: `hash_many` over 1 KiB messages per multi-lane kernel (one thread and
//! all threads), the ZFS case (Skein-512-256 keyed, 128 KiB blocks), and tree
//! hashing 10,1,255 of a 1 GiB buffer.

use skein_simd::{Backend, Params, Skein512, SkeinMany512, TreeParams};
use std::time::Instant;

/// Best-of-`runs` throughput in GB/s of `f` processing `bytes` bytes.
fn gbps(bytes: usize, runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    bytes as f64 / best / 1e9
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

fn row(name: &str, rate: f64, base: f64) {
    println!("| {name:<58} | {rate:>7.2} | {:>6.2}x |", rate / base);
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
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    println!("{hex} {:.2} GB/s", data.len() as f64 / best / 1e9);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--tree-digest") {
        return tree_digest(&args[1..]);
    }
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 3 } else { 7 };
    let threads = rayon::current_num_threads();
    println!("| {:<58} | {:>7} | {:>7} |", "case", "GB/s", "ratio");
    println!("|{:-<60}|{:-<9}|{:-<9}|", "", "", "");

    // 1 KiB messages.
    let messages: Vec<Vec<u8>> = (0..2048u32).map(|i| vec![i as u8; 1024]).collect();
    let total = messages.len() * 1024;
    let single = gbps(total, runs, || {
        for m in &messages {
            std::hint::black_box(Skein512::digest(512, m));
        }
    });
    row(&format!("Skein-512-512 single-stream ({}), 1 KiB msgs", Skein512::new(512).platform().backend(512)), single, single);
    let mut out = vec![0u8; messages.len() * 64];
    for backend in Backend::ALL.into_iter().filter(|b| b.lanes().is_some()) {
        let many = SkeinMany512::new(&Params::new().backend(backend)).unwrap();
        let one = pool(1).install(|| gbps(total, runs, || many.hash_into(&messages, &mut out)));
        row(&format!("hash_many 1 KiB, {backend} x{} lanes, 1 thread", many.lanes()), one, single);
        let all = pool(threads).install(|| gbps(total, runs, || many.hash_into(&messages, &mut out)));
        row(&format!("hash_many 1 KiB, {backend} x{} lanes, {threads} threads", many.lanes()), all, single);
    }

    // ZFS: Skein-512-256 keyed with a 32-byte salt, 128 KiB blocks.
    let salt = [0x5au8; 32];
    let zfs = Params::new().output_bits(256).key(&salt);
    let blocks: Vec<Vec<u8>> = (0..(if quick { 32 } else { 128 })).map(|i| vec![i as u8; 128 * 1024]).collect();
    let total = blocks.len() * 128 * 1024;
    let prepared = Skein512::with_params(&zfs).unwrap();
    let single_zfs = gbps(total, runs, || {
        for b in &blocks {
            let mut h = prepared.clone();
            h.update(b);
            std::hint::black_box(h.finalize_vec());
        }
    });
    row("ZFS Skein-512-256 keyed 128 KiB, single-stream", single_zfs, single_zfs);
    let many = SkeinMany512::new(&zfs).unwrap();
    let mut out = vec![0u8; blocks.len() * 32];
    let one = pool(1).install(|| gbps(total, runs, || many.hash_into(&blocks, &mut out)));
    row(&format!("ZFS hash_many ({} x{}), 1 thread", many.backend(), many.lanes()), one, single_zfs);
    let all = pool(threads).install(|| gbps(total, runs, || many.hash_into(&blocks, &mut out)));
    row(&format!("ZFS hash_many ({} x{}), {threads} threads", many.backend(), many.lanes()), all, single_zfs);

    // Tree 10,1,255 over a large buffer.
    let size = if quick { 256 << 20 } else { 1 << 30 };
    let data: Vec<u8> = (0..size).map(|i| (i * 7 + (i >> 13)) as u8).collect();
    let tree_runs = if quick { 2 } else { 3 };
    let single_big = gbps(size, tree_runs, || {
        std::hint::black_box(Skein512::digest(512, &data));
    });
    row(&format!("Skein-512-512 single-stream, {} MiB buffer", size >> 20), single_big, single_big);
    let tree = Params::new().tree(TreeParams::new(10, 1, 255).unwrap());
    for t in [1, threads] {
        let rate = pool(t).install(|| {
            gbps(size, tree_runs, || {
                let mut h = Skein512::with_params(&tree).unwrap();
                h.update(&data);
                std::hint::black_box(h.finalize_vec());
            })
        });
        row(&format!("tree 10,1,255 whole buffer, {t} thread(s)"), rate, single_big);
    }
    let rate = pool(threads).install(|| {
        gbps(size, tree_runs, || {
            let mut h = Skein512::with_params(&tree).unwrap();
            for chunk in data.chunks(100_000) {
                h.update(chunk);
            }
            std::hint::black_box(h.finalize_vec());
        })
    });
    row(&format!("tree 10,1,255 streamed in 100 kB updates, {threads} threads"), rate, single_big);
}
