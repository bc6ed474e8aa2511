"""Watch's patterns view (`%`): the shown calls grouped, live; enter filters the list to a group.

The panel (widgets/patterns.py) draws; this part of the watch screen opens and
closes it and owns its count. Counting starts over in a thread worker whenever what is
shown changes as a whole (the filter, marked-only, a reloaded stream, another
grouping field), so 100k calls never stall a key; calls that arrive are then
added to the last count on the UI thread, at most every PATTERNS_INTERVAL
(a burst redraws the view a few times a second, not once per record).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import tzinfo
from functools import partial
from typing import ClassVar

from hooktui.tap.read.groups import Patterns, narrow_filter
from hooktui.tap.read.view import CallView
from hooktui.tui.app.keys import Key
from hooktui.tui.app.widgets.patterns import BY_FIELDS, GroupList, PatternsPanel
from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.worker import get_current_worker

PATTERNS_INTERVAL = 0.5
# Calls counted between two looks at whether the count is still wanted.
CHUNK = 4096


class PatternsView(PatternsPanel):
    """The patterns panel, shown in the body's place, and its count of the shown calls.

    Depends on: the view it counts, the time zone its timeline reads in, and
    `shown(open)`, the screen's layout for it (the calls' titles hidden, focus).
    """

    KEYS: ClassVar[tuple[Key, ...]] = (
        Key(
            Binding(
                "percent_sign",
                "patterns",
                "Patterns",
                tooltip=(
                    "the shown calls grouped by hook, tool, decision, reason or failure; a timeline"
                ),
                id="watch.patterns",
            )
        ),
    )

    class FilterTo(Message):
        """A group was chosen: filter the calls to `expr` (shown in the filter bar, to edit)."""

        def __init__(self, expr: str) -> None:
            super().__init__()
            self.expr = expr

    _patterns: Patterns | None = None
    _patterns_rows = 0  # the shown rows counted in _patterns (a prefix of view.shown)
    _patterns_generation = 0  # a count for an older generation is dropped
    _patterns_counting = False
    _counting = 0  # the shown rows the running count was given
    _patterns_due = False
    _patterns_last = 0.0

    def __init__(
        self, view: CallView, tz: tzinfo | None, shown: Callable[[bool], None], **kwargs
    ) -> None:
        super().__init__(**kwargs)
        self.view, self.tz = view, tz
        self._layout = shown
        self.is_open = False
        view.on_added.append(self._patterns_rows_added)
        view.on_refresh.append(self._patterns_view_refreshed)
        view.on_prepended.append(lambda _rows, _shown: self._patterns_view_refreshed())

    # -- opening, closing ----------------------------------------------------

    def action_patterns(self, by: str = "") -> None:
        """`%`: the patterns view on / off; from the palette, grouped by `by`."""
        if by:
            self.list.by = by
            self._open_patterns()
        elif self.is_open:
            self._close_patterns()
        else:
            self._open_patterns()

    def _open_patterns(self) -> None:
        self.is_open = True
        self._layout(True)
        self._count_patterns_again()

    def _close_patterns(self) -> None:
        self.is_open = False
        self._layout(False)
        self._patterns_generation += 1  # a count still running is not wanted
        self._patterns = None
        self._patterns_counting = False

    # -- counting ------------------------------------------------------------

    def _patterns_view_refreshed(self) -> None:
        """What is shown changed as a whole (the view's on_refresh)."""
        if self.is_open:
            self._count_patterns_again()

    def _patterns_rows_added(self, first: int, _count: int) -> None:
        """Rows arrived (the view's on_added): add them soon, with the next ones."""
        if not self.is_open:
            return
        if first < self._patterns_rows or (self._patterns_counting and first < self._counting):
            self._late_rows_added(first)
        if self._patterns_due:
            return
        self._patterns_due = True
        wait = self._patterns_last + PATTERNS_INTERVAL - time.monotonic()
        if wait > 0:
            self.set_timer(wait, self._flush_patterns)
        else:
            self.call_later(self._flush_patterns)

    def _late_rows_added(self, first: int) -> None:
        """A late call went in among the rows counted (or being counted): count it."""
        if self._patterns_counting:
            self._count_patterns_again()  # the worker's rows moved under it
            return
        view = self.view
        counted = view.moved(self._patterns_rows - 1) + 1  # the same rows, renumbered
        if self._patterns is not None:
            late = view.moved.inserted(below=counted)
            self._patterns.add_all([view.line(row).head for row in late])
        self._patterns_rows = counted

    def _count_patterns_again(self) -> None:
        self._patterns_generation += 1
        self._patterns = None
        self._patterns_counting = True
        view = self.view
        index, rows = view.snapshot()
        self._counting = len(rows)
        self._count_patterns(self._patterns_generation, self.list.by, index, rows)
        self._draw_patterns()

    @work(thread=True, exclusive=True, group="patterns")
    def _count_patterns(self, generation: int, by: str, index, rows) -> None:
        # The shown rows as the UI thread saw them; their heads are read back
        # from the files here (a prepend or reload starts a newer count).
        worker = get_current_worker()
        patterns = Patterns(by)
        heads = self.view.read_heads(index, rows)
        for start in range(0, len(rows), CHUNK):
            if worker.is_cancelled:
                return  # a newer count replaced this one
            patterns.add_all([next(heads) for _ in range(min(CHUNK, len(rows) - start))])
        self.app.call_from_thread(self._patterns_counted, generation, patterns, len(rows))

    def _patterns_counted(self, generation: int, patterns: Patterns, rows: int) -> None:
        if generation != self._patterns_generation:
            return
        self._patterns, self._patterns_rows = patterns, rows
        self._patterns_counting = False
        self._flush_patterns()

    def _flush_patterns(self) -> None:
        """Add the shown rows that arrived since the last count, and redraw."""
        self._patterns_due = False
        self._patterns_last = time.monotonic()
        if not self.is_open:
            return
        patterns, view = self._patterns, self.view
        if patterns is not None and len(view.shown) > self._patterns_rows:
            rows = range(self._patterns_rows, len(view.shown))
            patterns.add_all([view.line(row).head for row in rows])
            self._patterns_rows = len(view.shown)
        self._draw_patterns()

    def _draw_patterns(self) -> None:
        self.show(self._patterns, self._patterns_counting, self.tz, not self.app.no_color)

    # -- the panel's keys ----------------------------------------------------

    def on_group_list_regroup(self, message: GroupList.Regroup) -> None:
        message.stop()
        self._count_patterns_again()

    def on_group_list_chosen(self, message: GroupList.Chosen) -> None:
        """Filter the list to the group: the expression shows in the filter bar, to edit."""
        message.stop()
        term = message.filter
        self._close_patterns()
        self.post_message(self.FilterTo(narrow_filter(self.view.filter_text, term)))

    def patterns_presets(self):
        return [
            (
                f"Patterns: group the shown calls by {by}",
                partial(self.app.run_action, f"patterns({by!r})", self),
                "%",
            )
            for by in BY_FIELDS[:5]
        ]
