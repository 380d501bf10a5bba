"""skein.hash_many_from: many messages that continue one hash object, against
pyskein 1.0 hashing prefix + suffix (and against copies of the object)."""

import pytest
import skein as pyskein

import skein_simd
from helpers import SIZES, rand_bytes, rand_kwargs, rand_len


@pytest.mark.parametrize("bits,ours,ref", SIZES)
def test_matches_pyskein_on_prefix_plus_suffix(rng, bits, ours, ref):
    block = bits // 8
    for _ in range(12):
        kw = rand_kwargs(rng, bits, tree=rng.random() < 0.15)
        prefix = rand_bytes(
            rng, rng.choice([0, 1, block - 1, block, block + 1, 2 * block, rand_len(rng, block)])
        )
        n = rng.choice([1, 3, 4, 5, 8, 17, 40])
        suffixes = [rand_bytes(rng, rng.choice([0, 16, rand_len(rng, block)])) for _ in range(n)]
        if rng.random() < 0.3:
            suffixes = [s or b"x" for s in suffixes]  # none empty
        h = ours(prefix, **kw)
        before = h.digest()
        got = h.hash_many_from(suffixes)
        assert got == [ref(prefix + s, **kw).digest() for s in suffixes], (kw, len(prefix))
        assert h.digest() == before, "the object is left as it is"
        assert h.hash_many_from(iter(suffixes)) == got


def test_headers_sharing_their_first_64_bytes(rng):
    header = rand_bytes(rng, 64)
    nonces = [i.to_bytes(16, "little") for i in range(300)]
    h = skein_simd.skein512(header, 256)
    want = [pyskein.skein512(header + n, 256).digest() for n in nonces]
    assert h.hash_many_from(nonces) == want
    assert h.hash_many_from([bytearray(n) for n in nonces[:5]] + [memoryview(b"")]) == want[:5] + [
        pyskein.skein512(header, 256).digest()
    ]


def test_no_messages_and_errors():
    h = skein_simd.skein256(b"abc")
    assert h.hash_many_from([]) == []
    with pytest.raises(TypeError):
        h.hash_many_from([b"a", "not bytes"])
    with pytest.raises(TypeError):
        h.hash_many_from(5)
    h.update(b"\xff", 3)
    with pytest.raises(ValueError):
        h.hash_many_from([b"x"])
