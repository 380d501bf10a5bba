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


# The most message bytes a hash object holds: the highest position the
# library's import_state accepts (docs/design.md, "Saved states").
MAX_MESSAGE_BYTES = 2**96 - 2**64


def test_from_state_refuses_a_byte_count_the_saved_hasher_disagrees_with():
    # 100 bytes are in the saved hasher; the count field must say so. A count
    # of 2**64 - 1 (which wrapped to 0 on the next update) and a count of 0
    # (hashed_bits 0) are both refused, as is any other count.
    h = skein_simd.skein512(b"x" * 100)
    tag, version, saved, count, _, _ = h.__reduce__()[1][0]
    assert count == 100
    for wrong in [2**64 - 1, 0, 99, 101, 100 + 2**64, MAX_MESSAGE_BYTES]:
        with pytest.raises(ValueError, match="message byte count"):
            skein_simd._from_state((tag, version, saved, wrong, 0, 0))
    assert skein_simd._from_state((tag, version, saved, 100, 0, 0)).hashed_bits == 800


@pytest.mark.parametrize("bits,ours,theirs", SIZES, ids=["256", "512", "1024"])
def test_pickled_byte_count_is_checked_at_every_cut(rng, bits, ours, theirs):
    # Honest states, saved at cuts around blocks and leaves, keyed or not and
    # with a partial byte or not, load with the right hashed_bits (the
    # message length: pyskein's own counter is wrong, docs/python.md) and go
    # on to pyskein's digest; the same state with any other count is refused.
    block = bits // 8
    for tree in [None, (1, 1, 2), (1, 2, 255), (2, 1, 3), (20, 1, 2)]:
        leaf = block << tree[0] if tree else block
        kw = {"tree": tree, "key": rand_bytes(rng, rng.choice([0, 5]))}
        msg = rand_bytes(rng, min(5 * leaf, 40 * block) + rng.randrange(2 * block))
        want = theirs(msg, **kw).digest()
        cuts = {0, 1, block - 1, block, block + 1, leaf - 1, leaf, leaf + 1, 2 * leaf, 4 * leaf + 1, len(msg)}
        cuts |= {rng.randrange(len(msg) + 1) for _ in range(5)}
        for cut in sorted(c for c in cuts if 0 <= c <= len(msg)):
            a = ours(msg[:cut], **kw)
            partial = cut < len(msg) and rng.random() < 0.3
            if partial:
                a.update(msg[cut : cut + 1], 3)
            tag, version, saved, count, pending_bits, pending_value = a.__reduce__()[1][0]
            assert count == cut
            c = skein_simd._from_state((tag, version, saved, count, pending_bits, pending_value))
            assert c.hashed_bits == 8 * cut + (3 if partial else 0)
            if partial:
                c.update(bytes([msg[cut] << 3 & 0xFF]), 5)  # the byte's other 5 bits
                c.update(msg[cut + 1 :])
            else:
                c.update(msg[cut:])
            assert c.digest() == want, (tree, cut)
            assert c.hashed_bits == 8 * len(msg)
            for wrong in [cut - 1, cut + 1, cut + leaf, cut + block, cut + 2**64]:
                if wrong >= 0:
                    with pytest.raises(ValueError, match="message byte count"):
                        skein_simd._from_state((tag, version, saved, wrong, pending_bits, pending_value))


def forged_skein512(position, buffered):
    """A Skein-512 state whose message UBI has compressed `position` bytes
    (a multiple of 64) and buffers `buffered`: ours (saved bytes in the
    library's format version 1, src/saved_state/versioned.rs) and pyskein's (its pickle
    tuple: protocol 2, digest bits, state bytes, hashed bytes, missing bits,
    buffer, chain, tweak) with the same chain, buffer and position (pyskein
    takes the tweak as given), and the chain."""
    tag, version, saved, _, _, _ = skein_simd.skein512(b"\x5a" * 100).__reduce__()[1][0]
    at = 8 + 3 + 8 + 64  # magic, version, words, flags, output bits, start chain
    chain = saved[at + 16 : at + 16 + 64]
    ours_saved = (
        saved[:at]
        + position.to_bytes(16, "little")
        + chain
        + bytes([len(buffered)])
        + buffered
        + bytes(64 - len(buffered))
    )
    ours = (tag, version, ours_saved, position + len(buffered), 0, 0)
    theirs = (2, 512, 64, 0, 0, buffered, chain, tweak(position, 48 << 56))  # message type, not first
    return ours, _skein._from_state(theirs), chain


