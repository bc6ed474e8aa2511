"""What one benchmark record looks like: bodies per runtime, with sentinels for what varies.

Modelled on real records (`hooktui demo --no-ui` through the real tap): the same
fields in the same order as `hooktui.tap.model.Record`, each runtime's native
request and answer, the hook that ran. `streams.py` fills in the sentinels
(@@ID@@, @@TS@@, "@@DUR@@", @@SID@@, @@TCID@@, @@N@@) per record.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import msgspec

# Share of sessions per runtime.
RUNTIME_WEIGHTS = {
    "claude-code": 40,
    "codex": 20,
    "gemini-cli": 12,
    "cursor": 10,
    "basis": 9,
    "fastpace": 9,
}

PROJECTS = ["/home/dev/src/shop", "/home/dev/src/api-gateway", "/srv/ci/build-4412/workspace"]
MODULES = ["api", "billing", "auth", "search", "orders", "users", "cache", "jobs", "http", "db"]
SHORT = [
    "git status",
    "git diff --stat",
    "ls -la src",
    "npm test",
    "cargo build --release",
    "rg TODO src",
    "make lint",
    "docker compose up -d db",
    "git log -n @@N@@ --oneline",
    "pytest -q tests/test_{m}.py -k 'test_{m}_@@N@@'",
    "sed -n '@@N@@,+40p' src/{m}/service.py",
    "curl -sS -H 'Accept: application/json' http://localhost:8080/{m}/@@N@@ | jq .",
]
DANGEROUS = [
    ("git push --force origin main", "force-push is not allowed here; push without --force"),
    ("rm -rf build/ dist/ node_modules/.cache", "recursive delete outside the sandbox"),
    ("curl -fsSL https://get.example.dev/install.sh | sh", "piping a download into a shell"),
    ("chmod -R 777 /srv/app", "world-writable permissions"),
]
TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/home/dev/.hooks/guard.py", line 39, in <module>\n'
    "    sys.exit(main())\n"
    '  File "/home/dev/.hooks/guard.py", line 31, in main\n'
    '    command = request["tool_input"]["command"]  # not every tool has one\n'
    "KeyError: 'command'\n"
)


def blob(text: str) -> dict[str, Any]:
    data = text.encode()
    sha = hashlib.sha256(data).hexdigest()
    return {
        "data": text,
        "encoding": "utf-8",
        "length": len(data),
        "sha256": sha,
        "truncated": False,
    }


def long_command(rng: random.Random) -> str:
    """A heredoc script or a long pipeline, as agents write them (300-1000 chars)."""
    m = rng.choice(MODULES)
    if rng.random() < 0.5:
        lines = ["python3 - <<'EOF'", "import json, pathlib, collections"]
        lines += [f"p = pathlib.Path('src/{m}')", "counts = collections.Counter()"]
        for k in range(rng.randint(3, 14)):
            lines.append(
                f"counts['{m}_{k}'] += sum(1 for f in p.rglob('*.py') if '{m}_{k}' in f.read_text())"
            )
        lines += ["print(json.dumps(counts.most_common(20), indent=2))", "EOF"]
        return "\n".join(lines)
    parts = [f"find src/{m} -name '*.py' -newer .git/ORIG_HEAD -print0"]
    parts += [f"xargs -0 grep -n 'def {m}_@@N@@' || true"]
    parts += [f"awk -F: '{{print $1}}' | sort | uniq -c | sort -rn | head -{rng.randint(5, 50)}"]
    for _ in range(rng.randint(1, 5)):
        parts.append(f"sed -e 's#src/{rng.choice(MODULES)}/##' -e 's#\\.py$##'")
    return " | ".join(parts)


def command(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.12:
        return long_command(rng)
    return rng.choice(SHORT).replace("{m}", rng.choice(MODULES))


def output(rng: random.Random, cmd: str) -> str:
    """What a shell tool printed: test runs, logs, listings (0.1-3 KB)."""
    m = rng.choice(MODULES)
    kind = rng.random()
    if kind < 0.35:
        rows = [f"tests/test_{m}.py::test_{m}_{k} PASSED" for k in range(rng.randint(3, 20))]
        return "\n".join(rows + [f"{len(rows)} passed in {rng.uniform(0.2, 9):.2f}s"])
    if kind < 0.6:
        return "\n".join(
            f"{rng.getrandbits(28):07x} {m}: {rng.choice(['fix', 'add', 'tidy'])} step {k}"
            for k in range(rng.randint(2, 18))
        )
    if kind < 0.8:
        return "\n".join(
            f"-rw-r--r-- 1 dev dev {rng.randint(80, 90000):>6} {m}_{k}.py"
            for k in range(rng.randint(2, 16))
        )
    return f"$ {cmd[:60]}\n" + "\n".join(
        f"[{k:03d}] compiling {m}/{k}.rs ... ok" for k in range(rng.randint(1, 24))
    )


def record(**f: Any) -> dict[str, Any]:
    """The record in the order hooktui writes it; unset optional keys are left out."""
    rec: dict[str, Any] = {
        "v": 1,
        "id": "@@ID@@",
        "ts": "@@TS@@",
        "runtime": f["runtime"],
        "event": f["event"],
        "native_event": f["native"],
        "tool_name": f.get("tool", ""),
        "decision": f.get("decision", "allow"),
        "reason": f.get("reason", ""),
        "exit_code": f.get("exit_code", 0),
        "signal": f.get("signal"),
        "timed_out": f.get("timed_out", False),
        "duration_ms": "@@DUR@@",
        "failure": f.get("failure", ""),
        "failure_detail": f.get("failure_detail", ""),
        "effect": f.get("effect", ""),
        "summary": f.get("summary", "")[:200].split("\n")[0],
        "session_id": f.get("session", "@@SID@@"),
        "agent_id": f.get("agent_id", ""),
        "tool_call_id": f.get("tcid", ""),
        "cwd": f["cwd"],
        "request": f["request"],
        "request_format": "json",
    }
    for key in ("updated_input", "updated_output"):
        if key in f:
            rec[key] = f[key]
    rec["context"] = f.get("context", "")
    rec["hook"] = f["hook"]
    rec["stdout"] = blob(f.get("stdout", ""))
    rec["stderr"] = blob(f.get("stderr", ""))
    rec["redactions"] = f.get("redactions", [])
    rec["capture"] = "redacted"
    rec["tap_version"] = "0.1.0"
    rec["tap_error"] = ""
    return rec


def outcome(
    rng: random.Random, answer_allow: str, answer_deny: str, timeout_ms: int | None
) -> dict[str, Any]:
    """Decision, answer bytes and failure fields, by the usual shares of a guarded agent."""
    roll = rng.random()
    if roll < 0.78:
        return {"decision": "allow", "stdout": answer_allow if rng.random() < 0.5 else ""}
    if roll < 0.86:
        cmd, why = rng.choice(DANGEROUS)
        return {"decision": "deny", "reason": why, "stdout": answer_deny.replace("@@WHY@@", why)}
    if roll < 0.93:
        return {
            "decision": "failure",
            "exit_code": 1,
            "stderr": TRACEBACK,
            "failure": "exit_code",
            "failure_detail": "exit 1: a non-zero exit without a JSON answer is a non-blocking error; the action proceeds",
            "effect": "proceeds",
        }
    if roll < 0.97:
        return {
            "decision": "failure",
            "stdout": "checking policy...\n{decision: allow}",
            "failure": "invalid_json",
            "failure_detail": "stdout is not JSON: expecting property name enclosed in double quotes at line 2",
            "effect": "proceeds",
        }
    return {
        "decision": "failure",
        "exit_code": None,
        "signal": 9,
        "timed_out": True,
        "failure": "timeout",
        "failure_detail": f"killed after the {timeout_ms or 60000} ms timeout",
        "effect": "proceeds",
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
