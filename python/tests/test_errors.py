"""Bad arguments raise the same exception types as in pyskein 1.0."""

import array
import mmap
import pickle

import pytest
import skein as pyskein

import skein_simd
from helpers import rand_bytes
from subprocess_helpers import run_snippet


class Index:
    def __index__(self):
        return 8


def call_both(make_call):
    """The exception types (or None) of one call on each module."""
    out = []
    for mod in (skein_simd, pyskein):
        try:
            make_call(mod)
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            out.append(type(e))
        else:
            out.append(None)
    return out


CONSTRUCTOR_CASES = {
    "three positional": lambda m: m.skein512(b"", 8, b""),
    "str init": lambda m: m.skein512("abc"),
    "None init": lambda m: m.skein512(None),
    "int init": lambda m: m.skein512(5),
    "digest_bits 0": lambda m: m.skein512(digest_bits=0),
    "digest_bits -1": lambda m: m.skein512(digest_bits=-1),
    "digest_bits 2**64": lambda m: m.skein512(digest_bits=2**64),
    "digest_bits float": lambda m: m.skein512(digest_bits=8.0),
    "digest_bits None": lambda m: m.skein512(digest_bits=None),
    "digest_bits str": lambda m: m.skein512(digest_bits="8"),
    "digest_bits __index__": lambda m: m.skein512(digest_bits=Index()),
    "digest_bits bool": lambda m: m.skein512(digest_bits=True).digest(),
    "str key": lambda m: m.skein256(key="k"),
    "None key": lambda m: m.skein256(key=None),
    "int pers": lambda m: m.skein256(pers=3),
    "str public_key": lambda m: m.skein1024(public_key="x"),
    "list key_id": lambda m: m.skein1024(key_id=[1, 2]),
    "str nonce": lambda m: m.skein512(nonce="n"),
    "unknown keyword": lambda m: m.skein512(foo=1),
    "init twice": lambda m: m.skein512(b"x", init=b"y"),
    "digest_bits twice": lambda m: m.skein512(b"x", 8, digest_bits=8),
    "key positional order": lambda m: m.skein512(b"x", b"key"),
    "tree int": lambda m: m.skein512(tree=5),
    "tree pair": lambda m: m.skein512(tree=(1, 1)),
    "tree quadruple": lambda m: m.skein512(tree=(1, 1, 2, 3)),
    "tree str": lambda m: m.skein512(tree="abc"),
    "tree float item": lambda m: m.skein512(tree=(1.0, 1, 2)),
    "tree str item": lambda m: m.skein512(tree=(1, "1", 2)),
    "tree None item": lambda m: m.skein512(tree=(1, 1, None)),
    "tree leaf 0": lambda m: m.skein512(tree=(0, 1, 2)),
    "tree leaf 57": lambda m: m.skein512(tree=(57, 1, 2)),
    "tree fan 0": lambda m: m.skein512(tree=(1, 0, 2)),
    "tree fan 57": lambda m: m.skein512(tree=(1, 57, 2)),
    "tree height 1": lambda m: m.skein512(tree=(1, 1, 1)),
    "tree height 256": lambda m: m.skein512(tree=(1, 1, 256)),
    "tree huge": lambda m: m.skein512(tree=(1, 1, 2**70)),
    "tree negative": lambda m: m.skein512(tree=(-1, 1, 2)),
    "tree range before type": lambda m: m.skein512(tree=(0, "a", 2)),
    "tree type before range": lambda m: m.skein512(tree=(1, "a", 0)),
    "bytes error before digest_bits": lambda m: m.skein512("s", digest_bits=0),
    "digest_bits before tree": lambda m: m.skein512(digest_bits=0, tree=5),
    "key before tree": lambda m: m.skein512(key="k", tree=(0, 1, 2)),
    # accepted by both
    "tree list": lambda m: m.skein512(tree=[1, 1, 2]).digest(),
    "tree bytes": lambda m: m.skein512(tree=b"\x01\x01\x02").digest(),
    "tree bools": lambda m: m.skein512(tree=(True, True, 2)).digest(),
    "tree __index__": lambda m: m.skein512(tree=(Index(), 1, 2)).digest(),
    "tree generator": lambda m: m.skein512(tree=(x for x in (1, 2, 3))).digest(),
}


