"""Proofs of inclusion (`ObjectTree.proof`, `ObjectTree.verify`): every
range of a split verifies against pyskein 1.0's digest of the whole object
(the reference) with its proof, pickled as it would travel; a flipped byte
of the range, of the proof or of the digest, a proof of another range or
cut short is a ValueError; a proof's length is the formula of
docs/subtree.md, computed here from the spec's tree shape."""

import pickle

import pytest

import skein_simd
from helpers import SIZES, rand_bytes, rand_kwargs


def node_counts(length, leaf, fan_out, max_height):
    """Nodes of each level of the spec's tree (3.5.6), from the leaves to
    the root: a leaf per `leaf` bytes begun (one for no bytes), a node per
    `fan_out` nodes below, until one node is left or level `max_height`
    takes all."""
    counts = [max(1, -(-length // leaf))]
    while counts[-1] > 1:
        level = len(counts) + 1
        counts.append(1 if level == max_height else -(-counts[-1] // fan_out))
    return counts


def siblings_of(counts, fan_out, level, first, count):
    """The siblings of the run `first .. first + count` of `level`: at each
    level below the root, the children of the run's parents (all of the
    level below the root for the root) less the run."""
    total = 0
    start, end = first, first + count
    for at in range(level, len(counts)):
        nodes = counts[at - 1]
        if at + 1 == len(counts):
            lo, hi = 0, nodes
        else:
            lo, hi = start // fan_out * fan_out, min(-(-end // fan_out) * fan_out, nodes)
        total += (hi - lo) - (end - start)
        if at + 1 == len(counts):
            start, end = 0, 1
        else:
            start, end = start // fan_out, -(-end // fan_out)
    return total


def lengths(rng, leaf, fan_out):
    out = {0, 1, leaf - 1, leaf, leaf + 1, 3 * leaf - 1}
    span = leaf * fan_out
    while span <= 20 * leaf:
        out |= {span - 1, span, span + 1, 2 * span + rng.randrange(leaf)}
        span *= fan_out
    return sorted(out)


def flip(data, i, bit=0x80):
    return data[:i] + bytes([data[i] ^ bit]) + data[i + 1 :]


@pytest.mark.parametrize("bits,ours,theirs", SIZES)
def test_every_range_verifies_and_changes_fail(rng, bits, ours, theirs):
    for _ in range(3):
        shape = (rng.randrange(1, 3), rng.randrange(1, 4), rng.choice([2, 3, 255]))
        kw = rand_kwargs(rng, bits, tree=False)
        kw["tree"] = shape
        # A short digest is a weak check (a 3-bit one passes a changed byte
        # once in 8 tries): at least 61 bits, a partial last byte still.
        if kw.get("digest_bits", bits) < 61:
            kw["digest_bits"] = 61
        leaf = bits // 8 << shape[0]
        fan_out = 1 << shape[1]
        for n in lengths(rng, leaf, fan_out):
            data = rand_bytes(rng, n)
            digest = theirs(data, **kw).digest()
            tree = skein_simd.ObjectTree(n, state_bits=bits, **kw)
            counts = node_counts(n, leaf, fan_out, shape[2])
            assert tree.root_level == len(counts)
            ranges = tree.split(rng.randrange(1, 6))
            values = [
                pickle.loads(pickle.dumps(tree.hash_range(r, data[r.start : r.end])))
                for r in ranges
            ]
            assert tree.root(values) == digest
            # A leaf's proof needs the values of the leaves (those of the
            # split may be of a level above).
            leaf_values = [tree.hash_range(tree.range(1, 0, counts[0]), data)]
            for r in ranges + [tree.range(1, rng.randrange(counts[0]), 1)]:
                what = (shape, n, r)
                proof = pickle.loads(pickle.dumps(tree.proof(r, leaf_values)))
                if r in ranges:
                    assert bytes(tree.proof(r, values)) == bytes(proof), what
                raw = bytes(proof)
                siblings = siblings_of(counts, fan_out, r.level, r.first, r.count)
                assert len(raw) == 18 + bits // 8 * siblings == tree.proof_len(r) == len(proof), what
                assert (proof.level, proof.first, proof.count, proof.siblings) == (
                    r.level, r.first, r.count, siblings
                )
                part = data[r.start : r.end]
                assert tree.verify(r, part, proof, digest) is None
                for i in {0, len(part) - 1, rng.randrange(len(part))} if part else ():
                    with pytest.raises(ValueError, match="do not agree"):
                        tree.verify(r, flip(part, i, 1 << rng.randrange(8)), proof, digest)
                for i in {0, 1, 2, 10, len(raw) - 1, rng.randrange(len(raw))}:
                    changed = flip(raw, i, 1 << rng.randrange(8))
                    with pytest.raises(ValueError):
                        tree.verify(r, part, skein_simd.SubtreeProof(changed), digest)
                for i in {0, len(digest) - 1}:
                    with pytest.raises(ValueError, match="do not agree"):
                        tree.verify(r, part, proof, flip(digest, i))
                with pytest.raises(ValueError, match="not a subtree proof"):
                    skein_simd.SubtreeProof(raw[:-1])
                with pytest.raises(ValueError, match="chaining values"):
                    tree.verify(r, part, skein_simd.SubtreeProof(raw + bytes(bits // 8)), digest)


def test_bytes_at_another_place_and_misuse():
    data = bytes(range(256)) * 20
    kw = {"key": b"k", "tree": (1, 1, 255), "digest_bits": 256}
    digest = skein_simd.skein512(data, **kw).digest()
    tree = skein_simd.ObjectTree(len(data), **kw)
    values = [tree.hash_range(r, data[r.start : r.end]) for r in tree.split(3)]
    a, b = tree.range(1, 0, 1), tree.range(1, 3, 1)
    proof_a, proof_b = tree.proof(a, values), tree.proof(b, values)
    tree.verify(b, data[b.start : b.end], proof_b, digest)
    with pytest.raises(ValueError, match="do not agree"):
        tree.verify(b, data[a.start : a.end][::-1], proof_b, digest)
    with pytest.raises(ValueError, match="another range"):
        tree.verify(b, data[b.start : b.end], proof_a, digest)
    with pytest.raises(ValueError, match="the range has 128 bytes, 127 given"):
        tree.verify(b, data[b.start : b.end - 1], proof_b, digest)
    with pytest.raises(ValueError, match="digest of 31 bytes"):
        tree.verify(b, data[b.start : b.end], proof_b, digest[1:])
    # A proof needs a whole level's values.
    with pytest.raises(ValueError, match="do not fit"):
        tree.proof(a, values[:1])
    # Another state size.
    small = skein_simd.ObjectTree(len(data), state_bits=256, **kw)
    with pytest.raises(ValueError, match="Skein-512, the tree of Skein-256"):
        small.verify(small.range(1, 0, 1), data[:64], proof_a, digest)
    with pytest.raises(ValueError, match="not a subtree proof"):
        skein_simd.SubtreeProof(b"\x08\x01")
    assert "SubtreeProof(level=1, first=3, count=1" in repr(proof_b)
    assert proof_b.state_bits == 512
