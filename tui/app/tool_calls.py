"""Watch's tool-call view (`t`): one row per tool call, opened into its hook calls.

A part of the watch screen that owns its state: whether it is shown, the grouping
(tool_call_model.CallGroups, fed in a thread worker: never on the UI thread), which
calls are opened, and its rows (a KeyedRows the shared LineList draws). While shown it
follows the view: lines that arrive join their call (a late hook of a call updates
its row), a filter or marked-only tests the calls again, a reloaded stream starts
the grouping over. The cursor's hook call (a call row: the hook whose answer the
call took) is what the detail pane shows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import tzinfo
from typing import ClassVar, NamedTuple

from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.focus import Focus
from hooktui.tap.read.index_order import Renumber
from hooktui.tap.read.merge import parse_ts
from hooktui.tap.read.view import CallView, StreamLine
from hooktui.tap.toolcall.group import GUARDING
from hooktui.tap.toolcall.model import HookPart, ToolCall
from hooktui.tui.app.keys import Key
from hooktui.tui.app.tool_call_model import CallGroups, Grouped, Job
from hooktui.tui.app.widgets.call_list import CallList
from hooktui.tui.app.widgets.keyed_rows import KeyedRows
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.present.tool_calls import call_row, hook_name, hook_row
from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message

# Lines that arrive are grouped at most this often (a burst regroups a few times a second).
GROUP_INTERVAL = 0.25


class Row(NamedTuple):
    call: ToolCall
    part: HookPart | None = None  # None: the call's own row
    event: str = ""  # the hook's event
    last: bool = False  # the call's last hook row
    name: str = ""  # the hook's name: its label, or its command where labels repeat


def _not_shown(part: ToolCallList) -> str | None:
    return None if part.is_open else "the tool-call view is not shown (t shows it)"


def _no_row(part: ToolCallList) -> str | None:
    return _not_shown(part) or ("no tool call selected" if part.row is None else None)


class ToolCallList(LineList):
    """The tool calls of the view's streams, each opened into its hooks on demand.

    Depends on: the view (its lines, filter, marks), the time zone rows read in, the
    hook calls' list (the cursor moves between the two views' rows), `shown(open)` (the screen's layout for it) and `changed` (the header).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "open",
            "Open",
            show=False,
            tooltip="open / close the call; on a hook call, its detail",
            id="toolcalls.open",
        ),
        Binding(
            "space",
            "toggle",
            "Open",
            show=False,
            tooltip="open / close the call into its hook calls (★ the one whose answer it took)",
            id="toolcalls.toggle",
        ),
        Binding(
            "right", "expand", "Open", show=False, tooltip="open the call", id="toolcalls.expand"
        ),
        Binding(
            "left",
            "collapse",
            "Close",
            show=False,
            tooltip="close the call (from a hook call: back on its call)",
            id="toolcalls.collapse",
        ),
    ]

    KEYS: ClassVar[tuple[Key, ...]] = (
        Key(
            Binding(
                "t",
                "tool_calls",
                "Tool calls",
                show=False,  # (the footer keeps room for q at 80 columns; ? and ctrl+p list it)
                tooltip="tool calls / hook calls: one row per tool call, its hooks' combined outcome",
                id="watch.tool_calls",
            )
        ),
    )

    class Opened(Message):
        """Enter on a hook row: the detail pane should take focus."""

    def __init__(
        self,
        view: CallView,
        tz: tzinfo | None,
        *,
        hooks: CallList,
        shown: Callable[[bool], None],
        changed: Callable[[], None],
        **kwargs,
    ) -> None:
        self.rows = KeyedRows()
        super().__init__(Focus(self.rows), **kwargs)
        self.calls_view, self.tz = view, tz
        self.hooks = hooks  # the hook calls' list: where the cursor goes from and back to
        self._seek: tuple[int, int] | None = None
        self._layout, self._changed = shown, changed
        self.is_open = False
        self.grouping = False  # a worker is grouping
        self.model = CallGroups(view.sources)
        self.calls: list[ToolCall] = []
        self._shown: set[str] = set()
        self.opened: set[str] = set()  # the keys of the calls shown with their hooks
        self._generation = 0
        self._index = None  # the view's index last fed (a new one: start over)
        self._fed = 0  # its lines fed so far
        self._restart = True
        self._pending: list = []  # lines prepended to the index, to feed
        self._again = False
        self._due = False
        self._last = 0.0
        self._predicate: tuple[str, Callable | None] = ("", None)
        view.on_indexed.append(self._indexed)
        view.on_added.append(lambda _first, _count: self._soon())
        view.on_refresh.append(self._soon)
        view.on_prepended.append(lambda _count, _shown: self._soon())

    # -- shown or not --------------------------------------------------------

    def action_tool_calls(self) -> None:
        """`t`: tool calls in the hook calls' place, or back."""
        self.is_open = not self.is_open
        hooks = self.hooks
        if self.is_open:
            # The hook call the user was on: its tool call is where the cursor starts.
            self._seek = None if hooks.following or hooks.current is None else hooks.current.key
            self.set_following(self._seek is None)
            self._start_over()
        else:
            self._generation += 1  # a run still going is not wanted
            line = None if self.following else self.current
            row = None if line is None else self.calls_view.row_of(line.key)
            if row is not None:  # back on the hook call the cursor was on (or its winner)
                hooks.focus_model.move_to(row)
        self._layout(self.is_open)
        self._changed()

    def _start_over(self) -> None:
        self._generation += 1
        self._restart, self._index, self._fed, self._pending = True, None, 0, []
        self.calls, self._shown = [], set()
        self.rows.replace([])
        self._sync()

    # -- following the view ----------------------------------------------------

    def _indexed(self, moved: Renumber) -> None:
        """Lines went into the index, shown or not: older ones first, a late one among
        those fed (answer order). `moved` says where the lines fed so far went."""
        view = self.calls_view
        if self.is_open and view.index is self._index and self._fed:
            fed = moved(self._fed - 1) + 1
            self._pending.extend(view.index.key(i) for i in moved.inserted(below=fed))
            self._fed = fed
        self._soon()

    def _soon(self) -> None:
        """The view changed: group what is new soon, with whatever comes next."""
        if not self.is_open or self._due:
            return
        self._due = True
        wait = self._last + GROUP_INTERVAL - time.monotonic()
        if wait > 0:
            self.set_timer(wait, self._sync)
        else:
            self.call_later(self._sync)

    def _sync(self) -> None:
        self._due = False
        self._last = time.monotonic()
        if not self.is_open:
            return
        if self.grouping:
            self._again = True
            return
        job = self._job()
        if job is not None:
            self.grouping = True
            self._group(job)

    def _job(self) -> Job | None:
        view = self.calls_view
        index = view.index
        if index is not self._index or len(index) < self._fed:
            self._index, self._fed, self._pending, self._restart = index, 0, [], True
        keys = self._pending + [index.key(i) for i in range(self._fed, len(index))]
        self._pending, self._fed = [], len(index)
        predicate = self._filter(view.filter_text)
        marked = frozenset(view.marks) if view.marked_only else None
        restart, self._restart = self._restart, False
        if not keys and not restart and (predicate, marked) == self._last_filter():
            return None
        self._asked = (predicate, marked)
        return Job(self._generation, restart, keys, predicate, marked)

    def _last_filter(self):
        return getattr(self, "_asked", None)

    def _filter(self, text: str) -> Callable | None:
        if text != self._predicate[0]:
            try:
                self._predicate = (text, compile_filter(text) if text else None)
            except Exception:  # the bar checked it; a filter that fails here shows all
                self._predicate = (text, None)
        return self._predicate[1]

    @work(thread=True, group="tool-calls")
    def _group(self, job: Job) -> None:
        # A chunk at a time: a big stream's first calls show while the rest is grouped.
        for grouped in self.model.runs(job):
            if grouped.generation != self._generation:
                break  # closed, or started over (the next run starts over too)
            self.app.call_from_thread(self._grouped, grouped)
        self.app.call_from_thread(self._run_ended)

    def _grouped(self, grouped: Grouped) -> None:
        if grouped.generation != self._generation or not self.is_open:
            return
        self.calls, self._shown = grouped.calls, grouped.shown
        if grouped.changed is None or not self._patch(grouped.changed):
            self._fill()
        self._go_to_seek()
        self._changed()

    def _run_ended(self) -> None:
        self.grouping = False
        self._changed()
        if self._again and self.is_open:
            self._again = False
            self._sync()

    def _go_to_seek(self) -> None:
        """Once grouped: the cursor onto the tool call of the hook call it started from."""
        rid = self.model.at.get(self._seek) if self._seek is not None else None
        if rid is None:
            return
        self._seek = None
        call = next((c for c in self.calls if any(p.id == rid for p in c.parts)), None)
        row = self.rows.row_of(("call", call.key)) if call is not None else None
        if row is not None:
            self.focus_model.move_to(row)

    # -- rows ------------------------------------------------------------------

    def _patch(self, changed: dict[str, ToolCall]) -> bool:
        """The changed calls' rows redrawn and new calls' rows added at the end, when that
        is all that changed (the usual live case); False: the rows must be laid out again."""
        rows, shown, opened = self.rows, self._shown, self.opened
        new: list[ToolCall] = []
        for key, call in changed.items():
            row = rows.row_of(("call", key))
            if key in opened and (row is not None or key in shown):
                return False  # its hook rows change
            if row is None:
                if key in shown:
                    new.append(call)
            elif key not in shown:
                return False  # its row goes
            else:
                rows.set_item(row, Row(call))
                self.refresh_row(row)
                if row == self.cursor:  # its winner may be another hook now: the detail
                    self.post_message(self.Highlighted(self, row))
        if new:
            new.sort(key=_order)
            if len(rows) and _order(new[0]) < _order(rows.item(len(rows) - 1).call):
                return False  # an older call came late: not at the end
            rows.extend((("call", c.key), Row(c)) for c in new)
        return True

    def row_look(self, row: int) -> tuple:
        call = self.rows.item(row).call  # a row redrawn in place (a hook joined its call)
        return (call.hooks, call.decision, len(call.conflicts))

    def _fill(self) -> None:
        rows: list[tuple] = []
        shown, opened = self._shown, self.opened
        for call in self.calls:
            if call.key not in shown:
                continue
            rows.append((("call", call.key), Row(call)))
            if call.key in opened:
                parts = [(step.event, part) for step in call.steps for part in step.hooks]
                names = self._names([part for _, part in parts])
                for i, (event, part) in enumerate(parts):
                    row = Row(call, part, event, i == len(parts) - 1, names[i])
                    rows.append((("hook", part.id), row))
        self.rows.replace(rows)

    def _names(self, parts: list[HookPart]) -> list[str]:
        """Each hook's label; where two hooks of a call share one, their commands."""
        labels = [part.label for part in parts]
        if len(set(labels)) == len(labels):
            return labels
        heads = self.model.heads
        return [hook_name(heads[p.id].hook.argv) if p.id in heads else p.label for p in parts]

    def render_row(self, row: int, width: int) -> Text:
        item: Row = self.rows.item(row)
        color = not self.app.no_color
        if item.part is None:
            return call_row(item.call, width, self.tz, item.call.key in self.opened, color)
        return hook_row(item.part, item.name, item.event, width, self.tz, item.last, color)

    @property
    def shown_calls(self) -> int:
        return len(self._shown)

    @property
    def row(self) -> Row | None:
        row = self.focus_model.selected_row
        return None if row is None else self.rows.item(row)

    @property
    def current(self) -> StreamLine | None:
        """The cursor's hook call: on a call's row, the hook whose answer it took."""
        row = self.row
        if row is None:
            return None
        rid = row.part.id if row.part is not None else winner(row.call)
        key = self.model.where.get(rid)
        return self.calls_view.line_of(key) if key is not None else None

    # -- opening a call ----------------------------------------------------------

    def action_toggle(self) -> None:
        row = self.row
        if row is None:
            return
        if row.part is not None or row.call.key in self.opened:
            self.action_collapse()
        else:
            self.action_expand()

    def action_expand(self) -> None:
        row = self.row
        if row is None or row.part is not None or row.call.key in self.opened:
            return
        self.set_following(False)  # the cursor stays on the call opened
        self.opened.add(row.call.key)
        self._fill()

    def action_collapse(self) -> None:
        row = self.row
        if row is None or row.call.key not in self.opened:
            return
        self.set_following(False)
        if row.part is not None:  # back on the call's row, as a tree does
            self.focus_model.move_to(self.rows.row_of(("call", row.call.key)))
        self.opened.discard(row.call.key)
        self._fill()

    def action_open(self) -> None:
        """Enter: a call opens or closes; on a hook call, the detail pane takes focus."""
        row = self.row
        if row is None:
            return
        if row.part is None:
            self.action_toggle()
        else:
            self.post_message(self.Opened())


def _order(call: ToolCall) -> tuple[float, str]:
    """Where a call sorts: as `Grouper.calls` orders them."""
    return (parse_ts(call.ts), call.key)


def winner(call: ToolCall) -> str:
    """The id of the hook whose answer the call took: the guarding step's decider (else its
    rewriter), else its first hook."""
    steps = [s for s in call.steps if s.event in GUARDING] or call.steps
    for step in steps:
        if step.decided_by or step.rewritten_by:
            return step.decided_by or step.rewritten_by
    return call.steps[0].hooks[0].id if call.steps and call.steps[0].hooks else call.key
