"""Watch's filter bar and the keys around it (/, enter, esc), mixed into WatchApp."""

from __future__ import annotations

from hooktui.tap.read.filter_pass import FilterPass, Matched
from hooktui.tui.app.widgets.detail import focus_now
from hooktui.tui.app.widgets.filter_bar import FilterBar, check_filter
from textual import work
from textual.actions import SkipAction
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


class WatchFilter:
    """The app has `view`, `calls`, `detail`, `filter_bar` and `home_list` (where focus rests)."""

    _filter_timer = None
    _pending_filter: tuple[str, object] | None = None

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

    def _main_focus(self) -> Widget | None:
        """The focused widget when the watch screen itself is active, else None."""
        if self.screen is not self.screen_stack[0]:
            return None
        return self.focused

    def action_filter_key(self) -> None:
        focused = self._main_focus()
        if focused is None or isinstance(focused, Input):
            raise SkipAction()  # "/" typed into an input is a character
        self.action_filter()

    def action_enter_key(self) -> None:
        focused = self._main_focus()
        if focused is self.calls:
            if self.calls.current is not None:
                self.detail.focus_now()
            return
        if focused is not None and self.detail in focused.ancestors:
            focus_now(self.calls)
            return
        raise SkipAction()  # enter in the filter bar, a prompt, the palette

    def action_filter(self) -> None:
        bar = self.filter_bar
        bar.add_class("-active")
        bar.input.value = self.view.filter_text
        bar.input.cursor_position = len(bar.input.value)
        focus_now(bar.input)

    def action_apply_filter(self, expr: str) -> None:
        """Set the filter to `expr` (the command palette's presets)."""
        predicate, error = check_filter(expr)
        if error:
            self.notify(f"filter: {error}", severity="error")
            return
        bar = self.filter_bar
        bar.add_class("-active")
        with bar.input.prevent(Input.Changed):
            bar.input.value = expr
        self._set_filter(expr, predicate)

    def on_filter_bar_changed(self, message: FilterBar.Changed) -> None:
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
        self._close_filter(keep=message.keep)

    def _close_filter(self, keep: bool) -> None:
        bar = self.filter_bar
        if keep:
            self._apply_pending_filter()
            predicate, error = check_filter(bar.input.value)
            if error:
                return  # stay in the bar: the error is shown under it, to be fixed
            else:
                self._set_filter(bar.input.value, predicate)
        if not keep:
            if self._filter_timer is not None:
                self._filter_timer.stop()
                self._filter_timer = None
            self._pending_filter = None
            self._set_filter("", None)
        # The header shows the filter in force: the bar gives its rows back.
        bar.remove_class("-active")
        focus_now(self.home_list)

    def action_clear(self) -> None:
        """esc: leave the detail pane or the filter bar; otherwise drop filter and marked-only."""
        focused = self.focused
        bar = self.filter_bar
        if focused is not None and bar in focused.ancestors_with_self:
            self._close_filter(keep=False)
            return
        if focused is not None and self.detail in focused.ancestors_with_self:
            focus_now(self.home_list)
            return
        with self.batch_update():
            if self.view.marked_only:
                self.view.set_marked_only(False)
            if self.view.filter_text:
                self._set_filter("", None)
            bar.input.value = ""
            bar.remove_class("-active")
