"""`e` on a held call: edit the tool input (a rewrite) or the answer itself, in a text area.

ctrl+s sends, esc goes back (the call stays held), ctrl+t switches between the
tool input and the answer. The tool input must be JSON; the answer goes as typed.
"""

from __future__ import annotations

import json
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

HINT = "ctrl+s sends · esc back (still held) · ctrl+t: {other}"
TITLES = {"input": "the tool input (sent as a rewrite)", "answer": "the answer (sent as typed)"}


class EditHeld(ModalScreen[tuple[str, object] | None]):
    """Dismisses with ("input", value) or ("answer", text), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Send", priority=True, id="held_edit.send"),
        Binding("escape", "cancel", "Back", id="held_edit.cancel"),
        Binding("ctrl+t", "switch", "Switch", priority=True, id="held_edit.switch"),
    ]
    DEFAULT_CSS = """
    EditHeld { align: center middle; }
    EditHeld > Vertical { width: 90%; height: 80%; border: heavy $warning; background: $surface; }
    EditHeld TextArea { height: 1fr; }
    EditHeld #edit-title, EditHeld #edit-hint { height: 1; padding: 0 1; }
    """

    def __init__(self, tool_input: object, answer: str) -> None:
        super().__init__()
        self.texts = {"answer": answer}
        if tool_input is not None:
            self.texts["input"] = json.dumps(tool_input, indent=2, ensure_ascii=False)
        self.mode = "input" if "input" in self.texts else "answer"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="edit-title", markup=False)
            self.area = TextArea(self.texts[self.mode], id="edit-area")
            yield self.area
            yield Static(id="edit-hint", markup=False)

    def on_mount(self) -> None:
        self._label()
        self.area.focus()

    def _label(self) -> None:
        other = (
            "none" if len(self.texts) < 2 else TITLES["answer" if self.mode == "input" else "input"]
        )
        self.query_one("#edit-title", Static).update(f"edit {TITLES[self.mode]}")
        self.query_one("#edit-hint", Static).update(HINT.format(other=other))

    def action_switch(self) -> None:
        if len(self.texts) < 2:
            return
        self.texts[self.mode] = self.area.text
        self.mode = "answer" if self.mode == "input" else "input"
        self.area.load_text(self.texts[self.mode])
        self._label()

    def action_send(self) -> None:
        text = self.area.text
        if self.mode == "answer":
            self.dismiss(("answer", text))
            return
        try:
            value = json.loads(text)
        except ValueError as exc:
            self.notify(f"the tool input is not JSON: {exc}", severity="error")
            return
        self.dismiss(("input", value))

    def action_cancel(self) -> None:
        self.dismiss(None)
