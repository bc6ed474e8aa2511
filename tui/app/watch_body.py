"""The watch screen's body: what it shows in which state, and the detail pane's size.

Held calls first, then the calls over the detail pane; instead of them the empty
state (no call shown) or the patterns view (`%`). The detail pane takes a share of
the body (`+` / `-`) or all of it (`z`).
"""

from __future__ import annotations

from typing import ClassVar

from hooktui.tui.app.detail_keys import detail_bindings, next_share
from hooktui.tui.app.keys import Key
from hooktui.tui.app.widgets.detail import DetailPane, focus_now
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.present.first_screen import DETAIL_SHARE
from textual import events
from textual.containers import Vertical
from textual.reactive import var
from textual.widget import Widget


class WatchBody(Vertical):
    """The body's layout and the detail pane's size.

    Depends on: its parts (held calls, the call list, the empty state, the detail
    pane, the patterns view) and the calls' column titles over it (hidden when the
    calls are).
    """

    KEYS: ClassVar[tuple[Key, ...]] = tuple(Key(b) for b in detail_bindings("watch"))

    detail_share: var[int] = var(DETAIL_SHARE)
    detail_full: var[bool] = var(False)

    def __init__(
        self,
        held: Widget,
        calls: LineList,
        empty: Widget,
        detail: DetailPane,
        patterns: Widget,
        *,
        columns: Widget,
        tool_calls: LineList,
        **kwargs,
    ) -> None:
        super().__init__(held, calls, tool_calls, empty, detail, patterns, **kwargs)
        self.calls, self.detail, self.patterns, self.columns = calls, detail, patterns, columns
        self.lists = (calls, tool_calls)

    def show_empty(self, empty: bool) -> None:
        self.set_class(empty, "-empty")

    def show_patterns(self, shown: bool) -> None:
        """The patterns view in the calls' place (its groups take the focus), or back."""
        self.set_class(shown, "-patterns")
        self.columns.display = not shown
        focus_now(self.patterns.list if shown else self.calls)

    def show_tool_calls(self, shown: bool, shown_list: LineList) -> None:
        """The tool calls in the hook calls' place (`t`), or back; the shown list takes focus."""
        self.set_class(shown, "-tool-calls")
        focus_now(shown_list)

    # -- the detail pane's size ----------------------------------------------

    def action_detail_full(self) -> None:
        self.detail_full = not self.detail_full
        # z again: back where z was pressed from, the list (as in replay).
        focused = self.screen.focused
        if not self.detail_full and focused is not None and self.detail in focused.ancestors:
            focus_now(self.screen.home_list)

    def action_detail_size(self, step: int) -> None:
        self.detail_full = False
        self.detail_share = next_share(self.detail_share, step)

    def watch_detail_share(self, share: int) -> None:
        self._size_detail()

    def watch_detail_full(self, full: bool) -> None:
        self.set_class(full, "-detail-full")
        self.columns.display = not full  # titles over no rows (z is off in patterns)
        self._size_detail()
        if full and self.screen.focused in self.lists:
            self.detail.focus_now()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # Full screen hides the list: focus going back to it (enter, esc, the filter
        # bar or the patterns view closing) means out of full screen, else its keys
        # would move a cursor no one sees.
        if self.detail_full and event.widget in self.lists:
            self.detail_full = False

    def _size_detail(self) -> None:
        # A height set here outranks the stylesheet: full screen is set here too.
        self.detail.styles.height = "1fr" if self.detail_full else f"{self.detail_share}%"
