"""Watch's hooks screen (`H`), driven with Pilot over real settings files and a real stream.

The project's .claude/settings.json runs three of the real guards (Copilot and the
Continue CLI read it too, as guests), a settings.local.json Claude Code rejects sits
beside it; `hooktui install` wraps them and `hooktui try` sends two Bash calls
through the real tap, so the stream holds what a session would have recorded.
"""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import msgspec
import pytest
from hooktui.tap.model import RecordHead
from hooktui.tap.read.filter import compile_filter
from hooktui.tui.app.help import HelpScreen
from hooktui.tui.app.hooks_screen import HooksScreen
from hooktui.tui.app.palette import commands_for
from hooktui.tui.app.watch import WatchApp

from tests.tui.conftest import wait_until
from tests.tui.test_cli_try_hooks import lay_out, run

SIZE = (160, 45)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The project, its HOME and its stream (four calls of two Bash guards), made once."""
    project, home = lay_out(tmp_path_factory.mktemp("hooks"))
    stream = home / "stream.jsonl"
    installed = run("install", "claude-code", "--stream", str(stream), cwd=project, home=home)
    assert installed.returncode == 0, installed.stderr
    (project / ".claude" / "settings.local.json").write_text('{"hooks": ')
    for command in ("git push -f", "ls"):
        tool_input = json.dumps({"command": command})
        args = ("--runtime", "claude-code", "--tool", "Bash", "--input", tool_input)
        tried = run("try", *args, "--stream", str(stream), cwd=project, home=home)
        assert tried.returncode == 0, tried.stderr
    # A user-level hook added since: not wrapped, so hooktui never sees it run.
    user = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "python3 notify.py"}]}]}}
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps(user))
    return project, home, stream


@pytest.fixture
def session(recorded, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Watch run from the project's folder, with its HOME: the stream's path."""
    project, home, stream = recorded
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.chdir(project)
    return stream


async def _opened(app: WatchApp, pilot) -> HooksScreen:
    await wait_until(pilot, lambda: app.main_screen.feed.loaded and len(app.main_screen.view) == 4)
    await pilot.press("H")
    await wait_until(pilot, lambda: isinstance(app.screen, HooksScreen) and app.screen.hooks.loaded)
    return app.screen


def _rows(screen: HooksScreen) -> list[tuple[str, str, int]]:
    """(runtime, guard script, calls) per row, in the screen's order."""
    rows = screen.hooks.rows
    out = []
    for i in range(len(rows)):
        hook = rows.item(i)
        calls = hook.usage.calls if hook.usage is not None else 0
        out.append((hook.runtime, Path(hook.command.split()[-1]).name, calls))
    return out


def _to(screen: HooksScreen, runtime: str, script: str) -> None:
    row = next(i for i, r in enumerate(_rows(screen)) if r[:2] == (runtime, script))
    screen.hooks.focus_model.move_to(row)


def _text(widget) -> str:
    return str(widget.render())


