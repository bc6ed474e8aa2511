"""Demo traffic: realistic hook requests in several runtimes' formats, run through the real tap.

Each call is a real `hooktui tap --runtime R --label L -- python <guard>`
subprocess fed a native request, against the example guards in
`hooktui.tap.guards`. The scenarios are chosen so every kind of decision
shows up: deny, modify, replace, a failure that lets the call through, a guard
running close to its timeout, and plain allows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from hooktui.tap.guards import guard_path
from hooktui.tap.install.settings import hooktui_path

SLOW_TIMEOUT_MS = 2000  # the slow guard's configured timeout
SLOW_SLEEP_MS = (
    1700  # 85% of its budget: past the 80% mark where watch flags "close to the timeout"
)


@dataclass
class Scenario:
    runtime: str
    label: str
    guard: str
    request: dict[str, Any]
    expect: str  # the decision the guard should lead to
    timeout_ms: int | None = None
    guard_args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)


class _Requests:
    """Native request builders, one session per runtime for the whole demo."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.sessions = {r: str(uuid.uuid4()) for r in ("claude-code", "codex", "gemini-cli")}
        self.sessions["fastpace"] = f"fp-{uuid.uuid4().hex[:12]}"
        self.n = 0

    def _id(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n:04d}{uuid.uuid4().hex[:8]}"

    def claude(self, event: str, tool: str, tool_input: dict, response: Any = None) -> dict:
        sid = self.sessions["claude-code"]
        r = {
            "session_id": sid,
            "transcript_path": f"{os.path.expanduser('~')}/.claude/projects/demo/{sid}.jsonl",
            "cwd": self.cwd,
            "permission_mode": "default",
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": self._id("toolu_01"),
        }
        if response is not None:
            r["tool_response"] = response
        return r

    def codex(self, tool_input: dict) -> dict:
        return {
            "session_id": self.sessions["codex"],
            "transcript_path": None,
            "cwd": self.cwd,
            "hook_event_name": "PreToolUse",
            "model": "gpt-5-codex",
            "turn_id": self._id("turn-"),
            "tool_name": "Bash",
            "tool_input": tool_input,
            "tool_use_id": self._id("call_"),
        }

    def gemini(self, command: str) -> dict:
        sid = self.sessions["gemini-cli"]
        return {
            "session_id": sid,
            "transcript_path": f"{os.path.expanduser('~')}/.gemini/tmp/demo/chats/{sid}.json",
            "cwd": self.cwd,
            "hook_event_name": "BeforeTool",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "run " + command.split()[0]},
        }

    def basis(self, command: str, output: str, is_error: bool = False) -> dict:
        return {
            "hook_schema": 1,
            "event": "post_tool_use",
            "workspace": self.cwd,
            "agent_id": "agent-1",
            "tool_call_id": self._id("call-"),
            "tool_name": "shell",
            "input": {"command": command},
            "output": output,
            "is_error": is_error,
        }

    def fastpace(self, tool: str, tool_input: dict) -> dict:
        return {
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "metadata": {"agent_id": "reviewer", "model": "claude-opus-4.7", "runtime": "local"},
            "session_id": self.sessions["fastpace"],
            "cwd": self.cwd,
        }


# Variety for the commands, picked in turn.
_FORCE_PUSHES = [
    "git push --force origin main",
    "git push -f origin HEAD",
    "git push --force-with-lease",
]
_SAFE_COMMANDS = ["git status", "ls -la src", "pytest -q tests/test_api.py", "git diff --stat"]
_FORCE_REWRITES = [
    "git push --force origin feature/login",
    "rm --force build/cache.db",
    "git push -f",
]
_CODEX_SAFE = ["npm test", "cargo build --release", "rg TODO src"]
# Fake credentials (AWS's documented example keys among them).
_SECRET_OUTPUTS = [
    (
        "cat .env",
        "DATABASE_URL=postgres://localhost/shop\n"
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
    ),
    ("aws configure list", "access_key     AKIAIOSFODNN7EXAMPLE shared-credentials-file\n"),
    (
        "printenv",
        "HOME=/home/dev\nGITHUB_TOKEN=ghp_" + "0123456789abcdefghijklmnopqrstuvwxyz" + "\n",
    ),
]
_PLAIN_OUTPUTS = [
    ("ls", "README.md\nsrc\ntests\n"),
    ("git log -1 --oneline", "4b46e4d Fix login\n"),
]
_READ_PATHS = ["src/app.py", "README.md", "tests/test_api.py", "pyproject.toml"]


