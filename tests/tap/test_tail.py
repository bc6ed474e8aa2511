"""Tailer: complete lines only, across torn writes, truncation, rotation, deletion, huge lines."""

from __future__ import annotations

import os
import subprocess
import sys

from hooktui.tap import model
from hooktui.tap.read.decode import BadLine, decode_head
from hooktui.tap.read.lines import load_stream
from hooktui.tap.read.tail import Tailer

from tests import records
from tests.waits import WAIT_S


def line(i: int) -> bytes:
    return model.encode_record(records.record(records.numbered(i), runtime="codex", request=None))


def append(path, data: bytes) -> None:
    with open(path, "ab") as f:
        f.write(data)


def test_torn_line_is_held_until_its_newline(tmp_path):
    p = tmp_path / "s.jsonl"
    full = line(1)
    p.write_bytes(line(0) + full[:25])
    t = Tailer(str(p))
    first = t.poll()
    assert [off for off, _ in first.lines] == [0]
    assert not first.reset and not first.missing
    assert t.offset == len(line(0))  # the 25 torn bytes are held, not consumed
    assert t.poll().lines == []  # nothing new: still no newline
    append(p, full[25:-1])
    assert t.poll().lines == []  # the rest, but still no newline
    append(p, b"\n")
    got = t.poll().lines
    assert got == [(len(line(0)), full[:-1])]
    assert t.offset == len(line(0)) + len(full)
    append(p, line(2))  # nothing held back is left to stick to the next line
    assert t.poll().lines == [(len(line(0)) + len(full), line(2)[:-1])]


def test_nothing_new_is_an_empty_batch(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0))
    t = Tailer(str(p))
    t.poll()
    again = t.poll()
    assert again.lines == [] and not again.reset and not again.missing


def test_continues_from_load_stream_offset(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + line(1) + line(2)[:10])
    entries, end = load_stream(str(p))
    assert len(entries) == 2
    t = Tailer(str(p), end)
    assert t.poll().lines == []
    append(p, line(2)[10:])
    got = t.poll()
    assert not got.reset
    assert [decode_head(b, o).id for o, b in got.lines] == ["r2"]
    assert got.lines[0][0] == end


def test_file_appearing_later(tmp_path):
    p = tmp_path / "later.jsonl"
    t = Tailer(str(p))
    b = t.poll()
    assert b.missing and b.lines == [] and not b.reset
    p.write_bytes(line(0))
    b = t.poll()
    assert not b.missing and not b.reset
    assert [o for o, _ in b.lines] == [0]


def test_truncation_resets_and_reads_from_zero(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + line(1))
    t = Tailer(str(p))
    assert len(t.poll().lines) == 2
    with open(p, "r+b") as f:
        f.truncate(0)
    b = t.poll()
    assert b.reset and b.lines == []
    assert t.offset == 0
    append(p, line(7))
    b = t.poll()
    assert not b.reset
    assert [(o, decode_head(x, o).id) for o, x in b.lines] == [(0, "r7")]


def test_truncation_and_regrowth_between_polls(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + line(1) + line(2))
    t = Tailer(str(p))
    t.poll()
    p.write_bytes(line(8))  # truncated and rewritten, shorter than before
    b = t.poll()
    assert b.reset
    assert [decode_head(x, o).id for o, x in b.lines] == ["r8"]


def test_rotation_rename_and_recreate(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + line(1))
    t = Tailer(str(p))
    assert len(t.poll().lines) == 2
    os.rename(p, tmp_path / "s.jsonl.1")
    append(tmp_path / "s.jsonl.1", line(2))  # late writes to the old file are not followed
    # Longer than before, so a size check alone would miss it.
    p.write_bytes(line(10) + line(11) + line(12))
    b = t.poll()
    assert b.reset and not b.missing
    assert [(o, decode_head(x, o).id) for o, x in b.lines] == [
        (0, "r10"),
        (len(line(10)), "r11"),
        (len(line(10)) + len(line(11)), "r12"),
    ]
    t.close()


def test_rotation_then_nothing_yet(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0))
    t = Tailer(str(p))
    t.poll()
    os.rename(p, tmp_path / "old.jsonl")
    b = t.poll()
    assert b.missing and b.lines == []
    p.write_bytes(line(1))
    b = t.poll()
    assert b.reset and [decode_head(x, o).id for o, x in b.lines] == ["r1"]


def test_deletion_and_recreation(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + line(1)[:5])
    t = Tailer(str(p))
    t.poll()
    p.unlink()
    b = t.poll()
    assert b.missing and not b.lines
    assert t.poll().missing  # stays missing, quietly
    p.write_bytes(line(3))
    b = t.poll()
    assert b.reset and not b.missing
    assert [(o, decode_head(x, o).id) for o, x in b.lines] == [(0, "r3")]
    append(p, line(4))  # the torn bytes of the deleted file are gone: nothing sticks to it
    assert t.poll().lines == [(len(line(3)), line(4)[:-1])]


def test_promised_offset_beyond_a_new_shorter_file(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0))
    t = Tailer(str(p), offset=10_000)  # the offset came from another, longer file
    b = t.poll()
    assert b.reset
    assert [o for o, _ in b.lines] == [0]


def test_missing_with_a_promised_offset_resets_when_it_appears(tmp_path):
    p = tmp_path / "s.jsonl"
    t = Tailer(str(p), offset=500)
    assert t.poll().missing
    p.write_bytes(line(0))
    b = t.poll()
    assert b.reset and [o for o, _ in b.lines] == [0]


