//! Proofs of inclusion (`hazmat::SubtreeProof`): for every range of a
//! split (and single nodes and unaligned runs of every level), the proof
//! holds exactly the chaining values of the range's siblings in the spec's
//! tree written level by level over the public Threefish
//! (`support::reference`), in the documented order, so its size is the
//! documented formula; it verifies against the spec's digest (which the
//! one-machine tree hasher prints too); a flipped byte of the range, of the
//! proof or of the digest, a proof cut short or lengthened, a proof of
//! another range and bytes at another place are errors. Random shapes
//! (leaves of `Nb * 2^1 .. Nb * 2^10` bytes, fan-outs `2^1 .. 2^8`, heights
//! up to the `Ym` limit), keyed and unkeyed, lengths around leaf and node
//! boundaries, the three state sizes.

use skein_simd_test_support as support;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use skein_simd::hazmat::{ObjectTree, ProofError, SubtreeProof, SubtreeRange, Subtrees};
use skein_simd::{Params, Skein, TreeParams};
use std::collections::HashMap;
use support::reference::{argument_chain, output, tree_walk, ubi, Args, TYPE_MSG};

/// The header of a proof's bytes: state words, level, first, count.
const HEADER: usize = 1 + 1 + 8 + 8;

/// The spec's tree of one object, written level by level: every node's
/// chaining value by (level, index), and the digest.
struct SpecTree {
    nodes: HashMap<(u8, u64), Vec<u8>>,
    /// Nodes of each level, from level 1 to the root's.
    counts: Vec<u64>,
    fan_out: u64,
    digest: Vec<u8>,
}

impl SpecTree {
    fn new<const W: usize>(args: &Args<'_>, object: &[u8]) -> SpecTree {
        let (yl, yf, _) = args.tree.unwrap();
        let g = argument_chain::<W>(args);
        let nb = 8 * W as u64;
        let mut nodes = HashMap::new();
        let root = tree_walk::<W>(
            object,
            false,
            args.tree.unwrap(),
            |part, level, position, pad| {
                let value = ubi::<W>(&g, part, TYPE_MSG, level, position, pad);
                // Positions count the bytes of the level: a leaf's `Nb * 2^Yl`
                // message bytes, a node's `2^Yf` child values.
                let span = if level == 1 { nb << yl } else { nb << yf };
                nodes.insert((level as u8, position / span), value.clone());
                value
            },
        );
        let root_level = nodes.keys().map(|&(l, _)| l).max().unwrap();
        let counts = (1..=root_level)
            .map(|l| nodes.keys().filter(|&&(level, _)| level == l).count() as u64)
            .collect();
        SpecTree {
            nodes,
            counts,
            fan_out: 1 << yf,
            digest: output::<W>(&root, args.output_bits),
        }
    }

    fn root_level(&self) -> u8 {
        self.counts.len() as u8
    }

    /// The siblings of the run `first .. first + count` of `level`, by the
    /// spec's rule (a node of level `l + 1` hashes `2^Yf` consecutive
    /// outputs of level `l`, the last node fewer, the root all of the level
    /// below it), level by level, those before the run then those after.
    fn siblings(&self, level: u8, first: u64, count: u64) -> Vec<(u8, u64)> {
        let (mut start, mut end) = (first, first + count);
        let mut out = Vec::new();
        for l in level..self.root_level() {
            let nodes = self.counts[l as usize - 1];
            let (from, to) = if l + 1 == self.root_level() {
                (0, nodes)
            } else {
                let f = self.fan_out;
                (start / f * f, (end.div_ceil(f) * f).min(nodes))
            };
            out.extend((from..start).chain(end..to).map(|i| (l, i)));
            if l + 1 == self.root_level() {
                (start, end) = (0, 1);
            } else {
                (start, end) = (start / self.fan_out, end.div_ceil(self.fan_out));
            }
        }
        out
    }

