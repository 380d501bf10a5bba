//! The RustCrypto trait implementations against independent sources:
//! RustCrypto's own `skein` 0.2 (digest 0.11) and 0.1 (digest 0.10, with the
//! `digest010` feature) for hashing, the official golden KAT file for MACs.
use skein_simd_test_support as support;

fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + 7) as u8).collect()
}

const LENGTHS: [usize; 12] = [0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 3001];

/// (state bits, output bits, key, message, result).
type MacEntry = (u64, u64, Vec<u8>, Vec<u8>, Vec<u8>);

/// The golden file's keyed entries with whole-byte messages.
fn golden_macs() -> Vec<MacEntry> {
    let entries = support::load_golden_kat();
    let macs: Vec<_> = entries
        .into_iter()
        .filter(|e| e.tree.is_none() && e.msg_bits % 8 == 0)
        .filter_map(|e| Some((e.state_bits, e.output_bits, e.key?, e.msg, e.result)))
        .collect();
    assert!(macs.len() >= 40, "only {} keyed entries", macs.len());
    macs
}

#[cfg(feature = "digest")]
mod digest011 {
    use super::*;
    use digest::consts::{U100, U128, U20, U300, U32, U48, U64};
    use digest::{Digest, FixedOutputReset, KeyInit, Mac};
    use skein02 as rc;
    use skein_simd::SkeinFixed;

    fn same<Ours: Digest + Clone, Theirs: Digest>() {
        for len in LENGTHS {
            let data = message(len);
            let want = Theirs::digest(&data).to_vec();
            assert_eq!(Ours::digest(&data).to_vec(), want, "one shot, {len} bytes");
            let mut h = Ours::new();
            for chunk in data.chunks(17) {
                h.update(chunk);
            }
            assert_eq!(h.finalize().to_vec(), want, "in pieces, {len} bytes");
        }
    }

    #[test]
    fn digest_equals_rustcrypto_skein_0_2() {
        same::<skein_simd::Skein256_256, rc::Skein256<U32>>();
        same::<skein_simd::Skein512_256, rc::Skein512<U32>>();
        same::<skein_simd::Skein512_384, rc::Skein512<U48>>();
        same::<skein_simd::Skein512_512, rc::Skein512<U64>>();
        same::<skein_simd::Skein1024_512, rc::Skein1024<U64>>();
        same::<skein_simd::Skein1024_1024, rc::Skein1024<U128>>();
        // Any output length, also beyond the state size (counter-mode output).
        same::<SkeinFixed<4, U20>, rc::Skein256<U20>>();
        same::<SkeinFixed<8, U100>, rc::Skein512<U100>>();
        same::<SkeinFixed<16, U300>, rc::Skein1024<U300>>();
    }

    #[test]
    fn reset_starts_over() {
        let mut h = skein_simd::Skein512_512::new();
        Digest::update(&mut h, b"discarded");
        let first = h.finalize_fixed_reset();
        assert_eq!(
            first.to_vec(),
            rc::Skein512::<U64>::digest(b"discarded").to_vec()
        );
        Digest::update(&mut h, b"abc");
        assert_eq!(
            h.finalize().to_vec(),
            rc::Skein512::<U64>::digest(b"abc").to_vec()
        );
    }

    #[test]
    fn variable_output_equals_rustcrypto_fixed_sizes() {
        let data = message(1000);
        let mut out = vec![0u8; 100];
        let mut v = skein_simd::Skein512Var::new(100).unwrap();
        v.update(&data);
        assert_eq!(v.output_size(), 100);
        v.finalize_variable(&mut out).unwrap();
        assert_eq!(out, rc::Skein512::<U100>::digest(&data).to_vec());
        let mut v = skein_simd::Skein1024Var::new(300).unwrap();
        v.update(&data);
        let mut out = vec![0u8; 300];
        v.finalize_variable_reset(&mut out).unwrap();
        assert_eq!(out, rc::Skein1024::<U300>::digest(&data).to_vec());
        v.update(b"");
        v.finalize_variable(&mut out).unwrap();
        assert_eq!(out, rc::Skein1024::<U300>::digest(b"").to_vec());
        assert!(skein_simd::Skein256Var::new(0).is_err());
        let v = skein_simd::Skein256Var::new(20).unwrap();
        assert!(v.finalize_variable(&mut [0u8; 21]).is_err());
    }

