"""Replay one level up: when an edited guard changes a tool call's outcome (all its hooks
together, by the runtime's rule), not only its own answer; and a folder of made-up
cases replayed as a session, so --fail-on gates CI on them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI

GUARDS = Path(__file__).resolve().parents[2] / "tap" / "guards"


def guard(name: str) -> str:
    return f"{sys.executable} {GUARDS / name}"


def hooktui(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "160"},
    )


def claude_request(command: str, call_id: str) -> bytes:
    return json.dumps(
        {
            "session_id": "s-replay-calls",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": "/tmp",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": call_id,
        }
    ).encode()


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> tuple[Path, Path]:
    """Two guards on each of two calls, through the real tap, as Claude Code runs them."""
    where = tmp_path_factory.mktemp("calls")
    stream = where / "session.jsonl"
    for i, command in enumerate(("git push -f origin main", "git push origin main")):
        request = claude_request(command, f"toolu_{i}")
        for label, script in (
            ("deny_force_push", "deny_force_push.py"),
            ("drop_force", "drop_force.py"),
        ):
            res = hooktui(
                "tap",
                "--runtime",
                "claude-code",
                "--label",
                label,
                "--stream",
                str(stream),
                "--wait",
                "--",
                "sh",
                "-c",
                guard(script),
                cwd=where,
                stdin=request,
            )
            assert res.returncode == 0, res.stderr
    return where, stream


def replay_json(where, *args) -> tuple[int, dict]:
    res = hooktui("replay", *args, "--format", "json", cwd=where)
    assert res.returncode in (0, 1), res.stderr
    return res.returncode, json.loads(res.stdout)


def test_an_edited_guard_that_changes_the_calls_outcome_is_reported(session) -> None:
    where, stream = session
    code, report = replay_json(
        where,
        str(stream),
        "--policy",
        "true",
        "--hook",
        "deny_force_push",
        "--fail-on",
        "outcome",
    )
    assert code == 1
    (call,) = report["calls"]
    assert call["summary"] == "git push -f origin main"
    assert call["before"] == "deny" and call["before_by"] == "deny_force_push"
    assert call["after"] == "modify" and call["after_by"] == "drop_force"  # its rewrite now runs
    assert call["changed"] and call["hook_changed"] and "masked" not in call


def test_a_changed_answer_another_hook_overrules_is_masked(session) -> None:
    where, stream = session
    code, report = replay_json(
        where,
        str(stream),
        "--policy",
        "true",
        "--hook",
        "drop_force",
        "--fail-on",
        "outcome",
    )
    assert code == 0  # no call's outcome changed
    masked = [c for c in report["calls"] if c.get("masked")]
    assert [c["summary"] for c in masked] == ["git push -f origin main"]
    assert masked[0]["before"] == masked[0]["after"] == "deny"
    text = hooktui(
        "replay",
        str(stream),
        "--policy",
        "true",
        "--hook",
        "drop_force",
        "--format",
        "text",
        cwd=where,
    ).stdout.decode()
    assert "unchanged: deny_force_push decides it whatever this hook answers" in text


def write_cases(folder: Path, cases: dict[str, dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, case in cases.items():
        (folder / f"{name}.json").write_text(json.dumps(case))
    return folder


CASES = {
    "force": {
        "runtime": "claude-code",
        "tool": "Bash",
        "input": {"command": "git push -f"},
        "expect": "deny",
    },
    "plain": {
        "runtime": "claude-code",
        "tool": "Bash",
        "input": {"command": "git push"},
        "expect": "allow",
    },
    "lease": {
        "request": json.loads(claude_request("git push --force-with-lease", "toolu_l")),
        "expect": "deny",
    },
}


def test_a_folder_of_cases_is_a_session_that_gates_ci(tmp_path) -> None:
    suite = write_cases(tmp_path / "cases", CASES)
    code, report = replay_json(
        tmp_path, str(suite), "--policy", guard("deny_force_push.py"), "--fail-on", "decision"
    )
    assert code == 0, report["changes"]
    assert report["total"] == 3
    # The guard loosened: force pushes pass. The suite catches it.
    allow_all = replay_json(tmp_path, str(suite), "--policy", "true", "--fail-on", "decision")
    assert allow_all[0] == 1
    assert sorted(c["summary"] for c in allow_all[1]["changes"] if c["class"] == "changed") == [
        "force",
        "lease",
    ]


def test_a_case_may_name_its_own_hook(tmp_path) -> None:
    case = {**CASES["force"], "hook": guard("deny_force_push.py")}
    suite = write_cases(tmp_path / "cases", {"force": case})
    code, report = replay_json(tmp_path, str(suite), "--fail-on", "decision")
    assert code == 0 and report["total"] == 1 and report["unchanged"] + report["reason_only"] == 1


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ({"runtime": "claude-code", "tool": "Bash", "input": {}}, "`expect` must be one of"),
        ({"tool": "Bash", "input": {}, "expect": "deny"}, "name the runtime"),
        (
            {"runtime": "claude-code", "tool": "Bash", "expect": "deny", "bogus": 1},
            "unknown key 'bogus'",
        ),
        (
            {"runtime": "claude-code", "tool": "Bash", "input": [1], "expect": "deny"},
            "`tool` and `input`",
        ),
        ("not json", "not a JSON case"),
    ],
)
def test_a_bad_case_is_one_line_naming_its_file(tmp_path, case, words) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "bad.json").write_text(case if isinstance(case, str) else json.dumps(case))
    res = hooktui("replay", str(folder), "--policy", "true", "--format", "text", cwd=tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 2 and "bad.json" in err and words in err and "Traceback" not in err


def test_an_empty_folder_is_not_a_session(tmp_path) -> None:
    res = hooktui("replay", str(tmp_path), "--policy", "true", "--format", "text", cwd=tmp_path)
    assert res.returncode == 2 and "no *.json case files" in res.stderr.decode()
