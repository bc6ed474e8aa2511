"""The replay screen's header: one row for what is replayed, one for the counts, at 80 columns."""

from __future__ import annotations

from hooktui.replay.report import Result
from hooktui.tap.canonical import Verdict
from hooktui.tui.present.replay_header import HeaderState, header_text

from tests.tui.conftest import make_record

INLINE = "if grep curl >/dev/null; then echo deny; else echo allow; fi # " + "x" * 80


def test_a_long_policy_is_cut_to_the_width():
    state = HeaderState(results=[], policy=INLINE, session="session.jsonl", width=78)
    first = header_text(state).plain.split("\n")[0]
    assert len(first) == 78 and first.endswith("…`")
    assert first.startswith("replay session.jsonl against `if grep curl")
    # With room, or no width known yet, the policy is whole.
    for width in (400, 0):
        state.width = width
        assert f"`{INLINE}`" in header_text(state).plain


def test_the_counts_fit_80_columns():
    """Decisions always (0 says none); effect, reason-only, failed and skipped when any."""
    record = make_record(0)
    results = [Result(index=i, line=i + 1, record=record, cls="unchanged") for i in range(999)]
    results.append(
        Result(
            index=999,
            line=1000,
            record=record,
            cls="changed",
            direction="tightened",
            after=Verdict(decision="deny"),
        )
    )
    state = HeaderState(results=results, shown=1000, total=1000, width=78)
    counts = header_text(state).plain.split("\n")[1]
    assert counts == "1000/1000 shown  unchanged 999  changed 1  loosened 0  tightened 1"
    assert len(counts) <= 78
    results[0] = Result(index=0, line=1, record=record, cls="failed")
    counts = header_text(HeaderState(results=results, shown=1000, total=1000)).plain
    assert "failed 1" in counts and "skipped" not in counts and "reason only" not in counts
