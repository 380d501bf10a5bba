//! Subtree hashing (`hazmat::ObjectTree`): an object split into ranges,
//! each hashed by its own `SubtreeHasher`, merged by `root`, gives the
//! digest of the spec's tree written level by level over the public
//! Threefish (`support::reference`) and of the one-machine tree hasher; for
//! every state size, random tree shapes (the `Ym` limit among them), keyed
//! and unkeyed, lengths around leaf and node boundaries, every split count
//! and every level. Values travel as bytes; misuse is an error.

use skein_simd_test_support as support;

use rand::{Rng, SeedableRng};
use skein_simd::hazmat::{ObjectTree, Subtrees};
use skein_simd::{Error, Params, Skein, TreeParams};
use support::reference::{skein, Args};

/// The digest of `object` from `tree.split(parts)`, each range hashed from
/// its own bytes in pieces of `piece` bytes and sent as bytes.
fn split_digest<const W: usize>(
    tree: &ObjectTree<W>,
    object: &[u8],
    parts: usize,
    piece: usize,
) -> Vec<u8> {
    let values: Vec<Subtrees<W>> = tree
        .split(parts)
        .iter()
        .map(|range| {
            let bytes = range.bytes();
            let mut hasher = tree.hasher(range).unwrap();
            for chunk in object[bytes.start as usize..bytes.end as usize].chunks(piece) {
                hasher.update(chunk);
            }
            let sent = hasher.finish().unwrap().to_bytes();
            Subtrees::from_bytes(&sent).unwrap()
        })
        .collect();
    let mut reader = tree.root(&values).unwrap();
    let mut out = vec![0u8; reader.len() as usize];
    assert_eq!(reader.fill(&mut out), out.len());
    out
}

/// The digest from the values of every node of `level`, each node hashed
/// alone, merged one level at a time with `parents` on runs of whole
/// parents cut at random.
fn level_by_level<const W: usize>(
    tree: &ObjectTree<W>,
    object: &[u8],
    level: u8,
    rng: &mut impl Rng,
) -> Vec<u8> {
    let nodes = tree.nodes_at(level);
    let mut runs: Vec<Subtrees<W>> = (0..nodes)
        .map(|i| {
            let range = tree.range(level, i, 1).unwrap();
            let bytes = range.bytes();
            let mut hasher = tree.hasher(&range).unwrap();
            hasher.update(&object[bytes.start as usize..bytes.end as usize]);
            hasher.finish().unwrap()
        })
        .collect();
    let fan_out = 1u64 << tree.tree_params().fan_out_log2();
    let mut at = level;
    while at + 1 < tree.root_level() {
        let all = Subtrees::join(&runs).unwrap();
        // Cut the level into runs of whole parents, at random parents.
        let parents = tree.nodes_at(at + 1);
        let mut cuts: Vec<u64> = (1..parents).filter(|_| rng.gen_bool(0.3)).collect();
        cuts.push(parents);
        let mut start = 0;
        runs = cuts
            .into_iter()
            .map(|end| {
                let bytes = all.to_bytes();
                let header = 10;
                let nb = 8 * W;
                let (from, to) = (start * fan_out, (end * fan_out).min(all.count()));
                let mut part = bytes[..header].to_vec();
                part[2..10].copy_from_slice(&from.to_le_bytes());
                part.extend_from_slice(
                    &bytes[header + from as usize * nb..header + to as usize * nb],
                );
                start = end;
                tree.parents(&Subtrees::from_bytes(&part).unwrap()).unwrap()
            })
            .collect();
        at += 1;
    }
    let mut reader = tree.root(&runs).unwrap();
    let mut out = vec![0u8; reader.len() as usize];
    reader.fill(&mut out);
    out
}

