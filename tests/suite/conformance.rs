//! Block-function conformance: every single-stream backend and every
//! multi-lane kernel this build and CPU run (every entry of `Backend::ALL`,
//! the backend table) against `portable`, at the edges whole hashes rarely
//! reach: tweak positions around 2^64 (the carry from tweak word 0 into
//! word 1), `bytes_per_block` below the block size (and 0), runs of 1..=17
//! blocks read from unaligned offsets, for all three state sizes.
//!
//! Every form of each lane kernel (one group of lanes per call, two
//! interleaved groups where it has that form) also hashes the golden file's
//! entries (its tree entries run their leaves and nodes on the lanes).
//!
//! `portable` itself is checked against independent sources elsewhere (the
//! golden KAT file, RustCrypto `skein`, pyskein's vectors).

use skein_simd_test_support as support;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use skein_simd::{hazmat, Backend, Platform};
use support::spec::{T1_FINAL, T1_FIRST};

/// Tweak positions (word 0) that a run of up to 17 blocks carries past
/// 2^64, or just reaches it, or stays far from it.
fn positions(block: u64, rng: &mut StdRng) -> Vec<u64> {
    vec![
        0,
        u64::MAX,
        u64::MAX - block + 1,
        u64::MAX - 3 * block,
        u64::MAX - 17 * block + 5,
        (1 << 63) - 1,
        rng.gen(),
        u64::MAX - rng.gen_range(0..20 * block),
    ]
}

/// Tweak word 1: position bits 64..96 (all ones, so the carry ripples), the
/// first flag or not, the final flag or not, a block type.
fn tweak_word_1(rng: &mut StdRng) -> u64 {
    let high = [0, 0xFFFF_FFFF, rng.gen::<u32>() as u64][rng.gen_range(0..3)];
    let first = if rng.gen() { T1_FIRST } else { 0 };
    let fin = if rng.gen_range(0..4) == 0 {
        T1_FINAL
    } else {
        0
    };
    high | first | fin | (rng.gen_range(0..64u64) << 56)
}

fn bytes_per_block(block: u64, rng: &mut StdRng) -> [u64; 7] {
    [
        block,
        block - 1,
        1,
        0,
        8,
        rng.gen_range(1..block),
        rng.gen(),
    ]
}

fn portable() -> Platform {
    Platform::force(Backend::Portable).unwrap()
}

fn single_stream<const W: usize>(backend: Backend, seed: u64) -> usize {
    let Ok(platform) = Platform::force(backend) else {
        return 0;
    };
    let block = 8 * W;
    let mut rng = StdRng::seed_from_u64(seed);
    let data: Vec<u8> = (0..17 * block + 8).map(|_| rng.gen()).collect();
    let mut cases = 0;
    for position in positions(block as u64, &mut rng) {
        for step in bytes_per_block(block as u64, &mut rng) {
            for n in 1..=17 {
                let offset = rng.gen_range(0..8);
                let blocks = &data[offset..offset + n * block];
                let chain: [u64; W] = core::array::from_fn(|_| rng.gen());
                let tweak = [position, tweak_word_1(&mut rng)];
                let (mut want_chain, mut want_tweak) = (chain, tweak);
                hazmat::compress::<W>(&portable(), &mut want_chain, &mut want_tweak, blocks, step);
                let (mut got_chain, mut got_tweak) = (chain, tweak);
                hazmat::compress::<W>(&platform, &mut got_chain, &mut got_tweak, blocks, step);
                let what = format!(
                    "{backend} Skein-{} position {position:#x} step {step} blocks {n}",
                    64 * W
                );
                assert_eq!(got_chain, want_chain, "chain: {what}");
                assert_eq!(got_tweak, want_tweak, "tweak: {what}");
                cases += 1;
            }
        }
    }
    cases
}

fn lanes<const W: usize>(backend: Backend, seed: u64) -> usize {
    if backend.lanes().is_none() {
        return 0;
    }
    // The lanes at this state size: where a build leaves a form's kernel
    // out at a size (`compiled` in src/backend/wasm32/simd128.rs), the
    // rule's form runs there instead.
    let params = skein_simd::Params::new().backend(backend);
    let l = skein_simd::SkeinMany::<W>::with_params(&params)
        .expect("a backend with lanes")
        .lanes();
    let block = 8 * W;
    let mut rng = StdRng::seed_from_u64(seed);
    let data: Vec<Vec<u8>> = (0..l)
        .map(|_| (0..17 * block + 8).map(|_| rng.gen()).collect())
        .collect();
    let mut cases = 0;
    for position in positions(block as u64, &mut rng) {
        for n in 1..=17 {
            // Every lane at its own place: near the carry or not, its own
            // step, flags and alignment.
            let chains: Vec<[u64; W]> = (0..l)
                .map(|_| core::array::from_fn(|_| rng.gen()))
                .collect();
            let tweaks: Vec<[u64; 2]> = (0..l)
                .map(|i| {
                    let p = if i % 2 == 0 { position } else { rng.gen() };
                    [p, tweak_word_1(&mut rng)]
                })
                .collect();
            let steps: Vec<u64> = (0..l)
                .map(|i| bytes_per_block(block as u64, &mut rng)[(i + n) % 7])
                .collect();
            let blocks: Vec<&[u8]> = (0..l)
                .map(|i| {
                    let offset = (i + n) % 8;
                    &data[i][offset..offset + n * block]
                })
                .collect();
            let (mut got_chains, mut got_tweaks) = (chains.clone(), tweaks.clone());
            hazmat::compress_lanes::<W>(backend, &mut got_chains, &mut got_tweaks, &blocks, &steps)
                .expect("backend.lanes() said it has a kernel");
            for i in 0..l {
                let (mut chain, mut tweak) = (chains[i], tweaks[i]);
                hazmat::compress::<W>(&portable(), &mut chain, &mut tweak, blocks[i], steps[i]);
                let what = format!(
                    "{backend} x{l} lane {i} Skein-{} position {:#x} step {} blocks {n}",
                    64 * W,
                    tweaks[i][0],
                    steps[i]
                );
                assert_eq!(got_chains[i], chain, "chain: {what}");
                assert_eq!(got_tweaks[i], tweak, "tweak: {what}");
            }
            cases += 1;
        }
    }
    cases
}

