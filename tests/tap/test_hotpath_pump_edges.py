"""Edges the first stretch and the pump hand over at, and a storm of signals: the
hook's traffic passes as bare and the record has all of it.

Found sound when attacked (2026-12-05); pinned here because the stretch's limits
(a pipeful of output per look, QUEUE_MAX of request read ahead) sit exactly on
these sizes, and a caller signalling the tap in a loop interrupts every wait.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import join

SIZES = [65535, 65536, 65537, (1 << 20) - 1, 1 << 20, (1 << 20) + 1]


def tap_line(stream: Path) -> list[str]:
    return [sys.executable, "-I", "-S", "-X", "utf8", HOOKTUI, "tap", "--stream", str(stream), "--"]


def run(argv: list[str], request: bytes | Path) -> tuple[bytes, bytes, int]:
    """`request` on a pipe a thread writes and closes, or in a file (a Path)."""
    if isinstance(request, Path):
        with open(request, "rb") as f:
            done = subprocess.run(argv, stdin=f, capture_output=True, timeout=60)
        return done.stdout, done.stderr, done.returncode
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    pipe, proc.stdin = proc.stdin, None

    def feed():
        try:
            pipe.write(request)
        except BrokenPipeError:
            pass
        pipe.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    out, err = proc.communicate(timeout=60)
    join(writer)
    return out, err, proc.returncode


@pytest.mark.parametrize("stdin", ["pipe", "file"])
@pytest.mark.parametrize("size", SIZES)
def test_a_request_at_each_edge_passes_whole(tmp_path, size, stdin):
    request = bytes(range(256)) * (size // 256) + b"q" * (size % 256)
    given = request
    if stdin == "file":
        given = tmp_path / "request"
        given.write_bytes(request)
    hook = ["sh", "-c", "cat; echo why >&2; exit 2"]
    stream = tmp_path / "s.jsonl"
    bare = run(hook, given)
    assert bare == (request, b"why\n", 2)
    assert run(tap_line(stream) + hook, given) == bare
    (record,) = wait_for_records(stream, 1)
    assert record["stdout"]["length"] == size and record["exit_code"] == 2


@pytest.mark.parametrize("size", SIZES)
def test_output_at_each_edge_passes_whole(tmp_path, size):
    hook = ["sh", "-c", f"cat >/dev/null; head -c {size} /dev/zero; head -c {size} /dev/zero >&2"]
    stream = tmp_path / "s.jsonl"
    bare = run(hook, b"{}")
    assert bare == (b"\0" * size, b"\0" * size, 0)
    assert run(tap_line(stream) + hook, b"{}") == bare
    (record,) = wait_for_records(stream, 1)
    assert record["stdout"]["length"] == record["stderr"]["length"] == size


STORMED = """
import os, sys, time
request = b""
while chunk := os.read(0, 4096):
    request += chunk
    time.sleep(0.001)
for i in range(600):
    os.write(1, b"%d %d\\n" % (len(request), i))
    time.sleep(0.001)
sys.exit(2)
"""


def test_a_caller_signalling_the_tap_in_a_loop_changes_nothing(tmp_path):
    """Signals sent without pause for the whole call (ones that end nothing, for
    the hook as for the tap before its handlers are in), through the stretch and
    the pump: every wait is interrupted, every signal passed on."""
    hook = [sys.executable, "-I", "-S", "-c", STORMED]
    stream = tmp_path / "s.jsonl"
    request = b"r" * 200_000
    results = []
    for argv in (hook, tap_line(stream) + hook):
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        done = threading.Event()

        def storm(proc=proc, done=done):
            while not done.is_set():
                for sig in (signal.SIGWINCH, signal.SIGURG, signal.SIGCONT):
                    try:
                        proc.send_signal(sig)
                    except ProcessLookupError:
                        return

        sender = threading.Thread(target=storm, daemon=True)
        sender.start()
        try:
            out, err = proc.communicate(request, timeout=60)
        finally:
            done.set()
            join(sender)
        results.append((out, err, proc.returncode))
    assert results[0] == results[1]
    lines = results[0][0].splitlines()
    assert results[0][2] == 2 and lines[-1] == b"200000 599" and len(lines) == 600
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 2 and record["stdout"]["length"] == len(results[0][0])
