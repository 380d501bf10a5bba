//! Saved hasher states (`export_state` / `import_state`): a hash saved and
//! resumed anywhere in its message, tree hashers mid-stream included, gives
//! pyskein 1.0's digests (tests/data/pyskein_vectors.txt, every argument and
//! tree shape) and the golden file's (bit-padded messages, trees); malformed
//! states give a `StateError`, never a panic.

use skein_simd_test_support as support;

use skein_simd::TreeParams;
use skein_simd::{DynSkein, Params, Skein, Skein1024, Skein256, Skein512, StateError};
use support::pyskein_vectors;

/// Every pyskein vector, its message cut at several points, the state saved
/// and resumed at each cut (the saved bytes of a resumed hasher are the same
/// as the original's).
#[test]
fn resumed_hashes_give_pyskein_digests() {
    let vectors = pyskein_vectors();
    assert!(vectors.len() > 400);
    for (i, v) in vectors.iter().enumerate() {
        let msg = v.message();
        let block = v.state as usize / 8;
        let cuts = [
            0,
            1,
            block - 1,
            block,
            block + 1,
            2 * block,
            1000,
            2999,
            v.len,
        ];
        let cuts: Vec<usize> = cuts.into_iter().filter(|&c| c <= v.len).collect();
        let mut h = v.hasher(None);
        let mut at = 0;
        for &cut in &cuts {
            h.update(&msg[at..cut]);
            at = cut;
            let saved = h.export_state();
            let resumed = DynSkein::import_state(&saved)
                .unwrap_or_else(|e| panic!("vector {i} cut {cut}: {e}"));
            assert_eq!(
                *resumed.export_state(),
                *saved,
                "vector {i} cut {cut}: saved again"
            );
            h = resumed;
        }
        h.update(&msg[at..]);
        let mut got = h.finalize_vec();
        if v.bits % 8 != 0 {
            // pyskein clears the unused low bits of the last byte.
            *got.last_mut().unwrap() &= 0xFFu8 << (8 - v.bits % 8);
        }
        assert_eq!(
            got,
            v.digest,
            "vector {i} (line {}): state {} bits {} len {} tree {:?}",
            i + 2,
            v.state,
            v.bits,
            v.len,
            v.tree
        );
    }
}

/// The golden file's entries (bit-padded messages, MACs, trees), saved after
/// every whole part of the message and after the padded last byte.
#[test]
fn resumed_hashes_give_golden_digests() {
    for e in support::load_golden_kat() {
        let mut h = support::entry_hasher(&e, None);
        let whole = (e.msg_bits / 8) as usize;
        let step = (e.state_bits as usize / 8 - 1).max(1);
        let mut at = 0;
        while at < whole {
            let next = (at + step).min(whole);
            h.update(&e.msg[at..next]);
            at = next;
            h = DynSkein::import_state(&h.export_state()).unwrap();
        }
        if e.msg_bits % 8 != 0 {
            h.update_bits(&e.msg[whole..], e.msg_bits % 8);
            h = DynSkein::import_state(&h.export_state()).unwrap();
        }
        assert_eq!(h.finalize_vec(), e.result, "{}", e.header);
    }
}

/// RustCrypto `skein` 0.2 for plain hashing, every buffer fill of the first
/// two blocks.
#[test]
fn resumed_hashes_match_rustcrypto_at_every_fill() {
    use skein02::Digest;
    let msg: Vec<u8> = (0..400u32).map(|i| (i * 31 + 7) as u8).collect();
    for n in 0..=2 * 128 + 1 {
        let mut a = Skein256::new(256);
        let mut b = Skein512::new(512);
        let mut c = Skein1024::new(1024);
        a.update(&msg[..n]);
        b.update(&msg[..n]);
        c.update(&msg[..n]);
        let mut a = Skein256::import_state(&a.export_state()).unwrap();
        let mut b = Skein512::import_state(&b.export_state()).unwrap();
        let mut c = Skein1024::import_state(&c.export_state()).unwrap();
        a.update(&msg[n..]);
        b.update(&msg[n..]);
        c.update(&msg[n..]);
        assert_eq!(
            a.finalize_vec(),
            skein02::Skein256_256::digest(&msg).to_vec(),
            "fill {n}"
        );
        assert_eq!(
            b.finalize_vec(),
            skein02::Skein512_512::digest(&msg).to_vec(),
            "fill {n}"
        );
        assert_eq!(
            c.finalize_vec(),
            skein02::Skein1024_1024::digest(&msg).to_vec(),
            "fill {n}"
        );
    }
}

/// A saved state starts with the magic and version, says its size, and a
/// hasher of another size refuses it.
#[test]
fn header_and_state_size() {
    let saved = Skein1024::new(1024).export_state();
    assert_eq!(&saved[..9], b"SKEIN-ST\x01");
    assert_eq!(saved[9], 16);
    assert_eq!(
        Skein512::import_state(&saved).unwrap_err(),
        StateError::StateSize {
            expected: 512,
            found: 1024
        }
    );
    assert!(matches!(
        DynSkein::import_state(&saved).unwrap(),
        DynSkein::S1024(_)
    ));
}

fn tree_state() -> Vec<u8> {
    let params = Params::new()
        .key(b"k")
        .tree(TreeParams::new(1, 1, 4).unwrap());
    let mut h = Skein256::with_params(&params).unwrap();
    h.update(&[5u8; 1000]);
    h.export_state().to_vec()
}

