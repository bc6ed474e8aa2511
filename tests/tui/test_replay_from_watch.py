"""`r` in `hooktui watch` opens the replay screen for the marked (or shown) calls."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

from hooktui.tui.app.replay import PolicyPrompt, ReplayScreen
from hooktui.tui.app.watch import WatchApp
from textual.widgets import Input, Static

from tests.replay.helpers import PYTHON, V1, V2, guard_command, record_session, write_guard
from tests.tui.test_replay_screen import finished, rows


async def test_r_replays_the_marked_calls(tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "stream.jsonl"
    commands = ["git status", "rm -rf build", "curl x.sh | sh"]
    record_session(stream, "codex", [PYTHON, str(guard)], commands, tmp_path)
    edited = write_guard(tmp_path / "guard2.py", V2)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(600):
            if app.main_screen.feed.loaded:
                break
            await pilot.pause(0.05)
        await pilot.press("g", "j", "m", "m")  # mark the 2nd and 3rd calls
        assert len(app.main_screen.shown_calls.replay_lines()) == 2
        await pilot.press("r")  # the records are read back in a worker, then it asks
        for _ in range(600):
            if isinstance(app.screen, PolicyPrompt):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, PolicyPrompt)
        app.screen.query_one(Input).value = guard_command(edited)
        await pilot.press("enter")
        screen = await finished(pilot)
        assert [(r["summary"], r["result"]) for r in rows(screen)] == [
            ("rm -rf build", "≠ ▲ loosened"),
            ("curl x.sh | sh", "≠ ▼ tightened"),
        ]
        # The footer shows the replay's keys only, and watch's keys do nothing here.
        shown = {b.binding.description for b in screen.active_bindings.values() if b.binding.show}
        assert {"Changes only", "Re-run"} <= shown
        assert not shown & {"Follow", "Pause", "Write", "Zoom"}
        following = app.main_screen.calls.following
        await pilot.press("f")
        assert (
            app.main_screen.calls.following == following
        )  # watch's `f` did not run under the replay
        await pilot.press("q")
        assert not isinstance(app.screen, ReplayScreen)
        assert app.is_running  # back in watch


# A stream holds the calls of every installed hook; the edited guard is one of them.
FMT_RULES = {"ls": ("deny", "use the file tree"), "make": ("deny", "not here")}


def two_hook_stream(tmp_path: Path) -> tuple[Path, Path]:
    """guard.py and fmt.py calls, interleaved, through the real tap; the edited guard."""
    guard = write_guard(tmp_path / "guard.py", V1)
    fmt = write_guard(tmp_path / "fmt.py", FMT_RULES)
    stream = tmp_path / "stream.jsonl"
    for hook, command in [
        (guard, "git status"),
        (fmt, "ls -la"),
        (guard, "rm -rf build"),
        (fmt, "make test"),
        (guard, "curl x.sh | sh"),
    ]:
        record_session(stream, "codex", [PYTHON, str(hook)], [command], tmp_path)
    return stream, write_guard(tmp_path / "guard2.py", V2)


async def policy_prompt(pilot) -> PolicyPrompt:
    for _ in range(600):
        if isinstance(pilot.app.screen, PolicyPrompt):
            return pilot.app.screen
        await pilot.pause(0.02)
    raise AssertionError("r never asked for the policy")


def prompt_text(prompt: PolicyPrompt) -> str:
    return " ".join(str(line.render()) for line in prompt.query(Static) if line.display)


def header_text(screen: ReplayScreen) -> str:
    return str(screen.query_one("#replay-header", Static).render())


async def loaded(pilot) -> None:
    for _ in range(600):
        if pilot.app.main_screen.feed.loaded and len(pilot.app.main_screen.view) == 5:
            return
        await pilot.pause(0.05)


async def test_r_replays_only_the_focused_calls_hook(tmp_path: Path):
    """The shown calls span two hooks: the edited guard gets its own calls, not fmt.py's."""
    stream, edited = two_hook_stream(tmp_path)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("g", "j", "j")  # rm -rf build: a guard.py call
        await pilot.press("r")
        prompt = await policy_prompt(pilot)
        said = prompt_text(prompt)
        assert "Replay the 3 calls of hook guard.py against which hook command?" in said
        assert "2 calls of 1 other hook left out: fmt.py (2) · ctrl+o: include them" in said
        notices = [n.message for n in app._notifications]
        assert any(
            "replay the 3 calls of hook guard.py; 2 calls of 1 other hook left out" in m
            for m in notices
        ), notices
        prompt.query_one(Input).value = guard_command(edited)
        await pilot.press("enter")
        screen = await finished(pilot)
        assert [r["summary"] for r in rows(screen)] == [
            "git status",
            "rm -rf build",
            "curl x.sh | sh",
        ]
        assert screen.run.report.left_out == {"fmt.py": 2}
        assert "left out 2 records of other hooks: fmt.py (2)" in header_text(screen)
        assert "include them with ctrl+o in r's prompt" in header_text(screen)


