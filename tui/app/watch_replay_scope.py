"""Which calls watch's `r` replays, and the prompt that says so (see shown_calls.py).

Loaded when `r` is pressed, not with watch: it brings replay's prompt (and with it
the replay screen's modules), which the first frame does not need.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from hooktui.replay.hooks import hook_name
from hooktui.tap.model import Record
from hooktui.tui.app.replay import PolicyPrompt
from hooktui.tui.present.format import count_of, printable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

# How the replay screen's header says to bring the left-out calls back.
INCLUDE_HINT = "ctrl+o in r's prompt"
# Hooks named in a line before "and N more": a stream may hold dozens.
NAMED_HOOKS = 4


def _hooks(counts: Counter, skip: str = "") -> str:
    named = [(name, n) for name, n in counts.most_common() if name != skip]
    text = ", ".join(f"{printable(name)} ({n:,})" for name, n in named[:NAMED_HOOKS])
    if len(named) > NAMED_HOOKS:
        text += f" and {len(named) - NAMED_HOOKS} more"
    return text


class Scope:
    """Which of the read calls `r` replays: one hook's, or all of them (`narrow` says)."""

    def __init__(self, records: list[Record], focused: Record | None, *, marked: bool) -> None:
        self.records = records
        self.marked = marked
        self.names = [hook_name(r) for r in records]
        self.counts = Counter(self.names)
        # The focused call's hook, unless it has no call here (the cursor rests on
        # an unmarked call of another hook): then the hook with the most calls.
        name = hook_name(focused) if focused is not None else ""
        self.hook = name if name in self.counts else self.counts.most_common(1)[0][0]
        self.narrow = len(self.counts) > 1 and not marked

    @property
    def spans_hooks(self) -> bool:
        return len(self.counts) > 1

    def count(self) -> int:
        return self.counts[self.hook] if self.narrow else len(self.records)

    def chosen(self) -> list[Record]:
        if not self.narrow:
            return list(self.records)
        return [r for r, name in zip(self.records, self.names, strict=True) if name == self.hook]

    def left_out(self) -> dict[str, int]:
        """Hook name -> calls not replayed, most first (as replay.hooks counts them)."""
        if not self.narrow:
            return {}
        return {name: n for name, n in self.counts.most_common() if name != self.hook}

    def what(self) -> str:
        """`the 412 calls of hook guard.sh`, `5 marked calls of 2 hooks`."""
        kind = "marked call" if self.marked else "call"
        if self.narrow or not self.spans_hooks:
            calls = count_of(self.counts[self.hook], kind)
            return f"the {calls} of hook {printable(self.hook)}"
        return f"{count_of(len(self.records), kind)} of {count_of(len(self.counts), 'hook')}"

    def scope_line(self) -> str:
        """What is left out and how to include it, or which hooks all of it spans."""
        if not self.spans_hooks:
            return ""
        if self.narrow:
            left = self.left_out()
            calls = count_of(sum(left.values()), "call")
            others = count_of(len(left), "other hook")
            return (
                f"{calls} of {others} left out: {_hooks(self.counts, self.hook)}"
                " · ctrl+o: include them"
            )
        only = count_of(self.counts[self.hook], "call")
        return f"hooks: {_hooks(self.counts)} · ctrl+o: only {printable(self.hook)}'s {only}"

    def notice(self) -> str:
        """The notification `r` shows as the prompt opens."""
        if not self.spans_hooks:  # one hook: nothing is left out, nothing to choose
            return f"replay {count_of(len(self.records), 'call')}: which hook command?"
        text = f"replay {self.what()}"
        if self.narrow:
            left = self.left_out()
            calls = count_of(sum(left.values()), "call")
            text += f"; {calls} of {count_of(len(left), 'other hook')} left out"
        return text + ": which hook command?"


class ScopedPolicyPrompt(PolicyPrompt):
    """replay's policy prompt, saying which calls it replays; ctrl+o widens or narrows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+o", "toggle_scope", "One hook / all", id="watch.replay.scope"),
    ]

    def __init__(self, scope: Scope) -> None:
        super().__init__(scope.count())
        self.scope = scope

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            # Static, not Label: these lines are longer than the prompt and wrap.
            yield Static(self._question(), id="policy-question", markup=False)
            yield Static(self._scope_text(), id="policy-scope", markup=False)
            yield Label("Leave empty to re-run each call's recorded hook.", classes="dim")
            yield Input(placeholder="python3 /path/to/guard.py", id="policy")
            yield Label("enter: replay   esc: cancel", id="prompt-hint")

    def on_mount(self) -> None:
        self.query_one("#policy-scope", Static).display = self.scope.spans_hooks

    def _question(self) -> str:
        return f"Replay {self.scope.what()} against which hook command? (run through sh -c)"

    def _scope_text(self) -> Text:
        return Text(self.scope.scope_line(), style="yellow")

    def action_toggle_scope(self) -> None:
        if not self.scope.spans_hooks:
            return
        self.scope.narrow = not self.scope.narrow
        self.count = self.scope.count()
        self.query_one("#policy-question", Static).update(self._question())
        self.query_one("#policy-scope", Static).update(self._scope_text())
