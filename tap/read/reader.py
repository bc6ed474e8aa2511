"""Reading streams: split bytes into complete lines, decode list heads, never die on a bad line.

A stream is JSON lines appended by many taps at once. Readers trust only lines
that end in a newline (a line without one may still be being written), decode
only the `RecordHead` of each line for lists, counts and filters, and decode the
full `Record` lazily, by file offset, when one call is looked at in detail.
A line that is not a record becomes a `BadLine` that costs only itself.

The parts live by role: `decode` (heads, BadLine), `lines` (inputs, chunks,
offsets), `merge` (time, merging streams); this module names them all, as
callers have always imported them from here.
"""

from __future__ import annotations

from hooktui.tap.read.decode import (
    PREVIEW_CHARS,
    BadLine,
    Entry,
    bad_line,
    decode_head,
    decode_heads,
    decode_lines,
    partial_head_decoder,
)
from hooktui.tap.read.lines import (
    MARK_BYTES,
    STDIN,
    STREAM_CHUNK,
    LineChunks,
    ReadPoint,
    is_regular,
    load_stream,
    load_stream_point,
    open_input,
    read_batches,
    read_line_at,
    read_record_at,
    split_lines,
)
from hooktui.tap.read.merge import end_time, merge_by_time, merge_lazily, parse_ts, time_keyed

__all__ = [
    "MARK_BYTES",
    "PREVIEW_CHARS",
    "STDIN",
    "STREAM_CHUNK",
    "BadLine",
    "Entry",
    "LineChunks",
    "ReadPoint",
    "bad_line",
    "decode_head",
    "decode_heads",
    "decode_lines",
    "end_time",
    "is_regular",
    "load_stream",
    "load_stream_point",
    "merge_by_time",
    "merge_lazily",
    "open_input",
    "parse_ts",
    "partial_head_decoder",
    "read_batches",
    "read_line_at",
    "read_record_at",
    "split_lines",
    "time_keyed",
]
