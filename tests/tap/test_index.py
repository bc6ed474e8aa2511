"""The compact index: newest lines first, the rest backward, columns that agree with full heads."""

from __future__ import annotations

import math
import tracemalloc
from pathlib import Path

from hooktui.tap.model import encode_record
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.focus import Focus
from hooktui.tap.read.index import INDEXED, Columns, end_of
from hooktui.tap.read.index_load import index_backward, read_tail
from hooktui.tap.read.lines import load_stream
from hooktui.tap.read.view import CallView

from tests.tui.conftest import make_record, varied_records


def _stream(tmp_path: Path, n: int = 60) -> Path:
    """Varied records, a bad line, a blank line and one long line among them."""
    records = [make_record(i, tool_name=("Bash", "Edit", "Read")[i % 3]) for i in range(n)]
    records[n // 2] = make_record(n // 2, command="y" * 50_000)
    lines = [encode_record(r) for r in records]
    lines.insert(7, b'{"not": "a record"}\n')
    lines.insert(11, b"\n")
    lines += [encode_record(r) for r in varied_records()]
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(lines) + b'{"partial": ')  # a line still being written
    return path


def answer_keys(whole: list, source: int = 0) -> list:
    """((time, stream, offset), (offset, head)) for each line of a stream: the reference order.

    A line without a time (a bad one) takes its predecessor's in the file;
    ties go by stream, then place in the file.
    """
    last, keyed = -math.inf, []
    for offset, head in whole:
        t = end_of(head)
        last = last if t != t else t
        keyed.append(((last, source, offset), (offset, head)))
    return keyed


def answer_order(whole: list, source: int = 0) -> list:
    """(offset, head) pairs of a stream in the order hooks answered."""
    return [pair for _, pair in sorted(answer_keys(whole, source), key=lambda k: k[0])]


def _newest_first(path: Path, tail_bytes: int, window: int) -> CallView:
    """A view built as watch builds it: the tail, then older batches prepended."""
    view = CallView([str(path)])
    tail = read_tail(str(path), size=tail_bytes)
    view.replace_all(tail.batch)
    for progress in index_backward(str(path), tail.start, window=window, first=window):
        view.prepend(progress.batch)
    return view


def test_newest_first_then_backward_reads_every_line_once_in_order(tmp_path: Path) -> None:
    path = _stream(tmp_path)
    whole, end = load_stream(str(path))
    whole = answer_order(whole)
    assert [o for o, _ in whole] != sorted(o for o, _ in whole)  # the file is not in that order
    # Tiny windows: every line (the 50 KB one too) straddles some window's edge.
    for tail_bytes, window in ((300, 200), (4096, 1000), (1 << 20, 1 << 20)):
        view = _newest_first(path, tail_bytes, window)
        assert [view.line(r).offset for r in range(len(view))] == [o for o, _ in whole]
        heads = [view.line(r).head for r in range(len(view))]
        assert heads == [h for _, h in whole]
    assert read_tail(str(path)).end == end  # where the tailer takes over


def test_the_index_alone_agrees_with_decoded_heads(tmp_path: Path) -> None:
    path = _stream(tmp_path)
    whole, _ = load_stream(str(path))
    whole = answer_order(whole)
    index = Columns()
    tail = read_tail(str(path), size=500)
    for progress in index_backward(str(path), tail.start, window=700):
        index.prepend(progress.batch)
    index.extend(tail.batch)
    assert len(index) == len(whole)
    for row, (_, head) in enumerate(whole):
        if isinstance(head, BadLine):
            assert index.is_bad(row) and index.head(row) == head
            continue
        for name in INDEXED - {"hook"}:
            assert index.value(name, row) == getattr(head, name), name
        hook = index.value("hook", row)  # what `hook:` and `command:` read
        assert (hook.label, hook.argv) == (head.hook.label, head.hook.argv)


def test_a_filter_typed_while_indexing_applies_to_what_arrives(tmp_path: Path) -> None:
    path = _stream(tmp_path)
    full = CallView([str(path)])
    full.replace_all(load_stream_batch(path))
    exprs = [
        "tool:Bash",
        "decision:deny or latency>=5",
        "-tool:Edit hook:guard*",
        "x",
        "exit!=0",
        "command:guard.py",
    ]
    for expr in exprs:
        predicate = compile_filter(expr)
        full.set_predicate(expr, predicate)
        view = CallView([str(path)])
        tail = read_tail(str(path), size=2000)
        view.replace_all(tail.batch)
        view.set_predicate(expr, predicate)  # typed before indexing ends
        for progress in index_backward(str(path), tail.start, window=3000, first=3000):
            view.prepend(progress.batch)
        assert [e.key for e in view.shown_lines()] == [e.key for e in full.shown_lines()], expr
        assert view.stats.decisions == full.stats.decisions
        assert view.stats.percentile(95) == full.stats.percentile(95)
        assert view.stats.per_minute() == full.stats.per_minute()


def load_stream_batch(path: Path) -> Columns:
    whole, _ = load_stream(str(path))
    out = Columns()
    out.add_heads(0, whole, keep=True)
    return out


def test_older_rows_keep_the_focus_on_its_entry(tmp_path: Path) -> None:
    path = _stream(tmp_path)
    view = CallView([str(path)])
    tail = read_tail(str(path), size=3000)
    view.replace_all(tail.batch)
    focus = Focus(view)
    assert focus.following and focus.line.key == view.line(len(view) - 1).key
    focus.move_to(len(view) - 3)
    chosen = focus.line.key
    focus.move_by(0)
    for progress in index_backward(str(path), tail.start, window=2000, first=2000):
        view.prepend(progress.batch)
        assert focus.line.key == chosen and not focus.following
    assert focus.new == 0  # older rows are not new ones
    focus.last()
    assert focus.row == len(view) - 1


def test_the_index_costs_a_fraction_of_the_heads(tmp_path: Path) -> None:
    # Not a timing: how many bytes the index holds per record against decoded heads.
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"".join(encode_record(make_record(i)) for i in range(3000)))
    tracemalloc.start()
    heads, _ = load_stream(str(path))
    as_heads = tracemalloc.get_traced_memory()[0]
    del heads
    tracemalloc.stop()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    index = Columns()
    for progress in index_backward(str(path), path.stat().st_size):
        index.prepend(progress.batch)
    del progress
    as_index = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    assert len(index) == 3000
    assert as_index * 5 < as_heads, (as_index, as_heads)
