"""A caller's stdout that fails for another reason than a reader gone (a full disk, EIO)
is no broken pipe: the hook goes on as it would bare.

The tap used to treat any failed write to its stdout as the reader gone, and
closed the hook's pipe: the hook's next write then killed it by SIGPIPE, and
the tap died by SIGPIPE, where the bare hook's write fails, it goes on and
exits 2 (a deny). A reader that is gone still gives the hook its broken pipe
(test_transparency.py).
"""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import HOOKTUI, wait_for_records

# Four pipefuls: some are written after the tap's first write to /dev/full failed.
HOOK = [
    "sh",
    "-c",
    'cat >/dev/null; for i in 1 2 3 4; do printf "%065536d" 0; done 2>/dev/null; '
    "echo why >&2; exit 2",
]


def test_a_stdout_on_a_full_disk_is_no_broken_pipe_for_the_hook(tmp_path):
    stream = tmp_path / "s.jsonl"
    line = [sys.executable, "-I", "-S", "-X", "utf8", HOOKTUI, "tap", "--stream", str(stream)]
    results = []
    for argv in (HOOK, [*line, "--", *HOOK]):
        with open("/dev/full", "wb") as full:  # every write: ENOSPC
            done = subprocess.run(
                argv, input=b"{}", stdout=full, stderr=subprocess.PIPE, timeout=60
            )
        results.append((done.stderr, done.returncode))
    assert results[0] == results[1] == (b"why\n", 2)
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 2 and record["signal"] is None
    assert record["stdout"]["length"] == 4 * 65536  # what the hook wrote, as it wrote it
