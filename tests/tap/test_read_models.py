"""The UI-free read models: sanitizer, focus and follow, groups and timeline, rates, the terms table."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hooktui.tap.model import encode_record
from hooktui.tap.read import filter_terms
from hooktui.tap.read.decode import PRETTY_DEPTH, decode_head, nests_deeper
from hooktui.tap.read.filter import compile_filter, filter_fields
from hooktui.tap.read.filter_tokens import FilterError
from hooktui.tap.read.focus import Focus
from hooktui.tap.read.groups import Groups, timeline
from hooktui.tap.read.index import batch_of
from hooktui.tap.read.merge import end_time, parse_ts
from hooktui.tap.read.sanitize import safe_line, safe_text
from hooktui.tap.read.stats import Stats
from hooktui.tap.read.view import CallView

from tests import records

FILTER_DOC = Path(__file__).resolve().parents[2] / "docs" / "filter.md"


def head(i: int, **kw):
    fields = dict(id=f"r{i}", ts=f"2026-03-01T10:{i // 60:02d}:{i % 60:02d}Z", duration_ms=10.0)
    fields.update(kw)
    return records.head(**fields)


def batch(heads, source=0):
    return batch_of(source, [(i * 100, h) for i, h in enumerate(heads)])


def view_of(n: int, **kw) -> CallView:
    view = CallView(["s.jsonl"])
    view.replace_all(batch([head(i, **kw) for i in range(n)]))
    return view


# --- sanitizer --------------------------------------------------------------


@pytest.mark.parametrize(
    "hostile",
    [
        "\x1b]0;t\x07",
        "\x1b]52;c;AAAA\x1b\\",
        "\x1b[2J",
        "\x9b2J",
        "\x9d0;t\x9c",
        "a\u202eb",
        "\u2066x",
    ],
)
def test_sanitizers_leave_nothing_that_acts(hostile):
    for out in (safe_line(hostile), safe_text(hostile)):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out)
        # Nothing left that acts: sanitizing again changes nothing (newlines and tabs stay).
        assert safe_text(out) == out
    assert safe_text(hostile) != hostile
    assert "\n" not in safe_line("a\nb") and safe_text("a\nb\tc") == "a\nb\tc"
    assert safe_text("\x1b[1m") == "\\x1b[1m" and safe_text("\u202e") == "\\u202e"


# --- times ------------------------------------------------------------------


@pytest.mark.parametrize(
    "ts", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-05:00", "garbage", "", "9" * 40]
)
def test_times_never_raise(ts):
    h = head(1, ts=ts, duration_ms=1e308)
    parse_ts(ts)
    end_time(h)
    view = CallView(["s"])
    view.replace_all(batch([head(0), h, head(2)]))
    assert view.stats.rate() >= 0
    view.stats.per_minute(5)
    timeline([h, head(0)])
    Focus(view).move_to(1)


def test_the_shown_clock_is_when_the_hook_answered():
    h = head(1, duration_ms=2500.0)
    assert end_time(h) == parse_ts(h.ts) + 2.5
    view = view_of(1, duration_ms=2500.0)
    assert view.line(0).t == end_time(view.line(0).head)


# --- rate -------------------------------------------------------------------


def test_rate_is_calls_per_minute_over_the_last_minutes():
    # One call every 6 s for 20 minutes: 10 per minute whatever the clock minute.
    heads = [head(i, ts=_at(i * 6)) for i in range(200)]
    stats = Stats()
    stats.add_heads(heads)
    assert stats.rate(5) == pytest.approx(10, rel=0.05)
    assert stats.rate(1) == pytest.approx(10, rel=0.15)
    young = Stats()
    young.add_heads(heads[:6])  # 30 s of calls: at least a minute's span
    assert young.rate(5) == 6
    assert Stats().rate() == 0.0


def _at(seconds: int) -> str:
    return f"2026-03-01T10:{seconds // 60:02d}:{seconds % 60:02d}Z"


# --- focus and follow -------------------------------------------------------


def test_focus_follows_new_rows_until_the_user_moves_away():
    view = view_of(5)
    focus = Focus(view)
    assert focus.following and focus.row == 4
    view.add(batch([head(10)], 1))
    assert focus.row == 5 and focus.line.head.id == "r10"
    focus.move_by(-2)
    assert not focus.following and focus.line.head.id == "r3"
    view.add(batch([head(11), head(12)], 2))
    assert focus.line.head.id == "r3" and focus.new == 2
    focus.move_to(len(view) - 1)  # j to the end does not resume following
    assert not focus.following
    focus.last()
    assert focus.following and focus.new == 0 and focus.line.head.id == "r12"


def test_new_count_follows_the_filter():
    view = view_of(3)
    focus = Focus(view)
    focus.move_to(0)
    view.add(batch([head(20, tool_name="Edit"), head(21), head(22, tool_name="Edit")], 1))
    assert focus.new == 3
    view.set_predicate("tool:Edit", compile_filter("tool:Edit"))
    assert focus.new == 2  # recomputed: only the new rows the filter shows
    view.set_predicate("tool:Read", compile_filter("tool:Read"))
    assert focus.new == 0 and focus.row == -1 and focus.line is None


def test_focus_returns_to_the_anchor_when_a_filter_shows_it_again():
    view = view_of(6)
    focus = Focus(view)
    focus.move_to(3)  # r3, a Bash call
    changes = []
    focus.on_change.append(changes.append)
    view.set_predicate("id:r1 or id:r5", compile_filter("id:r1 or id:r5"))
    assert focus.line.head.id == "r1"  # the nearest shown row before r3
    view.set_predicate("", None)
    assert focus.line.head.id == "r3"
    assert changes


# --- groups and timeline ----------------------------------------------------


def test_groups_count_rates_and_p95():
    heads = [head(i, decision="deny", duration_ms=float(i), hook=_hook("a")) for i in range(4)]
    heads += [head(10, decision="allow", duration_ms=100.0, hook=_hook("a"))]
    heads += [head(11, decision="failure", effect="proceeds", hook=_hook("b"))]
    heads += [head(12, decision="failure", effect="blocks", hook=_hook("b"))]
    groups = Groups("hook")
    groups.add_all(heads)
    rows = groups.rows("count")
    assert [dict(g.terms)["hook"] for g in rows] == ["a", "b"]  # one runtime, one command each
    a, b = rows
    assert (a.count, a.deny, a.deny_rate, a.percentile(95)) == (5, 4, 0.8, 100.0)
    assert (b.count, b.fail_open, b.fail_open_rate) == (2, 1, 0.5)
    assert [g.key for g in groups.rows("fail_open")] == [b.key, a.key]
    by_decision = Groups("decision")
    by_decision.add_all(heads)
    assert [g.key for g in by_decision.rows("name")] == [
        "allow",
        "deny",
        "failure",
    ]
    assert Groups("tool_name").by == "tool"  # aliases from the terms table
    with pytest.raises(ValueError, match="cannot group by 'latency'"):
        Groups("latency")


def _hook(label):
    from hooktui.tap.model import HookHead

    return HookHead(label=label)


def test_timeline_by_decision_per_minute_with_quiet_minutes():
    heads = [head(0, ts=_at(5)), head(1, ts=_at(30), decision="deny"), head(2, ts=_at(190))]
    minutes = timeline(heads)
    assert [m.total for m in minutes] == [2, 0, 0, 1]
    assert minutes[0].decisions == {"allow": 1, "deny": 1}
    assert minutes[3].start - minutes[0].start == 180
    assert [m.total for m in timeline(heads, minutes=2)] == [0, 1]
    # A stray year-1 record does not make a billion empty minutes.
    assert len(timeline([*heads, head(9, ts="0001-01-01T00:00:00Z")])) <= 7 * 24 * 60


# --- the one table of filter terms ------------------------------------------


def test_every_term_in_the_table_parses_and_reads_its_field():
    for term in filter_terms.TERMS:
        pred = compile_filter(term.example)
        assert term.field.split(".")[0] in filter_fields(pred)
        for alias in term.aliases:
            compile_filter(f"{alias}:1" if term.kind == "number" else f"{alias}:x")
    with pytest.raises(FilterError) as exc:
        compile_filter("nope:1")
    assert all(t.name in exc.value.hint for t in filter_terms.TERMS)


def test_help_rows_list_every_term_and_the_syntax():
    rows = filter_terms.help_rows()
    examples = [example for example, _ in rows]
    assert all(t.example in examples for t in filter_terms.TERMS)
    assert len(rows) == len(filter_terms.TERMS) + len(filter_terms.SYNTAX)
    text = filter_terms.help_text()
    assert all(t.example in text and t.help in text for t in filter_terms.TERMS)


def test_docs_filter_block_is_the_generated_one():
    doc = FILTER_DOC.read_text()
    m = re.search(r"<!-- filter-terms:[^\n]*-->\n(.*?)\n<!-- /filter-terms -->", doc, re.S)
    assert m, "docs/filter.md lost its filter-terms markers"
    assert m.group(1) == filter_terms.readme_block()


def test_partial_decoding_picks_what_the_full_head_picks():
    lines = [
        encode_record(records.record(records.numbered(i), decision=d, tool_name=t))[:-1]
        for i, (d, t) in enumerate([("deny", "Bash"), ("allow", "Edit"), ("deny", "Edit")])
    ]
    from hooktui.tap.read.decode import partial_head_decoder

    for expr in ("decision:deny", "tool:edit -decision:allow", "echo", "latency<5"):
        pred = compile_filter(expr)
        light = partial_head_decoder(filter_fields(pred))
        assert [pred(light.decode(x)) for x in lines] == [pred(decode_head(x, 0)) for x in lines], (
            expr
        )
    assert not math.isnan(parse_ts("2026-03-01T10:00:00Z"))


def test_how_deep_a_line_nests_is_counted_the_same_on_every_python():
    # The raw tab indents a line only this deep: msgspec reads ten times deeper on
    # 3.12+, where indenting costs the square of the depth.
    assert not nests_deeper(b"[" * PRETTY_DEPTH + b"]" * PRETTY_DEPTH)
    assert nests_deeper(b'{"a":' + b"[" * PRETTY_DEPTH + b"{}" + b"]" * PRETTY_DEPTH + b"}")
    # Brackets inside strings (escaped quotes too) are text, not nesting.
    assert not nests_deeper(b'["' + b"[" * 2000 + b'\\"' + b"{" * 2000 + b'"]', depth=1)
