"""`hooktui try` and `hooktui hooks` against the real guards (tap/guards/), end to end.

Each test lays out a project whose settings configure the guards as a user would,
runs the real `hooktui` command (the tap, the guards and the recorder are real
processes) and reads what it prints.
"""

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


def run(*args: str, cwd: Path, home: Path, input: str | None = None) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "HOME": str(home),
        "HOOKTUI_STREAM": str(home / "stream.jsonl"),
        "COLUMNS": "160",
    }
    env.pop("CLAUDE_CONFIG_DIR", None)
    return subprocess.run(
        [HOOKTUI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600, input=input
    )


@pytest.fixture
def project(tmp_path):
    return lay_out(tmp_path)


def lay_out(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose .claude/settings.json runs three of the real guards, and a HOME."""
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    home.mkdir()
    # 120 s: a guard killed at its timeout on a loaded machine would read as no objection.
    settings = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": guard("deny_force_push.py"), "timeout": 120}
                    ],
                },
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": guard("drop_force.py")}],
                },
                {
                    "matcher": "Edit",
                    "hooks": [{"type": "command", "command": guard("allow_all.py")}],
                },
            ]
        }
    }
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))
    return project, home


def try_json(project, home, *args) -> dict:
    res = run("try", "--runtime", "claude-code", "--format", "json", *args, cwd=project, home=home)
    assert res.returncode in (0, 1), res.stderr
    return json.loads(res.stdout)


def test_plan_lists_the_hooks_that_would_fire_in_order_with_their_timeouts(project) -> None:
    cwd, home = project
    trial = try_json(cwd, home, "--plan", "--tool", "Bash", "--input", '{"command": "ls"}')
    plan = trial["plan"]
    assert [p["order"] for p in plan] == [1, 2]  # the Edit hook does not match Bash
    assert plan[0]["hook"]["command"].endswith("deny_force_push.py")
    assert plan[0]["hook"]["timeout_ms"] == 120_000 and plan[1]["hook"]["timeout_ms"] == 600_000
    assert "tried" not in trial and trial["request"]["tool_input"] == {"command": "ls"}
    assert trial["request"]["hook_event_name"] == "PreToolUse"  # the full request shape
    assert {"session_id", "transcript_path", "tool_use_id", "cwd"} <= set(trial["request"])


def test_a_force_push_is_denied_by_one_guard_over_the_others_rewrite(project) -> None:
    cwd, home = project
    trial = try_json(
        cwd, home, "--tool", "Bash", "--input", '{"command": "git push -f origin main"}'
    )
    tried = {t["order"]: t for t in trial["tried"]}
    assert tried[1]["decision"] == "deny" and "force-push" in tried[1]["reason"]
    assert tried[2]["decision"] == "modify"  # drop_force.py rewrote it
    step = trial["call"]["steps"][0]
    assert step["decision"] == "deny" and trial["call"]["decision"] == "deny"
    assert set(step["conflicts"]) >= {"disagree", "overridden"}
    roles = {h["id"]: h["role"] for h in step["hooks"]}
    assert roles[tried[1]["record_id"]] == "decided"
    assert roles[tried[2]["record_id"]] == "overridden"


def test_a_plain_push_runs_and_expect_gates_the_exit_status(project) -> None:
    cwd, home = project
    args = ("--tool", "Bash", "--input", '{"command": "git push origin main"}')
    ok = run("try", "--runtime", "claude-code", "--expect", "allow", *args, cwd=cwd, home=home)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "Outcome: ✓ allow" in ok.stdout
    wrong = run("try", "--runtime", "claude-code", "--expect", "deny", *args, cwd=cwd, home=home)
    assert wrong.returncode == 1


def test_a_request_file_is_read_as_its_runtime_sends_it(project, tmp_path) -> None:
    cwd, home = project
    request = {
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git push --force"},
        "tool_use_id": "toolu_x",
    }
    path = tmp_path / "req.json"
    path.write_text(json.dumps(request))
    res = run("try", str(path), "--format", "json", cwd=cwd, home=home)  # runtime detected
    assert res.returncode == 0, res.stderr
    trial = json.loads(res.stdout)
    assert trial["runtime"] == "claude-code" and trial["call"]["decision"] == "deny"
    assert trial["request"] == request


def test_try_keeps_its_records_only_in_the_stream_asked_for(project) -> None:
    cwd, home = project
    stream = home / "kept.jsonl"
    run(
        "try",
        "--runtime",
        "claude-code",
        "--tool",
        "Bash",
        "--input",
        '{"command": "ls"}',
        "--stream",
        str(stream),
        cwd=cwd,
        home=home,
    )
    lines = stream.read_text().splitlines()
    assert len(lines) == 2 and not (home / "stream.jsonl").exists()
    assert {json.loads(line)["hook"]["label"] for line in lines} == {"PreToolUse:Bash"}


@pytest.mark.parametrize(
    "bad",
    [
        (["--tool", "Bash", "--input", "[1]"], "a JSON object"),
        (["--tool", "Bash", "--input", "{"], "not JSON"),
        (["--runtime", "claud", "--tool", "Bash"], "did you mean claude-code"),
        ([], "give a REQUEST.json"),
        (["/nope.json"], "cannot read /nope.json"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(project, bad) -> None:
    cwd, home = project
    args, words = bad
    res = run("try", *args, cwd=cwd, home=home)
    assert res.returncode == 2 and words in res.stderr and res.stderr.count("\n") == 1
    assert "Traceback" not in res.stderr


def test_hooks_lists_the_inventory_and_joins_the_stream_of_wrapped_hooks(project) -> None:
    cwd, home = project
    stream = home / "stream.jsonl"
    install = run("install", "claude-code", "--stream", str(stream), cwd=cwd, home=home)
    assert install.returncode == 0, install.stderr
    # Two made-up calls through the real tap (a try records as the runtime would).
    for command in ("git push -f", "ls"):
        run(
            "try",
            "--runtime",
            "claude-code",
            "--tool",
            "Bash",
            "--input",
            json.dumps({"command": command}),
            "--stream",
            str(stream),
            cwd=cwd,
            home=home,
        )
    res = run("hooks", "--format", "json", cwd=cwd, home=home)
    assert res.returncode == 0, res.stderr
    inv = json.loads(res.stdout)
    # Copilot and the Continue CLI run these hooks too
    assert inv["runtimes"] == ["claude-code", "copilot", "continue-cli"]
    claude = [h for h in inv["hooks"] if h["runtime"] == "claude-code"]
    assert all(h["wrapped"] for h in claude)
    by_script = {Path(h["command"].split()[-1]).name: h for h in claude}
    deny = by_script["deny_force_push.py"]["usage"]
    assert deny["calls"] == 2 and deny["denies"] == 1 and deny["p95_ms"] > 0
    assert by_script["allow_all.py"]["usage"]["state"] == "never fired since install"
    text = run("hooks", "--runtime", "claude-code", cwd=cwd, home=home).stdout
    assert "2 calls" in text and "deny 50%" in text and "never fired since install" in text


def test_hooks_check_exits_1_on_a_file_the_runtime_rejects(project) -> None:
    cwd, home = project
    (cwd / ".claude" / "settings.local.json").write_text('{"hooks": ')
    res = run("hooks", "--check", "--runtime", "claude-code", cwd=cwd, home=home)
    assert res.returncode == 1
    assert "rejected" in res.stdout and "Claude Code ignores the file" in res.stdout


def test_a_sequential_runtime_stops_where_it_stops(project) -> None:
    """Copilot runs Claude Code's hooks too, one after another: its deny stops the call
    and the next hook never runs (with drop_force first, its rewrite is passed on)."""
    cwd, home = project
    trial = json.loads(
        run(
            "try",
            "--runtime",
            "copilot",
            "--format",
            "json",
            "--tool",
            "Bash",
            "--input",
            '{"command": "git push -f"}',
            cwd=cwd,
            home=home,
        ).stdout
    )
    assert trial["runs"] == "sequential" and trial["native_event"] == "PreToolUse"
    tried = {t["order"]: t for t in trial["tried"]}
    assert tried[1]["decision"] == "deny"
    assert tried[2]["not_run"] == "not run: the runtime stops before it"
    assert trial["call"]["decision"] == "deny" and trial["call"]["hooks"] == 1
    settings = cwd / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"].reverse()  # drop_force first: its rewrite reaches the guard
    settings.write_text(json.dumps(data))
    trial = json.loads(
        run(
            "try",
            "--runtime",
            "copilot",
            "--format",
            "json",
            "--tool",
            "Bash",
            "--input",
            '{"command": "git push -f origin main"}',
            cwd=cwd,
            home=home,
        ).stdout
    )
    tried = {t["order"]: t for t in trial["tried"]}
    # drop_force rewrites; the guard then gets `git push origin main` and lets it be.
    assert tried[1]["decision"] == "modify" and tried[2]["decision"] == "allow"
    step = trial["call"]["steps"][0]
    assert step["decision"] == "modify" and step["updated_input"] == {
        "command": "git push origin main"
    }


def test_try_runs_clines_hook_files_as_cline_starts_them(tmp_path) -> None:
    """Cline's hooks are files: the guard saved as `.clinerules/hooks/PreToolUse.py`
    (started with python3, its #! line) cancels an `rm -rf`; `hooks` lists it."""
    home, cwd = tmp_path / "home", tmp_path / "project"
    folder = cwd / ".clinerules" / "hooks"
    folder.mkdir(parents=True)
    home.mkdir()
    (folder / "PreToolUse.py").write_bytes((GUARDS / "cancel_rm_rf.py").read_bytes())
    args = ("try", "--runtime", "cline", "--tool", "run_commands", "--format", "json")
    wipe = json.loads(
        run(*args, "--input", '{"commands": ["rm -rf /"]}', cwd=cwd, home=home).stdout
    )
    [tried] = wipe["tried"]
    assert tried["decision"] == "deny" and wipe["call"]["decision"] == "deny"
    fine = json.loads(run(*args, "--input", '{"commands": ["ls"]}', cwd=cwd, home=home).stdout)
    assert fine["call"]["decision"] == "allow"
    listed = run("hooks", "--runtime", "cline", cwd=cwd, home=home).stdout
    assert f"python3 {folder / 'PreToolUse.py'}" in listed
