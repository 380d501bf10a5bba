//! The seekable output reader (`finalize_xof`, `OutputReader`,
//! `DynOutputReader`): the golden file's long outputs read in pieces and out
//! of order, pyskein 1.0's `digest(start, stop)` slices of outputs up to
//! 2^64 - 1 bits (tests/data/pyskein_output_slices.txt), and reads in random
//! chunks and seeks against `finalize_vec`.

mod common;

use proptest::prelude::*;
use skein_simd::{DynSkein, Params, Skein1024, Skein256, Skein512, StateSize, TreeParams};
use std::io::{Read, Seek, SeekFrom};

/// The golden file's entries whose output is longer than the state, each read
/// through the reader in pieces of several sizes and back to front.
#[test]
fn golden_long_outputs_through_the_reader() {
    let entries = common::load_golden_kat();
    let long: Vec<_> = entries
        .iter()
        .filter(|e| e.output_bits > e.state_bits)
        .collect();
    assert!(long.len() >= 20, "only {} long-output entries", long.len());
    for e in long {
        let mut params = Params::new().output_bits(e.output_bits);
        if let Some(k) = &e.key {
            params = params.key(k);
        }
        if let Some((l, f, m)) = e.tree {
            params = params.tree(TreeParams::new(l, f, m).unwrap());
        }
        let mut h = DynSkein::new(StateSize::from_bits(e.state_bits).unwrap(), &params).unwrap();
        h.update_bits(&e.msg, e.msg_bits);
        let reader = h.finalize_xof();
        assert_eq!(reader.len(), e.result.len() as u64, "{}", e.header);
        for piece in [1, 5, 32, 64, 100, 128, 1000] {
            // Forward.
            let mut r = reader.clone();
            let mut got = Vec::new();
            let mut buf = vec![0u8; piece];
            loop {
                let n = r.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            assert_eq!(got, e.result, "{} forward by {piece}", e.header);
            // Backward: each piece by seeking to it.
            let mut r = reader.clone();
            let mut got = vec![0u8; e.result.len()];
            let starts: Vec<usize> = (0..got.len()).step_by(piece).collect();
            for &s in starts.iter().rev() {
                r.seek(SeekFrom::Start(s as u64)).unwrap();
                let end = (s + piece).min(got.len());
                r.read_exact(&mut got[s..end]).unwrap();
            }
            assert_eq!(got, e.result, "{} backward by {piece}", e.header);
        }
    }
}

#[test]
fn seek_from_end_current_and_past_the_end() {
    let mut h = Skein512::new(8 * 300);
    h.update(b"seek");
    let want = h.clone().finalize_vec();
    let mut r = h.finalize_xof();
    assert_eq!(r.seek(SeekFrom::End(-10)).unwrap(), 290);
    let mut buf = [0u8; 20];
    assert_eq!(r.read(&mut buf).unwrap(), 10);
    assert_eq!(&buf[..10], &want[290..]);
    assert_eq!(r.read(&mut buf).unwrap(), 0);
    assert_eq!(r.seek(SeekFrom::Current(-300)).unwrap(), 0);
    assert!(r.seek(SeekFrom::Current(-1)).is_err());
    assert_eq!(r.position(), 0, "a failed seek leaves the position");
    assert_eq!(r.seek(SeekFrom::Start(5000)).unwrap(), 5000);
    assert_eq!(r.read(&mut buf).unwrap(), 0);
    assert_eq!(r.fill(&mut buf), 0);
    r.set_position(u64::MAX);
    assert_eq!(r.fill(&mut buf), 0);
    assert!(r.seek(SeekFrom::Current(1)).is_err());
    assert_eq!(r.stream_position().unwrap(), u64::MAX);
}

/// A length of 2^64 - 1 bits: 2^61 bytes, the last byte partial.
#[test]
fn longest_output_ends_at_two_to_the_61_bytes() {
    let mut r = Skein256::new(u64::MAX).finalize_xof();
    assert_eq!(r.len(), 1 << 61);
    r.set_position((1 << 61) - 3);
    let mut buf = [0u8; 8];
    assert_eq!(r.fill(&mut buf), 3);
    assert_eq!(r.fill(&mut buf), 0);
    // The same bytes through a far seek and a read that spans the end.
    let mut r2 = Skein256::new(u64::MAX).finalize_xof();
    r2.seek(SeekFrom::End(-35)).unwrap();
    let mut tail = Vec::new();
    r2.read_to_end(&mut tail).unwrap();
    assert_eq!(tail.len(), 35);
    assert_eq!(&tail[32..], &buf[..3]);
}

fn hasher(state: usize, bits: u64, msg: &[u8]) -> DynSkein {
    let size = StateSize::from_bits(state as u64).unwrap();
    let mut h = DynSkein::new(size, &Params::new().output_bits(bits)).unwrap();
    h.update(msg);
    h
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random seeks and reads of random lengths read the bytes of
    /// `finalize_vec`, and nothing past the end.
    #[test]
    fn random_chunks_and_seeks_match_finalize(
        state in prop::sample::select(vec![256usize, 512, 1024]),
        bits in 1u64..6000,
        msg in prop::collection::vec(any::<u8>(), 0..200),
        ops in prop::collection::vec((0u64..800, 0usize..400), 1..12),
    ) {
        let h = hasher(state, bits, &msg);
        let want = h.clone().finalize_vec();
        let mut r = h.finalize_xof();
        prop_assert_eq!(r.len(), want.len() as u64);
        for (at, n) in ops {
            r.set_position(at);
            let mut buf = vec![0u8; n];
            let got = r.fill(&mut buf);
            let start = (at as usize).min(want.len());
            let end = (at as usize).saturating_add(n).min(want.len());
            prop_assert_eq!(got, end - start);
            prop_assert_eq!(&buf[..got], &want[start..end]);
            prop_assert_eq!(r.position(), at + got as u64);
        }
    }

    /// Sequential reads in random chunks concatenate to `finalize_vec`.
    #[test]
    fn sequential_chunks_concatenate_to_finalize(
        bits in 1u64..20000,
        chunks in prop::collection::vec(0usize..700, 1..40),
    ) {
        let mut h = Skein1024::new(bits);
        h.update(b"chunks");
        let want = h.clone().finalize_vec();
        let mut r = h.finalize_xof();
        let mut got = Vec::new();
        for n in chunks.iter().cycle().take(200) {
            let mut buf = vec![0u8; *n];
            let k = r.fill(&mut buf);
            got.extend_from_slice(&buf[..k]);
            if got.len() == want.len() {
                break;
            }
        }
        let mut rest = Vec::new();
        r.read_to_end(&mut rest).unwrap();
        got.extend_from_slice(&rest);
        prop_assert_eq!(got, want);
    }
}
