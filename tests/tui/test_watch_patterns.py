"""Watch's patterns view (`%`), driven through a real app with Pilot: every key and behaviour."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tap.model import HookHead, HookInfo
from hooktui.tap.read.index import batch_of
from hooktui.tui.app.help import HelpScreen
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.app.widgets.patterns import GroupList

from tests import records
from tests.tui.conftest import make_record, misfire_records, wait_until, write_stream

SIZE = (120, 36)


@pytest.fixture
def stream(tmp_path: Path) -> Path:
    return write_stream(tmp_path / "s.jsonl", misfire_records())


async def _opened(app: WatchApp, pilot) -> GroupList:
    await wait_until(pilot, lambda: app.main_screen.feed.loaded)
    await pilot.press("percent_sign")
    await _counted(app, pilot)
    return app.main_screen.patterns.list


async def _counted(app: WatchApp, pilot) -> None:
    await wait_until(
        pilot,
        lambda: app.main_screen.patterns.is_open and app.main_screen.patterns._patterns is not None,
    )
    await pilot.pause()


def _name(group) -> str:
    """A hook group as `label · runtime` (every hook here runs `./<label>`); else its key."""
    terms = dict(group.terms)
    return f"{terms['hook']} · {terms['runtime']}" if terms else group.key


def _groups(app: WatchApp) -> list[tuple[str, int]]:
    rows = app.main_screen.patterns.list.groups
    return [(_name(rows.item(i)), rows.item(i).count) for i in range(len(rows))]


FMT, GUARD, NET, NET_CODEX = (
    "fmt · claude-code",
    "guard · claude-code",
    "net-guard · claude-code",
    "net-guard · codex",
)


def _row_text(app: WatchApp, row: int) -> str:
    lst = app.main_screen.patterns.list
    return lst.render_row(row, lst.row_width).plain


def _heading(app: WatchApp) -> str:
    return app.main_screen.patterns.heading.render().plain


async def test_percent_groups_the_shown_calls_by_hook_and_back(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        lst = await _opened(app, pilot)
        assert app.focused is lst and not app.main_screen.calls.display
        # One label, two runtimes: Codex's net-guard is its own hook (and the one failing).
        assert sorted(_groups(app)) == [(FMT, 30), (GUARD, 30), (NET, 24), (NET_CODEX, 6)]
        assert "by hook" in _heading(app) and "90 calls in 4 groups" in _heading(app)
        guard = next(i for i in range(4) if _name(lst.groups.item(i)) == GUARD)
        assert "60.0%" in _row_text(app, guard)  # its deny rate
        net = next(i for i in range(4) if _name(lst.groups.item(i)) == NET_CODEX)
        assert "100%" in _row_text(app, net) and "5.00s" in _row_text(app, net)  # fail-open, p95
        chart = app.main_screen.patterns.chart.render().plain
        assert "calls per minute by decision" in chart and "✗ deny" in chart
        assert "13:50" in chart and not app.main_screen.columns.display
        await pilot.press("percent_sign")  # % again: the calls
        assert (
            not app.main_screen.patterns.is_open
            and app.focused is app.main_screen.calls
            and app.main_screen.columns.display
        )
        await pilot.press("percent_sign", "escape")  # and esc
        assert not app.main_screen.patterns.is_open and app.focused is app.main_screen.calls


async def test_the_filter_applies_and_a_new_filter_counts_again(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        app.main_screen.filter_bar.action_apply_filter("tool:Read")
        await pilot.press("percent_sign")
        await _counted(app, pilot)
        assert _groups(app) == [(NET, 24), (NET_CODEX, 6)]
        # Typed in the filter bar while the patterns are shown: counted again.
        await pilot.press("slash", *" -decision:failure", "enter")
        await wait_until(
            pilot, lambda: app.main_screen.view.filter_text == "tool:Read -decision:failure"
        )
        await _counted(app, pilot)
        assert _groups(app) == [(NET, 24)]
        assert app.focused is app.main_screen.patterns.list  # enter in the bar comes back here


async def test_b_groups_by_the_next_field_and_capital_b_by_the_previous(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _opened(app, pilot)
        await pilot.press("b")
        await _counted(app, pilot)
        assert "by tool" in _heading(app)
        assert sorted(_groups(app)) == [("Bash", 30), ("Edit", 30), ("Read", 30)]
        assert app.main_screen.patterns.titles.render().plain.split()[-1] == "tool"
        await pilot.press("b")
        await _counted(app, pilot)
        assert dict(_groups(app)) == {"allow": 66, "deny": 18, "failure": 6}
        await pilot.press("b")
        await _counted(app, pilot)
        assert dict(_groups(app)) == {"": 72, "git is not allowed here": 18}
        assert "(none)" in _row_text(app, 0)
        await pilot.press("b")
        await _counted(app, pilot)
        assert dict(_groups(app)) == {"": 84, "timeout": 6}
        await pilot.press("B", "B", "B", "B")
        await _counted(app, pilot)
        assert "by hook" in _heading(app)


async def test_s_sorts_by_each_column_and_capital_s_reverses(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _opened(app, pilot)

        def keys() -> list[str]:
            return [key for key, _ in _groups(app)]

        def titles() -> str:
            return app.main_screen.patterns.titles.render().plain

        assert keys() == [FMT, GUARD, NET, NET_CODEX] and "calls ▼" in titles()  # ties: name
        await pilot.press("s")
        assert keys()[0] == GUARD and "deny ▼" in titles()
        await pilot.press("s")
        assert keys()[0] == NET_CODEX and "fail-open ▼" in titles()
        await pilot.press("s")
        assert keys() == [NET_CODEX, NET, GUARD, FMT] and "p95 ▼" in titles()
        await pilot.press("s")
        assert keys() == [FMT, GUARD, NET, NET_CODEX] and "hook ▲" in titles()
        await pilot.press("S")
        assert keys() == [NET_CODEX, NET, GUARD, FMT] and "hook ▼" in titles()
        await pilot.press("s")  # round again: calls, most first
        assert "calls ▼" in titles()


async def test_enter_filters_the_list_to_the_group_in_the_filter_bar(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        app.main_screen.filter_bar.action_apply_filter("tool:Bash or tool:Read")
        lst = await _opened(app, pilot)
        await pilot.press("s")  # by deny rate: the guard first
        assert _name(lst.current) == GUARD
        await pilot.press("enter")
        expected = "(tool:Bash or tool:Read) hook=guard runtime=claude-code command=./guard"
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == expected)
        assert not app.main_screen.patterns.is_open and app.focused is app.main_screen.calls
        assert (
            app.main_screen.filter_bar.has_class("-active")
            and app.main_screen.filter_bar.input.value == expected
        )
        assert len(app.main_screen.view) == 30
        assert {
            app.main_screen.view.line(i).head.hook.label for i in range(len(app.main_screen.view))
        } == {"guard"}
        # The expression is the user's to edit: / opens it with the text in place.
        await pilot.press("slash")
        assert (
            app.focused is app.main_screen.filter_bar.input
            and app.main_screen.filter_bar.input.value == expected
        )


async def test_a_double_click_chooses_a_group(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        lst = await _opened(app, pilot)
        await pilot.click(lst, offset=(5, 1), times=2)  # the second row: guard
        chosen = "hook=guard runtime=claude-code command=./guard"
        await wait_until(pilot, lambda: app.main_screen.view.filter_text == chosen)


async def test_the_view_follows_records_as_they_arrive(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await _opened(app, pilot)
        lst = app.main_screen.patterns.list
        await pilot.press("j")  # the guard, chosen
        new = [make_record(200 + i, hook=HookInfo(label="late", timeout_ms=None)) for i in range(4)]
        write_stream(stream, new)
        await wait_until(pilot, lambda: ("late · claude-code", 4) in _groups(app))
        assert "94 calls in 5 groups" in _heading(app)
        assert _name(lst.current) == GUARD  # the cursor kept its group while rows moved


async def test_arriving_calls_are_counted_in_one_redraw_not_one_per_record(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _opened(app, pilot)
        draws = []
        show = app.main_screen.patterns.show
        app.main_screen.patterns.show = lambda *a: (draws.append(a), show(*a))
        heads = [records.head(id=f"x{i}", hook=HookHead(label="burst")) for i in range(300)]
        for i, head in enumerate(heads):  # 300 appends, as a burst delivers them
            app.main_screen.view.add(batch_of(0, [(10_000_000 + i, head)]))
        await wait_until(pilot, lambda: ("burst · claude-code", 300) in _groups(app))
        assert len(draws) <= 2


async def test_counting_a_big_view_runs_in_a_worker(tmp_path: Path) -> None:
    app = WatchApp([str(tmp_path / "none.jsonl")], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        heads = [
            records.head(id=f"b{i}", decision="deny" if i % 4 else "allow") for i in range(50_000)
        ]
        app.main_screen.view.replace_all(batch_of(0, [(i, h) for i, h in enumerate(heads)]))
        app.main_screen.patterns.action_patterns()
        # The action returns at once: the count is a thread worker's, the view says so.
        assert app.main_screen.patterns._patterns is None and "counting…" in _heading(app)
        assert any(w.group == "patterns" for w in app.workers)
        await _counted(app, pilot)
        assert app.main_screen.patterns._patterns.calls == 50_000 and "counting" not in _heading(
            app
        )


async def test_bad_lines_are_not_calls(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", [make_record(1), make_record(2)], b"not json\n")
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 3)
        await _opened(app, pilot)
        assert _groups(app) == [(GUARD, 2)]


async def test_marked_only_applies(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        await pilot.press("g", "m", "m", "M")  # the first two calls: guard, fmt
        await wait_until(pilot, lambda: app.main_screen.view.marked_only)
        await _opened(app, pilot)
        assert sorted(_groups(app)) == [(FMT, 1), (GUARD, 1)]


async def test_the_keys_for_one_call_rest_while_groups_are_shown(stream: Path) -> None:
    from hooktui.tui.app.palette import commands_for

    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _opened(app, pilot)
        await pilot.press("m", "z", "c", "f")
        assert (
            not app.main_screen.view.marks
            and not app.main_screen.body.detail_full
            and app.main_screen.calls.following
        )
        titles = [title for title, _, _ in commands_for(app, app.screen)]
        assert not any(t.startswith(("Mark", "Copy", "Zoom", "Detail tabs")) for t in titles)
        assert any(t.startswith("Patterns:") for t in titles)


async def test_the_palette_opens_the_view_grouped_by_a_field(stream: Path) -> None:
    from hooktui.tui.app.palette import commands_for

    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        commands = {title: run for title, run, _ in commands_for(app, app.screen)}
        await commands["Patterns: group the shown calls by decision"]()
        await _counted(app, pilot)
        assert "by decision" in _heading(app) and dict(_groups(app))["deny"] == 18
        title = "Patterns: the shown calls grouped by hook, tool, decision, reason or failure"
        assert any(t.startswith(title) for t, _, _ in commands_for(app, app.screen))


async def test_help_lists_the_patterns_keys(stream: Path) -> None:
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        sections = dict(app.screen.sections)
        assert "%" in dict(sections["keys"])
        rows = dict(sections["in the patterns view (%)"])
        for binding in GroupList.BINDINGS:
            assert binding.tooltip in rows.values(), binding.id


async def test_hostile_group_names_are_shown_not_run(tmp_path: Path) -> None:
    label = "guard\x1b]52;c;cHduZWQ=\x07\x1b[2J\u202eexe.sh"
    stream = write_stream(
        tmp_path / "s.jsonl", [make_record(1, hook=HookInfo(label=label, timeout_ms=None))]
    )
    app = WatchApp([str(stream)], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        await _opened(app, pilot)
        text = _row_text(app, 0)
        assert "guard" in text
        assert not any(c in text for c in "\x1b\x07\u202e")