    /// The bytes of the proof of the run, as docs/subtree.md lays them out.
    fn proof_bytes<const W: usize>(&self, level: u8, first: u64, count: u64) -> Vec<u8> {
        let mut out = vec![W as u8, level];
        out.extend(first.to_le_bytes());
        out.extend(count.to_le_bytes());
        for node in self.siblings(level, first, count) {
            out.extend(&self.nodes[&node]);
        }
        out
    }
}

fn bytes_of<'a>(object: &'a [u8], range: &SubtreeRange) -> &'a [u8] {
    let r = range.bytes();
    &object[r.start as usize..r.end as usize]
}

fn hash_range<const W: usize>(
    tree: &ObjectTree<W>,
    object: &[u8],
    range: &SubtreeRange,
) -> Subtrees<W> {
    let mut hasher = tree.hasher(range).unwrap();
    hasher.update(bytes_of(object, range));
    hasher.finish().unwrap()
}

/// A few byte positions of `len`: the first, the last and random ones;
/// all of them when there are few.
fn positions(len: usize, few: usize, rng: &mut impl Rng) -> Vec<usize> {
    if len <= few {
        return (0..len).collect();
    }
    let mut out = vec![0, len - 1];
    out.extend((0..few / 4).map(|_| rng.gen_range(0..len)));
    out
}

/// Everything about the proof of `range`: its bytes are the spec tree's
/// siblings (so its size is the formula), it verifies, and every change
/// of the range's bytes, the proof or the digest is refused. (The outputs
/// are of 61 bits or more: a 13-bit digest lets one change in 2^13 pass,
/// and the test makes thousands.)
fn check_range<const W: usize>(
    tree: &ObjectTree<W>,
    object: &[u8],
    spec: &SpecTree,
    level_values: &[Subtrees<W>],
    range: &SubtreeRange,
    rng: &mut impl Rng,
    what: &str,
) {
    let what = format!("{what}, range {range:?}");
    let proof = tree.proof(range, level_values).unwrap();
    let bytes = proof.to_bytes();
    let want = spec.proof_bytes::<W>(range.level(), range.first(), range.count());
    assert_eq!(bytes, want, "{what}: the proof's bytes");
    let siblings = spec
        .siblings(range.level(), range.first(), range.count())
        .len();
    assert_eq!(bytes.len(), HEADER + 8 * W * siblings, "{what}");
    assert_eq!(tree.proof_len(range).unwrap(), bytes.len() as u64, "{what}");
    assert_eq!(proof.siblings(), siblings as u64, "{what}");

    let proof = SubtreeProof::<W>::from_bytes(&bytes).unwrap();
    let data = bytes_of(object, range);
    let digest = &spec.digest;
    assert_eq!(tree.verify(range, data, &proof, digest), Ok(()), "{what}");
    let values = hash_range(tree, object, range);
    assert_eq!(
        tree.verify_subtrees(&values, &proof, digest),
        Ok(()),
        "{what}"
    );

    // A flipped byte of the range (at the ends only of a large one: each
    // check hashes it again).
    let few = if data.len() > 1 << 14 { 0 } else { 4 };
    for i in positions(data.len(), few, rng) {
        let mut changed = data.to_vec();
        changed[i] ^= 1 << rng.gen_range(0..8);
        assert_eq!(
            tree.verify(range, &changed, &proof, digest),
            Err(ProofError::Mismatch),
            "{what}: byte {i} of the range"
        );
    }
    // A flipped byte of the proof: any byte of the header, some of the
    // values (all of a small proof).
    let value_bytes = bytes.len() - HEADER;
    let flips = (0..HEADER).chain(
        positions(value_bytes, 8, rng)
            .into_iter()
            .map(|i| HEADER + i),
    );
    for i in flips {
        let mut changed = bytes.clone();
        changed[i] ^= 1 << rng.gen_range(0..8);
        let verified = SubtreeProof::<W>::from_bytes(&changed)
            .and_then(|p| tree.verify_subtrees(&values, &p, digest));
        if i < HEADER {
            assert!(verified.is_err(), "{what}: byte {i} of the proof's header");
        } else {
            assert_eq!(
                verified,
                Err(ProofError::Mismatch),
                "{what}: byte {i} of the proof"
            );
        }
    }
    // A flipped byte of the digest (a bit the output length uses: the top
    // one of every byte).
    for i in 0..digest.len() {
        let mut changed = digest.clone();
        changed[i] ^= 0x80;
        assert_eq!(
            tree.verify_subtrees(&values, &proof, &changed),
            Err(ProofError::Mismatch),
            "{what}: byte {i} of the digest"
        );
    }
    // Cut short or lengthened: by a byte, by a value.
    let nb = 8 * W;
    assert!(matches!(
        SubtreeProof::<W>::from_bytes(&bytes[..bytes.len() - 1]),
        Err(ProofError::Malformed(_))
    ));
    let mut longer = bytes.clone();
    longer.extend(vec![0xa5; nb]);
    let longer = SubtreeProof::<W>::from_bytes(&longer).unwrap();
    assert_eq!(
        tree.verify(range, data, &longer, digest),
        Err(ProofError::SiblingCount {
            expected: siblings as u64,
            found: siblings as u64 + 1
        }),
        "{what}"
    );
    if siblings > 0 {
        let shorter = SubtreeProof::<W>::from_bytes(&bytes[..bytes.len() - nb]).unwrap();
        assert!(
            matches!(
                tree.verify(range, data, &shorter, digest),
                Err(ProofError::SiblingCount { .. })
            ),
            "{what}"
        );
    }
    // A digest of another length, bytes of another length.
    assert!(matches!(
        tree.verify(range, data, &proof, &digest[1..]),
        Err(ProofError::DigestLength { .. })
    ));
    let mut more = data.to_vec();
    more.push(0);
    assert!(matches!(
        tree.verify(range, &more, &proof, digest),
        Err(ProofError::DataLength { .. })
    ));
}

