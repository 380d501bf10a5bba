//! `OwnedParams`, the owned form of Skein's arguments: hashing through it
//! gives the reference implementation's answers for every argument (pyskein
//! 1.0's vectors, the golden file's MAC entries), whether it is built with
//! its setters or copied from a borrowed `Params`; it forces the backend it
//! is given; its `Debug` never shows the key.

use skein_simd::{Backend, DynSkein, OwnedParams, Params, StateSize, TreeParams};
use skein_simd_test_support::{self as support, PyskeinVector};

/// The digest of `v`'s message with `args`, its unused low bits cleared as
/// pyskein clears them.
fn pyskein_digest(v: &PyskeinVector, args: &OwnedParams) -> Vec<u8> {
    let state = StateSize::from_bits(v.state).unwrap();
    let mut h = DynSkein::new(state, &args.params()).unwrap();
    h.update(&v.message());
    let mut got = h.finalize_vec();
    if !v.bits.is_multiple_of(8) {
        *got.last_mut().unwrap() &= 0xFFu8 << (8 - v.bits % 8);
    }
    got
}

fn tree(shape: Option<(u8, u8, u8)>) -> Option<TreeParams> {
    shape.map(|(l, f, m)| TreeParams::new(l, f, m).unwrap())
}

#[test]
fn owned_params_from_setters_hash_as_pyskein_for_every_argument() {
    let vectors = support::pyskein_vectors();
    assert!(vectors.len() > 400);
    for (i, v) in vectors.iter().enumerate() {
        let [key, pers, pk, kid, nonce] = v.fields.clone().map(Option::unwrap_or_default);
        let mut args = OwnedParams::new()
            .output_bits(v.bits)
            .key(key)
            .personalization(pers)
            .public_key(pk)
            .key_id(kid)
            .nonce(nonce);
        if let Some(t) = tree(v.tree) {
            args = args.tree(t);
        }
        assert_eq!(pyskein_digest(v, &args), v.digest, "line {}", i + 2);
    }
}

#[test]
fn owned_params_copied_from_params_hash_as_pyskein_for_every_argument() {
    for (i, v) in support::pyskein_vectors().iter().enumerate() {
        let [key, pers, pk, kid, nonce] = v.fields.clone().map(Option::unwrap_or_default);
        let mut borrowed = Params::new()
            .output_bits(v.bits)
            .key(&key)
            .personalization(&pers)
            .public_key(&pk)
            .key_id(&kid)
            .nonce(&nonce);
        if let Some(t) = tree(v.tree) {
            borrowed = borrowed.tree(t);
        }
        let args = OwnedParams::from(&borrowed);
        drop((key, pers, pk, kid, nonce));
        assert_eq!(pyskein_digest(v, &args), v.digest, "line {}", i + 2);
    }
}

#[test]
fn owned_params_hash_the_golden_mac_entries() {
    let entries = support::load_golden_kat();
    let mut keyed = 0;
    for e in entries.iter().filter(|e| e.key.is_some()) {
        let mut args = OwnedParams::new()
            .output_bits(e.output_bits)
            .key(e.key.clone().unwrap());
        if let Some(t) = tree(e.tree) {
            args = args.tree(t);
        }
        let state = StateSize::from_bits(e.state_bits).unwrap();
        let mut h = DynSkein::new(state, &args.params()).unwrap();
        h.update_bits(&e.msg, e.msg_bits);
        assert_eq!(h.finalize_vec(), e.result, "{}", e.header);
        keyed += 1;
    }
    assert!(keyed >= 100, "only {keyed} MAC entries");
}

#[test]
fn owned_params_force_their_backend_whichever_way_built() {
    for backend in Backend::available() {
        for state in [StateSize::S256, StateSize::S512, StateSize::S1024] {
            let set = OwnedParams::new().backend(backend);
            let copied = OwnedParams::from(&Params::new().backend(backend));
            for args in [set, copied] {
                let h = DynSkein::new(state, &args.params()).unwrap();
                assert_eq!(h.platform().backend(), backend, "{state:?}");
            }
        }
    }
}

#[test]
fn owned_params_debug_never_shows_the_key() {
    // Byte values that appear nowhere else in the output, in decimal or hex.
    let key = vec![0xC3, 0xE7, 0xB5, 0x9D, 0xF1, 0xA8];
    let first = OwnedParams::new()
        .key(vec![0xD4; 3])
        .personalization(b"app".to_vec())
        .output_bits(256);
    let replaced = first.clone().key(key.clone());
    let copied = OwnedParams::from(&Params::new().key(&key).personalization(b"app"));
    for args in [&replaced, &copied] {
        for shown in [format!("{args:?}"), format!("{args:#?}")] {
            assert!(shown.starts_with("OwnedParams"), "{shown}");
            assert!(shown.contains("<6 bytes redacted>"), "{shown}");
            for byte in &key {
                assert!(!shown.contains(&byte.to_string()), "{byte} in {shown}");
            }
            let hex = hex::encode(&key);
            assert!(!shown.to_lowercase().contains(&hex), "{shown}");
            // The other arguments are not secrets and stay visible.
            for byte in b"app" {
                assert!(shown.contains(&byte.to_string()), "{byte} not in {shown}");
            }
        }
    }
}
