"""`hooktui show`: recorded calls without a TUI, for scripts and CI logs.

Text is a table (one row per call, bad lines as error rows) and a tally; JSON
is the stream itself, filtered: each record's original line, byte for byte, so
`hooktui show --format json --filter ... > part.jsonl` is again a stream that
watch and replay read. Bad lines are never mixed into that output: in JSON
mode they are reported on stderr.
"""

from __future__ import annotations

import argparse
import mmap
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC
from typing import IO

from hooktui.tap.hotpath.stream import default_stream_path
from hooktui.tap.model import RecordHead
from hooktui.tap.read.filter import FilterError, compile_filter, is_empty_filter
from hooktui.tap.read.reader import BadLine, decode_head, load_stream, merge_by_time, parse_ts
from hooktui.tap.read.tail import Tailer
from hooktui.tap.read.view import Entry, Stats
from hooktui.tui.cli.args import RaisingParser, UsageError

PROG = "hooktui show"
_NO_VALUE = ("", None)

POLL_SECONDS = 0.1


def _parser() -> RaisingParser:
    from hooktui.tap.read.filter import HELP as filter_help

    p = RaisingParser(
        prog=PROG,
        description="Print recorded hook calls: a table, or the JSON lines themselves.",
        epilog=filter_help,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "streams", nargs="*", metavar="STREAM", help="stream files (default: the default stream)"
    )
    p.add_argument(
        "-f", "--filter", default="", metavar="EXPR", help="show only calls matching EXPR"
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text table (default) or JSON lines",
    )
    p.add_argument("--follow", action="store_true", help="keep printing calls as they are recorded")
    p.add_argument(
        "-n", "--last", type=int, default=None, metavar="N", help="only the last N matching calls"
    )
    p.add_argument("--utc", action="store_true", help="times in UTC (default: local time)")
    return p


# --- output ---------------------------------------------------------------


class _Tally:
    """Counts for the closing line: the numbers watch's header shows, on one line."""

    def __init__(self) -> None:
        self.total = 0
        self.shown = 0
        self.bad = 0
        self.stats = Stats()

    def add(self, head: RecordHead) -> None:
        self.shown += 1
        self.stats.add(Entry(0, 0, head))

    def line(self) -> str:
        from hooktui.tui.cli.format import format_latency

        stats = self.stats
        parts = [
            f"{self.shown} of {self.total} calls"
            if self.shown != self.total
            else f"{self.total} calls"
        ]
        decisions = stats.decisions
        if stats.calls:
            order = ["allow", "deny", "ask", "modify", "replace", "failure"]
            names = order + sorted(set(decisions) - set(order))
            parts.append(", ".join(f"{decisions[d]} {d}" for d in names if decisions[d]))
        if stats.fail_open:
            parts.append(f"{stats.fail_open} failed open")
        p50, p95 = stats.percentile(50), stats.percentile(95)
        if p50 is not None and p95 is not None:
            parts.append(f"p50 {format_latency(p50)}, p95 {format_latency(p95)}")
        if self.bad:
            parts.append(f"{self.bad} bad line{'s' if self.bad != 1 else ''}")
        return " | ".join(parts)