/// The ranges whose proofs a tree's test checks: those of `split` for a
/// few part counts, every single node of every level (a sample of them in
/// large trees), and runs at random places.
fn ranges<const W: usize>(tree: &ObjectTree<W>, rng: &mut impl Rng) -> Vec<SubtreeRange> {
    let mut out: Vec<SubtreeRange> = [1, 3].iter().flat_map(|&p| tree.split(p)).collect();
    for level in 1..=tree.root_level() {
        let nodes = tree.nodes_at(level);
        let picks: Vec<u64> = if nodes <= 4 {
            (0..nodes).collect()
        } else {
            vec![0, nodes - 1, rng.gen_range(0..nodes)]
        };
        out.extend(picks.into_iter().map(|i| tree.range(level, i, 1).unwrap()));
        let first = rng.gen_range(0..nodes);
        let count = rng.gen_range(1..=nodes - first);
        out.push(tree.range(level, first, count).unwrap());
    }
    out.sort_by_key(|r| (r.level(), r.first(), r.count()));
    out.dedup();
    out
}

fn check_object<const W: usize>(
    shape: (u8, u8, u8),
    len: usize,
    keyed: bool,
    output_bits: u64,
    rng: &mut impl Rng,
) {
    let object: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
    let key: &[u8] = if keyed { b"proof key" } else { b"" };
    let args = Args {
        output_bits,
        key,
        personalization: b"pers",
        tree: Some(shape),
        ..Args::default()
    };
    let spec = SpecTree::new::<W>(&args, &object);
    let params = Params::new()
        .output_bits(output_bits)
        .key(key)
        .personalization(b"pers")
        .tree(TreeParams::new(shape.0, shape.1, shape.2).unwrap());
    let mut one = Skein::<W>::with_params(&params).unwrap();
    one.update(&object);
    let what = format!("W {W}, shape {shape:?}, {len} bytes, keyed {keyed}, {output_bits} bits");
    assert_eq!(one.finalize_vec(), spec.digest, "{what}: one machine");

    let tree = ObjectTree::<W>::new(&params, len as u64).unwrap();
    assert_eq!(tree.root_level(), spec.root_level(), "{what}");
    // The prover: the values of the leaves, hashed in runs cut at random
    // and sent as bytes.
    let leaves = tree.nodes_at(1);
    let mut cuts: Vec<u64> = (1..leaves).filter(|_| rng.gen_bool(0.2)).collect();
    cuts.push(leaves);
    let mut start = 0;
    let level_values: Vec<Subtrees<W>> = cuts
        .into_iter()
        .map(|end| {
            let run = tree.range(1, start, end - start).unwrap();
            start = end;
            Subtrees::from_bytes(&hash_range(&tree, &object, &run).to_bytes()).unwrap()
        })
        .collect();
    for range in ranges(&tree, rng) {
        check_range(&tree, &object, &spec, &level_values, &range, rng, &what);
    }
    // Bytes at another place: a range's data against another range of as
    // many bytes, with that range's honest proof.
    if leaves >= 3 {
        let (a, b) = (tree.range(1, 0, 1).unwrap(), tree.range(1, 1, 1).unwrap());
        let proof_b = tree.proof(&b, &level_values).unwrap();
        assert_eq!(
            tree.verify(&b, bytes_of(&object, &a), &proof_b, &spec.digest),
            Err(ProofError::Mismatch),
            "{what}: leaf 0's bytes as leaf 1"
        );
        assert_eq!(
            tree.verify(&a, bytes_of(&object, &a), &proof_b, &spec.digest),
            Err(ProofError::OtherRange),
            "{what}: leaf 1's proof for leaf 0"
        );
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
    out.retain(|&l| l <= max);
    out.sort_unstable();
    out.dedup();
    out
}

#[test]
fn proofs_of_small_deep_trees() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x009f_00f5);
    // Small leaves with every height limit: deep trees, and the top level
    // `Ym` taking more than the fan-out.
    for yf in 1..=3u8 {
        for ym in [2, 3, 4, 255] {
            let fan_out = 1 << yf;
            for (i, len) in lengths(64, fan_out, 12 * 64, &mut rng)
                .into_iter()
                .enumerate()
            {
                let output_bits = [256, 1000, 61, 256][i % 4];
                check_object::<4>((1, yf, ym), len, i % 2 == 0, output_bits, &mut rng);
            }
        }
    }
    for len in [0, 127, 128, 129, 1000, 2048] {
        check_object::<8>((1, 1, 3), len, true, 512, &mut rng);
        check_object::<16>((1, 2, 255), len * 2, false, 1024, &mut rng);
    }
}

