"""Following a stream as it grows: complete lines only, across truncation and rotation.

No threads and no file-system events here: the caller decides when to poll
(watch polls on a watchfiles event and on a timer; show polls on a timer). A poll
when nothing changed costs one `os.stat`.

A file truncated and grown again between two polls (past its old size) keeps
its identity and looks merely longer: the tailer keeps the last bytes it read
and checks them when the file changed, so the new file's first records are not
skipped. A FIFO is read without blocking, as its writers send.
"""

from __future__ import annotations

import os
import stat

import msgspec
from hooktui.tap.read.lines import MARK_BYTES as _MARK_BYTES
from hooktui.tap.read.lines import ReadPoint, split_lines

_CHUNK = 4 << 20


class TailBatch(msgspec.Struct, kw_only=True):
    """What one poll found."""

    # New complete lines: (file offset of the first byte, bytes without the newline).
    lines: list[tuple[int, bytes]] = []
    # The file was truncated or replaced: drop what was read before; `lines`
    # then start at offset 0 of the new file.
    reset: bool = False
    # The file does not exist right now (not yet, or deleted).
    missing: bool = False


class Tailer:
    """Incremental reader of one stream file.

    `offset` is where the next complete line starts: bytes after it that have
    no newline yet are buffered here and yielded once their newline arrives.
    """

    def __init__(self, path: str, offset: int = 0, *, start: ReadPoint | None = None) -> None:
        """Follow `path` from `offset`; or from `start`, where a reader of it stopped.

        With `start`, the file found at the first poll is checked against what
        that reader saw, so a rewrite in between is a reset, not a skip.
        """
        self.path = path
        self._start = start
        if start is not None:
            offset = start.offset
        self._offset = offset  # start of the first line not yet yielded
        self._pending = bytearray()  # bytes read past _offset, no newline among them
        self._fd: int | None = None
        self._ident: tuple[int, int] | None = None  # (st_dev, st_ino) of the open file
        self._seen: tuple[int, int] = (-1, -1)  # (size, mtime_ns) at the last poll
        self._mark = b""  # the bytes just before the read position, as read
        self._head = b""  # the file's first bytes, as read
        self._fifo = False  # a pipe: read as it comes, no offsets to check
        # The file we read from went away: whatever is opened next is a reset.
        self._lost = False

    @property
    def offset(self) -> int:
        return self._offset

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Tailer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def _drop(self) -> None:
        """Forget the current file and everything read from it."""
        self.close()
        self._ident = None
        self._offset = 0
        self._pending.clear()
        self._mark = self._head = b""
        self._seen = (-1, -1)

    def poll(self) -> TailBatch:
        try:
            st = os.stat(self.path)
        except OSError:  # gone (or unreadable): wait for it to come back
            st = None
        if st is not None and stat.S_ISFIFO(st.st_mode):
            return self._poll_fifo()
        if st is None or stat.S_ISDIR(st.st_mode):
            if self._fd is not None or self._offset or self._pending:
                self._drop()
                self._lost = True  # the next file we open is a new one
            return TailBatch(missing=True)

        reset = False
        if self._fd is None or (st.st_dev, st.st_ino) != self._ident:
            if self._fd is not None:  # replaced: renamed away, or deleted and recreated
                self._drop()
                reset = True
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except OSError:
                self._lost = self._lost or reset
                return TailBatch(missing=True, reset=reset)
            self._fd = fd
            # Identity from the descriptor itself: the path may have changed
            # again between the stat and the open.
            fst = os.fstat(fd)
            self._ident = (fst.st_dev, fst.st_ino)
            size, seen = fst.st_size, (fst.st_size, fst.st_mtime_ns)
            if self._lost:
                reset = True
                self._lost = False
            start, self._start = self._start, None
            if start is not None and start.ident not in (None, self._ident):
                reset = True  # not the file that was read: replaced since
            elif start is not None:
                self._mark, self._head = start.mark, start.head
            elif not reset:
                self._mark = self._bytes_before(self._offset + len(self._pending))
                self._head = os.pread(fd, _MARK_BYTES, 0)
        else:
            size, seen = st.st_size, (st.st_size, st.st_mtime_ns)

        read_pos = self._offset + len(self._pending)
        changed, self._seen = seen != self._seen, seen
        if size < read_pos or (changed and read_pos and not self._same_mark(read_pos)):
            # Truncated in place, perhaps grown again past where we were (or,
            # on the first open, not the file a promised offset came from):
            # start again from its beginning.
            reset = True
            self._offset = 0
            self._pending.clear()
            self._mark = self._head = b""
            read_pos = 0
        if size == read_pos:
            return TailBatch(reset=reset)
        return TailBatch(lines=self._read_new(read_pos), reset=reset)

    def _bytes_before(self, pos: int) -> bytes:
        assert self._fd is not None
        start = max(0, pos - _MARK_BYTES)
        return os.pread(self._fd, pos - start, start)

    def _same_mark(self, read_pos: int) -> bool:
        """Whether the bytes before `read_pos`, and the first bytes, are still the ones read.

        The first bytes catch a rewrite that happened while a reader was
        reading to the end (it then read the new file's tail as if appended).
        """
        assert self._fd is not None
        head = self._head
        if head and os.pread(self._fd, len(head), 0) != head:
            return False
        return self._bytes_before(read_pos) == self._mark

    def _poll_fifo(self) -> TailBatch:
        """A FIFO: what its writers sent since the last poll, never blocking."""
        if not self._fifo:
            self._drop()
            self._fifo = True
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
            except OSError:
                return TailBatch(missing=True)
        chunks: list[bytes] = []
        while True:
            try:
                chunk = os.read(self._fd, _CHUNK)
            except BlockingIOError:
                break
            if not chunk:  # no writer now; a later one may come
                break
            chunks.append(chunk)
        if not chunks:
            return TailBatch()
        data = bytes(self._pending) + b"".join(chunks)
        lines, consumed = split_lines(data, self._offset)
        self._pending = bytearray(data[consumed:])
        self._offset += consumed
        return TailBatch(lines=lines)

    def _read_new(self, read_pos: int) -> list[tuple[int, bytes]]:
        assert self._fd is not None
        chunks: list[bytes] = []
        newline_seen = False
        # Read to the end as it is now (it may have grown since the stat).
        while True:
            chunk = os.pread(self._fd, _CHUNK, read_pos)
            if not chunk:
                break
            read_pos += len(chunk)
            if not newline_seen and b"\n" in chunk:
                newline_seen = True
            chunks.append(chunk)
            if len(chunk) < _CHUNK:
                break
        # Contiguous with the old mark: it ended where this read began.
        began = read_pos - sum(map(len, chunks))
        if chunks and began < _MARK_BYTES:
            self._head = (self._head[:began] + b"".join(chunks))[:_MARK_BYTES]
        if chunks:
            before = chunks[-2] if len(chunks) > 1 else self._mark
            self._mark = (before[-_MARK_BYTES:] + chunks[-1])[-_MARK_BYTES:]
        if not newline_seen:
            # Still inside one (maybe huge) line: keep it, yield nothing.
            for c in chunks:
                self._pending += c
            return []
        data = bytes(self._pending) + b"".join(chunks) if self._pending else b"".join(chunks)
        lines, consumed = split_lines(data, self._offset)
        self._pending = bytearray(data[consumed:])
        self._offset += consumed
        return lines
