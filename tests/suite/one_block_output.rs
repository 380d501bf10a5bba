//! The end of every hash whose digest fits in one block (the message UBI's
//! last block and output block 0 in one call of the block function, in
//! `Skein::hash_into`, `finalize_into` and `hazmat::compress_then_output`)
//! against the spec oracle of the test-support crate: every digest length
//! up to one block, in bits through the hashers and in bytes through
//! `hazmat`, for empty messages, partial and whole last blocks and several
//! blocks, on every backend, all three state sizes.

use skein_simd_test_support as support;

use skein_simd::{hazmat, Backend, Params, Platform, Skein};
use support::reference::{argument_chain, skein, ubi, Args, TYPE_MSG};
use support::spec::{T1_FINAL, T1_FIRST};

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
                if output_bits % 8 == 0 {
                    hazmat_case::<W>(backend, &args, &msg, &want);
                }
                if output_bits == 8 * nb as u64 {
                    // An empty `out`: nothing written, the chain and
                    // tweak as ever.
                    hazmat_case::<W>(backend, &args, &msg, &[]);
                }
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

/// `hazmat::compress_then_output` on `backend` ends the message UBI of
/// `msg` (earlier blocks through `hazmat::compress`) and writes `want`, the
/// oracle's digest of `want.len()` bytes, into an `out` of that length,
/// touching nothing past it; the chain and tweak end as the UBI leaves them.
fn hazmat_case<const W: usize>(backend: Backend, args: &Args<'_>, msg: &[u8], want: &[u8]) {
    let nb = 8 * W;
    let platform = Platform::force(backend).unwrap();
    let what = format!(
        "hazmat {backend:?} W={W} len={} out={}",
        msg.len(),
        want.len()
    );
    // Unkeyed: the configuration UBI from the zero chain.
    assert!(args.key.is_empty(), "hazmat_case is for unkeyed arguments");
    let mut chain = hazmat::config_chain::<W>(&platform, &[0; W], args.output_bits, 0);
    let mut tweak = [0, T1_FIRST | TYPE_MSG << 56];
    let body = msg.len().saturating_sub(1) / nb * nb;
    hazmat::compress::<W>(&platform, &mut chain, &mut tweak, &msg[..body], nb as u64);
    let mut last = vec![0u8; nb];
    last[..msg.len() - body].copy_from_slice(&msg[body..]);
    tweak[1] |= T1_FINAL;
    // One byte past `out` that must stay as it is.
    let mut buf = vec![0xa5u8; want.len() + 1];
    let fill = (msg.len() - body) as u64;
    let out = &mut buf[..want.len()];
    hazmat::compress_then_output::<W>(&platform, &mut chain, &mut tweak, &last, fill, out);
    assert_eq!(&buf[..want.len()], want, "{what}");
    assert_eq!(buf[want.len()], 0xa5, "byte past out: {what}");
    let g = ubi::<W>(&argument_chain::<W>(args), msg, TYPE_MSG, 0, 0, false);
    let got: Vec<u8> = chain.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(got, g, "chain: {what}");
    let t1 = T1_FINAL | TYPE_MSG << 56;
    assert_eq!(tweak, [msg.len() as u64, t1], "tweak: {what}");
}

#[test]
#[should_panic(expected = "hazmat::compress_then_output: out longer than one block (64 bytes)")]
fn compress_then_output_refuses_more_than_a_block() {
    let platform = Platform::detect();
    let mut chain = hazmat::config_chain::<8>(&platform, &[0; 8], 520, 0);
    let mut tweak = [0, T1_FIRST | T1_FINAL | TYPE_MSG << 56];
    let mut out = [0u8; 65];
    hazmat::compress_then_output::<8>(&platform, &mut chain, &mut tweak, &[0; 64], 0, &mut out);
}
