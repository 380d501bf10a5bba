//! Criterion throughput benchmarks: every backend this CPU has, forced via
//! `Params::backend`, next to RustCrypto `skein` in the same group, for each
//! state size (full-size output) and message size. Kept short (10 samples,
//! 1 s) so a full `cargo bench -p skein-simd-benches` stays within a few
//! minutes on two cores; for docs/performance.md use `tools/bench/bench.py`
//! (adds the C reference and cycles).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use skein::digest::{consts, Digest};
use skein_simd::{Backend, DynSkein, Params, StateSize};
use std::hint::black_box;
use std::time::Duration;

const SIZES: [(usize, &str); 4] = [
    (64, "64B"),
    (1024, "1KiB"),
    (64 << 10, "64KiB"),
    (16 << 20, "16MiB"),
];

fn ours(state: StateSize, backend: Backend, data: &[u8], out: &mut [u8]) {
    let mut h = DynSkein::new(state, &Params::new().backend(backend)).expect("available backend");
    h.update(data);
    h.finalize_into(out);
}

fn rustcrypto(state: StateSize, data: &[u8], out: &mut [u8]) {
    match state {
        StateSize::S256 => out.copy_from_slice(&skein::Skein256::<consts::U32>::digest(data)),
        StateSize::S512 => out.copy_from_slice(&skein::Skein512::<consts::U64>::digest(data)),
        StateSize::S1024 => out.copy_from_slice(&skein::Skein1024::<consts::U128>::digest(data)),
    }
}

fn throughput(c: &mut Criterion) {
    let data: Vec<u8> = (0..SIZES[3].0)
        .map(|i| (i as u32).wrapping_mul(2654435761).to_le_bytes()[3])
        .collect();
    let backends: Vec<Backend> = Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    for state in [StateSize::S256, StateSize::S512, StateSize::S1024] {
        let mut out = vec![0u8; state.bits() as usize / 8];
        for (len, label) in SIZES {
            let msg = &data[..len];
            let mut group = c.benchmark_group(format!("Skein-{}/{label}", state.bits()));
            group.throughput(Throughput::Bytes(len as u64));
            group
                .sample_size(10)
                .warm_up_time(Duration::from_millis(300))
                .measurement_time(Duration::from_secs(1));
            for &backend in &backends {
                group.bench_function(BenchmarkId::from_parameter(backend.name()), |b| {
                    b.iter(|| ours(state, backend, black_box(msg), &mut out))
                });
            }
            group.bench_function(BenchmarkId::from_parameter("rustcrypto"), |b| {
                b.iter(|| rustcrypto(state, black_box(msg), &mut out))
            });
            group.finish();
        }
    }
}

criterion_group!(benches, throughput);
criterion_main!(benches);
