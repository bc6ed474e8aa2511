"""ctrl+p in watch: every action the screen can do in its state, found by the words a user types.

Issue 24: "copy", "mark", "replay" and "break" found nothing (the palette, being the top
screen, made every watch key look disabled).
"""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tui.app.watch import WatchApp
from textual.command import CommandList, CommandPalette

from tests.tui.conftest import varied_records, wait_until, write_stream

SIZE = (120, 36)


@pytest.fixture
def stream(tmp_path: Path) -> Path:
    return write_stream(tmp_path / "s.jsonl", varied_records())


async def _started(app: WatchApp, pilot) -> None:
    await wait_until(
        pilot,
        lambda: (
            app.main_screen.feed.loaded
            and app.main_screen.detail.loaded is not None
            and app.main_screen.calls.size.height > 0
        ),
    )


async def _found(app: WatchApp, pilot, words: str) -> list[str]:
    """Open the palette, type `words`, and return the prompts it lists."""
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*words)
    results = app.screen.query_one(CommandList)
    await wait_until(pilot, lambda: results.option_count > 0, timeout=5)
    await pilot.pause(0.2)  # every provider has answered
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


async def test_copy_is_found_and_copies_the_selected_record(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        prompts = await _found(app, pilot, "copy")
        assert prompts[0].startswith("Copy:"), prompts
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.clipboard != "")
        assert json.loads(app.clipboard)["id"] == app.main_screen.calls.current.head.id


async def test_mark_is_found_and_marks_the_selected_call(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        selected = app.main_screen.calls.current
        prompts = await _found(app, pilot, "mark the")
        assert prompts[0].startswith("Mark:"), prompts
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.main_screen.view.marks))
        assert app.main_screen.view.is_marked(selected)


async def test_replay_is_found_and_asks_for_the_policy(stream: Path) -> None:
    from hooktui.tui.app.watch_replay_scope import ScopedPolicyPrompt

    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        prompts = await _found(app, pilot, "replay")
        assert any(p.startswith("Replay:") for p in prompts), prompts
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ScopedPolicyPrompt), timeout=10)


async def test_break_is_found_and_asks_for_the_breakpoint(stream: Path) -> None:
    from hooktui.tui.app.breakpoints import BreakpointPrompt

    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        prompts = await _found(app, pilot, "break")
        assert prompts[0].startswith("Intercept:"), prompts
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BreakpointPrompt))


async def test_what_the_state_forbids_is_not_offered(stream: Path) -> None:
    """In the patterns view the keys for one call rest: no "copy" there."""
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _started(app, pilot)
        await pilot.press("percent_sign")
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"copy")
        await pilot.pause(0.5)
        results = app.screen.query_one(CommandList)
        prompts = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        assert not any(p.startswith("Copy:") for p in prompts), prompts
