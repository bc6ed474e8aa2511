"""`hooktui show` on calls held at a breakpoint: each row says a person decided, and
what the hook itself answered, as watch's rows do ("⏸ denied (hook: allow)").

The stream is written by real taps held by a real HoldServer (as the watch and
tap breakpoint tests make theirs); `show` runs as a real subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hooktui.tap.hold import answers

from tests.conftest import HOOKTUI
from tests.hold_helpers import REQUEST, finish, holding_server, records, start_tap, wait_for

DENY_JSON = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no force push",
    }
}
DENY_HOOK = ["sh", "-c", f"cat >/dev/null; echo '{json.dumps(DENY_JSON)}'"]


def _request(n: int, command: str) -> dict:
    return {**REQUEST, "tool_use_id": f"toolu_{n}", "tool_input": {"command": command}}


def make_stream(path: Path) -> None:
    """Six calls, in this order: hook allow / person deny; hook deny / person allow;
    hook deny / person's rewrite; hook allow / person let it through; hook deny / the
    deadline let it through; not held."""
    with holding_server() as (server, runtime_dir):
        people = [
            (None, "git push --force origin main", lambda c: answers.deny(c, "not on main")),
            (DENY_HOOK, "git push --force origin dev", answers.allow),
            (
                DENY_HOOK,
                "git push --force origin x",
                lambda c: answers.rewrite(c, {"command": "git push"}),
            ),
            (None, "git status", lambda c: answers.own()),
        ]
        for n, (hook, command, decide) in enumerate(people, 1):
            tap = start_tap(path, runtime_dir, _request(n, command), hook=hook)
            (call,) = wait_for(lambda: server.held())
            assert server.release(call.number, decide(call))
            finish(tap)
        # A 6 s timeout leaves a 4 s hold, counted from the tap's start (room for a loaded
        # machine's start-up): nobody answers, the hook's deny goes; its record says it
        # was held (looking for the held call would race its release).
        tap = start_tap(
            path, runtime_dir, _request(5, "git push -f"), timeout_ms=6000, hook=DENY_HOOK
        )
        finish(tap)
        wait_for(lambda: not server.held())
        server.set_breakpoint("")
        finish(start_tap(path, runtime_dir, _request(6, "ls")))
    got = [(r["decision"], r.get("held", {}).get("action")) for r in records(path)]
    assert got == [
        ("allow", "deny"),
        ("deny", "allow"),
        ("deny", "edit"),
        ("allow", "hook"),
        ("deny", "hook"),
        ("allow", None),
    ], got


@pytest.fixture(scope="module")
def stream(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("held") / "s.jsonl"
    make_stream(path)
    return path


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "COLUMNS")}
    env.pop("HOOKTUI_STREAM", None)
    env.update(NO_COLOR="1", TERM="dumb")
    env.update(extra)
    return env


def _show(*args: str, **env: str) -> str:
    out = subprocess.run(
        [HOOKTUI, "show", *args], capture_output=True, text=True, env=_env(**env), timeout=60
    )
    assert out.returncode == 0 and not out.stderr, out.stderr
    return out.stdout


def _row(text: str, command: str) -> str:
    """The one row whose summary ends with `command`."""
    (row,) = [line for line in text.splitlines() if f"{command}  " in line]
    return row


def test_each_held_row_says_so_and_names_the_hooks_own_answer(stream: Path) -> None:
    text = _show(str(stream))
    row = _row(text, "origin main")
    # The mark leads the summary; the decision column and the reason are the runtime's.
    assert "⏸ denied (hook: allow) git push --force origin main" in row
    assert "✗ deny" in row and row.rstrip().endswith("not on main")
    row = _row(text, "origin dev")
    assert "⏸ allowed (hook: deny) git push" in row and "✓ allow" in row
    # The hook's reason, for the deny it answered, is named as the hook's.
    assert row.rstrip().endswith("hook: no force push")
    row = _row(text, "origin x")
    assert "⏸ edited (hook: deny) git push" in row and "✎ modify" in row
    # The hook's own answer went (a person passed it on, or the deadline did): no "hook:".
    row = _row(text, "git status")
    assert "⏸ passed git status" in row and "hook:" not in row
    row = _row(text, "git push -f")
    assert "⏸ deadline git push -f" in row and "✗ deny" in row
    assert row.rstrip().endswith("  no force push")
    assert "⏸" not in _row(text, "ls")
    assert text.count("⏸") == 5
    assert text.splitlines()[-1].startswith("6 calls | 3 allow, 2 deny, 1 modify")


def test_the_mark_reads_without_colour_and_stands_out_with_it(stream: Path) -> None:
    # NO_COLOR with FORCE_COLOR: styled (bold) but no colour, as a terminal under NO_COLOR.
    plain = _show(str(stream), FORCE_COLOR="1", COLUMNS="250", TERM="xterm-256color")
    row = _row(plain, "origin main")
    assert "\x1b[1m⏸ denied (hook: allow) \x1b[0mgit push" in row, repr(row)
    assert "\x1b[33m" not in plain and "\x1b[1;33m" not in plain
    coloured = _show(
        str(stream), FORCE_COLOR="1", COLUMNS="250", TERM="xterm-256color", NO_COLOR=""
    )
    row = _row(coloured, "origin main")
    assert "\x1b[1;33m⏸ denied (hook: allow) \x1b[0mgit push" in row, repr(row)


def test_a_narrow_terminal_keeps_the_mark_before_the_command(stream: Path) -> None:
    text = _show(str(stream), COLUMNS="80")
    (row,) = [line for line in text.splitlines() if "✗ deny" in line and "⏸ denied" in line]
    assert len(row) <= 80


def test_filters_last_and_merged_streams_keep_the_mark(stream: Path, tmp_path: Path) -> None:
    text = _show(str(stream), "-f", "decision:deny")
    assert [line.count("⏸") for line in text.splitlines()[1:-1]] == [1, 1]
    assert "⏸ denied (hook: allow)" in text and "2 of 6 calls" in text
    text = _show(str(stream), "-f", "said:allow", "--last", "2")
    assert "⏸ passed git status" in text and "⏸ denied" not in text
    other = tmp_path / "other.jsonl"
    other.write_bytes(stream.read_bytes().splitlines(keepends=True)[-1])
    text = _show(str(stream), str(other))
    assert text.count("⏸") == 5 and "⏸ denied (hook: allow) git push" in text


def test_json_lines_are_the_records_with_both_answers(stream: Path) -> None:
    """JSON output is the stream's own lines: the hook's `decision` and `held` (what a
    person sent instead, `held.sent.decision`) as the record names them. Passes
    before the text rows learnt the mark: it guards that show keeps passing them on."""
    out = _show(str(stream), "--format", "json", "-f", "held:?*")
    lines = out.splitlines(keepends=True)
    assert lines == stream.read_text().splitlines(keepends=True)[:5]
    first = json.loads(lines[0])
    assert first["decision"] == "allow"
    assert (first["held"]["released_by"], first["held"]["action"]) == ("person", "deny")
    assert first["held"]["sent"]["decision"] == "deny"


def test_hostile_held_fields_are_made_safe(stream: Path, tmp_path: Path) -> None:
    record = records(stream)[4]  # held until the deadline: its release is printed as written
    record["held"]["released_by"] = "x\x1b]0;pwned\x07\u202e"
    hostile = tmp_path / "h.jsonl"
    hostile.write_text(json.dumps(record) + "\n")
    text = _show(str(hostile))
    assert "⏸ x" in text and "pwned" in text
    assert not [c for c in text if c in "\x1b\x07\u202e"]