def update_after(prefix_bits):
    def make(m):
        h = m.skein512()
        if prefix_bits:
            h.update(b"\xff", prefix_bits)
        return h

    return make


UPDATE_CASES = {
    "str message": lambda m: m.skein512().update("abc"),
    "None message": lambda m: m.skein512().update(None),
    "int message": lambda m: m.skein512().update(3),
    "no message": lambda m: m.skein512().update(),
    "float bits": lambda m: m.skein512().update(b"abc", 1.0),
    "str bits": lambda m: m.skein512().update(b"abc", "1"),
    "bits -1 (pyskein: all)": lambda m: m.skein512().update(b"abc", -1),
    "negative bits": lambda m: m.skein512().update(b"abc", -2),
    "too many bits": lambda m: m.skein512().update(b"abc", 25),
    "huge bits": lambda m: m.skein512().update(b"abc", 2**70),
    "keyword bits": lambda m: m.skein512().update(message=b"abc", bits=24),
    "unknown keyword": lambda m: m.skein512().update(b"abc", foo=1),
    "three arguments": lambda m: m.skein512().update(b"abc", 1, 2),
    "bytes after a partial byte": lambda m: update_after(3)(m).update(b"abc"),
    "too many bits after a partial byte": lambda m: update_after(3)(m).update(b"abc", 6),
    "whole byte after a partial byte": lambda m: update_after(3)(m).update(b"abc", 8),
    "exact fill after a partial byte": lambda m: update_after(3)(m).update(b"abc", 5),
    "zero bits after a partial byte": lambda m: update_after(3)(m).update(b"abc", 0),
    "empty after a partial byte": lambda m: update_after(3)(m).update(b""),
    "empty with bits": lambda m: m.skein512().update(b"", 9),
    "bits 0": lambda m: m.skein512().update(b"abc", 0),
    "__index__ bits": lambda m: m.skein512().update(b"abc", Index()),
    "negative bits on empty": lambda m: m.skein512().update(b"", -5),
}


DIGEST_CASES = {
    "one argument": lambda m: m.skein512().digest(1),
    "three arguments": lambda m: m.skein512().digest(1, 2, 3),
    "keywords": lambda m: m.skein512().digest(start=1, stop=2),
    "stop past the end": lambda m: m.skein512().digest(1, 65),
    "start after stop": lambda m: m.skein512().digest(3, 2),
    "negative start": lambda m: m.skein512().digest(-1, 2),
    "float start": lambda m: m.skein512().digest(1.0, 2),
    "str stop": lambda m: m.skein512().digest(1, "2"),
    "empty slice": lambda m: m.skein512().digest(5, 5),
    "whole": lambda m: m.skein512().digest(0, 64),
    "hexdigest argument": lambda m: m.skein512().hexdigest(1),
}


