"""Watch's reproduce screens (`C`, `E`), loaded when one opens: see `hooktui.tui.app.reproduce`.

- `ShellCommandScreen`: the command, copied through OSC 52 and shown in a text area
  (many terminals ignore OSC 52), and `w` saves it as a script file, for terminals
  whose selection breaks a wrapped line into two.
- `ReproduceScreen`: the request in a text area; ctrl+r runs the hook on it in a
  thread worker (through replay's process handling: the hook's group is killed when
  it ends, when a newer run replaces it, and when the screen closes or the app quits)
  and shows the new answer beside the recorded one.
"""

from __future__ import annotations

import os
import tempfile
from typing import ClassVar

from hooktui.replay import procs
from hooktui.replay.report import Result
from hooktui.replay.reproduce import edited_record, request_text, rerun, shell_command
from hooktui.tap.model import Record
from hooktui.tui.app.palette import BindingCommands
from hooktui.tui.present.reproduce import answer_view, call_head
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static, TextArea


class ShellCommandScreen(ModalScreen[None]):
    """The shell command of one call, to select or save."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Close", id="command.close"),
        Binding("y", "copy", "Copy again", tooltip="copy it again (OSC 52)", id="command.copy"),
        Binding("w", "save", "Save as file", tooltip="save it as a script", id="command.save"),
    ]
    DEFAULT_CSS = """
    ShellCommandScreen { align: center middle; }
    ShellCommandScreen > Vertical {
        width: 90%; height: 80%; border: round $accent; background: $surface; padding: 0 1;
    }
    ShellCommandScreen #command-title { height: auto; text-style: bold; }
    ShellCommandScreen TextArea { height: 1fr; }
    ShellCommandScreen #command-hint { height: auto; color: $text-muted; }
    """

    def __init__(self, command: str, ident: str) -> None:
        super().__init__()
        self.command = command
        self.ident = ident  # the record's id, for the script's name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "Shell command: re-runs this call's hook on its request, with the recorded"
                " runtime variables (copied to the clipboard by OSC 52)",
                id="command-title",
                markup=False,
            )
            yield TextArea(self.command, read_only=True, soft_wrap=True, id="command-text")
            yield Static(
                "select with the mouse (shift+drag in most terminals) · y copies again ·"
                " w saves it as a script (a wrapped line stays whole) · esc closes",
                id="command-hint",
                markup=False,
            )
        yield Footer()

    def on_mount(self) -> None:
        text = self.query_one(TextArea)
        text.focus()
        text.select_all()

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.command)
        self.notify("copied the command (OSC 52)")

    def action_save(self) -> None:
        self.saved = save_script(self.command, self.ident)
        self.notify(f"saved: sh {self.saved}", markup=False)


def save_script(command: str, ident: str) -> str:
    """Write `command` as a script in a private temporary file; its path."""
    name = "".join(ch for ch in ident[:16] if ch.isalnum() or ch in "-_") or "call"
    fd, path = tempfile.mkstemp(prefix=f"hooktui-call-{name}-", suffix=".sh")
    with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("#!/bin/sh\n" + command + "\n")
    return path


class ReproduceScreen(Screen[None]):
    """One call's request, editable; ctrl+r runs its hook on it, beside the recorded answer."""

    COMMANDS = {BindingCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+r",
            "run",
            "Run",
            priority=True,
            tooltip="run the hook on the request as edited",
            id="reproduce.run",
        ),
        Binding(
            "ctrl+o",
            "original",
            "Original",
            priority=True,
            tooltip="put the recorded request back",
            id="reproduce.original",
        ),
        Binding(
            "ctrl+t",
            "command",
            "Command",
            priority=True,
            tooltip="the request as edited, as a shell command",
            id="reproduce.command",
        ),
        Binding("escape", "close", "Back", tooltip="back to watch", id="reproduce.close"),
    ]
    DEFAULT_CSS = """
    ReproduceScreen #reproduce-head {
        height: 2; background: $panel; text-wrap: nowrap; text-overflow: ellipsis;
    }
    ReproduceScreen #reproduce-body { height: 1fr; }
    ReproduceScreen #request-side { width: 1fr; }
    ReproduceScreen #answer-side { width: 1fr; padding: 0 1; border-left: solid $primary 50%; }
    ReproduceScreen .side-title { height: 1; background: $boost; text-style: bold; padding: 0 1; }
    ReproduceScreen TextArea { height: 1fr; border: none; }
    ReproduceScreen TextArea:focus { border: none; }
    ReproduceScreen.-narrow #reproduce-body { layout: vertical; }
    ReproduceScreen.-narrow #request-side { height: 1fr; width: 1fr; }
    ReproduceScreen.-narrow #answer-side {
        height: 1fr; width: 1fr; border-left: none; border-top: solid $primary 50%;
    }
    """

    def __init__(self, record: Record) -> None:
        super().__init__()
        self.record = record
        self.original = request_text(record)
        self.result: Result | None = None
        self.ran_text: str | None = None  # the request text of the shown result
        self.running = False
        self.generation = 0

    def compose(self) -> ComposeResult:
        yield Static(call_head(self.record), id="reproduce-head")
        with Horizontal(id="reproduce-body"):
            with Vertical(id="request-side"):
                yield Static("request  (edit it, then ctrl+r)", classes="side-title")
                yield TextArea(self.original, soft_wrap=True, id="request")
            with Vertical(id="answer-side"):
                yield Static("answer  (recorded · now)", classes="side-title")
                with VerticalScroll():
                    yield Static(id="answer")
        yield Footer()

    @property
    def editor(self) -> TextArea:
        return self.query_one("#request", TextArea)

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < 100, "-narrow")
        self.editor.focus()
        self._show()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < 100, "-narrow")

    def on_unmount(self) -> None:
        self._stop()

    # -- running -------------------------------------------------------------

    def action_run(self) -> None:
        text = self.editor.text
        if not text.strip():
            self.notify("the request is empty: nothing was run", severity="warning")
            return
        self._stop()  # a newer run replaces the one running
        self.generation += 1
        self.running = True
        self._show()
        self._run(self.generation, text)

    @work(thread=True, exclusive=True, group="reproduce")
    def _run(self, generation: int, text: str) -> None:
        try:
            result = rerun(self._edited(text))
        except Exception as exc:  # a request nested too deep, a bug: say it, stay up
            self.app.call_from_thread(self._failed, generation, exc)
            return
        self.app.call_from_thread(self._done, generation, text, result)

    def _edited(self, text: str) -> Record:
        return self.record if text == self.original else edited_record(self.record, text)

    def _done(self, generation: int, text: str, result: Result) -> None:
        if generation != self.generation:
            return
        self.running = False
        self.result = result
        self.ran_text = text
        self._show()

    def _failed(self, generation: int, exc: Exception) -> None:
        if generation == self.generation:
            self.running = False
            self._show()
            self.notify(f"the run failed: {exc!r}", severity="error", markup=False)

    def _stop(self) -> None:
        """Kill the hook this screen runs, if any (its result would be thrown away)."""
        if self.running:
            self.running = False
            self.generation += 1
            procs.kill_running()

    def _show(self) -> None:
        edited = self.ran_text is not None and self.ran_text != self.original
        as_text = (
            self.result is not None
            and self.record.request_format == "json"
            and self.result.record.request_format == "text"
        )
        view = answer_view(
            self.record,
            self.result,
            edited=edited,
            running=self.running,
            sent_as_text=as_text,
            color=not self.app.no_color,
        )
        self.query_one("#answer", Static).update(view)

    # -- other keys ----------------------------------------------------------

    def action_original(self) -> None:
        self.editor.load_text(self.original)
        self.notify("the recorded request is back")

    def action_command(self) -> None:
        from hooktui.replay.policy import request_bytes

        try:
            command = shell_command(
                self.record, request=request_bytes(self._edited(self.editor.text))
            )
        except ValueError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.app.copy_to_clipboard(command)
        self.app.push_screen(ShellCommandScreen(command, self.record.id))

    def action_close(self) -> None:
        self._stop()
        self.dismiss()
