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

from hooktui.tap.canonical import Call
from hooktui.tap.guards import GUARDS, guard_path
from hooktui.tap.install.settings import hooktui_path
from hooktui.tap.runtimes import RUNTIMES, Runtime, get_adapter, guests_of

SLOW_TIMEOUT_MS = 2000  # the slow guard's configured timeout
CONFIGURED_TIMEOUT_MS = 10_000  # the rewriting guard's configured timeout
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
    """Native requests, each in the format of the runtime its guard speaks (the
    runtime's own `request_for`), one session per runtime for the whole demo."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.sessions: dict[str, str] = {}
        self.n = 0

    def _id(self) -> str:
        self.n += 1
        return f"call{self.n:04d}{uuid.uuid4().hex[:8]}"

    def make(
        self,
        guard: str,
        event: str,
        tool: str,
        tool_input: Any,
        output: Any = None,
        guest: str = "",
    ) -> tuple[Runtime, dict]:
        """(runtime, request) for a call to `guard`; `tool` is "shell" or "read"; `guest`:
        a runtime that runs the guard's runtime's hooks, and sends this request instead."""
        host = get_adapter(GUARDS[guard][0])
        runtime = get_adapter(guest) if guest else host
        session = self.sessions.setdefault(runtime.name, str(uuid.uuid4()))
        call = Call(
            runtime=runtime.name,
            event=event,
            native_event=next(n for n, e in host.events.items() if e == event),
            tool_name=host.shell_tool if tool == "shell" else host.read_tool,
            tool_input=tool_input,
            tool_output=output,
            is_error=False if output is not None else None,
            session_id=session,
            agent_id="agent-1",
            tool_call_id=self._id(),
            cwd=self.cwd,
        )
        return runtime, runtime.request_for(call)

    def scenario(
        self,
        guard: str,
        expect: str,
        request: tuple[Runtime, dict],
        timeout_ms: int | None = None,
        guard_args: list[str] | None = None,
    ) -> Scenario:
        runtime, req = request
        call = runtime.parse(req)
        label = call.native_event
        if call.tool_name and runtime.settings is not None:
            label = f"{call.native_event}:{call.tool_name}"
        # The runtime's own variable for the project folder, as hooks see it; a guest
        # running another's hooks is told by the variables only it sets.
        env = {runtime.project_dir_env: self.cwd} if runtime.project_dir_env else {}
        host = GUARDS[guard][0]  # install wrapped the hook as its runtime's
        for spec in runtime.caller_env if runtime.name != host else ():
            name, _, value = spec.partition("=")
            env.setdefault(name, value or "1")
        return Scenario(
            host,
            label,
            guard,
            req,
            expect,
            timeout_ms if timeout_ms is not None else runtime.timeouts.default_ms,
            guard_args or [],
            env,
        )


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
_BUILD_COMMANDS = ["npm test", "cargo build --release", "rg TODO src"]
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
# The runtimes that run the deny guard's hooks too (its runtime's settings).
_GUESTS = guests_of(GUARDS["deny_force_push"][0])
_WIPES = ["rm -rf build", "rm -fr ~/.cache/pip", "rm -r -f node_modules"]
_SUDO = ["sudo apt-get install -y jq", "sudo -E make install", "sudo systemctl restart nginx"]
_ENV_FILES = [".env", ".env.local", "deploy/.env.production"]


def scenarios(cwd: str | None = None) -> Callable[[int], Scenario]:
    """A function giving the i-th call of the demo; one round covers every decision."""
    rq = _Requests(cwd or os.getcwd())

    def pick(items: list, i: int):
        return items[(i // len(_ROUND)) % len(items)]

    # Each guard gets calls it acts on and calls it lets through: one builder serves both.
    def shell(guard: str, commands: list[str], expected: str, timeout_ms=None):
        def make(i: int) -> Scenario:
            req = rq.make(guard, "pre_tool_use", "shell", {"command": pick(commands, i)})
            return rq.scenario(guard, expected, req, timeout_ms)

        return make

    def output(outputs: list[tuple[str, str]], expected: str) -> Callable[[int], Scenario]:
        def make(i: int) -> Scenario:
            command, out = pick(outputs, i)
            req = rq.make("redact_output", "post_tool_use", "shell", {"command": command}, out)
            return rq.scenario("redact_output", expected, req)

        return make

    def guest(name: str, guard: str, commands: list[str], expected: str):
        """The guard's hook as another runtime runs it (Copilot, Continue run Claude
        Code's): that runtime's request and variables; the record names it."""

        def make(i: int) -> Scenario:
            tool_input = {"command": pick(commands, i)}
            req = rq.make(guard, "pre_tool_use", "shell", tool_input, guest=name)
            return rq.scenario(guard, expected, req)

        return make

    def slow(i: int) -> Scenario:
        command = pick(_SAFE_COMMANDS, i)
        tool_input = {"command": command, "description": "run " + command.split()[0]}
        req = rq.make("slow_guard", "pre_tool_use", "shell", tool_input)
        args = ["--sleep-ms", str(SLOW_SLEEP_MS)]
        return rq.scenario("slow_guard", "allow", req, SLOW_TIMEOUT_MS, args)

    def read(guard: str, expected: str, absolute: bool) -> Callable[[int], Scenario]:
        def make(i: int) -> Scenario:
            path = pick(_READ_PATHS, i)
            path = f"{rq.cwd}/{path}" if absolute else path
            req = rq.make(guard, "pre_tool_use", "read", {"file_path": path})
            return rq.scenario(guard, expected, req)

        return make

    def shaped(
        guard: str, expected: str, tool: str, values: list[str], shape: Callable[[str], Any]
    ) -> Callable[[int], Scenario]:
        """Calls whose tool input is in the runtime's own shape (`shape(value)`)."""

        def make(i: int) -> Scenario:
            req = rq.make(guard, "pre_tool_use", tool, shape(pick(values, i)))
            return rq.scenario(guard, expected, req)

        return make

    _ROUND = [
        shell("deny_force_push", _FORCE_PUSHES, "deny"),
        shell("deny_force_push", _SAFE_COMMANDS, "allow"),
        *(guest(name, "deny_force_push", _FORCE_PUSHES, "deny") for name in _GUESTS),
        shell("drop_force", _FORCE_REWRITES, "modify", CONFIGURED_TIMEOUT_MS),
        output(_SECRET_OUTPUTS, "replace"),
        slow,
        read("crashing_guard", "failure", absolute=True),
        shell("drop_force", _BUILD_COMMANDS, "allow", CONFIGURED_TIMEOUT_MS),
        output(_PLAIN_OUTPUTS, "allow"),
        read("allow_all", "allow", absolute=False),
        shaped("cancel_rm_rf", "deny", "shell", _WIPES, lambda c: {"commands": [c]}),
        shell("no_sudo", _SUDO, "modify"),
        shaped("keep_env_private", "deny", "read", _ENV_FILES, lambda p: {"filePath": p}),
    ]
    return lambda i: _ROUND[i % len(_ROUND)](i)


