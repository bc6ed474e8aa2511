"""Watch's reproduce screens (`C`, `E`), loaded when one opens: see `hooktui.tui.app.reproduce`.

- `ShellCommandScreen`: the command, copied through OSC 52 and shown in a text area
  (many terminals ignore OSC 52), and `w` saves it as a script file, for terminals
  whose selection breaks a wrapped line into two.
- `ReproduceScreen`: the request in a text area; ctrl+r runs the hook on it in a
  thread worker (through replay's process handling: the hook's group is killed when
  it ends, when a newer run replaces it, and when the screen closes or the app quits)
  and shows the new answer beside the recorded one.

`E` opens the screen at once: the record is read, replay imported and the
request formatted in a thread while it says "loading". Keys typed before the
request is on screen are dropped, not buffered: typed blind, they would edit a
request the person has not seen (a key meant for watch's list landed in the
JSON), and escape, which still closes the screen, is what a person presses then.
Replay's modules are imported by that thread, never by watch's first frame or
its key handler (this module imports only Textual's).
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import TYPE_CHECKING, ClassVar

from hooktui.tap.model import Record
from hooktui.tui.app.palette import BindingCommands
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, LoadingIndicator, Static, TextArea

if TYPE_CHECKING:
    from hooktui.replay.report import Result

# A request with a line longer than this is not soft-wrapped: wrapping one
# multi-megabyte JSON string costs the text area seconds per keystroke.
WRAP_LIMIT = 20_000


class RequestEditor(TextArea):
    """The request's text area: keys typed before it was ready are dropped (see above)."""

    ready_at = float("inf")  # when the request was first on screen (Textual's event clock)

    async def _on_key(self, event: events.Key) -> None:
        if event.time < self.ready_at:
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)


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

    def __init__(self, record: Record | None = None, *, path: str = "", offset: int = 0) -> None:
        """The call `record`, or the one recorded at `offset` in `path` (read in a thread)."""
        super().__init__()
        self.record = record
        self.where = (path, offset)
        self.original = ""  # the request as first shown, once loaded
        self.ready = False  # the request is on screen, editable
        self.result: Result | None = None
        self.ran_text: str | None = None  # the request text of the shown result
        self.running = False
        self.generation = 0

    def compose(self) -> ComposeResult:
        yield Static("reading the call …", id="reproduce-head", markup=False)
        with Horizontal(id="reproduce-body"):
            with Vertical(id="request-side"):
                yield Static("request  (loading …)", id="request-title", classes="side-title")
                yield LoadingIndicator(id="request-loading")
                yield RequestEditor("", soft_wrap=True, id="request")
            with Vertical(id="answer-side"):
                yield Static("answer  (recorded · now)", classes="side-title")
                with VerticalScroll():
                    yield Static(id="answer")
        yield Footer()

    @property
    def editor(self) -> RequestEditor:
        return self.query_one("#request", RequestEditor)

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < 100, "-narrow")
        self.editor.display = False
        self._load()

    # -- loading -------------------------------------------------------------

    @work(thread=True, exclusive=True, group="reproduce-load")
    def _load(self) -> None:
        """The record (read back whole), replay's modules and the request's text, off the UI thread."""
        from hooktui.tap.read.lines import read_record_at

        record = self.record
        if record is None:
            try:
                record = read_record_at(*self.where)
            except OSError as exc:
                self.app.call_from_thread(
                    self._unloadable, f"cannot read the record: {exc.strerror}"
                )
                return
        if not isinstance(record, Record):
            self.app.call_from_thread(self._unloadable, "not a record: nothing to reproduce")
            return
        from hooktui.replay import procs, reproduce  # noqa: F401 (imported here, not by the UI)
        from hooktui.tui.present.reproduce import call_head

        text = reproduce.request_text(record)
        self.app.call_from_thread(self._loaded, record, text, call_head(record))

    def _unloadable(self, why: str) -> None:
        self.app.notify(why, severity="warning")
        self.dismiss()

    def _loaded(self, record: Record, text: str, head) -> None:
        self.record, self.original = record, text
        self.query_one("#reproduce-head", Static).update(head)
        editor = self.editor
        wrap = max(map(len, text.splitlines()), default=0) <= WRAP_LIMIT
        editor.soft_wrap = wrap
        editor.load_text(text)
        title = "request  (edit it, then ctrl+r)" + ("" if wrap else "  · long lines not wrapped")
        self.query_one("#request-title", Static).update(title)
        self.query_one("#request-loading").display = False
        editor.display = True
        self._show()
        # Ready once drawn: keys typed until then (queued while the text loaded) are dropped.
        self.call_after_refresh(self._ready)

    def _ready(self) -> None:
        # Textual stamps events with time.monotonic() on the systems hooktui runs on
        # (its private textual._time says so; we do not import it).
        self.editor.ready_at = time.monotonic()
        self.ready = True
        self.editor.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("run", "original", "command") and not self.ready:
            return None  # shown disabled until the request is there
        return True

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
        from hooktui.replay.reproduce import rerun

        try:
            result = rerun(self._edited(text))
        except Exception as exc:  # a request nested too deep, a bug: say it, stay up
            self.app.call_from_thread(self._failed, generation, exc)
            return
        self.app.call_from_thread(self._done, generation, text, result)

    def _edited(self, text: str) -> Record:
        from hooktui.replay.reproduce import edited_record

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
            from hooktui.replay import procs

            self.running = False
            self.generation += 1
            procs.kill_running()

    def _show(self) -> None:
        from hooktui.tui.present.reproduce import answer_view

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
        from hooktui.replay.reproduce import shell_command

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