def scenarios(cwd: str | None = None) -> Callable[[int], Scenario]:
    """A function giving the i-th call of the demo; one round covers every decision."""
    rq = _Requests(cwd or os.getcwd())
    claude_env = {"CLAUDE_PROJECT_DIR": rq.cwd}

    def pick(items: list, i: int):
        return items[(i // len(_ROUND)) % len(items)]

    # Each guard gets calls it acts on and calls it lets through: one builder serves both.
    def claude_bash(commands: list[str], expected: str) -> Callable[[int], Scenario]:
        def make(i: int) -> Scenario:
            req = rq.claude("PreToolUse", "Bash", {"command": pick(commands, i)})
            return Scenario(
                "claude-code",
                "PreToolUse:Bash",
                "deny_force_push",
                req,
                expected,
                600_000,
                env=claude_env,
            )

        return make

    def codex_bash(commands: list[str], expected: str) -> Callable[[int], Scenario]:
        def make(i: int) -> Scenario:
            req = rq.codex({"command": pick(commands, i)})
            return Scenario("codex", "PreToolUse:Bash", "drop_force", req, expected, 10_000)

        return make

    def basis_output(outputs: list[tuple[str, str]], expected: str) -> Callable[[int], Scenario]:
        def make(i: int) -> Scenario:
            command, output = pick(outputs, i)
            return Scenario(
                "basis", "post_tool_use", "redact_output", rq.basis(command, output), expected
            )

        return make

    deny = claude_bash(_FORCE_PUSHES, "deny")
    claude_allow = claude_bash(_SAFE_COMMANDS, "allow")
    modify = codex_bash(_FORCE_REWRITES, "modify")
    codex_allow = codex_bash(_CODEX_SAFE, "allow")
    replace = basis_output(_SECRET_OUTPUTS, "replace")
    basis_allow = basis_output(_PLAIN_OUTPUTS, "allow")

    def slow(i: int) -> Scenario:
        req = rq.gemini(pick(_SAFE_COMMANDS, i))
        return Scenario(
            "gemini-cli",
            "BeforeTool:run_shell_command",
            "slow_guard",
            req,
            "allow",
            SLOW_TIMEOUT_MS,
            ["--sleep-ms", str(SLOW_SLEEP_MS)],
            {"GEMINI_PROJECT_DIR": rq.cwd},
        )

    def crash(i: int) -> Scenario:
        req = rq.claude("PreToolUse", "Read", {"file_path": f"{rq.cwd}/{pick(_READ_PATHS, i)}"})
        return Scenario(
            "claude-code", "PreToolUse:*", "crashing_guard", req, "failure", 600_000, env=claude_env
        )

    def fastpace_allow(i: int) -> Scenario:
        req = rq.fastpace("Read", {"file_path": pick(_READ_PATHS, i)})
        return Scenario("fastpace", "PreToolUse", "allow_all", req, "allow")

    _ROUND = [
        deny,
        claude_allow,
        modify,
        replace,
        slow,
        crash,
        codex_allow,
        basis_allow,
        fastpace_allow,
    ]
    return lambda i: _ROUND[i % len(_ROUND)](i)


ROUND_SIZE = 9  # calls in one round of scenarios(): every decision at least once


def tap_argv(s: Scenario, stream: str, *, wait: bool, hooktui: str | None = None) -> list[str]:
    argv = [hooktui or hooktui_path(), "tap", "--runtime", s.runtime, "--label", s.label]
    argv += ["--stream", stream]
    if s.timeout_ms is not None:
        argv += ["--timeout-ms", str(s.timeout_ms)]
    if wait:
        argv.append("--wait")
    return argv + ["--", sys.executable, str(guard_path(s.guard)), *s.guard_args]


@dataclass
class Tally:
    calls: int = 0
    errors: int = 0  # calls the demo itself could not run


class Generator:
    """Runs demo calls at `rate` per second (count 0: until stopped) into `stream`."""

    def __init__(self, stream: str, *, rate: float, count: int, wait: bool, cwd: str | None = None):
        self.stream = stream
        self.rate = rate
        self.count = count
        self.wait = wait  # the tap records before exiting: the stream is complete at the end
        self.next_call = scenarios(cwd)
        self.stop = threading.Event()
        self.tally = Tally()
        self._lock = threading.Lock()
        self._hooktui = hooktui_path()

    def _one(self, s: Scenario) -> None:
        import json

        env = {**os.environ, **s.env}
        try:
            subprocess.run(
                tap_argv(s, self.stream, wait=self.wait, hooktui=self._hooktui),
                input=json.dumps(s.request).encode(),
                capture_output=True,
                env=env,
                timeout=30,
            )
            ok = True
        except (OSError, subprocess.SubprocessError):
            ok = False
        with self._lock:
            self.tally.calls += ok
            self.tally.errors += not ok

    def run(self) -> Tally:
        """Blocks until `count` calls are done or `stop` is set."""
        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=8, thread_name_prefix="demo-call") as pool:
            i = 0
            while not self.stop.is_set() and (self.count == 0 or i < self.count):
                due = start + i / self.rate
                if self.stop.wait(max(0.0, due - time.monotonic())):
                    break
                pool.submit(self._one, self.next_call(i))
                i += 1
        return self.tally
