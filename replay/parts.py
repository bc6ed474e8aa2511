"""Streams cut into byte ranges for a fleet replay; a record is never cut.

The streams (in the order given) are laid end to end and cut into N parts of about
the same number of bytes; a part is one or more segments, each a byte range of one
stream. A line belongs to the part in which its first byte lies, so each part reads
on to the end of its last line and, unless it starts a stream, skips the line it
starts inside of. Every line is read by exactly one part, whatever the cuts.

Line numbers: a part numbers the lines it owns from 1 within each segment, and says
how many it owned; the merge adds the counts of the parts before it, giving each
record the line number a replay of the whole stream would.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

import msgspec


class Segment(msgspec.Struct, kw_only=True, frozen=True):
    stream: str  # a path or an fsspec URL, as expanded from the command line
    start: int  # the lines whose first byte lies in [start, end)
    end: int


class Part(msgspec.Struct, kw_only=True, frozen=True):
    index: int  # 1-based, as `--part K/N` says it
    of: int
    segments: tuple[Segment, ...] = ()


def split(sizes: list[tuple[str, int]], n: int) -> list[Part]:
    """`n` parts over `sizes` ((stream, bytes) in order); some may be empty."""
    total = sum(size for _, size in sizes)
    cuts = [total * k // n for k in range(n + 1)]
    parts: list[Part] = []
    for k in range(n):
        lo, hi = cuts[k], cuts[k + 1]
        segments = []
        offset = 0
        for stream, size in sizes:
            start, end = max(lo, offset), min(hi, offset + size)
            if start < end:
                segments.append(Segment(stream=stream, start=start - offset, end=end - offset))
            offset += size
        parts.append(Part(index=k + 1, of=n, segments=tuple(segments)))
    return parts


class Owned(msgspec.Struct, kw_only=True):
    """What reading a segment found besides its lines."""

    lines: int = 0  # complete lines owned (blank ones too: they are numbered)
    torn_tail: bool = False  # the stream ends inside a line, in this segment


def owned_lines(f: BinaryIO, segment: Segment, found: Owned) -> Iterator[bytes]:
    """The complete lines whose first byte lies in the segment (newline dropped);
    `found` is filled in as they are read."""
    pos = segment.start
    f.seek(max(0, pos - 1))
    if pos > 0 and f.read(1) != b"\n":
        pos += len(f.readline())  # the line we started inside of belongs to the part before
    while pos < segment.end:
        line = f.readline()
        if not line:
            return
        if not line.endswith(b"\n"):
            found.torn_tail = bool(line.strip())
            return
        pos += len(line)
        found.lines += 1
        yield line[:-1]
