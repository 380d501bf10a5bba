//! Differential test of every block-function backend usable on this machine.
//!
//! `portable` is first checked against an independent implementation (the
//! RustCrypto `skein` crate); every other backend in `Backend::available()` is
//! then checked against `portable` on random messages of every length
//! 0..=600 bytes, read from unaligned offsets, in one call and in random
//! streaming splits, for each state size and several output lengths, plain
//! and keyed. Written over `Backend::available()` only, so a new backend (x86,
//! PowerPC, NEON, lanes) is covered as soon as its `Token::detect` succeeds.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use skein_simd::{Backend, DynSkein, Params, StateSize, TreeParams};

const MAX_LEN: usize = 600;
const STATES: [StateSize; 3] = [StateSize::S256, StateSize::S512, StateSize::S1024];

/// Random bytes with room for an offset of up to 15, so slices can start at
/// any alignment.
fn random_buffer(seed: u64) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut buf = vec![0u8; MAX_LEN + 16];
    rng.fill(&mut buf[..]);
    buf
}

fn hash(state: StateSize, params: Params<'_>, backend: Backend, chunks: &[&[u8]]) -> Vec<u8> {
    let mut h =
        DynSkein::new(state, &params.backend(backend)).expect("backend listed as available");
    for c in chunks {
        h.update(c);
    }
    h.finalize_vec()
}

/// Split `data` at random points (including empty pieces).
fn random_split<'a>(rng: &mut StdRng, data: &'a [u8]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let n = match rng.gen_range(0..4) {
            0 => 0,
            1 => rng.gen_range(1..=8),
            2 => rng.gen_range(1..=200),
            _ => rest.len(),
        }
        .min(rest.len());
        let (head, tail) = rest.split_at(n);
        pieces.push(head);
        rest = tail;
    }
    pieces
}

fn others() -> Vec<Backend> {
    let list: Vec<Backend> = Backend::available()
        .into_iter()
        .filter(|&b| b != Backend::Portable)
        .collect();
    println!(
        "backends under test against portable: {:?}",
        list.iter().map(|b| b.name()).collect::<Vec<_>>()
    );
    list
}

#[test]
fn portable_is_always_available() {
    assert!(Backend::available().contains(&Backend::Portable));
}

/// `portable` against RustCrypto `skein` (full-size output, plain hashing)
/// on every length 0..=600 at unaligned offsets.
/// WebAssembly has no run-time detection: `simd128` is there exactly when
/// the build has SIMD128 (`-C target-feature=+simd128`, which the tests are
/// compiled with too), and then its two-lane kernel is the automatic choice
/// for `hash_many`, so that the suites above run it. Nowhere else.
#[test]
fn simd128_exactly_in_a_simd128_webassembly_build() {
    let simd128 = cfg!(all(target_family = "wasm", target_feature = "simd128"));
    assert_eq!(Backend::Simd128.is_available(), simd128);
    assert_eq!(Backend::available().contains(&Backend::Simd128), simd128);
    if simd128 {
        // Two v128 lanes and, for Skein-256 and -512, a scalar lane beside
        // them; for Skein-1024 the scalar row alone (`lane_form` in
        // src/backend/wasm32/simd128.rs).
        assert_eq!(Backend::Simd128.lanes(), Some(3));
        let many = skein_simd::SkeinMany::<8>::with_params(&Params::new()).unwrap();
        assert_eq!(many.backend(), Backend::Simd128);
        let s256 = skein_simd::SkeinMany::<4>::with_params(&Params::new()).unwrap();
        let s1024 = skein_simd::SkeinMany::<16>::with_params(&Params::new()).unwrap();
        assert_eq!((s256.lanes(), s1024.lanes()), (3, 1));
        assert_eq!(s1024.backend(), Backend::Simd128);
    }
}

#[test]
fn portable_matches_rustcrypto_skein() {
    use skein::digest::{consts, Digest};
    let buf = random_buffer(1);
    for len in 0..=MAX_LEN {
        let data = &buf[len % 16..len % 16 + len];
        let ours = |state| hash(state, Params::new(), Backend::Portable, &[data]);
        assert_eq!(
            ours(StateSize::S256),
            skein::Skein256::<consts::U32>::digest(data).to_vec(),
            "Skein-256, len {len}"
        );
        assert_eq!(
            ours(StateSize::S512),
            skein::Skein512::<consts::U64>::digest(data).to_vec(),
            "Skein-512, len {len}"
        );
        assert_eq!(
            ours(StateSize::S1024),
            skein::Skein1024::<consts::U128>::digest(data).to_vec(),
            "Skein-1024, len {len}"
        );
    }
}

