"""Watch's breakpoints: `i` sets, changes or clears one; held calls wait first in the body.

The breakpoint panel owns its HoldServer (tap/hold/server.py), which does the
work off the UI thread and says its queue changed with a message; the panel
redraws its rows.
A held call's keys (widgets/held.py) decide it: the hook's own answer, allow,
deny (asking a reason) or an edit (held_edit.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from hooktui.tap.read.filter_tokens import FilterError
from hooktui.tui.app.keys import Key
from hooktui.tui.app.widgets.held import HeldList, HeldPanel
from hooktui.tui.app.widgets.prompt import PathPrompt
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

if TYPE_CHECKING:
    from hooktui.tap.hold.server import HoldServer

# The server, its answers and the edit screen load with the first breakpoint (`i`,
# --intercept) or held call: watch's first frame needs none of them.


class BreakpointPrompt(PathPrompt):
    """The `i` prompt: an empty line clears the breakpoint (esc leaves it as it was)."""

    def on_input_submitted(self, event) -> None:
        event.stop()
        event.prevent_default()  # not PathPrompt's too: it answers None for an empty line
        self.dismiss(event.value.strip())


class HeldChanged(Message):
    """The server's queue changed (posted from its threads)."""


class BreakpointPanel(HeldPanel):
    """The held calls, first in the body, and the breakpoint that holds them.

    Depends on: the call list (focus moves between it and the held rows as calls
    come and go) and `changed` (the header marks an armed breakpoint). `server` is a HoldServer already holding --intercept's
    breakpoint, or None until `i`.
    """

    KEYS: ClassVar[tuple[Key, ...]] = (
        Key(
            Binding(
                "i",
                "intercept",
                "Intercept",
                show=False,
                tooltip="breakpoint: hold calls matching a filter before the runtime has them",
                id="watch.intercept",
            )
        ),
    )

    def __init__(
        self, server: HoldServer | None, calls: Widget, changed: Callable[[], None], **kwargs
    ) -> None:
        super().__init__(**kwargs)
        self.hold = server
        self._calls = calls
        self._changed = changed

    @property
    def breakpoint(self) -> str:
        """The breakpoint's expression while one is armed, else ""."""
        return self.hold.expr if self.hold is not None else ""

    def on_mount(self) -> None:
        server = self.hold
        if server is not None:
            server.on_change = lambda: self.post_message(HeldChanged())
            self.post_message(HeldChanged())  # calls held before the app was up
            self._breakpoint_shown()
        self.set_interval(0.5, self._tick_held)

    def on_unmount(self) -> None:
        if self.hold is not None:
            self.hold.close()  # every held call goes on with the hook's answer

    def _server(self) -> HoldServer:
        if self.hold is None:
            from hooktui.tap.hold.server import HoldServer

            self.hold = HoldServer(on_change=lambda: self.post_message(HeldChanged()))
        return self.hold

    # -- `i`: the breakpoint -------------------------------------------------------

    def action_intercept(self) -> None:
        current = self.hold.expr if self.hold is not None else ""
        question = "hold calls matching (the filter language; empty clears the breakpoint):"
        hint = "enter sets · esc cancels · e.g. tool:Bash decision:deny"
        self.app.push_screen(BreakpointPrompt(question, current, hint), self._set_breakpoint)

    def _set_breakpoint(self, expr: str | None) -> None:
        from hooktui.tap.hold.server import HoldError

        if expr is None:
            return
        try:
            self._server().set_breakpoint(expr)
        except (FilterError, HoldError) as exc:
            self.app.notify(f"breakpoint not set: {exc}", severity="error")
            return
        self._breakpoint_shown()

    def _breakpoint_shown(self) -> None:
        expr = self.hold.expr if self.hold is not None else ""
        self.app.sub_title = f"⏸ holding {expr}" if expr else ""
        self._changed()  # the header marks an armed breakpoint for as long as it holds calls
        self.app.notify(f"holding calls matching {expr}" if expr else "breakpoint cleared")

    # -- the queue ---------------------------------------------------------------

    def on_held_changed(self, message: HeldChanged) -> None:
        calls = self.hold.held() if self.hold is not None else []
        had = self.has_class("-holding")
        self.show(calls)
        focused = self.screen.focused
        if calls and not had and focused in (self._calls, None):  # None: held as watch starts
            self.call_after_refresh(self.list.focus)  # once shown: a hidden list takes no focus
        elif not calls and had and focused is self.list:
            self._calls.focus()

    def _tick_held(self) -> None:
        if self.has_class("-holding"):
            self.tick()

    def on_held_list_decide(self, message: HeldList.Decide) -> None:
        from hooktui.tap.hold import answers
        from hooktui.tui.app.held_edit import EditHeld

        call = self.calls.get(message.number)
        if call is None:
            return
        if message.how == "hook":
            self._release(call, answers.own())
        elif message.how == "allow":
            self._encoded(call, answers.allow)
        elif message.how == "deny":
            question = f"deny {call.record.summary or call.record.tool_name}: the reason"
            hint = "enter denies · esc back (still held)"
            self.app.push_screen(
                PathPrompt(question, "denied from hooktui", hint),
                lambda reason: reason is not None and self._encoded(call, answers.deny, reason),
            )
        elif message.how == "edit":
            record = call.record
            tool_input = record.tool_input if record.event == "pre_tool_use" else None
            self.app.push_screen(
                EditHeld(tool_input, record.stdout.data), lambda done: self._edited(call, done)
            )

    def _edited(self, call, done) -> None:
        from hooktui.tap.hold import answers

        if done is None:
            return
        kind, value = done
        if kind == "input":
            self._encoded(call, answers.rewrite, value)
        else:
            self._encoded(call, answers.typed, value, call.record.exit_code or 0)

    def _encoded(self, call, make, *args) -> None:
        try:
            frame = make(call, *args)
        except ValueError as exc:  # the runtime has no such answer here: still held
            self.app.notify(str(exc), severity="error")
            return
        self._release(call, frame)

    def _release(self, call, frame: dict) -> None:
        if self.hold is None or not self.hold.release(call.number, frame):
            self.app.notify("that call is no longer held (its deadline passed)", severity="warning")
