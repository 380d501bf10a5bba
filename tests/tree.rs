//! Tree hashing (spec 3.5.6) against a straightforward level-by-level
//! implementation written here on top of the public `Threefish` cipher with
//! its own UBI, configuration and output stage: independent of `src/tree.rs`
//! and `src/ubi.rs`. Every shape with Yl, Yf in 1..=3 and Ym in 2..=4 or 255,
//! inputs of 0 to many leaves, byte and bit lengths, any split of the input,
//! every backend, and 1, 2, 3 or 8 threads.

mod common;

use rand::{Rng, SeedableRng};
use skein_simd::{Backend, Params, Skein, Threefish, TreeParams};

const T1_FIRST: u64 = 1 << 62;
const T1_FINAL: u64 = 1 << 63;
const T1_BIT_PAD: u64 = 1 << 55;
const TYPE_KEY: u64 = 0;
const TYPE_CFG: u64 = 4;
const TYPE_MSG: u64 = 48;
const TYPE_OUT: u64 = 63;

/// UBI(G, M, Ts) with Ts = position + level * 2^112 + type * 2^120 (spec
/// 3.4), on `Threefish`: one block at a time, message bytes counted in the
/// tweak, first and final flags, bit-pad flag on the final block.
fn ubi<const W: usize>(
    g: &[u8],
    msg: &[u8],
    ubi_type: u64,
    level: u64,
    position: u64,
    bit_pad: bool,
) -> Vec<u8> {
    let nb = 8 * W;
    let blocks = msg.len().div_ceil(nb).max(1);
    let mut h = g.to_vec();
    for b in 0..blocks {
        let chunk = &msg[(b * nb).min(msg.len())..((b + 1) * nb).min(msg.len())];
        let mut block = chunk.to_vec();
        block.resize(nb, 0);
        let processed = (b * nb + chunk.len()) as u128 + position as u128;
        let mut t1 = (processed >> 64) as u64 | level << 48 | ubi_type << 56;
        if b == 0 {
            t1 |= T1_FIRST;
        }
        if b == blocks - 1 {
            t1 |= T1_FINAL;
            if bit_pad {
                t1 |= T1_BIT_PAD;
            }
        }
        let mut tweak = [0u8; 16];
        tweak[..8].copy_from_slice(&(processed as u64).to_le_bytes());
        tweak[8..].copy_from_slice(&t1.to_le_bytes());
        let mut x = block.clone();
        Threefish::<W>::new(&h, &tweak).encrypt_block(&mut x);
        h = x.iter().zip(&block).map(|(a, b)| a ^ b).collect();
    }
    h
}

/// The tree of spec 3.5.6 over whole buffers, level by level: leaves of
/// Nb * 2^Yl bytes at level 1 (the one holding the last byte bit-padded when
/// `bit_pad`), nodes of 2^Yf children above, until one output remains, or
/// level Ym, which hashes its whole input as one node at position 0.
fn tree_message<const W: usize>(
    g: &[u8],
    msg: &[u8],
    bit_pad: bool,
    (yl, yf, ym): (u8, u8, u8),
) -> Vec<u8> {
    let nb = 8 * W;
    let leaf = nb << yl;
    let leaves = msg.len().div_ceil(leaf).max(1);
    let mut level: Vec<u8> = (0..leaves)
        .flat_map(|i| {
            let part = &msg[(i * leaf).min(msg.len())..((i + 1) * leaf).min(msg.len())];
            ubi::<W>(
                g,
                part,
                TYPE_MSG,
                1,
                (i * leaf) as u64,
                bit_pad && i == leaves - 1,
            )
        })
        .collect();
    let mut height = 1u64;
    loop {
        if level.len() == nb {
            return level;
        }
        height += 1;
        if height == ym as u64 {
            return ubi::<W>(g, &level, TYPE_MSG, height, 0, false);
        }
        let node = nb << yf;
        level = level
            .chunks(node)
            .enumerate()
            .flat_map(|(i, part)| ubi::<W>(g, part, TYPE_MSG, height, (i * node) as u64, false))
            .collect();
    }
}

