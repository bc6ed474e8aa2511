"""One vocabulary of answer effects (canonical.ACTIONS) for every runtime, in docs/records.md
as generated, and records already on disk (written by the tap of c404a7e, which kept
Gemini CLI's effects under the answer's own keys) read by today's names."""

from __future__ import annotations

import json
import re
import subprocess
from datetime import UTC
from pathlib import Path

from hooktui.tap import model
from hooktui.tap.canonical import ACTIONS
from hooktui.tap.read import effects
from hooktui.tap.read.lines import load_stream
from hooktui.tap.read.view import StreamLine

from tests.conftest import HOOKTUI

ROOT = Path(__file__).resolve().parents[2]
WRITTEN = Path(__file__).parent / "fixtures" / "records" / "v2-effects-c404a7e.jsonl"
MODEL_REQUEST = {"model": "gemini-2.5-flash", "contents": [{"role": "user", "parts": ["NEW"]}]}


def _records() -> list[model.Record]:
    return [model.decode_record(line) for line in WRITTEN.read_bytes().splitlines()]


def test_the_fixture_holds_the_old_names() -> None:
    raw = [json.loads(line) for line in WRITTEN.read_bytes().splitlines()]
    assert raw[0]["v"] == 2 and "llm_request" in raw[0]["answer_effects"]
    assert "clearContext" in raw[3]["answer_effects"]


def test_old_gemini_names_read_as_canonical_ones() -> None:
    first, synthetic, tail, again, claude = _records()
    assert first.answer_effects == {
        "model_request": MODEL_REQUEST,
        "user_message": "prompt rewritten",
    }
    assert list(synthetic.answer_effects) == ["model_response"]
    assert tail.answer_effects == {"follow_up_call": {"name": "read_file", "args": {"path": "log"}}}
    assert again.answer_effects == {"clear_context": True}
    assert claude.answer_effects == {"user_message": "checked", "hide_output": True}
    for record in (first, synthetic, tail, again, claude):
        assert set(record.answer_effects) <= set(ACTIONS), record.answer_effects
        assert set(record.verdict.answer_effects) == set(record.answer_effects)


def test_replaying_old_records_finds_the_rules_unchanged(tmp_path: Path) -> None:
    """Today's reading of the recorded answers names the same effects as the record:
    nothing reads as "rules changed" only because a name moved."""
    proc = subprocess.run(
        [HOOKTUI, "replay", str(WRITTEN), "--format", "json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert (report["unchanged"], report["rules_changed"], report["effect_changed"]) == (5, 0, 0)


def test_watch_detail_shows_old_records_effects_by_name() -> None:
    from hooktui.tui.present.call_tabs import load_tabs
    from rich.console import Console

    heads, _ = load_stream(str(WRITTEN))
    entry = StreamLine(0, *heads[0])
    tabs = load_tabs(str(WRITTEN), entry, UTC, color=False)
    console = Console(width=160, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(tabs["summary"])
    text = console.export_text()
    assert "model request" in text and "prompt rewritten" in text
    assert "llm request" not in text  # the old name, as a row would show it


def test_docs_list_the_effects_as_generated() -> None:
    doc = (ROOT / "docs" / "records.md").read_text()
    m = re.search(r"<!-- answer-effects:[^\n]*-->\n(.*?)\n<!-- /answer-effects -->", doc, re.S)
    assert m, "docs/records.md lost its answer-effects markers"
    assert m.group(1) == effects.readme_block()
