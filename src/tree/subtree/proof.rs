//! Proofs of inclusion (verified streaming, as in Bao): a range of an
//! object checked against the object's digest alone, with the chaining
//! values of the nodes beside its path to the root, without the rest of
//! the object.
//!
//! A range's path to the root passes, at each level from the range's up
//! to the one below the root, through the parents of the run of nodes it
//! has reached: [`SubtreeProof`] holds the other children of those parents
//! (the siblings), level by level. The verifier hashes the range's bytes
//! into its values, puts the siblings beside them, hashes the parents, and
//! so on up to the root, whose output it compares with the digest in
//! constant time. Skein's tree shape shows in the sizes: a parent has
//! `2^Yf` children, but fewer at a level's end, and the root at the top
//! level `Ym` takes all of the level below it.

use super::{ObjectTree, SubtreeRange, Subtrees};
use crate::mask_unused_bits;
use crate::Error;
use alloc::vec::Vec;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// The chaining values that prove one [`SubtreeRange`] of an object
/// against the object's digest: for each level from the range's up to the
/// one below the root, the other children of the parents of the run the
/// range has reached there (those before it, then those after it, in
/// order). Made by [`ObjectTree::proof`] from the values of a whole level;
/// checked by [`ObjectTree::verify`].
///
/// Zeroized on drop: in a keyed tree the values are keyed values.
///
/// ```
/// use skein_simd::hazmat::{ObjectTree, SubtreeProof};
/// use skein_simd::{Params, TreeParams};
///
/// let object: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
/// let params = Params::new().tree(TreeParams::new(2, 2, 255).unwrap());
/// let tree = ObjectTree::<8>::new(&params, object.len() as u64).unwrap();
/// let bytes_of = |r: &skein_simd::hazmat::SubtreeRange| {
///     &object[r.bytes().start as usize..r.bytes().end as usize]
/// };
///
/// // Whoever has the whole object: the values, the digest, the proofs.
/// let ranges = tree.split(4);
/// let values: Vec<_> = ranges
///     .iter()
///     .map(|r| {
///         let mut hasher = tree.hasher(r).unwrap();
///         hasher.update(bytes_of(r));
///         hasher.finish().unwrap()
///     })
///     .collect();
/// let mut digest = [0u8; 64];
/// tree.root(&values).unwrap().fill(&mut digest);
/// let sent = tree.proof(&ranges[1], &values).unwrap().to_bytes();
/// assert_eq!(sent.len() as u64, tree.proof_len(&ranges[1]).unwrap());
///
/// // Whoever receives the second range: the digest, the range, its proof.
/// let proof = SubtreeProof::<8>::from_bytes(&sent).unwrap();
/// assert!(tree.verify(&ranges[1], bytes_of(&ranges[1]), &proof, &digest).is_ok());
/// let mut changed = bytes_of(&ranges[1]).to_vec();
/// changed[7] ^= 1;
/// assert!(tree.verify(&ranges[1], &changed, &proof, &digest).is_err());
/// ```
#[derive(Clone)]
pub struct SubtreeProof<const W: usize> {
    level: u8,
    first: u64,
    count: u64,
    siblings: Vec<[u64; W]>,
}

/// Why [`ObjectTree::verify`] (or [`SubtreeProof::from_bytes`]) refused a
/// range, a proof or a digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProofError {
    /// Bytes that are not a proof's; says why.
    Malformed(&'static str),
    /// A proof of another state size than the tree's.
    StateSize {
        /// The tree's state size in bits.
        expected: u64,
        /// The proof's state size in bits.
        found: u64,
    },
    /// A range (or values) that is not one of this tree's.
    RangeNotInTree,
    /// A proof of another range than the one verified.
    OtherRange,
    /// A proof with another number of chaining values than the proof of
    /// its range in this tree has: cut short, lengthened, or made for an
    /// object of another length or tree shape.
    SiblingCount {
        /// What this tree's proof of the range has.
        expected: u64,
        /// What the proof has.
        found: u64,
    },
    /// The range's bytes are not as many as the range has.
    DataLength {
        /// The range's length in bytes.
        expected: u64,
        /// The bytes given.
        found: u64,
    },
    /// A digest of another length than the tree's output in bytes.
    DigestLength {
        /// The tree's output length in bytes.
        expected: u64,
        /// The digest's length in bytes.
        found: u64,
    },
    /// The range's bytes, the proof and the digest disagree: the bytes are
    /// not the object's at that place, or the proof or the digest is not
    /// the object's (or is of other parameters: key, personalization,
    /// output length).
    Mismatch,
}

