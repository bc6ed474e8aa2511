"""Watch's patterns view (`%`): the shown calls grouped, live; enter filters the list to a group.

Mixed into WatchApp. Counting starts over in a thread worker whenever what is
shown changes as a whole (the filter, marked-only, a reloaded stream, another
grouping field), so 100k calls never stall a key; calls that arrive are then
added to the last count on the UI thread, at most every PATTERNS_INTERVAL
(a burst redraws the view a few times a second, not once per record).
"""

from __future__ import annotations

import time
from functools import partial

from hooktui.tap.read.groups import Patterns, narrow_filter
from hooktui.tui.app.widgets.detail import focus_now
from hooktui.tui.app.widgets.patterns import BY_FIELDS, GroupList
from textual import work
from textual.worker import get_current_worker

PATTERNS_INTERVAL = 0.5
# Calls counted between two looks at whether the count is still wanted.
CHUNK = 4096
# What the list's keys do that means nothing while the patterns view is shown.
LIST_ONLY = frozenset(
    {"mark", "copy", "detail_tab", "detail_full", "detail_size", "follow", "enter_key"}
    | {"shell_command", "reproduce"}
)


class WatchPatterns:
    """The app has `view`, `body`, `columns`, `calls`, `patterns`, `tz` and `no_color`."""

    _patterns: Patterns | None = None
    _patterns_rows = 0  # the shown rows counted in _patterns (a prefix of view.shown)
    _patterns_generation = 0  # a count for an older generation is dropped
    _patterns_counting = False
    _patterns_due = False
    _patterns_last = 0.0

    @property
    def patterns_open(self) -> bool:
        return self.body.has_class("-patterns")

    # -- opening, closing ----------------------------------------------------

    def action_patterns(self, by: str = "") -> None:
        """`%`: the patterns view on / off; from the palette, grouped by `by`."""
        if by:
            self.patterns.list.by = by
            self._open_patterns()
        elif self.patterns_open:
            self._close_patterns()
        else:
            self._open_patterns()

    def _open_patterns(self) -> None:
        self.body.add_class("-patterns")
        self.columns.display = False
        focus_now(self.patterns.list)
        self._count_patterns_again()

    def _close_patterns(self) -> None:
        self.body.remove_class("-patterns")
        self.columns.display = True
        self._patterns_generation += 1  # a count still running is not wanted
        self._patterns = None
        self._patterns_counting = False
        focus_now(self.calls)

    # -- counting ------------------------------------------------------------

    def _patterns_view_refreshed(self) -> None:
        """What is shown changed as a whole (the view's on_refresh)."""
        if self.patterns_open:
            self._count_patterns_again()

    def _patterns_rows_added(self, _first: int, _count: int) -> None:
        """Rows arrived (the view's on_added): add them soon, with the next ones."""
        if not self.patterns_open or self._patterns_due:
            return
        self._patterns_due = True
        wait = self._patterns_last + PATTERNS_INTERVAL - time.monotonic()
        if wait > 0:
            self.set_timer(wait, self._flush_patterns)
        else:
            self.call_later(self._flush_patterns)

    def _count_patterns_again(self) -> None:
        self._patterns_generation += 1
        self._patterns = None
        self._patterns_counting = True
        view = self.view
        index, rows = view.snapshot()
        self._count_patterns(self._patterns_generation, self.patterns.list.by, index, rows)
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
        self.call_from_thread(self._patterns_counted, generation, patterns, len(rows))

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
        if not self.patterns_open:
            return
        patterns, view = self._patterns, self.view
        if patterns is not None and len(view.shown) > self._patterns_rows:
            rows = range(self._patterns_rows, len(view.shown))
            patterns.add_all([view.entry(row).head for row in rows])
            self._patterns_rows = len(view.shown)
        self._draw_patterns()

    def _draw_patterns(self) -> None:
        self.patterns.show(self._patterns, self._patterns_counting, self.tz, not self.no_color)

    # -- the panel's keys ----------------------------------------------------

    def on_group_list_regroup(self, message: GroupList.Regroup) -> None:
        self._count_patterns_again()

    def on_group_list_chosen(self, message: GroupList.Chosen) -> None:
        """Filter the list to the group: the expression shows in the filter bar, to edit."""
        term = message.filter
        self._close_patterns()
        self.action_apply_filter(narrow_filter(self.view.filter_text, term))

    def patterns_presets(self):
        return [
            (
                f"Patterns: group the shown calls by {by}",
                partial(self.run_action, f"patterns({by!r})"),
                "%",
            )
            for by in BY_FIELDS[:5]
        ]
