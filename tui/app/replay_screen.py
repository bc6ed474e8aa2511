"""The replay screen: recorded verdict and replayed verdict side by side, record by record.

Used by `hooktui replay --format tui` (through ReplayApp) and by `hooktui watch`
(its `r` key: `open_replay`). It is laid out from parts that own their state:
the runs (replay_run.py: the worker, re-runs on `R` or each save), the result
list (widgets/result_list.py), where its cursor goes on its own
(replay_cursor.py: the first change, `n` / `N`), the filter bar and changes only
(replay_filter.py) and the detail pane with its size (replay_detail.py). Rows
appear in session order as records finish. The screen itself owns the header,
where focus goes, and closing.
"""

from __future__ import annotations

from typing import ClassVar

from hooktui.replay.report import Result
from hooktui.replay.run import Options
from hooktui.replay.session import SessionRecord
from hooktui.tap.read import filter_terms
from hooktui.tui.app.help import HelpScreen, bindings_of, help_rows
from hooktui.tui.app.palette import BindingCommands
from hooktui.tui.app.replay_cursor import ChangeCursor
from hooktui.tui.app.replay_detail import DetailSize
from hooktui.tui.app.replay_filter import ResultFilter
from hooktui.tui.app.replay_keys import BINDINGS, NOTES
from hooktui.tui.app.replay_run import ReplayRun
from hooktui.tui.app.widgets.detail import DetailPane, DetailScroll, focus_now
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.app.widgets.result_list import ResultList
from hooktui.tui.present.columns import REPLAY_COLUMNS
from hooktui.tui.present.replay_header import HeaderState, header_text
from hooktui.tui.present.replay_tabs import TAB_TITLES, build_tabs, left_out_text, result_json
from hooktui.tui.present.rows import titles_row
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static


class ReplayScreen(Screen):
    """Before and after, side by side; `o` toggles changes only.

    The detail pane is always there, under the list: the screen opens on the
    first changed call with what changed in it shown, since "what changed and
    why" is the whole question (`n` / `N`: the next / previous one, replay_cursor).
    `z` gives the pane the screen, `+`/`-` resize it.
    """

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
        self.standalone = standalone  # True: closing quits the app (hooktui replay)
        self.run = ReplayRun(
            records,
            options,
            session=session,
            bad_lines=bad_lines,
            watch=list(watch or []),
            left_out=dict(left_out or {}),
            left_out_hint=left_out_hint,
            starting=self._run_starting,
            added=self._result_added,
            finished=self._refresh_list,
        )

    # --- layout -----------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.header = Static(id="replay-header")
        self.columns = Static(id="columns")
        self.filter_bar = ResultFilter(self._refresh_list, lambda: self.list, id="replay-filter")
        self.list = ResultList(self.filter_bar.visible, id="replay-list")
        self.detail = DetailPane(TAB_TITLES, id="replay-detail")
        self.cursor = ChangeCursor(self.list, self.notify)
        self.detail_size = DetailSize(self, self.detail, self.list)
        yield self.run
        yield self.header
        yield self.columns
        yield self.list
        yield self.detail
        yield self.filter_bar
        yield Footer()

    def on_mount(self) -> None:
        focus_now(self.list)
        self.detail.clear("replaying…" if self.run.records else "nothing to replay")
        self.detail_size.apply()
        self.run.start()

    # --- the runs, in the list --------------------------------------------

    def _run_starting(self) -> None:
        self.cursor.run_starting()
        self._refresh_list()

    def _result_added(self, result: Result) -> None:
        if self.list.results.add(result.index, result):
            self.cursor.shown(result)
        self._update_header()

    def _refresh_list(self) -> None:
        self.cursor.before_refill()
        self.list.results.replace((r.index, r) for r in self.run.results)
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
            self.detail.show((self.run.generation, r.index), lambda: build_tabs(r, color))

    def on_result_list_opened(self, message: ResultList.Opened) -> None:
        if self.current_result is not None:
            self.detail.focus_now()  # to scroll a long one; enter or esc comes back

    def on_detail_pane_back(self, message: DetailPane.Back) -> None:
        if self.detail_size.full:  # the list is hidden: back to it means out of full screen
            self.detail_size.toggle_full()
        focus_now(self.list)

    def _update_header(self) -> None:
        run, options = self.run, self.run.options
        self.header.update(
            header_text(
                HeaderState(
                    results=run.results,
                    repeat=options.repeat,
                    policy=options.policy,
                    session=run.session_label,
                    generation=run.generation if run.watch_targets else None,
                    shown=len(self.list.shown),
                    total=len(run.records),
                    running=run.running,
                    changes_only=self.filter_bar.changes_only,
                    filter_expr=self.filter_bar.filter_expr,
                    left_out=left_out_text(run.left_out, run.left_out_hint),
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
        self.detail_size.toggle_full()

    def action_detail_size(self, step: int) -> None:
        self.detail_size.step(step)

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
        self.filter_bar.toggle_changes_only()

    def action_next_change(self, step: int) -> None:
        self.cursor.next_change(step)

    def action_filter(self) -> None:
        self.filter_bar.open()

    def action_clear(self) -> None:
        self.filter_bar.drop()
        self.detail_size.leave_full()  # the list gets the focus: it must be seen (as in watch)
        focus_now(self.list)

    def action_copy(self) -> None:
        r = self.current_result
        if r is not None:
            self.app.copy_to_clipboard(result_json(r))
            self.notify(f"copied line {r.line} as JSON")

    def action_rerun(self) -> None:
        if not self.run.watch_targets:
            self.run.rerun()

    def action_quit_app(self) -> None:
        self.run.stop()
        self.app.exit(self.run.report_so_far() if self.standalone else None)

    def action_close(self) -> None:
        self.run.stop()
        if self.standalone:
            self.app.exit(self.run.report_so_far())
        else:
            self.app.pop_screen()

    def palette_allows(self, action: str) -> bool:
        if action in ("copy", "tab"):
            return self.current_result is not None
        if action == "clear":
            return (
                bool(self.filter_bar.filter_expr)
                or self.detail_size.full
                or self.focused is not self.list
            )
        if action == "rerun":
            return not self.run.watch_targets
        if action == "next_change":
            return self.cursor.any_change_shown()
        return True
