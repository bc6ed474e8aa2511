"""Watch's keys, as data: each binding's tooltip is its line in `?` and its command in ctrl+p."""

from __future__ import annotations

from hooktui.tui.app.detail_keys import detail_bindings
from hooktui.tui.app.reproduce import REPRODUCE_HELP, SHELL_COMMAND_HELP
from hooktui.tui.present.call_tabs import TAB_TITLES
from textual.binding import Binding, BindingType

WATCH_BINDINGS: list[BindingType] = [
    Binding("question_mark", "help", "Help", tooltip="this help", id="watch.help"),
    # Priority: handled as the key is read, so focus has moved before the
    # keys typed right after it are routed ("/dec" in one burst filters,
    # it does not copy). They step aside (SkipAction) inside an input.
    Binding(
        "slash",
        "filter_key",
        "Filter",
        priority=True,
        tooltip="filter (checked as you type)",
        id="watch.filter",
    ),
    Binding(
        "enter",
        "enter_key",
        "Detail",
        show=False,
        priority=True,
        tooltip="focus the detail pane (enter or esc goes back)",
        id="watch.enter",
    ),
    Binding(
        "escape",
        "clear",
        "Clear",
        show=False,
        tooltip="clear the filter and marked-only",
        id="watch.clear",
    ),
    # The detail tabs answer from the list too: a glance at the diff without
    # leaving the list.
    *(
        Binding(
            str(i),
            f"detail_tab('{tab}')",
            title,
            show=False,
            tooltip="detail tabs: summary, request, response, diff, raw",
            id=f"watch.tab.{tab}",
        )
        for i, (tab, title) in enumerate(TAB_TITLES, 1)
    ),
    *detail_bindings("watch"),
    Binding(
        "percent_sign",
        "patterns",
        "Patterns",
        tooltip="the shown calls grouped by hook, tool, decision, reason or failure; a timeline",
        id="watch.patterns",
    ),
    Binding(
        "f",
        "follow",
        "Follow",
        tooltip="follow new calls on/off (scrolling up stops it)",
        id="watch.follow",
    ),
    Binding(
        "p",
        "pause",
        "Pause",
        tooltip="pause: hold new records back, resume shows them",
        id="watch.pause",
    ),
    Binding(
        "i",
        "intercept",
        "Intercept",
        show=False,
        tooltip="breakpoint: hold calls matching a filter before the runtime has them",
        id="watch.intercept",
    ),
    Binding("m", "mark", "Mark", show=False, tooltip="mark the selected call", id="watch.mark"),
    Binding(
        "M",
        "marked_only",
        "Marked",
        show=False,
        tooltip="show marked calls only / all",
        id="watch.marked_only",
    ),
    Binding(
        "c",
        "copy",
        "Copy",
        show=False,  # (the footer keeps room for q at 80 columns; ? and ctrl+p list it)
        tooltip="copy the selected record as JSON (OSC 52)",
        id="watch.copy",
    ),
    # Shown in the footer while the detail pane has focus (reproduce.CallDetail).
    Binding(
        "C",
        "shell_command",
        "Command",
        show=False,
        tooltip=SHELL_COMMAND_HELP,
        id="watch.command",
    ),
    Binding("E", "reproduce", "Re-run", show=False, tooltip=REPRODUCE_HELP, id="watch.reproduce"),
    Binding(
        "w",
        "write",
        "Write",
        tooltip="write the shown records to a JSONL file, byte for byte",
        id="watch.write",
    ),
    Binding(
        "r",
        "replay",
        "Replay",
        show=False,
        tooltip="replay marked calls (else the focused hook's) against a policy",
        id="watch.replay",
    ),
    Binding("q", "quit", "Quit", tooltip="quit", id="watch.quit"),
    # Ctrl-C quits, as everywhere in a terminal (the app's own ctrl+q too).
    Binding("ctrl+c", "quit", "Quit", show=False, priority=True, id="watch.interrupt"),
]
