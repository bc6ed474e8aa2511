"""Where the stream lives and how a record gets into it: whole lines or nothing.

Many hooks run in parallel and append to one file, so each record is a single
`write()` of one complete line on an O_APPEND descriptor; the kernel keeps
such appends whole. A write the disk cannot take (ENOSPC, EFBIG, EDQUOT) may
still land part of a line, which would glue the next record to it: so each
append holds an exclusive lock on the file (every appender takes it, briefly;
readers never do), and a failed one truncates the file back to where it
began, which no other appender can have moved meanwhile. The lock is waited
for LOCK_WAIT_S at most (its holder may be stopped); past that, or where the
filesystem has no locks, the line goes in unlocked and a failure is undone
only if nothing followed it.

A stream that ends inside a line (its writer was killed mid-write) gets a
newline first, under the same lock, so the next record is not glued to it.

The stream must be a regular file: anything else (a FIFO would block the
recorder forever) is refused at once, without blocking.

When even the error log beside the stream cannot be written (a full disk, a
read-only mount), the error goes to a per-user fallback log, under
$XDG_RUNTIME_DIR (a tmpfs) or /tmp, with the stream's path on each line so
that readers of that stream (errlog.py) count it.

Only `os` and `time` are needed, so any part of hooktui can use this.
"""

from __future__ import annotations

import os
import time

STREAM_NAME = "stream.jsonl"
FALLBACK_NAME = "tap-errors.log"
FALLBACK_CAP = 1 << 20  # a fallback log is rotated here, once (it may live in RAM)
LOCK_WAIT_S = 2.0
TORN = (
    "the stream ended inside a line (a writer killed mid-write?): "
    "ended it with a newline, so the next record stays whole"
)

_FILE_KINDS = {
    0o010000: "a FIFO",
    0o020000: "a character device",
    0o040000: "a directory",
    0o060000: "a block device",
    0o140000: "a socket",
    0o120000: "a symbolic link",
}
_ENXIO = 6


class NotRegularFile(OSError):
    """The stream path is a FIFO, a device, a socket...: never written to."""


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


def fallback_logs() -> list[str]:
    """Where errors go when the log beside the stream cannot be written, in order.

    Readers look in all of them, and in each one's rotated generation (`.1`):
    the tap and the reader may not agree on $XDG_RUNTIME_DIR, but
    /tmp/hooktui-<uid> is the same for both.
    """
    dirs = []
    runtime = os.environ.get("XDG_RUNTIME_DIR") or ""
    if os.path.isabs(runtime):
        dirs.append(os.path.join(runtime, "hooktui"))
    dirs.append(f"/tmp/hooktui-{os.getuid()}")
    return [os.path.join(d, name) for d in dirs for name in (FALLBACK_NAME, FALLBACK_NAME + ".1")]


def stream_key(stream_path: str) -> str:
    """How fallback log lines name a stream: its real path, with no spaces in it."""
    return quote(os.path.realpath(stream_path))


def quote(text: str) -> str:
    """Percent-escape `%`, whitespace and control characters (one word, reversible)."""
    return "".join(
        f"%{ord(c):02X}" if c == "%" or c.isspace() or not c.isprintable() else c for c in text
    )


def append_line(path: str, line: bytes) -> None:
    """Append one complete line, or leave the file as it was and raise OSError.

    Raises OSError (unwritable path, a directory, a FIFO, disk full). A line
    without its trailing newline is refused: readers never trust one.
    """
    if not line.endswith(b"\n"):
        raise ValueError("a stream line must end with a newline")
    fd = _open_append(path)
    try:
        locked = _lock(fd)
        torn = locked and _ends_torn(fd)
        if torn:  # end it, so that this record is not glued to it
            _write_whole(fd, b"\n", locked)
        _write_whole(fd, line, locked)
    finally:
        os.close(fd)  # releases the lock
    if torn and not _is_a_log(path):
        log_error(path, TORN)


def _ends_torn(fd: int) -> bool:
    """Does the file end inside a line? Under the lock, only a writer killed
    mid-write (or a file from elsewhere) leaves it so."""
    try:
        size = os.fstat(fd).st_size
        return size > 0 and os.pread(fd, 1, size - 1) != b"\n"
    except OSError:  # not readable (opened write-only): cannot tell
        return False


