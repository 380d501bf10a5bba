"""Write pyskein-vectors.json: Skein outputs computed by pyskein 1.0 (the
reference Python binding of the Skein authors' C code), for the JavaScript
package's tests. Run with pyskein 1.0 installed (`pip install pyskein==1.0`):

    python3 make_pyskein_vectors.py > pyskein-vectors.json

Messages are not stored: message(length, seed)[i] = (i * 131 + seed * 7 + 1) % 256,
which the tests compute the same way."""

import json

import skein

assert skein.__version__ == "1.0", skein.__version__

HASHERS = {256: skein.skein256, 512: skein.skein512, 1024: skein.skein1024}


def message(length, seed):
    return bytes((i * 131 + seed * 7 + 1) % 256 for i in range(length))


def h(b):
    return b.hex() if b else ""


def args(key=b"", pers=b"", nonce=b"", public_key=b"", key_id=b"", tree=None):
    return {"key": key, "pers": pers, "nonce": nonce, "public_key": public_key,
            "key_id": key_id, "tree": tree}


def js_args(a):
    out = {k: h(a[k]) for k in ("key", "pers", "nonce", "public_key", "key_id") if a[k]}
    if a["tree"]:
        out["tree"] = list(a["tree"])
    return out


def main():
    cases = []
    lengths = [0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 1000, 4096, 10007]
    params = [
        args(),
        args(key=message(32, 1)),
        args(key=message(129, 2), pers=b"20261204 skein-simd@example.org js/v1"),
        args(nonce=message(16, 3)),
        args(public_key=message(64, 4), key_id=message(8, 5), key=message(64, 6)),
        args(tree=(1, 1, 255)),
        args(tree=(2, 3, 2), key=message(16, 7)),
    ]
    for state, new in HASHERS.items():
        for bits in (state, 8, 160, 1000, 4104):
            for pi, a in enumerate(params):
                for n, length in enumerate(lengths):
                    # Every length with plain hashing at the state size; a
                    # spread of lengths for the rest.
                    if (pi or bits != state) and n % 5 != (pi + bits) % 5:
                        continue
                    if bits == 4104 and pi not in (0, 1):
                        continue
                    m = message(length, n)
                    d = new(m, bits, **a).digest()
                    cases.append({"state": state, "bits": bits, "args": js_args(a),
                                  "msg": [length, n], "digest": h(d)})
    # Long outputs read through the output reader: a prefix, and slices far
    # into an output of 2**64 - 1 bits (pyskein's digest(start, stop)). Only
    # below output block 2**32: pyskein 1.0 puts just the low 4 bytes of the
    # block counter into the counter block (the far windows are in
    # tests/data/pyskein_output_slices.txt, from the specification).
    xof = []
    for state, new in HASHERS.items():
        for a in (args(), args(key=message(48, 8), nonce=b"stream nonce")):
            m = message(777, state)
            hasher = new(m, 2**64 - 1, **a)
            for start, stop in ((0, 3000), (10**11 + 5, 10**11 + 300), (2**37 - 200, 2**37 - 1)):
                xof.append({"state": state, "args": js_args(a), "msg": [777, state],
                            "start": start, "stop": stop, "output": h(hasher.digest(start, stop))})
    # hash_many: one parameter set, several messages (pyskein hashes each).
    many = []
    for state, new in HASHERS.items():
        for bits, a in ((state, args()), (256, args(key=message(32, 9))), (512, args(pers=b"many"))):
            msgs = [[length, i] for i, length in enumerate((0, 1, 64, 100, 4096, 4096, 4097, 9000, 31, 128, 129))]
            many.append({"state": state, "bits": bits, "args": js_args(a), "msgs": msgs,
                         "digests": [h(new(message(*m), bits, **a).digest()) for m in msgs]})
    # indent=0: one value a line, so a regenerated file diffs readably.
    json.dump({"pyskein": skein.__version__, "cases": cases, "xof": xof, "hash_many": many},
              __import__("sys").stdout, indent=0)
    print()


main()
