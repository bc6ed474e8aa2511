"""`hooktui install continue-cli` and uninstall: Continue CLI's own settings files
(`.continue/settings.json`, `.continue/settings.local.json`, `~/.continue/settings.json`
or `$CONTINUE_GLOBAL_DIR/settings.json`), every byte but the wrapped commands kept,
byte-exact round trips; a wrapped hook answers as before, and is recorded as Continue's
when Continue's environment says it called (its `.claude/settings.json` hooks too)."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import wait_for_records
from tests.tap.test_install import argv_label, argv_timeout, option, parsed, run, write

# Claude's layout; odd spacing, non-ASCII, an http and a prompt hook (not wrapped).
PROJECT = """{
  "description": "team hooks — café",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash|Edit", "hooks": [
        {"type": "command", "command": "./guard.sh 'a b'", "timeout": 5, "statusMessage": "checking"},
        {"type": "http", "url": "http://127.0.0.1:9/hook"}
      ]}
    ],
    "UserPromptSubmit": [{"hooks": [{"type": "prompt", "prompt": "Is it safe?"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "notify done"}]}],
    "SessionEnd": [{"hooks": [{"type": "command", "command": "sync-log", "async": true}]}]
  }
}"""
LOCAL = (
    '{"hooks":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"audit"}]}]}}\n'
)


def test_continue_wraps_both_project_files_and_restores_them_byte_for_byte(tmp_path):
    project = tmp_path / "repo"
    shared = write(project / ".continue" / "settings.json", PROJECT, 0o600)
    local = write(project / ".continue" / "settings.local.json", LOCAL)
    result = run(["install", "continue-cli"], project)
    assert result.returncode == 0, result.stderr
    assert "not wrapped" in result.stdout and "'prompt'" in result.stdout
    assert "async" in result.stdout  # its answer is never read: nothing to record
    assert "does not run them yet" in result.stdout  # the after-install note (1.5.47)
    hooks = json.loads((project / ".continue" / "settings.json").read_text())["hooks"]
    pre = hooks["PreToolUse"][0]["hooks"][0]
    assert parsed(pre["command"]).original == "./guard.sh 'a b'"
    assert option(parsed(pre["command"]), "--runtime") == "continue-cli"
    assert (argv_label(pre["command"]), argv_timeout(pre["command"])) == (
        "PreToolUse:Bash|Edit",
        "5000",
    )
    assert pre["statusMessage"] == "checking"
    assert hooks["PreToolUse"][0]["hooks"][1] == {"type": "http", "url": "http://127.0.0.1:9/hook"}
    stop = hooks["Stop"][0]["hooks"][0]["command"]
    assert argv_timeout(stop) == "600000" and "--timeout-default" in parsed(stop).args
    assert hooks["SessionEnd"][0]["hooks"][0]["command"] == "sync-log"
    post = json.loads((project / ".continue" / "settings.local.json").read_text())
    assert parsed(post["hooks"]["PostToolUse"][0]["hooks"][0]["command"]).original == "audit"
    result = run(["uninstall", "continue-cli"], project)
    assert result.returncode == 0, result.stderr
    assert (project / ".continue" / "settings.json").read_bytes() == shared
    assert (project / ".continue" / "settings.local.json").read_bytes() == local
    assert (project / ".continue" / "settings.json").stat().st_mode & 0o777 == 0o600


def test_continue_user_settings_under_home_or_continue_global_dir(tmp_path):
    home = tmp_path / "home"
    in_home = write(home / ".continue" / "settings.json", LOCAL)
    env = {"HOME": str(home)}
    assert run(["install", "continue-cli", "--user"], tmp_path, env).returncode == 0
    assert (home / ".continue" / "settings.json").read_bytes() != in_home
    assert run(["uninstall", "continue-cli", "--user"], tmp_path, env).returncode == 0
    assert (home / ".continue" / "settings.json").read_bytes() == in_home

    global_dir = tmp_path / "continue-global"
    moved = write(global_dir / "settings.json", LOCAL)
    env["CONTINUE_GLOBAL_DIR"] = str(global_dir)
    result = run(["install", "continue-cli", "--user"], tmp_path, env)
    assert result.returncode == 0 and str(global_dir / "settings.json") in result.stdout
    assert (home / ".continue" / "settings.json").read_bytes() == in_home  # not this one
    assert run(["uninstall", "continue-cli", "--user"], tmp_path, env).returncode == 0
    assert (global_dir / "settings.json").read_bytes() == moved


def test_continue_without_settings_names_where_it_looked(tmp_path):
    result = run(["install", "continue-cli"], tmp_path)
    assert result.returncode == 1
    assert ".continue/settings.json" in result.stderr and "Traceback" not in result.stderr


def _request(cwd: str) -> bytes:
    """What Continue sends a PreToolUse hook (fireHook.ts): Claude's shape, no timestamp."""
    return json.dumps(
        {
            "session_id": "s-1",
            "transcript_path": "",
            "cwd": cwd,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "rm -rf build"},
            "tool_use_id": "toolu_1",
        }
    ).encode()


def test_installed_hook_answers_as_before_and_is_recorded_as_continue(tmp_path):
    """Continue runs `/bin/sh -c <command>` with CONTINUE_PROJECT_DIR set; the hooks of
    .claude/settings.json (installed as claude-code's) are recorded as Continue's too."""
    bare = "echo 'no rm' >&2; exit 2"
    env = {"CONTINUE_PROJECT_DIR": str(tmp_path), "CLAUDE_PROJECT_DIR": str(tmp_path)}
    for runtime, where in (("continue-cli", ".continue"), ("claude-code", ".claude")):
        stream = tmp_path / f"{runtime}.jsonl"
        settings = tmp_path / where / "settings.json"
        handler = {"type": "command", "command": bare}
        write(settings, json.dumps({"hooks": {"PreToolUse": [{"hooks": [handler]}]}}))
        cmd = ["install", runtime, "--settings", str(settings), "--stream", str(stream)]
        assert run(cmd, tmp_path).returncode == 0
        wrapped = json.loads(settings.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]

        def answer(command):
            p = subprocess.run(
                ["/bin/sh", "-c", command],
                input=_request(str(tmp_path)),
                capture_output=True,
                timeout=30,
                env={"PATH": "/usr/bin:/bin", **env},
            )
            return p.stdout, p.stderr, p.returncode

        assert answer(wrapped["command"]) == answer(bare) == (b"", b"no rm\n", 2)
        (record,) = wait_for_records(stream, 1)
        assert (record["runtime"], record["decision"], record["reason"]) == (
            "continue-cli",
            "deny",
            "no rm",
        )
        # Continue's own default, whichever runtime's settings the hook is in.
        assert record["hook"]["timeout_ms"] == 600_000