fn check_shape<const W: usize>(shape: (u8, u8, u8), lengths: &[usize], rng: &mut impl Rng) {
    let tree_params = TreeParams::new(shape.0, shape.1, shape.2).unwrap();
    for &len in lengths {
        let object: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let key: &[u8] = if len % 2 == 0 { b"subtree key" } else { b"" };
        let output_bits = [8 * W as u64, 256, 1000, 13][len % 4];
        let args = Args {
            output_bits,
            key,
            personalization: b"pers",
            tree: Some(shape),
            ..Args::default()
        };
        let want = skein::<W>(&args, &object, 8 * len as u64);
        let params = Params::new()
            .output_bits(output_bits)
            .key(key)
            .personalization(b"pers")
            .tree(tree_params);
        let mut one = Skein::<W>::with_params(&params).unwrap();
        one.update(&object);
        assert_eq!(
            one.finalize_vec(),
            want,
            "one machine, {shape:?}, {len} bytes"
        );

        let tree = ObjectTree::<W>::new(&params, len as u64).unwrap();
        let what = format!("W {W}, shape {shape:?}, {len} bytes");
        for parts in 1..=5 {
            let piece = rng.gen_range(1..=len.max(1));
            assert_eq!(
                split_digest(&tree, &object, parts, piece),
                want,
                "{what}, {parts} parts"
            );
        }
        for level in 1..=tree.root_level() {
            assert_eq!(
                level_by_level(&tree, &object, level, rng),
                want,
                "{what}, level {level}"
            );
        }
    }
}

/// Lengths at and around the boundaries of leaves and of nodes of the
/// levels above, up to `max` bytes.
fn lengths(leaf: usize, fan_out: usize, max: usize, rng: &mut impl Rng) -> Vec<usize> {
    let mut out = vec![0, 1, leaf - 1, leaf, leaf + 1, 2 * leaf, 3 * leaf - 1];
    let mut span = leaf * fan_out;
    while span <= max {
        out.extend([
            span - 1,
            span,
            span + 1,
            span + leaf,
            2 * span + rng.gen_range(0..leaf),
        ]);
        span *= fan_out;
    }
    out.push(rng.gen_range(0..=max));
    out.retain(|&l| l <= max);
    out.sort_unstable();
    out.dedup();
    out
}

#[test]
fn subtrees_merged_equal_the_spec_tree() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5ab7_4ee5);
    // Small leaves with every fan-out and height limit: deep trees.
    for yl in 1..=2 {
        for yf in 1..=3 {
            for ym in [2, 3, 4, 255] {
                let fan_out = 1 << yf;
                check_shape::<4>(
                    (yl, yf, ym),
                    &lengths(32 << yl, fan_out, 40 * (32 << yl), &mut rng),
                    &mut rng,
                );
                check_shape::<8>(
                    (yl, yf, ym),
                    &lengths(64 << yl, fan_out, 20 * (64 << yl), &mut rng),
                    &mut rng,
                );
            }
        }
        check_shape::<16>(
            (yl, 1, 255),
            &lengths(128 << yl, 2, 10 * (128 << yl), &mut rng),
            &mut rng,
        );
    }
    // Random shapes up to leaves of 1 MiB and fan-outs of 2^8, a few
    // lengths each.
    for _ in 0..12 {
        let yl = rng.gen_range(1..=14u8);
        let yf = rng.gen_range(1..=8u8);
        let ym = [2, 3, 255][rng.gen_range(0..3)];
        let leaf = 32usize << yl;
        let lens = [0, leaf - 1, leaf + 1, 3 * leaf + 5];
        let max = 1 << 21;
        let lens: Vec<usize> = lens.into_iter().filter(|&l| l <= max).collect();
        check_shape::<4>((yl, yf, ym), &lens, &mut rng);
    }
}