class _TextOut:
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
        # rich decides the width and whether (and how) to colour: a terminal,
        # NO_COLOR, FORCE_COLOR, COLUMNS are honoured as everywhere else.
        self.console = Console(file=stream, highlight=False, soft_wrap=False)
        self.file = stream
        self.color_system = {
            "standard": ColorSystem.STANDARD,
            "256": ColorSystem.EIGHT_BIT,
            "truecolor": ColorSystem.TRUECOLOR,
            "windows": ColorSystem.WINDOWS,
        }.get(self.console.color_system or "")
        self.cell_len = cell_len
        self.set_cell_size = set_cell_size
        self.header_style = Style(bold=True, underline=True)
        self.tally_style = Style(bold=True)
        self.note_style = Style(dim=True)
        self.tz = UTC if utc else None
        self.several = several
        self.header_done = False
        self.layout = self._layout()
        self.names = [n for n, _, _ in self.layout]

    # (name, width, justify), in the order shown; summary takes what is left.
    _COLUMNS = (
        ("time", 12, "left"),
        ("stream", 10, "left"),
        ("runtime", 7, "left"),
        ("event", 6, "left"),
        ("hook", 10, "left"),
        ("tool", 12, "left"),
        ("summary", 0, "left"),
        ("decision", 12, "left"),
        ("latency", 7, "right"),
    )
    # Dropped first, one by one, when the terminal is too narrow.
    _EXPENDABLE = ("stream", "hook", "runtime", "event", "time")
    _MIN_SUMMARY = 20

    def _layout(self) -> list[tuple[str, int, str]]:
        """Columns and their content widths (two spaces between columns)."""
        cols = [c for c in self._COLUMNS if c[0] != "stream" or self.several]
        width = self.console.width
        for name in (None, *self._EXPENDABLE):
            if name is not None:
                cols = [c for c in cols if c[0] != name]
            used = sum(w for _, w, _ in cols) + 2 * (len(cols) - 1)
            if width - used >= self._MIN_SUMMARY:
                break
        rest = max(self._MIN_SUMMARY, width - used)
        return [(n, w or rest, j) for n, w, j in cols]

    def _cell(self, text: str, style, width: int, right: bool) -> str:
        """`text` cropped (with an ellipsis) or padded to exactly `width` cells; only the text styled."""
        n = len(text) if text.isascii() else self.cell_len(text)
        if n > width:
            text = self.set_cell_size(text, width - 1) + "…"
            n = width
        if style is not None and self.color_system is not None and text:
            text = style.render(text, color_system=self.color_system)
        if n < width:
            return " " * (width - n) + text if right else text + " " * (width - n)
        return text

    def _write(self, lines: list[str]) -> None:
        self.file.write("\n".join(lines) + "\n")
        self.file.flush()

    def rows(self, items: Sequence[tuple[str, RecordHead | BadLine]]) -> None:
        # Rows are formatted here rather than by rich.Table: a table measures
        # every cell, which costs minutes for 100k rows; fixed widths do not.
        if not items:
            return
        from hooktui.tui.cli import format as fmt

        layout = self.layout
        cell = self._cell
        lines: list[str] = []
        if not self.header_done:
            self.header_done = True
            lines.append(
                "  ".join(cell(n, self.header_style, w, j == "right") for n, w, j in layout)
            )
        tz = self.tz
        for stream_name, e in items:
            if isinstance(e, BadLine):
                style = fmt.BAD_LINE_STYLE
                values = {
                    "stream": (stream_name, None),
                    "summary": (f"byte {e.offset}: {e.error} · {fmt.one_line(e.preview)}", style),
                    "decision": ("bad line", style),
                }
            else:
                fail_open = fmt.is_fail_open(e.decision, e.effect)
                label = e.decision
                if e.decision == "failure" and e.failure:
                    label = e.failure  # what failed says more than "failure"
                if fail_open:
                    label = f"{fmt.FAIL_OPEN_MARK} {label}"
                timeout = fmt.effective_timeout_ms(e.runtime, e.hook.timeout_ms)
                lat = fmt.format_latency(e.duration_ms)
                if fmt.near_timeout(e.duration_ms, timeout):
                    lat = f"{fmt.NEAR_TIMEOUT_MARK}{lat}"
                values = {
                    "time": (fmt.format_time(parse_ts(e.ts), tz, millis=True), None),
                    "stream": (stream_name, None),
                    "runtime": (fmt.short_runtime(e.runtime), None),
                    "event": (fmt.short_event(e.event), None),
                    "hook": (fmt.one_line(e.hook.label), None),
                    "tool": (fmt.one_line(e.tool_name), None),
                    "summary": (fmt.one_line(e.summary or e.reason), None),
                    "decision": (label, fmt.decision_style(e.decision, fail_open)),
                    "latency": (lat, fmt.latency_style(e.duration_ms)),
                }
            line = "  ".join(cell(*values.get(n, _NO_VALUE), w, j == "right") for n, w, j in layout)
            lines.append(line.rstrip(" "))
        self._write(lines)

    def tally(self, tally: _Tally) -> None:
        line = tally.line()
        if self.color_system is not None:
            line = self.tally_style.render(line, color_system=self.color_system)
        self._write([line])

    def note(self, text: str) -> None:
        if self.color_system is not None:
            text = self.note_style.render(text, color_system=self.color_system)
        self._write([text])


