"""Beyond pyskein: buffer inputs, threads and the GIL, hash_many, hash_file,
platform(), the type stubs."""

import array
import ast
import mmap
import os
import pathlib
import pickle
import sys
import threading

import pytest
import skein as pyskein

import skein_simd
from helpers import SIZES, rand_bytes, rand_kwargs, rand_len

PY_REFERENCE = {256: pyskein.skein256, 512: pyskein.skein512, 1024: pyskein.skein1024}


def test_buffer_protocol_inputs(rng):
    data = rand_bytes(rng, 4000)
    want = pyskein.skein512(data, key=data[:40]).digest()
    arr = array.array("Q")
    arr.frombytes(data)
    m = mmap.mmap(-1, len(data))
    m.write(data)
    for form in [data, bytearray(data), memoryview(data), arr, m, memoryview(bytearray(data)).cast("I")]:
        assert skein_simd.skein512(form, key=memoryview(data)[:40]).digest() == want
        h = skein_simd.skein512(key=bytearray(data[:40]))
        h.update(form)
        assert h.digest() == want
    assert skein_simd.hash_many([bytearray(data), memoryview(data), arr], key=data[:40]) == [want] * 3


def test_threads_give_equal_results(rng):
    # Many threads hashing at once (long inputs: with the GIL released).
    jobs = []
    for _ in range(24):
        bits, ours, theirs = rng.choice(SIZES)
        kw = rand_kwargs(rng, bits)
        msg = rand_bytes(rng, rng.choice([100, 5000, 300_000]))
        jobs.append((ours, kw, msg, theirs(msg, **kw).digest()))
    results = [None] * len(jobs)

    def work(i):
        ours, kw, msg, _ = jobs[i]
        h = ours(**kw)
        for j in range(0, len(msg), 7777):
            h.update(msg[j : j + 7777])
        results[i] = h.digest()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [j[3] for j in jobs]


