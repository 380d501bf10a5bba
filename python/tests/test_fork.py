"""The parallel paths (hash_many, tree hashing) after os.fork() and in a
multiprocessing fork pool, and hash_many's cost with no messages. Each case
runs in a subprocess with a time limit, so a hang fails the test instead of
stopping the run."""

import subprocess

from subprocess_helpers import run_snippet

# 100 messages of 8 KiB (800 KiB) and a 512 KiB tree input with 128-byte
# leaves, with pyskein's digests to compare with. Both are over the library's
# threshold for threads (128 KiB: src/schedule.rs), the tree's leaves and its
# first two node levels too (256 and 128 KiB of child digests). The tree is no
# larger because pyskein takes about 6 s per MiB of such a tree under QEMU
# (aarch64 wheel), in every snippet; at 8 MiB the setup alone took 51 s.
SETUP = """
import os, sys, time
import skein as pyskein
import skein_simd
MESSAGES = [bytes([i]) * 8192 for i in range(100)]
WANT = [pyskein.skein512(m).digest() for m in MESSAGES]
TREE_DATA = bytes(range(256)) * (2 << 10)
TREE = (1, 1, 255)
WANT_TREE = pyskein.skein512(TREE_DATA, tree=TREE).digest()

def work(_=None):
    many = skein_simd.hash_many(MESSAGES) == WANT
    tree = skein_simd.skein512(TREE_DATA, tree=TREE).digest() == WANT_TREE
    return many and tree

# The parent uses both paths first, so its thread pool exists.
assert work()
"""


def check(code, timeout, hang_message="hang"):
    """Run `code` in a subprocess: it has to end within `timeout` seconds,
    exit 0 and print "ok" last."""
    try:
        proc = run_snippet(code, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(hang_message) from e
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout.strip().endswith("ok"), proc.stdout


def test_parallel_paths_in_a_forked_child():
    code = (
        SETUP
        + """
pid = os.fork()
if pid == 0:
    os._exit(0 if work() else 1)
deadline = time.monotonic() + 60
while True:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    if time.monotonic() > deadline:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        sys.exit("the forked child hung")
    time.sleep(0.05)
code = os.waitstatus_to_exitcode(status)
if code != 0:
    sys.exit(f"the forked child exited with {code}")
assert work()  # the parent still works
print("ok")
"""
    )
    check(code, timeout=120)


def test_parallel_paths_in_a_multiprocessing_fork_pool():
    code = (
        SETUP
        + """
import multiprocessing, signal
# The pool ends its workers with SIGTERM: they must not inherit it ignored
# or blocked (the snippet may start so, see subprocess_helpers).
signal.signal(signal.SIGTERM, signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
with multiprocessing.get_context("fork").Pool(2) as pool:
    results = pool.map_async(work, range(4)).get(timeout=60)
assert results == [True] * 4, results
print("ok")
"""
    )
    check(code, timeout=120)


def test_hash_many_of_no_messages_returns_at_once():
    # No digest to compute, whatever the length asked for.
    code = """
import skein_simd
for bits in [2**64 - 1, 2**40, 1]:
    for state_bits in [256, 512, 1024]:
        assert skein_simd.hash_many([], bits, state_bits=state_bits) == []
    assert skein_simd.hash_many(iter(()), bits, key=b"k", tree=(1, 1, 2)) == []
print("ok")
"""
    check(code, timeout=20, hang_message="hash_many([], ...) did not return")
