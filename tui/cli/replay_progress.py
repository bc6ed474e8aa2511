"""The line `hooktui replay --format text` keeps on a terminal's stderr while it runs."""

from __future__ import annotations

import sys
import time

from hooktui.replay.report import Result


class Progress:
    """`replaying 12/1,000 · 3 changed` on stderr while a replay runs, when stderr is
    a terminal (never in a pipe or a log), redrawn at most ten times a second."""

    def __init__(self, total: int, stream=None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.done = 0
        self.changed = 0
        self.enabled = _isatty(self.stream)
        self._drawn = 0.0

    def __call__(self, result: Result) -> None:
        self.done += 1
        self.changed += result.differs
        now = time.monotonic()
        if self.enabled and (now - self._drawn >= 0.1 or self.done == self.total):
            self._drawn = now
            changed = f" · {self.changed} changed" if self.changed else ""
            self._write(f"\r\x1b[Kreplaying {self.done:,}/{self.total:,}{changed}")

    def clear(self) -> None:
        if self.enabled and self._drawn:
            self._write("\r\x1b[K")
            self._drawn = 0.0

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except OSError:
            self.enabled = False


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False
