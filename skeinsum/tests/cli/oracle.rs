//! Expected values from independent sources only: the RustCrypto `skein`
//! crate (plain hashing, outputs up to the state size), pyskein 1.0 (the
//! digests of large zero files) and entries of the
//! official golden file `skein_golden_kat.txt` (keys, trees, long
//! outputs), never earlier output of the tool; and the deterministic
//! contents of test files.

use skein::digest::consts::{U1, U128, U32, U48, U64};
use skein::Digest;

use skein_simd_test_support::load_golden_kat;

/// Skein-STATE-OUT of `data` by the RustCrypto `skein` crate.
pub fn rustcrypto_digest(state: u32, out_bits: u32, data: &[u8]) -> Vec<u8> {
    match (state, out_bits) {
        (256, 256) => skein::Skein256::<U32>::digest(data).to_vec(),
        (512, 8) => skein::Skein512::<U1>::digest(data).to_vec(),
        (512, 256) => skein::Skein512::<U32>::digest(data).to_vec(),
        (512, 384) => skein::Skein512::<U48>::digest(data).to_vec(),
        (512, 512) => skein::Skein512::<U64>::digest(data).to_vec(),
        (1024, 384) => skein::Skein1024::<U48>::digest(data).to_vec(),
        (1024, 512) => skein::Skein1024::<U64>::digest(data).to_vec(),
        (1024, 1024) => skein::Skein1024::<U128>::digest(data).to_vec(),
        _ => panic!("no reference for Skein-{state}-{out_bits}"),
    }
}

/// Skein-STATE-OUT of `data` in hex, by the RustCrypto `skein` crate.
pub fn reference(state: u32, out_bits: u32, data: &[u8]) -> String {
    hex::encode(rustcrypto_digest(state, out_bits, data))
}

/// Skein-512-512 of `len` zero bytes, for the large-file tests: computed
/// once by pyskein 1.0 (`skein.skein512()` fed 1 MiB of zeros at a time), so
/// that no test spends a minute hashing hundreds of MiB in an unoptimized
/// oracle.
pub fn reference_zeros(len: u64) -> String {
    let hex = match len {
        0x400_0000 => {
            "5448e2d705873040e140955e88bb2a30c926e52ce271e38b959295773c791b37\
             44abd12b635ca6edb060a33073698fcb42c5f833ca1c8cfc80e92557652c6c38"
        }
        0x2000_0000 => {
            "6e8bba68134261ac992e3d01ad886c1f7ac74f51fe4647f888a8db34b7f97d9d\
             d4cde16e40bdb3614081a4889a1961b3b80efac99647ede3513157cf1e723c47"
        }
        _ => panic!("no pyskein digest of {len} zero bytes recorded"),
    };
    hex.to_owned()
}

/// The line sha256sum's format gives `data` under `name` (a name needing
/// no escape), Skein-STATE-BITS by RustCrypto.
pub fn gnu_line(state: u32, bits: u32, data: &[u8], name: &str) -> String {
    format!("{}  {name}\n", reference(state, bits, data))
}

/// [`gnu_line`] of the default algorithm, Skein-512-512.
pub fn line(data: &[u8], name: &str) -> String {
    gnu_line(512, 512, data, name)
}

/// The bytes of hex text that may be broken by whitespace.
pub fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    hex::decode(s).unwrap()
}

/// Deterministic non-trivial bytes.
pub fn pattern(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12345);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 11) as u8
        })
        .collect()
}

// ---------------------------------------------------------------- golden file

/// One entry of the official golden KAT file, as the loader shared with the
/// library's tests (`tests/support/`) reads it.
pub use skein_simd_test_support::KatEntry as Kat;

/// Every entry of the golden file, by the shared loader: a missing file
/// fails the test (it says how to fetch it).
pub fn golden() -> Vec<Kat> {
    load_golden_kat()
}

/// An entry's expected digest in lower-case hex.
pub fn kat_hex(e: &Kat) -> String {
    hex::encode(&e.result)
}

/// The entries of the golden file that `keep` keeps.
pub fn golden_where(keep: impl Fn(&Kat) -> bool) -> Vec<Kat> {
    golden().into_iter().filter(|e| keep(e)).collect()
}

/// The tree entries of whole bytes and no key (at least one).
pub fn golden_trees() -> Vec<Kat> {
    let trees = golden_where(|e| {
        e.tree.is_some() && e.msg_bits % 8 == 0 && e.key.as_ref().is_none_or(|k| k.is_empty())
    });
    assert!(!trees.is_empty(), "the golden file has tree entries");
    trees
}

/// The options that select an entry's Skein: `-a`, `-l`, its key and tree.
pub fn kat_args(e: &Kat) -> Vec<String> {
    let mut args = vec![
        "-a".to_string(),
        e.state_bits.to_string(),
        "-l".to_string(),
        e.output_bits.to_string(),
    ];
    // A key of 0 bytes is no key in Skein (the golden file has such MAC
    // entries); skeinsum refuses an empty key, so those go without one.
    if let Some(k) = e.key.as_ref().filter(|k| !k.is_empty()) {
        args.push(format!("--key-hex={}", hex::encode(k)));
    }
    if let Some((l, f, m)) = e.tree {
        args.push(format!("--tree={l},{f},{m}"));
    }
    args
}
