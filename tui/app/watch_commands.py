"""What the watch screen offers besides its keys: the `?` help and the palette's presets.

The help is built from the screen's bindings (its parts' keys); the palette
(palette.py) asks the screen's `palette_allows` before offering a key, which
asks the key's owner why it would do nothing now.
"""

from __future__ import annotations

from functools import partial

from hooktui.tap.read import filter_terms
from hooktui.tui.app.help import HelpScreen, bindings_of, help_rows
from hooktui.tui.app.hooks_screen import HooksScreen
from hooktui.tui.app.palette import PRESET_FILTERS
from hooktui.tui.app.tool_calls import ToolCallList
from hooktui.tui.app.widgets.call_list import CallList
from hooktui.tui.app.widgets.detail import DetailPane, DetailScroll
from hooktui.tui.app.widgets.patterns import GroupList
from hooktui.tui.present.format import FAIL_OPEN_MARK, MARK_MARK, NEAR_TIMEOUT_MARK

MARKERS = [
    (f"{FAIL_OPEN_MARK} failure", "the hook failed and the runtime let the call through"),
    (NEAR_TIMEOUT_MARK, "latency at 80% or more of the hook's timeout"),
    (MARK_MARK, "marked"),
    ("✗ bad line", "a line of the stream that is not a record"),
]


def help_screen(screen) -> HelpScreen:
    """`?` over the watch screen: its keys, the detail pane's, the patterns view's, the filter."""
    bindings = bindings_of(type(screen), type(screen.app), CallList)
    keys = help_rows(bindings, skip={"watch.interrupt", "list.open"})
    sections = [
        ("keys", keys),
        ("in the detail pane", help_rows(bindings_of(DetailPane, DetailScroll))),
        ("in the patterns view (%)", help_rows(bindings_of(GroupList), skip={"list.open"})),
        ("in the tool-call view (t)", help_rows(ToolCallList.BINDINGS)),
        ("in the hooks screen (H)", help_rows(bindings_of(HooksScreen))),
        ("filter", filter_terms.help_rows()),
        ("markers", MARKERS),
    ]
    return HelpScreen("hooktui watch — keys", sections)


def presets(screen):
    """The palette's filters worth one keystroke, and the patterns view by each field."""
    filters = [
        (title, partial(screen.app.run_action, f"apply_filter({expr!r})", screen.filter_bar), expr)
        for title, expr in PRESET_FILTERS
    ]
    return filters + screen.patterns.patterns_presets()
