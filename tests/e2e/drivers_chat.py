"""Drivers for the two CLIs that talk OpenAI Chat Completions to the fake model:
GitHub Copilot CLI and Qwen Code (see drivers.py for the shape of a driver).

The tapped runs wrap the hooks with the real `hooktui install copilot|qwen-code`
(and `install claude-code` for Copilot running `.claude/settings.json`).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from tests.e2e.drivers import Driver
from tests.e2e.fake_wire import anthropic_result_for, since_assistant
from tests.e2e.harness import PORT, Run, Sandbox, base_env, cli_path, node_modules


def shared_cache() -> Path:
    """One XDG cache for every Copilot run: its first start unpacks 235 MB there."""
    return Path(os.environ.get("HOOKTUI_E2E_CACHE") or node_modules().parent / "xdg-cache")


def _text(content: Any) -> str:
    """A message's content as text (a string, or parts holding text)."""
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def claude_layout(
    matcher: str,
    pre: str,
    post: str,
    pre_timeout: int,
    pre_handler: dict[str, Any] | None = None,
    post_handler: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Claude's settings layout with one PreToolUse and one PostToolUse command hook;
    `pre_handler`, `post_handler`: more keys for the handler (None removes one)."""

    def hooks(command: str, timeout: int, extra: dict[str, Any] | None) -> list[Any]:
        handler = {"type": "command", "command": command, "timeout": timeout, **(extra or {})}
        handler = {k: v for k, v in handler.items() if v is not None}
        return [{"matcher": matcher, "hooks": [handler]}]

    return {
        "hooks": {
            "PreToolUse": hooks(pre, pre_timeout, pre_handler),
            "PostToolUse": hooks(post, 30, post_handler),
        }
    }


class ChatDriver(Driver):
    """What Copilot and Qwen Code share: the wire format, the tool result, install here."""

    timeout_unit_ms = 1000  # both count hook timeouts in seconds

    def tool_result(self, run: Run) -> dict[str, Any]:
        finals = run.of_kind("final")
        assert len(finals) == 1, run.describe()
        recent = since_assistant(finals[0]["body"]["messages"])
        results = [m for m in recent if m.get("role") == "tool"]
        assert len(results) == 1, recent
        content = results[0].get("content")
        if isinstance(content, list):  # content parts: keep their text
            content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
        notes = [
            m["content"] if isinstance(m.get("content"), str) else json.dumps(m.get("content"))
            for m in recent
            if m.get("role") in ("user", "system")
        ]
        # Chat Completions has no error flag on a tool message.
        return {"content": content or "", "is_error": False, "notes": notes}

    def result_for(self, body: dict[str, Any], call_id: str) -> dict[str, Any] | None:
        """What this request sends back for tool call `call_id`, if it holds it:
        {content, is_error, notes (what the runtime adds right after it)}."""
        messages = body.get("messages") or []
        for i, m in enumerate(messages):
            if m.get("role") == "tool" and m.get("tool_call_id") == call_id:
                after = []
                for n in messages[i + 1 :]:
                    if n.get("role") == "assistant":
                        break
                    if n.get("role") in ("user", "system"):
                        after.append(_text(n.get("content")))
                return {"content": _text(m.get("content")), "is_error": False, "notes": after}
        return None

    def _handlers(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        raise NotImplementedError


class Copilot(ChatDriver):
    """GitHub Copilot CLI with its hooks in `.github/hooks/e2e.json` (camelCase events)."""

    runtime = "copilot"
    tool = "bash"
    matcher = ""
    pre_event = "preToolUse"
    post_event = "postToolUse"
    volatile = ("sessionId", "timestamp")
    model = "gpt-4.1"
    provider = "openai"

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.project / ".github" / "hooks" / "e2e.json"

    def write_settings(
        self,
        sb: Sandbox,
        pre: str,
        post: str,
        pre_timeout: int = 30,
        pre_handler: dict[str, Any] | None = None,
        post_handler: dict[str, Any] | None = None,
    ) -> None:
        """`pre_handler`, `post_handler`: more keys for the handler; None removes one."""

        def hook(command: str, timeout: int, extra: dict[str, Any] | None) -> dict[str, Any]:
            handler = {"type": "command", "bash": command, "timeoutSec": timeout, **(extra or {})}
            return {k: v for k, v in handler.items() if v is not None}

        settings = {
            "version": 1,
            "hooks": {
                "preToolUse": [hook(pre, pre_timeout, pre_handler)],
                "postToolUse": [hook(post, 30, post_handler)],
            },
        }
        path = self.settings_path(sb)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n")

    def _handlers(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"_event": event, "handler": handler}
            for event, handlers in data["hooks"].items()
            for handler in handlers
        ]

    def commands(self, settings: bytes) -> list[str]:
        hooks = json.loads(settings)["hooks"]
        return [hooks[event][0]["bash"] for event in (self.pre_event, self.post_event)]

    def env(self, sb: Sandbox) -> dict[str, str]:
        base_url = f"http://127.0.0.1:{PORT}" + ("/v1" if self.provider == "openai" else "")
        return base_env(sb.home) | {
            "XDG_CACHE_HOME": str(shared_cache()),
            "COPILOT_OFFLINE": "true",
            "COPILOT_PROVIDER_TYPE": self.provider,
            "COPILOT_PROVIDER_BASE_URL": base_url,
            "COPILOT_PROVIDER_API_KEY": "sk-test",
            "COPILOT_MODEL": self.model,
            "COPILOT_HOME": str(sb.home / ".copilot"),
            "COPILOT_AUTO_UPDATE": "false",
        }

    def argv(self, sb: Sandbox, prompt: str = "run the command") -> list[str]:
        # --trust-folder: in -p mode project hooks load only in a trusted folder.
        return [
            str(cli_path(self.cli)),
            "-p",
            prompt,
            "--allow-all-tools",
            "--trust-folder",
            "--no-auto-update",
            "--disable-client-telemetry",
            "--no-ask-user",
            "--disable-builtin-mcps",
            "--no-custom-instructions",
            "--no-remote",
            "--output-format",
            "json",
            "--log-dir",
            str(sb.root / "copilot-logs"),
            "--log-level",
            "all",
        ]

    def tool_input(self, command: str) -> dict[str, Any]:
        return {"command": command, "description": "leave a marker"}

    def normalize(self, content: str) -> str:
        # Each shell call of a session gets the next shell id.
        return re.sub(r"<shellId: \d+ ", "<shellId: N ", content)

    def log_text(self, sb: Sandbox) -> str:
        """Copilot's own log of the run (hook stderr shows up only there)."""
        logs = sorted((sb.root / "copilot-logs").glob("*"))
        return "\n".join(p.read_text(errors="replace") for p in logs if p.is_file())


class CopilotClaudeSettings(Copilot):
    """Copilot running the hooks of `.claude/settings.json` (Claude's format and names)."""

    pre_event = "PreToolUse"
    post_event = "PostToolUse"
    matcher = "Bash"
    volatile = ("session_id", "timestamp")
    # Installed by `hooktui install claude-code` (the settings are Claude's), run by Copilot.
    install_runtime = "claude-code"

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.project / ".claude" / "settings.json"

    def write_settings(
        self,
        sb: Sandbox,
        pre: str,
        post: str,
        pre_timeout: int = 30,
        pre_handler: dict[str, Any] | None = None,
        post_handler: dict[str, Any] | None = None,
    ) -> None:
        settings = claude_layout(self.matcher, pre, post, pre_timeout, pre_handler, post_handler)
        path = self.settings_path(sb)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n")

    def _handlers(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"_event": event, "handler": handler}
            for event, groups in data["hooks"].items()
            for group in groups
            for handler in group["hooks"]
        ]

    def commands(self, settings: bytes) -> list[str]:
        hooks = json.loads(settings)["hooks"]
        return [hooks[e][0]["hooks"][0]["command"] for e in (self.pre_event, self.post_event)]


