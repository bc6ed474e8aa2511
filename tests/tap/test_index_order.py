"""Rows in answer order, however the lines were appended or split into batches.

A record is appended a little after its hook answered: under load a call that
answered at .588 is appended after one that answered at .603 (issue 24). The
index keeps rows in answer order: live tailing, in any batch split, gives the
order loading the file gives, and a late row goes in at its place while the
selected call, the marks, follow mode and the new-row count stay right.
"""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from hooktui.tap.model import encode_record
from hooktui.tap.read.decode import decode_heads
from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.focus import Focus
from hooktui.tap.read.index import batch_of
from hooktui.tap.read.lines import load_stream, split_lines
from hooktui.tap.read.view import CallView

from tests.tap.test_index import _newest_first, answer_keys, answer_order
from tests.tui.conftest import BASE_TIME, make_record


def _at(i: int, ms: float, **fields):
    """Call `i`, started `ms` after BASE_TIME."""
    ts = (BASE_TIME + timedelta(milliseconds=ms)).isoformat().replace("+00:00", "Z")
    return make_record(i, ts=ts, **fields)


def _disordered_lines(n: int, seed: int) -> list[bytes]:
    """Records appended in the order the recorders finished writing them: each a little
    after its hook answered, by a random delay, so neighbours swap; a few bad lines and
    records without a time among them (they follow their predecessor in the file)."""
    rng = random.Random(seed)
    written = []
    for i in range(n):
        start = i * 40.0
        duration = rng.choice([5.0, 12.0, 80.0, 300.0])
        answered = start + duration
        written.append((answered + rng.uniform(0, 150), _at(i, start, duration_ms=duration)))
    written.sort(key=lambda w: w[0])  # the order they were appended
    lines = [encode_record(record) for _, record in written]
    for k in rng.sample(range(1, n), 4):
        lines.insert(k, b'{"not": "a record"}\n')
    lines.insert(0, b"garbage before any record\n")  # no predecessor at all
    lines.insert(rng.randrange(n), encode_record(make_record(9000, ts="not a time")))
    return lines


def _write(tmp_path: Path, lines: list[bytes], name: str = "s.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(b"".join(lines))
    return path


def _keys(view: CallView) -> list[tuple[int, int]]:
    return [view.line(r).key for r in range(len(view))]


def _live(paths: list[Path], rng: random.Random) -> CallView:
    """The streams as watch tails them: batches of random sizes, streams polled in turn."""
    view = CallView([str(p) for p in paths])
    pending = []
    for source, path in enumerate(paths):
        lines, _ = split_lines(path.read_bytes(), 0)
        pending.append((source, decode_heads(lines)))
    while any(pairs for _, pairs in pending):
        batch = None
        for k, (source, pairs) in enumerate(pending):  # one poll: each stream's new lines
            cut = rng.randint(0, min(len(pairs), rng.choice([1, 3, 17])))
            piece, pending[k] = pairs[:cut], (source, pairs[cut:])
            if piece:
                one = batch_of(source, piece, batch)
                batch = one if batch is None else (batch.extend(one), batch)[1]
        if batch is not None:
            view.add(batch)
    return view


def test_any_batch_split_gives_the_answer_order_loading_gives(tmp_path: Path) -> None:
    for seed in range(12):
        path = _write(tmp_path, _disordered_lines(160, seed))
        whole, _ = load_stream(str(path))
        expected = [(0, offset) for offset, _ in answer_order(whole)]
        assert expected != sorted(expected)  # appended out of answer order
        rng = random.Random(seed)
        for _ in range(6):
            assert _keys(_live([path], rng)) == expected, seed
        for tail_bytes, window in ((300, 200), (2000, 700), (1 << 20, 1 << 20)):
            assert _keys(_newest_first(path, tail_bytes, window)) == expected, (seed, window)


def test_two_streams_tailed_in_any_split_merge_as_newest_first(tmp_path: Path) -> None:
    a = _write(tmp_path, _disordered_lines(80, 1), "a.jsonl")
    b = _write(tmp_path, _disordered_lines(80, 2), "b.jsonl")
    keyed = [
        k for source, p in enumerate((a, b)) for k in answer_keys(load_stream(str(p))[0], source)
    ]
    expected = [(key[1], key[2]) for key, _ in sorted(keyed, key=lambda k: k[0])]
    rng = random.Random(7)
    for _ in range(8):
        assert _keys(_live([a, b], rng)) == expected


def _call_stream(tmp_path: Path) -> Path:
    return _write(tmp_path, [encode_record(_at(i, i * 1000.0)) for i in range(30)])


def _append(path: Path, view: CallView, record) -> None:
    offset = path.stat().st_size
    line = encode_record(record)
    with path.open("ab") as f:
        f.write(line)
    view.add(batch_of(0, decode_heads([(offset, line.rstrip(b"\n"))])))


def test_a_late_call_goes_in_above_and_the_selected_call_stays_selected(tmp_path: Path) -> None:
    path = _call_stream(tmp_path)
    view = _newest_first(path, 1 << 20, 1 << 20)
    focus = Focus(view)
    focus.move_to(27)  # not following: the user reads call 27
    chosen = focus.line.key
    view.toggle_mark(28)
    marked = view.line(28).key
    # Call 100 answered at 26.5 s but was appended after all others.
    _append(path, view, _at(100, 26_400.0, duration_ms=100.0))
    times = [view.line(r).t for r in range(len(view))]
    assert times == sorted(times)
    assert view.line(27).head.id == "call-00100"  # after call 26 (26.0 s), before call 27
    assert focus.line.key == chosen and focus.row == 28 and not focus.following
    assert view.is_marked(view.line(29)) and view.line(29).key == marked
    assert focus.new == 0  # it went in above where the user stopped following
    _append(path, view, _at(101, 40_000.0))  # a call after all others is new
    assert focus.new == 1 and focus.line.key == chosen
    focus.last()
    _append(path, view, _at(102, 26_000.0, duration_ms=700.0))  # late, while following
    assert focus.following and focus.row == len(view) - 1
    assert focus.line.key == view.line(len(view) - 1).key


def test_a_late_call_is_filtered_like_any_other(tmp_path: Path) -> None:
    path = _call_stream(tmp_path)
    view = _newest_first(path, 1 << 20, 1 << 20)
    view.set_predicate("tool:Edit", compile_filter("tool:Edit"))
    _append(path, view, _at(200, 10_000.0, tool_name="Edit"))
    _append(path, view, _at(201, 5_000.0, tool_name="Bash"))
    _append(path, view, _at(202, 3_000.0, tool_name="Edit"))
    assert [view.line(r).head.id for r in range(len(view))] == ["call-00202", "call-00200"]
    assert list(view.shown) == sorted(view.shown)
    assert view.stats.decisions["allow"] == 2
