"""Watch's detail tabs: the selected call, decoded in full from its stream only when looked at.

The list holds heads only; `build_tabs` reads the full Record by offset and
builds every tab. It runs in the detail pane's thread worker, so moving the
cursor never waits for a big request to decode, and every field it lays out
is bounded (`clip`), so a 20 MB summary costs what 64 KiB does.
"""

from __future__ import annotations

import difflib
import shlex
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

import msgspec
from hooktui.tap.base.ids import random_part
from hooktui.tap.canonical import fails_open
from hooktui.tap.model import Blob, Record, RecordHead
from hooktui.tap.read.decode import BadLine, nests_deeper
from hooktui.tap.read.last_words import stderr_words
from hooktui.tap.read.lines import read_line_at, read_record_at
from hooktui.tap.read.merge import end_time, parse_ts
from hooktui.tap.read.view import StreamLine
from hooktui.tui.present.columns import decision_cell, near_timeout_style
from hooktui.tui.present.format import (
    BAD_LINE_STYLE,
    SHOW_LIMIT,
    bounded_text,
    clip,
    count_of,
    effective_timeout_ms,
    format_datetime,
    format_latency,
    format_time,
    near_timeout,
    pretty_json,
    printable,
)
from hooktui.tui.present.held import held_note
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from rich.syntax import Syntax

TABS = ("summary", "request", "response", "diff", "raw")
TAB_TITLES = tuple((tab, tab.capitalize()) for tab in TABS)
# Past this, highlighting costs more than it helps (it runs on the UI thread
# when the tab is drawn): show plain text instead.
HIGHLIGHT_LIMIT = 24 * 1024
# One line of the summary grid (a reason, a summary): the rest is in the other tabs.
FIELD_LIMIT = 4 * 1024

SYNTAX_THEME = "ansi_dark"

# What the runtime then did, by failure effect.
EFFECT_TEXT = {
    "proceeds": "the runtime let the call go ahead: the hook was bypassed (fail-open)",
    "blocks": "the runtime blocked the call (fail-closed)",
    "": "the runtime's reaction is not recorded; most runtimes let the call go ahead",
}


class Loaded(msgspec.Struct):
    """What the worker read for one line of a stream."""

    stream_line: StreamLine
    path: str
    record: Any  # Record | BadLine
    line: bytes


def _t(text: str, style: str = "", limit: int = FIELD_LIMIT) -> Text:
    """A recorded field as a renderable: bounded, never markup, controls made visible."""
    return bounded_text(text, style, limit)


def _json_view(value: Any, limit: int = SHOW_LIMIT) -> RenderableType:
    text = clip(value if isinstance(value, str) else pretty_json(value), limit)
    if isinstance(value, str) or len(text) > HIGHLIGHT_LIMIT:
        return bounded_text(text, limit=limit + 100)
    # JSON escapes C0 controls but not C1 ones (a one-byte CSI) or bidi
    # overrides: the highlighted text goes through the sanitizer too.
    return _syntax(printable(text))


def tool_input_of(record: Record) -> Any:
    """The tool input (or the prompt) of a recorded call, as its runtime read it."""
    return record.tool_input if record.tool_input is not None else record.prompt


def tool_output_of(record: Record) -> Any:
    return record.tool_output


def _blob_text(blob: Blob) -> tuple[str, str]:
    """(text, note) for a captured stream."""
    notes = [count_of(blob.length, "byte")]
    if blob.truncated:
        notes.append("truncated")
    if blob.encoding == "digest":
        notes.append(f"digest only, sha256 {blob.sha256[:16]}…")
        return "", ", ".join(notes)
    if blob.encoding == "base64":
        notes.append("not UTF-8, shown as base64")
    return blob.data, ", ".join(notes)


def _grid() -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    return table


def _when(ts: str, tz: tzinfo | None) -> str:
    try:
        return format_datetime(parse_ts(ts), tz)
    except (OverflowError, ValueError):  # year 1 or 9999 with an offset
        return f"{ts} (out of range)"


def _answered(record: Record, tz: tzinfo | None) -> Text:
    """When the hook answered (the list's time and order), then when it started."""
    end = end_time(record)
    if end != end:  # no time to count from: the recorded text as it is
        return _t(_when(record.ts, tz))
    text = _t(format_datetime(end, tz))
    started = format_time(parse_ts(record.ts), tz, True)
    text.append_text(
        _t(f"  started {started}, ran {format_latency(record.duration_ms)}", style="dim")
    )
    return text


def exit_status(record: Record | RecordHead) -> Text:
    if record.timed_out:
        return Text("timed out (killed)", style="bold red")
    if record.signal is not None:
        return Text(f"killed by signal {record.signal}", style="bold red")
    if record.exit_code is None:
        return Text("did not run", style="bold red")
    return Text(f"exit {record.exit_code}", style="green" if record.exit_code == 0 else "red")


def _named_value(value: Any) -> str:
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


