"""Watch's patterns view: the shown calls grouped by one field, sortable, and their timeline.

The panel only draws: the app counts (`hooktui.tap.read.groups.Patterns`, in
a worker) and hands it the result with `show`. Its keys say what the user
wants (group by another field, sort by another column, filter to a group) as
messages the app acts on.
"""

from __future__ import annotations

from datetime import tzinfo
from typing import ClassVar

from hooktui.tap.read.focus import Focus
from hooktui.tap.read.groups import Group, Patterns
from hooktui.tui.app.widgets.keyed_rows import KeyedRows
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.present.columns import GROUP_COLUMNS, Cell, short
from hooktui.tui.present.format import count_of, format_latency, latency_style
from hooktui.tui.present.palette import FAIL_OPEN, look
from hooktui.tui.present.rows import cells_row, titles_row
from hooktui.tui.present.timeline import timeline_text
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

# What the view groups by (`b` steps through them), and sorts by (`s`).
BY_FIELDS = ("hook", "tool", "decision", "reason", "failure", "runtime", "event")
SORTS = ("count", "deny", "fail_open", "p95", "name")
NONE_LABEL = "(none)"


def _rate(part: int, whole: int, style: Style) -> Cell:
    if not part:
        return "0%", Style(dim=True)
    share = 100 * part / whole
    return (f"{share:.1f}%" if share < 99.95 else "100%"), style


def group_cells(group: Group, color: bool = True) -> dict[str, Cell]:
    """Each patterns column's cell for one group."""
    p95 = group.percentile(95)
    return {
        "name": (short(group.key), None) if group.key else (NONE_LABEL, Style(dim=True)),
        "count": (f"{group.count:,}", Style(bold=True)),
        "deny": _rate(group.deny, group.count, look("deny").style(color)),
        "fail_open": _rate(group.fail_open, group.count, FAIL_OPEN.style(color)),
        "p95": (format_latency(p95), latency_style(p95)) if p95 is not None else ("", None),
    }


def group_titles(by: str, sort: str, reverse: bool, width: int) -> Text:
    """The column titles: the grouped field's name first, an arrow on the sorted column."""
    # Most first, except names (a to z): the arrow says which way the list runs.
    descending = (sort != "name") != reverse
    arrow = " ▼" if descending else " ▲"
    columns = tuple(
        c._replace(title=(by if c.name == "name" else c.title) + (arrow if c.name == sort else ""))
        for c in GROUP_COLUMNS
    )
    return titles_row(columns, width)


