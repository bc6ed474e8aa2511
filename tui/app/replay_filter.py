"""The replay screen's filter: the bar (`/`) and changes only (`o`).

A part of the replay screen: it owns the filter in force and which results it
keeps; the list asks it (`visible`) when it is refilled.
"""

from __future__ import annotations

from collections.abc import Callable

from hooktui.replay.report import Result
from hooktui.tui.app.replay_cursor import is_change
from hooktui.tui.app.widgets.detail import focus_now
from hooktui.tui.app.widgets.filter_bar import FilterBar
from textual.widget import Widget


class ResultFilter(FilterBar):
    """The filter bar over the results, and changes only.

    Depends on: `changed()` (what is shown changed: the screen refills its
    list) and `home()` (where focus rests when the bar closes).
    """

    def __init__(self, changed: Callable[[], None], home: Callable[[], Widget], **kwargs) -> None:
        super().__init__(**kwargs)
        self._changed = changed
        self._home = home
        self.filter_expr = ""
        self._predicate = None
        self.changes_only = False

    def visible(self, r: Result) -> bool:
        if self.changes_only and not is_change(r):
            return False
        if self._predicate is not None and not self._predicate(r.record):
            return False
        return True

    def toggle_changes_only(self) -> None:
        self.changes_only = not self.changes_only
        self._changed()

    def open(self) -> None:
        """`/`: the bar, with the filter in force to edit."""
        self.add_class("-active")
        self.input.value = self.filter_expr
        focus_now(self.input)

    def drop(self) -> None:
        """Close the bar and drop the filter in force (esc)."""
        if self.has_class("-active") or self.filter_expr:
            self.remove_class("-active")
            self.filter_expr = ""
            self._predicate = None
            self._changed()

    def on_filter_bar_done(self, message: FilterBar.Done) -> None:
        message.stop()
        predicate, error = self.check()
        if error:
            return  # shown under the bar already; stay to fix it
        self.filter_expr = self.input.value.strip()
        self._predicate = predicate if self.filter_expr else None
        self.remove_class("-active")
        self._changed()
        focus_now(self._home())
