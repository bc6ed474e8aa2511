"""replay attacked through the names it prints: a policy path is text, never Rich markup."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.replay.helpers import COMMANDS, PYTHON, V1, record_session, write_guard
from tests.replay.test_replay_watch import start, stop
from tests.waits import read_rest


def test_watch_prints_a_policy_path_holding_markup_as_it_is(tmp_path: Path):
    # `[/x]` is a closing tag to Rich: printed as markup, the header of each run
    # ended `replay --watch` in a MarkupError traceback before its first report.
    odd = tmp_path / "[" / "x]"
    odd.mkdir(parents=True)
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, tmp_path)
    policy = shutil.copy(guard, odd / "guard[red].py")
    proc, out = start(
        str(stream),
        "--policy",
        f"{PYTHON} {policy}",
        "--hook",
        "all",
        "--watch",
        "--format",
        "text",
    )
    try:
        first = out.until("replay of")
    finally:
        stop(proc)
    assert read_rest(proc.stderr) == ""
    assert f"watching {policy} ──" in first[0]
