//! Seeking in Skein's output is O(1): reading 64 bytes at byte 2^50 (or at
//! the end of a 2^64 - 1 bit output) costs what reading them at byte 0 does,
//! since output block `i` is computed from its counter alone.
//! `cargo bench -p skein-simd-benches --bench output_seek`; compare the rows
//! of each group (same run). A reader that had to walk the output would take
//! ~2^44 block computations to get to 2^50.
//!
//! Groups: `seek_read_64B` (Skein-512, No = 2^64 - 1 bits: set_position then
//! 64 bytes, one output block), `seek_read_4KiB` (the same with 4 KiB, the
//! multi-lane output path).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use skein_simd::Skein512;
use std::hint::black_box;

const POSITIONS: [(&str, u64); 5] = [
    ("0", 0),
    ("2^20", 1 << 20),
    ("2^40", 1 << 40),
    ("2^50", 1 << 50),
    ("end-4KiB", (1 << 61) - 4096),
];

fn seek_then_read(c: &mut Criterion, group: &str, len: usize) {
    let mut h = Skein512::new(u64::MAX);
    h.update(b"seek benchmark");
    let mut reader = h.finalize_xof();
    let mut out = vec![0u8; len];
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(len as u64));
    for (name, position) in POSITIONS {
        g.bench_function(BenchmarkId::new("set_position", name), |b| {
            b.iter(|| {
                // Whole blocks at a block boundary: computed on every call
                // (no block is kept between calls for aligned reads).
                reader.set_position(black_box(position));
                black_box(reader.fill(&mut out))
            })
        });
    }
    g.finish();
}

fn seek(c: &mut Criterion) {
    seek_then_read(c, "seek_read_64B", 64);
    seek_then_read(c, "seek_read_4KiB", 4096);
}

criterion_group!(benches, seek);
criterion_main!(benches);
