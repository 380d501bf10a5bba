"""Running a snippet in a fresh interpreter with a time limit, so that a hang
or a fatal signal fails one test instead of stopping the whole run."""

import os
import signal
import subprocess
import sys
import textwrap
import time


# Every snippet starts as a program does under a parent that ignores SIGINT
# and SIGTERM and blocks them and SIGALRM (nohup, background shells and some
# CI runners pass such a state on, and it survives exec): a small program
# sets that state and execs the snippet's interpreter in its place (same
# pid). So a snippet that relies on a signal must set its own disposition
# and mask, and the tests hold however pytest itself was started.
INHERITED_SIGNAL_STATE = """
import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM):
    signal.signal(s, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGALRM})
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
"""


def snippet_argv(code, args=()):
    """The command that runs `code` with `python -c` and `args` as sys.argv[1:],
    with the inherited signal state above."""
    return [sys.executable, "-c", INHERITED_SIGNAL_STATE, "-c", textwrap.dedent(code), *map(str, args)]


def run_snippet(code, timeout, args=()):
    """Run `code` with `python -c` (it may import skein_simd and pyskein);
    kill it and its children if it outlives `timeout` seconds. Returns the
    CompletedProcess; a timeout raises subprocess.TimeoutExpired."""
    proc = subprocess.Popen(
        snippet_argv(code, args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, children included
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def interrupt_snippet(code, settle=0.5, deadline=3.0, args=()):
    """Start `code`, wait until it prints 'ready' (just before the long call),
    give the call `settle` seconds to get going, send SIGINT (Ctrl-C), and
    return (seconds from SIGINT to exit, CompletedProcess). Fails if the
    process does not exit within `deadline` seconds of the SIGINT."""
    proc = subprocess.Popen(
        snippet_argv(code, args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        first = proc.stdout.readline()
        assert first == "ready\n", (first, proc.stderr.read() if proc.poll() is not None else "")
        time.sleep(settle)
        assert proc.poll() is None, "the call ended before it could be interrupted"
        sent = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=deadline)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"no exit within {deadline} s of SIGINT") from None
        return time.monotonic() - sent, subprocess.CompletedProcess(proc.args, proc.returncode, first + out, err)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
