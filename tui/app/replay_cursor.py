"""Where the replay screen's cursor goes: the first change on open, then `n` / `N`.

A replay is read for its changed calls, so the screen puts the cursor on the
first one as it arrives (until the user picks a row), and `n` / `N` step from
change to change, as in less, lnav and mitmproxy, wrapping at the ends.
"""

from __future__ import annotations

from hooktui.replay.compare import NOTEWORTHY
from hooktui.replay.report import Result


class ChangeCursor:
    """Mixed into ReplayScreen: it has `list`, `_rows`, `current_result`, `_placed`,
    `_to_first_change` and `notify`."""

    @staticmethod
    def _is_change(r: Result) -> bool:
        """What `o` keeps and `n` / `N` visit: the calls the user came to see."""
        return r.cls in NOTEWORTHY or r.flaky

    def _on_change(self) -> bool:
        current = self.current_result
        return current is not None and self._is_change(current)

    def _move_to(self, index: int) -> None:
        """The screen's own move (not the user's): to the result with this index."""
        row = self._rows.row_of(index)
        if row is not None:
            self.list.focus_model.move_to(row)
            self._placed = self.list.focus_model.anchor

    def _cursor_changed(self, key_changed: bool) -> None:
        # Every move sets the focus's anchor: one the screen did not set is the user's.
        anchor = self.list.focus_model.anchor
        if anchor is not None and anchor != self._placed:
            self._to_first_change = False

    def action_next_change(self, step: int) -> None:
        """`n` (step 1) / `N` (step -1): the next / previous changed row shown, wrapping."""
        rows, here = self._rows, self.list.cursor
        count = len(rows)
        # Rows past the cursor, then (wrapping) the rest; here is -1 only with no rows.
        if step > 0:
            ahead, behind = range(here + 1, count), range(0, here)
        else:
            ahead, behind = range(here - 1, -1, -1), range(count - 1, here, -1)
        for wrapped, part in ((False, ahead), (True, behind)):
            for row in part:
                if self._is_change(rows.item(row)):
                    self._to_first_change = False  # the user's pick: a re-run keeps it
                    self.list.focus_model.move_to(row)
                    if wrapped:
                        where = "first" if step > 0 else "last"
                        self.notify(f"wrapped to the {where} change")
                    return
        here_is_one = 0 <= here < count and self._is_change(rows.item(here))
        self.notify(
            "no more changes" if here_is_one else "no changed call in the list",
            severity="warning",
        )
