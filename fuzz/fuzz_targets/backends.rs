//! Every backend against `portable`, through the public API only.
//!
//! One input fixes a state size, every Skein argument (output length, key,
//! personalization, public key, key identifier, nonce, tree shape), a message,
//! a way to split it across `update`/`update_bits` calls and a bit length.
//! The target checks that
//! - every backend this CPU has (`Params::backend`), the automatic choice and
//!   `DynSkein` give portable's result, for that split and for one update;
//! - an unavailable backend is refused with `BackendUnavailable`;
//! - `SkeinMany` on every multi-lane kernel and `hash_many` give, for the
//!   pieces of the split as separate messages, the one-at-a-time results;
//! - portable equals the plain reference of `tests/support/src/reference.rs` (public `Threefish`
//!   only) for every argument, and plain hashes equal RustCrypto's `skein`
//!   0.1, an independent implementation.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use skein_simd::{Backend, DynSkein, Error, Params, Skein, SkeinMany, StateSize, TreeParams};
use skein_simd_test_support::reference::{self, Args};

/// Up to 17 output blocks for Skein-256 and 5 for Skein-1024: the counter-mode
/// output stage without letting it dominate the run time.
const MAX_OUTPUT_BITS: u16 = 4200;

#[derive(Arbitrary, Debug)]
enum Piece {
    /// `update` with this many bytes (0 included).
    Bytes(u16),
    /// `update_bits` with this many whole bytes.
    WholeBits(u16),
}

#[derive(Arbitrary, Debug)]
struct Input {
    state: u8,
    /// `% MAX_OUTPUT_BITS`; 0 must be refused.
    output_bits: u16,
    key: Vec<u8>,
    personalization: Vec<u8>,
    public_key: Vec<u8>,
    key_id: Vec<u8>,
    nonce: Vec<u8>,
    tree: Option<(u8, u8, u8)>,
    pieces: Vec<Piece>,
    /// `% 8`: bits of the message's last byte (0: all 8).
    last_byte_bits: u8,
    /// Picks the output length of the RustCrypto comparison.
    oracle_len: u8,
    message: Vec<u8>,
}

/// The message in `update` / `update_bits` calls as `pieces` say, the rest in
/// one call; with a partial last byte, the rest goes to `update_bits`.
fn feed<const W: usize>(h: &mut Skein<W>, input: &Input) {
    let partial = u64::from(input.last_byte_bits % 8);
    let mut rest = &input.message[..];
    for piece in &input.pieces {
        let (Piece::Bytes(n) | Piece::WholeBits(n)) = *piece;
        // Keep the last byte for the final call when it is partial.
        let room = rest.len() - usize::from(partial != 0 && !rest.is_empty());
        let (now, later) = rest.split_at(usize::from(n).min(room));
        match piece {
            Piece::Bytes(_) => h.update(now),
            Piece::WholeBits(_) => h.update_bits(now, 8 * now.len() as u64),
        }
        rest = later;
    }
    finish_bits(h, rest, partial);
}

/// The whole message in one `update` (and the partial byte in `update_bits`).
fn feed_at_once<const W: usize>(h: &mut Skein<W>, input: &Input) {
    let partial = u64::from(input.last_byte_bits % 8);
    if partial == 0 || input.message.is_empty() {
        h.update(&input.message);
    } else {
        let (whole, last) = input.message.split_at(input.message.len() - 1);
        h.update(whole);
        h.update_bits(last, partial);
    }
}

fn finish_bits<const W: usize>(h: &mut Skein<W>, rest: &[u8], partial: u64) {
    if partial == 0 || rest.is_empty() {
        h.update(rest);
    } else {
        h.update_bits(rest, 8 * rest.len() as u64 - (8 - partial));
    }
}

fn hash<const W: usize>(params: &Params<'_>, input: &Input, split: bool) -> Result<Vec<u8>, Error> {
    let mut h = Skein::<W>::with_params(params)?;
    if split {
        feed(&mut h, input);
    } else {
        feed_at_once(&mut h, input);
    }
    Ok(h.finalize_vec())
}

/// The pieces of the split as separate messages (whole bytes only).
fn messages(input: &Input) -> Vec<&[u8]> {
    let mut rest = &input.message[..];
    let mut list = Vec::new();
    for piece in &input.pieces {
        let (Piece::Bytes(n) | Piece::WholeBits(n)) = *piece;
        let (now, later) = rest.split_at(usize::from(n).min(rest.len()));
        list.push(now);
        rest = later;
    }
    list.push(rest);
    list
}

