"""Ctrl-C (SIGINT) interrupts long calls within about a second, as it
interrupts `open(path, 'rb').read()`: each case runs in a subprocess that is
sent SIGINT while inside the call and must exit with KeyboardInterrupt."""

import os
import subprocess

import pytest
from subprocess_helpers import interrupt_snippet, run_snippet

# Sets Ctrl-C's usual effect, whatever the process inherited (Python keeps
# an ignored SIGINT ignored, and a blocked one never arrives; the snippets
# start so, see subprocess_helpers), prints 'ready', runs CALL, and reports
# how it ended: exit 3 with 'interrupted' for a KeyboardInterrupt.
TEMPLATE = """
import signal
import sys
import skein_simd
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {{signal.SIGINT}})
{setup}
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt:
    print("interrupted", flush=True)
    {after}
    sys.exit(3)
print("finished", flush=True)
"""


# `data`: 64 GiB of a read-only anonymous mapping, all zero pages: neither
# memory nor overcommit is used, and hashing it takes far longer than a test.
ZERO_PAGES = (
    "import mmap\n"
    "data = mmap.mmap(-1, 64 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, prot=mmap.PROT_READ)"
)


def interrupted(call, setup="", after="pass", args=()):
    took, proc = interrupt_snippet(TEMPLATE.format(setup=setup, call=call, after=after), args=args)
    assert proc.returncode == 3, (proc.returncode, proc.stdout, proc.stderr)
    assert took < 2.5, took
    return proc.stdout.splitlines()


def test_hash_file_of_a_fifo_without_writer(tmp_path):
    # open() itself blocks until a writer comes: that wait must end too.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    interrupted("skein_simd.hash_file(sys.argv[1])", args=[fifo])


def test_hash_file_of_dev_zero():
    # Endless, and a read never waits: signals must be handled between pieces.
    interrupted("skein_simd.hash_file('/dev/zero')")


@pytest.mark.parametrize("tree", [None, (5, 2, 255)])
def test_update_of_a_huge_buffer(tree):
    # 64 GiB of zero pages (never written: no memory): many seconds of
    # hashing. After the interrupt the object is as before the
    # call, so hashing b'abc' then gives pyskein's digest of b'abc'.
    lines = interrupted(
        "h.update(data)",
        setup=f"h = skein_simd.skein512(tree={tree!r})\n{ZERO_PAGES}",
        after="h.update(b'abc'); print(h.hexdigest(), flush=True)",
    )
    import skein as pyskein

    assert lines == ["ready", "interrupted", pyskein.skein512(b"abc", tree=tree).hexdigest()]


def test_signal_handler_using_the_object_being_updated():
    # The handler runs between two pieces of the update, on the thread that
    # holds the object: it gets RuntimeError instead of waiting for itself.
    # The error ends the update, which leaves the object as it was.
    code = f"""
import signal
import skein_simd
h = skein_simd.skein512()
{ZERO_PAGES}
signal.signal(signal.SIGALRM, lambda *_: h.digest())
signal.pthread_sigmask(signal.SIG_UNBLOCK, {{signal.SIGALRM}})  # it may come blocked
signal.setitimer(signal.ITIMER_REAL, 0.3)
try:
    h.update(data)
except RuntimeError:
    print("RuntimeError")
h.update(b"abc")
print(h.hexdigest())
"""
    try:
        proc = run_snippet(code, timeout=60)
    except subprocess.TimeoutExpired as e:
        raise AssertionError("hang") from e
    import skein as pyskein

    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout.split() == ["RuntimeError", pyskein.skein512(b"abc").hexdigest()]


@pytest.mark.parametrize("threads,mmap", [(None, False), (1, False), (1, True)])
def test_hash_file_range_of_a_sparse_file(tmp_path, threads, mmap):
    # 64 GiB of holes (no disk used): zeros that take minutes to hash.
    # The range is read on another thread; the caller must still see Ctrl-C.
    path = tmp_path / "sparse"
    with open(path, "wb") as f:
        f.truncate(64 << 30)
    interrupted(
        f"t.hash_file_range(sys.argv[1], t.split(1)[0], threads={threads}, mmap={mmap})",
        setup="t = skein_simd.ObjectTree(64 << 30, tree=(10, 1, 255))",
        args=[path],
    )
