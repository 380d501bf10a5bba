//! A deliberately plain Skein (spec 3.4-3.5), the oracle of the tree tests
//! and of the fuzz targets: whole buffers, one Threefish block at a time on
//! the public `Threefish` cipher, trees built level by level. It shares no code with the library's UBI,
//! argument chain, tree or output stage, and is checked against the official
//! golden file by `tests/suite/tree.rs`.

use crate::spec::{T1_FINAL, T1_FIRST};
use skein_simd::Threefish;

/// Tweak bit 119 (spec 3.5.1): BitPad, the final block's last byte padded.
const T1_BIT_PAD: u64 = 1 << (119 - 64);

// The type field of the tweak (spec 3.5.1), bits 120..125.
const TYPE_KEY: u64 = 0;
const TYPE_CFG: u64 = 4;
const TYPE_PRS: u64 = 8;
const TYPE_PK: u64 = 12;
const TYPE_KDF: u64 = 16;
const TYPE_NON: u64 = 20;
pub const TYPE_MSG: u64 = 48;
const TYPE_OUT: u64 = 63;

/// Every argument of a Skein computation except the message.
#[derive(Clone, Copy, Debug, Default)]
pub struct Args<'a> {
    pub output_bits: u64,
    pub key: &'a [u8],
    pub personalization: &'a [u8],
    pub public_key: &'a [u8],
    pub key_id: &'a [u8],
    pub nonce: &'a [u8],
    /// (Yl, Yf, Ym), already valid.
    pub tree: Option<(u8, u8, u8)>,
}

/// UBI(G, M, Ts) with Ts = position + level·2^112 + type·2^120: the message
/// in blocks of 8·W bytes (the last one zero-padded, at least one block), the
/// tweak counting the bytes so far, first/final flags, and the bit-pad flag
/// on the final block when `bit_pad`.
pub fn ubi<const W: usize>(
    g: &[u8],
    msg: &[u8],
    ubi_type: u64,
    level: u64,
    position: u64,
    bit_pad: bool,
) -> Vec<u8> {
    ubi_from::<W>(g, msg, ubi_type, level, position.into(), true, bit_pad)
}

/// The rest of a UBI that stands at the 96-bit byte `position` with
/// chaining value `g`: `first` when no block of it is compressed yet (then
/// `g` is its starting value). [`ubi`] is the whole of one.
pub fn ubi_from<const W: usize>(
    g: &[u8],
    msg: &[u8],
    ubi_type: u64,
    level: u64,
    position: u128,
    first: bool,
    bit_pad: bool,
) -> Vec<u8> {
    let nb = 8 * W;
    let count = msg.len().div_ceil(nb).max(1);
    let mut chain = g.to_vec();
    for i in 0..count {
        let part = &msg[(i * nb).min(msg.len())..((i + 1) * nb).min(msg.len())];
        let mut plain = vec![0u8; nb];
        plain[..part.len()].copy_from_slice(part);
        let bytes = position + (i * nb + part.len()) as u128;
        let mut t1 = (bytes >> 64) as u64 | level << 48 | ubi_type << 56;
        if i == 0 && first {
            t1 |= T1_FIRST;
        }
        if i == count - 1 {
            t1 |= T1_FINAL | if bit_pad { T1_BIT_PAD } else { 0 };
        }
        let mut tweak = [0u8; 16];
        tweak[..8].copy_from_slice(&(bytes as u64).to_le_bytes());
        tweak[8..].copy_from_slice(&t1.to_le_bytes());
        let mut block = plain.clone();
        Threefish::<W>::new(&chain, &tweak).encrypt_block(&mut block);
        chain = block.iter().zip(&plain).map(|(c, p)| c ^ p).collect();
    }
    chain
}

/// `nb · 2^log2`, or "larger than any message" (usize::MAX).
fn size(nb: usize, log2: u8) -> usize {
    if log2 >= 48 {
        usize::MAX
    } else {
        nb << log2
    }
}

/// Spec 3.5.6 over a whole (already bit-padded) message: level 1 hashes
/// leaves of Nb·2^Yl bytes (the one with the message's last byte flagged
/// `bit_pad`), each level above hashes nodes of 2^Yf child outputs, until one
/// output is left, or level Ym, which hashes all of the level below as one
/// node. `node(bytes, level, position, bit_pad)` is the UBI of one node: here
/// [`ubi`], in the C API target the reference's calling convention.
pub fn tree_walk<const W: usize>(
    msg: &[u8],
    bit_pad: bool,
    (yl, yf, ym): (u8, u8, u8),
    mut node: impl FnMut(&[u8], u64, u64, bool) -> Vec<u8>,
) -> Vec<u8> {
    let nb = 8 * W;
    let leaf = size(nb, yl);
    let leaves = msg.len().div_ceil(leaf).max(1);
    let mut below = Vec::new();
    for i in 0..leaves {
        let start = i * leaf;
        let part = &msg[start.min(msg.len())..start.saturating_add(leaf).min(msg.len())];
        below.extend(node(part, 1, start as u64, bit_pad && i == leaves - 1));
    }
    let fan_out = size(nb, yf);
    let mut level = 1u64;
    while below.len() > nb {
        level += 1;
        if level == u64::from(ym) {
            return node(&below, level, 0, false);
        }
        below = below
            .chunks(fan_out)
            .enumerate()
            .flat_map(|(i, part)| node(part, level, (i * fan_out) as u64, false))
            .collect();
    }
    below
}

