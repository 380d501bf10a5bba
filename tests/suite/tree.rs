//! Tree hashing (spec 3.5.6) against a straightforward level-by-level
//! implementation written here on top of the public `Threefish` cipher with
//! its own UBI, configuration and output stage: independent of `src/tree.rs`
//! and `src/ubi.rs`. Every shape with Yl, Yf in 1..=3 and Ym in 2..=4 or 255,
//! inputs of 0 to many leaves, byte and bit lengths, any split of the input,
//! every backend, and 1, 2, 3 or 8 threads.

use skein_simd_test_support as support;

use rand::{Rng, SeedableRng};
use skein_simd::{Backend, Params, Skein, TreeParams};
use support::reference::{
    argument_chain, output, pad_bits, skein_dyn, skein_padded, ubi, ubi_from, Args, TYPE_MSG,
};

/// Whole Skein with tree parameters, of a message already bit-padded (when
/// `bit_pad`): key, configuration, message tree, output stage.
fn reference<const W: usize>(
    key: &[u8],
    msg: &[u8],
    bit_pad: bool,
    output_bits: u64,
    shape: (u8, u8, u8),
) -> Vec<u8> {
    skein_padded::<W>(&tree_args(key, output_bits, shape), msg, bit_pad)
}

/// The chaining value after the key and the configuration of a tree hash.
fn config_chain<const W: usize>(key: &[u8], output_bits: u64, shape: (u8, u8, u8)) -> Vec<u8> {
    argument_chain::<W>(&tree_args(key, output_bits, shape))
}

fn tree_args(key: &[u8], output_bits: u64, shape: (u8, u8, u8)) -> Args<'_> {
    Args {
        output_bits,
        key,
        tree: Some(shape),
        ..Args::default()
    }
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
                !bits.is_multiple_of(8),
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

/// The reference itself (also the fuzz targets' oracle) against every entry
/// of the official file: plain, MAC and tree entries, all three state sizes.
#[test]
fn reference_matches_every_golden_entry() {
    let mut trees = 0;
    for e in support::load_golden_kat() {
        let key = e.key.clone().unwrap_or_default();
        let args = Args {
            output_bits: e.output_bits,
            key: &key,
            tree: e.tree,
            ..Args::default()
        };
        trees += usize::from(e.tree.is_some());
        let got = skein_dyn(e.state_bits, &args, &e.msg, e.msg_bits);
        assert_eq!(got, e.result, "{}", e.header);
    }
    assert!(trees > 0, "the golden file has tree entries");
}

/// The automatic choice (fastest multi-lane kernel), then every backend the
/// hasher can be forced to (each with its own instruction set's lanes).
fn tree_backends() -> Vec<Option<Backend>> {
    std::iter::once(None)
        .chain(Backend::available().into_iter().map(Some))
        .collect()
}

/// Every shape of [`shapes`] on every backend, for a `W`-word state.
fn every_shape<const W: usize>(seed: u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for shape in shapes() {
        check_shape::<W>(shape, &tree_backends(), &mut rng);
    }
}

#[test]
fn every_shape_skein256() {
    every_shape::<4>(256);
}

#[test]
fn every_shape_skein512() {
    every_shape::<8>(512);
}

#[test]
fn every_shape_skein1024() {
    every_shape::<16>(1024);
}

/// Large inputs (many leaves per lane group and thread, batch buffer flushes,
/// leaves taken straight from the update slice) on 1, 2, 3 and 8 threads.
#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "threads: wasm32-wasip1 has none (spawning one fails as Unsupported)"
)]
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

/// A UBI record of a saved state: its chaining value and buffered bytes.
struct UbiRecord<'a> {
    chain: &'a [u8],
    buffered: &'a [u8],
}

/// An open level of a saved tree state.
struct LevelRecord<'a> {
    children: u64,
    node_index: u64,
    node_children: u64,
    held: Option<&'a [u8]>,
    node: Option<UbiRecord<'a>>,
}

fn push_ubi_record<const W: usize>(s: &mut Vec<u8>, u: &UbiRecord) {
    s.extend_from_slice(u.chain);
    s.push(u.buffered.len() as u8);
    let mut block = u.buffered.to_vec();
    block.resize(8 * W, 0);
    s.extend_from_slice(&block);
}

/// The bytes of a saved tree state, format version 1 as docs/design.md
/// describes it, written field by field here (integers little-endian).
fn tree_state<const W: usize>(
    start: &[u8],
    shape: (u8, u8, u8),
    leaf_index: u64,
    leaf_fill: u64,
    leaf: &UbiRecord,
    levels: &[LevelRecord],
) -> Vec<u8> {
    let mut s = b"SKEIN-ST".to_vec();
    s.extend_from_slice(&[1, W as u8, 2]); // version, state words, flags: tree
    s.extend_from_slice(&512u64.to_le_bytes());
    s.extend_from_slice(start);
    s.extend_from_slice(&[shape.0, shape.1, shape.2]);
    s.extend_from_slice(&leaf_index.to_le_bytes());
    s.extend_from_slice(&leaf_fill.to_le_bytes());
    push_ubi_record::<W>(&mut s, leaf);
    s.push(levels.len() as u8);
    for l in levels {
        for v in [l.children, l.node_index, l.node_children] {
            s.extend_from_slice(&v.to_le_bytes());
        }
        s.push(u8::from(l.held.is_some()) | (u8::from(l.node.is_some()) << 1));
        if let Some(h) = l.held {
            s.extend_from_slice(h);
        }
        if let Some(n) = &l.node {
            push_ubi_record::<W>(&mut s, n);
        }
    }
    s
}

