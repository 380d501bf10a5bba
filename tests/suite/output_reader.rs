//! The seekable output reader (`finalize_xof`, `OutputReader`,
//! `DynOutputReader`): the golden file's long outputs read in pieces and out
//! of order, windows of outputs up to 2^64 - 1 bits from pyskein 1.0
//! (tests/data/pyskein_output_slices.txt: its `digest(start, stop)`, and past
//! its 32-bit counter its reference Threefish), and reads in random chunks
//! and seeks against `finalize_vec`.

use skein_simd_test_support as support;

use proptest::prelude::*;
use skein_simd::{DynSkein, Params, Skein1024, Skein256, Skein512, StateSize, TreeParams};
use std::io::{Read, Seek, SeekFrom};

/// The golden file's entries whose output is longer than the state, each read
/// through the reader in pieces of several sizes and back to front.
#[test]
fn golden_long_outputs_through_the_reader() {
    let entries = support::load_golden_kat();
    let long: Vec<_> = entries
        .iter()
        .filter(|e| e.output_bits > e.state_bits)
        .collect();
    assert!(long.len() >= 20, "only {} long-output entries", long.len());
    for e in long {
        let mut h = support::entry_hasher(e, None);
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

/// Output windows from pyskein 1.0 (tools/gen/pyskein_output_slices.py):
/// outputs of up to 2^64 - 1 bits, windows at random offsets up to 2^50, at
/// the end and empty ones, plain, keyed with a nonce (the stream-cipher
/// construction) and tree-hashed; read by seeking there, through
/// `DynOutputReader` and, for No = 2^64 - 1 without a tree, through the
/// digest XOF types too. Windows below output block 2^32 are pyskein's
/// `digest(start, stop)`; past it pyskein's counter wraps (it writes 4 of
/// the counter's 8 bytes), so those come from the specification's output
/// stage over pyskein's reference Threefish (the generator checks both
/// sources against each other below block 2^32).
#[test]
fn pyskein_output_slices() {
    let text = include_str!("../data/pyskein_output_slices.txt");
    let mut count = 0;
    let mut far = 0;
    let mut threefish = 0;
    for (i, line) in text.lines().filter(|l| !l.starts_with('#')).enumerate() {
        let f: Vec<&str> = line.split(' ').collect();
        let opt = |s: &str| {
            if s == "-" {
                Vec::new()
            } else {
                support::hex(s)
            }
        };
        let state: u64 = f[0].parse().unwrap();
        let bits: u64 = f[1].parse().unwrap();
        let msg = support::pyskein_message(f[2].parse().unwrap());
        let (key, nonce) = (opt(f[3]), opt(f[4]));
        let tree = (f[5] != "-").then(|| {
            let t: Vec<u8> = f[5].split(',').map(|x| x.parse().unwrap()).collect();
            TreeParams::new(t[0], t[1], t[2]).unwrap()
        });
        let (start, stop): (u64, u64) = (f[6].parse().unwrap(), f[7].parse().unwrap());
        let want = opt(f[9]);
        threefish += usize::from(f[8] == "threefish");
        let mut params = Params::new().output_bits(bits).key(&key).nonce(&nonce);
        if let Some(t) = tree {
            params = params.tree(t);
        }
        let mut h = DynSkein::new(StateSize::from_bits(state).unwrap(), &params).unwrap();
        h.update(&msg);
        let mut reader = h.finalize_xof();
        reader.set_position(start);
        let mut got = vec![0u8; (stop - start) as usize];
        assert_eq!(reader.fill(&mut got), got.len(), "line {}", i + 2);
        if stop == reader.len() && !bits.is_multiple_of(8) {
            // pyskein clears the unused low bits of the last byte.
            *got.last_mut().unwrap() &= 0xFFu8 << (8 - bits % 8);
        }
        assert_eq!(got, want, "line {}: {line:.80}", i + 2);
        if bits == u64::MAX && tree.is_none() {
            let p = Params::new().key(&key).nonce(&nonce);
            let len = (stop - start) as usize;
            let mut got = match state {
                256 => xof_window::<4>(&p, &msg, start, len),
                512 => xof_window::<8>(&p, &msg, start, len),
                _ => xof_window::<16>(&p, &msg, start, len),
            };
            if stop == 1 << 61 {
                *got.last_mut().unwrap() &= 0xFE;
            }
            assert_eq!(got, want, "line {} through SkeinXof", i + 2);
        }
        count += 1;
        far += usize::from(start >= 1 << 40);
    }
    assert!(count >= 600, "{count} slices");
    assert!(far >= 100, "{far} far slices");
    assert!(
        threefish >= 100,
        "{threefish} slices past pyskein's 2^32-block counter"
    );
}

/// A window of the digest XOF's output, through `XofReader::read`.
fn xof_window<const W: usize>(p: &Params, msg: &[u8], start: u64, len: usize) -> Vec<u8> {
    let mut x = skein_simd::SkeinXof::<W>::with_params(p).unwrap();
    x.update(msg);
    let mut r = x.finalize_xof();
    r.set_position(start);
    let mut out = vec![0u8; len];
    digest::XofReader::read(&mut r, &mut out);
    out
}

/// Reads long enough for threads (a window far out, a long `finalize`) give
/// the bytes of short reads, which run one block at a time.
#[test]
fn long_reads_match_short_reads() {
    let mut h = Skein512::new(u64::MAX);
    h.update(b"long");
    let mut r = h.finalize_xof();
    let start = (1u64 << 45) + 3;
    let mut long = vec![0u8; (1 << 20) + 17];
    r.set_position(start);
    assert_eq!(r.fill(&mut long), long.len());
    let mut short = vec![0u8; long.len()];
    r.set_position(start);
    for piece in short.chunks_mut(61) {
        assert_eq!(r.fill(piece), piece.len());
    }
    assert_eq!(long, short);

    let bits = 8 * 300_000 - 5;
    let mut h = Skein256::new(bits);
    h.update(b"long finalize");
    let mut r = h.clone().finalize_xof();
    let mut short = vec![0u8; 300_000];
    for piece in short.chunks_mut(31) {
        assert_eq!(r.fill(piece), piece.len());
    }
    assert_eq!(h.finalize_vec(), short);
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
