"""The replay screen: recorded verdict and replayed verdict side by side, record by record.

Used by `hooktui replay --format tui` (through ReplayApp) and by `hooktui watch`
(its `r` key: `open_replay`). The replay runs in a worker thread; rows appear in
session order as records finish. With watch targets, every save re-runs it.
It is built from the parts watch uses: the Line-API list, the detail pane with
tab builders, the filter bar, the help screen and the palette from the bindings.
"""

from __future__ import annotations

import asyncio
import threading
from typing import ClassVar

from hooktui.replay.report import Report, Result
from hooktui.replay.run import Options, replay
from hooktui.replay.session import SessionRecord
from hooktui.tap.read import filter_terms
from hooktui.tui.app.help import HelpScreen, bindings_of, help_rows
from hooktui.tui.app.palette import BindingCommands
from hooktui.tui.app.replay_cursor import ChangeCursor
from hooktui.tui.app.replay_keys import BINDINGS, NOTES
from hooktui.tui.app.widgets.detail import DetailPane, DetailScroll, focus_now
from hooktui.tui.app.widgets.filter_bar import FilterBar
from hooktui.tui.app.widgets.keyed_rows import KeyedRows
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.app.widgets.result_list import ResultList
from hooktui.tui.present.columns import REPLAY_COLUMNS
from hooktui.tui.present.replay_header import HeaderState, header_text
from hooktui.tui.present.replay_tabs import TAB_TITLES, build_tabs, left_out_text, result_json
from hooktui.tui.present.rows import titles_row
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static