class CopilotAnthropic(Copilot):
    """Copilot against an Anthropic-style provider (the Messages API)."""

    provider = "anthropic"
    model = "claude-sonnet-4.6"

    def tool_result(self, run: Run) -> dict[str, Any]:
        finals = run.of_kind("final")
        assert len(finals) == 1, run.describe()
        recent = since_assistant(finals[0]["body"]["messages"])
        blocks = [b for m in recent if isinstance(m.get("content"), list) for b in m["content"]]
        results = [b for b in blocks if b.get("type") == "tool_result"]
        assert len(results) == 1, blocks
        text = results[0].get("content")
        if isinstance(text, list):
            text = "".join(part.get("text", "") for part in text)
        notes = [b.get("text", "") for b in blocks if b.get("type") == "text"]
        return {"content": text, "is_error": bool(results[0].get("is_error")), "notes": notes}

    def result_for(self, body: dict[str, Any], call_id: str) -> dict[str, Any] | None:
        return anthropic_result_for(body, call_id)


class QwenCode(ChatDriver):
    """Qwen Code with its hooks in `<project>/.qwen/settings.json` (Claude's format)."""

    runtime = "qwen-code"
    tool = "run_shell_command"
    matcher = "run_shell_command"
    pre_event = "PreToolUse"
    post_event = "PostToolUse"
    # tool_use_id: Qwen makes its own per run (toolu_<ms>_<random>); tool_call_id is the model's.
    volatile = (
        "session_id",
        "transcript_path",
        "timestamp",
        "prompt_id",
        "tool_use_id",
        "duration_ms",
    )
    volatile_env = ("QWEN_CODE_SESSION_ID", "QWEN_CODE_LAUNCHER_PID")

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.project / ".qwen" / "settings.json"

    def write_settings(
        self,
        sb: Sandbox,
        pre: str,
        post: str,
        pre_timeout: int = 30,
        pre_handler: dict[str, Any] | None = None,
        post_handler: dict[str, Any] | None = None,
    ) -> None:
        settings = claude_layout(self.matcher, pre, post, pre_timeout, pre_handler, post_handler)
        path = self.settings_path(sb)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n")
        self._user_settings(sb)

    def _user_settings(self, sb: Sandbox) -> None:
        """~/.qwen/settings.json: no update checks, no statistics, the OpenAI auth."""
        user = {
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "security": {"auth": {"selectedType": "openai"}},
        }
        path = sb.home / ".qwen" / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(user, indent=2) + "\n")

    _handlers = CopilotClaudeSettings._handlers

    def commands(self, settings: bytes) -> list[str]:
        hooks = json.loads(settings)["hooks"]
        return [hooks[e][0]["hooks"][0]["command"] for e in (self.pre_event, self.post_event)]

    def env(self, sb: Sandbox) -> dict[str, str]:
        return base_env(sb.home) | {
            "OPENAI_BASE_URL": f"http://127.0.0.1:{PORT}/v1",
            "OPENAI_API_KEY": "sk-test",
            "OPENAI_MODEL": "gpt-4.1",
            "QWEN_TELEMETRY_ENABLED": "false",
            "QWEN_USAGE_STATISTICS_ENABLED": "false",
            "QWEN_CODE_DISABLE_PRECONNECT": "1",
        }

    def argv(self, sb: Sandbox, prompt: str = "run the command") -> list[str]:
        return [
            str(cli_path(self.cli)),
            prompt,
            "--auth-type",
            "openai",
            "-m",
            "gpt-4.1",
            "--approval-mode",
            "yolo",
            "-o",
            "json",
        ]

    def tool_input(self, command: str) -> dict[str, Any]:
        return {"command": command, "description": "leave a marker"}

    def normalize_request(self, request: dict[str, Any]) -> dict[str, Any]:
        # The command's output again (see normalize): PostToolUse carries it too.
        if "tool_response" in request:
            request = {**request, "tool_response": "<the command's output>"}
        return request

    def normalize(self, content: str) -> str:
        # The output of the command itself is the tool's business, and under load
        # Qwen Code now and then reports "(empty)" for an `echo` (seen here): the
        # markers tell whether the command ran; the rest of the result stays compared.
        content = re.sub(r"(?m)^Output: .*$", "Output: <output>", content)
        return re.sub(r"Process Group PGID: \d+", "Process Group PGID: N", content)


COPILOT = Copilot()
COPILOT_CLAUDE = CopilotClaudeSettings()
COPILOT_ANTHROPIC = CopilotAnthropic()
QWEN = QwenCode()
CHAT_DRIVERS: dict[str, ChatDriver] = {"copilot": COPILOT, "qwen-code": QWEN}
