"""Every catchable signal sent to the tap reaches the hook, as if sent to the hook itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import WAIT_S, read_line, read_rest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")

# Reports each signal it gets, one per line; exits on "done" on stdin... or after 30 s.
CATCHER = textwrap.dedent(
    """
    import os, signal, sys, time
    wanted = [int(s) for s in sys.argv[1:]]
    got = []
    for sig in wanted:
        signal.signal(sig, lambda s, f: got.append(s))
    print("ready", flush=True)
    deadline = time.monotonic() + 30
    while len(got) < len(wanted) and time.monotonic() < deadline:
        time.sleep(0.01)
    print(" ".join(map(str, got)), flush=True)
    """
)

CATCHABLE = [
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGQUIT,
    signal.SIGALRM,
    signal.SIGWINCH,
    signal.SIGURG,
    signal.SIGPIPE,
    signal.SIGVTALRM,
    signal.SIGPROF,
    signal.SIGXCPU,
    signal.SIGPWR,
    signal.SIGRTMIN + 3,
    signal.SIGTERM,
]


def start(tmp_path: Path, *hook: str) -> tuple[subprocess.Popen, Path]:
    stream = tmp_path / "s.jsonl"
    proc = subprocess.Popen(
        [HOOKTUI, "tap", "--stream", str(stream), "--", *hook],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # no terminal: every signal is for the tap alone
        # None blocked, whatever this runner blocks (some CI runners block SIGPIPE).
        preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, ()),
    )
    assert read_line(proc.stdout) == b"ready\n"
    return proc, stream


def test_each_catchable_signal_is_passed_on(tmp_path):
    catcher = tmp_path / "catcher.py"
    catcher.write_text(CATCHER)
    proc, stream = start(tmp_path, sys.executable, str(catcher), *map(str, map(int, CATCHABLE)))
    try:
        for sig in CATCHABLE:
            proc.send_signal(sig)
            time.sleep(0.05)  # one at a time: standard signals do not queue
        out = read_rest(proc.stdout)
        assert proc.wait(timeout=WAIT_S) == 0
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
    assert sorted(map(int, out.split())) == sorted(map(int, CATCHABLE))
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 0


@pytest.mark.parametrize("sig", [signal.SIGUSR1, signal.SIGALRM, signal.SIGQUIT, signal.SIGPIPE])
def test_a_signal_the_hook_does_not_handle_ends_both_alike(tmp_path, sig):
    proc, stream = start(tmp_path, "sh", "-c", "echo ready; exec sleep 60")
    try:
        proc.send_signal(sig)
        assert proc.wait(timeout=WAIT_S) == -sig
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
    (record,) = wait_for_records(stream, 1)
    assert record["signal"] == sig


def state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def wait_state(pid: int, wanted: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while state(pid) != wanted and time.monotonic() < deadline:
        time.sleep(0.01)
    assert state(pid) == wanted


def test_stop_and_continue_keep_their_meaning(tmp_path):
    # A process group of its own inside this session (not an orphaned one, where
    # the kernel would discard stop signals for the bare hook too).
    stream = tmp_path / "s.jsonl"
    proc = subprocess.Popen(
        [HOOKTUI, "tap", "--stream", str(stream), "--"]
        + ["sh", "-c", "echo ready; sleep 0.5; echo finished"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        process_group=0,
    )
    assert read_line(proc.stdout) == b"ready\n"
    hook = int(Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()[0])
    try:
        proc.send_signal(signal.SIGTSTP)
        wait_state(hook, "T")  # the hook is stopped, as it would be bare
        wait_state(proc.pid, "T")  # and so is the tap, so the caller sees a stopped child
        time.sleep(0.8)
        assert state(hook) == "T"
        proc.send_signal(signal.SIGCONT)
        assert read_rest(proc.stdout) == b"finished\n"
        assert proc.wait(timeout=WAIT_S) == 0
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
    assert wait_for_records(stream, 1)[0]["exit_code"] == 0


def test_the_taps_own_broken_pipe_is_not_the_hooks(tmp_path):
    """The hook closes its stdin unread: the tap's write fails with EPIPE, and the
    SIGPIPE the kernel sends for it is the tap's, not something to pass on."""
    stream = tmp_path / "s.jsonl"
    hook = ["sh", "-c", "exec 0<&-; sleep 0.3; echo fine"]
    out = subprocess.run(
        [HOOKTUI, "tap", "--stream", str(stream), "--", *hook],
        input=b"x" * (4 << 20),
        capture_output=True,
        timeout=60,
    )
    assert (out.stdout, out.returncode) == (b"fine\n", 0)
    (record,) = wait_for_records(stream, 1)
    # The tap read the whole request (the record keeps it cut: tap/record/cut.py).
    lengths = {cut["pointer"]: cut["length"] for cut in record["cut"]}
    assert record["exit_code"] == 0 and lengths["/request"] == 4 << 20


def test_signals_the_caller_ignores_are_not_caught(tmp_path):
    """Ignored stays ignored for the tap too: USR1 neither kills it nor reaches the hook."""
    stream = tmp_path / "s.jsonl"

    def ignore_usr1():
        os.setsid()
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)

    proc = subprocess.Popen(
        [HOOKTUI, "tap", "--stream", str(stream), "--", "sh", "-c", "echo ready; sleep 0.5"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        preexec_fn=ignore_usr1,
    )
    assert read_line(proc.stdout) == b"ready\n"
    proc.send_signal(signal.SIGUSR1)
    assert proc.wait(timeout=WAIT_S) == 0