/// The size of a full tree's proofs in closed form (docs/subtree.md): a
/// leaf's proof has `Yf`-fold siblings at each level below the root, or,
/// when the top level `Ym` takes all, every other node of that level.
#[test]
fn proof_sizes_in_closed_form() {
    for (yf, levels) in [(1u8, 5u32), (2, 3), (3, 2), (8, 1)] {
        let fan_out = 1u64 << yf;
        let len = 64 * fan_out.pow(levels);
        for ym in [255, 2] {
            let params = Params::new().tree(TreeParams::new(1, yf, ym).unwrap());
            let tree = ObjectTree::<4>::new(&params, len).unwrap();
            let siblings = if ym == 255 {
                u64::from(levels) * (fan_out - 1)
            } else {
                fan_out.pow(levels) - 1
            };
            for leaf in [0, fan_out.pow(levels) - 1] {
                let range = tree.range(1, leaf, 1).unwrap();
                assert_eq!(
                    tree.proof_len(&range).unwrap(),
                    18 + 32 * siblings,
                    "Yf {yf}, Ym {ym}"
                );
            }
            // The root's level: nothing to prove beside it.
            let root = tree.range(tree.root_level(), 0, 1).unwrap();
            assert_eq!(tree.proof_len(&root).unwrap(), 18);
        }
    }
}

