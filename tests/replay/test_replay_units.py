"""Comparison, skip rules, plans, session loading and the report, on real structs and files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import msgspec
import pytest
from hooktui.replay import compare
from hooktui.replay.policy import (
    DEFAULT_TIMEOUT_S,
    build_plan,
    request_bytes,
    skip_reason,
    watch_paths,
)
from hooktui.replay.report import Report, Result, to_builtins, to_json
from hooktui.replay.session import SessionError, load_session, select
from hooktui.tap.canonical import Verdict
from hooktui.tap.model import HookInfo, Record, Redaction, encode_record

from tests import records

V = Verdict


@pytest.mark.parametrize(
    "before, after, expected",
    [
        (V(decision="allow"), V(decision="allow"), ("unchanged", False, "")),
        (
            V(decision="deny", reason="a"),
            V(decision="deny", reason="b"),
            ("reason_only", False, ""),
        ),
        # Same decision, another effect: the runtime acts on the context, input, effects.
        (V(decision="allow"), V(decision="allow", context="note"), ("effect_changed", True, "")),
        (
            V(decision="allow", answer_effects={"user_message": "a"}),
            V(decision="allow", answer_effects={"user_message": "b"}),
            ("effect_changed", True, ""),
        ),
        (
            V(decision="deny", reason="r"),
            V(decision="deny", reason="r", answer_effects={"interrupt": True}),
            ("effect_changed", True, ""),
        ),
        (
            V(decision="modify", answer_effects={"model_request": {"a": 1, "b": 2}}),
            V(decision="modify", answer_effects={"model_request": {"b": 2, "a": 1}}),
            ("unchanged", False, ""),
        ),
        (V(decision="deny"), V(decision="allow"), ("changed", True, "loosened")),
        (V(decision="ask"), V(decision="modify", updated_input={}), ("changed", True, "loosened")),
        (V(decision="allow"), V(decision="ask"), ("changed", True, "tightened")),
        (V(decision="allow"), V(decision="deny"), ("changed", True, "tightened")),
        (V(decision="deny"), V(decision="ask"), ("changed", True, "")),
        (V(decision="allow"), V(decision="modify", updated_input={"a": 1}), ("changed", True, "")),
        (
            V(decision="modify", updated_input={"a": 1, "b": [1, 2]}),
            V(decision="modify", updated_input={"b": [1, 2], "a": 1}),
            ("unchanged", False, ""),
        ),
        (
            V(decision="modify", updated_input={"b": [1, 2]}),
            V(decision="modify", updated_input={"b": [2, 1]}),
            ("effect_changed", True, ""),
        ),
        (
            V(decision="replace", updated_output={"x": True}),
            V(decision="replace", updated_output={"x": 1}),
            ("effect_changed", True, ""),
        ),
        (
            V(decision="deny"),
            V(decision="failure", failure="timeout", effect="proceeds"),
            ("failed", True, "loosened"),
        ),
        (
            V(decision="allow"),
            V(decision="failure", failure="exit_code", effect="blocks"),
            ("failed", True, "tightened"),
        ),
        (
            V(decision="failure", failure="timeout", effect="proceeds", failure_detail="1 s"),
            V(decision="failure", failure="timeout", effect="proceeds", failure_detail="2 s"),
            ("failed", False, ""),
        ),
        (
            V(decision="failure", failure="timeout", effect="proceeds"),
            V(decision="failure", failure="exit_code", effect="proceeds"),
            ("failed", True, ""),
        ),
        (
            V(decision="failure", failure="exit_code", effect="proceeds"),
            V(decision="allow"),
            ("changed", True, ""),
        ),
    ],
)
def test_classify(before: Verdict, after: Verdict, expected):
    assert compare.classify(before, after) == expected


def test_verdict_key_ignores_failure_detail_only():
    a = V(decision="failure", failure="timeout", effect="proceeds", failure_detail="ran 1001 ms")
    b = V(decision="failure", failure="timeout", effect="proceeds", failure_detail="ran 1003 ms")
    assert compare.verdict_key(a) == compare.verdict_key(b)
    assert compare.verdict_key(V(decision="deny", reason="x")) != compare.verdict_key(
        V(decision="deny", reason="y")
    )


def rec(**kw) -> Record:
    base = dict(
        id="r1",
        ts="2026-12-02T10:00:00Z",
        tool_name="",  # these records never named their tool
        request={"hook_event_name": "PreToolUse", "tool_input": {"command": "ls"}},
        hook=HookInfo(argv=["guard"]),
    )
    return records.record(base, **kw)


def test_skip_rules():
    assert skip_reason(rec(), None) == ""
    assert "no request" in skip_reason(rec(request="", request_format="empty"), "true")
    redacted = rec(
        redactions=[Redaction(pointer="/request/tool_input/command", kind="jwt", digest="ab")]
    )
    assert "redacted (jwt)" in skip_reason(redacted, "true")
    # A redaction in stdout alone does not touch what the policy reads.
    out_only = rec(redactions=[Redaction(pointer="/stdout/data", kind="jwt", digest="ab")])
    assert skip_reason(out_only, "true") == ""
    marker = rec(request={"tool_input": {"command": "echo [REDACTED:github_token:1234abcd]"}})
    assert "marker" in skip_reason(marker, "true")
    digest = "[digest sha256:" + "0" * 64 + " len:3]"
    post = rec(capture="digest", event="post_tool_use", request={"tool_response": digest})
    assert "digest" in skip_reason(post, "true")
    # The same marker text in a full capture is just text the user recorded.
    assert skip_reason(rec(capture="full", request={"tool_response": digest}), "true") == ""
    assert skip_reason(rec(capture="digest"), "true") == ""
    assert "no hook command" in skip_reason(rec(hook=HookInfo()), None)
    assert skip_reason(rec(hook=HookInfo()), "true") == ""


def test_request_bytes_and_plan(tmp_path: Path):
    text = rec(request="not json {", request_format="text")
    assert request_bytes(text) == b"not json {"
    r = rec(
        request={"b": 1, "a": [1, "é"]},
        cwd=str(tmp_path),
        hook=HookInfo(argv=["g", "--x"], env={"CLAUDE_PROJECT_DIR": "/p"}, timeout_ms=2500),
    )
    assert json.loads(request_bytes(r)) == {"b": 1, "a": [1, "é"]}
    assert list(json.loads(request_bytes(r))) == ["b", "a"]  # key order as recorded
    plan = build_plan(r, None, None, base_env={"PATH": "/bin", "CLAUDE_PROJECT_DIR": "/old"})
    assert plan.argv == ["g", "--x"]
    assert plan.cwd == str(tmp_path)
    assert plan.env == {"PATH": "/bin", "CLAUDE_PROJECT_DIR": "/p", "HOOKTUI_REPLAY": "1"}
    assert plan.timeout_s == 2.5
    plan = build_plan(r, "python3 g.py", 7.0, base_env={})
    assert plan.argv == ["sh", "-c", "python3 g.py"]
    assert plan.timeout_s == 7.0
    gone = rec(cwd="/no/such/dir", hook=HookInfo(cwd="/no/such/either"))
    assert build_plan(gone, "true").cwd == os.getcwd()
    assert build_plan(gone, "true").timeout_s == DEFAULT_TIMEOUT_S


def test_watch_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "guard.py").write_text("")
    (tmp_path / "rules.json").write_text("")
    py = os.path.realpath("/usr/bin/env")
    assert watch_paths(f"{py} python3 guard.py --rules rules.json", []) == [
        str(tmp_path / "guard.py")
    ]
    assert watch_paths("sh -c 'python3 ./guard.py'", []) == [str(tmp_path / "guard.py")]
    assert watch_paths("echo hi", []) == []
    records = [rec(hook=HookInfo(argv=["python3", str(tmp_path / "rules.json")]))] * 2
    assert watch_paths(None, records) == [str(tmp_path / "rules.json")]


def test_load_session_counts_bad_lines_and_ignores_a_torn_tail(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    data = b"garbage\n" + encode_record(rec(id="a")) + b"\n" + encode_record(rec(id="b"))
    path.write_bytes(data + b'{"v":1,"id":"c"')
    os.chmod(path, 0o400)  # read-only is enough
    session = load_session(str(path))
    assert [(e.line, e.record.id) for e in session.records] == [(2, "a"), (4, "b")]
    assert (session.bad_lines, session.torn_tail) == (1, True)
    assert [e.record.id for e in select(session, "decision:allow")] == ["a", "b"]
    assert select(session, "decision:deny") == []
    with pytest.raises(SessionError, match="bad --filter"):
        select(session, "(")


def test_load_session_errors(tmp_path: Path):
    with pytest.raises(SessionError, match="no such session file"):
        load_session(str(tmp_path / "nope"))
    (tmp_path / "e").write_bytes(b"\n\n")
    with pytest.raises(SessionError, match="empty"):
        load_session(str(tmp_path / "e"))
    (tmp_path / "j").write_bytes(b'{"id": 3}\n')
    with pytest.raises(SessionError, match="not a hooktui session"):
        load_session(str(tmp_path / "j"))


def result(index: int, cls: str, direction: str = "", differs: bool = False, **kw) -> Result:
    return Result(
        index=index,
        line=index + 1,
        record=rec(id=f"r{index}", summary=f"cmd {index}", tool_name="Bash"),
        cls=cls,
        direction=direction,
        differs=differs,
        **kw,
    )


def test_report_counts_exit_and_json():
    report = Report(
        session="s.jsonl",
        policy="p",
        results=[
            result(0, "unchanged", after=V(decision="allow")),
            result(1, "changed", "tightened", True, after=V(decision="deny", reason="no")),
            result(2, "reason_only", after=V(decision="allow", reason="fine")),
            result(3, "failed", "", False, after=V(decision="failure", failure="timeout")),
            result(4, "skipped", skip_reason="no request was recorded"),
        ],
    )
    counts = report.counts()
    assert counts == {
        "total": 5,
        "unchanged": 1,
        "reason_only": 1,
        "effect_changed": 0,
        "changed": 1,
        "failed": 1,
        "skipped": 1,
        "loosened": 0,
        "tightened": 1,
        "flaky": 0,
        "rules_changed": 0,
    }
    assert report.exit_status("changed") == 1
    assert report.exit_status("loosened") == 0
    assert report.exit_status("none") == 0
    data = json.loads(to_json(report))
    assert data == msgspec.json.decode(msgspec.json.encode(to_builtins(report)))
    assert [c["id"] for c in data["changes"]] == ["r1", "r2", "r3"]
    assert data["changes"][0]["before"] == {"decision": "allow", "reason": ""}
    assert data["changes"][0]["after"] == {"decision": "deny", "reason": "no"}
    assert data["changes"][2]["after"]["failure"] == "timeout"
    assert data["skipped_records"] == [
        {
            "id": "r4",
            "line": 5,
            "runtime": "claude-code",
            "event": "pre_tool_use",
            "tool_name": "Bash",
            "summary": "cmd 4",
            "reason": "no request was recorded",
        }
    ]
    # Only a failure that is the same as recorded: nothing changed.
    quiet = Report(results=[result(0, "failed"), result(1, "reason_only")])
    assert quiet.exit_status("changed") == 0
    assert Report(results=[result(0, "unchanged", flaky=True)]).exit_status() == 1


def test_anchor_policy_pins_existing_relative_paths_only(tmp_path):
    from hooktui.replay.policy import anchor_policy

    (tmp_path / "guard.py").write_text("")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "g.sh").write_text("")
    base = str(tmp_path)
    assert anchor_policy("python3 guard.py", base) == f"python3 {tmp_path}/guard.py"
    assert anchor_policy("sh ./lib/g.sh --strict", base) == f"sh {tmp_path}/lib/g.sh --strict"
    # Left as typed: absolute paths, missing files, options, quoted and shell syntax.
    for command in (
        f"python3 {tmp_path}/guard.py",
        "python3 missing.py",
        "node -e 'x.js' | jq .",
        'python3 "guard.py"',
        "echo $HOME/guard.py",
    ):
        assert anchor_policy(command, base) == command