# Calls in one round of scenarios(): every decision at least once.
ROUND_SIZE = 12 + len(_GUESTS)


def tap_argv(s: Scenario, stream: str, *, wait: bool, hooktui: str | None = None) -> list[str]:
    argv = [hooktui or hooktui_path(), "tap", "--runtime", s.runtime, "--label", s.label]
    argv += ["--stream", stream]
    if s.timeout_ms is not None:
        argv += ["--timeout-ms", str(s.timeout_ms)]
    if wait:
        argv.append("--wait")
    return argv + ["--", sys.executable, str(guard_path(s.guard)), *s.guard_args]


def demo_runtimes() -> str:
    """The runtimes the demo's guards speak, and those running their hooks too, as a
    sentence ("A, B and C")."""
    spoken = {runtime for runtime, _ in GUARDS.values()} | set(_GUESTS)
    # In the registry's order: the runtimes users have first, the research ones last.
    titles = [get_adapter(name).title for name in RUNTIMES if name in spoken]
    return ", ".join(titles[:-1]) + " and " + titles[-1]


@dataclass
class Tally:
    calls: int = 0
    errors: int = 0  # calls the demo itself could not run


CALLS_AT_ONCE = 8


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
        # At most CALLS_AT_ONCE calls run; a slow machine makes calls late, never queued,
        # so Ctrl-C ends the demo once those few are done.
        self._slots = threading.BoundedSemaphore(CALLS_AT_ONCE)

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
        self._slots.release()

    def _free_slot(self) -> bool:
        """Waits for a call to finish when CALLS_AT_ONCE are running; False once stopped."""
        while not self._slots.acquire(timeout=0.1):
            if self.stop.is_set():
                return False
        return True

    def run(self) -> Tally:
        """Blocks until `count` calls are done or `stop` is set."""
        start = time.monotonic()
        with ThreadPoolExecutor(CALLS_AT_ONCE, thread_name_prefix="demo-call") as pool:
            i = 0
            while not self.stop.is_set() and (self.count == 0 or i < self.count):
                due = start + i / self.rate
                if self.stop.wait(max(0.0, due - time.monotonic())) or not self._free_slot():
                    break
                pool.submit(self._one, self.next_call(i))
                i += 1
        return self.tally