/// Whole Skein with tree parameters: key, configuration, message tree,
/// output stage.
fn reference<const W: usize>(
    key: &[u8],
    msg: &[u8],
    bit_pad: bool,
    output_bits: u64,
    shape: (u8, u8, u8),
) -> Vec<u8> {
    let nb = 8 * W;
    let mut g = vec![0u8; nb];
    if !key.is_empty() {
        g = ubi::<W>(&g, key, TYPE_KEY, 0, 0, false);
    }
    let mut config = Vec::new();
    config.extend_from_slice(b"SHA3");
    config.extend_from_slice(&1u16.to_le_bytes());
    config.extend_from_slice(&[0, 0]);
    config.extend_from_slice(&output_bits.to_le_bytes());
    config.extend_from_slice(&[shape.0, shape.1, shape.2]);
    config.resize(32, 0);
    g = ubi::<W>(&g, &config, TYPE_CFG, 0, 0, false);
    let g = tree_message::<W>(&g, msg, bit_pad, shape);
    let out_len = output_bits.div_ceil(8) as usize;
    let mut out: Vec<u8> = (0..out_len.div_ceil(nb) as u64)
        .flat_map(|c| ubi::<W>(&g, &c.to_le_bytes(), TYPE_OUT, 0, 0, false))
        .collect();
    out.truncate(out_len);
    out
}

/// The bit-padded form of a message of `bits` bits held in `data`.
fn pad_bits(data: &[u8], bits: u64) -> Vec<u8> {
    let mut m = data.to_vec();
    let partial = (bits % 8) as u32;
    if partial != 0 {
        let last = m.last_mut().unwrap();
        let pad = 0x80u8 >> partial;
        *last = (*last & !(pad.wrapping_sub(1)) & !pad) | pad;
    }
    m
}

/// Hash with the library: `chunks` splits the message, and the last byte
/// goes through `update_bits` when `bits` is not a multiple of 8.
fn library<const W: usize>(params: &Params, data: &[u8], bits: u64, chunks: &[usize]) -> Vec<u8> {
    let mut h = Skein::<W>::with_params(params).unwrap();
    let whole = if bits.is_multiple_of(8) {
        data.len()
    } else {
        data.len() - 1
    };
    let mut rest = &data[..whole];
    let mut sizes = chunks.iter().cycle();
    while !rest.is_empty() {
        let take = (*sizes.next().unwrap()).clamp(1, rest.len());
        h.update(&rest[..take]);
        rest = &rest[take..];
    }
    if !bits.is_multiple_of(8) {
        h.update_bits(&data[whole..], bits % 8);
    }
    h.finalize_vec()
}

fn shapes() -> Vec<(u8, u8, u8)> {
    let mut list = Vec::new();
    for yl in 1..=3 {
        for yf in 1..=3 {
            for ym in [2, 3, 4, 255] {
                list.push((yl, yf, ym));
            }
        }
    }
    list
}

/// Message lengths in bytes around leaf boundaries, from empty to several
/// leaves and past the top of the short trees.
fn lengths(leaf: usize, rng: &mut impl Rng) -> Vec<usize> {
    let mut list = vec![
        0,
        1,
        leaf - 1,
        leaf,
        leaf + 1,
        2 * leaf,
        3 * leaf - 1,
        4 * leaf,
        5 * leaf + 3,
        8 * leaf,
        9 * leaf,
    ];
    list.extend([17, 33, 70].map(|k| k * leaf));
    list.push(rng.gen_range(1..20 * leaf));
    list
}

fn check_shape<const W: usize>(
    shape: (u8, u8, u8),
    backends: &[Option<Backend>],
    rng: &mut impl Rng,
) {
    let tree = TreeParams::new(shape.0, shape.1, shape.2).unwrap();
    let leaf = (8 * W) << shape.0;
    for len in lengths(leaf, rng) {
        let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let key: Vec<u8> = if len % 3 == 0 {
            vec![0x11; 20]
        } else {
            Vec::new()
        };
        let output_bits = [256, 8 * W as u64, 1000][len % 3];
        // Byte length, and (for a non-empty message) a bit length ending
        // inside the last byte.
        let mut bit_lengths = vec![8 * len as u64];
        if len > 0 {
            bit_lengths.push(8 * len as u64 - rng.gen_range(1..8));
        }
        for bits in bit_lengths {
            let want = reference::<W>(
                &key,
                &pad_bits(&data, bits),
                bits % 8 != 0,
                output_bits,
                shape,
            );
            for &backend in backends {
                let mut params = Params::new().output_bits(output_bits).key(&key).tree(tree);
                if let Some(b) = backend {
                    params = params.backend(b);
                }
                for chunks in [
                    &[usize::MAX][..],
                    &[1, 7, 64, 3, 200],
                    &[leaf, leaf + 1, 5 * leaf],
                ] {
                    let got = library::<W>(&params, &data, bits, chunks);
                    assert_eq!(
                        got,
                        want,
                        "Skein-{} tree {shape:?}, {bits} bits, chunks {chunks:?}, {backend:?}",
                        64 * W
                    );
                }
            }
        }
    }
}

