"""Driving the real Mistral Vibe (PyPI `mistral-vibe`, its own venv: harness.venvs()).

`vibe -p` (headless) runs the Rust client, which starts the Python app server that
runs the agent and its hooks. The model is the fake Chat Completions server, as a
provider of our own in `$VIBE_HOME/config.toml` (its `llamacpp` provider points at
127.0.0.1:8080; the namespace's port is another). Project hooks load only in a
trusted folder: `--trust` trusts the cwd for the run. The keyring is the null one
and MISTRAL_API_KEY is set, or Vibe waits on the system keyring at start.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from tests.e2e.drivers import ORIGINAL
from tests.e2e.drivers_chat import ChatDriver
from tests.e2e.harness import PORT, Sandbox, base_env, cli_path

_CONFIG = f"""active_model = "local"
enable_telemetry = false
enable_update_checks = false
enable_auto_update = false
enable_notifications = false

[[providers]]
name = "fake"
api_base = "http://127.0.0.1:{PORT}/v1"
api_key_env_var = ""

[[models]]
name = "gpt-4.1"
provider = "fake"
alias = "local"
"""


def toml_str(text: str) -> str:
    return json.dumps(text)  # a JSON string is a TOML basic string


class MistralVibe(ChatDriver):
    runtime = "mistral-vibe"
    tool = "file_system.bash"  # as hooks see it; the model calls `bash`
    model_tool = "bash"
    matcher = "bash"
    pre_event = "pre_tool"
    post_event = "post_tool"
    volatile = ("session_id", "transcript_path")

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.project / ".vibe" / "hooks.toml"

    def write_settings(
        self,
        sb: Sandbox,
        pre: str,
        post: str,
        pre_timeout: int = 30,
        pre_handler: dict[str, Any] | None = None,
        post_handler: dict[str, Any] | None = None,
    ) -> None:
        """Two [[hooks]] tables; `pre_handler`/`post_handler`: more keys (`strict`)."""

        def table(name: str, point: str, command: str, more: dict[str, Any]) -> str:
            lines = [
                "[[hooks]]",
                f"name = {toml_str(name)}",
                f"type = {toml_str(point)}",
                f"match = {toml_str(self.matcher)}",
                f"command = {toml_str(command)}",
            ]
            lines += [f"{key} = {json.dumps(value)}" for key, value in more.items()]
            return "\n".join(lines) + "\n"

        path = self.settings_path(sb)
        path.parent.mkdir(parents=True, exist_ok=True)
        pre_keys = {"timeout": pre_timeout, **(pre_handler or {})}
        path.write_text(
            table("pre", "pre_tool", pre, pre_keys)
            + "\n"
            + table("post", "post_tool", post, dict(post_handler or {}))
        )
        home = sb.home / ".vibe"
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text(_CONFIG)

    def commands(self, settings: bytes) -> list[str]:
        hooks = tomllib.loads(settings.decode())["hooks"]
        by_point = {h["type"]: h["command"] for h in hooks}
        return [by_point["pre_tool"], by_point["post_tool"]]

    def where(self, sb: Sandbox) -> tuple[list[str], dict[str, str]]:
        return [], {"HOME": str(sb.home), "VIBE_HOME": str(sb.home / ".vibe")}

    def env(self, sb: Sandbox) -> dict[str, str]:
        return base_env(sb.home) | {
            "VIBE_HOME": str(sb.home / ".vibe"),
            "MISTRAL_API_KEY": "sk-test",
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        }

    def argv(self, sb: Sandbox, prompt: str = "run the command") -> list[str]:
        return [
            str(cli_path(self.cli)),
            "-p",
            prompt,
            "--output",
            "json",
            "--trust",
            "--auto-approve",
        ]

    def script(self, command: str = ORIGINAL) -> dict[str, Any]:
        return {"tool": self.model_tool, "tool_input": self.tool_input(command)}

    def tool_input(self, command: str) -> dict[str, Any]:
        return {"command": command}

    def normalize(self, content: str) -> str:
        return re.sub(r"duration_ms: \d+", "duration_ms: N", content)


VIBE = MistralVibe()
