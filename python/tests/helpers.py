"""Random pyskein arguments, shared by the tests."""

import skein as pyskein  # pyskein 1.0, the reference

import skein_simd

SIZES = [
    (256, skein_simd.skein256, pyskein.skein256),
    (512, skein_simd.skein512, pyskein.skein512),
    (1024, skein_simd.skein1024, pyskein.skein1024),
]

BYTE_ARGS = ["key", "pers", "public_key", "key_id", "nonce"]


def rand_bytes(rng, n):
    return rng.getrandbits(8 * n).to_bytes(n, "little") if n else b""


def rand_len(rng, state_bytes):
    """A length near the interesting places: 0, block boundaries, a few blocks, long."""
    kind = rng.randrange(5)
    if kind == 0:
        return rng.choice([0, 1, 7, 8, 9])
    if kind == 1:
        return rng.randrange(1, 4) * state_bytes + rng.choice([-1, 0, 1])
    if kind == 2:
        return rng.randrange(0, 3 * state_bytes)
    if kind == 3:
        return rng.randrange(0, 2000)
    return rng.randrange(2000, 40000)


def rand_digest_bits(rng, state_bits):
    return rng.choice(
        [
            state_bits,
            rng.randrange(1, 17),  # odd lengths, partial last byte
            rng.randrange(1, 2 * state_bits + 100),
            8 * rng.randrange(1, 300),
            rng.randrange(2000, 5000),  # several output blocks
        ]
    )


def rand_tree(rng):
    """Tree parameters. pyskein 1.0 computes `1 << leaf` in a C int
    (docs/python.md): at 31 its digests are right but its copy() and pickles
    fail, 32 crashes it once a message passes a block or a leaf, and 33..56
    act as n - 32 (test_errors.py checks each). The comparisons use only
    pyskein's digests, so they go up to 31."""
    if rng.random() < 0.7:
        return (rng.randrange(1, 4), rng.randrange(1, 4), rng.randrange(2, 7))
    return (rng.randrange(1, 32), rng.randrange(1, 32), rng.randrange(2, 256))


def rand_kwargs(rng, state_bits, tree=None):
    """Keyword arguments: each byte argument present or not, maybe a tree."""
    kw = {}
    for name in BYTE_ARGS:
        if rng.random() < 0.35:
            kw[name] = rand_bytes(rng, rng.choice([0, 1, 16, 32, 64, 65, 129, rng.randrange(300)]))
    if rng.random() < 0.6:
        kw["digest_bits"] = rand_digest_bits(rng, state_bits)
    if tree if tree is not None else rng.random() < 0.3:
        kw["tree"] = rand_tree(rng)
    return kw


# pyskein 1.0 writes only the low 4 bytes of Skein's 8-byte output counter
# (WORDS_TO_BYTES(b, &i, 4) in output_hash), so its output block i is block
# i % 2**32 of the specification's; below this many blocks it is right.
PYSKEIN_COUNTER_BLOCKS = 2**32

_T1_FIRST, _T1_FINAL, _TYPE_OUT = 1 << 62, 1 << 63, 63 << 56


def _tweak(t0, t1):
    return t0.to_bytes(8, "little") + t1.to_bytes(8, "little")


def _xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def reference_output(theirs, start, stop):
    """Bytes start..stop of the output of `theirs`, a sequential pyskein hash
    object (whole bytes hashed), by the specification's output stage (8-byte
    counter), unmasked: from pyskein's saved state (chain, tweak, buffered
    block, from its pickle) with pyskein's Threefish. Independent of
    skein_simd, and right where pyskein's own counter is not."""
    (state,) = theirs.__reduce__()[1]
    size, buffered, chain, tweak = state[2], state[5], state[6], state[7]
    assert len(state) == 8 and state[4] == 0, "sequential, whole bytes"
    t0 = int.from_bytes(tweak[:8], "little") + len(buffered)
    t1 = int.from_bytes(tweak[8:], "little") | _T1_FINAL
    last = buffered + bytes(size - len(buffered))
    g = _xor(pyskein.threefish(chain, _tweak(t0, t1)).encrypt_block(last), last)
    out = pyskein.threefish(g, _tweak(8, _T1_FIRST | _T1_FINAL | _TYPE_OUT))
    blocks = []
    for i in range(start // size, (stop - 1) // size + 1):
        counter = i.to_bytes(8, "little") + bytes(size - 8)
        blocks.append(_xor(out.encrypt_block(counter), counter))
    skip = start - start // size * size
    return b"".join(blocks)[skip : skip + stop - start]


def masked(out, stop, digest_bits):
    """`out` (a slice ending at byte `stop`) with the unused low bits of the
    digest's last byte cleared, as pyskein does (and skein_simd)."""
    unused = (8 - digest_bits % 8) % 8
    if out and unused and stop == (digest_bits + 7) // 8:
        out = out[:-1] + bytes([out[-1] & (0xFF << unused) & 0xFF])
    return out
