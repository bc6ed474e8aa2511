"""Reading streams: splitting into complete lines, heads, bad lines, lazy full records, merging."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hooktui.tap import model
from hooktui.tap.read.decode import BadLine, decode_head
from hooktui.tap.read.lines import load_stream, read_line_at, read_record_at, split_lines
from hooktui.tap.read.merge import merge_by_time

from tests import records


def rec(i: int = 0, **kw) -> model.Record:
    return records.record(records.numbered(i), **kw)


# --- split_lines ----------------------------------------------------------


def test_split_lines_offsets_and_consumed():
    buf = b'{"a":1}\n{"b":22}\npartial'
    lines, consumed = split_lines(buf, 100)
    assert lines == [(100, b'{"a":1}'), (108, b'{"b":22}')]
    assert consumed == 17
    assert buf[consumed:] == b"partial"


def test_split_lines_without_any_newline_consumes_nothing():
    assert split_lines(b'{"a":1}', 0) == ([], 0)
    assert split_lines(b"", 5) == ([], 0)


def test_split_lines_skips_blank_lines_but_counts_their_bytes():
    buf = b"\n\nx\n  \n\r\ny\n"
    lines, consumed = split_lines(buf, 0)
    assert lines == [(2, b"x"), (9, b"y")]
    assert consumed == len(buf)


def test_split_lines_keeps_carriage_return_and_inner_bytes():
    lines, _ = split_lines(b"a\r\n\xff\xfe\n", 0)
    assert lines == [(0, b"a\r"), (3, b"\xff\xfe")]


# --- decode_head ----------------------------------------------------------


def test_decode_head_of_a_record():
    line = model.encode_record(rec(3, decision="deny", duration_ms=41.5))[:-1]
    head = decode_head(line, 0)
    assert isinstance(head, model.RecordHead)
    assert (head.id, head.decision, head.duration_ms, head.tool_name) == (
        "r3",
        "deny",
        41.5,
        "Bash",
    )


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (b'{"id": "x', "invalid JSON: ends early"),
        (b"{bad}", "invalid JSON at byte 1"),
        (b"[1, 2]", "not a record: a JSON array, not an object"),
        (b'"just a string"', "not a record: a JSON str, not an object"),
        (b"{}", "not a record: missing 'id'"),
        (b'{"id":"x","ts":"t"}', "not a record: missing 'decision'"),
        (b'{"id":"x","ts":"t","decision":3}', "not a record: $.decision is int, expected str"),
        (b'{"id":"x","ts":"t","decision":"allow"} trailing', "invalid JSON at byte"),
        (b"\xff\xfe\x00", "invalid JSON at byte 0"),
    ],
)
def test_decode_head_bad_lines_say_why(line, error):
    bad = decode_head(line, 77)
    assert isinstance(bad, BadLine)
    assert bad.error.startswith(error)
    assert bad.offset == 77
    assert bad.length == len(line)


def test_bad_line_preview_is_short_and_decoded_with_replacement():
    line = b"\xff" + "é".encode() * 500
    bad = decode_head(line, 0)
    assert isinstance(bad, BadLine)
    assert len(bad.preview) == 120
    assert bad.preview.startswith("\ufffdé")


# --- files ----------------------------------------------------------------


def write_stream(path: Path, parts: list[bytes | model.Record]) -> list[int]:
    """Writes records and raw bytes; returns the offset each part starts at."""
    offsets = []
    with path.open("wb") as f:
        for part in parts:
            offsets.append(f.tell())
            f.write(model.encode_record(part) if isinstance(part, model.Record) else part)
    return offsets


def test_load_stream_records_bad_lines_and_partial_tail(tmp_path):
    p = tmp_path / "s.jsonl"
    offs = write_stream(p, [rec(0), b"not json\n", rec(1), b"\n", rec(2), b'{"id":"half'])
    entries, end = load_stream(str(p))
    assert [off for off, _ in entries] == [offs[0], offs[1], offs[2], offs[4]]
    kinds = [type(e) is BadLine for _, e in entries]
    assert kinds == [False, True, False, False]
    assert [e.id for _, e in entries if not isinstance(e, BadLine)] == ["r0", "r1", "r2"]
    # The torn last line is left for the tailer.
    assert end == offs[5]


def test_load_stream_empty_and_missing(tmp_path):
    p = tmp_path / "empty.jsonl"
    p.write_bytes(b"")
    assert load_stream(str(p)) == ([], 0)
    with pytest.raises(FileNotFoundError):
        load_stream(str(tmp_path / "nope.jsonl"))


def test_load_stream_with_only_a_partial_line(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(b'{"id":')
    assert load_stream(str(p)) == ([], 0)


def test_read_record_at_decodes_the_full_record_lazily(tmp_path):
    p = tmp_path / "s.jsonl"
    big = rec(1, request={"tool_input": {"command": "x" * 3_000_000}})
    offs = write_stream(p, [rec(0), b"oops\n", big])
    full = read_record_at(str(p), offs[2])
    assert isinstance(full, model.Record)
    assert full.request["tool_input"]["command"] == "x" * 3_000_000
    assert read_line_at(str(p), offs[0]) == model.encode_record(rec(0))[:-1]
    bad = read_record_at(str(p), offs[1])
    assert isinstance(bad, BadLine) and bad.error.startswith("invalid JSON")


def test_read_record_at_after_the_file_changed(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(b'{"id":"x"')  # no newline: the line we were promised is gone
    bad = read_record_at(str(p), 0)
    assert isinstance(bad, BadLine) and "incomplete" in bad.error
    gone = read_record_at(str(tmp_path / "nope"), 0)
    assert isinstance(gone, BadLine) and gone.error.startswith("cannot read")


# --- merge ----------------------------------------------------------------


def heads(*recs_or_bad):
    out = []
    off = 0
    for x in recs_or_bad:
        if isinstance(x, model.Record):
            out.append((off, decode_head(model.encode_record(x)[:-1], off)))
        else:
            out.append((off, decode_head(x, off)))
        off += 100
    return out


def test_merge_by_time_interleaves_and_keeps_bad_lines_in_place():
    a = heads(rec(1), b"junk-a", rec(5))
    b = heads(rec(2), rec(3), b"junk-b", rec(9))
    merged = merge_by_time([a, b])
    names = [(si, e.id if not isinstance(e, BadLine) else e.preview) for si, _, e in merged]
    assert names == [
        (0, "r1"),
        (0, "junk-a"),  # stays right after r1, its neighbour in its file
        (1, "r2"),
        (1, "r3"),
        (1, "junk-b"),
        (0, "r5"),
        (1, "r9"),
    ]
    assert merged[1][1] == 100  # offsets are carried through


def test_merge_by_time_is_stable_and_keeps_each_stream_order():
    # Records land in a stream when hooks finish, so a stream is not sorted by ts.
    a = heads(rec(5, id="a5"), rec(1, id="a1"))
    b = heads(rec(5, id="b5"), rec(2, id="b2"))
    ids = [e.id for _, _, e in merge_by_time([a, b])]
    assert ids.index("a5") < ids.index("a1")
    assert ids.index("b5") < ids.index("b2")
    assert ids.index("a5") < ids.index("b5")  # a tie goes to the first stream


def test_merge_by_time_orders_fractional_seconds_after_whole_ones():
    a = heads(rec(0, id="late", ts="2026-03-01T10:00:00.500Z"))
    b = heads(rec(0, id="early", ts="2026-03-01T10:00:00Z"))
    assert [e.id for _, _, e in merge_by_time([a, b])] == ["early", "late"]


def test_merge_of_one_stream_is_that_stream():
    a = heads(rec(3), b"x", rec(1))
    assert merge_by_time([a]) == [(0, off, e) for off, e in a]
    assert merge_by_time([]) == []


def test_load_stream_chunk_boundaries_give_the_same_entries(tmp_path, monkeypatch):
    import hooktui.tap.read.lines as reader  # where load_stream reads its chunks

    p = tmp_path / "s.jsonl"
    long = rec(5, request={"tool_input": {"command": "z" * 5000}})
    write_stream(p, [rec(0), b"junk\n", long, b"\n\n", rec(1), rec(2), b'{"id":"torn'])
    expected = load_stream(str(p))
    for size in (1, 7, 64, 1000, 4096):
        monkeypatch.setattr(reader, "_LOAD_CHUNK", size)
        assert load_stream(str(p)) == expected
    assert len(expected[0]) == 5


def test_load_stream_reads_a_fifo_and_stdin(tmp_path):
    import threading

    data = b"".join(model.encode_record(rec(i)) for i in range(3)) + b"junk\n"
    fifo = tmp_path / "f"
    os.mkfifo(fifo)

    def writer():
        with open(fifo, "wb") as w:
            w.write(data)

    th = threading.Thread(target=writer)
    th.start()
    entries, end = load_stream(str(fifo))
    th.join()
    assert end == len(data) and len(entries) == 4 and isinstance(entries[3][1], BadLine)
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "from hooktui.tap.read.lines import load_stream as l;e, n = l('-'); print(len(e), n)",
        ],
        input=data,
        capture_output=True,
        timeout=60,
    )
    assert r.stdout.split() == [b"4", str(len(data)).encode()]


def test_merge_orders_by_when_hooks_answered_and_survives_bad_times():
    a = heads(rec(1, id="slow", duration_ms=30_000.0), rec(2, id="bad-ts", ts="garbage"))
    b = heads(rec(5, id="quick"), rec(40, id="later"))
    ids = [e.id for _, _, e in merge_by_time([a, b])]
    # "bad-ts" has no time: it stays right after "slow", its neighbour in its file.
    assert ids == ["quick", "slow", "bad-ts", "later"]
