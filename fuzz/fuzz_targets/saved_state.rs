//! Saved states: `import_state` (`Skein`, `DynSkein`) and digest 0.11's
//! `SerializableState::deserialize` on any bytes never panic, and a state
//! they accept saves back to the same bytes and can be finished; after more
//! input it saves bytes they accept again, unless it has passed the
//! position limit (2^96 - 2^64) or the leaf counter's room. A hash saved
//! and resumed at any cuts of its message (trees mid-stream and bit-padded
//! ends included) gives the tests' reference Skein; the saved bytes,
//! edited or truncated, are refused or restore to themselves.
#![no_main]

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use skein_simd::digest::common::hazmat::{SerializableState, SerializedState};
use skein_simd::digest::{ExtendableOutput, Update, XofReader};
use skein_simd::{DynSkein, Params, Skein, StateError, StateSize, TreeParams};
use skein_simd::{Skein1024Var, Skein1024Xof, Skein1024_1024, Skein256Var, Skein256Xof};
use skein_simd::{Skein256_256, Skein512Var, Skein512Xof, Skein512_256, SkeinMac1024_1024};
use skein_simd::{SkeinMac256_256, SkeinMac512_256};
use skein_simd_test_support::reference::{self, Args};

#[derive(Arbitrary, Debug)]
struct Input {
    /// Bytes given to every importer as they are.
    raw: Vec<u8>,
    state: u8,
    output_bits: u16,
    key: Vec<u8>,
    nonce: Vec<u8>,
    /// Small exponents (cheap trees), when present.
    tree: Option<(u8, u8, u8)>,
    message: Vec<u8>,
    /// Message lengths at which the state is saved and resumed.
    cuts: Vec<u16>,
    /// `% 8`: bits of the message's last byte (0: all 8).
    last_byte_bits: u8,
    /// Changes to the last saved state: (index, xor).
    edits: Vec<(u16, u8)>,
    truncate: Option<u16>,
}

/// Finish a hasher without a huge output: the first bytes through the reader.
fn finish<const W: usize>(h: Skein<W>) {
    let mut out = [0u8; 80];
    let mut r = h.finalize_xof();
    let n = r.fill(&mut out);
    assert_eq!(n as u64, r.len().min(80));
}

/// Input given to restored states: more than a block of every size.
const MORE: [u8; 200] = [0x5a; 200];

/// The highest message position a restored state may hold.
const LIMIT: u128 = (1 << 96) - (1 << 64);

/// Bytes that `import_state` accepts save back to themselves, and after
/// more input (unless the message ended in a partial byte) to bytes it
/// accepts unless they have passed a limit.
fn import_any<const W: usize>(bytes: &[u8]) {
    if let Ok(h) = Skein::<W>::import_state(bytes) {
        assert_eq!(&h.export_state()[..], bytes, "saved again");
        if bytes[10] & 1 == 0 {
            let mut more = h.clone();
            more.update(&MORE);
            match Skein::<W>::import_state(&more.export_state()) {
                Ok(_)
                | Err(StateError::Invalid(
                    "message position within 2^64 bytes of 2^96"
                    | "too many closed leaves to count 2^64 more bytes",
                )) => {}
                Err(e) => panic!("saved after more input: {e}"),
            }
        }
        finish(h);
    }
}

fn import_everywhere(bytes: &[u8]) {
    import_any::<4>(bytes);
    import_any::<8>(bytes);
    import_any::<16>(bytes);
    if let Ok(h) = DynSkein::import_state(bytes) {
        assert_eq!(&h.export_state()[..], bytes, "saved again (DynSkein)");
    }
}

/// `deserialize` of a digest type from the front of `bytes`: no panic; what
/// it accepts serializes to the same bytes and can be finished.
fn deserialize<T: SerializableState + Update>(bytes: &[u8], finish: impl Fn(T)) {
    let Some(front) = bytes.get(..<SerializedState<T>>::default().len()) else {
        return;
    };
    let state = SerializedState::<T>::try_from(front).unwrap();
    if let Ok(mut h) = T::deserialize(&state) {
        assert_eq!(h.serialize().as_slice(), front, "serialized again");
        h.update(&MORE);
        let again = h.serialize();
        let position = u128::from_le_bytes(again[..16].try_into().unwrap()) & ((1 << 96) - 1);
        if position <= LIMIT {
            assert!(
                T::deserialize(&again).is_ok(),
                "serialized after more input"
            );
        }
        finish(h);
    }
}