async def test_every_configured_hook_with_its_calls_and_the_rejected_file(session: Path) -> None:
    app = WatchApp([str(session)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _opened(app, pilot)
        rows = _rows(screen)
        # Each guard for each runtime that reads the file, in the runtime's order.
        assert {r[0] for r in rows} == {"claude-code", "copilot", "continue-cli"}
        assert len(rows) == 11  # the user's hook: Claude Code's and the Continue CLI's
        calls = {r[:2]: r[2] for r in rows}
        assert calls[("claude-code", "deny_force_push.py")] == 2
        assert calls[("claude-code", "drop_force.py")] == 2
        assert calls[("claude-code", "allow_all.py")] == 0
        assert calls[("copilot", "deny_force_push.py")] == 0  # Claude Code's calls, not Copilot's
        deny = next(h for h in screen.listing.inventory.hooks if h.command.endswith("push.py"))
        assert deny.usage.denies == 1
        title = _text(screen.heading)
        assert f"hooktui hooks in {Path.cwd()}" in title and "stream.jsonl" in title
        assert "11 hooks of 3 runtimes" in title
        files = _text(screen.files)
        assert "rejected" in files and "settings.local.json" in files and "not valid JSON" in files
        _to(screen, "claude-code", "allow_all.py")
        await pilot.pause()
        assert "hooks.PreToolUse[2]" in _text(screen.line)
        row = screen.hooks.render_row(screen.hooks.cursor, 160).plain
        assert "never fired" in row and "allow_all.py" in row


async def test_s_sorts_by_the_next_column_and_the_titles_say_which(session: Path) -> None:
    app = WatchApp([str(session)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _opened(app, pilot)
        assert "# ▲" in _text(screen.titles) and "sorted by order" in _text(screen.heading)
        _to(screen, "copilot", "allow_all.py")
        await pilot.press("s")
        assert screen.hooks.sort == "calls"
        assert "calls ▼" in _text(screen.titles) and "sorted by calls" in _text(screen.heading)
        counts = [r[2] for r in _rows(screen)]
        assert counts == sorted(counts, reverse=True) and counts[0] == 2
        # The cursor stays on its hook as the rows move.
        assert screen.hooks.current.runtime == "copilot"
        assert screen.hooks.current.command.endswith("allow_all.py")
        await pilot.press("S")
        assert [r[2] for r in _rows(screen)] == sorted(counts)
        assert "calls ▲" in _text(screen.titles)
        await pilot.press("s", "s")
        assert screen.hooks.sort == "deny" and "deny ▼" in _text(screen.titles)
        assert _rows(screen)[0][:2] == ("claude-code", "deny_force_push.py")


async def test_enter_filters_the_calls_to_exactly_that_hook(session: Path) -> None:
    app = WatchApp([str(session)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _opened(app, pilot)
        _to(screen, "claude-code", "deny_force_push.py")
        await pilot.press("enter")
        main = app.main_screen
        await wait_until(pilot, lambda: app.screen is main and len(main.view) == 2)
        expr = main.view.filter_text
        assert expr.startswith("runtime=claude-code native=PreToolUse command=")
        assert "deny_force_push.py" in expr
        shown = [main.view.line(i).head for i in range(len(main.view))]
        assert all(h.hook.argv[-1].endswith("deny_force_push.py") for h in shown)
        assert sorted(h.decision for h in shown) == ["allow", "deny"]
        # The expression is the filter bar's, to edit: `/` opens it with it.
        await pilot.press("slash")
        assert main.filter_bar.input.value == expr
        # The same expression over the stream's every record selects the same calls.
        keep = compile_filter(expr)
        lines = session.read_bytes().splitlines()
        assert sum(keep(msgspec.json.decode(line, type=RecordHead)) for line in lines) == 2


async def test_a_hook_that_never_fired_says_so_and_stays(session: Path) -> None:
    app = WatchApp([str(session)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _opened(app, pilot)
        _to(screen, "claude-code", "allow_all.py")
        await pilot.pause()
        assert all("Filter to hook" not in title for title, *_ in commands_for(app, screen))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert any("never fired" in n.message for n in app._notifications)
        assert app.main_screen.view.filter_text == ""
        _to(screen, "claude-code", "notify.py")
        await pilot.press("enter")
        assert any("not wrapped" in n.message for n in app._notifications)
        assert "not wrapped" in screen.hooks.render_row(screen.hooks.cursor, 160).plain
        _to(screen, "claude-code", "drop_force.py")
        await pilot.pause()
        assert any("Filter to hook" in title for title, *_ in commands_for(app, screen))


async def test_esc_and_q_close_the_screen_and_help_lists_its_keys(session: Path) -> None:
    app = WatchApp([str(session)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _opened(app, pilot)
        await pilot.press("escape")
        assert app.screen is app.main_screen and app.main_screen.view.filter_text == ""
        screen = await _opened(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = dict(row for _, rows in app.screen.sections for row in rows)
        assert "s" in keys and "esc / q" in keys
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("q")  # closes the screen, it does not quit
        assert app.screen is app.main_screen and app.is_running
        await pilot.press("question_mark")
        titles = [title for title, _ in app.screen.sections]
        assert "in the hooks screen (H)" in titles


async def test_r_reads_the_streams_again_as_calls_arrive(
    session: Path, recorded, tmp_path: Path
) -> None:
    project, home, _ = recorded
    stream = tmp_path / "live.jsonl"
    stream.write_bytes(session.read_bytes())
    app = WatchApp([str(stream)], tz=UTC, live=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _opened(app, pilot)
        before = {r[:2]: r[2] for r in _rows(screen)}
        assert before[("claude-code", "allow_all.py")] == 0
        tool_input = json.dumps({"file_path": "a.py", "old_string": "a", "new_string": "b"})
        args = ("--runtime", "claude-code", "--tool", "Edit", "--input", tool_input)
        tried = run("try", *args, "--stream", str(stream), cwd=project, home=home)
        assert tried.returncode == 0, tried.stderr
        await pilot.press("r")
        await wait_until(pilot, lambda: not screen.reading)
        calls = {r[:2]: r[2] for r in _rows(screen)}
        assert calls[("claude-code", "allow_all.py")] == 1
        assert calls[("claude-code", "deny_force_push.py")] == 2


async def test_a_double_click_on_a_hook_filters_to_it(session: Path) -> None:
    app = WatchApp([str(session)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _opened(app, pilot)
        row = next(
            i for i, r in enumerate(_rows(screen)) if r[:2] == ("claude-code", "drop_force.py")
        )
        await pilot.click("#hooks-list", offset=(4, row), times=2)
        main = app.main_screen
        await wait_until(pilot, lambda: app.screen is main and len(main.view) == 2)
        assert "drop_force.py" in main.view.filter_text