def _is_a_log(path: str) -> bool:
    return path.endswith(".errors.log") or os.path.basename(path).startswith(FALLBACK_NAME)


def log_error(stream_path: str, message: str) -> None:
    """One timestamped line in the error log beside the stream; never raises.

    When that log cannot be written either, the line goes to the first
    fallback log that takes it (see fallback_logs).
    """
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    one_line = " ".join(str(message).split())
    head = f"{stamp} pid={os.getpid()} stream="
    line = f"{head}{quote(stream_path)} {one_line}\n".encode("utf-8", "replace")
    try:
        append_line(error_log_path(stream_path), line)
        return
    except (OSError, ValueError):
        pass
    try:
        line = f"{head}{stream_key(stream_path)} {one_line}\n".encode("utf-8", "replace")
    except (OSError, ValueError):
        return
    for path in fallback_logs()[::2]:  # the current logs, not the rotated ones
        try:
            if _private_dir(os.path.dirname(path)):
                _rotate_if_full(path)
                append_line(path, line)
                return
        except (OSError, ValueError):
            continue


# --- appending ----------------------------------------------------------------


def _open_append(path: str) -> int:
    """An O_APPEND fd on the regular file `path`, creating missing directories 0700
    and the file 0600. Never blocks: O_NONBLOCK, then the kind is checked."""
    parent = os.path.dirname(path)
    if parent and not os.path.isdir(parent):
        _make_private_dirs(parent)
    flags = os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
    try:  # readable too, to look at its last byte; write-only if that is all we may
        try:
            fd = os.open(path, flags | os.O_RDWR, 0o600)
        except PermissionError:
            fd = os.open(path, flags | os.O_WRONLY, 0o600)
    except OSError as exc:
        if exc.errno == _ENXIO:  # a FIFO nobody reads, or a socket
            _refuse(path, os.stat(path).st_mode)
        raise
    mode = os.fstat(fd).st_mode
    if mode & 0o170000 != 0o100000:
        os.close(fd)
        _refuse(path, mode)
    return fd


def _refuse(path: str, mode: int) -> None:
    kind = _FILE_KINDS.get(mode & 0o170000, "not a regular file")
    raise NotRegularFile(_ENXIO, f"not a regular file ({kind})", path)


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


def _lock(fd: int) -> bool:
    """Hold the file's append lock; False when it cannot be had (soon enough, or at all)."""
    deadline = 0.0
    pause = 0.0005
    while True:
        try:
            os.lockf(fd, os.F_TLOCK, 0)  # from offset 0 (just opened) to any length
            return True
        except (BlockingIOError, PermissionError):  # another appender holds it
            now = time.monotonic()
            deadline = deadline or now + LOCK_WAIT_S
            if now >= deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.01)
        except (OSError, AttributeError):  # ENOLCK, no lockf: go on without
            return False


def _write_whole(fd: int, line: bytes, locked: bool) -> None:
    """Write all of `line`; on failure take back whatever part of it landed."""
    view = memoryview(line)
    written = 0
    try:
        while view:
            n = os.write(fd, view)
            if n <= 0:
                raise OSError(5, "short write to the stream")
            written += n
            view = view[n:]
    except OSError:
        if written:
            _take_back(fd, written, locked)
        raise


def _take_back(fd: int, written: int, locked: bool) -> None:
    """Truncate off the `written` bytes of a failed append (they end at our offset)."""
    try:
        end = os.lseek(fd, 0, os.SEEK_CUR)
        if locked or os.fstat(fd).st_size == end:
            os.ftruncate(fd, end - written)
    except OSError:
        pass


# --- the fallback log ------------------------------------------------------------


def _private_dir(path: str) -> bool:
    """Make `path` (one level) 0700 if missing; True if it is ours alone."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    is_dir = st.st_mode & 0o170000 == 0o040000
    return is_dir and st.st_uid == os.getuid() and not st.st_mode & 0o077


def _rotate_if_full(path: str) -> None:
    """Keep a fallback log (and so the memory of a tmpfs) bounded: one old generation."""
    try:
        if os.stat(path).st_size >= FALLBACK_CAP:
            os.replace(path, path + ".1")
    except FileNotFoundError:
        pass
