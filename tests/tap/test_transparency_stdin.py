"""The hook gets the same kind of stdin the tap got (issue 19): a socket (every Node
runtime's), a pipe, or a regular file it may seek in; the record keeps the request
all the same. Tapped, `cat /dev/stdin` worked where bare it fails (ENXIO on a socket):
the debugger hid the bug."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from tests.conftest import HOOKTUI, wait_for_records

REQUEST = b'{"hook_event_name": "PreToolUse", "tool_name": "Bash"}'
PROBE = (
    "stat -L -c %F /dev/stdin; cat /dev/stdin >/dev/null 2>&1 && echo readable || "
    "echo refused; head -c 20; echo"
)


def stdin_of(kind: str, tmp_path):
    """A fresh stdin of `kind` holding REQUEST, then EOF: (the fd to give, to close)."""
    if kind == "socket":
        ours, theirs = socket.socketpair()
        theirs.sendall(REQUEST)
        theirs.close()
        return ours.fileno(), ours
    if kind == "pipe":
        r, w = os.pipe()
        os.write(w, REQUEST)
        os.close(w)
        return r, None
    path = tmp_path / "request.json"
    path.write_bytes(REQUEST)
    f = open(path, "rb")  # noqa: SIM115 - closed by the caller
    return f.fileno(), f


def run(argv: list[str], kind: str, tmp_path) -> bytes:
    fd, keep = stdin_of(kind, tmp_path)
    try:
        done = subprocess.run(argv, stdin=fd, capture_output=True, timeout=60)
    finally:
        if keep is not None:
            keep.close()
        elif kind == "pipe":
            os.close(fd)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("kind", ["socket", "pipe", "file"])
def test_the_hook_gets_the_stdin_the_tap_got(kind, tmp_path):
    stream = tmp_path / "s.jsonl"
    bare = run(["sh", "-c", PROBE], kind, tmp_path)
    tapped = run([HOOKTUI, "tap", "--stream", str(stream), "--", "sh", "-c", PROBE], kind, tmp_path)
    assert tapped == bare
    (record,) = wait_for_records(stream, 1)
    assert record["request"] == json.loads(REQUEST)


HOOK_FIRST = r"""
import os, select, signal, sys
from hooktui.tap.hotpath.quick import first_stretch
from hooktui.tap.hotpath.spawn import OWN, spawn

fd = os.open(sys.argv[1], os.O_RDONLY)
os.dup2(fd, 0)
os.lseek(0, 4, os.SEEK_SET)  # the caller had read 4 bytes of it: the hook starts there
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
pid, in_w, out_r, err_r = spawn(["sh", "-c", "head -c 20 >/dev/null; echo read"], stdin=OWN)
assert select.select([out_r], [], [], 60)[0]  # the hook has read before the tap copies
s = first_stretch(pid, in_w, out_r, err_r, out_fd=-1, err_fd=-1, until=1e18, stdin_at=4)
sys.stdout.buffer.write(b"".join(s.request))
"""


def test_the_record_keeps_the_request_a_hook_read_first(tmp_path):
    """A regular file the hook reads itself: the record's copy is read from where the
    file stood when the hook started, not from where the hook has moved it (on a
    loaded machine the hook ran first, and the record kept the request's tail)."""
    path = tmp_path / "request.json"
    path.write_bytes(b"skip" + REQUEST)
    done = subprocess.run(
        [sys.executable, "-c", HOOK_FIRST, str(path)], capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == REQUEST
