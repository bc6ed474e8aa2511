"""Replay runs the hook the tap recorded even when its path, its arguments, its cwd
or a runtime variable is not UTF-8: the record keeps those escaped (`hook.escaped`)
and replay undoes it (issue 19: such a hook replayed as "command not found", reported
as a loosened guard)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.replay.helpers import PYTHON, replay_json, request_for, tap, write_guard

ODD = os.fsdecode(b"guards-\xff\xfe")  # a folder name that is not UTF-8


def test_a_hook_under_a_path_that_is_not_utf8_replays_as_recorded(tmp_path: Path):
    folder = tmp_path / ODD
    folder.mkdir()
    guard = write_guard(folder / "guard.py", {"push --force": ("deny", "no force pushes")})
    stream = tmp_path / "session.jsonl"
    request = request_for("claude-code", "git push --force", str(folder))
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(folder))
    done = tap(stream, "claude-code", [PYTHON, str(guard), ODD], request, cwd=folder, env=env)
    assert done.returncode in (0, 2), done.stderr
    code, report = replay_json(str(stream))
    assert (report["unchanged"], report["changed"], report["failed"]) == (1, 0, 0), report
    assert code == 0