fn deserialize_every_type(bytes: &[u8]) {
    use skein_simd::digest::{FixedOutput, Mac};
    deserialize::<Skein256_256>(bytes, |h| {
        let _ = h.finalize_fixed();
    });
    deserialize::<Skein512_256>(bytes, |h| {
        let _ = h.finalize_fixed();
    });
    deserialize::<Skein1024_1024>(bytes, |h| {
        let _ = h.finalize_fixed();
    });
    deserialize::<SkeinMac256_256>(bytes, |h| {
        let _ = h.finalize();
    });
    deserialize::<SkeinMac512_256>(bytes, |h| {
        let _ = h.finalize();
    });
    deserialize::<SkeinMac1024_1024>(bytes, |h| {
        let _ = h.finalize();
    });
    let var = |size: usize| size <= 1 << 12;
    deserialize::<Skein256Var>(bytes, |h| {
        if var(h.output_size()) {
            let mut out = vec![0; h.output_size()];
            h.finalize_variable(&mut out).unwrap();
        }
    });
    deserialize::<Skein512Var>(bytes, |h| {
        if var(h.output_size()) {
            let mut out = vec![0; h.output_size()];
            h.finalize_variable(&mut out).unwrap();
        }
    });
    deserialize::<Skein1024Var>(bytes, |h| {
        if var(h.output_size()) {
            let mut out = vec![0; h.output_size()];
            h.finalize_variable(&mut out).unwrap();
        }
    });
    deserialize::<Skein256Xof>(bytes, |h| {
        ExtendableOutput::finalize_xof(h).read(&mut [0; 40])
    });
    deserialize::<Skein512Xof>(bytes, |h| {
        ExtendableOutput::finalize_xof(h).read(&mut [0; 40])
    });
    deserialize::<Skein1024Xof>(bytes, |h| {
        ExtendableOutput::finalize_xof(h).read(&mut [0; 40])
    });
}

fn check<const W: usize>(input: &Input) {
    let output_bits = u64::from(input.output_bits).max(1);
    let tree = input
        .tree
        .map(|(l, f, m)| (1 + l % 3, 1 + f % 3, 2 + m % 5));
    let mut params = Params::new()
        .output_bits(output_bits)
        .key(&input.key)
        .nonce(&input.nonce);
    if let Some((l, f, m)) = tree {
        params = params.tree(TreeParams::new(l, f, m).unwrap());
    }
    let msg = &input.message;
    let partial = u64::from(input.last_byte_bits % 8);
    let keep = usize::from(partial != 0 && !msg.is_empty());
    let (body, last) = msg.split_at(msg.len() - keep);

    let mut h = Skein::<W>::with_params(&params).unwrap();
    let mut saved = h.export_state();
    let mut at = 0;
    let mut cuts: Vec<usize> = input
        .cuts
        .iter()
        .map(|&c| c as usize % (body.len() + 1))
        .collect();
    cuts.sort_unstable();
    cuts.push(body.len());
    for cut in cuts {
        h.update(&body[at..cut]);
        at = cut;
        saved = h.export_state();
        h = Skein::<W>::import_state(&saved).expect("a saved state restores");
        assert_eq!(h.export_state(), saved, "saved again");
    }
    if keep == 1 {
        h.update_bits(last, partial);
        saved = h.export_state();
        h = Skein::<W>::import_state(&saved).expect("a bit-padded state restores");
    }
    let bits = 8 * body.len() as u64 + if keep == 1 { partial } else { 0 };
    let args = Args {
        output_bits,
        key: &input.key,
        nonce: &input.nonce,
        tree,
        ..Args::default()
    };
    assert_eq!(
        h.finalize_vec(),
        reference::skein::<W>(&args, msg, bits),
        "resumed hash"
    );

    // The last saved state, edited.
    let mut edited = saved.to_vec();
    for &(i, x) in &input.edits {
        if let Some(b) = edited.get_mut(i as usize % (saved.len() + 1)) {
            *b ^= x;
        }
    }
    if let Some(n) = input.truncate {
        edited.truncate(n as usize);
    }
    import_everywhere(&edited);
}

fuzz_target!(|input: Input| {
    import_everywhere(&input.raw);
    deserialize_every_type(&input.raw);
    if input.message.len() > 8192 {
        return;
    }
    match StateSize::from_bits(256 << (input.state % 3)).unwrap() {
        StateSize::S256 => check::<4>(&input),
        StateSize::S512 => check::<8>(&input),
        StateSize::S1024 => check::<16>(&input),
    }
});