/// Bytes standing for values of a message no test can hash (chaining values
/// and blocks of a state 2^63 bytes or more into it).
fn filler(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// A leaf of exactly 2^63 bytes (Skein-256 Yl = 58, -512 Yl = 57, -1024
/// Yl = 56): a state one block before its end, given two blocks and a bit
/// more, closes the leaf after its 2^63-th byte and starts the next one at
/// 2^63, as the spec's tree does; a saved leaf holding 2^63 bytes is refused.
fn leaf_of_2_pow_63_bytes<const W: usize>(yl: u8) {
    const LEAF: u64 = 1 << 63;
    let nb = 8 * W;
    let shape = (yl, 1, 255);
    assert_eq!((nb as u128) << yl, LEAF as u128);
    let g = config_chain::<W>(&[], 512, shape);
    let (chain, last) = (filler(nb, 1), filler(nb, 2));
    let leaf = UbiRecord {
        chain: &chain,
        buffered: &last,
    };
    let state = tree_state::<W>(&g, shape, 0, LEAF - nb as u64, &leaf, &[]);
    let data = filler(nb + 10, 3);
    let mut h = Skein::<W>::import_state(&state).unwrap();
    h.update(&data);
    let at = (LEAF - 2 * nb as u64) as u128;
    let leaf0 = ubi_from::<W>(
        &chain,
        &[&last[..], &data[..nb]].concat(),
        TYPE_MSG,
        1,
        at,
        false,
        false,
    );
    let leaf1 = ubi::<W>(&g, &data[nb..], TYPE_MSG, 1, LEAF, false);
    let root = ubi::<W>(&g, &[leaf0, leaf1].concat(), TYPE_MSG, 2, 0, false);
    assert_root::<W>(h, &root, &format!("Yl = {yl}"));
    let whole = tree_state::<W>(&g, shape, 0, LEAF, &leaf, &[]);
    assert_eq!(
        Skein::<W>::import_state(&whole).unwrap_err(),
        skein_simd::StateError::Invalid("open leaf holds a whole leaf or more"),
        "Skein-{} Yl = {yl}",
        64 * W
    );
}

#[test]
fn leaves_of_2_pow_63_bytes_close_at_their_end() {
    leaf_of_2_pow_63_bytes::<4>(58);
    leaf_of_2_pow_63_bytes::<8>(57);
    leaf_of_2_pow_63_bytes::<16>(56);
}

/// The finished hasher gives the 512-bit output of the message tree's `root`.
fn assert_root<const W: usize>(h: Skein<W>, root: &[u8], what: &str) {
    assert_eq!(
        h.finalize_vec(),
        output::<W>(root, 512),
        "Skein-{} {what}",
        64 * W
    );
}

/// The level-2 node a saved state holds open (chaining value `node_chain`,
/// the output `child` buffered at child `at`), closed by the output `leaf`.
fn close_node<const W: usize>(node_chain: &[u8], child: &[u8], leaf: &[u8], at: u64) -> Vec<u8> {
    let position = u128::from(at) * 8 * W as u128;
    let msg = [child, leaf].concat();
    ubi_from::<W>(node_chain, &msg, TYPE_MSG, 2, position, false, false)
}

/// A fan-out of 2^63 (Yf = 63), two-block leaves: a level-2 node one child
/// short of 2^63 closes with the next leaf's output, and the node after it
/// starts at byte 2^63 * Nb of level 2 (past 2^64: the tweak's high word).
fn fan_out_of_2_pow_63<const W: usize>() {
    let nb = 8 * W;
    let shape = (1, 63, 255);
    let g = config_chain::<W>(&[], 512, shape);
    let half = 1u64 << 63;
    let leaf_bytes = 2 * nb as u128;
    let (leaf_start, child, node_chain) = (filler(nb, 4), filler(nb, 5), filler(nb, 6));
    let leaf = UbiRecord {
        chain: &g,
        buffered: &leaf_start,
    };
    let level = LevelRecord {
        children: half - 1,
        node_index: 0,
        node_children: half - 1,
        held: None,
        node: Some(UbiRecord {
            chain: &node_chain,
            buffered: &child,
        }),
    };
    let state = tree_state::<W>(&g, shape, half - 1, nb as u64, &leaf, &[level]);
    let data = filler(nb + 5, 7);
    let mut h = Skein::<W>::import_state(&state).unwrap();
    h.update(&data);
    let leaf_a = ubi_from::<W>(
        &g,
        &[&leaf_start[..], &data[..nb]].concat(),
        TYPE_MSG,
        1,
        (half - 1) as u128 * leaf_bytes,
        true,
        false,
    );
    let node0 = close_node::<W>(&node_chain, &child, &leaf_a, half - 2);
    let leaf_b = ubi_from::<W>(
        &g,
        &data[nb..],
        TYPE_MSG,
        1,
        half as u128 * leaf_bytes,
        true,
        false,
    );
    let node1 = ubi_from::<W>(
        &g,
        &leaf_b,
        TYPE_MSG,
        2,
        half as u128 * nb as u128,
        true,
        false,
    );
    let root = ubi::<W>(&g, &[node0, node1].concat(), TYPE_MSG, 3, 0, false);
    assert_root::<W>(h, &root, "");
}

#[test]
fn fan_out_of_2_pow_63_closes_nodes_at_2_pow_63_children() {
    fan_out_of_2_pow_63::<4>();
    fan_out_of_2_pow_63::<8>();
    fan_out_of_2_pow_63::<16>();
}

/// Two-block leaves up to byte 2^64 exactly, one level-2 node of all of
/// them (Yf = 64 - log2 of the leaf size): the leaf ending at 2^64 closes
/// the node, the leaves after it start past 2^64 (carried into the
/// tweak's high word, on lanes too), and the state saved there restores
/// to itself and to the spec's digest.
fn positions_past_2_pow_64<const W: usize>(yf: u8) {
    let nb = 8 * W;
    let shape = (1, yf, 255);
    let leaf_bytes = 2 * nb as u128;
    let closed = ((1u128 << 64) / leaf_bytes - 1) as u64;
    assert_eq!(1u128 << yf, closed as u128 + 1);
    let g = config_chain::<W>(&[], 512, shape);
    let (leaf_start, child, node_chain) = (filler(nb, 8), filler(nb, 9), filler(nb, 10));
    let leaf = UbiRecord {
        chain: &g,
        buffered: &leaf_start,
    };
    let level = LevelRecord {
        children: closed,
        node_index: 0,
        node_children: closed,
        held: None,
        node: Some(UbiRecord {
            chain: &node_chain,
            buffered: &child,
        }),
    };
    let state = tree_state::<W>(&g, shape, closed, nb as u64, &leaf, &[level]);
    let mut h = Skein::<W>::import_state(&state).unwrap();
    let first = filler(nb, 11);
    h.update(&first);
    let saved = h.export_state();
    let resumed = Skein::<W>::import_state(&saved).expect("the state at 2^64 restores");
    assert_eq!(*resumed.export_state(), *saved, "saved again");

    // 100 whole leaves (enough for the lanes) and a partial one.
    let rest = filler(100 * 2 * nb + 5, 12);
    let leaf_a = ubi_from::<W>(
        &g,
        &[&leaf_start[..], &first[..]].concat(),
        TYPE_MSG,
        1,
        (1u128 << 64) - leaf_bytes,
        true,
        false,
    );
    let node0 = close_node::<W>(&node_chain, &child, &leaf_a, closed - 1);
    let leaves: Vec<u8> = rest
        .chunks(2 * nb)
        .enumerate()
        .flat_map(|(i, part)| {
            let at = (1u128 << 64) + i as u128 * leaf_bytes;
            ubi_from::<W>(&g, part, TYPE_MSG, 1, at, true, false)
        })
        .collect();
    let node1 = ubi_from::<W>(
        &g,
        &leaves,
        TYPE_MSG,
        2,
        (closed as u128 + 1) * nb as u128,
        true,
        false,
    );
    let root = ubi::<W>(&g, &[node0, node1].concat(), TYPE_MSG, 3, 0, false);
    let want = output::<W>(&root, 512);
    for (mut h, how) in [(h, "continued"), (resumed, "restored")] {
        h.update(&rest);
        assert_eq!(h.finalize_vec(), want, "Skein-{}, {how}", 64 * W);
    }
}

#[test]
fn tree_positions_carry_past_2_pow_64() {
    positions_past_2_pow_64::<4>(58);
    positions_past_2_pow_64::<8>(57);
    positions_past_2_pow_64::<16>(56);
}

/// The leaf counter of a saved state must have room for 2^64 more bytes
/// (more than any input): two-block leaves of Skein-256 at 2^64 - 2^58
/// closed leaves (byte 2^70, far below 2^96) have none.
#[test]
fn a_leaf_counter_without_room_for_more_input_is_refused() {
    let shape = (1, 1, 255);
    let g = config_chain::<4>(&[], 512, shape);
    let leaf = UbiRecord {
        chain: &g,
        buffered: &[],
    };
    let state = tree_state::<4>(&g, shape, u64::MAX - (1 << 58) + 1, 0, &leaf, &[]);
    assert_eq!(
        Skein::<4>::import_state(&state).unwrap_err(),
        skein_simd::StateError::Invalid("too many closed leaves to count 2^64 more bytes")
    );
}