class ReplayScreen(ChangeCursor, Screen):
    """Before and after, side by side; `o` toggles changes only.

    The detail pane is always there, under the list: the screen opens on the
    first changed call with what changed in it shown, since "what changed and
    why" is the whole question (`n` / `N`: the next / previous one, replay_cursor).
    `z` gives the pane the screen, `+`/`-` resize it.
    """

    # Which share of the screen the detail pane takes, by `+` / `-` steps (as in watch).
    DETAIL_SHARES = (25, 35, 45, 55, 65, 75, 85)
    DETAIL_SHARE = 45

    COMMANDS = {BindingCommands}

    BINDINGS: ClassVar[list[BindingType]] = BINDINGS

    def __init__(
        self,
        records: list[SessionRecord],
        options: Options,
        *,
        session: str = "",
        bad_lines: int = 0,
        watch: list[str] | None = None,
        standalone: bool = False,
        left_out: dict[str, int] | None = None,
        left_out_hint: str = "",
    ) -> None:
        super().__init__()
        # Records of other hooks than the one the policy replaces (replay.hooks).
        self.left_out = dict(left_out or {})
        self.left_out_hint = left_out_hint
        self.standalone = standalone  # True: closing quits the app (hooktui replay)
        self.records = records
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
        self._keep: int | None = None  # the result index to put the cursor back on
        # Until the user picks a row, the cursor goes to the first change as it arrives.
        self._to_first_change = True
        self._placed: object = None  # the anchor of the screen's own last move
        self.detail_share = self.DETAIL_SHARE
        self.detail_full = False

    # --- layout -----------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.header = Static(id="replay-header")
        self.columns = Static(id="columns")
        self.list = ResultList(self._visible, id="replay-list")
        self.detail = DetailPane(TAB_TITLES, id="replay-detail")
        self.filter_bar = FilterBar(id="replay-filter")
        yield self.header
        yield self.columns
        yield self.list
        yield self.detail
        yield self.filter_bar
        yield Footer()

    def on_mount(self) -> None:
        focus_now(self.list)
        self.detail.clear("replaying…" if self.records else "nothing to replay")
        self.list.focus_model.on_change.append(self._cursor_changed)
        self._size_detail()
        self._start()

    @property
    def _shown(self) -> list[Result]:
        return self.list.shown

    @property
    def _rows(self) -> KeyedRows:
        return self.list.results

    # --- running ----------------------------------------------------------

    def _start(self) -> None:
        if self.watch_targets:
            self.run_worker(self._watch_loop(), exclusive=True, group="replay")
        else:
            self.run_worker(self._run_once(), exclusive=True, group="replay")

    async def _run_once(self) -> None:
        self.generation += 1
        # A re-run refills the list: put the cursor back where it was once it can.
        current = self.current_result
        chosen = current is not None and not self._to_first_change
        self._keep = current.index if chosen else None
        if not chosen:  # this run's first change, not the last run's, is the one to show
            self.list.focus_model.anchor = self._placed = None
        self.results = []
        self.running = True
        self._refresh_list()
        self._cancel = threading.Event()
        generation = self.generation

        def add(result: Result) -> None:
            self.app.call_from_thread(self._add_result, generation, result)

        report = await asyncio.to_thread(
            replay,
            self.records,
            self.options,
            session=self.session_label,
            bad_lines=self.bad_lines,
            on_result=add,
            cancel=self._cancel,
        )
        report.left_out = dict(self.left_out)
        report.left_out_hint = self.left_out_hint
        if generation == self.generation:
            self.report = report
            self.results = list(report.results)
            self.running = False
            self._refresh_list()
            self.post_message(ReplayScreen.Finished(generation))

    async def _watch_loop(self) -> None:
        from hooktui.replay.watch import await_change, snapshot

        while True:
            since = snapshot(self.watch_targets)
            await self._run_once()
            await await_change(self.watch_targets, since)

    def _add_result(self, generation: int, result: Result) -> None:
        if generation != self.generation:
            return
        self.results.append(result)
        if self._rows.add(result.index, result):
            if self._keep == result.index:
                self._move_to(result.index)
            elif self._to_first_change and self._is_change(result) and not self._on_change():
                self._move_to(result.index)
        self._update_header()

    class Finished(Message):
        """A run is complete; `screen.report` holds it."""

        def __init__(self, generation: int) -> None:
            super().__init__()
            self.generation = generation

    # --- list -------------------------------------------------------------

    def _visible(self, r: Result) -> bool:
        if self.changes_only and not self._is_change(r):
            return False
        if self._predicate is not None and not self._predicate(r.record):
            return False
        return True

    def _refresh_list(self) -> None:
        focus = self.list.focus_model
        if focus.anchor is None and focus.selected_row is not None:
            focus.move_to(focus.row)  # the row in view is the one to come back to
            self._placed = focus.anchor
        self._rows.replace((r.index, r) for r in self.results)
        self._update_header()

    def on_line_list_row_width(self, message: LineList.RowWidth) -> None:
        self.columns.update(titles_row(REPLAY_COLUMNS, message.width))

    def on_resize(self) -> None:
        self._update_header()  # the policy is cut to the header's width

    def on_line_list_highlighted(self, message: LineList.Highlighted) -> None:
        r = self.current_result
        if r is None:
            self.detail.clear("nothing selected")
        else:
            color = not self.app.no_color
            self.detail.show((self.generation, r.index), lambda: build_tabs(r, color))

    def on_result_list_opened(self, message: ResultList.Opened) -> None:
        if self.current_result is not None:
            self.detail.focus_now()  # to scroll a long one; enter or esc comes back

    def on_detail_pane_back(self, message: DetailPane.Back) -> None:
        if self.detail_full:  # the list is hidden: back to it means out of full screen
            self.action_detail_full()
        focus_now(self.list)

    def _update_header(self) -> None:
        self.header.update(
            header_text(
                HeaderState(
                    results=self.results,
                    repeat=self.options.repeat,
                    policy=self.options.policy,
                    session=self.session_label,
                    generation=self.generation if self.watch_targets else None,
                    shown=len(self._shown),
                    total=len(self.records),
                    running=self.running,
                    changes_only=self.changes_only,
                    filter_expr=self.filter_expr,
                    left_out=left_out_text(self.left_out, self.left_out_hint),
                    # Before the first layout it will span the screen (padding 0 1).
                    width=(self.header.size.width or self.app.size.width) - 2,
                )
            )
        )

    @property
    def current_result(self) -> Result | None:
        return self.list.current

    # --- actions ----------------------------------------------------------

    def action_tab(self, tab: str) -> None:
        self.detail.action_tab(tab)
        self.detail.place_underline()

    def action_detail_full(self) -> None:
        self.detail_full = not self.detail_full
        self._size_detail()
        if self.detail_full and self.focused is self.list:
            self.detail.focus_now()
        elif not self.detail_full and self.focused is not self.list:
            focus_now(self.list)

    def action_detail_size(self, step: int) -> None:
        shares = self.DETAIL_SHARES
        here = min(range(len(shares)), key=lambda i: abs(shares[i] - self.detail_share))
        self.detail_full = False
        self.detail_share = shares[max(0, min(len(shares) - 1, here + step))]
        self._size_detail()

    def _size_detail(self) -> None:
        # A height set here outranks the stylesheet; full screen hides the list.
        self.set_class(self.detail_full, "-detail-full")
        self.detail.styles.height = "1fr" if self.detail_full else f"{self.detail_share}%"
        self.detail.place_underline()

    def action_help(self) -> None:
        # The list's enter first: with esc, 1-5, z, + and - it is how the detail is read.
        ordered = [*ResultList.BINDINGS, *bindings_of(ReplayScreen, ResultList)]
        keys = help_rows(ordered, skip={"replay.interrupt"})
        pane = help_rows(bindings_of(DetailPane, DetailScroll))
        sections = [
            ("keys", keys),
            ("in the detail pane", pane),
            ("filter", filter_terms.help_rows()),
        ]
        self.app.push_screen(HelpScreen("hooktui replay — keys", sections, NOTES))

    def action_changes_only(self) -> None:
        self.changes_only = not self.changes_only
        self._refresh_list()

    def action_filter(self) -> None:
        bar = self.filter_bar
        bar.add_class("-active")
        bar.input.value = self.filter_expr
        focus_now(bar.input)

    def action_clear(self) -> None:
        bar = self.filter_bar
        if bar.has_class("-active") or self.filter_expr:
            bar.remove_class("-active")
            self.filter_expr = ""
            self._predicate = None
            self._refresh_list()
        if self.detail_full:  # the list gets the focus: it must be seen (as in watch)
            self.detail_full = False
            self._size_detail()
        focus_now(self.list)

    @on(FilterBar.Done)
    def _filter_done(self, message: FilterBar.Done) -> None:
        predicate, error = self.filter_bar.check()
        if error:
            return  # shown under the bar already; stay to fix it
        self.filter_expr = self.filter_bar.input.value.strip()
        self._predicate = predicate if self.filter_expr else None
        self.filter_bar.remove_class("-active")
        self._refresh_list()
        focus_now(self.list)

    def action_copy(self) -> None:
        r = self.current_result
        if r is not None:
            self.app.copy_to_clipboard(result_json(r))
            self.notify(f"copied line {r.line} as JSON")

    def action_rerun(self) -> None:
        if not self.watch_targets:
            self._cancel.set()
            self.run_worker(self._run_once(), exclusive=True, group="replay")

    def action_quit_app(self) -> None:
        self._cancel.set()
        self.app.exit(self._report_so_far() if self.standalone else None)

    def _report_so_far(self) -> Report:
        if self.report is not None:
            return self.report
        # Quit before the run ended: report what was replayed so far.
        return Report(
            session=self.session_label,
            policy=self.options.policy,
            repeat=self.options.repeat,
            bad_lines=self.bad_lines,
            results=list(self.results),
            left_out=dict(self.left_out),
            left_out_hint=self.left_out_hint,
        )

    def action_close(self) -> None:
        self._cancel.set()
        if self.standalone:
            self.app.exit(self._report_so_far())
        else:
            self.app.pop_screen()

    def palette_allows(self, action: str) -> bool:
        if action in ("copy", "tab"):
            return self.current_result is not None
        if action == "clear":
            return bool(self.filter_expr) or self.detail_full or self.focused is not self.list
        if action == "rerun":
            return not self.watch_targets
        if action == "next_change":
            return any(map(self._is_change, self._shown))
        return True
