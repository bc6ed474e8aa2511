"""The filter input: checked as you type, errors shown inline with their position."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.filter_tokens import FilterError
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

Predicate = Callable[[Any], bool]


def check_filter(expr: str) -> tuple[Predicate | None, str]:
    """(predicate, "") for a valid expression (None when empty), else (None, message)."""
    if not expr.strip():
        return None, ""
    try:
        return compile_filter(expr), ""
    except FilterError as exc:
        where = getattr(exc, "position", None)
        message = getattr(exc, "message", None) or str(exc)
        return None, message if where is None else f"{message} (at {where + 1})"
    except Exception as exc:  # a filter bug must not take the dashboard down
        return None, f"cannot use this filter: {exc}"


class FilterBar(Vertical):
    """An Input plus a status line under it; posts Changed for each valid expression."""

    class Changed(Message):
        def __init__(self, text: str, predicate: Predicate | None) -> None:
            super().__init__()
            self.text = text
            self.predicate = predicate

    class Done(Message):
        """Enter: keep the filter (escape is the app's: it drops the filter)."""

        def __init__(self, keep: bool) -> None:
            super().__init__()
            self.keep = keep

    def compose(self) -> ComposeResult:
        yield Input(
            placeholder='filter: tool:Bash decision:deny latency>50ms -word "a phrase" or (…)',
            id="filter-input",
            # `/` opens the filter in force to be edited, the cursor at its end
            # (a group chosen in the patterns view is narrowed from there).
            select_on_focus=False,
        )
        yield Static(id="filter-status")

    @property
    def input(self) -> Input:
        return self.query_one(Input)

    def check(self) -> tuple[Predicate | None, str]:
        """The bar's expression checked: (predicate or None, error or "")."""
        return check_filter(self.input.value)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        predicate, error = check_filter(event.value)
        status = self.query_one("#filter-status", Static)
        if error:
            status.update(Text(f"✗ {error}", style="bold red"))
            self.set_class(True, "-invalid")
            return
        self.set_class(False, "-invalid")
        status.update(Text("✓ matching as you type · enter keeps · esc clears", style="dim"))
        self.post_message(self.Changed(event.value, predicate))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Done(keep=True))