/// The message with its last byte bit-padded (spec 3.5.2) when `bits` is not
/// a multiple of 8; `data` holds `ceil(bits / 8)` bytes.
pub fn pad_bits(data: &[u8], bits: u64) -> Vec<u8> {
    assert_eq!(data.len() as u64, bits.div_ceil(8));
    let mut m = data.to_vec();
    let used = (bits % 8) as u32;
    if used != 0 {
        let last = m.last_mut().unwrap();
        let one = 0x80u8 >> used;
        *last = (*last & !(one - 1) & !one) | one;
    }
    m
}

/// The chaining value once every argument before the message is hashed:
/// key, configuration (with the tree word), personalization, public key,
/// key identifier, nonce; empty arguments are absent ones.
pub fn argument_chain<const W: usize>(args: &Args<'_>) -> Vec<u8> {
    let mut g = vec![0u8; 8 * W];
    if !args.key.is_empty() {
        g = ubi::<W>(&g, args.key, TYPE_KEY, 0, 0, false);
    }
    let (yl, yf, ym) = args.tree.unwrap_or((0, 0, 0));
    let mut config = [0u8; 32];
    config[..4].copy_from_slice(b"SHA3");
    config[4..6].copy_from_slice(&1u16.to_le_bytes());
    config[8..16].copy_from_slice(&args.output_bits.to_le_bytes());
    config[16..19].copy_from_slice(&[yl, yf, ym]);
    g = ubi::<W>(&g, &config, TYPE_CFG, 0, 0, false);
    for (ubi_type, arg) in [
        (TYPE_PRS, args.personalization),
        (TYPE_PK, args.public_key),
        (TYPE_KDF, args.key_id),
        (TYPE_NON, args.nonce),
    ] {
        if !arg.is_empty() {
            g = ubi::<W>(&g, arg, ubi_type, 0, 0, false);
        }
    }
    g
}

/// The output stage (spec 3.5.3): block `i` is UBI(G, i as 8 bytes, OUT).
pub fn output<const W: usize>(g: &[u8], output_bits: u64) -> Vec<u8> {
    let nb = 8 * W;
    let out_len = output_bits.div_ceil(8) as usize;
    let mut out = Vec::with_capacity(out_len.next_multiple_of(nb));
    for counter in 0..out_len.div_ceil(nb) as u64 {
        out.extend(ubi::<W>(g, &counter.to_le_bytes(), TYPE_OUT, 0, 0, false));
    }
    out.truncate(out_len);
    out
}

/// The message UBI of a message already bit-padded: sequential, or the tree
/// of `tree`.
fn message_chain<const W: usize>(
    g: &[u8],
    msg: &[u8],
    bit_pad: bool,
    tree: Option<(u8, u8, u8)>,
) -> Vec<u8> {
    match tree {
        Some(shape) => tree_walk::<W>(msg, bit_pad, shape, |part, level, position, pad| {
            ubi::<W>(g, part, TYPE_MSG, level, position, pad)
        }),
        None => ubi::<W>(g, msg, TYPE_MSG, 0, 0, bit_pad),
    }
}

/// Skein with a state of `W` words of the first `bits` bits of `data`.
pub fn skein<const W: usize>(args: &Args<'_>, data: &[u8], bits: u64) -> Vec<u8> {
    skein_padded::<W>(args, &pad_bits(data, bits), !bits.is_multiple_of(8))
}

/// [`skein`] of a message already bit-padded (when `bit_pad`).
pub fn skein_padded<const W: usize>(args: &Args<'_>, msg: &[u8], bit_pad: bool) -> Vec<u8> {
    let g = argument_chain::<W>(args);
    let g = message_chain::<W>(&g, msg, bit_pad, args.tree);
    output::<W>(&g, args.output_bits)
}

/// [`skein`] for a state of `state_bits` (256, 512 or 1024) bits.
pub fn skein_dyn(state_bits: u64, args: &Args<'_>, data: &[u8], bits: u64) -> Vec<u8> {
    match state_bits {
        256 => skein::<4>(args, data, bits),
        512 => skein::<8>(args, data, bits),
        1024 => skein::<16>(args, data, bits),
        _ => panic!("no Skein-{state_bits}"),
    }
}