#[test]
fn bad_proofs_and_values_are_errors() {
    let params = Params::new().tree(TreeParams::new(1, 1, 255).unwrap());
    let object = vec![5u8; 1000];
    let tree = ObjectTree::<8>::new(&params, 1000).unwrap();
    let other = ObjectTree::<8>::new(&params, 1001).unwrap();
    let values: Vec<_> = tree
        .split(2)
        .iter()
        .map(|r| hash_range(&tree, &object, r))
        .collect();
    let range = tree.range(1, 2, 1).unwrap();
    // The prover needs a whole level, at or below the range's.
    assert!(tree.proof(&range, &values[..1]).is_err());
    assert!(tree.proof(&range, &[]).is_err());
    let high = tree.range(3, 0, 1).unwrap();
    let proof = tree.proof(&high, &values).unwrap();
    assert_eq!(proof.level(), 3);
    let up = tree
        .parents(&tree.parents(&Subtrees::join(&values).unwrap()).unwrap())
        .unwrap();
    assert!(tree.proof(&tree.range(2, 0, 1).unwrap(), &[up]).is_err());
    // A range of another object's tree.
    let last = other.range(1, 7, 1).unwrap();
    assert!(tree.proof(&last, &values).is_err());
    assert!(tree.proof_len(&last).is_err());
    let proof = tree.proof(&range, &values).unwrap();
    let mut digest = [0u8; 64];
    tree.root(&values).unwrap().fill(&mut digest);
    assert_eq!(
        tree.verify(&last, &object[896..], &proof, &digest),
        Err(ProofError::RangeNotInTree)
    );
    // Bytes of another state size, or too short for a header.
    let bytes = proof.to_bytes();
    assert_eq!(
        SubtreeProof::<4>::from_bytes(&bytes).unwrap_err(),
        ProofError::StateSize {
            expected: 256,
            found: 512
        }
    );
    assert!(matches!(
        SubtreeProof::<8>::from_bytes(&bytes[..17]),
        Err(ProofError::Malformed(_))
    ));
    assert!(matches!(
        SubtreeProof::<8>::from_bytes(&[]),
        Err(ProofError::Malformed(_))
    ));
    // Level 0, no nodes.
    let mut zero = bytes.clone();
    zero[1] = 0;
    assert!(matches!(
        SubtreeProof::<8>::from_bytes(&zero),
        Err(ProofError::Malformed(_))
    ));
    let mut none = bytes.clone();
    none[10..18].fill(0);
    assert!(matches!(
        SubtreeProof::<8>::from_bytes(&none),
        Err(ProofError::Malformed(_))
    ));
    // The messages say what is wrong.
    assert_eq!(
        ProofError::SiblingCount {
            expected: 3,
            found: 2
        }
        .to_string(),
        "subtree proof has 2 chaining values, the range's proof in this tree 3"
    );
    // Bits past the output length in the digest's last byte do not count.
    let params = Params::new()
        .output_bits(13)
        .tree(TreeParams::new(1, 1, 255).unwrap());
    let tree = ObjectTree::<8>::new(&params, 1000).unwrap();
    let values: Vec<_> = tree
        .split(1)
        .iter()
        .map(|r| hash_range(&tree, &object, r))
        .collect();
    let proof = tree.proof(&range, &values).unwrap();
    let mut digest = [0u8; 2];
    tree.root(&values).unwrap().fill(&mut digest);
    assert_eq!(
        tree.verify(&range, &object[256..384], &proof, &digest),
        Ok(())
    );
    digest[1] ^= 0x07;
    assert_eq!(
        tree.verify(&range, &object[256..384], &proof, &digest),
        Ok(())
    );
    digest[1] ^= 0x08;
    assert_eq!(
        tree.verify(&range, &object[256..384], &proof, &digest),
        Err(ProofError::Mismatch)
    );
}