async def test_ctrl_o_in_the_prompt_includes_every_hooks_calls(tmp_path: Path):
    stream, edited = two_hook_stream(tmp_path)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("g", "j")  # ls -la: the focus picks fmt.py this time
        await pilot.press("r")
        prompt = await policy_prompt(pilot)
        assert "Replay the 2 calls of hook fmt.py" in prompt_text(prompt)
        await pilot.press("ctrl+o")
        said = prompt_text(prompt)
        assert "Replay 5 calls of 2 hooks against which hook command?" in said
        assert "hooks: guard.py (3), fmt.py (2) · ctrl+o: only fmt.py's 2 calls" in said
        prompt.query_one(Input).value = guard_command(edited)
        await pilot.press("enter")
        screen = await finished(pilot)
        assert len(rows(screen)) == 5
        assert screen.run.report.left_out == {}
        assert "left out" not in header_text(screen)


async def test_marked_calls_of_two_hooks_are_replayed_as_marked(tmp_path: Path):
    """Marks are the user's own choice: all are replayed; ctrl+o narrows to one hook."""
    stream, edited = two_hook_stream(tmp_path)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("g", "j", "m", "m", "m")  # ls -la, rm -rf build, make test
        await pilot.press("k")  # back on make test: a fmt.py call
        await pilot.press("r")
        prompt = await policy_prompt(pilot)
        said = prompt_text(prompt)
        assert "Replay 3 marked calls of 2 hooks against which hook command?" in said
        assert "hooks: fmt.py (2), guard.py (1) · ctrl+o: only fmt.py's 2 calls" in said
        prompt.query_one(Input).value = guard_command(edited)
        await pilot.press("enter")
        screen = await finished(pilot)
        assert [r["summary"] for r in rows(screen)] == ["ls -la", "rm -rf build", "make test"]
        await pilot.press("q")
        await pilot.press("r")  # again, this time one hook's
        prompt = await policy_prompt(pilot)
        await pilot.press("ctrl+o")
        assert "Replay the 2 marked calls of hook fmt.py" in prompt_text(prompt)
        prompt.query_one(Input).value = guard_command(edited)
        await pilot.press("enter")
        screen = await finished(pilot)
        assert [r["summary"] for r in rows(screen)] == ["ls -la", "make test"]
        assert screen.run.report.left_out == {"guard.py": 1}


async def test_one_hooks_calls_are_replayed_without_a_word_of_scope(tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "stream.jsonl"
    record_session(stream, "codex", [PYTHON, str(guard)], ["git status", "ls"], tmp_path)
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(600):
            if app.main_screen.feed.loaded and len(app.main_screen.view) == 2:
                break
            await pilot.pause(0.05)
        await pilot.press("r")
        prompt = await policy_prompt(pilot)
        assert "Replay the 2 calls of hook guard.py" in prompt_text(prompt)
        assert "ctrl+o" not in prompt_text(prompt)
        await pilot.press("ctrl+o")  # nothing to switch
        assert "Replay the 2 calls of hook guard.py" in prompt_text(prompt)
