//! Property tests: streaming splits, bit-granular input, cloning, and agreement
//! with the RustCrypto `skein` crate (an independent implementation).
use proptest::prelude::*;
use skein_simd::{DynSkein, Params, Skein1024, Skein256, Skein512, StateSize, TreeParams};

fn state() -> impl Strategy<Value = StateSize> {
    prop_oneof![
        Just(StateSize::S256),
        Just(StateSize::S512),
        Just(StateSize::S1024)
    ]
}

fn one_shot(state: StateSize, params: &Params, data: &[u8]) -> Vec<u8> {
    let mut h = DynSkein::new(state, params).unwrap();
    h.update(data);
    h.finalize_vec()
}

fn arb_tree() -> impl Strategy<Value = Option<TreeParams>> {
    prop_oneof![
        3 => Just(None),
        1 => (1u8..4, 1u8..4, 2u8..6).prop_map(|(l, f, m)| Some(TreeParams::new(l, f, m).unwrap())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_split_equals_one_shot(
        state in state(),
        data in proptest::collection::vec(any::<u8>(), 0..1200),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
        bits in 1u64..1100,
        tree in arb_tree(),
    ) {
        let mut params = Params::new().output_bits(bits);
        if let Some(t) = tree { params = params.tree(t); }
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(data.len() + 1)).collect();
        points.sort();
        let mut h = DynSkein::new(state, &params).unwrap();
        let mut at = 0;
        for p in points { h.update(&data[at..p]); at = p; }
        h.update(&data[at..]);
        prop_assert_eq!(h.finalize_vec(), one_shot(state, &params, &data));
    }

    #[test]
    fn update_bits_with_whole_bytes_equals_update(
        state in state(),
        data in proptest::collection::vec(any::<u8>(), 0..700),
        tree in arb_tree(),
    ) {
        let mut params = Params::new();
        if let Some(t) = tree { params = params.tree(t); }
        let mut h = DynSkein::new(state, &params).unwrap();
        h.update_bits(&data, data.len() as u64 * 8);
        prop_assert_eq!(h.finalize_vec(), one_shot(state, &params, &data));
    }

    #[test]
    fn partial_byte_ignores_unused_low_bits(
        state in state(),
        data in proptest::collection::vec(any::<u8>(), 1..300),
        partial in 1u64..8,
        noise in any::<u8>(),
    ) {
        // Only the top `partial` bits of the last byte are message bits.
        let bits = (data.len() as u64 - 1) * 8 + partial;
        let mut noisy = data.clone();
        *noisy.last_mut().unwrap() ^= noise & (0xFF >> partial);
        let hash = |d: &[u8]| {
            let mut h = DynSkein::new(state, &Params::new()).unwrap();
            h.update_bits(d, bits);
            h.finalize_vec()
        };
        prop_assert_eq!(hash(&data), hash(&noisy));
    }

    #[test]
    fn clone_mid_stream(
        a in proptest::collection::vec(any::<u8>(), 0..500),
        b in proptest::collection::vec(any::<u8>(), 0..500),
    ) {
        let mut h = Skein512::new(512);
        h.update(&a);
        let mut fork = h.clone();
        fork.update(&b);
        h.update(&b);
        prop_assert_eq!(h.finalize_vec(), fork.finalize_vec());
    }

    #[test]
    fn agrees_with_rustcrypto_skein(data in proptest::collection::vec(any::<u8>(), 0..2000)) {
        use skein::digest::Digest;
        use skein::digest::consts::{U128, U32, U64};
        prop_assert_eq!(Skein256::hash_vec(256, &data), skein::Skein256::<U32>::digest(&data).to_vec());
        prop_assert_eq!(Skein512::hash_vec(512, &data), skein::Skein512::<U64>::digest(&data).to_vec());
        prop_assert_eq!(Skein512::hash_vec(256, &data), skein::Skein512::<U32>::digest(&data).to_vec());
        prop_assert_eq!(Skein1024::hash_vec(1024, &data), skein::Skein1024::<U128>::digest(&data).to_vec());
    }
}

#[test]
fn digest_trait_types_agree_with_native_api() {
    use digest::{Digest, FixedOutputReset, KeyInit, Mac};
    let data = b"digest traits";
    assert_eq!(
        skein_simd::Skein512_256::digest(data).to_vec(),
        Skein512::hash_vec(256, data)
    );
    assert_eq!(
        skein_simd::Skein1024_384::digest(data).to_vec(),
        Skein1024::hash_vec(384, data)
    );
    assert_eq!(
        skein_simd::Skein256_128::digest(data).to_vec(),
        Skein256::hash_vec(128, data)
    );

    let mut h = skein_simd::Skein512_512::new();
    Digest::update(&mut h, data);
    let first = h.finalize_fixed_reset();
    Digest::update(&mut h, data);
    assert_eq!(first, h.finalize());

    let mut v = skein_simd::Skein512Var::new(100).unwrap();
    v.update(data);
    let mut out = [0u8; 100];
    v.finalize_variable(&mut out).unwrap();
    assert_eq!(out.to_vec(), Skein512::hash_vec(800, data));
    assert!(skein_simd::Skein512Var::new(0).is_err());

    let key = b"mac key of any length";
    let mut mac = skein_simd::SkeinMac512_256::new_from_slice(key).unwrap();
    Mac::update(&mut mac, data);
    let tag = mac.finalize().into_bytes();
    let mut native = Skein512::with_params(&Params::new().output_bits(256).key(key)).unwrap();
    native.update(data);
    assert_eq!(tag.to_vec(), native.finalize_vec());

    let mut check = skein_simd::SkeinMac512_256::new_from_slice(key).unwrap();
    Mac::update(&mut check, data);
    assert!(check.clone().verify_slice(&tag).is_ok());
    let mut bad = tag;
    bad[31] ^= 1;
    assert!(check.verify_slice(&bad).is_err());
}

#[test]
fn native_verify_is_strict() {
    let params = Params::new().key(b"k").output_bits(256);
    let tag = {
        let mut h = Skein512::with_params(&params).unwrap();
        h.update(b"m");
        h.finalize_vec()
    };
    let check = |t: &[u8]| {
        let mut h = Skein512::with_params(&params).unwrap();
        h.update(b"m");
        h.verify(t)
    };
    assert!(check(&tag));
    assert!(!check(&tag[..31]));
    let mut bad = tag.clone();
    bad[0] ^= 0x80;
    assert!(!check(&bad));
}

#[test]
fn errors_are_reported() {
    assert_eq!(
        Skein512::with_params(&Params::new().output_bits(0)).unwrap_err(),
        skein_simd::Error::ZeroOutputBits
    );
    assert!(TreeParams::new(1, 0, 3).is_err());
    assert!(TreeParams::new(1, 1, 1).is_err());
    assert!(TreeParams::new(1, 1, 2).is_ok());
}

#[test]
#[should_panic(expected = "no input may follow a partial final byte")]
fn input_after_partial_byte_panics() {
    let mut h = Skein512::new(512);
    h.update_bits(&[0xA0], 3);
    h.update(b"more");
}