/// A random tree shape and an object length near one of its boundaries.
#[derive(Clone, Debug)]
struct Case {
    shape: (u8, u8, u8),
    len: usize,
    keyed: bool,
    output_bits: u64,
    seed: u64,
}

/// The largest node span a case puts its length next to.
const MAX_SPAN: usize = 256 << 10;

fn case(words: usize) -> impl Strategy<Value = Case> {
    let height = prop_oneof![Just(2u8), Just(3), Just(4), 2u8..=255, Just(255)];
    (
        (1u8..=10, 1u8..=8, height),
        (0u32..=4, -3i64..=3, -1i64..=1),
        any::<bool>(),
        0usize..4,
        any::<u64>(),
    )
        .prop_map(
            move |((yl, yf, ym), (k, leaves, bytes), keyed, out, seed)| {
                let leaf = (8 * words) << yl;
                // A boundary of the tree: leaf * fan_out^k, k as large as the
                // byte budget allows.
                let mut span = leaf;
                for _ in 0..k {
                    if span << yf <= MAX_SPAN {
                        span <<= yf;
                    }
                }
                let len = (span as i64 + leaves * leaf as i64 + bytes).max(0) as usize;
                Case {
                    shape: (yl, yf, ym),
                    len,
                    keyed,
                    output_bits: [64 * words as u64, 256, 1000, 61][out],
                    seed,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn proofs_of_random_trees_256(c in case(4)) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(c.seed);
        check_object::<4>(c.shape, c.len, c.keyed, c.output_bits, &mut rng);
    }

    #[test]
    fn proofs_of_random_trees_512(c in case(8)) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(c.seed);
        check_object::<8>(c.shape, c.len, c.keyed, c.output_bits, &mut rng);
    }

    #[test]
    fn proofs_of_random_trees_1024(c in case(16)) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(c.seed);
        check_object::<16>(c.shape, c.len, c.keyed, c.output_bits, &mut rng);
    }
}

/// What docs/subtree.md says a proof does not prove: the object's length,
/// unless the range holds its last byte. And a proof is of one key.
#[test]
fn what_a_proof_proves() {
    let params = Params::new().tree(TreeParams::new(1, 1, 255).unwrap());
    let object: Vec<u8> = (0..5 * 128).map(|i| (i * 7) as u8).collect();
    let tree = ObjectTree::<8>::new(&params, 5 * 128).unwrap();
    let values = [hash_range(&tree, &object, &tree.range(1, 0, 5).unwrap())];
    let mut digest = [0u8; 64];
    tree.root(&values).unwrap().fill(&mut digest);
    // Six leaves have the same nodes beside leaf 0's path as five.
    let longer = ObjectTree::<8>::new(&params, 6 * 128).unwrap();
    let first = tree.range(1, 0, 1).unwrap();
    let proof = tree.proof(&first, &values).unwrap();
    assert_eq!(longer.range(1, 0, 1).unwrap(), first);
    assert_eq!(
        longer.verify(&first, &object[..128], &proof, &digest),
        Ok(())
    );
    // The last leaf's proof does not verify under another length.
    let last = tree.range(1, 4, 1).unwrap();
    let proof = tree.proof(&last, &values).unwrap();
    assert_eq!(tree.verify(&last, &object[512..], &proof, &digest), Ok(()));
    let shorter = ObjectTree::<8>::new(&params, 5 * 128 - 1).unwrap();
    let cut = shorter.range(1, 4, 1).unwrap();
    assert_eq!(
        shorter.verify(&cut, &object[512..639], &proof, &digest),
        Err(ProofError::Mismatch)
    );
    // Another key.
    let keyed = Params::new()
        .key(b"k")
        .tree(TreeParams::new(1, 1, 255).unwrap());
    let keyed = ObjectTree::<8>::new(&keyed, 5 * 128).unwrap();
    assert_eq!(
        keyed.verify(
            &first,
            &object[..128],
            &tree.proof(&first, &values).unwrap(),
            &digest
        ),
        Err(ProofError::Mismatch)
    );
}
