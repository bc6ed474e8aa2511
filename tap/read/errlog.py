"""Counting the tap's errors about one stream, wherever the tap could write them.

The tap never writes its own problems (an unwritable stream, a full disk, a bug
in the recorder) to the hook's stderr: they go to `<stream>.errors.log`, and
when that cannot be written either (the same full disk, a read-only mount), to
a per-user fallback log (tap/base/stream.py: under $XDG_RUNTIME_DIR or
/tmp/hooktui-<uid>), one line per error naming the stream. A tap that silently
stopped recording looks like an agent that stopped calling hooks, so watch and
show count both, and can say so even when the stream itself does not exist.
Kept free of Textual: show imports it.

    log = TapErrorLog(stream_path)
    log.check()        # True when the count changed; one stat per file when nothing did
    log.count          # errors about this stream, in all the logs
    log.path           # where to point the user: the log holding them
"""

from __future__ import annotations

import os

from hooktui.tap.base.stream import error_log_path, fallback_logs, stream_key

CHUNK = 1 << 20


class _LogFile:
    """One log file, counted incrementally: lines (or lines naming a stream) so far."""

    def __init__(self, path: str, key: bytes | None) -> None:
        self.path = path
        self.key = key  # count only lines holding this; None: every line
        self.count = 0
        self._size = 0
        self._file_id: tuple[int, int] | None = None

    def check(self) -> None:
        try:
            st = os.stat(self.path)
        except OSError:  # no log (the usual case), or unreadable for now
            st = None
        if st is None or not st.st_size:
            self.count, self._size, self._file_id = 0, 0, None
            return
        file_id = (st.st_dev, st.st_ino)
        if file_id == self._file_id and st.st_size == self._size:
            return
        # Appended to: count only what is new; replaced or truncated: count it all.
        grew = file_id == self._file_id and st.st_size > self._size
        start, count = (self._size, self.count) if grew else (0, 0)
        try:
            count += _count_lines(self.path, start, st.st_size, self.key)
        except OSError:
            return  # try again at the next check
        self.count, self._size, self._file_id = count, st.st_size, file_id


class TapErrorLog:
    """The tap's errors about one stream: the log beside it and the fallback logs."""

    def __init__(self, stream_path: str) -> None:
        stream_path = str(stream_path)
        self.beside = _LogFile(error_log_path(stream_path), None)
        # The fallback logs are shared by every stream: match this one's lines.
        key = f" stream={stream_key(stream_path)} ".encode("utf-8", "replace")
        self.fallbacks = [_LogFile(p, key) for p in fallback_logs()]
        self.count = 0

    @property
    def logs(self) -> list[_LogFile]:
        return [self.beside, *self.fallbacks]

    @property
    def path(self) -> str:
        """The log to point at: the one beside the stream, unless only a fallback has errors."""
        if not self.beside.count:
            for log in self.fallbacks:
                if log.count:
                    return log.path
        return self.beside.path

    def check(self) -> bool:
        """Look at the logs again; returns whether the count changed."""
        for log in self.logs:
            log.check()
        count = sum(log.count for log in self.logs)
        changed, self.count = count != self.count, count
        return changed


def _count_lines(path: str, start: int, end: int, key: bytes | None) -> int:
    """Lines in bytes [start, end) of `path` (holding `key`, when given): one per error."""
    count = 0
    rest = b""
    with open(path, "rb") as f:
        f.seek(start)
        left = end - start
        while left > 0:
            chunk = f.read(min(CHUNK, left))
            if not chunk:
                break
            left -= len(chunk)
            if key is None:
                count += chunk.count(b"\n")
                continue
            lines = (rest + chunk).split(b"\n")
            rest = lines.pop()
            count += sum(1 for line in lines if key in line)
    return count


def tap_error_summary(count: int) -> str:
    """'1 tap error', '3 tap errors'."""
    return f"{count:,} tap error{'' if count == 1 else 's'}"
