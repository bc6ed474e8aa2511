"""Show's tally (Stats, over heads) and watch's header (ColumnStats, over the index)
count calls, failures, fail-open, percentiles and rates in one place (tally.Tally),
and agree on the same calls."""

from __future__ import annotations

from hooktui.tap.read.index import batch_of
from hooktui.tap.read.index_stats import ColumnStats
from hooktui.tap.read.stats import Stats
from hooktui.tap.read.tally import Tally
from hooktui.tap.read.view import CallView

from tests import records

DECISIONS = ("allow", "deny", "allow", "failure", "modify", "failure", "ask")


def _heads(n: int):
    out = []
    for i in range(n):
        decision = DECISIONS[i % len(DECISIONS)]
        out.append(
            records.head(
                id=f"r{i}",
                ts=f"2026-03-01T10:{i * 7 // 60:02d}:{i * 7 % 60:02d}Z",
                duration_ms=float((i * 37) % 101),
                decision=decision,
                effect=("blocks" if i % 2 else "proceeds") if decision == "failure" else "",
            )
        )
    return out


def test_both_are_one_tally_and_agree() -> None:
    heads = _heads(300)
    stats = Stats()
    stats.add_heads(heads)
    view = CallView(["s.jsonl"])
    view.replace_all(batch_of(0, [(i * 100, h) for i, h in enumerate(heads)]))
    columns = view.stats
    assert isinstance(columns, ColumnStats)
    assert isinstance(stats, Tally) and isinstance(columns, Tally)
    for name in ("calls", "failures", "fail_open", "bad"):
        assert getattr(stats, name) == getattr(columns, name), name
    assert stats.decisions == columns.decisions
    assert stats.failures == sum(1 for h in heads if h.decision == "failure")
    for p in (50, 95, 99):
        assert stats.percentile(p) == columns.percentile(p)
    assert stats.rate(5) == columns.rate(5) > 0
    assert stats.per_minute(3) == columns.per_minute(3)