def test_invalid_lines_come_through_for_the_caller_to_judge(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + b"{{{not json\n" + line(1))
    t = Tailer(str(p))
    entries = [decode_head(x, o) for o, x in t.poll().lines]
    assert [type(e) is BadLine for e in entries] == [False, True, False]


def test_a_20_mb_line(tmp_path):
    p = tmp_path / "s.jsonl"
    big = model.Record(
        id="big",
        ts="2026-03-01T10:00:00Z",
        runtime="codex",
        event="post_tool_use",
        decision="allow",
        request={"tool_output": "y" * (20 << 20)},
    )
    data = model.encode_record(big)
    assert len(data) > 20 << 20
    p.write_bytes(line(0))
    t = Tailer(str(p))
    t.poll()
    # Written in pieces, as a slow writer would; only the whole line comes out.
    step = 7 << 20
    for i in range(0, len(data) - 1, step):
        append(p, data[i : min(i + step, len(data) - 1)])
        assert t.poll().lines == []
    append(p, b"\n" + line(1))
    got = t.poll().lines
    assert [o for o, _ in got] == [len(line(0)), len(line(0)) + len(data)]
    assert got[0][1] == data[:-1]
    assert decode_head(got[0][1], got[0][0]).id == "big"


def test_many_appends_from_parallel_writers(tmp_path):
    """Four processes append 500 lines each with O_APPEND while we poll."""
    p = tmp_path / "s.jsonl"
    p.touch()
    writer = (
        "import os, sys\n"
        "fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)\n"
        "for i in range(500):\n"
        '    os.write(fd, ((\'{"w":%s,"i":%d,"pad":"\' % (sys.argv[2], i)) + \'x\' * (i % 300) + \'"}\\n\').encode())\n'
    )
    t = Tailer(str(p))
    procs = [subprocess.Popen([sys.executable, "-c", writer, str(p), str(w)]) for w in range(4)]
    seen: list[tuple[int, bytes]] = []
    while any(proc.poll() is None for proc in procs):
        seen += t.poll().lines
    for proc in procs:
        assert proc.wait(timeout=WAIT_S) == 0
    seen += t.poll().lines
    assert len(seen) == 2000
    # Every line is whole, and offsets tile the file exactly.
    data = p.read_bytes()
    pos = 0
    for off, text in seen:
        assert off == pos
        assert data[off : off + len(text) + 1] == text + b"\n"
        assert text.endswith(b'"}')
        pos = off + len(text) + 1
    assert pos == len(data) == t.offset


def test_context_manager_closes(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0))
    with Tailer(str(p)) as t:
        assert len(t.poll().lines) == 1
    assert t._fd is None


def test_a_directory_in_place_of_the_file_counts_as_missing(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0))
    t = Tailer(str(p))
    assert len(t.poll().lines) == 1
    p.unlink()
    p.mkdir()
    assert t.poll().missing
    p.rmdir()
    p.write_bytes(line(1))
    b = t.poll()
    assert b.reset and [decode_head(x, o).id for o, x in b.lines] == ["r1"]


def test_truncated_then_grown_past_the_old_size_between_polls(tmp_path):
    # Same inode, bigger than before: only the content says it was rewritten.
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + line(1))
    t = Tailer(str(p))
    assert len(t.poll().lines) == 2
    new = b"".join(line(i) for i in range(10, 16))
    assert len(new) > p.stat().st_size
    with open(p, "r+b") as f:
        f.write(new)
        f.truncate(len(new))
    got = t.poll()
    assert got.reset
    assert [decode_head(x, o).id for o, x in got.lines] == [f"r{i}" for i in range(10, 16)]
    append(p, line(16))  # and plain appends go on as before
    after = t.poll()
    assert not after.reset and [decode_head(x, o).id for o, x in after.lines] == ["r16"]


def test_rewritten_while_a_torn_line_was_pending(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + line(1)[:20])
    t = Tailer(str(p))
    assert len(t.poll().lines) == 1 and t.offset == len(line(0))  # 20 torn bytes held
    new = line(5) + line(6) + line(7)
    with open(p, "r+b") as f:
        f.write(new)
        f.truncate(len(new))
    got = t.poll()
    assert got.reset and [decode_head(x, o).id for o, x in got.lines] == ["r5", "r6", "r7"]


def test_a_fifo_is_read_as_it_comes_without_blocking(tmp_path):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    t = Tailer(str(fifo))
    assert t.poll().lines == []  # no writer yet: nothing, and no hang
    w = os.open(fifo, os.O_WRONLY)
    try:
        os.write(w, line(0) + line(1)[:10])
        assert [decode_head(x, o).id for o, x in t.poll().lines] == ["r0"]
        os.write(w, line(1)[10:])
        assert [decode_head(x, o).id for o, x in t.poll().lines] == ["r1"]
    finally:
        os.close(w)
    assert t.poll().lines == []  # the writer went: still no hang
    t.close()


def test_rewritten_between_the_load_and_the_first_poll(tmp_path):
    from hooktui.tap.read.lines import load_stream_point

    p = tmp_path / "s.jsonl"
    p.write_bytes(line(0) + line(1))
    entries, point = load_stream_point(str(p))
    assert len(entries) == 2 and point.offset == p.stat().st_size
    new = b"".join(line(i) for i in range(20, 24))
    with open(p, "r+b") as f:
        f.write(new)
        f.truncate(len(new))
    got = Tailer(str(p), start=point).poll()
    assert got.reset and [decode_head(x, o).id for o, x in got.lines][0] == "r20"
    # Untouched since the load: it just continues.
    entries, point = load_stream_point(str(p))
    append(p, line(30))
    again = Tailer(str(p), start=point).poll()
    assert not again.reset and [decode_head(x, o).id for o, x in again.lines] == ["r30"]