THREEFISH_CASES = {
    "one argument": lambda m: m.threefish(b"a" * 32),
    "three arguments": lambda m: m.threefish(b"a" * 32, b"t" * 16, b""),
    "keywords": lambda m: m.threefish(key=b"a" * 32, tweak=b"t" * 16),
    "key 33 bytes": lambda m: m.threefish(b"a" * 33, b"t" * 16),
    "key 0 bytes": lambda m: m.threefish(b"", b"t" * 16),
    "key 256 bytes": lambda m: m.threefish(b"a" * 256, b"t" * 16),
    "tweak 15 bytes": lambda m: m.threefish(b"a" * 32, b"t" * 15),
    "tweak 17 bytes": lambda m: m.threefish(b"a" * 64, b"t" * 17),
    "str key": lambda m: m.threefish("a" * 32, b"t" * 16),
    "str tweak": lambda m: m.threefish(b"a" * 32, "t" * 16),
    "bad key before bad tweak": lambda m: m.threefish(b"a", b"t"),
    "block 31 bytes": lambda m: m.threefish(b"a" * 32, b"t" * 16).encrypt_block(b"x" * 31),
    "block 65 bytes": lambda m: m.threefish(b"a" * 64, b"t" * 16).decrypt_block(b"x" * 65),
    "str block": lambda m: m.threefish(b"a" * 32, b"t" * 16).encrypt_block("x" * 32),
    "no block": lambda m: m.threefish(b"a" * 32, b"t" * 16).encrypt_block(),
    "two blocks": lambda m: m.threefish(b"a" * 32, b"t" * 16).decrypt_block(b"x" * 32, b"x" * 32),
    "tweak 15 bytes set": lambda m: setattr(m.threefish(b"a" * 32, b"t" * 16), "tweak", b"1" * 15),
    "tweak str set": lambda m: setattr(m.threefish(b"a" * 32, b"t" * 16), "tweak", "1" * 16),
    "tweak None set": lambda m: setattr(m.threefish(b"a" * 32, b"t" * 16), "tweak", None),
    "tweak memoryview set": lambda m: setattr(m.threefish(b"a" * 32, b"t" * 16), "tweak", memoryview(b"1" * 16)),
    "tweak bytearray set": lambda m: setattr(m.threefish(b"a" * 32, b"t" * 16), "tweak", bytearray(16)),
    "block_size set": lambda m: setattr(m.threefish(b"a" * 32, b"t" * 16), "block_size", 3),
}


ATTRIBUTE_CASES = {
    "name set": lambda m: setattr(m.skein512(), "name", "x"),
    "digest_size set": lambda m: setattr(m.skein512(), "digest_size", 3),
    "hashed_bits set": lambda m: setattr(m.skein512(), "hashed_bits", 3),
    "new attribute": lambda m: setattr(m.skein512(), "foo", 3),
    "hash type called": lambda m: type(m.skein512())(),
}


BUFFER_CASES = {
    "non-contiguous memoryview": lambda m: m.skein512(memoryview(b"abcdef")[::2]),
    "non-contiguous update": lambda m: m.skein512().update(memoryview(b"abcdef")[::2]),
    "array init": lambda m: m.skein512(array.array("I", [1, 2, 3])).digest(),
    "mmap update": lambda m: m.skein512().update(mmap.mmap(-1, 100)),
    "2-d memoryview": lambda m: m.skein512(memoryview(bytes(12)).cast("B", (3, 4))).digest(),
    "str key buffer": lambda m: m.skein512(key=memoryview(b"abc")[::2]),
}


def run_table(table, name):
    ours, theirs = call_both(table[name])
    assert ours == theirs, f"{name}: skein_simd raised {ours}, pyskein {theirs}"


TABLES = {
    "constructor": CONSTRUCTOR_CASES,
    "update": UPDATE_CASES,
    "digest": DIGEST_CASES,
    "threefish": THREEFISH_CASES,
    "attribute": ATTRIBUTE_CASES,
    "buffer": BUFFER_CASES,
}


@pytest.mark.parametrize(
    "table, name",
    [
        pytest.param(table, name, id=f"{kind}: {name}")
        for kind, table in TABLES.items()
        for name in table
    ],
)
def test_errors_as_pyskein(table, name):
    run_table(table, name)


def test_error_tables_raise_where_expected():
    # The tables are not all "both accept": spot-check the expected types.
    assert call_both(CONSTRUCTOR_CASES["digest_bits 0"]) == [ValueError, ValueError]
    assert call_both(CONSTRUCTOR_CASES["tree pair"]) == [TypeError, TypeError]
    assert call_both(UPDATE_CASES["too many bits after a partial byte"]) == [ValueError, ValueError]
    assert call_both(THREEFISH_CASES["key 33 bytes"]) == [ValueError, ValueError]
    assert call_both(BUFFER_CASES["non-contiguous memoryview"]) == [BufferError, BufferError]


