"""What one benchmark record looks like: bodies per runtime, with sentinels for what varies.

Modelled on real records (`hooktui demo --no-ui` through the real tap): the same
fields in the same order as `hooktui.tap.model.Record`, each runtime's native
request and answer, the hook that ran. `streams.py` fills in the sentinels
(@@ID@@, @@TS@@, "@@DUR@@", @@SID@@, @@TCID@@, @@N@@) per record.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from stream_parts import MODULES, PROJECTS, command, outcome, output, record

# Share of sessions per runtime.
RUNTIME_WEIGHTS = {
    "claude-code": 40,
    "codex": 20,
    "gemini-cli": 12,
    "cursor": 10,
    "basis": 9,
    "fastpace": 9,
}


def claude_like(runtime: str, rng: random.Random) -> dict[str, Any]:
    """Claude Code and Codex share the PreToolUse/PostToolUse request shape."""
    cwd = rng.choice(PROJECTS)
    post = rng.random() < 0.35
    native = "PostToolUse" if post else "PreToolUse"
    roll = rng.random()
    if runtime == "claude-code" and roll < 0.25:
        tool, path = (
            rng.choice(["Read", "Edit", "Write"]),
            f"{cwd}/src/{rng.choice(MODULES)}/service.py",
        )
        tool_input: dict[str, Any] = {"file_path": path}
        if tool == "Edit":
            tool_input |= {"old_string": "return None", "new_string": "raise LookupError(key)"}
        summary = path
    else:
        tool, cmd = "Bash", command(rng)
        tool_input, summary = {"command": cmd, "description": "run it"}, cmd
    request: dict[str, Any] = {"session_id": "@@SID@@"}
    if runtime == "codex":
        request |= {
            "transcript_path": None,
            "cwd": cwd,
            "hook_event_name": native,
            "model": "gpt-5-codex",
        }
        request |= {"turn_id": "turn-@@TCID@@", "tool_name": tool, "tool_input": tool_input}
        request["tool_use_id"], tcid = "call_@@TCID@@", "call_@@TCID@@"
        hook = {"label": f"{native}:Bash", "argv": ["python3", "/home/dev/.codex/hooks/guard.py"]}
        hook |= {"cwd": cwd, "env": {}, "timeout_ms": 10000}
    else:
        transcript = "/home/dev/.claude/projects/shop/@@SID@@.jsonl"
        request |= {"transcript_path": transcript, "cwd": cwd, "permission_mode": "default"}
        request |= {"hook_event_name": native, "tool_name": tool, "tool_input": tool_input}
        request["tool_use_id"], tcid = "toolu_01@@TCID@@", "toolu_01@@TCID@@"
        hook = {
            "label": f"{native}:{tool}",
            "argv": ["python3", "/home/dev/.claude/hooks/guard.py"],
        }
        hook |= {"cwd": cwd, "env": {"CLAUDE_PROJECT_DIR": cwd}, "timeout_ms": 60000}
    if post:
        out = output(rng, summary)
        request["tool_response"] = {
            "stdout": out,
            "stderr": "",
            "interrupted": False,
            "isImage": False,
        }
    allow = json.dumps(
        {"hookSpecificOutput": {"hookEventName": native, "permissionDecision": "allow"}}
    )
    allow = "" if post else allow  # PostToolUse hooks that let things be print nothing
    deny = (
        '{"decision": "block", "reason": "@@WHY@@"}'
        if post
        else (
            '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
            '"permissionDecisionReason": "@@WHY@@"}}'
        )
    )
    fields = outcome(rng, allow, deny, hook["timeout_ms"])
    if runtime == "codex" and not post and fields["decision"] == "allow" and rng.random() < 0.15:
        fields = {
            "decision": "modify",
            "stdout": allow,
            "updated_input": {"command": "git push origin main"},
        }
    event = "post_tool_use" if post else "pre_tool_use"
    return record(
        runtime=runtime,
        event=event,
        native=native,
        tool=tool,
        summary=summary,
        cwd=cwd,
        request=request,
        hook=hook,
        tcid=tcid,
        **fields,
    )


def gemini(rng: random.Random) -> dict[str, Any]:
    cwd = rng.choice(PROJECTS)
    post = rng.random() < 0.35
    native = "AfterTool" if post else "BeforeTool"
    cmd = command(rng)
    request: dict[str, Any] = {
        "session_id": "@@SID@@",
        "transcript_path": "/home/dev/.gemini/tmp/shop/chats/@@SID@@.json",
        "cwd": cwd,
        "hook_event_name": native,
        "timestamp": "@@TS@@",
        "tool_name": "run_shell_command",
        "tool_input": {"command": cmd, "description": "run the command"},
    }
    if post:
        out = output(rng, cmd)
        request["tool_response"] = {"llmContent": out, "returnDisplay": out}
    hook = {
        "label": f"{native}:run_shell_command",
        "argv": ["python3", "/home/dev/.gemini/hooks/slow_guard.py"],
    }
    hook |= {"cwd": cwd, "env": {"GEMINI_PROJECT_DIR": cwd}, "timeout_ms": 2000}
    fields = outcome(
        rng,
        '{"decision": "allow", "reason": "checked"}',
        '{"decision": "deny", "reason": "@@WHY@@"}',
        2000,
    )
    return record(
        runtime="gemini-cli",
        event="post_tool_use" if post else "pre_tool_use",
        native=native,
        tool="run_shell_command",
        summary=cmd,
        cwd=cwd,
        request=request,
        hook=hook,
        **fields,
    )


def cursor(rng: random.Random) -> dict[str, Any]:
    cwd = rng.choice(PROJECTS)
    native = rng.choice(["beforeShellExecution"] * 3 + ["afterFileEdit", "beforeReadFile"])
    request: dict[str, Any] = {
        "conversation_id": "@@SID@@",
        "generation_id": "gen-@@TCID@@",
        "hook_event_name": native,
        "workspace_roots": [cwd],
    }
    if native == "beforeShellExecution":
        cmd = command(rng)
        request |= {"command": cmd, "cwd": cwd}
        tool, summary, event = "Shell", cmd, "pre_tool_use"
    else:
        path = f"{cwd}/src/{rng.choice(MODULES)}/models.py"
        request["file_path"] = path
        if native == "afterFileEdit":
            request["edits"] = [{"old_string": "id: int", "new_string": "id: int | None = None"}]
        else:
            request["content"] = output(rng, path)
        tool, summary = ("Edit", path) if native == "afterFileEdit" else ("Read", path)
        event = "post_tool_use" if native == "afterFileEdit" else "pre_tool_use"
    hook = {"label": native, "argv": ["node", f"{cwd}/.cursor/hooks/policy.mjs"], "cwd": cwd}
    hook |= {"env": {"CURSOR_PROJECT_DIR": cwd}, "timeout_ms": None}
    fields = outcome(
        rng, '{"permission": "allow"}', '{"permission": "deny", "user_message": "@@WHY@@"}', None
    )
    return record(
        runtime="cursor",
        event=event,
        native=native,
        tool=tool,
        summary=summary,
        cwd=cwd,
        request=request,
        hook=hook,
        tcid="gen-@@TCID@@",
        **fields,
    )


def basis(rng: random.Random) -> dict[str, Any]:
    cwd = rng.choice(PROJECTS)
    post = rng.random() < 0.5
    cmd = command(rng) if rng.random() < 0.8 else "cat .env"
    event = "post_tool_use" if post else "pre_tool_use"
    request: dict[str, Any] = {
        "hook_schema": 1,
        "event": event,
        "workspace": cwd,
        "agent_id": "agent-1",
        "tool_call_id": "call-@@TCID@@",
        "tool_name": "shell",
        "input": {"command": cmd},
    }
    hook = {
        "label": event,
        "argv": ["python3", f"{cwd}/hooks/redact_output.py"],
        "cwd": cwd,
        "env": {},
    }
    hook["timeout_ms"] = None
    extra: dict[str, Any] = {}
    if post and cmd == "cat .env":
        request |= {
            "output": "DATABASE_URL=postgres://localhost/shop\nAWS_SECRET_ACCESS_KEY=[REDACTED:aws_secret_key:78314b11]\n",
            "is_error": False,
        }
        masked = "DATABASE_URL=postgres://localhost/shop\nAWS_SECRET_ACCESS_KEY=***\n"
        extra = {
            "decision": "replace",
            "reason": "masked credentials in the tool output",
            "updated_output": masked,
            "stdout": json.dumps({"decision": "replace", "output": masked}),
            "redactions": [
                {"pointer": "/request/output", "kind": "aws_secret_key", "digest": "78314b11"}
            ],
        }
    elif post:
        request |= {"output": output(rng, cmd), "is_error": False}
    fields = extra or outcome(
        rng, '{"decision": "allow"}', '{"decision": "deny", "reason": "@@WHY@@"}', None
    )
    return record(
        runtime="basis",
        event=event,
        native=event,
        tool="shell",
        summary=cmd,
        cwd=cwd,
        request=request,
        hook=hook,
        session="",
        agent_id="agent-1",
        tcid="call-@@TCID@@",
        **fields,
    )


def fastpace(rng: random.Random) -> dict[str, Any]:
    cwd = rng.choice(PROJECTS)
    if rng.random() < 0.5:
        tool, tool_input, summary = "Read", {"file_path": f"src/{rng.choice(MODULES)}.py"}, ""
        summary = tool_input["file_path"]
    else:
        cmd = command(rng)
        tool, tool_input, summary = "Bash", {"command": cmd}, cmd
    request = {
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "metadata": {"agent_id": "reviewer", "model": "claude-opus-4.7", "runtime": "local"},
        "session_id": "@@SID@@",
        "cwd": cwd,
    }
    hook = {
        "label": "PreToolUse",
        "argv": ["python3", f"{cwd}/hooks/allow_all.py"],
        "cwd": cwd,
        "env": {},
    }
    hook["timeout_ms"] = None
    fields = outcome(
        rng,
        '{"decision": "allow", "reason": "no policy objects"}',
        '{"decision": "deny", "reason": "@@WHY@@"}',
        None,
    )
    return record(
        runtime="fastpace",
        event="pre_tool_use",
        native="PreToolUse",
        tool=tool,
        summary=summary,
        cwd=cwd,
        request=request,
        hook=hook,
        agent_id="reviewer",
        **fields,
    )


def prompt_or_stop(runtime: str, rng: random.Random) -> dict[str, Any]:
    """Claude Code's other events: a submitted prompt (with added context) or a stop."""
    cwd = rng.choice(PROJECTS)
    request: dict[str, Any] = {
        "session_id": "@@SID@@",
        "transcript_path": "/home/dev/.claude/projects/shop/@@SID@@.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
    }
    hook = {
        "label": "",
        "argv": ["python3", "/home/dev/.claude/hooks/context.py"],
        "cwd": cwd,
        "env": {"CLAUDE_PROJECT_DIR": cwd},
        "timeout_ms": 60000,
    }
    if rng.random() < 0.6:
        text = " ".join(
            rng.choice(
                [
                    "please",
                    "fix",
                    "the",
                    "failing",
                    "test",
                    "in",
                    "src",
                    rng.choice(MODULES),
                    "and",
                    "explain",
                    "why",
                    "it",
                    "broke",
                ]
            )
            for _ in range(rng.randint(8, 90))
        )
        request |= {"hook_event_name": "UserPromptSubmit", "prompt": text}
        hook["label"] = "UserPromptSubmit"
        context = "Branch: main. Open issues: 3. Last CI run: green."
        return record(
            runtime=runtime,
            event="user_prompt",
            native="UserPromptSubmit",
            summary=text,
            cwd=cwd,
            request=request,
            hook=hook,
            stdout=context,
            context=context,
        )
    request |= {"hook_event_name": "Stop", "stop_hook_active": False}
    hook["label"] = "Stop"
    return record(runtime=runtime, event="stop", native="Stop", cwd=cwd, request=request, hook=hook)


def body(runtime: str, rng: random.Random) -> dict[str, Any]:
    if runtime in ("claude-code", "codex"):
        if runtime == "claude-code" and rng.random() < 0.08:
            return prompt_or_stop(runtime, rng)
        return claude_like(runtime, rng)
    return {"gemini-cli": gemini, "cursor": cursor, "basis": basis, "fastpace": fastpace}[runtime](
        rng
    )


def body_pool(runtime: str, rng: random.Random, size: int) -> list[tuple[bytes, float, float]]:
    """`size` encoded bodies of one runtime, each with its range of durations in ms."""
    pool = []
    for _ in range(size):
        rec = body(runtime, rng)
        if rec["timed_out"]:
            limit = rec["hook"]["timeout_ms"] or 60000
            lo, hi = limit, limit + 40
        else:
            lo, hi = rng.choices([(3, 80), (80, 900), (900, 2500)], [70, 25, 5])[0]
        pool.append((msgspec.json.encode(rec) + b"\n", float(lo), float(hi)))
    return pool
