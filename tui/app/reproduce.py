"""Reproduce one call from watch: as a shell command (`C`), or edited and re-run now (`E`).

The work is `hooktui.replay.reproduce`'s (the same as `hooktui replay --id`); its
screens are in `reproduce_screens`, imported when one opens (with replay, the
text area and what they need: none of it is needed for watch's first frame).
This module holds the detail pane with their keys (`CallDetail`) and watch's two
actions (`WatchReproduce`), mixed into WatchApp.
"""

from __future__ import annotations

from typing import ClassVar

from hooktui.tap.model import Record
from hooktui.tap.read.lines import read_record_at
from hooktui.tap.read.view import StreamLine
from hooktui.tui.app.widgets.detail import DetailPane
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


class CallDetail(DetailPane):
    """Watch's detail pane: the shared pane, plus the keys that reproduce its call."""

    BINDINGS: ClassVar[list[BindingType]] = DETAIL_BINDINGS

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Narrow: not shown here, so the key goes on to watch's own (hidden) binding.
        if action in ("shell_command", "reproduce"):
            return self.app.size.width >= WIDE
        return True

    def on_resize(self) -> None:
        self.refresh_bindings()

    def action_shell_command(self) -> None:
        self.app.action_shell_command()

    def action_reproduce(self) -> None:
        self.app.action_reproduce()


class WatchReproduce:
    """Mixed into WatchApp: it has `paths`, `calls` and `notify`."""

    def action_shell_command(self) -> None:
        self._reproduce_read("command")

    def action_reproduce(self) -> None:
        self._reproduce_read("rerun")

    def _reproduce_read(self, what: str) -> None:
        entry = self.calls.current
        if entry is None:
            self.notify("no call selected", severity="warning")
            return
        self._read_for_reproduce(entry, what)

    @work(thread=True, exclusive=True, group="reproduce-read")
    def _read_for_reproduce(self, entry: StreamLine, what: str) -> None:
        try:
            record = read_record_at(self.paths[entry.source], entry.offset)
        except OSError as exc:
            message = f"cannot read the record: {exc.strerror}"
            self.call_from_thread(self.notify, message, severity="error")
            return
        self.call_from_thread(self._reproduce_open, record, what)

    def _reproduce_open(self, record: object, what: str) -> None:
        from hooktui.replay.reproduce import shell_command
        from hooktui.tui.app.reproduce_screens import ReproduceScreen, ShellCommandScreen

        if not isinstance(record, Record):
            self.notify("not a record: nothing to reproduce", severity="warning")
            return
        if what == "rerun":
            self.push_screen(ReproduceScreen(record))
            return
        try:
            command = shell_command(record)
        except ValueError as exc:
            self.notify(f"no shell command: {exc}", severity="error")
            return
        self.copy_to_clipboard(command)
        self.push_screen(ShellCommandScreen(command, record.id))


def __getattr__(name: str):
    """The screens by their old address (they moved to `reproduce_screens`)."""
    if name in ("ReproduceScreen", "ShellCommandScreen", "save_script"):
        from hooktui.tui.app import reproduce_screens

        return getattr(reproduce_screens, name)
    raise AttributeError(name)