def test_messages_match_pyskein():
    # Same texts where pyskein's are informative.
    for call in [
        lambda m: m.skein512(digest_bits=0),
        lambda m: m.skein512(tree=(0, 1, 2)),
        lambda m: m.skein512(tree=(1.5, 1, 2)),
        lambda m: m.skein512(tree=5),
        lambda m: m.skein512(b"", 8, b""),
        lambda m: m.skein512().update(b"a", 9),
        lambda m: update_after(3)(m).update(b"a"),
        lambda m: m.skein512().digest(1, 100),
        lambda m: m.threefish(b"a", b"t" * 16),
        lambda m: m.threefish(b"a" * 32, b"t"),
        lambda m: m.threefish(b"a" * 32, b"t" * 16).encrypt_block(b"x"),
    ]:
        texts = []
        for mod in (skein_simd, pyskein):
            with pytest.raises(Exception) as info:
                call(mod)
            texts.append(str(info.value))
        assert texts[0] == texts[1]


def test_accepted_deviations():
    # Where skein_simd accepts what pyskein 1.0 rejects (documented in docs/python.md).
    # bits=None is pyskein's documented default, but its C parser rejects it.
    h = skein_simd.skein512()
    h.update(b"abc", None)
    assert h.digest() == pyskein.skein512(b"abc").digest()
    with pytest.raises(TypeError):
        pyskein.skein512().update(b"abc", None)
    # copy() of an odd-length hasher: pyskein's state round-trip refuses it.
    h = skein_simd.skein512(b"abc", digest_bits=7)
    assert h.copy().digest() == pyskein.skein512(b"abc", digest_bits=7).digest()
    with pytest.raises(RuntimeError):
        pyskein.skein512(b"abc", digest_bits=7).copy()


def test_tree_parameters_where_pyskein_breaks(rng):
    # pyskein computes a leaf's or node's size as `1 << n` in a C int
    # (docs/python.md). 30 works in full; at 31 digests are right but copy()
    # and pickles fail from the first byte on, and 32 the same while it does
    # not crash; skein_simd copies and pickles them all.
    msg = rand_bytes(rng, 700)  # several 2-block leaves of Skein-512
    for tree in [(30, 30, 255), (30, 1, 2), (1, 30, 3)]:
        theirs = pyskein.skein512(msg, tree=tree)
        assert theirs.copy().digest() == theirs.digest() == skein_simd.skein512(msg, tree=tree).digest()
    for tree in [(31, 31, 255), (31, 1, 2), (1, 31, 3), (32, 1, 2), (32, 1, 255), (1, 32, 2), (1, 32, 3)]:
        # Leaf 32: no further than one block; fan-out 32: one leaf, unless
        # the root takes every leaf (max_height 2).
        m = msg[:64] if tree[0] == 32 else msg[:128] if tree[1:] == (32, 3) else msg
        for part in [b"", m]:
            theirs, ours = pyskein.skein512(part, tree=tree), skein_simd.skein512(part, tree=tree)
            assert ours.digest() == theirs.digest(), tree
            with pytest.raises(RuntimeError, match="internal error"):
                theirs.copy()
            with pytest.raises(ValueError):
                pickle.loads(pickle.dumps(theirs))
            assert ours.copy().digest() == pickle.loads(pickle.dumps(ours)).digest() == theirs.digest()
    # Past that, 32 crashes it (in a subprocess here; SIGSEGV with gcc's
    # build, but any fatal signal is the crash).
    for tree, n in [((32, 1, 2), 65), ((1, 32, 3), 129)]:
        proc = run_snippet(f"import skein; skein.skein512(bytes({n}), tree={tree!r}).digest()", timeout=60)
        assert proc.returncode < 0, (tree, proc.returncode, proc.stderr)
    # 33 and 34 act as 1 and 2: right while a message fits in a leaf of 2 or
    # 4 blocks, not past it.
    for leaf in [33, 34]:
        fits = msg[: 64 << (leaf - 32)]
        for tree in [(leaf, 1, 2), (1, leaf, 3)]:
            span = fits if tree[0] == leaf else msg[: 128 << (leaf - 32)]
            assert pyskein.skein512(span, tree=tree).digest() == skein_simd.skein512(span, tree=tree).digest()
            assert pyskein.skein512(msg, tree=tree).digest() != skein_simd.skein512(msg, tree=tree).digest()


