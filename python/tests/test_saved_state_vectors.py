"""The committed saved states of tests/data/saved_states.txt (made and checked by
the Rust suite, tests/suite/saved_state_vectors.rs; the JavaScript package checks
them too): a hash object's pickle holds exactly the line's saved bytes after its
first `cut` message bytes, and _from_state resumes from them to the whole
message's digest, which pyskein 1.0 computes here as well. So states move
between the Rust, Python and JavaScript APIs."""

import pathlib

import skein as pyskein

import skein_simd

REPO = pathlib.Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "data" / "saved_states.txt"
CONSTRUCTORS = {256: skein_simd.skein256, 512: skein_simd.skein512, 1024: skein_simd.skein1024}
PYSKEIN = {256: pyskein.skein256, 512: pyskein.skein512, 1024: pyskein.skein1024}


def lines():
    out = []
    for line in VECTORS.read_text().splitlines():
        if line.startswith("#"):
            continue
        state, bits, key, tree, length, cut, saved, digest = line.split(" ")
        kw = {}
        if key != "-":
            kw["key"] = bytes.fromhex(key)
        if tree != "-":
            kw["tree"] = tuple(int(x) for x in tree.split(","))
        msg = bytes((7 * i + 3) % 256 for i in range(int(length)))
        out.append((int(state), int(bits), kw, msg, int(cut), bytes.fromhex(saved), bytes.fromhex(digest)))
    return out


def test_saved_states_match_and_resume():
    cases = lines()
    assert len(cases) == 12
    for state, bits, kw, msg, cut, saved, digest in cases:
        what = f"Skein-{state}-{bits} {kw} cut {cut}"
        assert PYSKEIN[state](msg, digest_bits=bits, **kw).digest() == digest, what
        h = CONSTRUCTORS[state](msg[:cut], digest_bits=bits, **kw)
        _, (pickled,) = h.__reduce__()
        assert pickled[:3] == ("skein_simd", 1, saved), what
        resumed = skein_simd._from_state(("skein_simd", 1, saved, cut, 0, 0))
        assert resumed.digest_bits == bits, what
        resumed.update(msg[cut:])
        assert resumed.digest() == digest, what
