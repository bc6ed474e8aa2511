"""Driving the real OpenCode (npm `opencode-ai`, its binary `opencode-linux-x64`).

`opencode run --format json --auto` against the fake Chat Completions model, a
custom OpenAI-compatible provider given inline (`OPENCODE_CONFIG_CONTENT`), with the
models list and updates off. OpenCode has no command hooks: hooktui's plugin
(tap/runtimes/opencode/plugin.js) runs the commands of
`.opencode/command-hooks.json`. The bare run has the plugin in place as
`hooktui install opencode` would write it; install then only wraps the commands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hooktui.tap.runtimes import get_adapter

from tests.e2e.drivers import ORIGINAL
from tests.e2e.drivers_chat import ChatDriver
from tests.e2e.harness import PORT, Sandbox, base_env, cli_path

MODEL = "gpt-4.1"
CONFIG = {
    "$schema": "https://opencode.ai/config.json",
    "provider": {
        "fake": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "Fake",
            "options": {"baseURL": f"http://127.0.0.1:{PORT}/v1", "apiKey": "sk-test"},
            "models": {MODEL: {"name": MODEL, "tool_call": True}},
        }
    },
    "model": f"fake/{MODEL}",
    "autoupdate": False,
    "share": "disabled",
}


def _plugin_types_installed(folder: Path) -> None:
    """What OpenCode 1.18.33 takes for `@opencode-ai/plugin` installed in a config folder
    (the project's `.opencode`, the user's ~/.config/opencode): a node_modules folder,
    and the package in package-lock.json. Otherwise it installs it from the registry
    at start, and offline its retries hold the run about 70 s (seen 2026-12-07).
    hooktui's plugin imports nothing from it."""
    (folder / "node_modules").mkdir(parents=True, exist_ok=True)
    deps = {"@opencode-ai/plugin": "1.18.33"}
    (folder / "package.json").write_text(json.dumps({"dependencies": deps}) + "\n")
    lock = {"lockfileVersion": 3, "packages": {"": {"dependencies": deps}}}
    (folder / "package-lock.json").write_text(json.dumps(lock) + "\n")


class OpenCode(ChatDriver):
    runtime = "opencode"
    tool = "bash"
    matcher = "bash"
    pre_event = "tool.execute.before"
    post_event = "tool.execute.after"
    volatile = ("session_id",)
    volatile_env = ("OPENCODE_PID",)

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.project / ".opencode" / "command-hooks.json"

    def plugin_path(self, sb: Sandbox) -> Path:
        return sb.project / ".opencode" / get_adapter(self.runtime).settings.runner

    def write_settings(
        self,
        sb: Sandbox,
        pre: str,
        post: str,
        pre_timeout: int = 30,
        pre_handler: dict[str, Any] | None = None,
        post_handler: dict[str, Any] | None = None,
    ) -> None:
        def hooks(command: str, timeout: int, more: dict[str, Any] | None) -> list[Any]:
            handler = {"type": "command", "command": command, "timeout": timeout, **(more or {})}
            return [{"matcher": self.matcher, "hooks": [handler]}]

        settings = {
            "hooks": {
                self.pre_event: hooks(pre, pre_timeout, pre_handler),
                self.post_event: hooks(post, 30, post_handler),
            }
        }
        path = self.settings_path(sb)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n")
        plugin = self.plugin_path(sb)
        plugin.parent.mkdir(parents=True, exist_ok=True)
        plugin.write_bytes(get_adapter(self.runtime).runner_text())
        for folder in (path.parent, sb.home / ".config" / "opencode"):
            _plugin_types_installed(folder)

    def commands(self, settings: bytes) -> list[str]:
        hooks = json.loads(settings)["hooks"]
        return [hooks[e][0]["hooks"][0]["command"] for e in (self.pre_event, self.post_event)]

    def where(self, sb: Sandbox) -> tuple[list[str], dict[str, str]]:
        return [], {"HOME": str(sb.home)}

    def env(self, sb: Sandbox) -> dict[str, str]:
        return base_env(sb.home) | {
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_CONFIG_CONTENT": json.dumps(CONFIG),
        }

    def argv(self, sb: Sandbox, prompt: str = "run the command") -> list[str]:
        return [str(cli_path(self.cli)), "run", "--format", "json", "--auto", prompt]

    def script(self, command: str = ORIGINAL) -> dict[str, Any]:
        return {"tool": self.tool, "tool_input": self.tool_input(command)}

    def tool_input(self, command: str) -> dict[str, Any]:
        return {"command": command, "description": "leave a marker"}


OPENCODE = OpenCode()