    fn mac_tag<M: Mac + KeyInit>(key: &[u8], msg: &[u8]) -> Vec<u8> {
        let mut m = <M as KeyInit>::new_from_slice(key).unwrap();
        Mac::update(&mut m, msg);
        m.finalize().into_bytes().to_vec()
    }

    #[test]
    fn mac_equals_golden_kat() {
        let mut checked = 0;
        for (state, bits, key, msg, result) in golden_macs() {
            let tag = match (state, bits) {
                (256, 256) => mac_tag::<skein_simd::SkeinMac256_256>(&key, &msg),
                (512, 512) => mac_tag::<skein_simd::SkeinMac512_512>(&key, &msg),
                (1024, 1024) => mac_tag::<skein_simd::SkeinMac1024_1024>(&key, &msg),
                _ => continue,
            };
            assert_eq!(
                tag,
                result,
                "Skein-{state}-{bits} MAC, key {} bytes, {} bytes",
                key.len(),
                msg.len()
            );
            checked += 1;
        }
        assert!(checked >= 30, "only {checked} MAC entries checked");
    }

    #[test]
    fn mac_verification() {
        let key = [0x42u8; 64]; // KeySize is the state size; any length works with new_from_slice
        let mut m = skein_simd::SkeinMac512_256::new(&key.into());
        Mac::update(&mut m, b"message");
        let tag = m.clone().finalize().into_bytes();
        assert!(m.clone().verify_slice(&tag).is_ok());
        assert!(m.clone().verify_slice(&tag[..31]).is_err());
        let mut bad = tag;
        bad[31] ^= 1;
        assert!(m.verify_slice(&bad).is_err());
    }
}

#[cfg(feature = "digest010")]
mod digest010 {
    use super::*;
    use skein_simd::digest010::consts::{U100, U128, U20, U32, U64};
    use skein_simd::digest010::{Digest, KeyInit, Mac, VariableOutput};
    use skein_simd::SkeinFixed;

    fn same<Ours: Digest, Theirs: Digest>() {
        for len in LENGTHS {
            let data = message(len);
            assert_eq!(
                Ours::digest(&data).to_vec(),
                Theirs::digest(&data).to_vec(),
                "{len} bytes"
            );
        }
    }

    #[test]
    fn digest_equals_rustcrypto_skein_0_1() {
        same::<skein_simd::Skein256_256, skein::Skein256<U32>>();
        same::<skein_simd::Skein512_256, skein::Skein512<U32>>();
        same::<skein_simd::Skein512_512, skein::Skein512<U64>>();
        same::<skein_simd::Skein1024_1024, skein::Skein1024<U128>>();
        same::<SkeinFixed<4, U20>, skein::Skein256<U20>>();
        same::<SkeinFixed<8, U100>, skein::Skein512<U100>>();
    }

    #[test]
    fn variable_output_trait_of_0_10() {
        let data = message(777);
        let mut v = <skein_simd::Skein512Var as VariableOutput>::new(100).unwrap();
        skein_simd::digest010::Update::update(&mut v, &data);
        let mut out = [0u8; 100];
        VariableOutput::finalize_variable(v, &mut out).unwrap();
        assert_eq!(
            out.to_vec(),
            skein::Skein512::<U100>::digest(&data).to_vec()
        );
        assert!(<skein_simd::Skein256Var as VariableOutput>::new(0).is_err());
    }

    #[test]
    fn mac_of_0_10_equals_golden_kat() {
        let mut checked = 0;
        for (state, bits, key, msg, result) in golden_macs() {
            if (state, bits) != (512, 512) {
                continue;
            }
            let mut m = <skein_simd::SkeinMac512_512 as KeyInit>::new_from_slice(&key).unwrap();
            Mac::update(&mut m, &msg);
            assert_eq!(m.finalize().into_bytes().to_vec(), result);
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} MAC entries checked");
    }
}