#[test]
fn every_backend_and_lane_kernel_matches_portable_block_by_block() {
    let mut checked = Vec::new();
    for (k, backend) in Backend::ALL.iter().copied().enumerate() {
        let seed = 1000 * k as u64;
        let single = single_stream::<4>(backend, seed)
            + single_stream::<8>(backend, seed + 1)
            + single_stream::<16>(backend, seed + 2);
        // Every form of the lane kernel: one group of lanes per call, two
        // interleaved groups, a group and a scalar lane, as the instruction
        // set has them.
        let mut lane_runs = 0;
        for &form in backend.lane_forms() {
            let runs = Platform::with_lane_form(form, || {
                backend
                    .lanes()
                    .expect("a backend with lane forms has lanes");
                lanes::<4>(backend, seed + 3)
                    + lanes::<8>(backend, seed + 4)
                    + lanes::<16>(backend, seed + 5)
            });
            assert!(runs > 0, "{backend} in {form:?}");
            lane_runs += runs;
        }
        assert_eq!(single > 0, backend.is_available(), "{backend}");
        assert_eq!(lane_runs > 0, backend.lanes().is_some(), "{backend}");
        if single + lane_runs > 0 {
            checked.push(format!(
                "{backend} ({single} runs, {lane_runs} lane runs in forms {:?})",
                backend.lane_forms()
            ));
        }
    }
    // Printed with --nocapture: which entries this machine exercised.
    println!("checked: {}", checked.join(", "));
}

/// The golden file's entries (trees included) through every form of every
/// lane kernel: `Params::backend` brings the backend's lane kernel, the
/// forced form decides which rows a call runs.
#[test]
fn golden_entries_on_every_lane_kernel_form() {
    let entries = support::load_golden_kat();
    let trees = entries.iter().filter(|e| e.tree.is_some()).count();
    assert!(trees > 0, "the golden file has tree entries");
    let mut checked = Vec::new();
    for backend in Backend::ALL.iter().copied().filter(|b| b.is_available()) {
        for &form in backend.lane_forms() {
            Platform::with_lane_form(form, || {
                for e in &entries {
                    assert_eq!(
                        support::hash_entry(e, backend),
                        e.result,
                        "{backend} lanes in {form:?}: {}",
                        e.header
                    );
                    // Whole-byte entries also in a batch that fills every
                    // lane of every form (a lone message runs in lane 0).
                    if e.tree.is_none() && e.msg_bits % 8 == 0 {
                        let got = match e.state_bits {
                            256 => batch_of_copies::<4>(e, backend),
                            512 => batch_of_copies::<8>(e, backend),
                            _ => batch_of_copies::<16>(e, backend),
                        };
                        for (lane, digest) in got.iter().enumerate() {
                            assert_eq!(
                                digest, &e.result,
                                "{backend} lanes in {form:?}, message {lane} of a batch: {}",
                                e.header
                            );
                        }
                    }
                }
            });
            checked.push(format!("{backend}/{form:?}"));
        }
    }
    println!(
        "golden entries ({} trees) on: {}",
        trees,
        checked.join(", ")
    );
}

/// `e`'s digest for each of 17 copies of its message in one `hash_many`
/// batch on `backend` (17: more than the lanes of any form, so that every
/// lane hashes a copy).
fn batch_of_copies<const W: usize>(e: &support::KatEntry, backend: Backend) -> Vec<Vec<u8>> {
    let mut params = skein_simd::Params::new()
        .output_bits(e.output_bits)
        .backend(backend);
    if let Some(k) = &e.key {
        params = params.key(k);
    }
    let many = skein_simd::SkeinMany::<W>::with_params(&params).unwrap();
    let msg = &e.msg[..(e.msg_bits / 8) as usize];
    many.hash_many_vec(&[msg; 17])
}
