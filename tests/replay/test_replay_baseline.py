"""Replay's baseline is today's reading of the recording (issue 9, item 4).

A record keeps the verdict the hooktui of its day read from the hook's answer. The
sessions here are recorded through the real tap, then given the verdict an older
reading would have written; the replays run the same real guard.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hooktui.replay.baseline import baseline
from hooktui.tap.model import decode_record

from tests.replay.helpers import (
    COMMANDS,
    PYTHON,
    V1,
    guard_command,
    record_session,
    replay_cli,
    replay_json,
    write_guard,
)


def _older_reading(records: list[dict], index: int) -> list[dict]:
    """As if the hooktui that recorded `records[index]` read its deny as an allow."""
    old = dict(copy.deepcopy(records[index]), decision="allow", reason="")
    return [old if i == index else r for i, r in enumerate(records)]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_rules_change_is_not_a_policy_change(tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "recorded.jsonl"
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, tmp_path)
    assert records[1]["decision"] == "deny"
    session = _write(tmp_path / "old.jsonl", _older_reading(records, 1))

    # The same guard: nothing changed, exit 0, and the reading is said apart.
    code, report = replay_json(str(session), "--policy", guard_command(guard))
    assert code == 0
    assert (report["unchanged"], report["changed"], report["rules_changed"]) == (5, 0, 1)
    (item,) = report["rules_changed_records"]
    assert item["id"] == records[1]["id"]
    assert item["recorded"] == {"decision": "allow", "reason": ""}
    assert item["today"] == {"decision": "deny", "reason": "destructive"}
    text = replay_cli(str(session), "--policy", guard_command(guard), "--format", "text").stdout
    assert "rules changed since recording 1" in text
    assert "recorded allow" in text and 'today   deny  "destructive"' in text

    # An edit that does change it is compared with today's reading, and says both.
    edited = write_guard(tmp_path / "guard2.py", {"push --force": ("deny", "no force pushes")})
    code, report = replay_json(str(session), "--policy", guard_command(edited))
    (change,) = report["changes"]
    assert (change["class"], change["direction"], change["rules_changed"]) == (
        "changed",
        "loosened",
        True,
    )
    assert change["before"]["decision"] == "deny" and change["recorded"]["decision"] == "allow"


def test_an_answer_not_kept_whole_keeps_the_recorded_verdict(tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "recorded.jsonl"
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[1:2], tmp_path)
    cut = _older_reading(records, 0)[0]
    cut["stdout"]["truncated"] = True
    got = baseline(decode_record(json.dumps(cut)))
    assert (got.rejudged, got.rules_changed, got.verdict.decision) == (False, False, "allow")
    assert "cut" in got.why_not
    whole = baseline(decode_record(json.dumps(_older_reading(records, 0)[0])))
    assert (whole.rejudged, whole.rules_changed, whole.verdict.decision) == (True, True, "deny")
