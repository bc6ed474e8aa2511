"""The replay screen's keys and its help notes (the help screen and the palette read them)."""

from __future__ import annotations

from hooktui.tui.app.detail_keys import detail_bindings
from hooktui.tui.present.replay_tabs import RULES_MARK, TAB_TITLES
from hooktui.tui.present.replay_text import RULES_CHANGED
from textual.binding import Binding, BindingType

NOTES = (
    "before = the recorded verdict, after = the replayed one.\n"
    "≈ effect: same decision, but what the runtime acts on changed (input, context, ...).\n"
    "▲ loosened: stopped before, let through now.  ▼ tightened: the reverse.\n"
    f"{RULES_MARK} before: {RULES_CHANGED}; before is today's reading of the recorded answer."
)


BINDINGS: list[BindingType] = [
    Binding(
        "o",
        "changes_only",
        "Changes only",
        tooltip="changes only (changed, effect changed, failed, reason only, flaky) on/off",
        id="replay.changes_only",
    ),
    # As in less, lnav and mitmproxy; out of the footer (? and ctrl+p list them).
    Binding(
        "n",
        "next_change(1)",
        "Next change",
        show=False,
        tooltip="next changed call (wraps to the first)",
        id="replay.next_change",
    ),
    Binding(
        "N",
        "next_change(-1)",
        "Previous change",
        show=False,
        tooltip="previous changed call (wraps to the last)",
        id="replay.prev_change",
    ),
    Binding(
        "slash",
        "filter",
        "Filter",
        tooltip="filter, the language of watch (checked as you type)",
        id="replay.filter",
    ),
    Binding(
        "escape",
        "clear",
        "Clear",
        show=False,
        tooltip="clear the filter, then back to the list / out of full screen",
        id="replay.clear",
    ),
    *(
        Binding(
            str(i),
            f"tab('{tab}')",
            title,
            show=False,
            tooltip="detail tabs: summary, request, response, diff, raw",
            id=f"replay.tab.{tab}",
        )
        for i, (tab, title) in enumerate(TAB_TITLES, 1)
    ),
    # The detail pane is always shown (under the list): these size it, as in watch;
    # z stays out of the footer, which keeps room for ? at 80 columns (? and ctrl+p list it).
    *detail_bindings("replay", zoom_in_footer=False),
    Binding(
        "c",
        "copy",
        "Copy",
        show=False,
        tooltip="copy the selected record and both verdicts as JSON",
        id="replay.copy",
    ),
    # r too: inside watch, its own `r` would open a second replay on top.
    Binding(
        "r,R",
        "rerun",
        "Re-run",
        tooltip="re-run the replay (with --watch: every save re-runs)",
        id="replay.rerun",
    ),
    Binding("q", "close", "Quit", tooltip="quit (from watch: back to watch)", id="replay.quit"),
    Binding("question_mark", "help", "Help", tooltip="this help", id="replay.help"),
    Binding("ctrl+c", "quit_app", "Quit", show=False, priority=True, id="replay.interrupt"),
]
