//! RustCrypto `skein` 0.2's serialized-state layout, the state format of
//! the `digest` types' `SerializableState` (`digest_impl` holds the trait
//! implementations; `versioned.rs` beside this file the crate's own,
//! self-describing format).

use crate::hasher::{Message, Skein};
use digest::common::hazmat::DeserializeStateError;

/// Bytes of RustCrypto `skein` 0.2's state layout for a `W`-word state:
/// the tweak (2 words), the chaining value (W words), the count of buffered
/// bytes (1 byte, 0 ..= 8W) and the buffer (8W bytes, zero after the count),
/// integers little-endian. Like this crate's hasher it keeps the last block
/// buffered until more input shows it is not the last.
pub(crate) const fn layout_bytes<const W: usize>() -> usize {
    16 + 16 * W + 1
}

/// Write `h`'s message state in RustCrypto `skein` 0.2's layout.
pub(crate) fn serialize_layout<const W: usize>(h: &Skein<W>, out: &mut [u8]) {
    #[allow(clippy::infallible_destructuring_match)] // without `alloc`, no trees
    let u = match &h.msg {
        Message::Sequential(u) => u,
        #[cfg(feature = "alloc")]
        Message::Tree(_) => unreachable!("the digest types never hash trees"),
    };
    let (tweak, chain) = out[..16 + 8 * W].split_at_mut(16);
    crate::threefish::words_to_le(&u.tweak(), tweak);
    crate::threefish::words_to_le(u.chain(), chain);
    let buffered = u.buffered();
    out[16 + 8 * W] = buffered.len() as u8;
    let block = &mut out[17 + 8 * W..layout_bytes::<W>()];
    block[..buffered.len()].copy_from_slice(buffered);
    block[buffered.len()..].fill(0);
}

/// A hasher from RustCrypto `skein` 0.2's layout, which must describe a
/// message UBI: type message, first-block flag exactly when no block is
/// compressed, no final or bit-pad flag, tree level 0, a position of whole
/// blocks at most `MAX_RESUMED_POSITION` (as `import_state`: more input can
/// then never reach the tweak's reserved bits), a buffered count of at most
/// one block with zeros after it, at least one byte buffered once a block is compressed, and the starting
/// chaining value `start` while none is.
pub(crate) fn deserialize_layout<const W: usize>(
    bytes: &[u8],
    start: [u64; W],
    output_bits: u64,
) -> Result<Skein<W>, DeserializeStateError> {
    use crate::spec::{BlockType, T1_FIRST, T1_TYPE_SHIFT};
    let tweak: [u64; 2] = read_words(&bytes[..16]);
    let chain: [u64; W] = read_words(&bytes[16..16 + 8 * W]);
    let count = bytes[16 + 8 * W] as usize;
    let block = &bytes[17 + 8 * W..layout_bytes::<W>()];
    let position = tweak[0] as u128 | ((tweak[1] & 0xFFFF_FFFF) as u128) << 64;
    let first = if position == 0 { T1_FIRST } else { 0 };
    let valid = tweak[1] & !0xFFFF_FFFF == ((BlockType::Message as u64) << T1_TYPE_SHIFT) | first
        && position.is_multiple_of(8 * W as u128)
        && position <= crate::hasher::MAX_RESUMED_POSITION
        && count <= 8 * W
        && block[count..].iter().all(|&b| b == 0)
        && (position == 0 || count > 0)
        && (position > 0 || chain == start);
    if !valid {
        return Err(DeserializeStateError);
    }
    let u = crate::ubi::Ubi::from_parts(chain, tweak, &block[..count]);
    Ok(Skein::from_parts(
        crate::Platform::detect(),
        output_bits,
        start,
        Message::Sequential(u),
        false,
    ))
}

/// `N` little-endian words.
fn read_words<const N: usize>(bytes: &[u8]) -> [u64; N] {
    core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()))
}

/// The layout, then the keyed start chain and the output length in bits
/// (the MAC and XOF types).
pub(crate) fn serialize_keyed<const W: usize>(h: &Skein<W>, out: &mut [u8]) {
    let n = layout_bytes::<W>();
    serialize_layout(h, &mut out[..n]);
    crate::threefish::words_to_le(&h.start, &mut out[n..n + 8 * W]);
    out[n + 8 * W..].copy_from_slice(&h.output_bits().to_le_bytes());
}

/// A keyed state of the type whose output length is `output_bits`: the
/// saved output length must be it (a MAC of another tag length or an
/// XOF has the same layout).
pub(crate) fn deserialize_keyed<const W: usize>(
    state: &[u8],
    output_bits: u64,
) -> Result<Skein<W>, DeserializeStateError> {
    let n = layout_bytes::<W>();
    let saved_bits = u64::from_le_bytes(state[n + 8 * W..].try_into().unwrap());
    if saved_bits != output_bits {
        return Err(DeserializeStateError);
    }
    let start = read_words::<W>(&state[n..n + 8 * W]);
    deserialize_layout::<W>(&state[..n], start, output_bits)
}

/// A state of a fixed-length type (the layout alone): `output_bits` is the
/// type's, whose plain configuration is the start.
pub(crate) fn deserialize_fixed<const W: usize>(
    state: &[u8],
    output_bits: u64,
) -> Result<Skein<W>, DeserializeStateError> {
    let start = crate::params::plain_chain::<W>(output_bits);
    deserialize_layout::<W>(state, start, output_bits)
}

/// The layout, then the output length in bits (the run-time-length type).
pub(crate) fn serialize_with_length<const W: usize>(h: &Skein<W>, out: &mut [u8]) {
    let n = layout_bytes::<W>();
    serialize_layout(h, &mut out[..n]);
    out[n..].copy_from_slice(&h.output_bits().to_le_bytes());
}

/// A state of the run-time-length type: a saved output length of whole
/// bytes, 1 ..= `max_bytes`, whose plain configuration is the start.
pub(crate) fn deserialize_with_length<const W: usize>(
    state: &[u8],
    max_bytes: u64,
) -> Result<Skein<W>, DeserializeStateError> {
    let n = layout_bytes::<W>();
    let bits = u64::from_le_bytes(state[n..].try_into().unwrap());
    let bytes = bits / 8;
    if bits % 8 != 0 || bytes == 0 || bytes > max_bytes {
        return Err(DeserializeStateError);
    }
    deserialize_fixed::<W>(&state[..n], bits)
}
