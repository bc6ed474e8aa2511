"""Small modal prompts: a path to write (`w`), and a yes/no question (overwrite?)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class PathPrompt(ModalScreen[str | None]):
    """Asks for a path; dismisses with it, or None on escape.

    `question` may be a function: it is asked again while the prompt is open,
    so a count in it stays true as records keep arriving.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="prompt.cancel"),
    ]

    def __init__(
        self,
        question: str | Callable[[], str],
        value: str = "",
        hint: str = "enter writes · esc cancels · an existing file is not replaced unasked",
    ) -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.hint = hint

    def _question(self) -> str:
        return self.question() if callable(self.question) else self.question

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            yield Static(self._question(), id="prompt-question", markup=False)
            yield Input(value=self.value, id="prompt-input")
            yield Static(self.hint, id="prompt-hint", markup=False)

    def on_mount(self) -> None:
        if callable(self.question):
            self.set_interval(0.25, self._refresh_question)

    def _refresh_question(self) -> None:
        self.query_one("#prompt-question", Static).update(self._question())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmPrompt(ModalScreen[bool]):
    """A yes/no question: y or enter says yes, n or escape says no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            yield Static(self.question, id="prompt-question", markup=False)
            yield Static("y: yes · n / esc: no", id="prompt-hint", markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
