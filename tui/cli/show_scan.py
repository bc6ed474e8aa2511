"""`show`'s scan: which lines of a chunk to print, decoded no further than it takes to know.

A filter reads a few fields of a record; the line printed is the line as read.
So each line is first decoded only as far as the filter reads (a Struct of
those fields, one decoder per expression: `partial_head_decoder`), and the
full head only for the lines that pass, to tell a record from a bad line and
to give the rows what they show. When most lines pass, that is two decodes
of most lines, so the scan then decodes the full head first, as one decode
(chosen again for every chunk, from the last chunk's share of lines kept).

Whichever way a line is decoded, it is counted and printed the same: a line
the head decoder refuses is taken again the narrow way, to say whether the
filter would have skipped it (counted as a call, as the narrow decode left
it) or it is a bad line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hooktui.tap.read.decode import (
    BadLine,
    decode_head,
    decode_head_or_raise,
    partial_head_decoder,
)
from hooktui.tap.read.filter import filter_fields

if TYPE_CHECKING:
    from hooktui.tui.cli.show_read import Options, Tally

# (stream index, offset, line, head): one line of one stream as it flows through
# (the line a view into its chunk when the Scan was made with `views`).
Item = tuple[int, int, bytes | memoryview, object]

# Above this share of lines kept, decoding the head first is cheaper than the
# narrow decode of every line plus the head of each kept one (a head costs
# about 1.3 narrow decodes: each key of a line not in the Struct is compared
# with every field name, twenty for a head, four or so for a filter).
HEAD_FIRST_SHARE = 0.25


class Scan:
    """Picks the lines to print from each chunk, and counts calls and bad lines."""

    def __init__(self, opts: Options, tally: Tally, merging: bool, views: bool = False) -> None:
        """`views`: lines printed are handed on as views into their chunk, not copies (for
        an output that writes each batch before the next is read, and keeps nothing)."""
        self.accepts = opts.accepts
        self.views = views
        self.tally = tally
        # Bad lines are rows while the filter is empty; JSON reports them on stderr.
        self.keep_bad = (opts.show_bad or opts.format == "json") and opts.group_by is None
        fields = filter_fields(opts.accepts)
        if merging:  # the merge orders by when each hook answered
            fields |= {"ts", "duration_ms"}
        self.light = None if opts.show_bad else partial_head_decoder(frozenset(fields)).decode
        self.head_first = self.light is None

    def pick(self, si: int, lines: list[tuple[int, bytes]]) -> list[Item]:
        """The lines to print of (offset, line) pairs (lines split out of their chunk)."""
        out: list[Item] = []
        tally, accepts, light = self.tally, self.accepts, self.light
        for off, line in lines:
            if light is not None:
                try:
                    passed = accepts(light(line))
                except Exception:  # not a record: decode_head below says why
                    passed = True
                if not passed:
                    tally.total += 1
                    continue
            e = decode_head(line, off)
            if isinstance(e, BadLine):
                tally.bad += 1
                if self.keep_bad:
                    out.append((si, off, line, e))
            else:
                tally.total += 1
                if light is not None or accepts(e):
                    out.append((si, off, line, e))
        return out

    def pick_block(self, si: int, buf: bytes, base: int, end: int) -> list[Item]:
        """`pick` over the lines of `buf[:end]` (the first at file offset `base`), in place.

        A line is a view into the chunk while it is tested, and copied only
        when it is printed (and not even then with `views`) or bad.
        """
        out: list[Item] = []
        walk = self._walk_heads if self.head_first else self._walk_narrow
        tested = walk(si, buf, base, end, out)
        if self.light is not None and tested:
            self.head_first = len(out) > tested * HEAD_FIRST_SHARE
        return out

    def _walk_narrow(self, si: int, buf: bytes, base: int, end: int, out: list[Item]) -> int:
        """The narrow decode of every line; the head of those that pass. Returns lines tested."""
        accepts, light, head = self.accepts, self.light, decode_head_or_raise
        assert light is not None
        view, find, append = memoryview(buf), buf.find, out.append
        kept = view if self.views else buf
        tested = calls = 0
        pos = 0
        while pos < end:
            nl = find(b"\n", pos)
            # Blank lines are skipped, as split_lines does (a stray "\r" too).
            if nl - pos <= 4 and not buf[pos:nl].strip():
                pos = nl + 1
                continue
            tested += 1
            try:
                if not accepts(light(view[pos:nl])):
                    calls += 1
                    pos = nl + 1
                    continue
                e = head(view[pos:nl])
            except Exception:  # not a record: pick says why
                out += self.pick(si, [(base + pos, buf[pos:nl])])
                pos = nl + 1
                continue
            calls += 1
            append((si, base + pos, kept[pos:nl], e))
            pos = nl + 1
        self.tally.total += calls
        return tested

    def _walk_heads(self, si: int, buf: bytes, base: int, end: int, out: list[Item]) -> int:
        """The head of every line, then the filter. Returns lines tested."""
        accepts, head = self.accepts, decode_head_or_raise
        view, find, append = memoryview(buf), buf.find, out.append
        kept = view if self.views else buf
        tested = calls = 0
        pos = 0
        while pos < end:
            nl = find(b"\n", pos)
            if nl - pos <= 4 and not buf[pos:nl].strip():  # blank, as in _walk_narrow
                pos = nl + 1
                continue
            tested += 1
            try:
                e = head(view[pos:nl])
            except Exception:  # not a head; the narrow decode may still skip it: pick says
                out += self.pick(si, [(base + pos, buf[pos:nl])])
                pos = nl + 1
                continue
            calls += 1
            if accepts(e):
                append((si, base + pos, kept[pos:nl], e))
            pos = nl + 1
        self.tally.total += calls
        return tested
