"""Pipes and FIFOs as streams: copied as they arrive into a private regular file.

`hooktui watch <(cat s.jsonl)` or a named FIFO cannot be seeked, re-read or
stat'ed for growth, and opening a FIFO blocks until a writer comes. So the
app never hands one to the reader: a daemon thread opens it and copies what
arrives into a spool file (0600, in a private temporary folder, removed at
exit), which the app reads like any stream. The thread is a daemon and the
UI never waits for it, so `q` always exits, whether or not a writer is left.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import threading

CHUNK = 1 << 16


def is_pipe(path: str) -> bool:
    """A FIFO, a pipe behind /dev/fd/N, a socket or a character device: no size to follow."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


class Spools:
    """Regular files standing in for the pipes among a watch's streams."""

    def __init__(self) -> None:
        self.folder: str | None = None
        self.threads: list[threading.Thread] = []

    def path_for(self, path: str) -> str:
        """`path` itself for a regular file, else a spool that fills from it."""
        if not is_pipe(path):
            return path
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="hooktui-watch-")
        spool = os.path.join(self.folder, f"stream-{len(self.threads)}.jsonl")
        fd = os.open(spool, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        thread = threading.Thread(
            target=_copy, args=(path, fd), name=f"hooktui-spool-{len(self.threads)}", daemon=True
        )
        self.threads.append(thread)
        thread.start()
        return spool

    def remove(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def _copy(source: str, out: int) -> None:
    """Copy until the writer has gone (EOF); errors just end the copy."""
    try:
        src = os.open(source, os.O_RDONLY)  # blocks until a FIFO has a writer
        try:
            while chunk := os.read(src, CHUNK):
                os.write(out, chunk)
        finally:
            os.close(src)
    except OSError:
        pass
    finally:
        os.close(out)
