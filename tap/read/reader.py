"""Reading streams: split bytes into complete lines, decode list heads, never die on a bad line.

A stream is JSON lines appended by many taps at once. Readers trust only lines
that end in a newline (a line without one may still be being written), decode
only the `RecordHead` of each line for lists, counts and filters, and decode the
full `Record` lazily, by file offset, when one call is looked at in detail.
A line that is not a record becomes a `BadLine` that costs only itself.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

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


def load_stream(path: str) -> tuple[list[tuple[int, RecordHead | BadLine]], int]:
    """Every complete line of the file at `path` as (offset, entry), and the offset consumed.

    The returned offset is where a Tailer continues (after the last newline; a
    trailing partial line is left for it). Raises OSError when the file cannot
    be opened (FileNotFoundError when it does not exist).

    Read in big chunks and decoded chunk by chunk, so memory stays at the heads
    plus one chunk, not the whole file (a stream can be gigabytes).
    """
    entries: list[tuple[int, RecordHead | BadLine]] = []
    base = 0  # file offset of the first byte not yet consumed
    parts: list[bytes] = []  # bytes from `base` on that hold no newline yet
    with open(path, "rb") as f:
        while True:
            chunk = f.read(_LOAD_CHUNK)
            if not chunk:
                break
            if chunk.find(b"\n") < 0:
                parts.append(chunk)  # inside a long line: join once its end arrives
                continue
            buf = b"".join((*parts, chunk)) if parts else chunk
            lines, consumed = split_lines(buf, base)
            entries += decode_heads(lines)
            base += consumed
            rest = buf[consumed:]
            parts = [rest] if rest else []
    return entries, base


def parse_ts(ts: str) -> float:
    """Epoch seconds of an RFC 3339 timestamp; NaN when it is not one."""
    try:
        moment = datetime.fromisoformat(ts)
    except (ValueError, TypeError):
        return math.nan
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def ts_sort_key(ts: str) -> str:
    # Records are written in UTC; dropping the zone suffix makes "...:05Z" sort
    # before "...:05.25Z" (a prefix sorts first) as it should.
    if ts.endswith("Z") or ts.endswith("z"):
        return ts[:-1]
    if ts.endswith("+00:00"):
        return ts[:-6]
    return ts


def merge_by_time(
    streams: Sequence[Sequence[tuple[int, RecordHead | BadLine]]],
) -> list[tuple[int, int, RecordHead | BadLine]]:
    """Entries of several streams merged by `ts`, as (stream index, offset, entry).

    Each stream keeps its own order (a merge, not a sort: records are appended
    when a hook ends, so a stream is only roughly in `ts` order); ties go to the
    lower stream index. A BadLine has no time: it takes its predecessor's, so it
    stays right after the line it followed in its file.
    """
    if len(streams) == 1:
        return [(0, off, e) for off, e in streams[0]]

    def keyed(index: int, entries: Sequence[tuple[int, RecordHead | BadLine]]):
        last = ""
        for off, e in entries:
            if isinstance(e, RecordHead):
                last = ts_sort_key(e.ts)
            yield last, index, off, e

    merged = heapq.merge(*(keyed(i, s) for i, s in enumerate(streams)), key=lambda t: (t[0], t[1]))
    return [(i, off, e) for _, i, off, e in merged]
