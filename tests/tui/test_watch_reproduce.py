"""Reproduce one call from watch (issue 11): `C` the shell command, `E` edit and re-run.

Sessions are recorded through the real tap with a real guard; the re-runs run the
guard as a real process; the copied command runs under the real `sh`.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.replay.reproduce import shell_command
from hooktui.replay.session import load_session
from hooktui.tap.model import Blob, HookInfo
from hooktui.tui.app.help import HelpScreen
from hooktui.tui.app.palette import commands_for
from hooktui.tui.app.reproduce_screens import ReproduceScreen, ShellCommandScreen
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.present import reproduce as reproduce_view
from textual import events
from textual.widgets import Static, TextArea

from tests.conftest import process_alive
from tests.replay.helpers import PYTHON, V1, record_session, write_guard
from tests.tui.conftest import make_record, wait_until, write_stream
from tests.waits import WAIT_S


@pytest.fixture
def guarded(tmp_path: Path) -> Path:
    """Two Claude Code calls recorded through the tap: `rm -rf build` denied, `ls` allowed."""
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    workdir = tmp_path / "project"
    workdir.mkdir()
    record_session(stream, "claude-code", [PYTHON, str(guard)], ["rm -rf build", "ls"], workdir)
    return stream


async def _ready(pilot, app: WatchApp) -> None:
    await wait_until(
        pilot, lambda: app.main_screen.feed.loaded and app.main_screen.detail.loaded is not None
    )


async def _open_reproduce(pilot, app: WatchApp) -> ReproduceScreen:
    await _ready(pilot, app)
    await pilot.press("g", "E")
    await wait_until(pilot, lambda: isinstance(app.screen, ReproduceScreen) and app.screen.ready)
    return app.screen


def _answer(screen: ReproduceScreen) -> str:
    static = screen.query_one("#answer", Static)
    width = screen.app.size.width
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None)
    console.print(static.content)
    return console.export_text()


async def test_copy_as_shell_command(guarded: Path, tmp_path: Path):
    record = load_session(str(guarded)).records[0].record
    app = WatchApp([str(guarded)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await _ready(pilot, app)
        await pilot.press("g", "C")
        await wait_until(pilot, lambda: isinstance(app.screen, ShellCommandScreen))
        shown = app.screen.query_one(TextArea).text
        assert shown == shell_command(record) == app.clipboard
        assert shown.startswith("cd -- ") and "| env HOOKTUI_REPLAY=1 " in shown
        await pilot.press("w")  # saved as a script: a wrapped line stays whole
        script = Path(app.screen.saved)
        await pilot.press("escape")
        assert not isinstance(app.screen, ShellCommandScreen)
    # The command, run by a shell elsewhere, gives the recorded answer: the denial.
    for argv in (["sh", "-c", shown], ["sh", str(script)]):
        proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, timeout=60)
        assert proc.returncode == record.exit_code
        assert proc.stdout.decode() == record.stdout.data and '"deny"' in record.stdout.data
    script.unlink()


async def test_edit_request_and_rerun(guarded: Path):
    app = WatchApp([str(guarded)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await _open_reproduce(pilot, app)
        editor = screen.query_one("#request", TextArea)
        assert '"command": "rm -rf build"' in editor.text
        assert "not run yet" in _answer(screen)
        # As recorded first: the same answer.
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.result is not None and not screen.running)
        assert (screen.result.cls, screen.result.after.decision) == ("unchanged", "deny")
        assert "the same answer as recorded" in _answer(screen)
        # Edited: the guard lets `ls -la` through; the answer says so beside the recorded one.
        editor.load_text(editor.text.replace("rm -rf build", "ls -la"))
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.ran_text is not None and "ls -la" in screen.ran_text)
        result = screen.result
        assert result.record.request["tool_input"]["command"] == "ls -la"
        assert (result.cls, result.direction, result.after.decision) == (
            "changed",
            "loosened",
            "allow",
        )
        text = _answer(screen)
        assert "recorded" in text and "edited" in text and "loosened" in text
        decision_row = next(line for line in text.splitlines() if "decision" in line)
        assert "≠" in decision_row and "deny" in decision_row and "allow" in decision_row
        assert "exit 0" in text
        # Not JSON any more: sent as text, and said.
        editor.load_text("{not json")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.ran_text == "{not json" and not screen.running)
        assert "sent as text" in _answer(screen)
        # ctrl+o puts the recorded request back; esc goes back to watch.
        await pilot.press("ctrl+o")
        assert '"command": "rm -rf build"' in editor.text
        await pilot.press("escape")
        assert not isinstance(app.screen, ReproduceScreen) and app.is_running


async def test_the_edited_request_as_a_shell_command(guarded: Path, tmp_path: Path):
    app = WatchApp([str(guarded)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await _open_reproduce(pilot, app)
        editor = screen.query_one("#request", TextArea)
        editor.load_text(editor.text.replace("rm -rf build", "ls -la"))
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: isinstance(app.screen, ShellCommandScreen))
        command = app.clipboard
    proc = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == b""  # the guard allows `ls -la`


SLOW = """\
import os, sys, time
sys.stdin.read()
flag = os.environ.get("SLOW_FLAG") or os.path.join(os.path.dirname(__file__), "slow-now")
if os.path.exists(flag):
    with open(flag, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(120)
"""


@pytest.mark.parametrize("how", ["quit", "back"])
async def test_a_running_hook_is_killed_on_quit_and_on_back(tmp_path: Path, how: str):
    hook = tmp_path / "slow.py"
    hook.write_text(SLOW)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(hook)], ["ls"], tmp_path)
    flag = tmp_path / "slow-now"
    flag.write_text("")  # from now on the hook sleeps, writing its pid first
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await _open_reproduce(pilot, app)
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: flag.read_text().isdigit())
        pid = int(flag.read_text())
        assert screen.running and process_alive(pid)
        if how == "quit":
            await pilot.press("ctrl+c")
        else:
            await pilot.press("escape")
            assert app.is_running and not isinstance(app.screen, ReproduceScreen)
    deadline = time.monotonic() + WAIT_S
    while process_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not process_alive(pid)


def _footer_keys(app) -> set[str]:
    return {b.binding.key for b in app.screen.active_bindings.values() if b.binding.show}


async def test_keys_in_help_palette_and_footer(guarded: Path):
    app = WatchApp([str(guarded)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await _ready(pilot, app)
        titles = [title for title, _, _ in commands_for(app, app.screen)]
        assert any(t.startswith("Command: copy the call as a shell command") for t in titles)
        assert any(t.startswith("Re-run: edit the call's request") for t in titles)
        assert not {"C", "E"} & _footer_keys(app)  # the list's footer is full
        # In the detail pane, the footer shows both keys.
        await pilot.press("enter")
        await pilot.pause()
        assert {"C", "E"} <= _footer_keys(app)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = {key for _, rows in app.screen.sections for key, _ in rows}
        assert {"C", "E"} <= keys


async def test_at_80_columns_the_footer_keeps_quit_and_the_keys_still_work(guarded: Path):
    app = WatchApp([str(guarded)], tz=UTC, live=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        shown = _footer_keys(app)
        assert "q" in shown and not {"C", "E"} & shown
        await pilot.press("E")
        await wait_until(pilot, lambda: isinstance(app.screen, ReproduceScreen))
        await pilot.press("escape")
        await pilot.press("C")
        await wait_until(pilot, lambda: isinstance(app.screen, ShellCommandScreen))


# A guard as a shell line (no path in it, so the snapshot is the same everywhere).
SH_GUARD = (
    'grep -q \'rm -rf\' && echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse",'
    ' "permissionDecision": "deny", "permissionDecisionReason": "destructive"}}\'; exit 0'
)


def test_snapshot_reproduce_screen(
    snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # The run's own duration differs run to run: the one varying field, fixed here.
    monkeypatch.setattr(reproduce_view, "run_time", lambda ms: "12ms")
    answer = subprocess.run(
        ["sh", "-c", SH_GUARD],
        input=b"rm -rf build",
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    record = make_record(
        0,
        command="rm -rf build",
        decision="deny",
        reason="destructive",
        cwd="/",
        hook=HookInfo(label="guard", argv=["sh", "-c", SH_GUARD], cwd="/", timeout_ms=5000),
        stdout=Blob(data=answer, length=len(answer), sha256="ab" * 32),
    )
    write_stream(tmp_path / "stream.jsonl", [record])
    app = WatchApp(["stream.jsonl"], tz=UTC, live=False)

    async def run_before(pilot) -> None:
        screen = await _open_reproduce(pilot, app)
        editor = screen.query_one("#request", TextArea)
        editor.load_text(editor.text.replace("rm -rf build", "ls build"))
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.result is not None and not screen.running)
        assert screen.result.after.decision == "allow"

    assert snap_compare(app, terminal_size=(120, 30), run_before=run_before)


def test_without_colour_the_verdicts_carry_their_marks():
    """NO_COLOR: a red deny would be a dim grey word; the list's marks say it instead."""
    from hooktui.tap.canonical import Verdict
    from rich.console import Console

    table = reproduce_view.verdict_table(
        None, Verdict(decision="deny", reason="destructive"), edited=False, color=False
    )
    console = Console(width=80, record=True, color_system=None)
    console.print(table)
    text = console.export_text()
    assert "✗ deny" in text and "not run yet" in text and "destructive" in text


async def test_e_opens_at_once_and_keys_typed_while_it_loads_never_reach_the_request(tmp_path):
    # A Write call carrying a 4 MB file: reading the record, importing replay and laying
    # out the text took seconds on a loaded machine, and the keys typed meanwhile were
    # queued, then went to the text area once it had focus: into the request's JSON.
    content = "\n".join(f"    row_{i} = compute({i}, 'abc')" for i in range(120_000))
    request = {
        "session_id": "sess-1",
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "/home/dev/big.py", "content": content},
    }
    big = make_record(1, tool_name="Write", request=request)
    stream = write_stream(tmp_path / "s.jsonl", [make_record(0), big])
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(pilot, app)
        assert app.main_screen.calls.focus_model.line.head.tool_name == "Write"
        typed = [events.Key(c, c) for c in "zq"]  # typed with E, delivered once it is up
        # Sent as a terminal sends it: a Pilot press would wait for the app to idle.
        app._driver.send_message(events.Key("E", "E"))
        deadline = time.monotonic() + WAIT_S
        while not isinstance(app.screen, ReproduceScreen):
            assert time.monotonic() < deadline, "E opened nothing"
            await asyncio.sleep(0.005)
        screen = app.screen
        assert not getattr(screen, "ready", True)  # open at once, the request still loading
        await wait_until(pilot, lambda: screen.ready, timeout=WAIT_S * 4)
        editor = screen.query_one("#request", TextArea)
        for key in typed:
            key.set_sender(app)
            app.post_message(key)
        await pilot.pause()
        assert editor.text == screen.original and "zq" not in editor.text
        assert isinstance(app.screen, ReproduceScreen)  # `q` did not leave or quit either
        assert not editor.soft_wrap  # a 4 MB line is not wrapped
        await pilot.press("home", "x")  # typed now, it edits
        assert editor.text == "x" + screen.original