def outcome(call, mod):
    """What one call gives on a module: its result, or its exception's type and text."""
    try:
        return ("result", call(mod))
    except Exception as e:  # noqa: BLE001 - the type and text are what is compared
        return (type(e), str(e))


def test_digest_bounds_follow_pyskein(rng):
    # pyskein reads start and stop with PyArg_ParseTuple's "K": an int taken
    # modulo 2**64 (negative ones too), any other type refused with TypeError,
    # __index__ or not. Same results, same exception types and texts.
    bounds = [
        (2**64, 2**64 + 5),
        (-(2**64), 5),
        (0, 2**64),
        (0, 2**64 + 64),
        (2**200 + 1, 2**300 + 4),
        (-(2**64) + 3, -(2**64) + 9),
        (0, -(2**64) + 64),
        (-1, 5),
        (0, -1),
        (True, 5),
        (False, True),
        (Index(), 5),
        (0, Index()),
        (Index(), "x"),
        (1.0, 5),
        (0, 5.0),
        (None, 5),
        (0, None),
        ("1", 5),
        (b"\x01", 5),
    ]
    for _ in range(50):
        bounds.append(
            tuple(rng.randrange(-(2**130), 2**130) // 2**64 * 2**64 + rng.randrange(70) for _ in range(2))
        )
    for start, stop in bounds:
        mine, theirs = (
            outcome(lambda m: m.skein512(b"abc", 504).digest(start, stop), mod) for mod in (skein_simd, pyskein)
        )
        assert mine == theirs, (start, stop)


class HostileInt(int):
    """An int whose every arithmetic and conversion method raises: a
    `digest(start, stop)` bound is read by the int's own value."""

    def _refuse(self, *args):
        raise AssertionError("a method of the int subclass ran")

    __and__ = __rand__ = __mod__ = __rmod__ = __index__ = __int__ = __trunc__ = _refuse


class LyingInt(int):
    """An int whose methods give other numbers than its value."""

    def __and__(self, other):
        return 3

    __rand__ = __and__

    def __mod__(self, other):
        return 4

    __rmod__ = __mod__

    def __index__(self):
        return 5

    __int__ = __index__


def test_digest_bounds_of_int_subclasses_are_their_values(rng):
    # pyskein's "K" reads an int subclass by its value modulo 2**64
    # (PyLong_AsUnsignedLongLongMask): none of its methods runs. The same
    # results, or the same exception types and texts.
    values = [0, 1, 2, 7, 63, 2**64, 2**64 + 3, -(2**64) + 2, 2**200 + 5, -1]
    values += [rng.randrange(-(2**130), 2**130) // 2**64 * 2**64 + rng.randrange(64) for _ in range(10)]
    for kind in (HostileInt, LyingInt):
        for _ in range(60):
            start, stop = (kind(rng.choice(values)) for _ in range(2))
            mine, theirs = (
                outcome(lambda m: m.skein512(b"abc", 504).digest(start, stop), mod) for mod in (skein_simd, pyskein)
            )
            assert mine == theirs, (kind, repr(start), repr(stop))
        # Valid bounds whose methods would say otherwise.
        h = skein_simd.skein512(b"abc", 504)
        assert h.digest(kind(2**64 + 1), kind(-(2**64) + 40)) == pyskein.skein512(b"abc", 504).digest()[1:40]
