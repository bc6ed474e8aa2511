"""Building the index of a stream: its newest lines first, then the rest, newest to oldest.

`read_tail` reads the last TAIL_BYTES of a file (a few hundred records: more
than a screenful) and decodes their heads whole, so the first screen costs the
same whatever the file's size. `index_backward` then walks from there to the
start of the file in windows, decoding only the fields the index keeps, and
yields batches that grow geometrically (each about as big as all before it, up
to MAX_BATCH), so the view prepends few times and the work stays near linear.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from typing import NamedTuple

from hooktui.tap.read.decode import decode_heads, partial_head_decoder
from hooktui.tap.read.index import DECODED, Columns, batch_of, joined
from hooktui.tap.read.lines import open_input, split_lines

TAIL_BYTES = 512 << 10
WINDOW = 2 << 20  # bytes read at a time while indexing (each is copied twice meanwhile)
FIRST_BATCH = 2 << 20  # bytes in the first batch posted; later ones as big as all before,
MAX_BATCH = 96 << 20  # up to this: a batch waiting to be prepended is memory held twice


class Tail(NamedTuple):
    batch: Columns  # the newest lines, heads kept
    start: int  # offset of the first of them: [0, start) is left to index
    end: int  # after the last newline: where a Tailer continues


def read_tail(path: str, source: int = 0, size: int = TAIL_BYTES) -> Tail:
    """The newest complete lines of `path` (about `size` bytes of them). Raises OSError."""
    fd = open_input(path)
    try:
        length = os.fstat(fd).st_size
        start = max(0, length - size)
        while True:
            buf = os.pread(fd, length - start, start)
            skip = 0
            if start > 0:
                skip = buf.find(b"\n") + 1  # the first line may begin before `start`
                if skip in (0, len(buf)):
                    start = max(0, start - size)  # inside one long line: look further back
                    size *= 2
                    continue
            break
    finally:
        os.close(fd)
    lines, consumed = split_lines(buf[skip:], start + skip)
    batch = batch_of(source, decode_heads(lines))
    return Tail(batch, start + skip, start + skip + consumed)


class Progress(NamedTuple):
    batch: Columns  # lines just before everything indexed so far
    left: int  # bytes still to index (0: done)


def index_backward(
    path: str, end: int, source: int = 0, window: int = WINDOW, first: int = FIRST_BATCH
) -> Iterator[Progress]:
    """The lines of `path` in [0, end), as batches from the newest to the oldest.

    Each batch holds lines older than every line of the batches before it.
    The collector is off meanwhile: decoding makes short-lived objects only,
    and a collection would walk everything the app holds, again and again.
    """
    decode = partial_head_decoder(DECODED).decode
    was_enabled = gc.isenabled()
    gc.disable()
    fd = open_input(path)
    try:
        hi, done, pieces = end, 0, [Columns()]
        goal, size = first, window
        while hi > 0:
            lo = max(0, hi - size)
            buf = os.pread(fd, hi - lo, lo)
            if len(buf) < hi - lo:
                break  # the file shrank: the tailer will see it replaced
            skip = 0
            if lo > 0:
                skip = buf.find(b"\n") + 1
                if skip in (0, len(buf)):  # no line starts inside: one longer than the window
                    size *= 2
                    continue
            size = window
            lines, _ = split_lines(buf[skip:], lo + skip)
            piece = pieces[0].like()
            piece.add_heads(source, decode_heads(lines, decode))
            pieces.append(piece)
            done += hi - lo - skip
            hi = lo + skip
            if done >= goal or hi == 0:
                # Joined once, not merged a window at a time: a stream whose calls
                # interleave throughout (streams concatenated) would sort it each time.
                yield Progress(joined(pieces[:0:-1]), hi)
                pieces, goal = [Columns()], done + min(done, MAX_BATCH)
    finally:
        os.close(fd)
        if was_enabled:
            gc.enable()
