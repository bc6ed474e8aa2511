"""`show`'s text output: rows under one header, the closing tally, the group table.

Rows are formatted here with fixed widths rather than by rich.Table: a table
measures every cell before printing, which costs minutes for 100k rows and
cannot stream. The columns are watch's and replay's (`columns.py`): on a
terminal the row fits its width (columns are dropped, then cut with an
ellipsis); in a pipe or a CI log nothing is cut unless COLUMNS says how wide
the log is. Every field goes through the one sanitizer, and colour
follows NO_COLOR / FORCE_COLOR / TERM as rich decides, with each decision
also told by its symbol and word.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC
from typing import IO

import msgspec
from hooktui.tap.canonical import fails_open
from hooktui.tap.model import Blob, RecordHead
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.groups import Group
from hooktui.tap.read.last_words import stderr_words
from hooktui.tap.read.merge import end_time
from hooktui.tap.read.sanitize import safe_line
from hooktui.tui.present import format as fmt
from hooktui.tui.present.columns import SHOW_COLUMNS, STREAM, layout
from hooktui.tui.present.held import held_mark
from hooktui.tui.present.palette import decision_mark, decision_style

_NO_VALUE = ("", None)
GAP = 2  # spaces between columns


class _FailureText(msgspec.Struct):
    """The two fields of a full record a failure row shows, decoded only for failures."""

    stderr: Blob = msgspec.field(default_factory=Blob)
    failure_detail: str = ""


class _SentReason(msgspec.Struct):
    reason: str = ""


class _HeldReason(msgspec.Struct):
    sent: _SentReason | None = None


class _SentText(msgspec.Struct):
    """The reason a person's answer at a breakpoint gave, decoded only for those rows."""

    held: _HeldReason | None = None


_failure_decoder = msgspec.json.Decoder(_FailureText)
_sent_decoder = msgspec.json.Decoder(_SentText)


def why(head: RecordHead, line: bytes) -> str:
    """What a row says after the summary: the hook's reason, or what a failure printed last.

    For a call a person answered at a breakpoint, the reason the runtime got
    comes first, then the hook's own, marked as the hook's: its reason (for a
    deny, say) must not read as the reason of the verdict the row shows.
    """
    own = _hook_why(head, line)
    if head.held.sent is None or not head.held.sent.decision:
        return own  # the hook's own answer is what the runtime got
    try:
        held = _sent_decoder.decode(line).held
    except (msgspec.DecodeError, msgspec.ValidationError):
        held = None
    sent = held.sent.reason if held is not None and held.sent is not None else ""
    return " · ".join(part for part in (sent, f"hook: {own}" if own else "") if part)


def _hook_why(head: RecordHead, line: bytes) -> str:
    """The hook's own reason, or what it printed last when it failed."""
    if head.hook_decision != "failure":
        return head.reason
    try:
        extra = _failure_decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return head.reason
    said = stderr_words(extra.stderr)
    if said:
        return f"stderr: {said}"
    return head.reason or extra.failure_detail


MAX_COLUMNS = 10_000


def _width(stream: IO[str], console_width: int) -> int | None:
    """The width rows must fit: a terminal's, or COLUMNS; None (never cut) in a pipe."""
    if stream.isatty():
        return console_width
    columns = os.environ.get("COLUMNS", "")
    # ASCII digits only ("²" is a digit to str.isdigit, not to int), and no wider than
    # any terminal: rows are padded to the width, so COLUMNS=99999999999 would pad
    # each row to gigabytes.
    if not (columns.isascii() and columns.isdigit()) or int(columns) <= 0:
        return None
    return min(int(columns), MAX_COLUMNS)


