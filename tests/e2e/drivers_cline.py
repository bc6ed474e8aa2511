"""Driving the real Cline CLI (npm `cline`, its binary `@cline/cli-linux-x64`).

`cline --json -P openai-compatible` against the fake Chat Completions model: the
provider's base URL is written by the CLI's own `cline auth` (run offline before
the session), and `CLINE_SESSION_BACKEND_MODE=local` keeps the session in the
process (else it looks for its hub daemon on a port of 127.0.0.1 first).

Cline has no hook settings: the hooks are two files in `<project>/.clinerules/hooks`,
`PreToolUse.sh` (no `#!` line: Cline runs it with bash) and `PostToolUse.py` (`#!`
python3), each starting the scripted hook. Install wraps the files, so what the
batch compares as "settings" is the folder: each file's name and text.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

from tests.e2e.drivers import ORIGINAL
from tests.e2e.drivers_chat import ChatDriver
from tests.e2e.harness import (
    HOOK_SCRIPT,
    PORT,
    Sandbox,
    base_env,
    cli_path,
    hook_command,
    unshare_argv,
)

MODEL = "gpt-4.1"
# Hook files that run in the background (file name -> the scripted hook's name). Seen
# in 3.0.65: TaskStart starts every run; a run that completes ends with TaskComplete,
# one a cancel aborted with SessionShutdown (not TaskError, nor TaskCancel).
BACKGROUND = {"TaskStart": "start", "TaskComplete": "complete", "SessionShutdown": "shutdown"}


def _pre_file(command: str) -> str:
    return f"# the PreToolUse hook (no #! line: bash runs it)\nexec {command}\n"


def _post_file(folder: Path, name: str) -> str:
    return (
        "#!/usr/bin/env python3\n"
        "# the PostToolUse hook: the scripted hook, in this python3\n"
        "import runpy, sys\n"
        f"sys.argv = [{str(HOOK_SCRIPT)!r}, {str(folder)!r}, {name!r}]\n"
        f"runpy.run_path({str(HOOK_SCRIPT)!r}, run_name='__main__')\n"
    )


class Cline(ChatDriver):
    runtime = "cline"
    tool = "run_commands"
    matcher = ""
    pre_event = "tool_call"
    post_event = "tool_result"
    volatile = ("taskId", "timestamp", "sessionContext", "agent_id")
    volatile_env: tuple[str, ...] = ()

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.project / ".clinerules" / "hooks"

    def settings_bytes(self, sb: Sandbox) -> bytes:
        """The hooks folder as one value: each file's name and text."""
        folder = self.settings_path(sb)
        files = {p.name: p.read_text() for p in sorted(folder.iterdir()) if p.is_file()}
        return json.dumps(files, indent=1).encode()

    def write_settings(self, sb: Sandbox, pre: str, post: str, pre_timeout: int = 30) -> None:
        """The two hook files (Cline has no timeout setting: `pre_timeout` is unused); the
        provider, as `cline auth` writes it."""
        folder = self.settings_path(sb)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "PreToolUse.sh").write_text(_pre_file(pre))
        (folder / "PostToolUse.py").write_text(_post_file(sb.hooks, "post"))
        # Two that run in the background: whatever they answer changes nothing.
        for event, name in BACKGROUND.items():
            (folder / event).write_text(f"#!/bin/sh\nexec {hook_command(sb.hooks, name)}\n")
        self._auth(sb)

    def _auth(self, sb: Sandbox) -> None:
        argv = [
            *(unshare_argv() or []),
            str(cli_path(self.cli)),
            "auth",
            "-p",
            "openai-compatible",
            "-k",
            "sk-test",
            "-m",
            MODEL,
            "-b",
            f"http://127.0.0.1:{PORT}/v1",
        ]
        subprocess.run(
            argv, env=self.env(sb), cwd=sb.project, check=True, capture_output=True, timeout=120
        )

    def commands(self, settings: bytes) -> list[str]:
        files = json.loads(settings)
        return [files["PreToolUse.sh"], files["PostToolUse.py"]]

    def where(self, sb: Sandbox) -> tuple[list[str], dict[str, str]]:
        return [], {"HOME": str(sb.home)}  # the project's .clinerules/hooks

    def env(self, sb: Sandbox) -> dict[str, str]:
        return base_env(sb.home) | {"CLINE_SESSION_BACKEND_MODE": "local"}

    def argv(self, sb: Sandbox, prompt: str = "run the command") -> list[str]:
        return [str(cli_path(self.cli)), "--json", "-P", "openai-compatible", "-m", MODEL, prompt]

    def script(self, command: str = ORIGINAL) -> dict[str, Any]:
        return {"tool": self.tool, "tool_input": self.tool_input(command)}

    def tool_input(self, command: str) -> dict[str, Any]:
        return {"commands": [command]}

    def ran_input(self, post_request: dict[str, Any]) -> Any:
        return post_request["tool_result"]["input"]

    def normalize(self, content: str) -> str:
        return re.sub(r'"durationMs":\s*\d+', '"durationMs": N', content)

    def normalize_request(self, request: dict[str, Any]) -> dict[str, Any]:
        # How long the tool took, and when (tool_result).
        if isinstance(request.get("tool_result"), dict):
            result = dict(request["tool_result"])
            for key in ("durationMs", "startedAt", "endedAt"):
                result.pop(key, None)
            post = {k: v for k, v in request["postToolUse"].items() if k != "executionTimeMs"}
            request = {**request, "tool_result": result, "postToolUse": post}
        return request


CLINE = Cline()