def _answer_and_request_rows(grid: Table, record: Record) -> None:
    """What the answer asked for besides its decision (a row each: the runtime acts on
    them), and the request's details in one row."""
    for name, value in (record.answer_effects or {}).items():
        # The names come from the stream too: text, never markup.
        grid.add_row(_t(name.replace("_", " "), limit=64), _t(_named_value(value), style="bold"))
    if record.details:
        told = " · ".join(
            f"{name.replace('_', ' ')} {_named_value(value)}"
            for name, value in record.details.items()
        )
        grid.add_row("request", _t(told))


def summary_view(loaded: Loaded, tz: tzinfo | None, color: bool = True) -> RenderableType:
    stream_line, record = loaded.stream_line, loaded.record
    grid = _grid()
    if isinstance(record, BadLine):
        grid.add_row("line", Text("not a record", style=BAD_LINE_STYLE))
        grid.add_row("error", _t(record.error))
        where = f"{loaded.path}, byte {record.offset}, {count_of(record.length, 'byte')}"
        grid.add_row("where", _t(where))
        grid.add_row("starts", _t(record.preview))
        return grid
    fail_open = fails_open(record.decision, record.effect)
    sent = record.sent_instead  # a person decided at a breakpoint: what the runtime got
    shown = sent.decision if sent is not None else record.decision
    # A span, not the cell's style: a fail-open badge stays the width of its words.
    label, style = decision_cell(shown, record.effect if sent is None else "", color=color)
    decision = Text.assemble((printable(label), style))
    grid.add_row("decision", decision)
    if sent is not None and sent.reason:
        grid.add_row("reason", _t(sent.reason))
    held = held_note(record)
    if held:
        grid.add_row("held", _t(held, style="bold yellow"))
    if record.reason:
        grid.add_row("hook's reason" if sent is not None else "reason", _t(record.reason))
    if record.decision == "failure":
        why = record.failure or "unknown"
        if record.failure_detail:
            why += f": {record.failure_detail}"
        grid.add_row("failed", _t(why, style="dark_orange"))
        if said := stderr_words(record.stderr):
            grid.add_row("stderr", _t(said, style="dark_orange"))  # the crash's last line
        grid.add_row(
            "then",
            _t(
                EFFECT_TEXT.get(record.effect, record.effect), style="bold red" if fail_open else ""
            ),
        )
    elif record.failure_detail:
        # The runtime read the answer, but not as its author likely meant
        # (broken JSON taken as text, an ignored replacement, `continue: false`).
        grid.add_row("note", _t(record.failure_detail, style="dark_orange"))
    grid.add_row("tool", _t(record.tool_name or "—", style="bold"))
    if record.summary:
        grid.add_row("summary", _t(record.summary))
    event = record.event + (f" ({record.native_event})" if record.native_event else "")
    grid.add_row("event", _t(f"{record.runtime} · {event}"))
    grid.add_row("answered", _answered(record, tz))
    timeout = effective_timeout_ms(record.runtime, record.hook.timeout_ms, record.native_event)
    latency = Text(format_latency(record.duration_ms))
    if timeout:
        share = record.duration_ms / timeout * 100
        source = "" if record.hook.timeout_ms else " (runtime default)"
        latency.append(f"  {share:.0f}% of the {format_latency(timeout)} timeout{source}")
        if near_timeout(record.duration_ms, timeout):
            latency.append("  ")
            latency.append(" ◷ close to the timeout ", near_timeout_style(record.duration_ms))
    grid.add_row("latency", latency)
    grid.add_row("exit", exit_status(record))
    hook = record.hook
    grid.add_row("hook", _t(hook.label or "—"))
    if hook.argv:
        # Shell-quoted: it pastes as is into `hooktui replay --policy`.
        grid.add_row("command", _t(shlex.join(hook.argv)))
    if hook.cwd or record.cwd:
        grid.add_row("cwd", _t(hook.cwd or record.cwd))
    if record.context:
        grid.add_row("context", _t(record.context))
    _answer_and_request_rows(grid, record)
    ids = [
        f"{name} {value}"
        for name, value in (
            ("session", record.session_id),
            ("agent", record.agent_id),
            ("call", record.tool_call_id),
        )
        if value
    ]
    if ids:
        grid.add_row("ids", _t(" · ".join(ids)))
    if record.redactions:
        grid.add_row(
            "redacted",
            _t(", ".join(f"{r.kind} at {r.pointer}" for r in record.redactions)),
        )
    if record.tap_error:
        grid.add_row("tap error", _t(record.tap_error, style="red"))
    # The id's random part is what `replay --id` and `id:` take (any unique prefix).
    short = random_part(record.id)
    where = _t(f"{loaded.path} @ {stream_line.offset} · id ", style="dim")
    where.append_text(_t(short, style="bold"))
    if short != record.id:
        where.append_text(_t(f" ({record.id})", style="dim"))
    grid.add_row("record", where)
    parts: list[RenderableType] = [grid]
    tool_input = tool_input_of(record)
    if tool_input is not None:
        parts += [Text("\ninput", style="bold"), _json_view(tool_input)]
    return Group(*parts)


