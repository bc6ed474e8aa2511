"""The replay screen: recorded verdict and replayed verdict side by side, record by record.

Used by `hooktui replay --format tui` (through ReplayApp) and by `hooktui watch`
(its `r` key: `open_replay`). The replay runs in a worker thread; rows appear in
session order as records finish. With watch targets, every save re-runs it.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import ClassVar

import msgspec
from hooktui.replay.compare import CHANGED, FAILED, LOOSENED, REASON_ONLY, SKIPPED, TIGHTENED
from hooktui.replay.report import Report, Result, side
from hooktui.replay.run import Options, replay
from hooktui.replay.session import Entry
from hooktui.tap.model import Record, Verdict
from hooktui.tui.cli.format import (
    decision_label,
    decision_style,
    format_latency,
    one_line,
    pretty_json,
    short_event,
    short_runtime,
)
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    DataTable,
    Footer,
    Input,
    Label,
    Static,
    TabbedContent,
    TabPane,
)

CLASS_LOOK = {
    "unchanged": ("=", "grey50"),
    REASON_ONLY: ("~ reason", "deep_sky_blue1"),
    CHANGED: ("≠", "bold gold1"),
    FAILED: ("✗ failed", "bold dark_orange"),
    SKIPPED: ("- skipped", "grey50 italic"),
}
DIRECTION_LOOK = {
    LOOSENED: ("▲ loosened", "bold white on red3"),
    TIGHTENED: ("▼ tightened", "bold green3"),
}

# The verdicts come before the input, which takes what width is left: at 80
# columns the comparison must still be on screen.
TABS = ("summary", "request", "response", "diff", "raw")
KEYS = (
    ("j / ↓, k / ↑", "next / previous record"),
    ("g, G", "first / last record"),
    ("enter", "detail pane on/off"),
    ("1 … 5", "detail tabs: summary, request, response, diff, raw"),
    ("o", "changes only (changed, failed, reason only, flaky) on/off"),
    ("/", "filter, the language of watch (checked as you type)"),
    ("esc", "clear the filter, then close the detail"),
    ("c", "copy the selected record and both verdicts as JSON"),
    ("r", "re-run the replay (with --watch: every save re-runs)"),
    ("q", "quit (from watch: back to watch)"),
)

COLUMNS = ("line", "rt", "tool", "before", "after", "result", "input")
TOOL_WIDTH = 14


def verdict_cell(verdict: Verdict | None) -> Text:
    if verdict is None:
        return Text("-", style="grey50")
    label = decision_label(verdict.decision, verdict.effect)
    if verdict.decision == "failure" and verdict.failure:
        label += f" {verdict.failure}"
    return Text(
        label,
        style=decision_style(
            verdict.decision, verdict.lets_through and verdict.decision == "failure"
        ),
    )


def result_cell(r: Result) -> Text:
    word, style = CLASS_LOOK.get(r.cls, (r.cls, ""))
    text = Text(word, style=style)
    if r.direction:
        word, style = DIRECTION_LOOK[r.direction]
        text.append(" ")
        text.append(word, style=style)
    if r.flaky:
        text.append(" ⚡flaky", style="bold magenta")
    return text


def _verdict_block(title: str, verdict: Verdict | None) -> Text:
    text = Text()
    text.append(f"{title}\n", style="bold underline")
    if verdict is None:
        text.append("not run\n", style="grey50")
        return text
    text.append("decision  ")
    text.append(
        decision_label(verdict.decision, verdict.effect), style=decision_style(verdict.decision)
    )
    text.append("\n")
    if verdict.reason:
        text.append(f"reason    {verdict.reason}\n")
    if verdict.context:
        text.append(f"context   {verdict.context}\n")
    if verdict.decision == "failure":
        text.append(f"failure   {verdict.failure} (the runtime {verdict.effect or '?'})\n")
        if verdict.failure_detail:
            text.append(f"why       {verdict.failure_detail}\n")
    return text


def summary_text(r: Result) -> Text:
    rec = r.record
    text = Text()
    text.append(f"{rec.tool_name or rec.native_event or rec.event}", style="bold")
    text.append(f"  {short_runtime(rec.runtime)} {short_event(rec.event)}  line {r.line}\n")
    if rec.summary:
        text.append(f"{one_line(rec.summary)}\n")
    text.append("result    ")
    text.append(r.cls.replace("_", " "), style=CLASS_LOOK.get(r.cls, ("", ""))[1])
    if r.direction:
        text.append(" ")
        text.append(*DIRECTION_LOOK[r.direction])
    if r.flaky:
        text.append(" flaky", style="bold magenta")
    text.append("\n")
    if r.cls == SKIPPED:
        text.append(f"skipped   {r.skip_reason}\n", style="italic")
        text.append("\n")
        text.append_text(_verdict_block("recorded", r.before))
        return text
    if r.argv:
        text.append(f"ran       {one_line(' '.join(r.argv))}\n", style="grey62")
    text.append("\n")
    text.append_text(_verdict_block("recorded", r.before))
    text.append("\n")
    text.append_text(_verdict_block("replayed", r.after))
    if r.flaky:
        text.append("\nruns      ", style="bold magenta")
        text.append(", ".join(v.decision for v in r.runs) + "\n")
    return text


def response_text(r: Result) -> Text:
    text = Text()
    out = r.outcome
    if out is None:
        text.append("not run\n", style="grey50")
    else:
        status = f"signal {out.signal}" if out.signal is not None else f"exit {out.exit_code}"
        if out.timed_out:
            status += " (timed out)"
        text.append("replayed  ", style="bold")
        text.append(f"{status}  {format_latency(out.duration_ms)}\n")
        if out.spawn_error:
            text.append(f"spawn     {out.spawn_error}\n", style="red")
        text.append("stdout\n", style="bold underline")
        text.append(out.stdout.decode("utf-8", "replace") or "(empty)\n")
        text.append("\nstderr\n", style="bold underline")
        text.append(out.stderr.decode("utf-8", "replace") or "(empty)\n")
    rec = r.record
    text.append("\nrecorded  ", style="bold")
    status = f"signal {rec.signal}" if rec.signal is not None else f"exit {rec.exit_code}"
    text.append(f"{status}  {format_latency(rec.duration_ms)}\n")
    text.append("stdout\n", style="bold underline")
    text.append(
        (rec.stdout.data if rec.stdout.encoding == "utf-8" else f"({rec.stdout.encoding})")
        or "(empty)\n"
    )
    text.append("\nstderr\n", style="bold underline")
    text.append(
        (rec.stderr.data if rec.stderr.encoding == "utf-8" else f"({rec.stderr.encoding})")
        or "(empty)\n"
    )
    return text


def diff_text(r: Result) -> Text:
    """The recorded and replayed verdicts as JSON, line by line: - recorded, + replayed."""
    import difflib

    before = pretty_json(side(r.before)).splitlines()
    after = pretty_json(side(r.after)).splitlines() if r.after is not None else []
    text = Text()
    for line in difflib.unified_diff(before, after, "recorded", "replayed", lineterm="", n=50):
        style = ""
        if line.startswith("+") and not line.startswith("+++"):
            style = "green3"
        elif line.startswith("-") and not line.startswith("---"):
            style = "red1"
        elif line.startswith("@@"):
            style = "grey50"
        text.append(line + "\n", style=style)
    if not text:
        text.append("recorded and replayed verdicts are the same\n", style="grey50")
    return text


def result_json(r: Result) -> str:
    """The record with its replayed verdict, for `c` and the raw tab."""
    data = {
        "line": r.line,
        "class": r.cls,
        "direction": r.direction,
        "flaky": r.flaky,
        "skip_reason": r.skip_reason,
        "before": side(r.before),
        "after": side(r.after) if r.after is not None else None,
        "record": msgspec.to_builtins(r.record),
    }
    return pretty_json(data)


class ReplayScreen(Screen):
    """Before and after, side by side; `o` toggles changes only."""

    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    ReplayScreen #replay-header { height: auto; padding: 0 1; background: $boost; }
    ReplayScreen #replay-filter { display: none; height: 3; }
    ReplayScreen #replay-filter.visible { display: block; }
    ReplayScreen #replay-filter-error { display: none; color: $error; padding: 0 1; height: 1; }
    ReplayScreen #replay-filter-error.visible { display: block; }
    ReplayScreen DataTable { height: 1fr; }
    ReplayScreen #replay-detail { height: 1fr; display: none; }
    ReplayScreen #replay-detail.visible { display: block; }
    ReplayScreen .replay-tab { padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "first", "First", show=False),
        Binding("G", "last", "Last", show=False),
        Binding("enter", "detail", "Detail"),
        Binding("o", "changes_only", "Changes only"),
        Binding("slash", "filter", "Filter"),
        Binding("escape", "clear", "Clear", show=False),
        Binding("c", "copy", "Copy"),
        # r too: inside watch, its own `r` would open a second replay on top.
        Binding("r,R", "rerun", "Re-run"),
        Binding("q", "close", "Quit"),
        Binding("question_mark", "help", "Help", show=False),
        *(Binding(str(i), f"tab('{tab}')", show=False) for i, tab in enumerate(TABS, 1)),
    ]

    def __init__(
        self,
        entries: list[Entry],
        options: Options,
        *,
        session: str = "",
        bad_lines: int = 0,
        watch: list[str] | None = None,
        standalone: bool = False,
    ) -> None:
        super().__init__()
        self.standalone = standalone  # True: closing quits the app (hooktui replay)
        self.entries = entries
        self.options = options
        self.session_label = session
        self.bad_lines = bad_lines
        self.watch_targets = list(watch or [])
        self.results: list[Result] = []
        self.report: Report | None = None  # the last complete run
        self.generation = 0
        self.running = False
        self.changes_only = False
        self.filter_expr = ""
        self._predicate = None
        self._cancel = threading.Event()
        self._shown: list[Result] = []
        self._keep_row = 0

    # --- layout -----------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="replay-header")
        yield Input(
            placeholder="filter: tool:Bash decision:deny …  (enter to apply, esc to clear)",
            id="replay-filter",
        )
        yield Label("", id="replay-filter-error")
        table = DataTable(id="replay-table", cursor_type="row", zebra_stripes=False)
        yield table
        with TabbedContent(id="replay-detail"):
            for tab in TABS:
                with TabPane(tab, id=f"tab-{tab}"):
                    with VerticalScroll():
                        yield Static(id=f"detail-{tab}", classes="replay-tab")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for name in COLUMNS:
            table.add_column(name, key=name)
        self.query_one(DataTable).focus()
        self._start()

    # --- running ----------------------------------------------------------

    def _start(self) -> None:
        if self.watch_targets:
            self.run_worker(self._watch_loop(), exclusive=True, group="replay")
        else:
            self.run_worker(self._run_once(), exclusive=True, group="replay")

    async def _run_once(self) -> None:
        self.generation += 1
        # A re-run refills the table: put the cursor back where it was once it can.
        self._keep_row = self.query_one(DataTable).cursor_row if self.results else 0
        self.results = []
        self.running = True
        self._refresh_table()
        self._cancel = threading.Event()
        generation = self.generation

        def add(result: Result) -> None:
            self.app.call_from_thread(self._add_result, generation, result)

        report = await asyncio.to_thread(
            replay,
            self.entries,
            self.options,
            session=self.session_label,
            bad_lines=self.bad_lines,
            on_result=add,
            cancel=self._cancel,
        )
        if generation == self.generation:
            self.report = report
            self.results = list(report.results)
            self.running = False
            self._refresh_table()
            self.post_message(ReplayScreen.Finished(generation))

    async def _watch_loop(self) -> None:
        from hooktui.tui.cli.replay_watch import await_change, snapshot

        while True:
            since = snapshot(self.watch_targets)
            await self._run_once()
            await await_change(self.watch_targets, since)

    def _add_result(self, generation: int, result: Result) -> None:
        if generation != self.generation:
            return
        self.results.append(result)
        if self._visible(result):
            self._add_row(result)
            self._shown.append(result)
            if self._keep_row and len(self._shown) - 1 == self._keep_row:
                self.query_one(DataTable).move_cursor(row=self._keep_row)
        self._update_header()

    class Finished(Message):
        """A run is complete; `screen.report` holds it."""

        def __init__(self, generation: int) -> None:
            super().__init__()
            self.generation = generation

    # --- table ------------------------------------------------------------

    def _visible(self, r: Result) -> bool:
        if self.changes_only and r.cls not in (CHANGED, FAILED, REASON_ONLY) and not r.flaky:
            return False
        if self._predicate is not None and not self._predicate(r.record):
            return False
        return True

    def _add_row(self, r: Result) -> None:
        rec = r.record
        table = self.query_one(DataTable)
        tool = rec.tool_name or rec.native_event or short_event(rec.event)
        if len(tool) > TOOL_WIDTH:
            tool = tool[: TOOL_WIDTH - 1] + "…"
        table.add_row(
            Text(str(r.line), style="grey50"),
            Text(short_runtime(rec.runtime)),
            Text(tool, style="bold"),
            verdict_cell(r.before),
            verdict_cell(r.after) if r.cls != SKIPPED else Text("-", style="grey50"),
            result_cell(r),
            Text(one_line(rec.summary)[:80]),
            key=str(r.index),
        )

    def _refresh_table(self) -> None:
        table = self.query_one(DataTable)
        keep = self.current_result
        table.clear()
        self._shown = []
        for r in self.results:
            if self._visible(r):
                self._add_row(r)
                self._shown.append(r)
        if keep is not None and keep in self._shown:
            table.move_cursor(row=self._shown.index(keep))
        self._update_header()
        self._update_detail()

    def _update_header(self) -> None:
        report = Report(results=self.results, repeat=self.options.repeat)
        c = report.counts()
        text = Text()
        against = (
            f"`{self.options.policy}`" if self.options.policy is not None else "recorded hooks"
        )
        text.append(f"replay {self.session_label} ", style="bold")
        text.append(f"against {against}")
        if self.watch_targets:
            text.append(f"  watching ({self.generation})", style="italic")
        text.append("\n")
        done = len(self.results)
        text.append(f"{len(self._shown)}/{done} shown", style="bold")
        if self.running:
            text.append(f"  running {done}/{len(self.entries)}", style="italic gold1")
        for label, key, style in (
            ("unchanged", "unchanged", ""),
            ("changed", CHANGED, CLASS_LOOK[CHANGED][1]),
            ("loosened", LOOSENED, "bold red1"),
            ("tightened", TIGHTENED, "bold green3"),
            ("reason only", REASON_ONLY, CLASS_LOOK[REASON_ONLY][1]),
            ("failed", FAILED, CLASS_LOOK[FAILED][1]),
            ("skipped", SKIPPED, ""),
        ):
            text.append(f"  {label} ")
            text.append(str(c[key]), style=style if c[key] else "grey50")
        if self.options.repeat > 1:
            text.append("  flaky ")
            text.append(str(c["flaky"]), style="bold magenta" if c["flaky"] else "grey50")
        if self.changes_only:
            text.append("  [changes only]", style="reverse")
        if self.filter_expr:
            text.append(f"  filter: {self.filter_expr}", style="italic")
        self.query_one("#replay-header", Static).update(text)

    @property
    def current_result(self) -> Result | None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        if not self._shown or row is None or not 0 <= row < len(self._shown):
            return None
        return self._shown[row]

    @on(DataTable.RowHighlighted)
    def _highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self._update_detail()

    @on(DataTable.RowSelected)
    def _selected(self, _event: DataTable.RowSelected) -> None:
        self.action_detail()

    def _update_detail(self) -> None:
        detail = self.query_one("#replay-detail")
        if not detail.has_class("visible"):
            return
        r = self.current_result
        if r is None:
            for tab in TABS:
                self.query_one(f"#detail-{tab}", Static).update("")
            return
        self.query_one("#detail-summary", Static).update(summary_text(r))
        request = r.record.request
        self.query_one("#detail-request", Static).update(
            Text(request if isinstance(request, str) else pretty_json(request))
        )
        self.query_one("#detail-response", Static).update(response_text(r))
        self.query_one("#detail-diff", Static).update(diff_text(r))
        self.query_one("#detail-raw", Static).update(Text(result_json(r)))

    # --- actions ----------------------------------------------------------

    def action_cursor_down(self) -> None:
        self.query_one(DataTable).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(DataTable).action_cursor_up()

    def action_first(self) -> None:
        self.query_one(DataTable).move_cursor(row=0)

    def action_last(self) -> None:
        table = self.query_one(DataTable)
        table.move_cursor(row=max(0, table.row_count - 1))

    def action_detail(self) -> None:
        detail = self.query_one("#replay-detail")
        detail.toggle_class("visible")
        self._update_detail()

    def action_tab(self, tab: str) -> None:
        detail = self.query_one("#replay-detail", TabbedContent)
        if not detail.has_class("visible"):
            self.action_detail()
        detail.active = f"tab-{tab}"

    def action_help(self) -> None:
        self.app.push_screen(ReplayHelp())

    def action_changes_only(self) -> None:
        self.changes_only = not self.changes_only
        self._refresh_table()

    def action_filter(self) -> None:
        box = self.query_one("#replay-filter", Input)
        box.add_class("visible")
        box.value = self.filter_expr
        box.focus()

    def action_clear(self) -> None:
        box = self.query_one("#replay-filter", Input)
        detail = self.query_one("#replay-detail")
        if box.has_class("visible") or self.filter_expr:
            box.remove_class("visible")
            self.query_one("#replay-filter-error").remove_class("visible")
            self.filter_expr = ""
            self._predicate = None
            self._refresh_table()
        elif detail.has_class("visible"):
            detail.remove_class("visible")
        self.query_one(DataTable).focus()

    @on(Input.Changed, "#replay-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        from hooktui.tap.read.filter import FilterError, compile_filter

        error = self.query_one("#replay-filter-error", Label)
        try:
            compile_filter(event.value)
        except FilterError as exc:
            error.update(f"{exc.message} (at {exc.position})")
            error.add_class("visible")
            return
        error.remove_class("visible")

    @on(Input.Submitted, "#replay-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        from hooktui.tap.read.filter import FilterError, compile_filter

        try:
            predicate = compile_filter(event.value)
        except FilterError:
            return  # shown inline already; keep the box open
        self.filter_expr = event.value.strip()
        self._predicate = predicate if self.filter_expr else None
        event.input.remove_class("visible")
        self._refresh_table()
        self.query_one(DataTable).focus()

    def action_copy(self) -> None:
        r = self.current_result
        if r is not None:
            self.app.copy_to_clipboard(result_json(r))
            self.notify(f"copied line {r.line} as JSON")

    def action_rerun(self) -> None:
        if not self.watch_targets:
            self._cancel.set()
            self.run_worker(self._run_once(), exclusive=True, group="replay")

    def action_close(self) -> None:
        self._cancel.set()
        if self.standalone:
            # Quit before the run ended: report what was replayed so far.
            partial = Report(
                session=self.session_label,
                policy=self.options.policy,
                repeat=self.options.repeat,
                bad_lines=self.bad_lines,
                results=list(self.results),
            )
            self.app.exit(self.report if self.report is not None else partial)
        else:
            self.app.pop_screen()


class ReplayHelp(ModalScreen[None]):
    """`?`: the replay screen's keys."""

    DEFAULT_CSS = """
    ReplayHelp { align: center middle; }
    ReplayHelp > Static { width: auto; height: auto; border: round $accent; padding: 1 2; background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        text = Text("hooktui replay: keys\n\n", style="bold")
        for key, what in KEYS:
            text.append(f"{key:<14}", style="bold")
            text.append(f"{what}\n")
        text.append("\nbefore = the recorded verdict, after = the replayed one.\n", style="italic")
        text.append("▲ loosened: stopped before, let through now.  ▼ tightened: the reverse.")
        yield Static(text)


class PolicyPrompt(ModalScreen[str | None]):
    """Asks for the policy command (empty: each record's recorded hook)."""

    DEFAULT_CSS = """
    PolicyPrompt { align: center middle; }
    PolicyPrompt > Vertical { width: 80%; height: auto; border: round $accent; padding: 1 2; background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, count: int, default: str = "") -> None:
        super().__init__()
        self.count = count
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(
                f"Replay {self.count} calls against which hook command? (run through sh -c)"
            )
            yield Label("Leave empty to re-run each call's recorded hook.", classes="dim")
            yield Input(value=self.default, placeholder="python3 /path/to/guard.py", id="policy")
            with Horizontal():
                yield Label("enter: replay   esc: cancel")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


def open_replay(
    app: App, records: list[Record], *, session: str = "", policy: str | None = None
) -> None:
    """What `hooktui watch`'s `r` key calls: ask for the policy, then push the screen.

    `records` are the shown or marked calls, in the order to replay them.
    """
    entries = [Entry(line=i + 1, record=rec) for i, rec in enumerate(records)]

    def start(answer: str | None) -> None:
        if answer is None:
            return
        command = answer.strip() or None
        if command is not None:
            from hooktui.replay.policy import anchor_policy

            command = anchor_policy(command, os.getcwd())
        app.push_screen(ReplayScreen(entries, Options(policy=command), session=session))

    if policy is not None:
        start(policy)
    else:
        app.push_screen(PolicyPrompt(len(records)), start)


# `r` in watch on a huge stream: replay the newest calls, not all 100k of them.
WATCH_REPLAY_LIMIT = 10_000


def replay_watch_selection(app: App, entries: list, paths: list[str]) -> None:
    """`hooktui watch`'s `r`: the replay screen for `entries` (its marked or shown
    calls: `hooktui.tap.read.view.Entry`, read back from `paths` by source and offset)."""
    import os

    from hooktui.tap.read.reader import read_record_at

    if not entries:
        app.notify("nothing to replay: no call is shown", severity="warning")
        return
    if len(entries) > WATCH_REPLAY_LIMIT:
        app.notify(f"replay: the newest {WATCH_REPLAY_LIMIT:,} of {len(entries):,} calls")
        entries = entries[-WATCH_REPLAY_LIMIT:]
    records = []
    for entry in entries:
        try:
            record = read_record_at(paths[entry.source], entry.offset)
        except OSError:
            continue
        if isinstance(record, Record):
            records.append(record)
    if not records:
        app.notify("replay: the selected calls could not be read back", severity="error")
        return
    label = os.path.basename(paths[0]) if len(paths) == 1 else f"{len(paths)} streams"
    app.notify(f"replay {len(records):,} calls: which hook command?")
    open_replay(app, records, session=label)


class ReplayApp(App[Report | None]):
    """`hooktui replay --format tui`: the replay screen on its own."""

    TITLE = "hooktui replay"

    def __init__(
        self,
        entries: list[Entry],
        options: Options,
        *,
        session: str = "",
        bad_lines: int = 0,
        watch: list[str] | None = None,
    ) -> None:
        super().__init__()
        self._screen_args = (entries, options, session, bad_lines, watch)

    def on_mount(self) -> None:
        entries, options, session, bad_lines, watch = self._screen_args
        self.push_screen(
            ReplayScreen(
                entries, options, session=session, bad_lines=bad_lines, watch=watch, standalone=True
            )
        )


def run_app(job, watch: list[str]) -> Report:
    """Run the screen for a prepared replay job; returns the last complete report."""
    import os

    app = ReplayApp(
        job.entries,
        job.options,
        session=os.path.basename(job.session.path),
        bad_lines=job.session.bad_lines,
        watch=watch,
    )
    report = app.run()
    return report if report is not None else Report(session=app.title)
