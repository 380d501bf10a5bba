"""Subtree hashing (`ObjectTree`): an object split into ranges, each hashed
on its own (from bytes or from the file by path), the values pickled as
they would travel between processes, merged by `root`: the digest of
pyskein 1.0 (the reference) over the whole object with the same tree."""

import pickle

import pytest

import skein_simd
from helpers import SIZES, rand_bytes, rand_kwargs


def lengths(rng, leaf, fan_out):
    """Lengths at and around leaf and node boundaries, and random ones."""
    out = {0, 1, leaf - 1, leaf, leaf + 1, 3 * leaf - 1}
    span = leaf * fan_out
    while span <= 30 * leaf:
        out |= {span - 1, span, span + 1, 2 * span + rng.randrange(leaf)}
        span *= fan_out
    out.add(rng.randrange(40 * leaf))
    return sorted(out)


def split_root(tree, data, parts):
    values = []
    for r in tree.split(parts):
        r = pickle.loads(pickle.dumps(r))
        v = tree.hash_range(r, data[r.start : r.end])
        values.append(pickle.loads(pickle.dumps(v)))
    return tree.root(values)


@pytest.mark.parametrize("bits,ours,theirs", SIZES)
def test_split_and_merged_equals_pyskein(rng, bits, ours, theirs):
    for _ in range(6):
        shape = (rng.randrange(1, 3), rng.randrange(1, 4), rng.choice([2, 3, 255]))
        kw = rand_kwargs(rng, bits, tree=False)
        kw["tree"] = shape
        leaf = bits // 8 << shape[0]
        for n in lengths(rng, leaf, 1 << shape[1]):
            data = rand_bytes(rng, n)
            want = theirs(data, **kw).digest()
            tree = skein_simd.ObjectTree(n, state_bits=bits, **kw)
            for parts in (1, 2, 3, 5):
                assert split_root(tree, data, parts) == want, (shape, n, parts)


def test_every_level_merged_by_parents(rng):
    kw = {"key": b"k", "tree": (1, 1, 255), "digest_bits": 300}
    data = rand_bytes(rng, 5000)
    want = skein_simd.skein512(data, **kw).digest()
    tree = skein_simd.ObjectTree(len(data), **kw)
    for level in range(1, tree.root_level + 1):
        nodes = tree.nodes_at(level)
        runs = [
            tree.hash_range(r, data[r.start : r.end])
            for r in (tree.range(level, i, 1) for i in range(nodes))
        ]
        while runs[0].level + 1 < tree.root_level:
            # Pairs of siblings (fan-out 2), the last one alone.
            joined = b"".join(bytes(v)[10:] for v in runs)
            head = bytes(runs[0])[:10]
            runs = [tree.parents(skein_simd.Subtrees(head + joined))]
        assert tree.root(runs) == want, level


def test_file_ranges_read_by_path(rng, tmp_path):
    data = rand_bytes(rng, 300_000)
    path = tmp_path / "object"
    path.write_bytes(data)
    kw = {"tree": (2, 2, 255), "pers": b"files"}
    tree = skein_simd.ObjectTree(len(data), state_bits=256, **kw)
    values = [tree.hash_file_range(str(path), r) for r in tree.split(4)]
    assert [v.state_bits for v in values] == [256] * 4
    assert tree.root(values) == skein_simd.hash_file(str(path), state_bits=256, **kw)
    # A file shorter than its tree says.
    path.write_bytes(data[:-1])
    with pytest.raises(OSError, match="file ends before byte"):
        tree.hash_file_range(path, tree.split(4)[-1])


def test_misuse_is_an_error():
    with pytest.raises(TypeError, match="tree="):
        skein_simd.ObjectTree(100)
    tree = skein_simd.ObjectTree(10_000, tree=(1, 1, 255))
    other = skein_simd.ObjectTree(10_001, tree=(1, 1, 255))
    last = other.split(1000)[-1]
    with pytest.raises(ValueError, match="do not fit"):
        tree.hash_range(last, bytes(last.end - last.start))
    r = tree.range(1, 0, 2)
    with pytest.raises(ValueError, match="the range has 256 bytes, 255 given"):
        tree.hash_range(r, bytes(255))
    with pytest.raises(ValueError, match="do not fit"):
        tree.range(1, 100, 1)
    part = tree.hash_range(r, bytes(256))
    with pytest.raises(ValueError, match="do not fit"):
        tree.root([part])
    small = skein_simd.ObjectTree(10_000, state_bits=256, tree=(1, 1, 255))
    with pytest.raises(ValueError, match="256-bit state, not 512"):
        skein_simd.ObjectTree(10_000, tree=(1, 1, 255)).root(
            [small.hash_range(small.range(1, 0, 1), bytes(64))]
        )
    with pytest.raises(ValueError, match="not the bytes of subtree values"):
        skein_simd.Subtrees(b"\x08\x01" + bytes(8))
    with pytest.raises(TypeError):
        tree.root([b"not values"])


def test_pickles_and_reprs():
    tree = skein_simd.ObjectTree(1000, tree=(1, 1, 3))
    r = tree.split(2)[1]
    assert pickle.loads(pickle.dumps(r)) == r
    assert hash(pickle.loads(pickle.dumps(r))) == hash(r)
    v = tree.hash_range(r, bytes(r.end - r.start))
    back = pickle.loads(pickle.dumps(v))
    assert bytes(back) == bytes(v) and (back.level, back.first, back.count) == (v.level, v.first, v.count)
    assert "SubtreeRange(level=" in repr(r) and "Subtrees(level=" in repr(v)
    assert "key" not in repr(skein_simd.ObjectTree(10, key=b"secret", tree=(1, 1, 2)))


@pytest.mark.parametrize("shape", [(10, 1, 255), (14, 2, 255)])
def test_file_ranges_on_threads(rng, tmp_path, shape):
    # Pieces of 1 MiB, and of 16 leaves of 1 MiB (leaf 2^14 blocks), in
    # several ranges: one thread, a pool of three, the library's pool.
    import skein as pyskein

    data = rand_bytes(rng, 21 * (1 << 20) + 12345)
    path = tmp_path / "object"
    path.write_bytes(data)
    kw = {"tree": shape, "key": b"threads"}
    want = pyskein.skein512(data, **kw).digest()
    tree = skein_simd.ObjectTree(len(data), **kw)
    for threads in (1, 3, None):
        for mmap in (False, True):
            ranges = tree.split(3)
            values = [tree.hash_file_range(path, r, threads=threads, mmap=mmap) for r in ranges]
            assert tree.root(values) == want, (threads, mmap)
    # A file shorter than its tree says, mapped.
    path.write_bytes(data[:-1])
    with pytest.raises(OSError, match="file ends before byte"):
        tree.hash_file_range(path, tree.split(3)[-1], mmap=True)


def test_file_range_errors(tmp_path):
    tree = skein_simd.ObjectTree(10_000, tree=(1, 1, 255))
    r = tree.split(2)[0]
    missing = tmp_path / "missing"
    with pytest.raises(FileNotFoundError) as e:
        tree.hash_file_range(missing, r)
    assert e.value.filename == missing and e.value.errno == 2
    with pytest.raises(IsADirectoryError, match="Is a directory"):
        tree.hash_file_range(tmp_path, r)
    with pytest.raises(OSError, match="needs a regular file or a block device"):
        tree.hash_file_range("/dev/zero", r)
    (tmp_path / "object").write_bytes(bytes(10_000))
    for threads in (0, 257):
        with pytest.raises(ValueError, match="threads must be 1 to 256"):
            tree.hash_file_range(tmp_path / "object", r, threads=threads)
