"""The held calls' panel: calls a breakpoint holds, first in the body, with their keys.

Each row: the time left before the call goes on by itself, the call, and the
verdict the runtime would take from the hook's own answer. Under the rows, the
selected call: its request, the hook's answer, the timeout it must stay inside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from hooktui.tui.present.held import detail_text, row_text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

if TYPE_CHECKING:  # (the server itself loads with the first breakpoint)
    from hooktui.tap.hold.server import HeldCall

KEYS = "enter: the hook's answer · a: allow · d: deny · e: edit · tab: the call list"


class HeldList(OptionList):
    """The queue; its keys ask the app (WatchHold) to decide for the highlighted call."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "decide('hook')", "Let go", id="held.hook"),
        Binding("a", "decide('allow')", "Allow", id="held.allow"),
        Binding("d", "decide('deny')", "Deny", id="held.deny"),
        Binding("e", "decide('edit')", "Edit", id="held.edit"),
    ]

    class Decide(Message):
        def __init__(self, number: int, how: str) -> None:
            super().__init__()
            self.number, self.how = number, how

    def action_decide(self, how: str) -> None:
        if self.highlighted is not None:
            option = self.get_option_at_index(self.highlighted)
            self.post_message(self.Decide(int(option.id or 0), how))


class HeldPanel(Vertical):
    DEFAULT_CSS = """
    HeldPanel { height: auto; max-height: 50%; display: none; border: heavy $warning; }
    HeldPanel.-holding { display: block; }
    HeldPanel HeldList { height: auto; max-height: 8; border: none; }
    HeldPanel #held-detail { height: auto; max-height: 10; padding: 0 1; }
    HeldPanel #held-keys { height: 1; padding: 0 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        self.list = HeldList(id="held-list")
        self.detail = Static(id="held-detail", markup=False)
        yield self.list
        yield self.detail
        yield Static(KEYS, id="held-keys", markup=False)

    def show(self, calls: list[HeldCall]) -> None:
        """Rows for `calls` (oldest first), keeping the highlighted one when it is still held."""
        self.calls = {c.number: c for c in calls}
        self.set_class(bool(calls), "-holding")
        self.border_title = f"⏸ {len(calls)} held" if calls else ""
        keep = self.current
        self.list.clear_options()
        self.list.add_options([Option(row_text(c), id=str(c.number)) for c in calls])
        if calls:
            numbers = [c.number for c in calls]
            self.list.highlighted = numbers.index(keep.number) if keep in calls else 0
        self.tick()

    @property
    def current(self) -> HeldCall | None:
        index = self.list.highlighted
        if index is None or index >= self.list.option_count:
            return None
        return getattr(self, "calls", {}).get(int(self.list.get_option_at_index(index).id or 0))

    def tick(self) -> None:
        """Redraw the times left (rows and the selected call)."""
        calls = getattr(self, "calls", {})
        for number, call in calls.items():
            try:
                self.list.replace_option_prompt(str(number), row_text(call))
            except Exception:  # gone between two redraws
                pass
        call = self.current
        self.detail.update(detail_text(call) if call is not None else "")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        call = self.current
        self.detail.update(detail_text(call) if call is not None else "")