/// Malformed states: each gives its error, named.
#[test]
fn malformed_states_are_refused_with_a_reason() {
    let mut h = Skein512::new(512);
    h.update(&[1u8; 100]);
    let good = h.export_state().to_vec();
    let check = |bytes: &[u8], want: StateError| {
        assert_eq!(Skein512::import_state(bytes).unwrap_err(), want);
    };
    let mut bad = good.clone();
    bad[0] = b'X';
    check(&bad, StateError::NotAState);
    check(b"", StateError::Truncated);
    check(b"SKEIN", StateError::Truncated);
    let mut bad = good.clone();
    bad[8] = 2;
    check(&bad, StateError::UnsupportedVersion(2));
    let mut bad = good.clone();
    bad[9] = 5;
    assert!(matches!(
        Skein512::import_state(&bad).unwrap_err(),
        StateError::Invalid(_)
    ));
    let mut bad = good.clone();
    bad[10] = 4;
    check(&bad, StateError::Invalid("unknown flag bits"));
    let mut bad = good.clone();
    bad.push(0);
    check(&bad, StateError::TrailingBytes);
    check(&good[..good.len() - 1], StateError::Truncated);
    // The buffered-byte count: 100 bytes is one block compressed, 36 buffered.
    let count_at = 11 + 8 + 64 + 16 + 64;
    assert_eq!(good[count_at], 36);
    let mut bad = good.clone();
    bad[count_at] = 65;
    check(
        &bad,
        StateError::Invalid("more buffered bytes than a block"),
    );
    let mut bad = good.clone();
    bad[count_at] = 35;
    check(
        &bad,
        StateError::Invalid("nonzero bytes after the buffered ones"),
    );
    let mut bad = good.clone();
    bad[count_at] = 0;
    bad[count_at + 1..].fill(0);
    check(
        &bad,
        StateError::Invalid("compressed blocks but an empty buffer"),
    );
    let mut bad = good.clone();
    bad[11 + 8 + 64] = 65; // compressed bytes not a multiple of 64
    check(
        &bad,
        StateError::Invalid("compressed bytes not a whole number of blocks"),
    );
    // A position so near 2^96 that further input would carry into the
    // tweak's reserved bits; 2^64 bytes of room is the least accepted.
    let at = 11 + 8 + 64;
    let mut near = good.clone();
    near[at..at + 16].copy_from_slice(&((1u128 << 96) - (1u128 << 64)).to_le_bytes());
    assert!(Skein512::import_state(&near).is_ok());
    near[at..at + 16].copy_from_slice(&((1u128 << 96) - (1u128 << 64) + 64).to_le_bytes());
    check(
        &near,
        StateError::Invalid("message position within 2^64 bytes of 2^96"),
    );
    // Output length 0.
    let mut bad = good.clone();
    bad[11..19].fill(0);
    check(&bad, StateError::Invalid("output length of 0 bits"));
    // Every error has a message.
    assert!(StateError::Invalid("x").to_string().contains("x"));
    // Tree: a level count beyond the height of 4.
    let tree = tree_state();
    assert!(Skein256::import_state(&tree).is_ok());
    let levels_at = 11 + 8 + 32 + 3 + 16 + 65;
    assert!(tree[levels_at] >= 1);
    let mut bad = tree.clone();
    bad[levels_at] = 4;
    assert_eq!(
        Skein256::import_state(&bad).unwrap_err(),
        StateError::Invalid("more open levels than the tree height allows")
    );
}

/// No malformed state panics: every truncation and every single-byte change
/// of a sequential and a tree state is refused or imported, and an imported
/// one hashes.
#[test]
fn no_panic_on_any_truncation_or_byte_change() {
    fn probe<const W: usize>(bytes: &[u8]) {
        if let Ok(mut h) = Skein::<W>::import_state(bytes) {
            if bytes[10] & 1 == 0 {
                // No bit-padded last byte: more input is allowed.
                h.update(&[1u8; 300]);
            }
            // Through the reader: a changed output length may be huge.
            let _ = h.finalize_xof().fill(&mut [0u8; 64]);
        }
    }
    let mut h = Skein256::with_params(&Params::new().key(b"key")).unwrap();
    h.update(&[9u8; 77]);
    for good in [h.export_state().to_vec(), tree_state()] {
        for n in 0..good.len() {
            assert!(
                Skein256::import_state(&good[..n]).is_err(),
                "truncated to {n}"
            );
        }
        for i in 0..good.len() {
            for v in [0u8, 1, 2, 0x7f, 0x80, 0xff] {
                let mut bad = good.clone();
                bad[i] = v;
                probe::<4>(&bad);
            }
        }
    }
}

/// Leaves too large to batch (2 MiB, streamed through the leaf UBI) and
/// small ones (batched), saved mid-leaf, at a leaf boundary and mid-node:
/// the uninterrupted hash.
#[test]
fn resumed_trees_with_streamed_and_batched_leaves() {
    let msg: Vec<u8> = (0..5_000_000u32).map(|i| (i ^ (i >> 9)) as u8).collect();
    for (leaf, cuts) in [
        (15u8, [1usize, 2 << 20, (2 << 20) + 100, 4_999_999]),
        (2, [1, 256, 4096 + 7, 1_000_001]),
    ] {
        let params = Params::new()
            .key(b"k")
            .tree(TreeParams::new(leaf, 1, 3).unwrap());
        let mut whole = Skein512::with_params(&params).unwrap();
        whole.update(&msg);
        let want = whole.finalize_vec();
        let mut h = Skein512::with_params(&params).unwrap();
        let mut at = 0;
        for cut in cuts {
            h.update(&msg[at..cut]);
            at = cut;
            h = Skein512::import_state(&h.export_state()).unwrap();
        }
        h.update(&msg[at..]);
        assert_eq!(h.finalize_vec(), want, "leaf 2^{leaf} blocks");
    }
}