/// The one-shot `digest_into` (automatic backend, no hasher object) against
/// RustCrypto `skein` on every length 0..=600 at unaligned offsets, and
/// against the streaming `portable` hasher for outputs other than the state
/// size (no precomputed IV, several output blocks, a partial last byte).
#[test]
fn digest_into_matches_rustcrypto_and_portable() {
    use skein::digest::{consts, Digest};
    use skein_simd::{Skein1024, Skein256, Skein512};
    let buf = random_buffer(5);
    for len in 0..=MAX_LEN {
        let data = &buf[len % 16..len % 16 + len];
        let mut out = [0u8; 128];
        Skein256::hash_into(256, data, &mut out[..32]);
        assert_eq!(
            out[..32],
            skein::Skein256::<consts::U32>::digest(data)[..],
            "Skein-256, len {len}"
        );
        Skein512::hash_into(512, data, &mut out[..64]);
        assert_eq!(
            out[..64],
            skein::Skein512::<consts::U64>::digest(data)[..],
            "Skein-512, len {len}"
        );
        Skein1024::hash_into(1024, data, &mut out[..]);
        assert_eq!(
            out[..],
            skein::Skein1024::<consts::U128>::digest(data)[..],
            "Skein-1024, len {len}"
        );
        for bits in [8usize, 100, 1000, 2056] {
            let mut got = vec![0u8; bits.div_ceil(8)];
            let want = |state| {
                hash(
                    state,
                    Params::new().output_bits(bits as u64),
                    Backend::Portable,
                    &[data],
                )
            };
            Skein256::hash_into(bits as u64, data, &mut got);
            assert_eq!(got, want(StateSize::S256), "Skein-256-{bits}, len {len}");
            Skein512::hash_into(bits as u64, data, &mut got);
            assert_eq!(got, want(StateSize::S512), "Skein-512-{bits}, len {len}");
            Skein1024::hash_into(bits as u64, data, &mut got);
            assert_eq!(got, want(StateSize::S1024), "Skein-1024-{bits}, len {len}");
        }
    }
}

/// Every backend against `portable`: every length 0..=600 at every offset
/// mod 16, several output lengths (shorter, equal and longer than the state,
/// a non-multiple of 8 bits), one-shot and keyed.
#[test]
fn every_backend_matches_portable_one_shot() {
    let buf = random_buffer(2);
    let key = &buf[..37];
    for backend in others() {
        for state in STATES {
            let bits = state.bits();
            for output_bits in [bits, 160, 3 * bits + 5] {
                for len in 0..=MAX_LEN {
                    let offset = (len * 7 + output_bits as usize) % 16;
                    let data = &buf[offset..offset + len];
                    let params = if len % 3 == 0 {
                        Params::new().key(key)
                    } else {
                        Params::new()
                    }
                    .output_bits(output_bits);
                    let want = hash(state, params, Backend::Portable, &[data]);
                    let got = hash(state, params, backend, &[data]);
                    assert!(
                        got == want,
                        "[{backend}] Skein-{bits} output {output_bits} bits, len {len}, offset {offset}:\n want {}\n got  {}",
                        hex::encode(&want),
                        hex::encode(&got)
                    );
                }
            }
        }
    }
}

/// Every backend against `portable` with the message fed in random pieces
/// (so runs of several blocks, single blocks and partial buffers all reach
/// the block function), and through tree hashing.
#[test]
fn every_backend_matches_portable_streaming() {
    let buf = random_buffer(3);
    let mut rng = StdRng::seed_from_u64(4);
    for backend in others() {
        for state in STATES {
            let bits = state.bits();
            for len in 0..=MAX_LEN {
                let offset = rng.gen_range(0..16);
                let data = &buf[offset..offset + len];
                let pieces = random_split(&mut rng, data);
                let want = hash(state, Params::new(), Backend::Portable, &[data]);
                let got = hash(state, Params::new(), backend, &pieces);
                assert!(
                    got == want,
                    "[{backend}] Skein-{bits} streaming len {len} in {} pieces",
                    pieces.len()
                );
                if len % 10 == 0 {
                    let tree = Params::new().tree(TreeParams::new(1, 1, 255).unwrap());
                    let want = hash(state, tree, Backend::Portable, &[data]);
                    let got = hash(state, tree, backend, &pieces);
                    assert!(got == want, "[{backend}] Skein-{bits} tree len {len}");
                }
            }
        }
    }
}

/// Long messages, so a backend's multi-block loop runs many times and the
/// 96-bit position counter grows past a few blocks.
#[test]
fn every_backend_matches_portable_long() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut data = vec![0u8; 64 * 1024 + 77];
    rng.fill(&mut data[..]);
    for backend in others() {
        for state in STATES {
            for cut in [1usize, 4095, 65536] {
                let (a, b) = data.split_at(cut);
                let want = hash(state, Params::new(), Backend::Portable, &[&data[1..]]);
                let got = hash(state, Params::new(), backend, &[&a[1..], b]);
                assert!(
                    got == want,
                    "[{backend}] Skein-{} long, cut {cut}",
                    state.bits()
                );
            }
        }
    }
}
