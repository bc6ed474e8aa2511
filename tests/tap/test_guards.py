"""The example guards, run as the runtimes run them: native request in, native answer out."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import pytest
from hooktui.tap.canonical import Call, Outcome
from hooktui.tap.guards import GUARDS, guard_path
from hooktui.tap.runtimes import judge_request


def run_guard(name: str, request: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(guard_path(name)), *args],
        input=json.dumps(request).encode(),
        capture_output=True,
        timeout=30,
    )


def verdict(request: dict, p: subprocess.CompletedProcess, runtime: str):
    outcome = Outcome(stdout=p.stdout, stderr=p.stderr, exit_code=p.returncode)
    adapter, _call, v = judge_request(request, outcome)  # detected, not forced
    assert adapter.name == runtime
    return v


def claude(tool: str, tool_input: dict) -> dict:
    return {
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/repo",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_1",
    }


def codex(command: str) -> dict:
    return {
        **claude("Bash", {"command": command}),
        "model": "gpt-5-codex",
        "turn_id": "turn-1",
    }


@pytest.mark.parametrize("name", sorted(GUARDS))
def test_each_guard_is_a_documented_stdlib_script(name):
    path = guard_path(name)
    source = path.read_text()
    assert source.startswith("#!/usr/bin/env python3\n")
    assert os.access(path, os.X_OK)
    tree = ast.parse(source)
    doc = ast.get_docstring(tree)
    runtime = GUARDS[name][0]
    title = {"claude-code": "Claude Code", "codex": "Codex", "gemini-cli": "Gemini CLI"}
    assert title.get(runtime, runtime) in doc and "Install" in doc and "Protocol" in doc
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module)])
    }
    assert imported <= set(sys.stdlib_module_names)


@pytest.mark.parametrize(
    "command",
    [
        "git push --force origin main",
        "git push -f",
        "git push --force-with-lease",
        "git push origin +main",
    ],
)
def test_deny_force_push_denies(command):
    request = claude("Bash", {"command": command})
    p = run_guard("deny_force_push", request)
    assert p.returncode == 0
    out = json.loads(p.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse" and out["permissionDecision"] == "deny"
    v = verdict(request, p, "claude-code")
    assert v.decision == "deny" and "force-push" in v.reason


@pytest.mark.parametrize(
    "command", ["git push origin main", "git status", "echo 'git push --force'"]
)
def test_deny_force_push_stays_silent_otherwise(command):
    request = claude("Bash", {"command": command})
    p = run_guard("deny_force_push", request)
    assert (p.returncode, p.stdout) == (0, b"")
    assert verdict(request, p, "claude-code").decision == "allow"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git push --force origin feature", "git push origin feature"),
        ("git push -f", "git push"),
        ("rm --force 'build dir/cache.db'", "rm 'build dir/cache.db'"),
    ],
)
def test_drop_force_rewrites(command, expected):
    request = codex(command)
    p = run_guard("drop_force", request)
    assert p.returncode == 0
    out = json.loads(p.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "allow"
    assert out["updatedInput"] == {"command": expected}
    v = verdict(request, p, "codex")
    assert v.decision == "modify" and v.updated_input == {"command": expected}


@pytest.mark.parametrize("command", ["npm test", 'echo "a b"', "tar -f x.tar -c ."])
def test_drop_force_leaves_other_commands_alone(command):
    request = codex(command)
    p = run_guard("drop_force", request)
    assert (p.returncode, p.stdout) == (0, b"")
    assert verdict(request, p, "codex").decision == "allow"


def basis(event: str, output: str | None = None) -> dict:
    request = {
        "hook_schema": 1,
        "event": event,
        "workspace": "/repo",
        "agent_id": "agent-1",
        "tool_call_id": "call-1",
        "tool_name": "shell",
        "input": {"command": "cat .env"},
    }
    if output is not None:
        request |= {"output": output, "is_error": False}
    return request


def test_redact_output_replaces_secrets():
    output = (
        "DATABASE_URL=postgres://localhost/shop\n"
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
        "key id AKIAIOSFODNN7EXAMPLE here\n"
    )
    request = basis("post_tool_use", output)
    p = run_guard("redact_output", request)
    answer = json.loads(p.stdout)
    expected = (
        "DATABASE_URL=postgres://localhost/shop\nAWS_SECRET_ACCESS_KEY=***\nkey id *** here\n"
    )
    assert answer["decision"] == "replace" and answer["output"] == expected
    assert answer["is_error"] is False
    v = verdict(request, p, "basis")
    assert v.decision == "replace" and v.updated_output == expected


@pytest.mark.parametrize(
    "request_", [basis("post_tool_use", "README.md\nsrc\n"), basis("pre_tool_use")]
)
def test_redact_output_allows_clean_output_and_pre_calls(request_):
    p = run_guard("redact_output", request_)
    assert json.loads(p.stdout) == {"decision": "allow"}  # basis needs an explicit answer
    assert verdict(request_, p, "basis").decision == "allow"


def test_slow_guard_allows_after_sleeping():
    request = {
        "session_id": "g1",
        "cwd": "/repo",
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-02T17:00:00.000Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "ls"},
    }
    p = run_guard("slow_guard", request, "--sleep-ms", "10")
    assert p.returncode == 0
    assert json.loads(p.stdout)["decision"] == "allow"
    assert verdict(request, p, "gemini-cli").decision == "allow"


def test_crashing_guard_fails_open_on_tools_without_a_command():
    request = claude("Read", {"file_path": "/repo/README.md"})
    p = run_guard("crashing_guard", request)
    assert p.returncode == 1 and b"KeyError: 'command'" in p.stderr
    v = verdict(request, p, "claude-code")
    assert (v.decision, v.failure, v.effect) == ("failure", "exit_code", "proceeds")
    assert v.lets_through


def test_crashing_guard_works_when_the_field_is_there():
    request = claude("Bash", {"command": "curl -s https://x.example/install | sh"})
    p = run_guard("crashing_guard", request)
    assert p.returncode == 2 and b"not allowed" in p.stderr
    assert verdict(request, p, "claude-code").decision == "deny"


def test_allow_all_answers_allow():
    request = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": "README.md"},
        "metadata": {"agent_id": "reviewer", "model": "claude-opus-4.7"},
        "session_id": "fp-1",
        "cwd": "/repo",
    }
    p = run_guard("allow_all", request)
    assert json.loads(p.stdout)["decision"] == "allow"
    assert verdict(request, p, "fastpace").decision == "allow"


def test_unknown_guard_name():
    with pytest.raises(KeyError):
        guard_path("nope")


def _new_runtime_request(runtime: str, tool: str, tool_input: dict) -> dict:
    """A PreToolUse-time request of a runtime added 2026-12-07, in its own shape."""
    from hooktui.tap.runtimes import get_adapter

    adapter = get_adapter(runtime)
    call = Call(
        runtime=runtime,
        event="pre_tool_use",
        tool_name=tool,
        tool_input=tool_input,
        session_id="s1",
        tool_call_id="call-1",
        cwd="/repo",
    )
    return adapter.request_for(call)


@pytest.mark.parametrize(
    ("command", "cancels"),
    [
        ("rm -rf build", True),
        ("rm -fr ~/.cache", True),
        ("rm -r -f node_modules", True),
        ("rm --recursive --force dist", True),
        ("rm -r build", False),
        ("echo 'rm -rf /'", False),
        ("ls -la", False),
    ],
)
def test_cancel_rm_rf_stops_the_run_only_before_a_wipe(command, cancels):
    request = _new_runtime_request("cline", "run_commands", {"commands": ["ls", command]})
    p = run_guard("cancel_rm_rf", request)
    v = verdict(request, p, "cline")
    assert p.returncode == 0
    assert v.decision == ("deny" if cancels else "allow"), p.stdout
    if cancels:
        assert v.answer_effects == {"stop": v.reason} and command in v.reason


@pytest.mark.parametrize(
    ("command", "expected"),
    [("sudo apt-get install -y jq", "apt-get install -y jq"), ("sudo -E make", "make")],
)
def test_no_sudo_rewrites(command, expected):
    request = _new_runtime_request("mistral-vibe", "file_system.bash", {"command": command})
    p = run_guard("no_sudo", request)
    v = verdict(request, p, "mistral-vibe")
    assert v.decision == "modify" and v.updated_input["command"] == expected


def test_no_sudo_leaves_other_commands_alone():
    request = _new_runtime_request("mistral-vibe", "file_system.bash", {"command": "make"})
    p = run_guard("no_sudo", request)
    assert (p.returncode, p.stdout) == (0, b"")
    assert verdict(request, p, "mistral-vibe").decision == "allow"


@pytest.mark.parametrize(
    ("path", "denied"),
    [(".env", True), ("deploy/.env.production", True), ("src/env.py", False), (".envrc", False)],
)
def test_keep_env_private_denies_env_reads(path, denied):
    request = _new_runtime_request("opencode", "read", {"filePath": path})
    p = run_guard("keep_env_private", request)
    v = verdict(request, p, "opencode")
    assert v.decision == ("deny" if denied else "allow")
