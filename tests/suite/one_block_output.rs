//! The end of every hash whose digest fits in one block (the message UBI's
//! last block and output block 0 in one call of the block function, in
//! `Skein::hash_into` and `finalize_into`) against the spec oracle of the
//! test-support crate: every digest length up to one block, in bits, for
//! empty messages, partial and whole last blocks and several blocks, on
//! every backend, all three state sizes.

use skein_simd_test_support as support;

use skein_simd::{Backend, Params, Skein};
use support::reference::{skein, Args};

/// Message lengths in bytes for a block of `nb` bytes: empty, partial,
/// exactly one block, one past it, and several whole blocks.
fn lengths(nb: usize) -> [usize; 6] {
    [0, 1, nb - 1, nb, nb + 1, 3 * nb]
}

fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

fn check<const W: usize>(backends: &[Backend]) {
    let nb = 8 * W;
    for len in lengths(nb) {
        let msg = message(len);
        for output_bits in 1..=8 * nb as u64 {
            let args = Args {
                output_bits,
                ..Args::default()
            };
            let want = skein::<W>(&args, &msg, 8 * len as u64);
            let mut got = vec![0u8; want.len()];
            Skein::<W>::hash_into(output_bits, &msg, &mut got);
            assert_eq!(got, want, "hash_into W={W} len={len} bits={output_bits}");
            for &backend in backends {
                let params = Params::new().output_bits(output_bits).backend(backend);
                let mut h = Skein::<W>::with_params(&params).unwrap();
                h.update(&msg);
                let mut got = vec![0u8; want.len()];
                h.finalize_into(&mut got);
                assert_eq!(
                    got, want,
                    "finalize {backend:?} W={W} len={len} bits={output_bits}"
                );
            }
        }
        // A key (another chain before the message) and a last partial byte
        // (the bit-pad flag on the last block), at a whole and a partial
        // output block.
        let key = message(nb + 5);
        for output_bits in [8 * nb as u64, 8 * nb as u64 - 3] {
            let args = Args {
                output_bits,
                key: &key,
                ..Args::default()
            };
            let bits = (8 * len as u64).saturating_sub(3);
            let want = skein::<W>(&args, &msg, bits);
            for &backend in backends {
                let params = Params::new()
                    .output_bits(output_bits)
                    .key(&key)
                    .backend(backend);
                let mut h = Skein::<W>::with_params(&params).unwrap();
                h.update_bits(&msg, bits);
                assert_eq!(
                    h.finalize_vec(),
                    want,
                    "keyed {backend:?} W={W} len={len} bits={output_bits}"
                );
            }
        }
    }
}

#[test]
fn every_one_block_digest_length_matches_the_spec_oracle() {
    let backends = support::backends();
    check::<4>(&backends);
    check::<8>(&backends);
    check::<16>(&backends);
}