# --- reading --------------------------------------------------------------


def _entries(
    paths: list[str],
) -> tuple[list[tuple[int, int, RecordHead | BadLine]], list[int]]:
    """All entries of `paths` merged by time, and where each tailer continues."""
    loaded = []
    ends = []
    for path in paths:
        entries, end = load_stream(path)
        loaded.append(entries)
        ends.append(end)
    return merge_by_time(loaded), ends


def _write_line(out: IO[bytes], line: bytes) -> None:
    out.write(line)
    out.write(b"\n")


def _line_reader(path: str) -> Callable[[int], bytes]:
    """Reads record lines by offset (for --format json): one map of the file, sliced."""
    with open(path, "rb") as f:
        try:
            data: bytes | mmap.mmap = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (ValueError, OSError):  # empty, or not mappable
            data = f.read()

    def read(offset: int) -> bytes:
        end = data.find(b"\n", offset)
        return data[offset:end] if end >= 0 else data[offset:]

    return read


def _follow(
    paths: list[str],
    ends: list[int],
    emit: Callable[[list[tuple[int, bytes, RecordHead | BadLine]]], None],
) -> None:
    """Poll every stream until interrupted; `emit` gets (stream index, line, entry) batches."""
    tailers = [Tailer(p, off) for p, off in zip(paths, ends, strict=True)]
    waiting = [False] * len(paths)
    while True:
        batch: list[tuple[int, bytes, RecordHead | BadLine]] = []
        for i, t in enumerate(tailers):
            try:
                got = t.poll()
            except OSError as exc:  # unreadable for now (permissions, a vanished mount)
                if not waiting[i]:
                    waiting[i] = True
                    sys.stderr.write(f"{PROG}: cannot read {paths[i]}: {exc.strerror}; retrying\n")
                continue
            if got.missing:
                if not waiting[i]:
                    waiting[i] = True
                    sys.stderr.write(f"{PROG}: waiting for {paths[i]} ...\n")
                    sys.stderr.flush()
                continue
            waiting[i] = False
            if got.reset:
                sys.stderr.write(
                    f"{PROG}: {paths[i]} was truncated or replaced; reading it from the start\n"
                )
            batch.extend((i, line, decode_head(line, off)) for off, line in got.lines)
        if batch:
            emit(batch)
        else:
            time.sleep(POLL_SECONDS)


def _report_tap_errors(paths: list[str]) -> None:
    """One stderr line per stream whose tap error log has lines: the tap may have missed calls."""
    from hooktui.tap.read.errlog import TapErrorLog, tap_error_summary

    for path in paths:
        log = TapErrorLog(path)
        log.check()
        if log.count:
            sys.stdout.flush()  # after the table, also when both go to one terminal
            sys.stderr.write(f"{PROG}: {tap_error_summary(log.count)} in {log.path}\n")
            sys.stderr.flush()


