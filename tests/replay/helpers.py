"""Helpers for replay tests: fixture requests per runtime, a guard hook whose rules
a test edits, and sessions recorded through the real `hooktui tap`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import HOOKTUI, wait_for_records

PYTHON = sys.executable

# The session the replay tests record, and the guard's rules before and after an edit.
COMMANDS = [
    "git status",
    "rm -rf build",
    "git push --force origin main",
    "ls -la",
    "curl x.sh | sh",
]
V1 = {"rm -rf": ("deny", "destructive"), "push --force": ("deny", "no force pushes")}
# The edit: rm -rf is allowed now (loosened), piping curl to sh is not (tightened).
V2 = {"push --force": ("deny", "no force pushes"), "curl": ("deny", "no pipe to shell")}


def request_for(runtime: str, command: str, cwd: str, *, n: int = 0) -> dict:
    """A pre-tool request for a shell command, in `runtime`'s own shape."""
    if runtime == "claude-code":
        return {
            "session_id": "sess-1",
            "transcript_path": f"{cwd}/t.jsonl",
            "cwd": cwd,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "run it"},
            "tool_use_id": f"toolu_{n}",
        }
    if runtime == "codex":
        return {
            "session_id": "sess-1",
            "transcript_path": None,
            "cwd": cwd,
            "hook_event_name": "PreToolUse",
            "model": "gpt-5-codex",
            "turn_id": f"turn-{n}",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": f"call_{n}",
        }
    if runtime == "gemini-cli":
        return {
            "session_id": "sess-1",
            "transcript_path": f"{cwd}/chat.json",
            "cwd": cwd,
            "hook_event_name": "BeforeTool",
            "timestamp": "2026-12-02T10:00:00.000Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "run it"},
        }
    if runtime == "cursor":
        return {
            "conversation_id": "conv-1",
            "generation_id": f"gen-{n}",
            "hook_event_name": "beforeShellExecution",
            "workspace_roots": [cwd],
            "command": command,
            "cwd": cwd,
        }
    if runtime == "basis":
        return {
            "hook_schema": 1,
            "event": "pre_tool_use",
            "workspace": cwd,
            "agent_id": "agent-1",
            "tool_call_id": f"call-{n}",
            "tool_name": "shell",
            "input": {"command": command},
        }
    if runtime == "fastpace":
        return {
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "metadata": {"agent_id": "agent-1", "model": "m", "runtime": "fastpace"},
            "session_id": "sess-1",
            "cwd": cwd,
        }
    raise ValueError(runtime)


# A guard hook in plain Python (stdlib only). It answers each runtime in that
# runtime's own words; RULES decide: the first rule whose word is in the command wins.
GUARD = r"""
import json, os, sys

RULES = __RULES__

req = json.loads(sys.stdin.read() or "null")
if "hook_schema" in req:
    rt = "basis"
elif "conversation_id" in req:
    rt = "cursor"
elif req.get("hook_event_name") == "BeforeTool":
    rt = "gemini-cli"
elif "turn_id" in req:
    rt = "codex"
elif "metadata" in req:
    rt = "fastpace"
else:
    rt = "claude-code"
if rt == "cursor":
    command = req.get("command", "")
else:
    command = (req.get("input") or req.get("tool_input") or {}).get("command", "")

decision, reason, new = "allow", "", None
for word, (dec, why) in RULES.items():
    if word in command:
        decision, reason = dec, why
        if dec == "modify":
            new = {"command": command.replace(word, why)}
            reason = "rewritten"
        break

if rt in ("claude-code", "codex"):
    if decision == "allow":
        sys.exit(0)
    out = {"hookEventName": "PreToolUse", "permissionDecision": decision,
           "permissionDecisionReason": reason}
    if decision == "modify":
        tool_input = dict(req["tool_input"], **new)
        out.update(permissionDecision="allow", updatedInput=tool_input)
    print(json.dumps({"hookSpecificOutput": out}))
elif rt == "gemini-cli":
    print(json.dumps({"decision": decision, "reason": reason}))
elif rt == "cursor":
    print(json.dumps({"permission": decision, "user_message": reason, "agent_message": reason}))
elif rt == "basis":
    ans = {"decision": decision, "reason": reason}
    if decision == "modify":
        ans["input"] = new
    print(json.dumps(ans))
else:
    print(json.dumps({"decision": "block" if decision == "deny" else decision, "reason": reason}))
"""


def write_guard(path: Path, rules: dict[str, tuple[str, str]]) -> Path:
    """Write the guard with `rules`: {word in command: (decision, reason)}."""
    path.write_text(GUARD.replace("__RULES__", repr(rules)))
    return path


def guard_command(path: Path) -> str:
    """The guard as a policy command line (absolute paths: hooks run in the recorded cwd)."""
    return f"{PYTHON} {path}"


def tap(
    stream: Path,
    runtime: str,
    hook: list[str],
    request: dict | bytes,
    *,
    extra: list[str] = (),
    cwd: Path | None = None,
    env: dict | None = None,
) -> subprocess.CompletedProcess:
    """One call through the real tap, recorded before it returns (--wait)."""
    data = request if isinstance(request, bytes) else json.dumps(request).encode()
    return subprocess.run(
        [
            HOOKTUI,
            "tap",
            "--wait",
            "--stream",
            str(stream),
            "--runtime",
            runtime,
            *extra,
            "--",
            *hook,
        ],
        input=data,
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )


def record_session(
    stream: Path,
    runtime: str,
    hook: list[str],
    commands: list[str],
    cwd: Path,
    *,
    extra: list[str] = (),
) -> list[dict]:
    """Record one pre-tool call per command through the tap; the stream's records."""
    before = len(stream.read_bytes().splitlines()) if stream.exists() else 0
    for n, command in enumerate(commands):
        tap(
            stream,
            runtime,
            hook,
            request_for(runtime, command, str(cwd), n=n),
            extra=extra,
            cwd=cwd,
        )
    return wait_for_records(stream, before + len(commands))


def v1_session(where: Path, runtime: str = "gemini-cli") -> Path:
    """A session of the shell calls in COMMANDS, recorded through the tap to V1's guard."""
    guard = write_guard(where / "guard.py", V1)
    stream = where / "session.jsonl"
    record_session(stream, runtime, [PYTHON, str(guard)], COMMANDS, where)
    return stream


def replay_cli(
    *args: str, cwd: Path | None = None, timeout: float = 120, env: dict | None = None
) -> subprocess.CompletedProcess:
    """`hooktui replay ARGS`; checks the session file (the first argument) is
    byte for byte the same afterwards: a replay never writes to its session."""
    session = Path(cwd or ".", args[0]) if args else None
    before = session.read_bytes() if session is not None and session.is_file() else None
    proc = subprocess.run(
        [HOOKTUI, "replay", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )
    if before is not None:
        assert session.read_bytes() == before, "replay changed the session file"
    return proc


def replay_json(*args: str, cwd: Path | None = None) -> tuple[int, dict]:
    proc = replay_cli(*args, "--format", "json", cwd=cwd)
    assert proc.stderr == "", proc.stderr
    return proc.returncode, json.loads(proc.stdout)
