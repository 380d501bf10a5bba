"""Dask (`dask.distributed`): a LocalCluster of 3 worker processes hashes a
256 MiB file by byte ranges, each worker reading only its ranges by path
(python/examples/dask_tree_hash.py, the documented example); the digest the
client merges equals the library's one-machine tree digest
(`skein_simd.hash_file`) and `skeinsum --tree` (the binary in $SKEINSUM),
for several tree shapes, keyed and unkeyed, and lengths that are not
multiples of the leaf.

Skipped without Dask, unless SKEIN_SIMD_TEST_DASK=1 (as in CI), which also
requires $SKEINSUM: then a missing one fails."""

import importlib.util
import os
import pathlib
import subprocess

import pytest

import skein_simd

REQUIRED = os.environ.get("SKEIN_SIMD_TEST_DASK") == "1"
if not REQUIRED:
    pytest.importorskip("distributed")
from dask.distributed import Client  # noqa: E402

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "dask_tree_hash.py"
_spec = importlib.util.spec_from_file_location("dask_tree_hash", EXAMPLE)
example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(example)


def skeinsum(path, tree, state_bits=512, digest_bits=None):
    binary = os.environ.get("SKEINSUM")
    if not binary:
        if REQUIRED:
            pytest.fail("SKEIN_SIMD_TEST_DASK=1 needs SKEINSUM (the skeinsum binary)")
        return None
    cmd = [binary, "--tree", ",".join(map(str, tree)), "-a", str(state_bits)]
    if digest_bits:
        cmd += ["-l", str(digest_bits)]
    line = subprocess.run(cmd + [str(path)], check=True, capture_output=True, text=True).stdout
    return bytes.fromhex(line.split()[0])


@pytest.fixture(scope="module")
def client():
    cluster = example.local_cluster(n_workers=3)
    with cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("dask") / "object"
    with open(path, "wb") as f:
        for i in range(256):
            f.write(i.to_bytes(1, "little") * 12345 + os.urandom((1 << 20) - 12345))
        f.write(os.urandom(12345))  # 256 MiB + 12345 bytes: no multiple of a leaf
    return path


def test_dask_cluster_digest_equals_skeinsum_and_the_library(client, big_file):
    shape = (10, 1, 255)
    digest = example.tree_digest(client, str(big_file), tree=shape)
    assert digest == skein_simd.hash_file(big_file, tree=shape)
    want = skeinsum(big_file, shape)
    if want is not None:
        assert digest == want


@pytest.mark.parametrize(
    "args",
    [
        {"tree": (5, 2, 255), "key": b"a key", "pers": b"dask", "digest_bits": 1000},
        {"tree": (7, 3, 3), "state_bits": 256},
        {"tree": (2, 8, 255), "state_bits": 1024, "key": bytes(range(100)), "digest_bits": 13},
    ],
)
def test_dask_cluster_other_trees(client, big_file, args):
    digest = example.tree_digest(client, str(big_file), parts=7, **args)
    assert digest == skein_simd.hash_file(big_file, **args)


@pytest.mark.parametrize("length", [0, 1, 1 << 10, 3 * (1 << 10) + 1, 5_000_017])
def test_dask_cluster_small_objects(client, tmp_path, length):
    path = tmp_path / "small"
    path.write_bytes(os.urandom(length))
    for shape in [(1, 1, 2), (1, 2, 4), (3, 1, 255)]:
        digest = example.tree_digest(client, str(path), tree=shape)
        assert digest == skein_simd.hash_file(path, tree=shape), (length, shape)
        want = skeinsum(path, shape)
        if want is not None:
            assert digest == want, (length, shape)
