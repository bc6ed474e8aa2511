"""Where the stream lives and how a record gets into it: one write per line.

Many hooks run in parallel and append to one file, so each record is a single
`write()` of one complete line on an O_APPEND descriptor; the kernel keeps
such appends whole. Only `os` is needed, so any part of hooktui can use this.
"""

from __future__ import annotations

import os
import time

STREAM_NAME = "stream.jsonl"


def state_dir() -> str:
    """`$XDG_STATE_HOME/hooktui` (XDG default `~/.local/state`)."""
    base = os.environ.get("XDG_STATE_HOME") or ""
    if not os.path.isabs(base):  # the XDG spec says relative values are to be ignored
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "hooktui")


def default_stream_path() -> str:
    """`$HOOKTUI_STREAM`, else `$XDG_STATE_HOME/hooktui/stream.jsonl`."""
    return os.environ.get("HOOKTUI_STREAM") or os.path.join(state_dir(), STREAM_NAME)


def error_log_path(stream_path: str) -> str:
    """The tap's own error log, beside the stream."""
    return stream_path + ".errors.log"


def _open_append(path: str) -> int:
    """An O_APPEND fd on `path`, creating missing directories 0700 and the file 0600."""
    parent = os.path.dirname(path)
    if parent and not os.path.isdir(parent):
        _make_private_dirs(parent)
    return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)


def _make_private_dirs(path: str) -> None:
    """Like os.makedirs, but every directory it creates is 0700, not only the last."""
    head = os.path.dirname(path)
    if head and head != path and not os.path.isdir(head):
        _make_private_dirs(head)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        if not os.path.isdir(path):
            raise


def append_line(path: str, line: bytes) -> None:
    """Append one complete line with one write (looping only on a short write).

    Raises OSError (unwritable path, a directory, disk full). A line without
    its trailing newline is refused: readers never trust one.
    """
    if not line.endswith(b"\n"):
        raise ValueError("a stream line must end with a newline")
    fd = _open_append(path)
    try:
        view = memoryview(line)
        while view:
            written = os.write(fd, view)
            if written <= 0:
                raise OSError("short write to the stream")
            view = view[written:]
    finally:
        os.close(fd)


def log_error(stream_path: str, message: str) -> None:
    """One timestamped line in the error log beside the stream; never raises.

    When that log cannot be written either (its directory is the problem),
    the line goes to `errors.log` in the default state directory instead.
    """
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    one_line = " ".join(str(message).split())
    line = f"{stamp} pid={os.getpid()} stream={stream_path} {one_line}\n".encode("utf-8", "replace")
    for path in (error_log_path(stream_path), os.path.join(state_dir(), "errors.log")):
        try:
            append_line(path, line)
            return
        except (OSError, ValueError):
            continue