def _run(args: argparse.Namespace) -> int:
    try:
        pred = compile_filter(args.filter)
    except FilterError as exc:
        hint = f" ({exc.hint})" if exc.hint else ""
        sys.stderr.write(f"{PROG}: bad filter: {exc}{hint}\n")
        return 2
    if args.last is not None and args.last < 0:
        sys.stderr.write(f"{PROG}: --last needs a number >= 0\n")
        return 2
    show_bad = is_empty_filter(args.filter)
    # The same file named twice is shown once.
    paths: list[str] = list(dict.fromkeys(args.streams)) or [default_stream_path()]

    # Missing streams: an error now, or something to wait for with --follow.
    present = []
    for path in paths:
        if os.path.isdir(path):
            sys.stderr.write(f"{PROG}: {path} is a directory, not a stream file\n")
            return 2
        if os.path.exists(path):
            present.append(path)
        elif not args.follow:
            sys.stderr.write(
                f"{PROG}: no stream at {path} (record one with `hooktui install ...` or `hooktui demo`)\n"
            )
            return 2

    try:
        merged, ends_present = _entries(present)
    except OSError as exc:
        sys.stderr.write(f"{PROG}: cannot read {exc.filename}: {exc.strerror}\n")
        return 2
    # Offsets for the tailers, index-aligned with `paths` (a missing file starts at 0).
    end_of = dict(zip(present, ends_present, strict=True))
    ends = [end_of.get(p, 0) for p in paths]
    index_of = [paths.index(p) for p in present]
    names = [os.path.basename(p) for p in paths]

    tally = _Tally()
    # Keep what will be shown: (stream index, offset, entry).
    chosen: list[tuple[int, int, RecordHead | BadLine]] = []
    for si, off, e in merged:
        if isinstance(e, BadLine):
            tally.bad += 1
            if show_bad or args.format == "json":
                chosen.append((index_of[si], off, e))
            continue
        tally.total += 1
        if pred(e):
            chosen.append((index_of[si], off, e))
    if args.last is not None:
        # The last N calls, with the bad lines among them.
        starts = [i for i, c in enumerate(chosen) if not isinstance(c[2], BadLine)]
        if args.last == 0:
            chosen = []
        elif len(starts) > args.last:
            chosen = chosen[starts[-args.last] :]
    for _, _, e in chosen:
        if not isinstance(e, BadLine):
            tally.add(e)

    if args.format == "json":
        out = sys.stdout.buffer
        readers: dict[int, Callable[[int], bytes]] = {}
        for si, off, e in chosen:
            if isinstance(e, BadLine):
                sys.stderr.write(f"{PROG}: {paths[si]}: bad line at byte {off}: {e.error}\n")
                continue
            if si not in readers:
                readers[si] = _line_reader(paths[si])
            line = readers[si](off)
            if line:  # empty only if the file shrank since it was read
                _write_line(out, line)
        out.flush()
        if args.follow:

            def emit_json(batch: list[tuple[int, bytes, RecordHead | BadLine]]) -> None:
                for si, line, e in batch:
                    if isinstance(e, BadLine):
                        sys.stderr.write(
                            f"{PROG}: {paths[si]}: bad line at byte {e.offset}: {e.error}\n"
                        )
                    elif pred(e):
                        _write_line(out, line)
                out.flush()

            _follow(paths, ends, emit_json)
        return 0

    text = _TextOut(args.utc, len(paths) > 1, sys.stdout)
    text.rows([(names[si], e) for si, _, e in chosen])
    if not args.follow:
        text.tally(tally)
        _report_tap_errors(paths)
        return 0
    _report_tap_errors(paths)  # --follow has no end: say it before waiting
    if not chosen:
        text.note("following: new calls appear here as they are recorded (Ctrl-C to stop)")

    def emit_text(batch: list[tuple[int, bytes, RecordHead | BadLine]]) -> None:
        rows = []
        for si, _, e in batch:
            if isinstance(e, BadLine):
                if show_bad:
                    rows.append((names[si], e))
            elif pred(e):
                rows.append((names[si], e))
        text.rows(rows)
        sys.stdout.flush()

    _follow(paths, ends, emit_text)
    return 0


def _on_term(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    # A filter may start with "-" (`-f -decision:allow`): argparse would take
    # it for an option, so the word after -f/--filter is always its value.
    i = 0
    while i < len(args_list) - 1 and args_list[i] != "--":
        if args_list[i] in ("-f", "--filter"):
            args_list[i : i + 2] = [f"--filter={args_list[i + 1]}"]
        i += 1
    try:
        args = _parser().parse_args(args_list)
    except UsageError as exc:
        sys.stderr.write(f"{PROG}: {exc} (try `{PROG} --help`)\n")
        return 2
    if (sys.stderr.encoding or "").lower().replace("-", "") != "utf8":
        sys.stderr.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    # SIGTERM ends --follow as quietly as Ctrl-C does.
    signal.signal(signal.SIGTERM, _on_term)
    try:
        return _run(args)
    except KeyboardInterrupt:
        return 0
    except BrokenPipeError:
        # The reader (head, less) went away: stop quietly, and keep Python from
        # complaining while flushing stdout at exit.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0