def test_one_object_shared_by_threads(rng):
    # Calls on one object take turns: every chunk arrives whole.
    chunk = rand_bytes(rng, 64 * 1024 + 3)
    h = skein_simd.skein1024(digest_bits=200)
    n_threads, per_thread = 4, 8

    def work():
        for _ in range(per_thread):
            h.update(chunk)

    threads = [threading.Thread(target=work) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert h.hashed_bits == 8 * len(chunk) * n_threads * per_thread
    assert h.digest() == pyskein.skein1024(chunk * (n_threads * per_thread), digest_bits=200).digest()


@pytest.mark.parametrize(
    "call", ["update", "init", "tree", "hash_many", "hash_file", "digest slice", "Random.read", "pickle tree"]
)
def test_gil_is_released_while_hashing(tmp_path, call):
    # With a switch interval of 100 s, the main thread gets the GIL back while
    # the worker is inside the call only if the call released it. Not timed:
    # the worker flags its end only after the call returns. The main thread
    # must be scheduled while the GIL is free, which a loaded machine can
    # delay past a short release (CI runs two Pythons' suites at once); a call
    # that holds the GIL throughout fails every attempt, so up to thirty
    # attempts are made.
    data = bytes(64 << 20)
    path = tmp_path / "big"
    if call == "hash_file":
        path.write_bytes(data)

    def attempt():
        # Saving a tree hashes its buffered leaves: 1 MiB leaves keep a
        # batch of 16 MiB buffered (64 KiB leaves only 4 MiB), a release of
        # a few milliseconds; four hashers in one pickle release it four times.
        tree_hashers = (
            [skein_simd.skein512(data[: 16 << 20], tree=(14, 1, 255)) for _ in range(4)]
            if call == "pickle tree"
            else None
        )
        calls = {
            "update": lambda: skein_simd.skein512().update(data),
            "init": lambda: skein_simd.skein256(data),
            "tree": lambda: skein_simd.skein512(data, tree=(10, 1, 255)).digest(),
            "hash_many": lambda: skein_simd.hash_many([data[: 1 << 20]] * 64),
            "hash_file": lambda: skein_simd.hash_file(path),
            "digest slice": lambda: skein_simd.skein512(digest_bits=2**64 - 1).digest(2**50, 2**50 + (64 << 20)),
            "Random.read": lambda: skein_simd.Random(b"seed").read(16 << 20),
            "pickle tree": lambda: pickle.dumps(tree_hashers),
        }
        started, finished = threading.Event(), []

        def work():
            started.set()
            calls[call]()
            finished.append(True)

        old = sys.getswitchinterval()
        sys.setswitchinterval(100.0)
        try:
            t = threading.Thread(target=work)
            t.start()
            started.wait()
            during = not finished
            t.join()
        finally:
            sys.setswitchinterval(old)
        return during

    assert any(attempt() for _ in range(30)), f"{call} held the GIL for the whole call"


@pytest.mark.parametrize("bits", [256, 512, 1024])
def test_hash_many_matches_a_pyskein_loop(rng, bits):
    ref = PY_REFERENCE[bits]
    for _ in range(12):
        kw = rand_kwargs(rng, bits, tree=rng.random() < 0.15)
        n = rng.choice([0, 1, 3, 4, 5, 8, 17, 100])
        if rng.random() < 0.5:
            length = rand_len(rng, bits // 8)
            messages = [rand_bytes(rng, length) for _ in range(n)]
        else:
            messages = [rand_bytes(rng, rand_len(rng, bits // 8)) for _ in range(n)]
        want = [ref(m, **kw).digest() for m in messages]
        db = kw.pop("digest_bits", None)
        assert skein_simd.hash_many(messages, db, state_bits=bits, **kw) == want
        assert skein_simd.hash_many(iter(messages), digest_bits=db, state_bits=bits, **kw) == want


def test_hash_many_target_shape(rng):
    messages = [rand_bytes(rng, 4096) for _ in range(1000)]
    key = rand_bytes(rng, 32)
    assert skein_simd.hash_many(messages, 256, key=key) == [
        pyskein.skein512(m, 256, key=key).digest() for m in messages
    ]
    assert skein_simd.hash_many(messages) == [pyskein.skein512(m).digest() for m in messages]


def test_hash_many_errors():
    with pytest.raises(TypeError):
        skein_simd.hash_many([b"a", "b"])
    with pytest.raises(TypeError):
        skein_simd.hash_many(5)
    with pytest.raises(TypeError):
        skein_simd.hash_many()
    with pytest.raises(ValueError):
        skein_simd.hash_many([b"a"], 0)
    with pytest.raises(ValueError):
        skein_simd.hash_many([b"a"], state_bits=384)
    with pytest.raises(TypeError):
        skein_simd.hash_many([b"a"], key="k")
    with pytest.raises(TypeError):
        skein_simd.hash_many([b"a"], init=b"x")
    with pytest.raises(ValueError):
        skein_simd.hash_many([b"a"], tree=(0, 1, 2))


@pytest.mark.parametrize("bits", [256, 512, 1024])
def test_hash_file(rng, tmp_path, bits):
    ref = PY_REFERENCE[bits]
    for length in [0, 1, 63, 64, 65, 4096, 1 << 20, (3 << 20) + 5]:
        data = rand_bytes(rng, length)
        path = tmp_path / f"f{length}"
        path.write_bytes(data)
        kw = rand_kwargs(rng, bits, tree=rng.random() < 0.3)
        want = ref(data, **kw).digest()
        db = kw.pop("digest_bits", None)
        assert skein_simd.hash_file(path, db, state_bits=bits, **kw) == want
        assert skein_simd.hash_file(str(path), digest_bits=db, state_bits=bits, **kw) == want
        assert skein_simd.hash_file(os.fsencode(path), db, state_bits=bits, **kw) == want


def test_hash_file_of_a_pipe(rng):
    data = rand_bytes(rng, 300_000)
    r, w = os.pipe()

    def feed():
        with os.fdopen(w, "wb") as f:
            f.write(data)

    t = threading.Thread(target=feed)
    t.start()
    try:
        assert skein_simd.hash_file(f"/dev/fd/{r}") == pyskein.skein512(data).digest()
    finally:
        t.join()
        os.close(r)


def test_hash_file_errors(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        skein_simd.hash_file(tmp_path / "missing")
    assert info.value.filename == str(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        skein_simd.hash_file(tmp_path)
    with pytest.raises(TypeError):
        skein_simd.hash_file(5)
    with pytest.raises(ValueError):
        skein_simd.hash_file(tmp_path, 0)


def test_huge_digest_lengths_fail_cleanly():
    h = skein_simd.skein512(b"x", digest_bits=2**64 - 1)
    with pytest.raises(MemoryError):
        h.digest()
    assert len(h.digest(0, 10)) == 10  # a slice is computed alone
    with pytest.raises(MemoryError):
        skein_simd.hash_many([b"x"] * 4, 2**63)


def test_platform():
    p = skein_simd.platform()
    assert set(p) == {"skein256", "skein512", "skein1024", "lanes", "lane_count", "available"}
    assert "portable" in p["available"]
    for key in ["skein256", "skein512", "skein1024", "lanes"]:
        assert p[key] in p["available"]
    assert p["lane_count"] >= 1


def test_stub_names_match_the_module():
    stub = pathlib.Path(__file__).parent.parent / "skein_simd.pyi"
    tree = ast.parse(stub.read_text())
    stub_names = {
        node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    } | {node.target.id for node in tree.body if isinstance(node, ast.AnnAssign)}
    assert stub_names == set(skein_simd.__all__)
    for cls in ["skein", "threefish"]:
        stub_cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
        stub_members = {n.name for n in stub_cls.body if isinstance(n, ast.FunctionDef)} | {
            n.target.id for n in stub_cls.body if isinstance(n, ast.AnnAssign)
        }
        members = {n for n in dir(getattr(skein_simd, cls)) if not n.startswith("_")}
        assert stub_members - {"__init__"} == members


def test_docstrings():
    for name in [
        "skein256",
        "skein512",
        "skein1024",
        "threefish",
        "hash_many",
        "hash_file",
        "platform",
        "Random",
        "RandomBytes",
        "StreamCipher",
    ]:
        assert getattr(skein_simd, name).__doc__
    for name in ["update", "digest", "hexdigest", "copy"]:
        assert getattr(skein_simd.skein, name).__doc__
    assert skein_simd.__doc__
