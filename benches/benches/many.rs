//! Many lanes against single-stream hashing, in the same run:
//! `cargo bench -p skein-simd-benches --bench many`. Groups: `lanes_1KiB` (Skein-512-512 over 1 KiB
//! messages, each multi-lane kernel, one thread), `zfs_128KiB` (Skein-512-256
//! keyed, 128 KiB blocks), `tree_10_1_255` (Skein-512 tree over 64 MiB).
//! Ratios: compare the rows of a group. `src/bin/many_table.rs` prints the
//! same comparisons as one table.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use skein_simd::{Backend, Params, Skein512, SkeinMany512, TreeParams};
use std::hint::black_box;
use std::time::Duration;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn lanes_1kib(c: &mut Criterion) {
    let messages: Vec<Vec<u8>> = (0..256u32).map(|i| vec![i as u8; 1024]).collect();
    let mut g = c.benchmark_group("lanes_1KiB");
    g.throughput(Throughput::Bytes((messages.len() * 1024) as u64));
    g.bench_function("single-stream", |b| {
        b.iter(|| {
            for m in &messages {
                black_box(Skein512::hash_vec(512, m));
            }
        })
    });
    let one = pool(1);
    let mut out = vec![0u8; messages.len() * 64];
    for backend in Backend::ALL.iter().copied().filter(|b| b.lanes().is_some()) {
        let many = SkeinMany512::with_params(&Params::new().backend(backend)).unwrap();
        g.bench_function(
            BenchmarkId::new("hash_many", format!("{backend}x{}", many.lanes())),
            |b| b.iter(|| one.install(|| many.hash_many_into(&messages, &mut out))),
        );
    }
    g.finish();
}

fn zfs_128kib(c: &mut Criterion) {
    let salt = [0x5au8; 32];
    let params = Params::new().output_bits(256).key(&salt);
    let blocks: Vec<Vec<u8>> = (0..32u8).map(|i| vec![i; 128 * 1024]).collect();
    let mut g = c.benchmark_group("zfs_128KiB");
    g.throughput(Throughput::Bytes((blocks.len() * 128 * 1024) as u64));
    let prepared = Skein512::with_params(&params).unwrap();
    g.bench_function("single-stream", |b| {
        b.iter(|| {
            for block in &blocks {
                let mut h = prepared.clone();
                h.update(block);
                black_box(h.finalize_vec());
            }
        })
    });
    let many = SkeinMany512::with_params(&params).unwrap();
    let mut out = vec![0u8; blocks.len() * 32];
    for threads in [1, rayon::current_num_threads()] {
        let p = pool(threads);
        g.bench_function(
            BenchmarkId::new("hash_many", format!("{threads}thr")),
            |b| b.iter(|| p.install(|| many.hash_many_into(&blocks, &mut out))),
        );
    }
    g.finish();
}

fn tree_10_1_255(c: &mut Criterion) {
    let data: Vec<u8> = (0..64usize << 20)
        .map(|i| (i * 7 + (i >> 13)) as u8)
        .collect();
    let params = Params::new().tree(TreeParams::new(10, 1, 255).unwrap());
    let mut g = c.benchmark_group("tree_10_1_255");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("sequential-plain", |b| {
        b.iter(|| black_box(Skein512::hash_vec(512, &data)))
    });
    for threads in [1, rayon::current_num_threads()] {
        let p = pool(threads);
        g.bench_function(BenchmarkId::new("tree", format!("{threads}thr")), |b| {
            b.iter(|| {
                p.install(|| {
                    let mut h = Skein512::with_params(&params).unwrap();
                    h.update(&data);
                    black_box(h.finalize_vec())
                })
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = lanes_1kib, zfs_128kib, tree_10_1_255
}
criterion_main!(benches);
