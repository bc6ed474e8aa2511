"""Every record ever written still opens: v1 streams as older taps wrote them
(fixtures/records, made by fixtures/old_records.py) in the model, show, watch and
replay, read through the runtime's parser once, at decode."""

from __future__ import annotations

import io
import json
import subprocess
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tap import model
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.lines import load_stream
from hooktui.tap.read.view import StreamLine
from hooktui.tap.runtimes import call_of
from rich.console import Console

from tests.conftest import HOOKTUI
from tests.tap.fixtures import old_records

OLD = sorted((Path(__file__).parent / "fixtures" / "records").glob("v1-*.jsonl"))
CALL_FIELDS = ("prompt", "tool_input", "tool_output", "is_error")


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


def test_there_are_streams_of_every_older_writer() -> None:
    assert [p.stem for p in OLD] == ["v1-1c07189", "v1-69ede97", "v1-ec38651"]
    for path in OLD:
        assert len(_lines(path)) >= len(old_records.CASES)


@pytest.mark.parametrize("path", OLD, ids=lambda p: p.stem)
def test_a_v1_record_decodes_with_the_call_its_runtime_reads(path: Path) -> None:
    for line in _lines(path):
        raw = json.loads(line)
        assert raw["v"] == 1 and "tool_input" not in raw
        record = model.decode_record(line)
        assert record.v == 1  # as written: it says what that tap knew
        call = call_of(record.runtime, raw["request"])
        assert [getattr(record, n) for n in CALL_FIELDS] == [getattr(call, n) for n in CALL_FIELDS]
        assert record.runtime_version == ""
        assert (record.hook.timeout_source, record.hook.fails) == ("", "")


def test_v1_and_v2_records_of_the_same_calls_agree(tmp_path: Path) -> None:
    """The same calls through today's tap: the call a v1 record is read into is the
    call a v2 record stores (the last v1 writer, same redaction and digests)."""
    fresh = tmp_path / "v2.jsonl"
    old_records.record_all(HOOKTUI, fresh)
    old = [model.decode_record(line) for line in _lines(OLD[1])]
    new = [model.decode_record(line) for line in _lines(fresh)]
    assert [r.v for r in new] == [2] * len(new) and len(new) == len(old)
    for before, after in zip(old, new, strict=True):
        assert before.hook.label == after.hook.label
        assert before.call == after.call, after.hook.label


@pytest.mark.parametrize("path", OLD, ids=lambda p: p.stem)
def test_show_prints_every_old_record(path: Path) -> None:
    count = len(_lines(path))
    text = subprocess.run([HOOKTUI, "show", str(path)], capture_output=True, text=True, timeout=60)
    assert text.returncode == 0 and "Traceback" not in text.stderr, text.stderr
    assert "bad line" not in text.stdout + text.stderr
    assert f"{count} calls" in text.stdout + text.stderr
    out = subprocess.run(
        [HOOKTUI, "show", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert len(out.stdout.splitlines()) == count


@pytest.mark.parametrize("path", OLD, ids=lambda p: p.stem)
def test_replay_reads_every_old_record(path: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [HOOKTUI, "replay", str(path), "--format", "json", "--fail-on", "none"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    report = json.loads(proc.stdout)
    assert report["total"] == len(_lines(path)) and report["bad_lines"] == 0
    # The hooks answer as they did: nothing changes, and only what cannot be replayed
    # (digests, no request) is left out.
    assert report["changed"] == 0 and report["skipped"] == 3


def _text(renderable) -> str:
    console = Console(width=160, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("path", OLD, ids=lambda p: p.stem)
def test_watch_shows_every_old_record_in_every_tab(path: Path) -> None:
    from hooktui.tui.present.call_tabs import TABS, load_tabs

    heads, _ = load_stream(str(path))
    assert heads and not any(isinstance(e, BadLine) for _, e in heads)
    for entry in (StreamLine(0, offset, head) for offset, head in heads):
        tabs = load_tabs(str(path), entry, UTC, color=False)
        record = tabs["loaded"].record
        texts = {tab: _text(tabs[tab]) for tab in TABS}
        assert all(texts.values()) and not any("cannot show" in t for t in texts.values())
        if isinstance(record.tool_input, dict) and "command" in record.tool_input:
            assert record.tool_input["command"] in texts["summary"], entry.offset
        if record.decision == "modify":
            assert "updated_input" in texts["diff"]


async def test_watch_opens_old_streams_together() -> None:
    from hooktui.tui.app.watch import WatchApp

    from tests.tui.conftest import wait_until

    app = WatchApp([str(p) for p in OLD], tz=UTC, live=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(
            pilot, lambda: app.main_screen.feed.loaded and app.main_screen.detail.loaded is not None
        )
        assert len(app.main_screen.view) == sum(len(_lines(p)) for p in OLD)
        assert not isinstance(app.main_screen.detail.loaded.record, BadLine)


def test_watch_shows_the_stored_call_not_a_new_reading_of_the_request(tmp_path: Path) -> None:
    """The detail pane reads the record's canonical call: a v2 record needs no parser
    (here its request is text no runtime reads; the call the tap stored is shown)."""
    from hooktui.tui.present.call_tabs import load_tabs

    from tests.records import record

    rec = record(
        id="a",
        ts="2026-03-01T10:00:00Z",
        decision="replace",
        event="post_tool_use",
        request="not JSON",
        request_format="text",
        tool_input={"command": "make stored-input"},
        tool_output="stored output",
        updated_output="new output",
    )
    path = tmp_path / "s.jsonl"
    path.write_bytes(model.encode_record(rec))
    heads, _ = load_stream(str(path))
    [(offset, head)] = heads
    entry = StreamLine(0, offset, head)
    tabs = load_tabs(str(path), entry, UTC, color=False)
    assert "make stored-input" in _text(tabs["summary"])
    assert "-stored output" in _text(tabs["diff"]) and "+new output" in _text(tabs["diff"])
