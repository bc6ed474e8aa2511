"""The hook's output reaches the runtime as it would bare: late, huge, or slow to drain."""

from __future__ import annotations

import fcntl
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import WAIT_S, read_line, read_rest, read_some

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")


def tapped(stream: Path, *hook: str, extra: tuple[str, ...] = ()) -> list[str]:
    return [HOOKTUI, "tap", *extra, "--stream", str(stream), "--", *hook]


def test_output_a_background_child_writes_after_the_hook_exits_gets_through(tmp_path):
    hook = ["sh", "-c", "(sleep 0.8; echo late; echo late-err >&2) & echo early"]
    bare = subprocess.run(hook, capture_output=True, timeout=60)
    stream = tmp_path / "s.jsonl"
    out = subprocess.run(tapped(stream, *hook), capture_output=True, timeout=60)
    assert (out.stdout, out.stderr, out.returncode) == (bare.stdout, bare.stderr, 0)
    assert bare.stdout == b"early\nlate\n"
    (record,) = wait_for_records(stream, 1)
    assert record["stdout"]["data"] == "early\nlate\n" and record["stderr"]["data"] == "late-err\n"
    assert record["exit_code"] == 0


def _lingering_tap(tmp_path: Path, extra: tuple[str, ...] = ()):
    """A tap whose hook has answered and exited 3, while its daemon holds stdout open."""
    stream = tmp_path / "s.jsonl"
    pidfile = tmp_path / "daemon.pid"
    hook = ["sh", "-c", f"sleep 300 & echo $! > {pidfile}; echo answer; exit 3"]
    proc = subprocess.Popen(
        tapped(stream, *hook, extra=extra),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert read_line(proc.stdout) == b"answer\n"
    return proc, stream, int(pidfile.read_text())


def test_asked_to_end_while_a_daemon_holds_the_output_the_tap_records_and_exits(tmp_path):
    proc, stream, daemon = _lingering_tap(tmp_path)
    try:
        time.sleep(0.3)
        assert proc.poll() is None  # reading until the pipe closes, as the runtime would
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=WAIT_S) == 3  # the hook's own status
    finally:
        proc.kill()
        os.kill(daemon, signal.SIGKILL)
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 3 and record["stdout"]["data"] == "answer\n"


def test_killed_while_a_daemon_holds_the_output_the_call_is_still_recorded(tmp_path):
    proc, stream, daemon = _lingering_tap(tmp_path)
    try:
        # The watchdog takes over GRACE_S into the wait: a session of its own.
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and not _session_leading_child(proc.pid):
            time.sleep(0.02)
        proc.kill()
        proc.wait(timeout=WAIT_S)
    finally:
        os.kill(daemon, signal.SIGKILL)
    (record,) = wait_for_records(stream, 1)
    assert record["stdout"]["data"] == "answer\n"
    assert record["signal"] == signal.SIGKILL  # what the runtime saw of its hook command


def _session_leading_child(pid: int) -> bool:
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return False
    for kid in kids:
        try:
            stat = Path(f"/proc/{kid}/stat").read_bytes().rsplit(b")", 1)[1].split()
            # A fork of the tap (its command line), not the hook it started, which
            # leads a session of its own too when the tap leads one.
            tap_line = Path(f"/proc/{pid}/cmdline").read_bytes()
            forked = Path(f"/proc/{kid}/cmdline").read_bytes() == tap_line
        except OSError:
            continue
        if forked and int(stat[3]) == int(kid):
            return True
    return False


# Peak RSS is measured by a small parent: a child forked straight from pytest
# starts with pytest's own pages (hundreds of MiB late in the suite) counted as its peak.
_MEASURED = """
import os, sys
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.parametrize("wait", [False, True], ids=["detached", "--wait"])
def test_300_mb_of_output_streams_through_in_little_memory(tmp_path, wait):
    size = 300 << 20
    stream = tmp_path / "s.jsonl"
    peak = tmp_path / "peak"
    hook = ["sh", "-c", f"cat >/dev/null; head -c {size} /dev/zero; echo done >&2"]
    extra = ("--wait",) if wait else ()
    proc = subprocess.Popen(
        [sys.executable, "-c", _MEASURED, str(peak), *tapped(stream, *hook, extra=extra)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    received = 0
    while chunk := read_some(proc.stdout, 1 << 20):
        assert not chunk.strip(b"\0")
        received += len(chunk)
    assert read_rest(proc.stderr) == b"done\n"
    assert proc.wait(timeout=120) == 0 and received == size
    assert int(peak.read_text()) < 100 * 1024  # KiB: the tap (and the hook) stayed small
    (record,) = wait_for_records(stream, 1, timeout=60)
    blob = record["stdout"]
    assert blob["length"] == size and blob["truncated"]
    assert blob["sha256"] == _zeros_sha256(size)
    assert 0 < len(blob["data"]) < 1 << 20


def _zeros_sha256(size: int) -> str:
    digest = hashlib.sha256()
    block = bytes(1 << 20)
    for _ in range(size >> 20):
        digest.update(block)
    return digest.hexdigest()


def test_a_caller_with_a_non_blocking_pipe_gets_all_of_the_output(tmp_path):
    """Node may hand a child a non-blocking pipe: a full pipe is a wait, not an end."""
    stream = tmp_path / "s.jsonl"
    size = 4 << 20
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
    proc = subprocess.Popen(
        tapped(stream, "head", "-c", str(size), "/dev/zero"), stdin=subprocess.DEVNULL, stdout=w
    )
    os.close(w)
    received = 0
    time.sleep(0.5)  # let the pipe fill up first
    while chunk := read_some(r):
        received += len(chunk)
        time.sleep(0.0005)
    os.close(r)
    assert proc.wait(timeout=60) == 0
    assert received == size
    (record,) = wait_for_records(stream, 1)
    assert record["stdout"]["length"] == size and record["signal"] is None
