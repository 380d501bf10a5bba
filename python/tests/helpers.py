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
    """Tree parameters. pyskein 1.0 computes `1 << leaf` in a C int, so a leaf or
    fan-out of 32 crashes it and larger ones act as n % 32; the comparisons
    stay below 32."""
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
