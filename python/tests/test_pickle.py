"""Pickling, copy.copy and copy.deepcopy of hash objects (sequential and
tree, mid-stream, with a pending partial byte), checked against pyskein 1.0's
digests of the whole message; and _from_state's errors (pyskein's types)."""

import copy
import pickle

import _skein  # pyskein 1.0's extension module
import pytest
import skein as pyskein

import skein_simd
from helpers import SIZES, rand_bytes, rand_kwargs, rand_len, reference_output


def clones(h):
    """Every way to duplicate a hash object."""
    out = [copy.copy(h), copy.deepcopy(h), h.copy()]
    out += [pickle.loads(pickle.dumps(h, protocol=p)) for p in range(pickle.HIGHEST_PROTOCOL + 1)]
    return out


def update(h, msg, bits):
    # pyskein refuses bits=None (its documented default); leave it out then.
    h.update(msg) if bits is None else h.update(msg, bits)


def split_bits(rng, msg):
    """A bit count that leaves a partial byte pending (or not)."""
    if not msg or rng.random() < 0.5:
        return None
    return 8 * rng.randrange(len(msg)) + rng.randrange(1, 8)


@pytest.mark.parametrize("bits,ours,theirs", SIZES, ids=["256", "512", "1024"])
def test_pickle_mid_stream(rng, bits, ours, theirs):
    for i in range(40):
        kw = rand_kwargs(rng, bits, tree=(i % 3 == 0))
        first = rand_bytes(rng, rand_len(rng, bits // 8))
        nbits = split_bits(rng, first)
        a, b = ours(**kw), theirs(**kw)
        update(a, first, nbits)
        update(b, first, nbits)
        # After a partial byte only the bits that complete it may follow.
        if nbits is not None and nbits % 8:
            fill = 8 - nbits % 8
            rest, rest_bits = rand_bytes(rng, 1), rng.randrange(1, fill + 1)
        else:
            rest = rand_bytes(rng, rand_len(rng, bits // 8))
            rest_bits = None
        for c in clones(a):
            assert c.digest() == b.digest(), kw
            assert c.hashed_bits == a.hashed_bits
            assert (c.name, c.digest_bits, c.digest_size, c.block_size) == (
                b.name,
                b.digest_bits,
                b.digest_size,
                b.block_size,
            )
            assert repr(c).startswith(f"<Skein-{bits} hash object at ")
        update(b, rest, rest_bits)
        for c in clones(a):
            update(c, rest, rest_bits)
            assert c.digest() == b.digest(), kw
        update(a, rest, rest_bits)
        assert a.digest() == b.digest()


@pytest.mark.parametrize("bits,ours,theirs", SIZES, ids=["256", "512", "1024"])
def test_pickle_tree_with_open_levels(rng, bits, ours, theirs):
    # Many leaves hashed, levels open, a leaf half full: the state carries it all.
    block = bits // 8
    for leaf, fan, height in [(1, 1, 2), (1, 1, 255), (1, 2, 3), (2, 1, 5), (3, 3, 255)]:
        tree = (leaf, fan, height)
        key = rand_bytes(rng, rng.choice([0, 32]))
        msg = rand_bytes(rng, rng.randrange(50, 300) * block + rng.randrange(block))
        cut = rng.randrange(len(msg) + 1)
        a = ours(msg[:cut], tree=tree, key=key)
        c = pickle.loads(pickle.dumps(a))
        assert c.digest() == theirs(msg[:cut], tree=tree, key=key).digest()
        c.update(msg[cut:])
        assert c.digest() == theirs(msg, tree=tree, key=key).digest(), (tree, len(msg), cut)
    # The shape of the measured target (leaves of 2**14 blocks), cut in the
    # third leaf and again after it.
    msg = rand_bytes(rng, (2 << 14) * block + rng.randrange(1 << 14) * block + 77)
    a = ours(tree=(14, 1, 255))
    pieces = [msg[: len(msg) // 3], msg[len(msg) // 3 : -1000], msg[-1000:]]
    for piece in pieces:
        a.update(piece)
        a = pickle.loads(pickle.dumps(a))
    assert a.digest() == theirs(msg, tree=(14, 1, 255)).digest()


def test_pickle_long_outputs_and_slices():
    h = skein_simd.skein512(b"abc", digest_bits=2**64 - 1)
    c = pickle.loads(pickle.dumps(h))
    ref = pyskein.skein512(b"abc", digest_bits=2**64 - 1)
    at = 2**60  # beyond pyskein's 2**32-block counter (helpers)
    assert c.digest(at, at + 100) == reference_output(ref, at, at + 100) == h.digest(at, at + 100)
    at = 2**30 * 64 + 5
    assert c.digest(at, at + 100) == ref.digest(at, at + 100)
    assert c.digest_bits == 2**64 - 1


def test_pickle_format_is_a_tuple():
    h = skein_simd.skein256(b"x" * 100, key=b"secret")
    func, (state,) = h.__reduce__()
    assert func is skein_simd._from_state
    assert isinstance(state, tuple) and state[:2] == ("skein_simd", 1)
    assert skein_simd._from_state(state).digest() == h.digest()


def outcome_type(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001
        return type(e)
    return None


def test_from_state_errors_match_pyskein():
    for arg in [1, None, "state", b"state", [1], {1: 2}]:
        assert outcome_type(lambda: skein_simd._from_state(arg)) is TypeError
        assert outcome_type(lambda: _skein._from_state(arg)) is TypeError
    for arg in [(), (1,), ("skein_simd",), (1, 2, 3, 4, 5, 6), tuple(range(15))]:
        assert outcome_type(lambda: skein_simd._from_state(arg)) is ValueError
        assert outcome_type(lambda: _skein._from_state(arg)) is ValueError
    with pytest.raises(TypeError):
        skein_simd._from_state()
    with pytest.raises(TypeError):
        skein_simd._from_state((1,), 2)


def test_from_state_rejects_malformed_states(rng):
    h = skein_simd.skein512(b"y" * 1000, tree=(1, 1, 4))
    h.update(b"\xff", 3)
    _, (good,) = h.__reduce__()
    tag, version, saved, count, pending_bits, pending_value = good
    assert skein_simd._from_state(good).digest() == h.digest()
    bad = [
        ("other", version, saved, count, pending_bits, pending_value),
        (b"skein_simd", version, saved, count, pending_bits, pending_value),
        (tag, 2, saved, count, pending_bits, pending_value),
        (tag, version, bytearray(saved), count, pending_bits, pending_value),
        (tag, version, saved[:-1], count, pending_bits, pending_value),
        (tag, version, saved + b"\0", count, pending_bits, pending_value),
        (tag, version, b"", count, pending_bits, pending_value),
        (tag, version, b"NOTSTATE" + saved[8:], count, pending_bits, pending_value),
        # The library's bit-pad flag: partial bytes stay in the Python layer.
        (tag, version, saved[:10] + bytes([saved[10] | 1]) + saved[11:], count, pending_bits, pending_value),
        (tag, version, saved[:8] + b"\x02" + saved[9:], count, pending_bits, pending_value),
        (tag, version, saved, -1, pending_bits, pending_value),
        (tag, version, saved, 2**64, pending_bits, pending_value),
        (tag, version, saved, 1.0, pending_bits, pending_value),
        (tag, version, saved, count, 8, pending_value),
        (tag, version, saved, count, -1, pending_value),
        (tag, version, saved, count, 0, 0x80),
        (tag, version, saved, count, 3, pending_value | 1),
        (tag, version, saved, count, 3, 256),
    ]
    for state in bad:
        with pytest.raises(ValueError):
            skein_simd._from_state(state)
    # Random corruptions of the saved bytes: a ValueError or a valid state,
    # never a crash.
    for _ in range(500):
        mutated = bytearray(saved)
        for _ in range(rng.randrange(1, 4)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        try:
            skein_simd._from_state((tag, version, bytes(mutated), count, pending_bits, pending_value)).digest(0, 1)
        except ValueError:
            pass


def test_pyskein_pickles_are_not_ours():
    # pyskein's pickle names _skein._from_state with its own C struct dump;
    # with skein_simd imported as _skein that is a clear ValueError.
    _, (theirs,) = pyskein.skein512(b"abc").__reduce__()
    with pytest.raises(ValueError):
        skein_simd._from_state(theirs)
