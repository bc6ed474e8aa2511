"""Watch's tool-call view (`t`), driven through a real app with Pilot, on records the real tap
wrote: two real guards answering one `git push -f` differently (a deny and a rewrite), by
Claude Code's rule the deny wins. And a snapshot of the view on captured requests."""

from __future__ import annotations

import json
import shutil
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tap.model import HookInfo
from hooktui.tui.app.tool_calls import ToolCallList
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.app.widgets.call_list import CallList
from textual import events

from tests.records import record
from tests.tap.fixtures import request
from tests.tui.conftest import wait_until, write_stream
from tests.tui.test_cli_try_hooks import lay_out, run

SIZE = (120, 36)
COMMANDS = ("git push -f origin main", "ls")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """Two dry runs through the real tap, two real guards each (a few seconds, once)."""
    cwd, home = lay_out(tmp_path_factory.mktemp("toolcalls"))
    path = home / "calls.jsonl"
    for command in COMMANDS:
        res = run(
            "try",
            "--runtime",
            "claude-code",
            "--tool",
            "Bash",
            "--input",
            json.dumps({"command": command}),
            "--stream",
            str(path),
            cwd=cwd,
            home=home,
        )
        assert res.returncode == 0, res.stderr
    return path


@pytest.fixture
def stream(recorded: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(recorded, tmp_path / "s.jsonl"))


def _tool_calls(app: WatchApp) -> ToolCallList:
    return app.main_screen.tool_calls


async def _shown(app: WatchApp, pilot, calls: int) -> ToolCallList:
    await wait_until(pilot, lambda: app.main_screen.feed.loaded)
    await pilot.press("t")
    lst = _tool_calls(app)
    await wait_until(pilot, lambda: not lst.grouping and lst.shown_calls == calls)
    return lst


def _push_lines(recorded: Path) -> tuple[bytes, bytes]:
    """The push's two hook records as the tap wrote them: (the deny, the rewrite)."""
    lines = recorded.read_bytes().splitlines(keepends=True)
    push = [line for line in lines if json.loads(line)["summary"] == COMMANDS[0]]
    deny = next(line for line in push if json.loads(line)["decision"] == "deny")
    rewrite = next(line for line in push if json.loads(line)["decision"] == "modify")
    return deny, rewrite


def _texts(lst: ToolCallList, width: int = 150) -> list[str]:
    return [lst.render_row(row, width).plain for row in range(lst.row_count())]


