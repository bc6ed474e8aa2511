"""Reproduce one call from watch: as a shell command (`C`), or edited and re-run now (`E`).

The work is `hooktui.replay.reproduce`'s (the same as `hooktui replay --id`); its
screens are in `reproduce_screens`, imported when one opens (with replay, the
text area and what they need: none of it is needed for watch's first frame).
This module holds watch's detail pane (`CallDetail`): the shared pane, its tab
keys, and the two keys that reproduce its call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from hooktui.tap.model import Record
from hooktui.tap.read.lines import read_record_at
from hooktui.tap.read.view import StreamLine
from hooktui.tui.app.keys import Key
from hooktui.tui.app.widgets.detail import DetailPane
from hooktui.tui.present.call_tabs import TAB_TITLES
from textual import work
from textual.binding import Binding, BindingType

SHELL_COMMAND_HELP = "copy the call as a shell command that re-runs it"
REPRODUCE_HELP = "edit the call's request and re-run its hook on it now"

# Watch binds both keys for the list (hidden there); the detail pane shows them in
# the footer, where there is room: under 100 columns the footer's keys fill it.
DETAIL_BINDINGS: list[BindingType] = [
    Binding("C", "shell_command", "Command", tooltip=SHELL_COMMAND_HELP, id="detail.command"),
    Binding("E", "reproduce", "Re-run", tooltip=REPRODUCE_HELP, id="detail.reproduce"),
]
WIDE = 100


def _no_call(detail: CallDetail) -> str | None:
    return "no call selected" if detail.selected() is None else None


class CallDetail(DetailPane):
    """Watch's detail pane: the shared pane, its tabs' keys, and the keys that reproduce its call.

    Depends on: `selected`, the call list's selected call, and the streams' paths
    (the call's record is read back whole).
    """

    BINDINGS: ClassVar[list[BindingType]] = DETAIL_BINDINGS

    KEYS: ClassVar[tuple[Key, ...]] = (
        # The detail tabs answer from the list too: a glance at the diff without
        # leaving the list.
        *(
            Key(
                Binding(
                    str(i),
                    f"detail_tab('{tab}')",
                    title,
                    show=False,
                    tooltip="detail tabs: summary, request, response, diff, raw",
                    id=f"watch.tab.{tab}",
                )
            )
            for i, (tab, title) in enumerate(TAB_TITLES, 1)
        ),
        # Shown in the footer while the detail pane has focus (DETAIL_BINDINGS).
        Key(
            Binding(
                "C",
                "shell_command",
                "Command",
                show=False,
                tooltip=SHELL_COMMAND_HELP,
                id="watch.command",
            ),
            _no_call,
        ),
        Key(
            Binding(
                "E", "reproduce", "Re-run", show=False, tooltip=REPRODUCE_HELP, id="watch.reproduce"
            ),
            _no_call,
        ),
    )

    def __init__(
        self, *args, selected: Callable[[], StreamLine | None], paths: list[str], **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.selected = selected
        self.paths = paths

    @property
    def loaded(self):
        """What the pane shows now (a call_tabs.Loaded), or None."""
        return self.built.get("loaded")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Narrow: not shown here, so the key goes on to the screen's own (hidden) binding.
        if action in ("shell_command", "reproduce"):
            return self.app.size.width >= WIDE
        return True

    def on_resize(self) -> None:
        self.refresh_bindings()

    def action_detail_tab(self, tab: str) -> None:
        self.action_tab(tab)

    def action_shell_command(self) -> None:
        self._reproduce_read("command")

    def action_reproduce(self) -> None:
        self._reproduce_read("rerun")

    def _reproduce_read(self, what: str) -> None:
        stream_line = self.selected()
        if stream_line is None:
            self.app.notify("no call selected", severity="warning")
            return
        if what == "rerun":
            # At once: the screen reads the record itself, saying so meanwhile.
            from hooktui.tui.app.reproduce_screens import ReproduceScreen

            path = self.paths[stream_line.source]
            self.app.push_screen(ReproduceScreen(path=path, offset=stream_line.offset))
            return
        self._read_for_reproduce(stream_line, what)

    @work(thread=True, exclusive=True, group="reproduce-read")
    def _read_for_reproduce(self, stream_line: StreamLine, what: str) -> None:
        app = self.app
        try:
            record = read_record_at(self.paths[stream_line.source], stream_line.offset)
        except OSError as exc:
            message = f"cannot read the record: {exc.strerror}"
            app.call_from_thread(app.notify, message, severity="error")
            return
        app.call_from_thread(self._reproduce_open, record, what)

    def _reproduce_open(self, record: object, what: str) -> None:
        from hooktui.replay.reproduce import shell_command
        from hooktui.tui.app.reproduce_screens import ShellCommandScreen

        app = self.app
        if not isinstance(record, Record):
            app.notify("not a record: nothing to reproduce", severity="warning")
            return
        try:
            command = shell_command(record)
        except ValueError as exc:
            app.notify(f"no shell command: {exc}", severity="error")
            return
        app.copy_to_clipboard(command)
        app.push_screen(ShellCommandScreen(command, record.id))
