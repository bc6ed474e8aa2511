"""A filter reading the files runs as a pass, newest rows first, beside indexing and appends."""

from __future__ import annotations

from pathlib import Path

from hooktui.tap.model import encode_record
from hooktui.tap.read import view as view_module
from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.filter_pass import FilterPass, Matched
from hooktui.tap.read.focus import Focus
from hooktui.tap.read.index import Columns
from hooktui.tap.read.index_load import index_backward, read_tail
from hooktui.tap.read.lines import load_stream
from hooktui.tap.read.view import CallView

from tests.tui.conftest import make_record

EXPRS = ["ls -la src/1", "summary:*src/2*", "id:call-0001* or tool:Edit", "-reason:x call-00*"]


def _stream(tmp_path: Path, n: int = 3000) -> Path:
    tools = ("Bash", "Edit", "Read")
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        b"".join(encode_record(make_record(i, tool_name=tools[i % 3])) for i in range(n))
    )
    return path


def _full(path: Path, expr: str) -> CallView:
    whole, _ = load_stream(str(path))
    batch = Columns()
    batch.add_heads(0, whole, keep=True)
    view = CallView([str(path)])
    view.replace_all(batch)
    view.set_predicate(expr, compile_filter(expr))
    return view


def _background(path: Path, passes: list[FilterPass], tail_bytes: int = 20_000) -> tuple:
    view = CallView([str(path)])
    view.background = True
    view.on_filter_pass.append(passes.append)
    tail = read_tail(str(path), size=tail_bytes)
    view.replace_all(tail.batch)
    return view, tail


def _step(view: CallView, passes: list[FilterPass], pieces: int) -> int:
    """Run up to `pieces` pieces of the started passes (as the worker would), applying each."""
    got: list[Matched] = []
    done = 0
    while passes and done < pieces:
        p = passes[0]
        stop = [False]

        def post(m: Matched, got=got, stop=stop) -> None:
            got.append(m)
            stop[0] = len(got) >= pieces

        p.run(post, lambda stop=stop: stop[0])
        if not p._segments:
            passes.pop(0)
        for m in got[done:]:
            view.apply_matches(m)
        done = len(got)
        if stop[0]:
            break
    return done


def test_a_pass_beside_indexing_shows_what_a_synchronous_filter_shows(tmp_path, monkeypatch):
    monkeypatch.setattr(view_module, "SYNC_ROWS", 100)
    path = _stream(tmp_path)
    for expr in EXPRS:
        full = _full(path, expr)
        passes: list[FilterPass] = []
        view, tail = _background(path, passes)
        view.set_predicate(expr, compile_filter(expr))  # typed while indexing
        assert len(passes) == 0 or view.filter_progress == 0.0
        for k, progress in enumerate(index_backward(str(path), tail.start, window=30_000)):
            view.prepend(progress.batch)
            _step(view, passes, k % 3)  # pieces and older batches interleave
            assert list(view.shown) == sorted(view.shown)
        view.add(Columns())  # nothing
        while passes:
            _step(view, passes, 1000)
        assert view.filter_progress is None
        assert [e.key for e in view.shown_lines()] == [e.key for e in full.shown_lines()], expr
        assert view.stats.decisions == full.stats.decisions
        assert view.stats.per_minute() == full.stats.per_minute()


def test_the_newest_matches_come_first_and_the_focus_keeps_its_entry(tmp_path, monkeypatch):
    monkeypatch.setattr(view_module, "SYNC_ROWS", 100)
    path = _stream(tmp_path)
    whole, _ = load_stream(str(path))
    passes: list[FilterPass] = []
    view, _ = _background(path, passes, tail_bytes=path.stat().st_size)  # all indexed
    focus = Focus(view)
    view.set_predicate("summary:*src*", compile_filter("summary:*src*"))
    assert len(view) == 0 and view.filter_progress == 0.0 and len(passes) == 1
    _step(view, passes, 1)
    first = len(view)
    assert 0 < first < len(whole)
    assert view.line(first - 1).offset == whole[-1][0]  # the newest row, first
    assert focus.following and focus.line.offset == whole[-1][0]
    focus.move_to(first - 3)
    chosen = focus.line.key
    while passes:
        _step(view, passes, 1)
        assert focus.line.key == chosen
    assert len(view) == len(whole) and view.filter_progress is None


def test_a_new_filter_cancels_the_pass_and_its_pieces_are_dropped(tmp_path, monkeypatch):
    monkeypatch.setattr(view_module, "SYNC_ROWS", 100)
    path = _stream(tmp_path)
    passes: list[FilterPass] = []
    view, _ = _background(path, passes, tail_bytes=path.stat().st_size)
    view.set_predicate("summary:*src*", compile_filter("summary:*src*"))
    old = passes.pop()
    late: list[Matched] = []
    old.run(late.append, lambda: len(late) >= 1)  # one piece tested, not yet applied
    view.set_predicate("tool:Edit", compile_filter("tool:Edit"))  # the index alone: no pass
    assert old.cancelled and not passes and view.filter_progress is None
    shown = [e.key for e in view.shown_lines()]
    assert view.apply_matches(late[0]) == 0 and [e.key for e in view.shown_lines()] == shown
    rest: list[Matched] = []
    old.run(rest.append)
    assert rest == []  # a cancelled pass tests nothing more
