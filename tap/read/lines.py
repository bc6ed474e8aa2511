"""Reading streams as lines: complete lines only, from a file, a pipe or a byte offset.

Readers trust only lines that end in a newline (a line without one may still
be being written). A file of any size is read a chunk at a time.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from typing import NamedTuple

from hooktui.tap.model import Record, record_decoder
from hooktui.tap.read.decode import (
    BadLine,
    LineHead,
    _short_error,
    bad_line,
    decode_heads,
    decode_lines,
)

_READ_CHUNK = 1 << 20


def split_lines(buf: bytes, base_offset: int) -> tuple[list[tuple[int, bytes]], int]:
    """Complete lines of `buf` as (file offset, bytes without the newline), and bytes consumed.

    `base_offset` is the file offset of `buf[0]`. Bytes after the last newline
    are not consumed (the caller keeps them until their newline arrives).
    Blank lines are skipped but consumed.
    """
    end = buf.rfind(b"\n") + 1
    if end == 0:
        return [], 0
    out: list[tuple[int, bytes]] = []
    append = out.append
    pos = base_offset
    for line in buf[:end].split(b"\n")[:-1]:
        n = len(line)
        # Whitespace-only lines are blank too (a stray "\r" from an editor).
        if n and (n > 4 or line.strip()):
            append((pos, line))
        pos += n + 1
    return out, end


def _read_line(path: str, offset: int) -> tuple[bytes, bool]:
    """The line starting at `offset` and whether its newline was found."""
    parts: list[bytes] = []
    with open(path, "rb") as f:
        f.seek(offset)
        while True:
            chunk = f.read(_READ_CHUNK)
            if not chunk:
                return b"".join(parts), False
            nl = chunk.find(b"\n")
            if nl >= 0:
                parts.append(chunk[:nl])
                return b"".join(parts), True
            parts.append(chunk)


def read_line_at(path: str, offset: int) -> bytes:
    """The bytes of the line starting at `offset` (no newline). Raises OSError.

    A line the file ends in without a newline is returned as it is; the caller
    got `offset` from a complete line, so that only happens after truncation.
    """
    return _read_line(path, offset)[0]


def read_record_at(path: str, offset: int) -> Record | BadLine:
    """The full Record of the line at `offset`, decoded now; a BadLine if that fails."""
    try:
        line, complete = _read_line(path, offset)
    except OSError as exc:
        return BadLine(offset=offset, length=0, error=f"cannot read: {exc.strerror}", preview="")
    if not complete:
        return bad_line(line, offset, "incomplete line (file changed?)")
    try:
        return record_decoder.decode(line)
    except Exception as exc:
        return bad_line(line, offset, _short_error(exc))


_LOAD_CHUNK = 16 << 20
# Streaming reads (show, a pipe) hold one chunk at a time: small keeps memory flat.
STREAM_CHUNK = 1 << 20

# A stream named "-" is standard input.
STDIN = "-"


def open_input(path: str) -> int:
    """A file descriptor to read `path` from start to end: a file, a FIFO, `-` (stdin).

    The caller closes it. Raises OSError (FileNotFoundError when missing,
    IsADirectoryError for a directory, EINVAL for a device other than a terminal
    or /dev/null).
    """
    fd = os.dup(0) if path == STDIN else os.open(path, os.O_RDONLY)
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode):
        os.close(fd)
        raise IsADirectoryError(errno.EISDIR, "is a directory", path)
    if endless_input(fd, st):
        os.close(fd)
        raise OSError(errno.EINVAL, NOT_A_STREAM_DEVICE, path)
    return fd


NOT_A_STREAM_DEVICE = "a device, not a stream file"


def endless_device(st: os.stat_result) -> bool:
    """A character or block device other than /dev/null (/dev/zero, a disk): lines
    without end, or none. Readers refuse one (a terminal aside): reading /dev/zero
    for a line's end would fill memory, and a watch's spool file the disk.
    """
    if not (stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)):
        return False
    try:
        return st.st_rdev != os.stat(os.devnull).st_rdev
    except OSError:
        return True


def endless_input(fd: int, st: os.stat_result | None = None) -> bool:
    """An open input readers refuse: an endless device, a terminal aside (one types
    lines there and ends them with ^D)."""
    return endless_device(os.fstat(fd) if st is None else st) and not os.isatty(fd)


def is_regular(path: str) -> bool:
    """True for a regular file (or a link to one): one that can be re-read and followed.

    A pipe, a FIFO, `<(...)` or `-` is read once, as a stream, to its end.
    """
    if path == STDIN:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


# Bytes kept from just before a read position: a follower compares them later
# to tell a file rewritten in place (same inode, perhaps longer) from one that
# only grew. 64 bytes of a record line hold its id or time, which no other repeats.
MARK_BYTES = 64


class ReadPoint(NamedTuple):
    """Where a reader stopped in a file, and what it saw there: where a Tailer takes over."""

    offset: int  # after the last newline read
    mark: bytes  # the MARK_BYTES bytes before `offset`, as read
    head: bytes  # the file's first MARK_BYTES bytes, as read (a rewrite during the read)
    ident: tuple[int, int] | None  # (st_dev, st_ino) of the file read; None for a pipe


class LineChunks:
    """Complete lines of one input, chunk by chunk, read once from start to end.

    Iterating gives lists of (file offset, line without its newline). Reads use
    `os.read`, so a pipe gives its lines as they arrive and a file of any size
    needs one chunk of memory. Afterwards `end` is the offset after the last
    newline, `point` where a Tailer continues, and `partial` the bytes after it.
    """

    def __init__(self, fd: int, chunk: int = STREAM_CHUNK) -> None:
        self.fd = fd
        self.chunk = chunk
        self.end = 0
        self.partial = b""
        self._mark = b""
        self._head = b""
        st = os.fstat(fd)
        self._ident = (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None

    @property
    def point(self) -> ReadPoint:
        return ReadPoint(self.end, self._mark, self._head, self._ident)

    def __iter__(self) -> Iterator[list[tuple[int, bytes]]]:
        for buf, base, _ in self.blocks():
            lines, _ = split_lines(buf, base)  # up to its last newline: the block's end
            if lines:
                yield lines

    def blocks(self) -> Iterator[tuple[bytes, int, int]]:
        """The input as (buf, base, end): `buf[:end]` is whole lines, the first at offset `base`.

        Unsplit, for a reader that walks the lines itself without copying each
        (`show`); bytes after `end` come again at the start of the next block.
        """
        parts: list[bytes] = []  # bytes from `end` on that hold no newline yet
        read, fd, size = os.read, self.fd, self.chunk
        while True:
            chunk = read(fd, size)
            if not chunk:
                break
            if chunk.find(b"\n") < 0:
                parts.append(chunk)  # inside a long line: join once its end arrives
                continue
            buf = b"".join((*parts, chunk)) if parts else chunk
            if not self.end:
                self._head = buf[:MARK_BYTES]
            consumed = buf.rfind(b"\n") + 1
            base = self.end
            self.end += consumed
            self._mark = (self._mark + buf[max(0, consumed - MARK_BYTES) : consumed])[-MARK_BYTES:]
            rest = buf[consumed:]
            parts = [rest] if rest else []
            yield buf, base, consumed
        self.partial = b"".join(parts)


def read_batches(fd: int, chunk: int = STREAM_CHUNK) -> Iterator[list[tuple[int, bytes, LineHead]]]:
    """(offset, line, head) batches of one input read to its end, decoded as they come."""
    for lines in LineChunks(fd, chunk):
        yield decode_lines(lines)


def load_stream(path: str) -> tuple[list[tuple[int, LineHead]], int]:
    """Every complete line of `path` as (offset, head), and the offset consumed."""
    heads, point = load_stream_point(path)
    return heads, point.offset


def load_stream_point(path: str) -> tuple[list[tuple[int, LineHead]], ReadPoint]:
    """Every complete line of `path` as (offset, head), and the point a Tailer takes over.

    Give the point to `Tailer(path, start=point)`: a file rewritten between the
    load and the tailer's first poll is then read again, not skipped.

    The returned offset is where a Tailer continues (after the last newline; a
    trailing partial line is left for it). `path` may be a FIFO or `-` (read to
    its end). Raises OSError when it cannot be opened (FileNotFoundError when
    it does not exist).

    Read in big chunks and decoded chunk by chunk, so memory stays at the heads
    plus one chunk, not the whole file (a stream can be gigabytes).
    """
    heads: list[tuple[int, LineHead]] = []
    fd = open_input(path)
    try:
        chunks = LineChunks(fd, _LOAD_CHUNK)
        for lines in chunks:
            heads += decode_heads(lines)
    finally:
        os.close(fd)
    return heads, chunks.point