#[test]
fn reference_matches_the_golden_file_tree_entries() {
    // The reference itself, against the official file.
    let mut seen = 0;
    for e in common::load_golden_kat()
        .into_iter()
        .filter(|e| e.tree.is_some())
    {
        let key = e.key.clone().unwrap_or_default();
        let shape = e.tree.unwrap();
        let msg = pad_bits(&e.msg, e.msg_bits);
        let pad = e.msg_bits % 8 != 0;
        let got = match e.state_bits {
            256 => reference::<4>(&key, &msg, pad, e.output_bits, shape),
            512 => reference::<8>(&key, &msg, pad, e.output_bits, shape),
            _ => reference::<16>(&key, &msg, pad, e.output_bits, shape),
        };
        assert_eq!(got, e.result, "{}", e.header);
        seen += 1;
    }
    assert!(seen > 0, "the golden file has tree entries");
}

/// The automatic choice (fastest multi-lane kernel), then every backend the
/// hasher can be forced to (each with its own instruction set's lanes).
fn tree_backends() -> Vec<Option<Backend>> {
    std::iter::once(None)
        .chain(Backend::available().into_iter().map(Some))
        .collect()
}

#[test]
fn every_shape_skein256() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(256);
    for shape in shapes() {
        check_shape::<4>(shape, &tree_backends(), &mut rng);
    }
}

#[test]
fn every_shape_skein512() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(512);
    for shape in shapes() {
        check_shape::<8>(shape, &tree_backends(), &mut rng);
    }
}

#[test]
fn every_shape_skein1024() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1024);
    for shape in shapes() {
        check_shape::<16>(shape, &tree_backends(), &mut rng);
    }
}

/// Large inputs (many leaves per lane group and thread, batch buffer flushes,
/// leaves taken straight from the update slice) on 1, 2, 3 and 8 threads.
#[test]
fn thread_count_and_input_split_do_not_change_results() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    let cases: [(u8, u8, u8, usize); 4] = [
        (10, 1, 255, 9 << 20),
        (1, 1, 255, 5 << 20),
        (2, 2, 3, 1 << 20),
        (15, 2, 4, 5 << 20),
    ];
    for (yl, yf, ym, len) in cases {
        let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let shape = (yl, yf, ym);
        let want = reference::<8>(&[], &data, false, 512, shape);
        let params = Params::new().tree(TreeParams::new(yl, yf, ym).unwrap());
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for chunks in [&[usize::MAX][..], &[100_000, 3, 1 << 20], &[4096]] {
                let got = pool.install(|| library::<8>(&params, &data, 8 * len as u64, chunks));
                assert_eq!(
                    got, want,
                    "tree {shape:?}, {len} bytes, {threads} threads, chunks {chunks:?}"
                );
            }
        }
    }
}

#[test]
fn automatic_choice_and_clones_mid_stream() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    let data: Vec<u8> = (0..300_000).map(|_| rng.gen()).collect();
    let shape = (2, 1, 4);
    let want = reference::<4>(b"key", &data, false, 256, shape);
    let params = Params::new()
        .output_bits(256)
        .key(b"key")
        .tree(TreeParams::new(2, 1, 4).unwrap());
    let mut h = Skein::<4>::with_params(&params).unwrap();
    h.update(&data[..123_457]);
    let mut copy = h.clone();
    h.update(&data[123_457..]);
    copy.update(&data[123_457..]);
    assert_eq!(h.finalize_vec(), want);
    assert_eq!(copy.finalize_vec(), want);
}
