"""The official Skein 1.3 golden known-answer file through the Python API
(bit lengths, MAC keys, tree parameters): an independent source besides
pyskein. The repository's committed copy, tests/data/skein_golden_kat.txt
(origin: tests/data/README.md); missing, the test fails."""

import pathlib
import re

import pytest

import skein_simd

REPO = pathlib.Path(__file__).resolve().parents[2]
KAT = REPO / "tests" / "data" / "skein_golden_kat.txt"
HEADER = re.compile(
    r":Skein-(\d+):\s+(\d+)-bit hash, msgLen =\s*(\d+) bits"
    r"(?:, data = '[^']*'|\. Tree: leaf=([0-9A-F]{2}), node=([0-9A-F]{2}), maxLevels=([0-9A-F]{2}))"
)


def kat_path():
    if not KAT.is_file():
        pytest.fail(f"golden KAT file not found: {KAT}")
    return KAT


def hex_lines(lines):
    # "(none)" stands for an empty field, sometimes followed by a C comment.
    return bytes.fromhex("".join(l for l in lines if not l.strip().startswith("(none)")))


def entries(text):
    for block in text.replace("\r\n", "\n").split("--------------------------------"):
        m = HEADER.search(block)
        if not m:
            continue
        state, out_bits, msg_bits = int(m[1]), int(m[2]), int(m[3])
        tree = tuple(int(x, 16) for x in m.group(4, 5, 6)) if m[4] else None
        sections, current = {}, None
        for line in block.split("\n"):
            if line.startswith("Message data:"):
                current = sections.setdefault("msg", [])
            elif line.startswith("MAC key"):
                current = sections.setdefault("key", [])
            elif line.startswith("Result:"):
                current = sections.setdefault("result", [])
            elif current is not None and line.startswith(" "):
                current.append(line)
        yield state, out_bits, msg_bits, tree, {k: hex_lines(v) for k, v in sections.items()}


def test_golden_kat():
    hashers = {256: skein_simd.skein256, 512: skein_simd.skein512, 1024: skein_simd.skein1024}
    passed = failed = 0
    for state, out_bits, msg_bits, tree, data in entries(kat_path().read_text()):
        kw = {"digest_bits": out_bits}
        if "key" in data:
            kw["key"] = data["key"]
        if tree:
            kw["tree"] = tree
        h = hashers[state](**kw)
        h.update(data["msg"], msg_bits)
        if h.digest() == data["result"] and h.hashed_bits == msg_bits:
            passed += 1
        else:
            failed += 1
    assert (passed, failed) == (491, 0), f"{passed} KAT entries right, {failed} wrong"
