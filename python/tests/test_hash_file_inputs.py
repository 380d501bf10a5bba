"""hash_file on inputs that are not plain files sitting still: files changed
while they are hashed, pseudo-files whose size says nothing of their
contents, and paths that open() refuses."""

import os
import pathlib
import subprocess

import pytest
import skein as pyskein
from subprocess_helpers import run_snippet

import skein_simd

# A sparse 300 MB file (zero pages: quick to make, no disk used), hashed
# while a thread does CHANGE to it 50 ms into the call; prints how the call
# ended. Hashing 300 MB takes far longer than 50 ms on any machine.
CHANGE_WHILE_HASHED = """
import os, sys, threading, time
import skein_simd
path = sys.argv[1]
SIZE = 300_000_000
with open(path, "wb") as f:
    f.truncate(SIZE)

def change():
    time.sleep(0.05)
    {change}

t = threading.Thread(target=change)
t.start()
try:
    digest = skein_simd.hash_file(path)
except OSError as e:
    print("OSError", type(e).__name__, e.errno, e, flush=True)
else:
    print("digest", digest.hex(), flush=True)
t.join()
"""


def hash_while(tmp_path, change):
    path = tmp_path / "big"
    try:
        proc = run_snippet(CHANGE_WHILE_HASHED.format(change=change), timeout=120, args=[path])
    except subprocess.TimeoutExpired as e:
        raise AssertionError("hang") from e
    # A fatal signal (SIGBUS when a mapped file shrinks) shows as a negative code.
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout.split()


def zeros_digest(n):
    h = pyskein.skein512()
    chunk = bytes(1 << 20)
    while n:
        take = min(n, len(chunk))
        h.update(chunk[:take])
        n -= take
    return h.digest().hex()


def test_file_truncated_while_hashed(tmp_path):
    out = hash_while(tmp_path, "os.truncate(path, SIZE // 3)")
    assert out[:4] == ["OSError", "OSError", "None", "file"], out
    assert "changed" in out


def test_file_rewritten_in_place_while_hashed(tmp_path):
    # Same size, new contents: the modification time shows it.
    out = hash_while(tmp_path, "fd = os.open(path, os.O_WRONLY); os.pwrite(fd, b'x', 0); os.close(fd)")
    assert out[:4] == ["OSError", "OSError", "None", "file"], out


def test_metadata_change_while_hashed_still_gives_the_digest(tmp_path):
    # chmod, an access-time change and a new hard link move the ctime, not
    # the contents: the digest is given.
    out = hash_while(
        tmp_path,
        "os.chmod(path, 0o600); os.utime(path, ns=(1, os.stat(path).st_mtime_ns)); os.link(path, path + '2')",
    )
    assert out == ["digest", zeros_digest(300_000_000)]


# Pseudo-files: their stat size (0 or 4096) is not their length, and some
# cannot be mapped. The digest is that of what read() gives.
PSEUDO_FILES = [
    "/proc/version",
    "/proc/self/cmdline",
    "/sys/devices/system/cpu/online",
    "/sys/kernel/mm/transparent_hugepage/enabled",
]


@pytest.mark.parametrize("path", PSEUDO_FILES)
def test_pseudo_file(path):
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist on this system")
    with open(path, "rb") as f:
        want = pyskein.skein512(f.read(), digest_bits=200).digest()
    assert skein_simd.hash_file(path, 200) == want


def test_pseudo_file_read_error():
    # /proc/self/mem cannot be read at offset 0: the error read() raises.
    with pytest.raises(OSError) as mine:
        skein_simd.hash_file("/proc/self/mem")
    with pytest.raises(OSError) as theirs:
        with open("/proc/self/mem", "rb") as f:
            f.read()
    assert (type(mine.value), mine.value.errno) == (type(theirs.value), theirs.value.errno)


class PathLike:
    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


def bad_paths(tmp_path):
    missing = os.fsencode(tmp_path) + b"/missing-\xff\xfe"
    return [
        missing,  # not UTF-8
        os.fsdecode(missing),  # the same as str (surrogate escapes)
        PathLike(missing),
        tmp_path / "missing",
        str(tmp_path / "missing"),
        "a\0b",
        b"a\0b",
        pathlib.Path("a\0b"),
        tmp_path,  # a directory
        os.fsencode(tmp_path),
        "",
    ]


def failure(call):
    with pytest.raises(Exception) as info:
        call()
    e = info.value
    return (type(e), e.args, getattr(e, "filename", None), getattr(e, "filename2", None), str(e))


def test_errors_are_those_of_open(tmp_path):
    for path in bad_paths(tmp_path):
        theirs = failure(lambda: open(path, "rb"))
        mine = failure(lambda: skein_simd.hash_file(path))
        assert mine == theirs, path
        assert "os error" not in mine[-1]
