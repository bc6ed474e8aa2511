"""A crashed guard's error in `replay --format text`: the last line of its stderr.

`show` put `stderr: KeyError: 'command'` beside a crashed guard's row; replay's
text said only "exit 1". Recorded through the real tap, replayed by the real CLI
against a real crashing guard, one writing past the capture bound too (its
error is then in the kept tail, not the head).
"""

from __future__ import annotations

from pathlib import Path

from hooktui.tap.record.blobs import BLOB_CAP

from tests.replay.helpers import PYTHON, record_session, replay_cli

# A guard with the bug: it reads a key Claude Code does not send.
CRASHES = """\
import json, sys
sys.stderr.write("x" * {noise} + "\\n")
request = json.load(sys.stdin)
print(request["tool_input"]["cmd"])
"""


def _crashing(tmp_path: Path, noise: int) -> Path:
    guard = tmp_path / f"guard{noise}.py"
    guard.write_text(CRASHES.format(noise=noise))
    return guard


def test_the_crash_shows_recorded_and_rerun(tmp_path: Path):
    for noise in (0, 2 * BLOB_CAP):
        guard = _crashing(tmp_path, noise)
        stream = tmp_path / f"s{noise}.jsonl"
        records = record_session(stream, "claude-code", [PYTHON, str(guard)], ["ls"], tmp_path)
        assert records[0]["stderr"]["truncated"] is bool(noise)
        proc = replay_cli(str(stream), "--format", "text", "--policy", f"{PYTHON} {guard}")
        assert proc.stderr == "" and "failed 1" in proc.stdout
        lines = [line.strip() for line in proc.stdout.splitlines()]
        # The recorded crash (after "was") and today's run (after "why") each say it.
        assert lines.count("stderr  KeyError: 'cmd'") == 2, proc.stdout
        was = next(i for i, x in enumerate(lines) if x.startswith("was"))
        why = next(i for i, x in enumerate(lines) if x.startswith("why"))
        assert lines[was + 1] == lines[why + 1] == "stderr  KeyError: 'cmd'"


def test_an_edit_that_crashes_says_why(tmp_path: Path):
    allow = tmp_path / "allow.py"
    allow.write_text("import sys; sys.stdin.read()\n")
    stream = tmp_path / "s.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(allow)], ["ls"], tmp_path)
    guard = _crashing(tmp_path, 0)
    proc = replay_cli(str(stream), "--format", "text", "--policy", f"{PYTHON} {guard}")
    lines = [line.strip() for line in proc.stdout.splitlines()]
    assert proc.returncode == 1 and lines.count("stderr  KeyError: 'cmd'") == 1, proc.stdout
    assert lines[lines.index("stderr  KeyError: 'cmd'") - 1].startswith("why")