def request_view(loaded: Loaded) -> RenderableType:
    record = loaded.record
    if isinstance(record, BadLine):
        return Text("not a record: no request", style=BAD_LINE_STYLE)
    if record.request_format == "empty":
        return Text("the hook got an empty request", style="dim")
    return _json_view(record.request)


def _stream_view(title: str, blob: Blob) -> list[RenderableType]:
    text, note = _blob_text(blob)
    parts: list[RenderableType] = [Text.assemble((title, "bold"), (f"  ({note})", "dim"))]
    if not text:
        parts.append(Text("(empty)", style="dim"))
        return parts
    if blob.encoding == "utf-8":
        try:
            parts.append(_json_view(msgspec.json.decode(text)))
            return parts
        except msgspec.DecodeError:
            pass
    parts.append(_t(text))
    return parts


def response_view(loaded: Loaded) -> RenderableType:
    record = loaded.record
    if isinstance(record, BadLine):
        return Text("not a record: no response", style=BAD_LINE_STYLE)
    parts: list[RenderableType] = [exit_status(record), Text("")]
    parts += _stream_view("stdout", record.stdout)
    parts.append(Text(""))
    parts += _stream_view("stderr", record.stderr)
    return Group(*parts)


def unified_diff(before: Any, after: Any, names: tuple[str, str]) -> Text:
    """A coloured unified diff of two values as pretty JSON."""
    a = clip(before if isinstance(before, str) else pretty_json(before)).splitlines()
    b = clip(after if isinstance(after, str) else pretty_json(after)).splitlines()
    out = Text()
    for line in difflib.unified_diff(a, b, names[0], names[1], lineterm="", n=3):
        if line.startswith(("---", "+++")):
            style = "bold"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        else:
            style = ""
        out.append(printable(line) + "\n", style=style)
    if not out:
        out.append("before and after are the same", style="dim")
    return out


def diff_view(loaded: Loaded) -> RenderableType:
    record = loaded.record
    if isinstance(record, BadLine):
        return Text("not a record: nothing to compare", style=BAD_LINE_STYLE)
    if record.updated_input is not msgspec.UNSET:
        return Group(
            Text("modify: the tool input, before → after", style="bold"),
            unified_diff(tool_input_of(record), record.updated_input, ("input", "updated_input")),
        )
    if record.updated_output is not msgspec.UNSET:
        return Group(
            Text("replace: the tool output, before → after", style="bold"),
            unified_diff(
                tool_output_of(record), record.updated_output, ("output", "updated_output")
            ),
        )
    return _t(f"no rewrite: the hook's decision was {record.decision}", style="dim")


def raw_view(loaded: Loaded) -> RenderableType:
    line = loaded.line
    head = Text(
        f"{count_of(len(line), 'byte')} at offset {loaded.stream_line.offset} of {printable(loaded.path)}"
        " · c copies it",
        style="dim",
    )
    try:
        if nests_deeper(line):  # indenting it would cost the square of its depth
            raise RecursionError
        pretty = msgspec.json.format(line, indent=2).decode("utf-8", "replace")
        pretty = clip(pretty)
    except (msgspec.DecodeError, RecursionError):  # not JSON, or nested past what msgspec reads
        return Group(head, bounded_text(line[: SHOW_LIMIT * 4].decode("utf-8", "replace")))
    return Group(head, _json_view(pretty))


def _syntax(text: str) -> Syntax:
    from rich.syntax import Syntax  # (with pygments: loaded by the first detail shown)

    return Syntax(text, "json", theme=SYNTAX_THEME, word_wrap=True, background_color="default")


def load_tabs(
    path: str, stream_line: StreamLine, tz: tzinfo | None, color: bool = True
) -> dict[str, RenderableType]:
    """Read the line's record back from its stream and build every tab (a worker runs it)."""
    record: Any = read_record_at(path, stream_line.offset)
    try:
        line = read_line_at(path, stream_line.offset)
    except OSError as exc:
        line = f"cannot read: {exc.strerror}".encode()
    loaded = Loaded(stream_line, path, record, line)
    builders = {
        "summary": lambda: summary_view(loaded, tz, color),
        "request": lambda: request_view(loaded),
        "response": lambda: response_view(loaded),
        "diff": lambda: diff_view(loaded),
        "raw": lambda: raw_view(loaded),
    }
    views: dict[str, RenderableType] = {}
    for tab, build in builders.items():
        try:
            views[tab] = build()
        except Exception as exc:  # one odd record must not take the dashboard down
            views[tab] = _t(f"cannot show this record here: {exc!r}", style="red")
    views["loaded"] = loaded  # type: ignore[assignment]  # for tests and `c`
    return views