#[test]
fn split_gives_balanced_whole_subtrees() {
    let params = Params::new().tree(TreeParams::new(1, 2, 255).unwrap());
    let len = 1_000_003u64;
    let tree = ObjectTree::<8>::new(&params, len).unwrap();
    for parts in [1usize, 2, 3, 7, 64] {
        let ranges = tree.split(parts);
        assert_eq!(ranges.len(), parts);
        let mut end = 0;
        for r in &ranges {
            assert_eq!(r.bytes().start, end, "consecutive");
            assert_eq!(r.level(), ranges[0].level(), "one level");
            assert!(r.level() < tree.root_level());
            end = r.bytes().end;
            let share = len as f64 / parts as f64;
            let size = (r.bytes().end - r.bytes().start) as f64;
            assert!(
                (size - share).abs() <= share / 8.0,
                "{parts} parts: {size} against {share}"
            );
        }
        assert_eq!(end, len);
    }
    // More parts than leaves: one leaf each.
    let small = ObjectTree::<8>::new(&params, 3 * 128 + 1).unwrap();
    assert_eq!(small.split(10).len(), 4);
    // One leaf: the root, the whole object.
    let one = ObjectTree::<8>::new(&params, 100).unwrap();
    let ranges = one.split(4);
    assert_eq!(ranges.len(), 1);
    assert_eq!((ranges[0].level(), ranges[0].bytes()), (1, 0..100));
    assert_eq!(one.root_level(), 1);
}

#[test]
fn misuse_is_an_error() {
    let params = Params::new().tree(TreeParams::new(1, 1, 255).unwrap());
    assert_eq!(
        ObjectTree::<8>::new(&Params::new(), 10).unwrap_err(),
        Error::NoTree
    );
    let tree = ObjectTree::<8>::new(&params, 10_000).unwrap();
    let other = ObjectTree::<8>::new(&params, 10_001).unwrap();
    // Ranges outside the tree, or of another object.
    assert_eq!(tree.range(1, 79, 2).unwrap_err(), Error::SubtreeMismatch);
    assert_eq!(tree.range(0, 0, 1).unwrap_err(), Error::SubtreeMismatch);
    assert_eq!(tree.range(1, 0, 0).unwrap_err(), Error::SubtreeMismatch);
    let last = other.range(1, 78, 1).unwrap();
    assert!(tree.hasher(&last).is_err());
    // Too few bytes.
    let mut hasher = tree.hasher(&tree.range(1, 3, 2).unwrap()).unwrap();
    hasher.update(&[0; 255]);
    assert_eq!(hasher.clone().finish().unwrap_err(), Error::SubtreeMismatch);
    hasher.update(&[0; 1]);
    let values = hasher.finish().unwrap();
    // Runs that are not consecutive, or do not cover the level.
    let first = {
        let mut h = tree.hasher(&tree.range(1, 0, 3).unwrap()).unwrap();
        h.update(&[0; 384]);
        h.finish().unwrap()
    };
    assert!(Subtrees::join(&[values.clone(), first.clone()]).is_err());
    let joined = Subtrees::join(&[first.clone(), values.clone()]).unwrap();
    assert_eq!((joined.first(), joined.count()), (0, 5));
    assert_eq!(
        tree.root(std::slice::from_ref(&joined)).unwrap_err(),
        Error::SubtreeMismatch
    );
    // Parents of a run that does not start at a parent's first child.
    assert_eq!(tree.parents(&values).unwrap_err(), Error::SubtreeMismatch);
    assert!(tree.parents(&first).is_err(), "ends inside a parent");
    // Bytes of another state size or cut short.
    let bytes = values.to_bytes();
    assert!(Subtrees::<4>::from_bytes(&bytes).is_err());
    assert!(Subtrees::<8>::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    assert!(Subtrees::<8>::from_bytes(&bytes[..10]).is_err());
}

#[test]
#[should_panic(expected = "more bytes than the range")]
fn more_bytes_than_the_range_panics() {
    let params = Params::new().tree(TreeParams::new(1, 1, 255).unwrap());
    let tree = ObjectTree::<4>::new(&params, 1000).unwrap();
    let mut hasher = tree.hasher(&tree.range(1, 0, 1).unwrap()).unwrap();
    hasher.update(&[0; 65]);
}
