"""Reading streams: split bytes into complete lines, decode list heads, never die on a bad line.

A stream is JSON lines appended by many taps at once. Readers trust only lines
that end in a newline (a line without one may still be being written), decode
only the `RecordHead` of each line for lists, counts and filters, and decode the
full `Record` lazily, by file offset, when one call is looked at in detail.
A line that is not a record becomes a `BadLine` that costs only itself.
"""

from __future__ import annotations

import errno
import functools
import heapq
import math
import os
import re
import stat
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import NamedTuple, TypeVar

import msgspec
from hooktui.tap.model import Record, RecordHead, record_decoder

PREVIEW_CHARS = 120
_READ_CHUNK = 1 << 20


class BadLine(msgspec.Struct, kw_only=True):
    """A complete line that is not a record: shown as an error row and counted."""

    offset: int  # of the line's first byte in the file
    length: int  # bytes, newline not included
    error: str  # short, e.g. "invalid JSON at byte 12", "not a record: missing 'decision'"
    preview: str  # the first PREVIEW_CHARS characters, decoded with replacement


Entry = RecordHead | BadLine
T = TypeVar("T")


class _StrictHead(RecordHead, kw_only=True):
    """A RecordHead that insists on the fields every record has.

    `RecordHead` gives every field a default, so `{}` would decode as a call;
    requiring these three tells a record from any other JSON object. Instances
    are RecordHeads (a subclass), so callers never see the difference.
    """

    id: str
    ts: str
    decision: str


_strict_head_decoder = msgspec.json.Decoder(_StrictHead)
_REQUIRED = ("id", "ts", "decision")


@functools.lru_cache(maxsize=32)
def partial_head_decoder(fields: frozenset[str]) -> msgspec.json.Decoder:
    """A decoder of only `fields` of a record head (plus id, ts and decision, required).

    Filtering a big stream needs a few fields of each line, and every string
    decoded is an object made: `show` decodes these to pick lines, then the
    full head only of the lines it prints. Unknown names are ignored.
    """
    known = {f.name: f for f in msgspec.structs.fields(RecordHead)}
    spec: list = []
    for name in sorted(set(fields) | set(_REQUIRED)):
        f = known.get(name)
        if f is None:
            continue
        if name in _REQUIRED:
            spec.append((name, f.type))
        elif f.default_factory is not msgspec.NODEFAULT:
            spec.append((name, f.type, msgspec.field(default_factory=f.default_factory)))
        else:
            spec.append((name, f.type, f.default))
    partial = msgspec.defstruct("PartialHead", spec, kw_only=True, gc=False)
    return msgspec.json.Decoder(partial)


_MALFORMED = re.compile(r"JSON is malformed: (.*) \(byte (\d+)\)")
_MISSING = re.compile(r"Object missing required field `([^`]*)`(?: - at `([^`]*)`)?")
_EXPECTED = re.compile(r"Expected `([^`]*)`, got `([^`]*)`(?: - at `([^`]*)`)?")


def _short_error(exc: Exception) -> str:
    """msgspec's message, made into the short line a user reads in an error row."""
    msg = str(exc)
    if isinstance(exc, msgspec.ValidationError):
        m = _MISSING.fullmatch(msg)
        if m:
            where = f" in {m.group(2)}" if m.group(2) else ""
            return f"not a record: missing '{m.group(1)}'{where}"
        m = _EXPECTED.fullmatch(msg)
        if m:
            if m.group(3) is None:
                return f"not a record: a JSON {m.group(2)}, not an object"
            return f"not a record: {m.group(3)} is {m.group(2)}, expected {m.group(1)}"
        return f"not a record: {msg}"
    m = _MALFORMED.fullmatch(msg)
    if m:
        return f"invalid JSON at byte {m.group(2)}: {m.group(1)}"
    if "truncated" in msg:
        return "invalid JSON: ends early"
    return f"invalid JSON: {msg}"


def _preview(line: bytes) -> str:
    # Decoding a few bytes more than needed keeps multi-byte characters whole.
    return line[: PREVIEW_CHARS * 4].decode("utf-8", "replace")[:PREVIEW_CHARS]


def bad_line(line: bytes, offset: int, error: str) -> BadLine:
    return BadLine(offset=offset, length=len(line), error=error, preview=_preview(line))


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


def decode_head(line: bytes, offset: int) -> RecordHead | BadLine:
    """The head of one line, or a BadLine saying why not. Never raises."""
    try:
        return _strict_head_decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return bad_line(line, offset, _short_error(exc))
    except Exception as exc:  # a reader must survive anything a line holds
        return bad_line(line, offset, f"unreadable: {exc}")


