"""Counting the lines of the tap's error log beside a stream.

The tap never writes its own problems (an unwritable stream, a full disk, a bug
in the recorder) to the hook's stderr: they go to `<stream>.errors.log`. A tap
that silently stopped recording looks like an agent that stopped calling hooks,
so watch and show point at that log. Kept free of Textual: show imports it.
"""

from __future__ import annotations

import os

from hooktui.tap.hotpath.stream import error_log_path

CHUNK = 1 << 20


class TapErrorLog:
    """The error log beside one stream: one stat per check, lines counted only when it changed."""

    def __init__(self, stream_path: str) -> None:
        self.path = error_log_path(str(stream_path))
        self.count = 0
        self._size = 0
        self._file_id: tuple[int, int] | None = None

    def check(self) -> bool:
        """Look at the log again; returns whether the count changed."""
        try:
            st = os.stat(self.path)
        except OSError:  # no log (the usual case), or unreadable for now
            st = None
        if st is None or not st.st_size:
            return self._set(0, 0, None)
        file_id = (st.st_dev, st.st_ino)
        if file_id == self._file_id and st.st_size == self._size:
            return False
        # Appended to: count only what is new; replaced or truncated: count it all.
        grew = file_id == self._file_id and st.st_size > self._size
        start, count = (self._size, self.count) if grew else (0, 0)
        try:
            count += _count_newlines(self.path, start, st.st_size)
        except OSError:
            return False  # try again at the next check
        return self._set(count, st.st_size, file_id)

    def _set(self, count: int, size: int, file_id: tuple[int, int] | None) -> bool:
        changed = count != self.count
        self.count, self._size, self._file_id = count, size, file_id
        return changed


def _count_newlines(path: str, start: int, end: int) -> int:
    """Newlines in bytes [start, end) of `path`: each error is one line."""
    count = 0
    with open(path, "rb") as f:
        f.seek(start)
        left = end - start
        while left > 0:
            chunk = f.read(min(CHUNK, left))
            if not chunk:
                break
            count += chunk.count(b"\n")
            left -= len(chunk)
    return count


def tap_error_summary(count: int) -> str:
    """'1 tap error', '3 tap errors'."""
    return f"{count:,} tap error{'' if count == 1 else 's'}"
