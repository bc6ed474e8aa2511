"""`hooktui watch [STREAM ...]`: the live dashboard."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC

from hooktui.tap.base.stream import default_stream_path
from hooktui.tap.read.lines import NOT_A_STREAM_DEVICE, endless_device
from hooktui.tap.read.sanitize import safe_line
from hooktui.tui.cli.args import app_exit_code
from hooktui.tui.cli.launch import watch_app
from hooktui.tui.cli.watch_first import QuietTty, draw_first, leave_first, read_first
from hooktui.tui.present.first_screen import First


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not usage + message
        sys.stderr.write(f"hooktui watch: {safe_line(message)} (see `hooktui watch --help`)\n")
        raise SystemExit(2)


def parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="hooktui watch",
        description="Live dashboard of recorded hook calls. Several streams are merged by time.",
    )
    p.add_argument(
        "streams",
        nargs="*",
        metavar="STREAM",
        help="JSONL streams to watch (default: $HOOKTUI_STREAM, else the XDG state path)",
    )
    p.add_argument("--utc", action="store_true", help="show times in UTC instead of local time")
    p.add_argument(
        "--no-follow-files",
        dest="live",
        action="store_false",
        help="read the streams once; do not follow them as they grow",
    )
    p.add_argument(
        "--intercept",
        metavar="EXPR",
        default="",
        help="hold calls matching EXPR (the filter language) before the runtime has the "
        "answer: allow, deny or edit them (`i` in the dashboard changes it)",
    )
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    paths = args.streams or [default_stream_path()]
    for path in paths:
        problem = _unreadable(path)
        if problem:
            sys.stderr.write(f"hooktui watch: {problem}\n")
            return 2
    if args.intercept.strip() and not _valid_filter(args.intercept):
        return 2
    if not sys.stdout.isatty() or not sys.stdin.isatty():
        sys.stderr.write(
            "hooktui watch: needs a terminal (for scripts and CI logs use `hooktui show`)\n"
        )
        return 2
    hold = _holding(args.intercept) if args.intercept.strip() else None
    if hold is False:
        return 2
    paths = [os.path.abspath(p) for p in paths]
    tz = UTC if args.utc else None
    try:
        with QuietTty(sys.stdin.fileno()):  # keys typed while the app loads wait for it
            result = _run(paths, tz, args.live, hold)
    finally:
        if hold is not None:
            hold.close()
    return result


def _unreadable(path: str) -> str:
    """Why `path` cannot be watched, in a line ("" when it can: a missing file is waited for)."""
    shown = safe_line(path)
    if os.path.isdir(path):
        return f"{shown} is a directory, not a stream file"
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return ""  # not yet written (or a link to nothing yet): watch waits for it
    except OSError as exc:  # a symlink loop, a name too long, a component not a directory
        return f"cannot read {shown}: {exc.strerror}"
    if endless_device(st):  # /dev/zero would be spooled until the disk is full
        return f"cannot read {shown}: {NOT_A_STREAM_DEVICE}"
    if not os.access(path, os.R_OK):
        return f"cannot read {shown}: permission denied"
    return ""


def _run(paths: list[str], tz, live: bool, hold) -> int:
    """The first screen (following one stream, no breakpoint), then the app over it."""
    first, drawn = _first_screen(paths, tz) if live and hold is None else (None, False)
    try:
        app = watch_app(paths, tz=tz, live=live, hold=hold, first=first)
    except BaseException:
        if drawn:  # the app never took the screen over: give the shell its own back
            leave_first()
        raise
    return app_exit_code(app, app.run())


def _first_screen(paths: list[str], tz) -> tuple[First | None, bool]:
    """One stream's newest lines, and whether they were drawn (the app shows them first)."""
    if len(paths) != 1:
        return None, False  # several streams are merged by time: the app reads them whole
    first = read_first(paths[0])
    if first is None:
        return None, False
    # As Textual decides it: NO_COLOR set, even empty, means no colour.
    return first, draw_first(first, paths[0], tz, color="NO_COLOR" not in os.environ)


def _valid_filter(expr: str) -> bool:
    from hooktui.tap.read.filter import compile_filter
    from hooktui.tap.read.filter_tokens import FilterError

    try:
        compile_filter(expr)
    except FilterError as exc:
        sys.stderr.write(f"hooktui watch: --intercept: {safe_line(str(exc))}\n")
        return False
    return True


def _holding(expr: str):
    """A HoldServer holding `expr`, or False after saying why not (one line)."""
    from hooktui.tap.hold.server import HoldError, HoldServer
    from hooktui.tap.read.filter_tokens import FilterError

    server = HoldServer()
    try:
        server.set_breakpoint(expr)
    except (FilterError, HoldError) as exc:
        sys.stderr.write(f"hooktui watch: --intercept: {safe_line(str(exc))}\n")
        return False
    return server
