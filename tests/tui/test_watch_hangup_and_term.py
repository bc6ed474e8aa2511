"""`hooktui watch` ended by its terminal going away (SIGHUP) or by SIGTERM, for real in tmux.

A pipe or FIFO is watched through a spool file, a copy of everything it sent.
A dashboard whose terminal closed, or that was told to stop, must leave nothing
behind, as `q` does.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, process_alive
from tests.tui.conftest import varied_records, write_stream

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _until(ok, what: str, timeout: float = 60.0) -> None:
    """Poll until `ok()` (a deadline against a hang, not a timed assertion)."""
    deadline = time.monotonic() + timeout
    while not ok():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


@pytest.mark.parametrize("how", ["hangup", "sigterm"])
def test_a_watch_ended_by_a_signal_leaves_no_spool_behind(tmp_path: Path, how: str) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    spools = tmp_path / "tmp"
    spools.mkdir()
    server = ["tmux", "-L", f"hooktui-attack-{os.getpid()}-{how}", "-f", "/dev/null"]
    command = f"exec {shlex.quote(HOOKTUI)} watch {shlex.quote(str(fifo))}"
    subprocess.run(
        [*server, "new-session", "-d", "-x", "120", "-y", "36", command],
        check=True,
        env={**os.environ, "TMPDIR": str(spools)},
        timeout=60,
    )
    try:
        pid = int(
            subprocess.run(
                [*server, "list-panes", "-F", "#{pane_pid}"],
                capture_output=True,
                text=True,
                check=True,
                timeout=60,
            ).stdout.split()[0]
        )
        with open(fifo, "wb") as writer:  # opens once the watch's spool opens its end
            writer.write(stream.read_bytes())
        assert list(spools.iterdir()), "the FIFO is read through a spool file"

        def shown() -> bool:
            screen = subprocess.run(
                [*server, "capture-pane", "-p"],
                capture_output=True,
                text=True,
                timeout=60,
            ).stdout
            return "rm -rf /" in screen and "8/8 shown" in screen

        _until(shown, "the dashboard showing the FIFO's calls")
        if how == "hangup":
            subprocess.run([*server, "kill-server"], check=True, timeout=60)
        else:
            os.kill(pid, signal.SIGTERM)
        _until(lambda: not process_alive(pid), "the watch ended")
        assert list(spools.iterdir()) == []
    finally:
        subprocess.run([*server, "kill-server"], capture_output=True, timeout=60)
