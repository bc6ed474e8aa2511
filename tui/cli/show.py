"""`hooktui show`: recorded calls without a TUI, for scripts and CI logs.

Text is a table (one row per call, bad lines as error rows) and a tally; JSON
is the stream itself, filtered: each record's original line, byte for byte, so
`hooktui show --format json --filter ... > part.jsonl` is again a stream that
watch and replay read. Bad lines are never mixed into that output: in JSON
mode they are reported on stderr. `--group-by FIELD` prints one row per value
of the field instead (text or JSON lines).

It streams: each input is read once, front to back, one chunk at a time, so
memory stays flat whatever the file size, and a pipe, a FIFO or `-` (stdin)
reads like a file. Several streams are merged lazily by when each hook
answered (the clock the rows show).
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
from collections.abc import Iterable, Iterator

import msgspec
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.filter import compile_filter, is_empty_filter, reads_tool_calls
from hooktui.tap.read.filter_terms import help_text
from hooktui.tap.read.filter_tokens import FilterError
from hooktui.tap.read.groups import GROUP_FIELDS, SORT_KEYS, Groups
from hooktui.tap.read.sanitize import inert_json, safe_line
from hooktui.tui.cli.args import RaisingParser, UsageError
from hooktui.tui.cli.show_read import (
    Item,
    Options,
    Scan,
    Source,
    Tally,
    Usage,
    follow,
    last_calls,
    read,
    sources_of,
)

PROG = "hooktui show"


def _parser() -> RaisingParser:
    p = RaisingParser(
        prog=PROG,
        description="Print recorded hook calls: a table, the JSON lines themselves, or groups.",
        epilog=help_text() + "\n\nTimes are when each hook answered; rows are in that order.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "streams",
        nargs="*",
        metavar="STREAM",
        help="stream files, FIFOs or - for stdin (default: the default stream)",
    )
    p.add_argument(
        "-f", "--filter", default="", metavar="EXPR", help="show only calls matching EXPR"
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or JSON lines"
    )
    p.add_argument("--follow", action="store_true", help="keep printing calls as they are recorded")
    p.add_argument(
        "-n", "--last", type=int, default=None, metavar="N", help="only the last N matching calls"
    )
    p.add_argument("--utc", action="store_true", help="times in UTC (default: local time)")
    p.add_argument(
        "--group-by",
        metavar="FIELD",
        help=f"one row per value of FIELD, with counts, deny and fail-open rates, p50/p95"
        f" ({', '.join(GROUP_FIELDS)})",
    )
    p.add_argument(
        "--sort", choices=SORT_KEYS, default="count", help="order of the groups (default: count)"
    )
    p.add_argument(
        "--calls",
        action="store_true",
        help="one row per tool call, its hooks beneath it (the winning hook marked ★) and "
        "their combined outcome by the runtime's rule; JSON: one tool call per line",
    )
    return p


# --- the steps --------------------------------------------------------------


def _options(args: argparse.Namespace) -> Options:
    try:
        accepts = compile_filter(args.filter)
    except FilterError as exc:
        hint = f" ({exc.hint})" if exc.hint else ""
        raise Usage(f"bad filter: {exc}{hint}") from exc
    if args.last is not None and args.last < 0:
        raise Usage("--last needs a number >= 0")
    if args.last is not None:
        args.last = min(args.last, sys.maxsize)  # more than any stream holds (a deque's limit)
    if args.group_by is not None:
        try:
            Groups(args.group_by)
        except ValueError as exc:
            raise Usage(str(exc)) from exc
        if args.follow:
            raise Usage("--group-by prints a table at the end: it cannot --follow")
    return Options(
        accepts,
        is_empty_filter(args.filter),
        args.last,
        args.format,
        args.group_by,
        args.sort,
        args.follow,
        args.utc,
    )


def _counted(batches: Iterable[list[Item]], tally: Tally) -> Iterator[list[Item]]:
    for batch in batches:
        tally.add([item[3] for item in batch if not isinstance(item[3], BadLine)])
        yield batch


# --- the outputs ------------------------------------------------------------


class JsonOut:
    """The original lines, byte for byte; bad lines reported on stderr."""

    def __init__(self, sources: list[Source]) -> None:
        self.sources = sources
        self.out = sys.stdout.buffer

    def write(self, batch: list[Item]) -> None:
        lines = []
        for si, off, line, e in batch:
            if isinstance(e, BadLine):
                self._flush(lines)
                lines = []
                _err(f"{safe_line(self.sources[si].path)}: bad line at byte {off}: {e.error}")
            else:
                lines.append(line)
        self._flush(lines)

    def _flush(self, lines: list[bytes]) -> None:
        if lines:
            lines.append(b"")
            self.out.write(b"\n".join(lines))
            self.out.flush()

    def finish(self, tally: Tally) -> None:
        self.out.flush()


class TableOut:
    """The text table: rows as they come, the tally at the end."""

    def __init__(self, sources: list[Source], opts: Options) -> None:
        from hooktui.tui.cli.show_text import TextOut

        self.names = [s.name for s in sources]
        self.text = TextOut(opts.utc, len(sources) > 1, sys.stdout)
        self.rows = 0

    def write(self, batch: list[Item]) -> None:
        self.rows += len(batch)
        self.text.rows([(self.names[si], e, line) for si, _, line, e in batch])

    def finish(self, tally: Tally) -> None:
        self.text.tally(tally)


class GroupOut:
    """--group-by: calls go into groups; the table (or JSON lines) comes at the end."""

    def __init__(self, opts: Options) -> None:
        self.opts = opts
        self.groups = Groups(opts.group_by or "")

    def write(self, batch: list[Item]) -> None:
        add = self.groups.add
        for item in batch:
            add(item[3])  # only calls reach here

    def finish(self, tally: Tally) -> None:
        rows = self.groups.rows(self.opts.sort)
        if self.opts.format == "json":
            out = sys.stdout.buffer
            by = self.groups.by
            for g in rows:
                out.write(inert_json(msgspec.json.encode({"by": by, **g.as_dict()})) + b"\n")
            out.flush()
        else:
            from hooktui.tui.cli.show_text import TextOut

            TextOut(self.opts.utc, False, sys.stdout).groups(self.groups.by, rows, tally)


def _output(sources: list[Source], opts: Options):
    if opts.group_by is not None:
        return GroupOut(opts)
    if opts.format == "json":
        return JsonOut(sources)
    return TableOut(sources, opts)


def _err(text: str) -> None:
    sys.stdout.flush()  # after the rows, also when both go to one terminal
    sys.stderr.write(f"{PROG}: {text}\n")
    sys.stderr.flush()


def _report_tap_errors(sources: list[Source]) -> None:
    """One stderr line per stream whose tap error log has lines: the tap may have missed calls."""
    from hooktui.tap.read.errlog import TapErrorLog, tap_error_summary

    for source in sources:
        if not source.regular:
            continue
        log = TapErrorLog(source.path)
        log.check()
        if log.count:
            _err(f"{tap_error_summary(log.count)} in {safe_line(log.path)}")


def _run(args: argparse.Namespace) -> int:
    opts = _options(args)
    sources = sources_of(args.streams, opts.follow)
    if args.calls or reads_tool_calls(opts.accepts):
        if opts.follow or opts.group_by is not None:
            raise Usage(
                "tool calls are grouped over whole streams: not with --follow or --group-by"
            )
        from hooktui.tui.cli.show_calls import run as run_calls

        return run_calls(sources, opts, as_calls=args.calls)
    out = _output(sources, opts)
    tally = Tally()
    ends = _print_what_is_there(sources, opts, out, tally)
    if not opts.follow:
        out.finish(tally)
        if opts.format == "text":
            _report_tap_errors(sources)
        return 0
    if opts.format == "text":
        _report_tap_errors(sources)  # --follow has no end: say it before waiting
        if not out.rows:
            out.text.note("following: new calls appear here as they are recorded (Ctrl-C to stop)")
    follow(sources, ends, Scan(opts, Tally(), merging=False), out, _err)
    return 0


def _print_what_is_there(sources: list[Source], opts: Options, out, tally: Tally) -> list:
    """Read every stream once, printing as it goes; returns where each can be followed from.

    Each is a ReadPoint, or None for a stream that was not there.
    """
    ends: list = [None] * len(sources)
    # Nothing read here outlives its batch: collections would only walk it again.
    gc.disable()
    try:
        merging = len(sources) > 1
        # JSON lines of one stream are written batch by batch, as read: they can stay
        # views into the chunk read (merged or --last ones wait, and would hold chunks).
        views = opts.format == "json" and not (merging or opts.group_by or opts.last is not None)
        chosen = read(sources, ends, Scan(opts, tally, merging, views))
        if opts.last is not None:
            chosen = last_calls(chosen, opts.last)
        if opts.format == "text":  # only text prints the tally's decisions and latencies
            chosen = _counted(chosen, tally)
        for batch in chosen:
            out.write(batch)
    finally:
        gc.enable()
    return ends


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
        sys.stderr.write(f"{PROG}: {safe_line(str(exc))} (try `{PROG} --help`)\n")
        return 2
    if (sys.stderr.encoding or "").lower().replace("-", "") != "utf8":
        sys.stderr.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    # SIGTERM ends --follow as quietly as Ctrl-C does.
    signal.signal(signal.SIGTERM, _on_term)
    try:
        return _run(args)
    except Usage as exc:
        sys.stderr.write(f"{PROG}: {safe_line(str(exc))}\n")
        return 2
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            return _quiet_broken_pipe()
        where = safe_line(str(exc.filename)) if exc.filename else "a stream"
        sys.stderr.write(f"{PROG}: cannot read {where}: {exc.strerror}\n")
        return 2
    except KeyboardInterrupt:
        return 0


def _quiet_broken_pipe() -> int:
    # The reader (head, less) went away: stop quietly, and keep Python from
    # complaining while flushing stdout at exit.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    return 0
