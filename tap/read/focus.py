"""The selected call and follow mode, kept beside the view (like mitmproxy's `view.Focus`).

Rules, testable without an app:
- Following: the focus sits on the newest shown row and moves with each append.
- A move by the user to any row but the last stops following; `last()` (G,
  End) and `set_following(True)` resume it. Reaching the end with j/down does
  not resume it (a pager does not either).
- While not following, rows that arrive count as new; the count is of new rows
  *shown*, so it is recomputed when the filter changes.
- The row the user chose is the anchor (its key): a filter that hides it moves the
  focus to the nearest shown row before it, and the focus returns to the anchor
  when a later filter shows it again.

The view is a `CallView` or any view with the same few members (`shown`,
`total`, `key_at`, `row_of`, `index_of`, the added and refreshed signals).

Listeners: `on_change(key_changed)` after every change of row, key, follow
mode or new count.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable

from hooktui.tap.read.view import CallView, StreamLine


class Focus:
    def __init__(self, view: CallView) -> None:
        self.view = view
        self.row = -1  # row in view.shown; -1 when nothing is shown
        self.following = True
        self.anchor: tuple[int, int] | None = None  # (source, offset) the user chose
        # Rows at this index or later arrived while not following.
        self._new_from: int | None = None
        self._key: tuple[int, int] | None = None
        self.on_change: list[Callable[[bool], None]] = []
        view.on_added.append(self._rows_added)
        view.on_refresh.append(self._view_refreshed)
        if hasattr(view, "on_prepended"):  # views that only grow at the end have none
            view.on_prepended.append(self._rows_prepended)
        self._settle(len(view) - 1)

    # -- reading -------------------------------------------------------------

    @property
    def selected_row(self) -> int | None:
        """The focused row, or None when nothing is shown."""
        return self.row if 0 <= self.row < len(self.view) else None

    @property
    def key(self) -> tuple[int, int] | None:
        """The key of the focused row, or None when nothing is shown."""
        row = self.selected_row
        return None if row is None else self.view.key_at(row)

    @property
    def line(self) -> StreamLine | None:
        """The focused line (a CallView's focus)."""
        row = self.selected_row
        return None if row is None else self.view.line(row)

    @property
    def new(self) -> int:
        """Shown rows that arrived since following stopped (the "N new ↓" badge)."""
        if self.following or self._new_from is None:
            return 0
        shown = self.view.shown
        return len(shown) - bisect_left(shown, self._new_from)

    # -- the user's moves ----------------------------------------------------

    def move_to(self, row: int) -> None:
        """The user picked `row` (clamped): stops following unless it is the last row."""
        n = len(self.view)
        if n == 0:
            return
        row = max(0, min(row, n - 1))
        if self.following and row < n - 1:
            self._stop_following()
        self.anchor = self.view.key_at(row)
        self._settle(row)

    def move_by(self, delta: int) -> None:
        self.move_to(self.row + delta)

    def first(self) -> None:
        self.move_to(0)

    def last(self) -> None:
        """To the newest row, following again."""
        self.set_following(True)

    def set_following(self, on: bool) -> None:
        if on == self.following:
            return
        if on:
            self.following = True
            self._new_from = None
            self._settle(len(self.view) - 1, force=True)
        else:
            self._stop_following()
            self.anchor = self.key
            self._notify(False)

    # -- the view's signals --------------------------------------------------

    def _rows_added(self, first_row: int, count: int) -> None:
        self._index_moved()
        if self.following:
            self._settle(len(self.view) - 1)
        elif self.row < 0:
            self._settle(0)
        elif first_row <= self.row:
            # A late call went in above the cursor: the same entry, a row further down.
            self._settle(self._moved_row(), force=True)
        else:
            self._notify(False)  # the new count changed

    def _rows_prepended(self, count: int, shown: int) -> None:
        # Older rows came in (before all others, but for late ones): the same lines, further down.
        self._index_moved()
        moved = getattr(self.view, "moved_index", None)
        if self._new_from is not None and moved is not None and moved.gaps:
            # Older lines never count as new, even one that answered after the boundary.
            self._new_from = max(self._new_from, moved.last + 1)
        if self.following:
            self._settle(len(self.view) - 1, force=True)
        elif self.row < 0:
            self._settle(self._row_near_anchor(), force=True)
        else:
            self._settle(self._moved_row(), force=True)

    def _moved_row(self) -> int:
        moved = getattr(self.view, "moved", None)  # CallView: where the shown rows went
        return moved(self.row) if moved is not None else self.row

    def _index_moved(self) -> None:
        # Rows inserted before the first that arrived while not following are not
        # below it: the boundary follows the last row seen before it.
        moved = getattr(self.view, "moved_index", None)
        if self._new_from and moved is not None:
            self._new_from = moved(self._new_from - 1) + 1

    def _view_refreshed(self) -> None:
        n = len(self.view)
        if self._new_from is not None:
            self._new_from = min(self._new_from, self.view.total)
        if n == 0:
            self._settle(-1, force=True)
        elif self.following:
            self._settle(n - 1, force=True)
        else:
            self._settle(self._row_near_anchor(), force=True)

    # -- inside --------------------------------------------------------------

    def _stop_following(self) -> None:
        self.following = False
        self._new_from = self.view.total

    def _row_near_anchor(self) -> int:
        """The anchor's row, or the nearest shown row before where it would be."""
        view = self.view
        if self.anchor is None:
            return max(0, min(self.row, len(view) - 1))
        row = view.row_of(self.anchor)
        if row is not None:
            return row
        index = view.index_of(self.anchor)
        if index is None:
            index = view.total
        return max(0, bisect_right(view.shown, index) - 1)

    def _settle(self, row: int, force: bool = False) -> None:
        self.row = row
        key = self.key
        changed = key != self._key
        self._key = key
        if changed or force:
            self._notify(changed)

    def _notify(self, key_changed: bool) -> None:
        for listener in self.on_change:
            listener(key_changed)