class GroupList(LineList):
    """One row per group; the cursor stays on the chosen group as counts re-sort the rows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "choose",
            "Filter to group",
            tooltip="filter the list to the selected group (shown in the filter bar)",
            id="patterns.choose",
        ),
        Binding("b", "regroup(1)", "Group by", tooltip="group by the next field", id="patterns.by"),
        Binding(
            "B",
            "regroup(-1)",
            "Group by",
            show=False,
            tooltip="group by the previous field",
            id="patterns.by_back",
        ),
        Binding("s", "resort", "Sort", tooltip="sort by the next column", id="patterns.sort"),
        Binding(
            "S",
            "reverse",
            "Reverse",
            show=False,
            tooltip="reverse the order",
            id="patterns.reverse",
        ),
        Binding(
            "escape", "screen.patterns", "Back", tooltip="back to the calls", id="patterns.back"
        ),
    ]

    class Chosen(Message):
        """Enter on a group: filter the list to it."""

        def __init__(self, by: str, key: str, filter: str) -> None:
            super().__init__()
            self.by = by
            self.key = key
            self.filter = filter  # the expression selecting exactly its calls

    class Regroup(Message):
        """Group by another field: the app counts again."""

        def __init__(self, by: str) -> None:
            super().__init__()
            self.by = by

    class Resorted(Message):
        """The order changed: the titles show it."""

    def __init__(self, **kwargs) -> None:
        self.groups = KeyedRows()
        focus = Focus(self.groups)
        focus.set_following(False)  # a table is read from the top
        super().__init__(focus, **kwargs)
        self.by = BY_FIELDS[0]
        self.sort = SORTS[0]
        self.reverse = False
        self._patterns: Patterns | None = None

    def render_row(self, row: int, width: int) -> Text:
        return cells_row(
            GROUP_COLUMNS, width, group_cells(self.groups.item(row), not self.app.no_color)
        )

    def fill(self, patterns: Patterns | None) -> None:
        """Show these groups in the chosen order (the cursor keeps its group)."""
        self._patterns = patterns
        rows = patterns.groups.rows(self.sort, self.reverse) if patterns is not None else []
        self.groups.replace((g.key, g) for g in rows)

    @property
    def current(self) -> Group | None:
        row = self.focus_model.selected_row
        return None if row is None else self.groups.item(row)

    def action_choose(self) -> None:
        group = self.current
        if group is not None:
            self.post_message(self.Chosen(self.by, group.key, group.filter(self.by)))

    def action_open(self) -> None:  # a double click
        self.action_choose()

    def action_regroup(self, step: int) -> None:
        self.by = BY_FIELDS[(BY_FIELDS.index(self.by) + step) % len(BY_FIELDS)]
        self.post_message(self.Regroup(self.by))

    def action_resort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.reverse = False
        self._resorted()

    def action_reverse(self) -> None:
        self.reverse = not self.reverse
        self._resorted()

    def _resorted(self) -> None:
        self.fill(self._patterns)
        self.post_message(self.Resorted())


class PatternsPanel(Vertical):
    """A title line, the group table with its titles, and the timeline under it."""

    def compose(self) -> ComposeResult:
        self.heading = Static(id="patterns-title")
        self.titles = Static(id="patterns-columns")
        self.list = GroupList(id="patterns-list")
        self.chart = Static(id="timeline")
        yield self.heading
        yield self.titles
        yield self.list
        yield self.chart

    def show(
        self, patterns: Patterns | None, counting: bool, tz: tzinfo | None, color: bool
    ) -> None:
        """Draw `patterns` (None: not counted yet)."""
        self._shown = (patterns, counting, tz, color)
        self.list.fill(patterns)
        self._draw_heading()
        self._draw_titles()
        width = self.size.width or 80
        minutes = patterns.timeline.minutes() if patterns is not None else []
        if patterns is None:
            self.chart.update(Text(" …", style=Style(dim=True)))
        else:
            self.chart.update(timeline_text(minutes, width, tz, color))

    def _draw_titles(self, width: int | None = None) -> None:
        lst = self.list
        width = width or lst.row_width or self.size.width or 80
        self.titles.update(group_titles(lst.by, lst.sort, lst.reverse, width))

    def _draw_heading(self) -> None:
        patterns, counting = self._shown[0], self._shown[1]
        lst = self.list
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(" patterns", style=Style(bold=True))
        text.append(f" by {lst.by}", style=Style(bold=True, color="cyan"))
        if patterns is not None:
            groups = len(patterns.groups)
            text.append(f"  {count_of(patterns.calls, 'call')} in {count_of(groups, 'group')}")
        if counting:
            text.append("  counting…", style=Style(italic=True))
        self.heading.update(text)

    def on_line_list_row_width(self, message: LineList.RowWidth) -> None:
        message.stop()  # the calls' titles are the app's; these are the panel's
        self._draw_titles(message.width)

    def on_group_list_resorted(self, message: GroupList.Resorted) -> None:
        message.stop()
        self._draw_titles()

    def on_line_list_highlighted(self, message: LineList.Highlighted) -> None:
        message.stop()  # the detail pane shows calls, not groups

    def on_line_list_follow_changed(self, message: LineList.FollowChanged) -> None:
        message.stop()

    def on_resize(self) -> None:
        if getattr(self, "_shown", None) is not None:
            self.show(*self._shown)
