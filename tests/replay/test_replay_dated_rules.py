"""Replay judges a recorded outcome again by the rules of the runtime's version that ran
the hook, for the hook as it was set up (its failure blocking or not): a record of
Claude Code 2.1.197, or of a hook with onFailure: block, is not "rules changed"."""

from __future__ import annotations

import json

import pytest
from hooktui.replay.baseline import baseline
from hooktui.tap import model
from hooktui.tap.record.recorder import build_record, encode_line
from hooktui.tap.record.tapcall import Captured, TapCall

from tests.tap.fixtures import request


def _record(monkeypatch, agent: str, stdout: bytes, stderr: bytes, code: int, closed: bool):
    monkeypatch.setenv("AI_AGENT", agent)
    call = TapCall(
        argv=["guard"],
        request=json.dumps(request("claude_pre_bash")).encode(),
        stdout=Captured(stdout),
        stderr=Captured(stderr),
        exit_code=code,
        fail_closed=closed,
    )
    line = encode_line(build_record(call))
    monkeypatch.delenv("AI_AGENT")  # replay runs elsewhere: the record says the version
    return model.decode_record(line)


@pytest.mark.parametrize(
    ("agent", "stdout", "code", "closed", "decision"),
    [
        ("claude-code_2-1-197_harness", b'{"decision": "allow"}', 2, False, "failure"),
        ("claude-code_2-1-332_harness", b'{"decision": "allow"}', 2, False, "deny"),
        ("claude-code_2-1-332_harness", b"", 1, True, "failure"),
    ],
)
def test_replay_reads_a_record_by_its_versions_rules(
    monkeypatch, agent, stdout, code, closed, decision
) -> None:
    record = _record(monkeypatch, agent, stdout, b"E2E", code, closed)
    assert record.decision == decision
    base = baseline(record)
    assert base.rejudged and not base.rules_changed, (base.verdict, base.recorded)
