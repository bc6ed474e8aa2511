"""Where the replay screen's cursor goes: the first change on open, then `n` / `N`.

A replay is read for its changed calls, so the screen puts the cursor on the
first one as it arrives (until the user picks a row), and `n` / `N` step from
change to change, as in less, lnav and mitmproxy, wrapping at the ends. A re-run
puts the cursor back on the call the user chose.
"""

from __future__ import annotations

from collections.abc import Callable

from hooktui.replay.compare import NOTEWORTHY
from hooktui.replay.report import Result
from hooktui.tui.app.widgets.result_list import ResultList


def is_change(r: Result) -> bool:
    """What `o` keeps and `n` / `N` visit: the calls the user came to see."""
    return r.cls in NOTEWORTHY or r.flaky


class ChangeCursor:
    """The cursor's own moves over the result list, until the user makes one.

    Depends on: the result list (its focus, rows and selected result) and
    `notify` (said when `n` / `N` wraps or finds no change).
    """

    def __init__(self, results: ResultList, notify: Callable[..., object]) -> None:
        self.list = results
        self._notify = notify
        # Until the user picks a row, the cursor goes to the first change as it arrives.
        self.to_first_change = True
        self._placed: object = None  # the anchor of this part's own last move
        self._keep: int | None = None  # the result index to put the cursor back on
        results.focus_model.on_change.append(self._cursor_changed)

    def run_starting(self) -> None:
        """A run begins: keep the user's row for it, else look for its first change."""
        current = self.list.current
        chosen = current is not None and not self.to_first_change
        self._keep = current.index if chosen else None
        if not chosen:  # this run's first change, not the last run's, is the one to show
            self.list.focus_model.anchor = self._placed = None

    def before_refill(self) -> None:
        """The list is refilled: the row in view is the one to come back to."""
        focus = self.list.focus_model
        if focus.anchor is None and focus.selected_row is not None:
            focus.move_to(focus.row)
            self._placed = focus.anchor

    def shown(self, result: Result) -> None:
        """`result` became a row: the cursor goes to it if it is the one waited for."""
        if self._keep == result.index:
            self._move_to(result.index)
        elif self.to_first_change and is_change(result) and not self._on_change():
            self._move_to(result.index)

    def any_change_shown(self) -> bool:
        return any(map(is_change, self.list.shown))

    def _on_change(self) -> bool:
        current = self.list.current
        return current is not None and is_change(current)

    def _move_to(self, index: int) -> None:
        """This part's own move (not the user's): to the result with this index."""
        row = self.list.results.row_of(index)
        if row is not None:
            self.list.focus_model.move_to(row)
            self._placed = self.list.focus_model.anchor

    def _cursor_changed(self, key_changed: bool) -> None:
        # Every move sets the focus's anchor: one this part did not set is the user's.
        anchor = self.list.focus_model.anchor
        if anchor is not None and anchor != self._placed:
            self.to_first_change = False

    def next_change(self, step: int) -> None:
        """`n` (step 1) / `N` (step -1): the next / previous changed row shown, wrapping."""
        rows, here = self.list.results, self.list.cursor
        count = len(rows)
        # Rows past the cursor, then (wrapping) the rest; here is -1 only with no rows.
        if step > 0:
            ahead, behind = range(here + 1, count), range(0, here)
        else:
            ahead, behind = range(here - 1, -1, -1), range(count - 1, here, -1)
        for wrapped, part in ((False, ahead), (True, behind)):
            for row in part:
                if is_change(rows.item(row)):
                    self.to_first_change = False  # the user's pick: a re-run keeps it
                    self.list.focus_model.move_to(row)
                    if wrapped:
                        where = "first" if step > 0 else "last"
                        self._notify(f"wrapped to the {where} change")
                    return
        here_is_one = 0 <= here < count and is_change(rows.item(here))
        self._notify(
            "no more changes" if here_is_one else "no changed call in the list",
            severity="warning",
        )
