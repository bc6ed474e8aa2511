"""What watch offers besides its rows: the `?` help and the command palette, state-aware.

Mixed into WatchApp. Both are built from the bindings themselves; the palette
asks `palette_allows` before offering a command (no "copy" with nothing
selected, no key for one call while the patterns view is shown).
"""

from __future__ import annotations

from functools import partial

from hooktui.tap.read import filter_terms
from hooktui.tui.app.help import HelpScreen, bindings_of, help_rows
from hooktui.tui.app.palette import PRESET_FILTERS
from hooktui.tui.app.watch_keys import WATCH_BINDINGS
from hooktui.tui.app.watch_patterns import LIST_ONLY
from hooktui.tui.app.widgets.call_list import CallList
from hooktui.tui.app.widgets.detail import DetailPane, DetailScroll
from hooktui.tui.app.widgets.patterns import GroupList
from hooktui.tui.present.format import FAIL_OPEN_MARK, MARK_MARK, NEAR_TIMEOUT_MARK
from textual.binding import Binding

MARKERS = [
    (f"{FAIL_OPEN_MARK} failure", "the hook failed and the runtime let the call through"),
    (NEAR_TIMEOUT_MARK, "latency at 80% or more of the hook's timeout"),
    (MARK_MARK, "marked"),
    ("✗ bad line", "a line of the stream that is not a record"),
]


class WatchCommands:
    """The app has `view`, `calls`, `patterns_open` and `patterns_presets`."""

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        keys = help_rows(bindings_of(type(self), CallList), skip={"watch.interrupt", "list.open"})
        sections = [
            ("keys", keys),
            ("in the detail pane", help_rows(bindings_of(DetailPane, DetailScroll))),
            ("in the patterns view (%)", help_rows(bindings_of(GroupList), skip={"list.open"})),
            ("filter", filter_terms.help_rows()),
            ("markers", MARKERS),
        ]
        self.push_screen(HelpScreen("hooktui watch — keys", sections))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Another screen on top (replay) shows and takes only its own keys.
        if action != "quit" and self.screen is not self.screen_stack[0]:
            if any(b.action == action for b in WATCH_BINDINGS if isinstance(b, Binding)):
                return False
        # The patterns view shows groups, not calls: the keys for one call rest.
        if self.patterns_open and action.split("(", 1)[0] in LIST_ONLY:
            return False
        return True

    def palette_allows(self, action: str) -> bool:
        if self.patterns_open and action in LIST_ONLY:
            return False
        selected = self.calls.current is not None
        if action == "marked_only":
            return bool(self.view.marks) or self.view.marked_only
        if action in ("mark", "copy", "enter_key", "detail_tab", "shell_command", "reproduce"):
            return selected
        if action in ("write", "replay"):
            return len(self.view) > 0
        if action == "clear":
            return bool(self.view.filter_text or self.view.marked_only)
        return True

    def palette_presets(self):
        filters = [
            (title, partial(self.run_action, f"apply_filter({expr!r})"), expr)
            for title, expr in PRESET_FILTERS
        ]
        return filters + self.patterns_presets()
