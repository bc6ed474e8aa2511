"""Replay reports an edited guard that keeps its decision but changes what the runtime
acts on (the new input, the added context, a message, a rewritten model request) as
"effect changed", with the before/after of each changed effect: in JSON, in the text
report and on the Textual screen. Sessions are recorded through the real tap."""

from __future__ import annotations

import json
from pathlib import Path

from hooktui.replay.run import Options
from hooktui.replay.session import load_session
from hooktui.tui.app.replay import ReplayApp
from textual.widgets import Static

from tests.replay.helpers import PYTHON, record_session, replay_cli, replay_json, request_for, tap
from tests.tui.test_replay_screen import detail_text, finished, rows


def _hook(path: Path, answer: dict) -> Path:
    path.write_text(f"import sys\nsys.stdin.read()\nprint({json.dumps(answer)!r})\n")
    return path


ALLOW_A = {
    "systemMessage": "checked by guard v1",
    "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"},
}
ALLOW_B = {
    "systemMessage": "checked by guard v2",
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "additionalContext": "the repo is frozen until Friday",
    },
}


def _claude_session(tmp_path: Path) -> tuple[Path, Path]:
    workdir = tmp_path / "work"
    workdir.mkdir()
    stream = tmp_path / "session.jsonl"
    hook = _hook(tmp_path / "v1.py", ALLOW_A)
    records = record_session(stream, "claude-code", [PYTHON, str(hook)], ["git status"], workdir)
    assert records[0]["decision"] == "allow"
    assert records[0]["answer_effects"] == {"user_message": "checked by guard v1"}
    return stream, _hook(tmp_path / "v2.py", ALLOW_B)


def test_same_decision_new_message_and_context_is_effect_changed(tmp_path: Path):
    stream, edited = _claude_session(tmp_path)
    code, report = replay_json(str(stream), "--policy", f"{PYTHON} {edited}")
    assert code == 1  # what the runtime does changed: like a changed decision
    (change,) = report["changes"]
    assert (change["class"], change["direction"]) == ("effect_changed", "")
    assert change["effects"] == ["context", "user_message"]
    assert change["before"]["answer_effects"] == {"user_message": "checked by guard v1"}
    assert change["after"]["answer_effects"] == {"user_message": "checked by guard v2"}
    assert change["after"]["context"] == "the repo is frozen until Friday"
    assert (report["effect_changed"], report["changed"], report["unchanged"]) == (1, 0, 0)

    # Only decisions (or letting more through) fail these: the decision stayed allow.
    for fail_on in ("decision", "loosened"):
        proc = replay_cli(str(stream), "--policy", f"{PYTHON} {edited}", "--fail-on", fail_on)
        assert proc.returncode == 0, (fail_on, proc.stdout, proc.stderr)


def test_text_report_shows_each_changed_effect_before_and_after(tmp_path: Path):
    stream, edited = _claude_session(tmp_path)
    proc = replay_cli(str(stream), "--policy", f"{PYTHON} {edited}", "--format", "text")
    assert proc.returncode == 1
    out = proc.stdout
    assert "effect changed 1" in out and "  changed 0" in out
    assert "effect changed: context, user_message  Bash  git status" in out
    lines = [line.strip() for line in out.splitlines()]
    at = lines.index("effect  user_message")
    assert lines[at + 1 : at + 3] == ["before  checked by guard v1", "after   checked by guard v2"]
    at = lines.index("effect  context")
    assert lines[at + 1 : at + 3] == ["before  (none)", "after   the repo is frozen until Friday"]


def test_gemini_model_request_rewrite_that_changes_is_effect_changed(tmp_path: Path):
    """BeforeModel: both answers rewrite the model request (modify), to different ones."""
    workdir = tmp_path / "work"
    workdir.mkdir()
    stream = tmp_path / "session.jsonl"

    def rewrite(temperature: float) -> dict:
        request = {"model": "m", "config": {"temperature": temperature}}
        return {"hookSpecificOutput": {"hookEventName": "BeforeModel", "llm_request": request}}

    hook = _hook(tmp_path / "v1.py", rewrite(0.2))
    request = request_for("gemini-cli", "ls", str(workdir))
    request.update(hook_event_name="BeforeModel", llm_request={"model": "m", "contents": []})
    for key in ("tool_name", "tool_input"):
        request.pop(key)
    proc = tap(stream, "gemini-cli", [PYTHON, str(hook)], request, cwd=workdir)
    assert proc.returncode == 0, proc.stderr
    edited = _hook(tmp_path / "v2.py", rewrite(0.9))
    code, report = replay_json(str(stream), "--policy", f"{PYTHON} {edited}")
    assert code == 1
    (change,) = report["changes"]
    assert (change["class"], change["effects"]) == ("effect_changed", ["model_request"])
    assert change["after"]["answer_effects"]["model_request"]["config"] == {"temperature": 0.9}


async def test_screen_counts_and_shows_the_changed_effect(tmp_path: Path):
    stream, edited = _claude_session(tmp_path)
    s = load_session(str(stream))
    app = ReplayApp(s.records, Options(policy=f"{PYTHON} {edited}", jobs=1), session="s")
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await finished(pilot)
        (row,) = rows(screen)
        assert (row["before"], row["after"], row["result"]) == ("allow", "allow", "≈ effect")
        header = str(screen.query_one("#replay-header", Static).render())
        assert "effect changed 1" in header and "  changed 0" in header
        await pilot.press("o")  # changes only keeps it
        assert len(rows(screen)) == 1
        await pilot.press("enter")
        summary = await detail_text(pilot, screen, "summary")
        assert "effect changed (same decision)" in summary
        assert "before  checked by guard v1" in summary
        assert "after   checked by guard v2" in summary
        assert "after   the repo is frozen until Friday" in summary


def test_one_record_by_id_shows_the_changed_effects(tmp_path: Path):
    stream, edited = _claude_session(tmp_path)
    rid = json.loads(stream.read_text().splitlines()[0])["id"]
    args = (str(stream), "--id", rid, "--policy", f"{PYTHON} {edited}")
    proc = replay_cli(*args, "--format", "text")
    assert proc.returncode == 1
    assert "result  effect changed: context, user_message" in proc.stdout
    assert "after   checked by guard v2" in proc.stdout
    proc = replay_cli(*args, "--format", "json")
    assert json.loads(proc.stdout)["record"]["effects"] == ["context", "user_message"]
