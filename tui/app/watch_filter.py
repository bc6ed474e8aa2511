"""Watch's filter: the bar (`/`), marked-only (`M`), and refiltering off the UI thread.

A part of the watch screen: the filter bar owns what is typed into it, the
debounce, and the filter pass that reads the files in a worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from hooktui.tap.read.filter_pass import FilterPass, Matched
from hooktui.tap.read.view import CallView
from hooktui.tui.app.keys import Key
from hooktui.tui.app.widgets.detail import focus_now
from hooktui.tui.app.widgets.filter_bar import FilterBar, check_filter
from textual import work
from textual.actions import SkipAction
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input
from textual.worker import get_current_worker

# How long the filter waits for typing to stop before refiltering everything.
FILTER_DEBOUNCE = 0.08


class FilterMatched(Message):
    """A piece of a filter pass, tested off the UI thread (`filter_pass.Matched`)."""

    def __init__(self, matched: Matched) -> None:
        super().__init__()
        self.matched = matched


def _nothing_marked(bar: CallFilter) -> str | None:
    view = bar.view
    if view.marked_only or view.marks:
        return None
    return "nothing marked yet: m marks the selected call"


class CallFilter(FilterBar):
    """The filter bar over the view, and marked-only.

    Depends on: the view it filters, `home()` (where focus rests when the bar
    closes) and `changed` (the screen's header and empty state).
    """

    KEYS: ClassVar[tuple[Key, ...]] = (
        # Priority: handled as the key is read, so focus has moved before the
        # keys typed right after it are routed ("/dec" in one burst filters,
        # it does not copy). It steps aside (SkipAction) inside an input.
        Key(
            Binding(
                "slash",
                "filter_key",
                "Filter",
                priority=True,
                tooltip="filter (checked as you type)",
                id="watch.filter",
            )
        ),
        Key(
            Binding(
                "M",
                "marked_only",
                "Marked",
                show=False,
                tooltip="show marked calls only / all",
                id="watch.marked_only",
            ),
            _nothing_marked,
        ),
    )

    _filter_timer = None
    _pending_filter: tuple[str, object] | None = None

    def __init__(
        self, view: CallView, home: Callable[[], Widget], changed: Callable[[], None], **kwargs
    ) -> None:
        super().__init__(**kwargs)
        self.view = view
        self._home = home
        self._changed = changed
        view.on_filter_pass.append(self._start_filter_pass)

    # -- a filter that reads the files, off the UI thread ----------------------

    def _start_filter_pass(self, filter_pass: FilterPass) -> None:
        """The view's on_filter_pass: run the pass in a worker thread."""
        self._run_filter_pass(filter_pass)

    @work(thread=True, group="filter")
    def _run_filter_pass(self, filter_pass: FilterPass) -> None:
        # Stops within a piece when the filter changes (the pass is cancelled) or on quit.
        worker = get_current_worker()
        filter_pass.run(
            lambda matched: self.post_message(FilterMatched(matched)),
            lambda: worker.is_cancelled,
        )

    def on_filter_matched(self, message: FilterMatched) -> None:
        self.view.apply_matches(message.matched)
        self._changed()  # the header's progress, the empty state

    # -- filter --------------------------------------------------------------

    def action_filter_key(self) -> None:
        if not self.screen.is_current or isinstance(self.screen.focused, Input):
            raise SkipAction()  # "/" typed into an input is a character
        self.action_filter()

    def action_marked_only(self) -> None:
        self.view.set_marked_only(not self.view.marked_only)

    def action_filter(self) -> None:
        self.add_class("-active")
        self.input.value = self.view.filter_text
        self.input.cursor_position = len(self.input.value)
        focus_now(self.input)

    def action_apply_filter(self, expr: str) -> None:
        """Set the filter to `expr` (the command palette's presets)."""
        predicate, error = check_filter(expr)
        if error:
            self.app.notify(f"filter: {error}", severity="error")
            return
        self.add_class("-active")
        with self.input.prevent(Input.Changed):
            self.input.value = expr
        self._set_filter(expr, predicate)

    def on_filter_bar_changed(self, message: FilterBar.Changed) -> None:
        message.stop()
        # Refilter once typing pauses: a 100k-record refilter per keystroke
        # would make typing lag.
        self._pending_filter = (message.text, message.predicate)
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_DEBOUNCE, self._apply_pending_filter)

    def _apply_pending_filter(self) -> None:
        self._filter_timer = None
        if self._pending_filter is not None:
            text, predicate = self._pending_filter
            self._pending_filter = None
            self._set_filter(text, predicate)

    def _set_filter(self, text: str, predicate) -> None:
        text = text.strip()
        if text == self.view.filter_text and (predicate is None) == (not self.view.filter_text):
            return
        self.view.set_predicate(text, predicate)

    def on_filter_bar_done(self, message: FilterBar.Done) -> None:
        message.stop()
        self.close(keep=message.keep)

    def close(self, keep: bool) -> None:
        """Leave the bar, keeping what it says (enter) or dropping the filter (esc)."""
        if keep:
            self._apply_pending_filter()
            predicate, error = check_filter(self.input.value)
            if error:
                return  # stay in the bar: the error is shown under it, to be fixed
            else:
                self._set_filter(self.input.value, predicate)
        if not keep:
            if self._filter_timer is not None:
                self._filter_timer.stop()
                self._filter_timer = None
            self._pending_filter = None
            self._set_filter("", None)
        # The header shows the filter in force: the bar gives its rows back.
        self.remove_class("-active")
        focus_now(self._home())

    def filter_to_hook(self, expr: str | None) -> None:
        """The hook chosen in the inventory (`H`; None: none): its calls, marked or not."""
        if expr is None:
            return
        if self.view.marked_only:
            self.view.set_marked_only(False)
        self.action_apply_filter(expr)

    def clear(self) -> None:
        """Drop the filter and marked-only: every call shown again."""
        with self.app.batch_update():
            if self.view.marked_only:
                self.view.set_marked_only(False)
            if self.view.filter_text:
                self._set_filter("", None)
            self.input.value = ""
            self.remove_class("-active")