def decode_heads(lines: Iterable[tuple[int, bytes]]) -> list[tuple[int, RecordHead | BadLine]]:
    """decode_head over (offset, line) pairs, as (offset, entry) pairs."""
    decode = _strict_head_decoder.decode
    out: list[tuple[int, RecordHead | BadLine]] = []
    append = out.append
    for offset, line in lines:
        try:
            append((offset, decode(line)))
        except Exception:
            append((offset, decode_head(line, offset)))
    return out


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
    IsADirectoryError for a directory).
    """
    if path == STDIN:
        return os.dup(0)
    fd = os.open(path, os.O_RDONLY)
    if stat.S_ISDIR(os.fstat(fd).st_mode):
        os.close(fd)
        raise IsADirectoryError(errno.EISDIR, "is a directory", path)
    return fd


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
            lines, consumed = split_lines(buf, self.end)
            self.end += consumed
            self._mark = (self._mark + buf[max(0, consumed - MARK_BYTES) : consumed])[-MARK_BYTES:]
            rest = buf[consumed:]
            parts = [rest] if rest else []
            if lines:
                yield lines
        self.partial = b"".join(parts)


def decode_lines(lines: Iterable[tuple[int, bytes]]) -> list[tuple[int, bytes, Entry]]:
    """(offset, line, entry) for (offset, line) pairs: decode_head, keeping each line."""
    decode = _strict_head_decoder.decode
    out: list[tuple[int, bytes, Entry]] = []
    append = out.append
    for offset, line in lines:
        try:
            append((offset, line, decode(line)))
        except Exception:
            append((offset, line, decode_head(line, offset)))
    return out


def read_batches(fd: int, chunk: int = STREAM_CHUNK) -> Iterator[list[tuple[int, bytes, Entry]]]:
    """(offset, line, entry) batches of one input read to its end, decoded as they come."""
    for lines in LineChunks(fd, chunk):
        yield decode_lines(lines)


def load_stream(path: str) -> tuple[list[tuple[int, RecordHead | BadLine]], int]:
    """Every complete line of `path` as (offset, entry), and the offset consumed."""
    entries, point = load_stream_point(path)
    return entries, point.offset


def load_stream_point(path: str) -> tuple[list[tuple[int, RecordHead | BadLine]], ReadPoint]:
    """Every complete line of `path` as (offset, entry), and the point a Tailer takes over.

    Give the point to `Tailer(path, start=point)`: a file rewritten between the
    load and the tailer's first poll is then read again, not skipped.

    The returned offset is where a Tailer continues (after the last newline; a
    trailing partial line is left for it). `path` may be a FIFO or `-` (read to
    its end). Raises OSError when it cannot be opened (FileNotFoundError when
    it does not exist).

    Read in big chunks and decoded chunk by chunk, so memory stays at the heads
    plus one chunk, not the whole file (a stream can be gigabytes).
    """
    entries: list[tuple[int, RecordHead | BadLine]] = []
    fd = open_input(path)
    try:
        chunks = LineChunks(fd, _LOAD_CHUNK)
        for lines in chunks:
            entries += decode_heads(lines)
    finally:
        os.close(fd)
    return entries, chunks.point


def parse_ts(ts: str) -> float:
    """Epoch seconds of an RFC 3339 timestamp; NaN when it is not one. Never raises."""
    try:
        moment = datetime.fromisoformat(ts)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.timestamp()
    except (ValueError, TypeError, OverflowError, OSError):
        return math.nan


def end_time(head: RecordHead) -> float:
    """Epoch seconds when the hook answered: the clock lists are ordered and shown by.

    A record is appended when its hook ends, so a stream is in this order (up
    to the recorders' small races); its `ts` is when the hook started. NaN when
    `ts` is not a timestamp.
    """
    start = parse_ts(head.ts)
    duration = head.duration_ms
    if duration > 0 and math.isfinite(duration) and math.isfinite(start):
        return start + duration / 1000
    return start


def time_keyed(
    items: Iterable[tuple[int, T]], head_of=lambda e: e
) -> Iterator[tuple[float, int, T]]:
    """(end time, offset, item) for merging: a line without a time takes its predecessor's.

    A bad line, or a record whose `ts` is no timestamp, so stays right after the
    line it followed in its file (and NaN never reaches a comparison).
    """
    last = -math.inf
    for offset, item in items:
        head = head_of(item)
        if isinstance(head, RecordHead):
            t = end_time(head)
            if t == t:  # not NaN
                last = t
        yield last, offset, item


def merge_lazily(streams: Sequence[Iterable[tuple[float, int, T]]]) -> Iterator[tuple[int, int, T]]:
    """Time-keyed streams (from `time_keyed`) merged as (stream index, offset, item), lazily.

    A heap over one iterator per stream: each keeps its own order (a merge, not
    a sort) and ties go to the lower stream index. Holds one item per stream.
    """
    if len(streams) == 1:
        for _, offset, item in streams[0]:
            yield 0, offset, item
        return

    def tagged(index: int, stream: Iterable[tuple[float, int, T]]):
        for key, offset, item in stream:
            yield key, index, offset, item

    tagged_streams = [tagged(i, s) for i, s in enumerate(streams)]
    for _, i, off, item in heapq.merge(*tagged_streams, key=lambda t: (t[0], t[1])):
        yield i, off, item


def merge_by_time(
    streams: Sequence[Sequence[tuple[int, RecordHead | BadLine]]],
) -> list[tuple[int, int, RecordHead | BadLine]]:
    """Entries of several streams merged by when each hook answered, as (stream, offset, entry)."""
    if len(streams) == 1:
        return [(0, off, e) for off, e in streams[0]]
    return list(merge_lazily([time_keyed(s) for s in streams]))
