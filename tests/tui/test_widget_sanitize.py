"""Every record text a widget renders goes through the one sanitizer (`tap/read/sanitize.py`).

A stream may come from anyone: a field holding an OSC 52 (the clipboard), a
one-byte C1 CSI or a bidi override must show as inert text in the rows, the
detail tabs (the highlighted JSON too), the replay tabs, the patterns table
and the timeline.
"""

from __future__ import annotations

import io
from datetime import UTC

from hooktui.replay.report import Result
from hooktui.tap.canonical import Outcome, Verdict
from hooktui.tap.model import Blob, HookHead, HookInfo
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.groups import Patterns, Timeline
from hooktui.tap.read.view import StreamLine
from hooktui.tui.app.widgets.patterns import group_cells
from hooktui.tui.present.call_tabs import Loaded, summary_view
from hooktui.tui.present.replay_tabs import build_tabs, result_cells
from hooktui.tui.present.rows import call_row
from hooktui.tui.present.timeline import timeline_text
from rich.console import Console

from tests import records
from tests.tui.conftest import make_record

OSC_CLIP = "\x1b]52;c;cHduZWQ=\x07"
C1_CSI = "\x9b2J"
RLO = "\u202egnp.exe"
HOSTILE = OSC_CLIP + C1_CSI + RLO
TS = "2026-03-01T10:00:00Z"
UNSAFE = set("\x1b\x07\x9b\x9d\u202e\u2066\u2028")


def _shown(renderable) -> str:
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def _assert_inert(text: str) -> None:
    assert not UNSAFE.intersection(text), [c for c in text if c in UNSAFE]


def test_rows_and_their_decision_cells():
    head = records.head(
        id="h", decision=HOSTILE, failure=HOSTILE, tool_name=HOSTILE, summary=HOSTILE
    )
    for color in (True, False):
        _assert_inert(call_row(StreamLine(0, 0, head), 160, UTC, marked=False, color=color).plain)
    failing = records.head(id="f", decision="failure", failure=HOSTILE, effect="proceeds")
    _assert_inert(call_row(StreamLine(0, 0, failing), 160, UTC, marked=False).plain)
    bad = BadLine(offset=0, length=9, error=HOSTILE, preview=HOSTILE)
    _assert_inert(call_row(StreamLine(0, 0, bad), 160, UTC, marked=False).plain)


def test_the_detail_summary_and_its_highlighted_json():
    record = make_record(
        1,
        command=f"rm -rf / {C1_CSI} {RLO}",
        decision="deny",
        reason=HOSTILE,
        hook=HookInfo(label=HOSTILE, argv=["./guard", HOSTILE]),
    )
    loaded = Loaded(StreamLine(0, 0, None), "s.jsonl", record, b"")
    text = _shown(summary_view(loaded, UTC))
    _assert_inert(text)
    assert "\\x9b2J" in text and "\\u202e" in text  # shown, not acted on


def test_the_replay_tabs_and_cells():
    record = make_record(1, tool_name=HOSTILE, decision="deny", reason=HOSTILE, summary=HOSTILE)
    result = Result(
        index=0,
        line=1,
        record=record,
        cls="changed",
        after=Verdict(decision=HOSTILE, reason=HOSTILE, failure=HOSTILE, effect=HOSTILE),
        outcome=Outcome(stdout=HOSTILE.encode(), stderr=b"", spawn_error=HOSTILE),
        runs=[Verdict(decision=HOSTILE)],
        flaky=True,
        skip_reason=HOSTILE,
    )
    for view in build_tabs(result).values():
        _assert_inert(_shown(view))
    for cell in result_cells(result).values():
        _assert_inert(cell.plain if hasattr(cell, "plain") else cell[0])


def test_the_patterns_table_and_the_timeline():
    heads = [
        records.head(id="a", hook=HookHead(label=HOSTILE), decision=HOSTILE, ts=TS),
        records.head(id="b", reason=HOSTILE, decision="deny", ts=TS),
    ]
    for by in ("hook", "decision", "reason"):
        patterns = Patterns(by)
        patterns.add_all(heads)
        for group in patterns.groups.rows():
            _assert_inert(group_cells(group)["name"][0])
    line = Timeline()
    line.add_all(heads)
    for color in (True, False):
        chart = timeline_text(line.minutes(), 80, UTC, color).plain
        assert "deny" in chart  # a chart, not "nothing to chart"
        _assert_inert(chart)


def test_sizes_are_counted_in_words_that_agree():
    record = make_record(1, stdout=Blob(data="x", length=1))
    from hooktui.tui.present.call_tabs import response_view

    loaded = Loaded(StreamLine(0, 0, None), "s.jsonl", record, b"{}")
    assert "1 byte" in _shown(response_view(loaded)) and "1 bytes" not in _shown(
        response_view(loaded)
    )
    from hooktui.tui.present.format import clip

    assert clip("ab", 1).endswith("(1 more character)")


def test_the_detail_summary_shows_what_the_answer_asked_for_and_the_request_told():
    record = make_record(1, decision="allow")
    record.answer_effects = {"user_message": "heads up", "watch_paths": ["a.txt"], HOSTILE: HOSTILE}
    record.details = {"permission_mode": "plan", "effort": {"level": "high"}}
    loaded = Loaded(StreamLine(0, 0, None), "s.jsonl", record, b"")
    text = _shown(summary_view(loaded, UTC))
    _assert_inert(text)
    rows = {" ".join(line.split()[:2]): line for line in text.splitlines()}
    assert rows["user message"].split()[-2:] == ["heads", "up"]
    assert rows["watch paths"].split()[-1] == '["a.txt"]'
    assert 'permission mode plan · effort {"level":"high"}' in rows["request permission"]


def test_the_header_counts_a_rare_decision_once_one_happens():
    from hooktui.tap.read.index import batch_of
    from hooktui.tap.read.view import CallView
    from hooktui.tui.present.header import HeaderState, header_text

    view = CallView(["s.jsonl"])
    view.add(batch_of(0, [(0, records.head(id="a", decision="allow"))]))
    assert "defer" not in header_text(view, HeaderState(), width=160).plain
    view.add(batch_of(0, [(1, records.head(id="d", decision="defer"))]))
    assert "defer 1" in header_text(view, HeaderState(), width=160).plain
    assert "defer 1" in header_text(view, HeaderState(), width=80, color=False).plain
