//! `SkeinMany::continuing` (many messages that
//! continue one hasher's state) against the single-stream hasher continuing
//! the same state, on every multi-lane kernel and form this machine runs,
//! and against the RustCrypto `skein` 0.2 crate for plain digests of
//! prefix || suffix.

use super::hash_many::lane_backends;
use rand::{Rng, SeedableRng};
use skein_simd::{Backend, Params, Platform, Skein, SkeinMany, TreeParams};

fn random_bytes(rng: &mut impl Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.gen()).collect()
}

/// Prefix lengths around the block size: none, partial, exactly one block,
/// several blocks, and not a block multiple after several.
fn prefix_lengths<const W: usize>(rng: &mut impl Rng) -> Vec<usize> {
    let b = 8 * W;
    vec![
        0,
        1,
        b - 1,
        b,
        b + 1,
        2 * b,
        3 * b + 5,
        rng.gen_range(0..5 * b),
    ]
}

/// Suffix batches: with empty ones among them, none empty, all empty,
/// equal short ones (the header shape), long ones.
fn suffix_batches<const W: usize>(rng: &mut impl Rng) -> Vec<Vec<Vec<u8>>> {
    let b = 8 * W;
    let mut lens = |n: usize, max: usize, empty: bool| -> Vec<Vec<u8>> {
        (0..n)
            .map(|_| {
                let len = if empty && rng.gen_range(0..4) == 0 {
                    0
                } else {
                    rng.gen_range(1..=max)
                };
                (0..len).map(|_| rng.gen()).collect()
            })
            .collect()
    };
    let mut batches = vec![
        lens(13, 3 * b, true),
        lens(11, 3 * b, false),
        lens(1, b, false),
        vec![Vec::new(); 5],
        vec![vec![0x5a; 16]; 9],
        lens(3, 40 * b, true),
    ];
    // Headers' tails, every lane different: 16 bytes each (read in place
    // by the lane kernels) and a shorter equal length (zero-padded).
    let short = rng.gen_range(1..16);
    for len in [16, short] {
        batches.push((0..33).map(|_| random_bytes(rng, len)).collect());
    }
    batches.push(vec![
        vec![1; b - 1],
        vec![2; b],
        vec![3; b + 1],
        Vec::new(),
        vec![4; 2 * b],
    ]);
    batches
}

/// Each suffix on a clone of `h`, on the single-stream block function.
fn one_by_one<const W: usize>(h: &Skein<W>, suffixes: &[Vec<u8>]) -> Vec<Vec<u8>> {
    suffixes
        .iter()
        .map(|s| {
            let mut one = h.clone();
            one.update(s);
            one.finalize_vec()
        })
        .collect()
}

/// `hash_many_from` of `prefix` then each batch, on every lane kernel form,
/// against clones of a portable hasher fed the same prefix.
fn check<const W: usize>(params: &Params, rng: &mut impl Rng, what: &str) {
    let tree = format!("{params:?}").contains("tree: Some");
    for prefix_len in prefix_lengths::<W>(rng) {
        let prefix = random_bytes(rng, prefix_len);
        let mut reference = Skein::<W>::with_params(&params.backend(Backend::Portable)).unwrap();
        reference.update(&prefix);
        for suffixes in suffix_batches::<W>(rng) {
            let want = one_by_one(&reference, &suffixes);
            for (backend, form) in lane_backends() {
                if tree && backend != Backend::Portable {
                    // A tree hasher is cloned per message: no lanes to vary.
                    continue;
                }
                let mut h = Platform::with_lane_form(form, || {
                    Skein::<W>::with_params(&params.backend(backend)).unwrap()
                });
                h.update(&prefix);
                let got = SkeinMany::continuing(&h).hash_many_vec(&suffixes);
                let mut flat = vec![0u8; suffixes.len() * h.output_len()];
                SkeinMany::continuing(&h).hash_many_into(&suffixes, &mut flat);
                for (i, w) in want.iter().enumerate() {
                    let at = || {
                        format!(
                            "Skein-{} {what}: prefix {prefix_len} B, suffix {i} of {} ({} B) \
                             on {backend} in {form:?}",
                            64 * W,
                            suffixes.len(),
                            suffixes[i].len()
                        )
                    };
                    assert_eq!(&got[i], w, "{}", at());
                    let len = w.len();
                    assert_eq!(&flat[i * len..(i + 1) * len], &w[..], "{} (into)", at());
                }
            }
        }
    }
}

fn all_sizes(params: &Params, seed: u64, what: &str) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    check::<4>(params, &mut rng, what);
    check::<8>(params, &mut rng, what);
    check::<16>(params, &mut rng, what);
}

