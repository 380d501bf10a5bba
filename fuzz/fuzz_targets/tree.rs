//! Tree hashing (`Params::tree`) against the sequential level-by-level
//! reference of `tests/support/src/reference.rs` (public `Threefish` only), for every state size,
//! tree shape, Skein argument, bit length and split of the input across
//! `update` calls, on every backend this CPU has and the automatic choice
//! (multi-lane kernels and threads), and through `SkeinMany`.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use skein_simd::{Backend, Params, Skein, SkeinMany, TreeParams};
use skein_simd_test_support::reference::{self, Args};

/// Messages are stretched to at most this many bytes: enough leaves for the
/// lanes and threads, still quick for the reference.
const MAX_MESSAGE: usize = 256 << 10;

#[derive(Arbitrary, Debug)]
struct Input {
    state: u8,
    output_bits: u16,
    key: Vec<u8>,
    personalization: Vec<u8>,
    public_key: Vec<u8>,
    key_id: Vec<u8>,
    nonce: Vec<u8>,
    leaf: u8,
    fan_out: u8,
    height: u8,
    /// The message is repeated to `len << (stretch % 16)` bytes (capped).
    stretch: u8,
    /// Sizes of consecutive `update` calls (0 included); the rest in one.
    pieces: Vec<u32>,
    /// `% 8`: bits of the message's last byte (0: all 8).
    last_byte_bits: u8,
    message: Vec<u8>,
}

/// Mostly small exponents (deep trees over few bytes), sometimes any value.
fn exponent(raw: u8, min: u8, span: u8) -> u8 {
    if raw >= 0xf0 {
        raw.max(min)
    } else {
        min + raw % span
    }
}

fn stretched(input: &Input) -> Vec<u8> {
    let seed = &input.message;
    if seed.is_empty() {
        return Vec::new();
    }
    let len = (seed.len() << (input.stretch % 16)).min(MAX_MESSAGE.max(seed.len()));
    // Each repetition differs, so equal leaves do not hide position errors.
    (0..len)
        .map(|i| seed[i % seed.len()] ^ (i / seed.len()) as u8)
        .collect()
}

fn library<const W: usize>(
    params: &Params<'_>,
    input: &Input,
    msg: &[u8],
    partial: u64,
) -> Vec<u8> {
    let mut h = Skein::<W>::with_params(params).unwrap();
    let keep = usize::from(partial != 0 && !msg.is_empty());
    let (mut rest, last) = msg.split_at(msg.len() - keep);
    for &piece in &input.pieces {
        let (now, later) = rest.split_at((piece as usize).min(rest.len()));
        h.update(now);
        rest = later;
    }
    h.update(rest);
    if keep == 1 {
        h.update_bits(last, partial);
    }
    h.finalize_vec()
}

fn check<const W: usize>(input: &Input) {
    let shape = (
        exponent(input.leaf, 1, 5),
        exponent(input.fan_out, 1, 4),
        exponent(input.height, 2, 6),
    );
    let tree = TreeParams::new(shape.0, shape.1, shape.2).unwrap();
    let msg = stretched(input);
    let partial = if msg.is_empty() {
        0
    } else {
        u64::from(input.last_byte_bits % 8)
    };
    let bits = 8 * msg.len() as u64 - if partial == 0 { 0 } else { 8 - partial };
    // Short outputs: the output stage is the backends target's business.
    let output_bits = 1 + u64::from(input.output_bits % 1100);
    let args = Args {
        output_bits,
        key: &input.key,
        personalization: &input.personalization,
        public_key: &input.public_key,
        key_id: &input.key_id,
        nonce: &input.nonce,
        tree: Some(shape),
    };
    let want = reference::skein::<W>(&args, &msg, bits);
    let params = Params::new()
        .output_bits(output_bits)
        .key(&input.key)
        .personalization(&input.personalization)
        .public_key(&input.public_key)
        .key_id(&input.key_id)
        .nonce(&input.nonce)
        .tree(tree);
    let describe = |what: &str| format!("Skein-{} tree {shape:?}, {bits} bits, {what}", 64 * W);
    assert_eq!(
        library::<W>(&params, input, &msg, partial),
        want,
        "{}",
        describe("automatic")
    );
    for backend in Backend::ALL.iter().copied().filter(|b| b.is_available()) {
        let got = library::<W>(&params.backend(backend), input, &msg, partial);
        assert_eq!(got, want, "{}", describe(backend.name()));
    }
    if partial == 0 {
        let many = SkeinMany::<W>::with_params(&params).unwrap();
        assert_eq!(
            many.hash_many_vec(&[&msg]),
            [want],
            "{}",
            describe("SkeinMany")
        );
    }
}

fuzz_target!(|input: Input| {
    match input.state % 3 {
        0 => check::<4>(&input),
        1 => check::<8>(&input),
        _ => check::<16>(&input),
    }
});