async def test_t_shows_one_row_per_tool_call_with_its_combined_outcome(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        lst = await _shown(app, pilot, 2)
        screen = app.main_screen
        assert screen.focused is lst and "-tool-calls" in screen.body.classes
        push, ls = (lst.rows.item(row).call for row in range(2))
        assert push.summary == COMMANDS[0] and push.decision == "deny" and push.hooks == 2
        assert push.conflicts == ["disagree", "overridden"]
        assert ls.decision == "allow" and not ls.conflicts
        first = _texts(lst)[0]
        assert "deny" in first and "disagree overridden" in first and first.startswith("▸")
        assert "tool calls" in str(screen.header.render()) and screen.columns.titles is not None
        await pilot.press("t")  # back to the hook calls
        await wait_until(pilot, lambda: screen.focused is screen.calls)
        assert screen.focused is screen.calls and "-tool-calls" not in screen.body.classes
        assert isinstance(screen.shown_list, CallList) and "tool calls" not in str(
            screen.header.render()
        )


async def test_a_call_opens_into_its_hooks_with_the_winner_marked(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        lst = await _shown(app, pilot, 2)
        await pilot.press("g", "space")
        await wait_until(pilot, lambda: lst.row_count() == 4)
        rows = [lst.rows.item(row) for row in range(lst.row_count())]
        assert [r.part is None for r in rows] == [True, False, False, True]
        roles = {r.part.decision: r.part.role for r in rows[1:3]}
        assert roles == {"deny": "decided", "modify": "overridden"}
        texts = _texts(lst)
        assert texts[0].startswith("▾")
        winner = next(t for t in texts[1:3] if "decided" in t)
        loser = next(t for t in texts[1:3] if "overridden" in t)
        assert "★ deny_force_push.py" in winner and "★" not in loser
        assert "drop_force.py" in loser and "modify" in loser
        # The call's row shows the hook that decided it in the detail pane.
        await pilot.press("g")
        await wait_until(pilot, lambda: _detail_reason(app) is not None)
        assert "force-push" in _detail_reason(app)
        # On the overridden hook, enter opens the detail pane on that hook call. Hooks
        # are in the order they started, and Claude Code starts them at once: either.
        overridden = 1 + [r.part.role for r in rows[1:3]].index("overridden")
        await pilot.press(*"j" * overridden)
        await wait_until(pilot, lambda: lst.cursor == overridden)
        assert lst.row.part.role == "overridden"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.main_screen.detail.has_focus_within)
        await wait_until(pilot, lambda: _detail_reason(app) == "dropped --force")
        await pilot.press("escape")  # back to the tool calls
        await wait_until(pilot, lambda: app.main_screen.focused is lst)
        # left on a hook row closes its call, the cursor back on the call's row
        await pilot.press("left")
        await wait_until(pilot, lambda: lst.row_count() == 2)
        assert lst.cursor == 0 and lst.row.part is None
        await pilot.press("right")
        await wait_until(pilot, lambda: lst.row_count() == 4)
        await pilot.press("enter")  # enter on a call's row closes it too
        await wait_until(pilot, lambda: lst.row_count() == 2)


def _detail_reason(app: WatchApp) -> str | None:
    loaded = app.main_screen.detail.loaded
    if loaded is None or loaded.stream_line is not app.main_screen.shown_list.current:
        return None
    return loaded.stream_line.head.reason


@pytest.mark.parametrize(
    ("expr", "summaries"),
    [
        ("call:deny", [COMMANDS[0]]),  # the call's outcome, by the runtime's rule
        ("conflict:overr", [COMMANDS[0]]),
        ("role:overridden", [COMMANDS[0]]),
        ("decision:modify", [COMMANDS[0]]),  # one of its hooks rewrote it
        ("summary:ls", [COMMANDS[1]]),
        ("hooks>1", list(COMMANDS)),
        ("call:ask", []),
    ],
)
async def test_the_filter_chooses_calls(stream: Path, expr: str, summaries: list[str]) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        lst = await _shown(app, pilot, 2)
        await pilot.press("slash", *expr, "enter")
        await wait_until(
            pilot,
            lambda: (
                app.main_screen.view.filter_text == expr
                and not lst.grouping
                and lst.shown_calls == len(summaries)
            ),
        )
        assert [lst.rows.item(r).call.summary for r in range(lst.row_count())] == summaries
        if not summaries:
            assert "no tool call matches" in str(app.main_screen.empty.render())
        await pilot.press("escape")  # the filter dropped: both calls again
        await wait_until(pilot, lambda: not lst.grouping and lst.shown_calls == 2)


async def test_hooks_that_arrive_join_their_call(recorded: Path, tmp_path: Path) -> None:
    lines = recorded.read_bytes().splitlines(keepends=True)
    assert len(lines) == 4
    by_summary = {}
    for line in lines:
        by_summary.setdefault(json.loads(line)["summary"], []).append(line)
    push_first, push_late = by_summary[COMMANDS[0]]
    path = tmp_path / "live.jsonl"
    path.write_bytes(push_first)
    app = WatchApp([str(path)], tz=UTC, live=True)
    async with app.run_test(size=SIZE) as pilot:
        lst = await _shown(app, pilot, 1)
        assert lst.rows.item(0).call.hooks == 1
        with open(path, "ab") as f:  # the second guard's answer, late
            f.write(push_late)
        await wait_until(pilot, lambda: lst.calls and lst.calls[0].hooks == 2, timeout=30)
        assert lst.shown_calls == 1 and lst.rows.item(0).call.decision == "deny"
        assert "disagree overridden" in _texts(lst)[0] and " 2 " in _texts(lst)[0]
        with open(path, "ab") as f:  # another call
            f.write(b"".join(by_summary[COMMANDS[1]]))
        await wait_until(pilot, lambda: lst.shown_calls == 2, timeout=30)
        assert lst.following and lst.row.call.summary == COMMANDS[1]  # the newest


def _captured_push(i: int, second: float, hook: str, **answer) -> object:
    """Claude Code's captured PreToolUse request, one hook's answer to it."""
    req = request("claude_pre_bash")
    req["tool_use_id"] = "toolu_push"
    req["tool_input"] = {"command": "git push -f origin main"}
    return record(
        id=f"p{i}",
        ts=f"2026-12-07T10:00:{second:06.3f}Z",
        duration_ms=120.0,
        tool_call_id="toolu_push",
        exit_code=0,
        session_id=req["session_id"],
        request=req,
        summary="git push -f origin main",
        hook=HookInfo(label="PreToolUse:Bash", argv=["sh", "-c", f"python3 guards/{hook}"]),
        **answer,
    )


def test_tool_call_view_snapshot(snap_compare, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_stream(
        tmp_path / "stream.jsonl",
        [
            _captured_push(1, 0.0, "deny_force_push.py", decision="deny", reason="no force-push"),
            _captured_push(
                2,
                0.02,
                "drop_force.py",
                decision="modify",
                reason="dropped --force",
                updated_input={"command": "git push origin main"},
            ),
        ],
    )
    app = WatchApp(["stream.jsonl"], tz=UTC, live=False)

    async def run_before(pilot) -> None:
        await _shown(app, pilot, 1)
        await pilot.press("g", "space")
        await wait_until(pilot, lambda: _detail_reason(app) == "no force-push")
        await pilot.pause(0.2)  # the header's throttled redraw

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_the_cursor_keeps_its_call_between_the_two_views(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        screen = app.main_screen
        await pilot.press("g")  # the first hook call: one of the push's two
        await wait_until(pilot, lambda: screen.calls.cursor == 0)
        assert screen.calls.current.head.summary == COMMANDS[0]
        lst = await _shown(app, pilot, 2)
        await wait_until(pilot, lambda: lst.row is not None)
        assert lst.row.call.summary == COMMANDS[0] and not lst.following
        await pilot.press("space")
        await wait_until(pilot, lambda: lst.row_count() == 4)
        # onto the overridden hook (its hooks are in the order they started: either)
        roles = [lst.rows.item(row).part.role for row in (1, 2)]
        await pilot.press(*"j" * (1 + roles.index("overridden")))
        await wait_until(pilot, lambda: lst.row is not None and lst.row.part is not None)
        await wait_until(pilot, lambda: lst.row.part.role == "overridden")
        chosen = lst.current.key
        await pilot.press("t")
        await wait_until(pilot, lambda: screen.focused is screen.calls)
        assert screen.calls.current.key == chosen
        assert screen.calls.current.head.decision == "modify"


async def test_a_late_hook_that_changes_the_outcome_changes_what_the_filter_shows(
    recorded: Path, tmp_path: Path
) -> None:
    deny, rewrite = _push_lines(recorded)
    path = tmp_path / "live.jsonl"
    path.write_bytes(rewrite)  # the rewrite alone: the call runs, rewritten
    app = WatchApp([str(path)], tz=UTC, live=True)
    async with app.run_test(size=SIZE) as pilot:
        lst = await _shown(app, pilot, 1)
        await pilot.press("space")  # opened: its hook rows change when a hook joins
        await wait_until(pilot, lambda: lst.row_count() == 2)
        await pilot.press("slash", *"call:deny", "enter")
        await wait_until(pilot, lambda: not lst.grouping and lst.shown_calls == 0)
        await wait_until(
            pilot, lambda: "no tool call matches" in str(app.main_screen.empty.render())
        )
        with open(path, "ab") as f:
            f.write(deny)  # the guard's deny, late: now the call is denied
        await wait_until(pilot, lambda: lst.shown_calls == 1, timeout=30)
        await wait_until(pilot, lambda: lst.row_count() == 3)  # still open, both hooks
        call = lst.rows.item(0).call
        assert call.decision == "deny" and call.hooks == 2
        texts = _texts(lst)
        assert "★" in next(t for t in texts[1:] if "decided" in t)
        await pilot.press("slash", *"call:modify", "enter")
        await wait_until(pilot, lambda: lst.shown_calls == 0)


async def test_keys_typed_in_one_burst_act_in_order(stream: Path) -> None:
    """`jj⏎` read at once: enter opens the hook the two j's reached (the screen's enter
    runs as a key is read, ahead of keys still queued: the list's own enter waits its turn)."""
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        lst = await _shown(app, pilot, 2)
        await pilot.press("g", "space")
        await wait_until(pilot, lambda: lst.row_count() == 4 and lst.cursor == 0)
        second = lst.rows.item(2).part.id  # which hook is second: which one started first
        for key in ("j", "j", "enter"):  # as the terminal's driver hands them over
            event = events.Key(key, "\r" if key == "enter" else key)
            event.set_sender(app)
            app._driver.send_message(event)
        await wait_until(pilot, lambda: app.main_screen.detail.has_focus_within)
        assert lst.cursor == 2 and lst.row_count() == 4 and lst.row.part.id == second


async def test_the_detail_follows_the_winner_when_a_late_hook_takes_the_call(
    recorded: Path, tmp_path: Path
) -> None:
    deny, rewrite = _push_lines(recorded)
    path = tmp_path / "live.jsonl"
    path.write_bytes(rewrite)
    app = WatchApp([str(path)], tz=UTC, live=True)
    async with app.run_test(size=SIZE) as pilot:
        await _shown(app, pilot, 1)
        await wait_until(pilot, lambda: _detail_reason(app) == "dropped --force")
        with open(path, "ab") as f:
            f.write(deny)  # the deny takes the call: the call's row shows its hook now
        await wait_until(
            pilot, lambda: (_detail_reason(app) or "").startswith("force-push"), timeout=30
        )


async def test_a_call_term_in_the_hook_calls_says_where_it_chooses(stream: Path) -> None:
    """`call:deny` typed in the hook-call view matches no hook row (the term is about tool
    calls): the body says so and names the key, rather than an unexplained empty list."""
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        await pilot.press("slash", *"call:deny", "enter")
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == "call:deny")
        await wait_until(pilot, lambda: app.main_screen.empty.display)
        said = str(app.main_screen.empty.render())
        assert "choose tool calls" in said and "t shows them" in said
        await pilot.press("t")  # there, the term chooses the denied call
        lst = _tool_calls(app)
        await wait_until(pilot, lambda: not lst.grouping and lst.shown_calls == 1)
        assert lst.rows.item(0).call.decision == "deny"