#[test]
fn plain_prefixes_and_suffixes_on_every_lane_kernel() {
    all_sizes(&Params::new(), 1, "plain");
}

#[test]
fn keyed_personalized_and_long_outputs() {
    let key = [0x33u8; 40];
    all_sizes(
        &Params::new()
            .output_bits(256)
            .key(&key)
            .personalization(b"20261204 me@example.org nonce search"),
        2,
        "keyed",
    );
    all_sizes(&Params::new().output_bits(1), 3, "1-bit output");
    // Long outputs go through the output stage on lanes (8 blocks and more).
    all_sizes(
        &Params::new().output_bits(9000).nonce(b"n"),
        4,
        "long output",
    );
}

#[test]
fn tree_hashers_continue_too() {
    let params = Params::new()
        .output_bits(384)
        .tree(TreeParams::new(1, 2, 3).unwrap());
    all_sizes(&params, 5, "tree");
}

/// RustCrypto `skein` 0.2 hashes prefix || suffix: an independent source.
fn rustcrypto<D: skein02::digest::Digest>(prefix: &[u8], suffix: &[u8]) -> Vec<u8> {
    let mut d = D::new();
    d.update(prefix);
    d.update(suffix);
    d.finalize().to_vec()
}

fn against_rustcrypto<const W: usize, D: skein02::digest::Digest>(seed: u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for prefix_len in prefix_lengths::<W>(&mut rng) {
        let prefix = random_bytes(&mut rng, prefix_len);
        for suffixes in suffix_batches::<W>(&mut rng) {
            for (backend, form) in lane_backends() {
                let mut h = Platform::with_lane_form(form, || {
                    Skein::<W>::with_params(&Params::new().backend(backend)).unwrap()
                });
                h.update(&prefix);
                for (i, got) in SkeinMany::continuing(&h)
                    .hash_many_vec(&suffixes)
                    .iter()
                    .enumerate()
                {
                    assert_eq!(
                        got,
                        &rustcrypto::<D>(&prefix, &suffixes[i]),
                        "Skein-{0}-{0}: prefix {prefix_len} B, suffix {i} ({1} B) on {backend} in {form:?}",
                        64 * W,
                        suffixes[i].len()
                    );
                }
            }
        }
    }
}

#[test]
fn plain_digests_match_rustcrypto() {
    against_rustcrypto::<4, skein02::Skein256_256>(6);
    against_rustcrypto::<8, skein02::Skein512_512>(7);
    against_rustcrypto::<16, skein02::Skein1024_1024>(8);
}

/// 80-byte headers that share 64 bytes (one Skein-512 block): a batch large
/// enough to be spread over threads, with and without an empty suffix.
#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "threads: wasm32-wasip1 has none (spawning one fails as Unsupported)"
)]
fn headers_sharing_a_block_across_threads() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    let prefix = random_bytes(&mut rng, 64);
    let mut suffixes: Vec<Vec<u8>> = (0..9000).map(|_| random_bytes(&mut rng, 16)).collect();
    let mut h = Skein::<8>::new(512);
    h.update(&prefix);
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let got = pool.install(|| SkeinMany::continuing(&h).hash_many_vec(&suffixes));
        for i in [0, 1, 4000, 8999] {
            assert_eq!(
                got[i],
                rustcrypto::<skein02::Skein512_512>(&prefix, &suffixes[i]),
                "{threads} threads, header {i}"
            );
        }
        assert_eq!(got, one_by_one(&h, &suffixes), "{threads} threads");
        suffixes[4000].clear();
    }
}

#[test]
#[cfg_attr(
    panic = "abort",
    ignore = "catch_unwind: with panic=abort (wasm32-wasip1) the panic ends the process"
)]
fn no_suffixes_and_wrong_output_lengths() {
    let h = Skein::<8>::new(256);
    SkeinMany::continuing(&h).hash_many_into::<&[u8]>(&[], &mut []);
    assert!(SkeinMany::continuing(&h)
        .hash_many_vec::<&[u8]>(&[])
        .is_empty());
    let wrong = std::panic::catch_unwind(|| {
        SkeinMany::continuing(&h).hash_many_into(&[b"a", b"b"], &mut [0u8; 63]);
    });
    assert!(wrong.is_err(), "63 bytes for two 32-byte digests");
}

#[test]
#[cfg_attr(
    panic = "abort",
    ignore = "catch_unwind: with panic=abort (wasm32-wasip1) the panic ends the process"
)]
fn no_input_after_a_partial_byte() {
    let mut h = Skein::<4>::new(256);
    h.update_bits(&[0x80], 1);
    let r = std::panic::catch_unwind(move || SkeinMany::continuing(&h).hash_many_vec(&[b"x"]));
    assert!(r.is_err(), "a suffix after a bit-padded byte");
}
