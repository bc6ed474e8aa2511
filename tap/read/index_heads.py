"""Heads read back from the streams by byte offset: what the index does not keep.

`FileHeads.get` decodes one line (a row being drawn, the call being shown),
with a small LRU in front; `FileHeads.many` decodes many lines in display
order (a filter on a field the index lacks, the patterns view), reading each
stream in big sequential windows rather than one read per line.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from hooktui.tap.read.decode import decode_head, partial_head_decoder
from hooktui.tap.read.lines import read_line_at

CACHE = 4096
_FIRST_READ = 8 << 10  # most lines are a few KB
_WINDOW = 8 << 20
_BEHIND = 256 << 10  # how far before a line a window starts (see _Window.line)


class FileHeads:
    """Decoded heads of lines of `paths`, by (source, offset)."""

    def __init__(self, paths: list[str], size: int = CACHE) -> None:
        self.paths = paths
        self.size = size
        self._cache: OrderedDict[tuple[int, int], Any] = OrderedDict()

    def seed(self, heads: dict[tuple[int, int], Any]) -> None:
        """Heads already decoded (the newest lines, read first): no read for them."""
        cache = self._cache
        for key, head in heads.items():
            cache[key] = head
            cache.move_to_end(key)
        while len(cache) > self.size:
            cache.popitem(last=False)

    def forget(self, source: int | None = None) -> None:
        if source is None:
            self._cache.clear()
        else:
            for key in [k for k in self._cache if k[0] == source]:
                del self._cache[key]

    def get(self, source: int, offset: int) -> Any | None:
        """The head of the line at `offset` (a BadLine if it is none); None if unreadable."""
        key = (source, offset)
        head = self._cache.get(key)
        if head is not None:
            self._cache.move_to_end(key)
            return head
        try:
            line = _line_at(self.paths[source], offset)
        except (OSError, IndexError):
            return None
        head = decode_head(line, offset)
        self.seed({key: head})
        return head

    def many(
        self, keys: Iterable[tuple[int, int]], fields: frozenset[str] | None = None
    ) -> Iterator[Any | None]:
        """Heads (only `fields` decoded, when given) for keys, in order; None when unreadable.

        Each stream is read in windows of several MB: keys of one stream come
        in file order but for late lines (the index keeps answer order), so
        each window is read about once.
        """
        decode = partial_head_decoder(fields).decode if fields is not None else None
        cached = self._cache.get  # (a lookup only: safe beside the UI thread's changes)
        wanted = ((key, cached(key)) for key in keys)
        for (_, offset), head, line in self._read(wanted):
            if head is not None:
                yield head
            elif line is None:
                yield None
            elif decode is None:
                yield decode_head(line, offset)
            else:
                try:
                    yield decode(line)
                except Exception:
                    yield None  # not a record: a filter never matches it

    def lines(self, keys: Iterable[tuple[int, int]]) -> Iterator[bytes | None]:
        """The raw lines at keys, in order (None when unreadable), read as `many` reads them:
        for a reader that decodes more of a line than a head (watch's tool calls)."""
        for _, _, line in self._read((key, None) for key in keys):
            yield line

    def _read(self, wanted: Iterable[tuple[tuple[int, int], Any]]) -> Iterator[tuple]:
        """(key, head, line) for each (key, head known or None): the line read only when
        no head is known, each stream in sliding windows."""
        windows: dict[int, _Window] = {}
        try:
            for key, head in wanted:
                if head is not None:
                    yield key, head, None
                    continue
                source, offset = key
                window = windows.get(source)
                if window is None:
                    window = windows[source] = _Window(self.paths[source])
                yield key, None, window.line(offset)
        finally:
            for window in windows.values():
                window.close()


def _line_at(path: str, offset: int) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        chunk = os.pread(fd, _FIRST_READ, offset)
    finally:
        os.close(fd)
    end = chunk.find(b"\n")
    return chunk[:end] if end >= 0 else read_line_at(path, offset)


class _Window:
    """A sliding read window over one file."""

    def __init__(self, path: str) -> None:
        try:
            self.fd: int | None = os.open(path, os.O_RDONLY)
        except OSError:
            self.fd = None
        self.start = 0
        self.buf = b""

    def line(self, offset: int) -> bytes | None:
        if self.fd is None:
            return None
        rel = offset - self.start
        if 0 <= rel < len(self.buf):
            end = self.buf.find(b"\n", rel)
            if end >= 0:
                return self.buf[rel:end]
        # Rows are in answer order, so a late line comes a little before its
        # neighbours: the window starts a little before, to hold it too.
        start = max(0, offset - _BEHIND)
        size = _WINDOW + offset - start
        while True:
            try:
                self.buf = os.pread(self.fd, size, start)
            except OSError:
                return None
            self.start = start
            end = self.buf.find(b"\n", offset - start)
            if end >= 0:
                return self.buf[offset - start : end]
            if len(self.buf) < size:
                return None  # the file ends inside this line
            size *= 2  # a line longer than the window

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
