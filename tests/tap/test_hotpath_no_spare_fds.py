"""With no file descriptors to spare, the hook still runs: in the tap's place.

The tap needs six more descriptors than the hook (three pipes). Under a low
RLIMIT_NOFILE (or a full system file table) it could not have them and exited
126, or died with a traceback when the second or third pipe failed (the first
ones stayed open, and even loading the words for the error then failed): a
guard that would have run bare never did. Now the tap execs the hook in its own
place, unrecorded, and says so in its error log.
"""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from tests.conftest import HOOKTUI

# A shell's redirections need a spare descriptor (dash saves fds at 10): a Python guard.
HOOK = [
    sys.executable,
    "-I",
    "-S",
    "-c",
    "import sys; sys.stdout.write(sys.stdin.read()); sys.stderr.write('why\\n'); sys.exit(2)",
]


@pytest.mark.parametrize("limit", [4, 5, 7])  # the first, second or third pipe fails
def test_out_of_descriptors_the_hook_runs_in_the_taps_place(tmp_path, limit):
    stream = tmp_path / "s.jsonl"
    line = [sys.executable, "-I", "-S", "-X", "utf8", HOOKTUI, "tap", "--stream", str(stream)]

    def low_limit():  # fds 0-2 are open: 3 to limit-1 are left
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    results = []
    for argv in (HOOK, [*line, "--", *HOOK]):
        done = subprocess.run(
            argv, input=b'{"x": 1}', capture_output=True, timeout=60, preexec_fn=low_limit
        )
        results.append((done.stdout, done.stderr, done.returncode))
    assert results[0] == results[1] == (b'{"x": 1}', b"why\n", 2)
    log = (tmp_path / "s.jsonl.errors.log").read_text()
    assert "the hook ran in the tap's place, unrecorded: [Errno 24]" in log
    assert not stream.exists()