fn check<const W: usize>(input: &Input) {
    let state = StateSize::from_bits(64 * W as u64).unwrap();
    let tree = input.tree.and_then(|(yl, yf, ym)| {
        let t = TreeParams::new(yl, yf, ym);
        assert_eq!(
            t.is_ok(),
            yl >= 1 && yf >= 1 && ym >= 2,
            "TreeParams::new({yl}, {yf}, {ym})"
        );
        t.ok()
    });
    let mut params = Params::new()
        .output_bits(u64::from(input.output_bits % MAX_OUTPUT_BITS))
        .key(&input.key)
        .personalization(&input.personalization)
        .public_key(&input.public_key)
        .key_id(&input.key_id)
        .nonce(&input.nonce);
    if let Some(t) = tree {
        params = params.tree(t);
    }
    let portable = params.backend(Backend::Portable);
    let want = hash::<W>(&portable, input, true);
    match &want {
        Err(e) => assert!(
            input.output_bits.is_multiple_of(MAX_OUTPUT_BITS) && *e == Error::ZeroOutputBits,
            "{e:?}"
        ),
        Ok(d) => {
            let partial = if input.message.is_empty() {
                0
            } else {
                u64::from(input.last_byte_bits % 8)
            };
            let bits = 8 * input.message.len() as u64 - if partial == 0 { 0 } else { 8 - partial };
            let args = Args {
                output_bits: u64::from(input.output_bits % MAX_OUTPUT_BITS),
                key: &input.key,
                personalization: &input.personalization,
                public_key: &input.public_key,
                key_id: &input.key_id,
                nonce: &input.nonce,
                tree: tree.map(|t| (t.leaf_log2(), t.fan_out_log2(), t.max_height())),
            };
            assert_eq!(
                *d,
                reference::skein::<W>(&args, &input.message, bits),
                "portable against the reference"
            );
        }
    }
    assert_eq!(
        hash::<W>(&portable, input, false),
        want,
        "portable: split vs one update"
    );
    assert_eq!(hash::<W>(&params, input, true), want, "automatic choice");
    for &backend in Backend::ALL {
        let forced = params.backend(backend);
        if !backend.is_available() {
            let refused = Skein::<W>::with_params(&forced).err();
            // Zero output bits may be reported first.
            assert!(
                matches!(refused, Some(Error::BackendUnavailable(b)) if b == backend)
                    || want.is_err(),
                "{backend}: {refused:?}"
            );
            continue;
        }
        assert_eq!(hash::<W>(&forced, input, true), want, "{backend}, split");
        assert_eq!(
            hash::<W>(&forced, input, false),
            want,
            "{backend}, one update"
        );
    }

    // DynSkein: the same hasher behind a run-time state size.
    match DynSkein::new(state, &params) {
        Err(e) => assert_eq!(Err(e), want),
        Ok(mut h) => {
            let partial = u64::from(input.last_byte_bits % 8);
            match input.message.split_last() {
                Some((last, whole)) if partial != 0 => {
                    h.update(whole);
                    h.update_bits(&[*last], partial);
                }
                _ => h.update(&input.message),
            }
            assert_eq!(Ok(h.finalize_vec()), want, "DynSkein");
        }
    }

    // Many messages at once against one at a time.
    let messages = messages(input);
    let one_at_a_time: Result<Vec<Vec<u8>>, Error> = messages
        .iter()
        .map(|m| {
            let mut h = Skein::<W>::with_params(&portable)?;
            h.update(m);
            Ok(h.finalize_vec())
        })
        .collect();
    assert_eq!(
        SkeinMany::<W>::with_params(&params).map(|many| many.hash_many_vec(&messages)),
        one_at_a_time,
        "hash_many, automatic"
    );
    for &backend in Backend::ALL {
        let forced = params.backend(backend);
        match SkeinMany::<W>::with_params(&forced) {
            Ok(many) => {
                // The rule of `Platform::force`: the backend's own lane
                // kernel, or the portable one where it has none (asm).
                assert!(backend.is_available(), "{backend} is available");
                let kernel = if backend.lanes().is_some() {
                    backend
                } else {
                    Backend::Portable
                };
                assert_eq!(many.backend(), kernel, "SkeinMany kernel for {backend}");
                assert_eq!(
                    Ok(many.hash_many_vec(&messages)),
                    one_at_a_time,
                    "SkeinMany on {backend}"
                );
            }
            Err(Error::BackendUnavailable(b)) => {
                assert!(b == backend && !backend.is_available(), "{backend}")
            }
            Err(e) => assert_eq!(Err(e), one_at_a_time, "SkeinMany::with_params on {backend}"),
        }
    }
}

/// Plain Skein-N-8n of the message against RustCrypto's `skein`.
fn oracle(input: &Input) {
    use skein::digest::{consts::*, Digest};
    macro_rules! compare {
        ($state:ident, $w:literal, $($n:ident = $bytes:literal),*) => {{
            let sizes: &[usize] = &[$($bytes),*];
            let bytes = sizes[usize::from(input.oracle_len) % sizes.len()];
            let theirs = match bytes {
                $($bytes => skein::$state::<$n>::digest(&input.message).to_vec(),)*
                _ => unreachable!(),
            };
            let ours = Skein::<$w>::hash_vec(8 * bytes as u64, &input.message);
            assert_eq!(ours, theirs, "{} with {bytes} output bytes", stringify!($state));
        }};
    }
    match input.state % 3 {
        0 => compare!(
            Skein256,
            4,
            U1 = 1,
            U16 = 16,
            U20 = 20,
            U28 = 28,
            U32 = 32,
            U33 = 33,
            U64 = 64,
            U100 = 100
        ),
        1 => compare!(
            Skein512,
            8,
            U1 = 1,
            U20 = 20,
            U32 = 32,
            U48 = 48,
            U64 = 64,
            U65 = 65,
            U128 = 128,
            U200 = 200
        ),
        _ => compare!(
            Skein1024,
            16,
            U1 = 1,
            U48 = 48,
            U64 = 64,
            U128 = 128,
            U129 = 129,
            U256 = 256,
            U300 = 300
        ),
    }
}

fuzz_target!(|input: Input| {
    match input.state % 3 {
        0 => check::<4>(&input),
        1 => check::<8>(&input),
        _ => check::<16>(&input),
    }
    oracle(&input);
});