class TextOut:
    """Fixed-width rows under one header; --follow adds rows under it as they come."""

    def __init__(self, utc: bool, several: bool, stream: IO[str]) -> None:
        from rich.cells import cell_len, set_cell_size
        from rich.color import ColorSystem
        from rich.console import Console
        from rich.style import Style

        # A terminal or log that cannot take some character (an ASCII locale)
        # gets a "?" for it, not a crash.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and (stream.encoding or "").lower().replace("-", "") != "utf8":
            reconfigure(errors="replace")
        # rich decides whether (and how) to colour: a terminal, NO_COLOR,
        # FORCE_COLOR and TERM are honoured as everywhere else.
        console = Console(file=stream, highlight=False, soft_wrap=False)
        self.color = not console.no_color
        self.color_system = {
            "standard": ColorSystem.STANDARD,
            "256": ColorSystem.EIGHT_BIT,
            "truecolor": ColorSystem.TRUECOLOR,
            "windows": ColorSystem.WINDOWS,
        }.get(console.color_system or "")
        self.file = stream
        self.cell_len = cell_len
        self.set_cell_size = set_cell_size
        self.header_style = Style(bold=True, underline=True)
        self.tally_style = Style(bold=True)
        self.note_style = Style(dim=True)
        self.held_style = Style(color="yellow", bold=True)  # watch's (rows.HELD)
        self.tz = UTC if utc else None
        self.several = several
        self.header_done = False
        self.width = _width(stream, console.width)
        self.layout = self._layout()
        # Milliseconds where the time column has room for them (always in a pipe).
        self.millis = dict((n, w) for n, w, _ in self.layout).get("time", 0) >= 12

    def _layout(self) -> list[tuple[str, int, str]]:
        """Columns and their widths, from the one column spec (`columns.py`); 0: not padded."""
        columns = tuple(c for c in SHOW_COLUMNS if c is not STREAM or self.several)
        return [(c.name, w, c.justify) for c, w in layout(columns, self.width, GAP)]

    def _styled(self, text: str, style) -> str:
        if style is None or self.color_system is None or not text:
            return text
        if not self.color:
            style = style.without_color
        return style.render(text, color_system=self.color_system)

    def _cell(self, text: str, style, width: int, right: bool, last: bool, lead: str = "") -> str:
        """`text` made safe, then cut (with an ellipsis) or padded to `width` cells.

        `lead` (already safe, one cell a character) goes first in the HELD style, and
        is the last part of the cell to be cut.
        """
        text = lead + safe_line(text)
        n = len(text) if text.isascii() else self.cell_len(text)
        if self.width is not None and n > width:
            text = self.set_cell_size(text, width - 1) + "…"
            n = width
        if lead:
            text = self._styled(text[: len(lead)], self.held_style) + self._styled(
                text[len(lead) :], style
            )
        else:
            text = self._styled(text, style)
        if n < width and not last:
            return " " * (width - n) + text if right else text + " " * (width - n)
        return text

    def _write(self, lines: list[str]) -> None:
        self.file.write("\n".join(lines) + "\n")
        self.file.flush()

    def _line(self, values: dict[str, tuple[str, object]]) -> str:
        layout, last = self.layout, len(self.layout) - 1
        cells = [
            self._cell(*values.get(n, _NO_VALUE), w, j == "right", i == last)
            for i, (n, w, j) in enumerate(layout)
        ]
        held = values.get("held")
        if held is not None:  # the summary again, led by the held mark (rare: redone here)
            i = next((i for i, (n, _, _) in enumerate(layout) if n == "summary"), None)
            if i is not None:
                _, w, j = layout[i]
                summary = values.get("summary", _NO_VALUE)
                cells[i] = self._cell(*summary, w, j == "right", i == last, lead=held)
        return (" " * GAP).join(cells).rstrip(" ")

    def rows(self, items: Sequence[tuple[str, RecordHead | BadLine, bytes]]) -> None:
        """(stream name, head, its line) per row."""
        if not items:
            return
        lines: list[str] = []
        if not self.header_done:
            self.header_done = True
            titles = {c.name: c.title for c in SHOW_COLUMNS}  # watch's titles ("answered")
            lines.append(
                self._line({n: (titles.get(n, n), self.header_style) for n, _, _ in self.layout})
            )
        lines += [self._line(self._values(name, e, line)) for name, e, line in items]
        self._write(lines)

    def _values(self, stream_name: str, e: RecordHead | BadLine, line: bytes) -> dict:
        if isinstance(e, BadLine):
            style = fmt.BAD_LINE_STYLE
            return {
                "stream": (stream_name, None),
                "summary": (f"byte {e.offset}: {e.error} · {e.preview}", style),
                "decision": ("✗ bad line", style),
            }
        fail_open = fails_open(e.decision, e.effect)
        # What failed says more than "failure".
        word = e.failure if e.decision == "failure" and e.failure else e.decision
        timeout = fmt.effective_timeout_ms(e.runtime, e.hook.timeout_ms, e.native_event)
        lat = fmt.format_latency(e.duration_ms)
        if fmt.near_timeout(e.duration_ms, timeout):
            lat = f"{fmt.NEAR_TIMEOUT_MARK}{lat}"
        values = {
            "time": (fmt.format_time(end_time(e), self.tz, self.millis), None),
            "stream": (stream_name, None),
            "runtime": (fmt.short_runtime(e.runtime), None),
            "event": (fmt.short_event(e.event), None),
            "hook": (e.hook.label, None),
            "tool": (e.tool_name, None),
            "summary": (e.summary, None),
            "decision": (
                decision_mark(e.decision, fail_open, word),
                decision_style(e.decision, fail_open, color=self.color),
            ),
            "latency": (lat, fmt.latency_style(e.duration_ms)),
            "why": (why(e, line), self.note_style),
        }
        if e.held.released_by:  # held at a breakpoint: said first, as watch's row does
            values["held"] = safe_line(held_mark(e)) + " "
        return values

    def tally(self, tally) -> None:
        self._write([self._styled(safe_line(tally.line()), self.tally_style)])

    def note(self, text: str) -> None:
        self._write([self._styled(safe_line(text), self.note_style)])

    def groups(self, by: str, groups: list[Group], tally) -> None:
        """The group table: one row per value of `by`, then the tally."""
        cols = (by, "calls", "deny", "deny%", "fail-open%", "p50", "p95")
        rows = [
            (
                g.key or "(none)",
                f"{g.count:,}",
                f"{g.deny:,}",
                f"{100 * g.deny_rate:.1f}",
                f"{100 * g.fail_open_rate:.1f}",
                fmt.format_latency(g.percentile(50) or 0.0),
                fmt.format_latency(g.percentile(95) or 0.0),
            )
            for g in groups
        ]
        key_w = max([len(by), *(self.cell_len(safe_line(r[0])) for r in rows)])
        if self.width is not None:
            key_w = min(key_w, max(12, self.width - 56))
        widths = (key_w, 9, 7, 6, 10, 8, 8)
        out = [self._grow_row(cols, widths, self.header_style)]
        out += [self._grow_row(r, widths, None) for r in rows]
        self._write(out)
        self.tally(tally)

    def _grow_row(self, cells: Sequence[str], widths: Sequence[int], style) -> str:
        first = self._cell(cells[0], style, widths[0], False, False)
        rest = [
            self._cell(c, style, w, True, False) for c, w in zip(cells[1:], widths[1:], strict=True)
        ]
        return "  ".join([first, *rest]).rstrip(" ")