def tweak(position, flags):
    """A tweak of a 96-bit position and the flags of its high word."""
    return (position % 2**64).to_bytes(8, "little") + ((position >> 64) | flags).to_bytes(8, "little")


def skein512_final(chain, last, end):
    """The Skein-512 digest of a message whose last block `last` (whole
    bytes) ends at byte `end`, from the chain before it: the specification's
    final message block and output block over pyskein's Threefish, with the
    96-bit position carried in full (pyskein's own update and digest add
    to the low 64 bits only, so they are right only while a position does
    not cross a multiple of 2**64)."""
    block = last + bytes(64 - len(last))
    final = 48 << 56 | 1 << 63
    g = bytes(x ^ y for x, y in zip(pyskein.threefish(chain, tweak(end, final)).encrypt_block(block), block))
    counter = bytes(64)
    out = pyskein.threefish(g, tweak(8, 63 << 56 | 1 << 62 | 1 << 63)).encrypt_block(counter)
    return bytes(x ^ y for x, y in zip(out, counter))


def test_update_past_the_largest_message_raises_instead_of_wrapping():
    # 28 bytes below the limit: they may come, then not one more byte or bit.
    ours, theirs, chain = forged_skein512(MAX_MESSAGE_BYTES - 64, b"\xa5" * 36)
    h = skein_simd._from_state(ours)
    assert h.hashed_bits == 8 * (MAX_MESSAGE_BYTES - 28)
    assert h.digest() == theirs.digest() == skein512_final(chain, b"\xa5" * 36, MAX_MESSAGE_BYTES - 28)
    h.update(b"t" * 28)
    assert h.hashed_bits == 8 * MAX_MESSAGE_BYTES
    want = skein512_final(chain, b"\xa5" * 36 + b"t" * 28, MAX_MESSAGE_BYTES)
    assert h.digest() == want
    for call in [lambda: h.update(b"u"), lambda: h.update(b"\x80", 1), lambda: h.update(bytes(1 << 21))]:
        with pytest.raises(OverflowError):
            call()
        assert h.hashed_bits == 8 * MAX_MESSAGE_BYTES
        assert h.digest() == want
    # The state at the limit loads again.
    assert pickle.loads(pickle.dumps(h)).digest() == want
    # A partial byte takes the last place; bits that complete it may follow.
    ours, _, chain = forged_skein512(MAX_MESSAGE_BYTES - 64, b"\x3c" * 63)
    h = skein_simd._from_state(ours)
    h.update(b"\xff", 3)
    assert h.hashed_bits == 8 * (MAX_MESSAGE_BYTES - 1) + 3
    h.update(b"\xff", 5)
    assert h.hashed_bits == 8 * MAX_MESSAGE_BYTES
    assert h.digest() == skein512_final(chain, b"\x3c" * 63 + b"\xff", MAX_MESSAGE_BYTES)
    with pytest.raises(OverflowError):
        h.update(b"\x80", 1)
    # A state already past the limit is refused, though the library accepts
    # its position: the next update could not be saved again.
    ours, _, _ = forged_skein512(MAX_MESSAGE_BYTES, b"\xa5" * 36)
    with pytest.raises(ValueError, match="longer than"):
        skein_simd._from_state(ours)


def test_pyskein_pickles_are_not_ours():
    # pyskein's pickle names _skein._from_state with its own C struct dump;
    # with skein_simd imported as _skein that is a clear ValueError.
    _, (theirs,) = pyskein.skein512(b"abc").__reduce__()
    with pytest.raises(ValueError):
        skein_simd._from_state(theirs)