impl core::fmt::Display for ProofError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ProofError::Malformed(why) => write!(f, "not a subtree proof: {why}"),
            ProofError::StateSize { expected, found } => write!(
                f,
                "subtree proof is of Skein-{found}, the tree of Skein-{expected}"
            ),
            ProofError::RangeNotInTree => f.write_str("range is not one of the object's tree"),
            ProofError::OtherRange => f.write_str("subtree proof is of another range"),
            ProofError::SiblingCount { expected, found } => write!(
                f,
                "subtree proof has {found} chaining values, the range's proof in this tree {expected}"
            ),
            ProofError::DataLength { expected, found } => {
                write!(f, "the range has {expected} bytes, {found} given")
            }
            ProofError::DigestLength { expected, found } => {
                write!(f, "digest of {found} bytes, the tree's output has {expected}")
            }
            ProofError::Mismatch => {
                f.write_str("range bytes, subtree proof and digest do not agree")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ProofError {}

/// One level of a range's path to the root: the run `start..end` of
/// nodes of `level` that the range has reached, inside the children
/// `from..to` of that run's parents.
struct Step {
    level: u8,
    from: u64,
    start: u64,
    end: u64,
    to: u64,
}

impl Step {
    /// The siblings: children of the parents outside the run.
    fn siblings(&self) -> u64 {
        (self.start - self.from) + (self.to - self.end)
    }
}

impl<const W: usize> ObjectTree<W> {
    /// `range`, if it is one of this tree's.
    fn own(&self, range: &SubtreeRange) -> Option<SubtreeRange> {
        self.range(range.level, range.first, range.count)
            .ok()
            .filter(|r| r == range)
    }

    /// The path of the run `first .. first + count` of `level` to the
    /// root, level by level (empty at the root's level).
    fn path(&self, level: u8, first: u64, count: u64) -> Vec<Step> {
        let (mut start, mut end) = (first, first + count);
        let mut steps = Vec::new();
        for level in level..self.root_level {
            let nodes = self.nodes_at(level);
            // The root takes every node below it (at the top level `Ym`,
            // more than the fan-out); any other parent `2^Yf` of them.
            let fan_out = if level + 1 == self.root_level {
                nodes
            } else {
                1u64.checked_shl(self.tree.fan_out_log2().into())
                    .unwrap_or(u64::MAX)
            };
            let to = end.div_ceil(fan_out).saturating_mul(fan_out).min(nodes);
            steps.push(Step {
                level,
                from: start / fan_out * fan_out,
                start,
                end,
                to,
            });
            start /= fan_out;
            end = end.div_ceil(fan_out);
        }
        steps
    }

    /// The length in bytes of the proof of `range`
    /// ([`SubtreeProof::to_bytes`]): 18 bytes of header and `8 * W` bytes
    /// for each sibling, which are, at each level from the range's to the
    /// one below the root, the children of the parents of the run the
    /// range has reached there less that run (docs/subtree.md has the
    /// formula). 18 for a range at the root's level. Saturates at
    /// `u64::MAX`.
    pub fn proof_len(&self, range: &SubtreeRange) -> Result<u64, Error> {
        let range = self.own(range).ok_or(Error::SubtreeMismatch)?;
        let siblings = self
            .path(range.level, range.first, range.count)
            .iter()
            .map(Step::siblings)
            .fold(0u64, u64::saturating_add);
        Ok(siblings
            .saturating_mul(8 * W as u64)
            .saturating_add(SubtreeProof::<W>::HEADER as u64))
    }

    /// The proof of `range` from `values`: consecutive runs of one level
    /// at or below the range's, in order, that hold all of its nodes (the
    /// values of all the ranges of a [`split`](Self::split), say). The
    /// prover needs the whole object's values; the verifier only the
    /// proof, the range's bytes and the digest.
    pub fn proof(
        &self,
        range: &SubtreeRange,
        values: &[Subtrees<W>],
    ) -> Result<SubtreeProof<W>, Error> {
        let range = self.own(range).ok_or(Error::SubtreeMismatch)?;
        let mut level = Subtrees::join(values)?;
        if level.first != 0
            || level.count() != self.nodes_at(level.level)
            || level.level > range.level
        {
            return Err(Error::SubtreeMismatch);
        }
        while level.level < range.level {
            level = self.parents(&level)?;
        }
        let path = self.path(range.level, range.first, range.count);
        let total = path
            .iter()
            .map(Step::siblings)
            .fold(0u64, u64::saturating_add);
        let mut siblings = Vec::with_capacity(usize::try_from(total).unwrap_or(usize::MAX));
        for step in &path {
            debug_assert_eq!(level.level, step.level);
            let at = |i: u64| i as usize;
            siblings.extend_from_slice(&level.chains[at(step.from)..at(step.start)]);
            siblings.extend_from_slice(&level.chains[at(step.end)..at(step.to)]);
            if step.level + 1 < self.root_level {
                level = self.parents(&level)?;
            }
        }
        Ok(SubtreeProof {
            level: range.level,
            first: range.first,
            count: range.count,
            siblings,
        })
    }

    /// Checks that `data`, the bytes of `range`, are the object's bytes
    /// there, given the object's `digest` (the output length of the tree's
    /// parameters; in its last byte, bits past the output length are
    /// ignored) and the range's `proof`: hashes `data` into the range's
    /// values (on the lanes and threads, as [`hasher`](Self::hasher)),
    /// rebuilds the path to the root with the proof, and compares the
    /// root's output with `digest` in constant time.
    ///
    /// Every wrong input is an error, never a panic: a range or proof
    /// that does not fit this tree, a proof of another range, bytes of
    /// another length, and ([`ProofError::Mismatch`]) a byte of the range,
    /// the proof or the digest that differs.
    ///
    /// What it proves is in docs/subtree.md: the bytes sit at the range's
    /// place in an object of this tree (key, parameters, shape) with this
    /// digest; the object's length only when the range holds its last
    /// byte.
    pub fn verify(
        &self,
        range: &SubtreeRange,
        data: &[u8],
        proof: &SubtreeProof<W>,
        digest: &[u8],
    ) -> Result<(), ProofError> {
        let range = self.own(range).ok_or(ProofError::RangeNotInTree)?;
        self.check_proof(&range, proof, digest)?;
        let bytes = range.bytes();
        if data.len() as u64 != bytes.end - bytes.start {
            return Err(ProofError::DataLength {
                expected: bytes.end - bytes.start,
                found: data.len() as u64,
            });
        }
        let mut hasher = self
            .hasher(&range)
            .map_err(|_| ProofError::RangeNotInTree)?;
        hasher.update(data);
        let values = hasher.finish().map_err(|_| ProofError::RangeNotInTree)?;
        self.verify_subtrees(&values, proof, digest)
    }

    /// [`verify`](Self::verify) of a range already hashed into its
    /// `values` (by a [`SubtreeHasher`](super::SubtreeHasher) fed in
    /// pieces, say): the range is the one the values are of.
    pub fn verify_subtrees(
        &self,
        values: &Subtrees<W>,
        proof: &SubtreeProof<W>,
        digest: &[u8],
    ) -> Result<(), ProofError> {
        let range = self
            .range(values.level, values.first, values.count())
            .map_err(|_| ProofError::RangeNotInTree)?;
        self.check_proof(&range, proof, digest)?;
        let mut run = values.clone();
        let mut siblings = proof.siblings.as_slice();
        for step in self.path(range.level, range.first, range.count) {
            let (before, rest) = siblings.split_at((step.start - step.from) as usize);
            let (after, rest) = rest.split_at((step.to - step.end) as usize);
            siblings = rest;
            let mut chains = Vec::with_capacity((step.to - step.from) as usize);
            chains.extend_from_slice(before);
            chains.extend_from_slice(&run.chains);
            chains.extend_from_slice(after);
            let children = Subtrees {
                level: step.level,
                first: step.from,
                chains,
            };
            run = self
                .parents(&children)
                .expect("whole parents, checked against the tree");
        }
        let mut out = alloc::vec![0u8; digest.len()];
        self.root(core::slice::from_ref(&run))
            .expect("the root's value")
            .fill(&mut out);
        let mut expected = digest.to_vec();
        mask_unused_bits(&mut out, self.output_bits);
        mask_unused_bits(&mut expected, self.output_bits);
        let equal = bool::from(out.as_slice().ct_eq(expected.as_slice()));
        out.zeroize();
        expected.zeroize();
        if equal {
            Ok(())
        } else {
            Err(ProofError::Mismatch)
        }
    }

    /// That `proof` is this tree's proof of `range` (by its place and
    /// size: its values are what the verification checks) and that
    /// `digest` has the output's length.
    fn check_proof(
        &self,
        range: &SubtreeRange,
        proof: &SubtreeProof<W>,
        digest: &[u8],
    ) -> Result<(), ProofError> {
        if (proof.level, proof.first, proof.count) != (range.level, range.first, range.count) {
            return Err(ProofError::OtherRange);
        }
        let expected = self
            .path(range.level, range.first, range.count)
            .iter()
            .map(Step::siblings)
            .fold(0u64, u64::saturating_add);
        if proof.siblings.len() as u64 != expected {
            return Err(ProofError::SiblingCount {
                expected,
                found: proof.siblings.len() as u64,
            });
        }
        let output_len = self.output_bits.div_ceil(8);
        if digest.len() as u64 != output_len {
            return Err(ProofError::DigestLength {
                expected: output_len,
                found: digest.len() as u64,
            });
        }
        Ok(())
    }
}

impl<const W: usize> SubtreeProof<W> {
    /// Bytes of [`to_bytes`](Self::to_bytes) before the chaining values.
    const HEADER: usize = 1 + 1 + 8 + 8;

    /// The level of the range's nodes (1: leaves).
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The index of the range's first node in its level.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// How many nodes the range has.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// How many chaining values (siblings) the proof holds.
    pub fn siblings(&self) -> u64 {
        self.siblings.len() as u64
    }

    /// A self-describing byte string, to send with the range: the state
    /// size in bytes / 8 (`W`), the range's level, first node and node
    /// count (8 bytes each, little-endian), then the siblings (`8 * W`
    /// bytes each, as the spec writes them) level by level from the
    /// range's up, at each level those before the run, then those after
    /// it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::HEADER + self.siblings.len() * 8 * W);
        out.push(W as u8);
        out.push(self.level);
        out.extend_from_slice(&self.first.to_le_bytes());
        out.extend_from_slice(&self.count.to_le_bytes());
        for chain in &self.siblings {
            out.extend(chain.iter().flat_map(|w| w.to_le_bytes()));
        }
        out
    }

    /// The proof [`to_bytes`](Self::to_bytes) wrote, if `bytes` is one for
    /// this state size. Whether it fits a tree and a range is checked by
    /// [`ObjectTree::verify`].
    pub fn from_bytes(bytes: &[u8]) -> Result<SubtreeProof<W>, ProofError> {
        let (header, values) = bytes
            .split_at_checked(Self::HEADER)
            .ok_or(ProofError::Malformed("shorter than its 18-byte header"))?;
        if usize::from(header[0]) != W {
            return Err(ProofError::StateSize {
                expected: 64 * W as u64,
                found: 64 * u64::from(header[0]),
            });
        }
        let level = header[1];
        let first = u64::from_le_bytes(header[2..10].try_into().expect("8 bytes"));
        let count = u64::from_le_bytes(header[10..18].try_into().expect("8 bytes"));
        if level == 0 {
            return Err(ProofError::Malformed("level 0"));
        }
        if count == 0 || first.checked_add(count).is_none() {
            return Err(ProofError::Malformed("no nodes, or nodes past 2^64"));
        }
        if !values.len().is_multiple_of(8 * W) {
            return Err(ProofError::Malformed("a chaining value cut short"));
        }
        let siblings = values
            .chunks_exact(8 * W)
            .map(|c| {
                core::array::from_fn(|i| {
                    u64::from_le_bytes(c[8 * i..8 * i + 8].try_into().expect("8 bytes"))
                })
            })
            .collect();
        Ok(SubtreeProof {
            level,
            first,
            count,
            siblings,
        })
    }
}

impl<const W: usize> core::fmt::Debug for SubtreeProof<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SubtreeProof")
            .field("level", &self.level)
            .field("first", &self.first)
            .field("count", &self.count)
            .field("siblings", &self.siblings.len())
            .finish_non_exhaustive()
    }
}

impl<const W: usize> Drop for SubtreeProof<W> {
    fn drop(&mut self) {
        self.siblings.iter_mut().for_each(Zeroize::zeroize);
    }
}
