"""How to drive each real CLI: its settings, environment, command line, and
where the tool's result shows up in what it sends the model next.

The tool call every scenario makes is the same shell command, run in the
project folder: it leaves a marker file, so the test sees whether the tool ran
(and which command: the original or the hook's rewrite).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from tests.e2e.fake_models import claude_since_assistant
from tests.e2e.fake_wire import anthropic_result_for
from tests.e2e.harness import PORT, Run, Sandbox, base_env, cli_path

ORIGINAL = "touch marker-original && echo original-ran"
REWRITTEN = "touch marker-rewritten && echo rewritten-ran"
MARKERS = ("marker-original", "marker-rewritten")


class Driver:
    runtime: str
    tool: str  # the runtime's shell tool, as hooks see it
    matcher: str = ""  # the matcher the settings use for it
    pre_event: str
    post_event: str
    # Request keys that differ from run to run whatever the hook does.
    volatile: tuple[str, ...] = ()
    # Variables the runtime gives its hooks that differ from run to run.
    volatile_env: tuple[str, ...] = ()
    # What `hooktui install` must tell the user about this runtime, if anything.
    install_note: str = ""
    # Which pinned CLI runs (harness.CLIS); the runtime's own name unless set.
    cli_name: str = ""

    @property
    def cli(self) -> str:
        return self.cli_name or self.runtime

    def settings_path(self, sb: Sandbox) -> Path:
        raise NotImplementedError

    def write_settings(self, sb: Sandbox, pre: str, post: str, pre_timeout: int = 30) -> None:
        """Settings with one PreToolUse and one PostToolUse command hook (timeouts in s)."""
        raise NotImplementedError

    def settings_bytes(self, sb: Sandbox) -> bytes:
        """The settings as install found and left them (a runtime whose hooks are
        files gives its hook folder as one value)."""
        return self.settings_path(sb).read_bytes()

    def env(self, sb: Sandbox) -> dict[str, str]:
        raise NotImplementedError

    def argv(self, sb: Sandbox) -> list[str]:
        raise NotImplementedError

    def tool_input(self, command: str) -> dict[str, Any]:
        raise NotImplementedError

    def tool_result(self, run: Run) -> dict[str, Any]:
        """What the model was sent back for the tool call: {content, is_error}."""
        raise NotImplementedError

    def commands(self, settings: bytes) -> list[str]:
        """The [pre, post] hook commands configured in a settings file."""
        raise NotImplementedError

    def where(self, sb: Sandbox) -> tuple[list[str], dict[str, str]]:
        """How a user points `hooktui install` at these settings without --settings:
        (arguments, environment); install runs in the project folder."""
        raise NotImplementedError

    def ran_input(self, post_request: dict[str, Any]) -> Any:
        """The tool input a post-tool request says the tool ran with."""
        return post_request.get("tool_input", post_request.get("toolArgs"))

    def normalize(self, content: str) -> str:
        """A tool result without what differs between two identical runs."""
        return content

    def normalize_request(self, request: dict[str, Any]) -> dict[str, Any]:
        """A hook's request without what differs between two identical runs."""
        return request

    def script(self, command: str = ORIGINAL) -> dict[str, Any]:
        """What the fake model asks for: one shell tool call running `command`."""
        return {"tool": self.tool, "tool_input": self.tool_input(command)}

    def run(self, sb: Sandbox, name: str, command: str = ORIGINAL) -> Run:
        return sb.run(name, self.runtime, self.argv(sb), self.env(sb), self.script(command))


class ClaudeCode(Driver):
    runtime = "claude-code"
    tool = "Bash"
    matcher = "Bash"
    pre_event = "PreToolUse"
    post_event = "PostToolUse"
    # duration_ms: how long the tool took (PostToolUse).
    volatile = ("session_id", "transcript_path", "prompt_id", "duration_ms")
    # 2.1.332: the CLI's pid and its private messaging socket (and its token).
    volatile_env = ("CLAUDE_PID", "CLAUDE_CODE_MESSAGING_SOCKET", "CLAUDE_CODE_MESSAGING_TOKEN")

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
        """`pre_handler`, `post_handler`: more keys for the handler (`onFailure`, `args`);
        a `timeout` of None there leaves the runtime's default."""

        def hooks(command: str, timeout: int, extra: dict[str, Any] | None) -> list[Any]:
            handler = {"type": "command", "command": command, "timeout": timeout, **(extra or {})}
            handler = {k: v for k, v in handler.items() if v is not None}
            return [{"matcher": "Bash", "hooks": [handler]}]

        settings = {
            "hooks": {
                "PreToolUse": hooks(pre, pre_timeout, pre_handler),
                "PostToolUse": hooks(post, 30, post_handler),
            }
        }
        path = self.settings_path(sb)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n")

    def commands(self, settings: bytes) -> list[str]:
        hooks = json.loads(settings)["hooks"]
        return [hooks[event][0]["hooks"][0]["command"] for event in ("PreToolUse", "PostToolUse")]

    def where(self, sb: Sandbox) -> tuple[list[str], dict[str, str]]:
        return [], {"HOME": str(sb.home)}  # the project's .claude/settings.json

    def env(self, sb: Sandbox) -> dict[str, str]:
        return base_env(sb.home) | {
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{PORT}",
            "ANTHROPIC_API_KEY": "sk-test",
            "CLAUDE_CONFIG_DIR": str(sb.home / ".claude"),
            # Without this one Claude Code resolves names outside loopback.
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
        }

    def argv(self, sb: Sandbox) -> list[str]:
        # --allowedTools: the permission rules let the command run, so whether it
        # runs is the hook's doing alone (headless mode would refuse to ask).
        return [
            str(cli_path(self.cli)),
            "-p",
            "run the command",
            "--output-format",
            "json",
            "--allowedTools",
            "Bash",
        ]

    def tool_input(self, command: str) -> dict[str, Any]:
        return {"command": command, "description": "leave a marker"}

    def tool_result(self, run: Run) -> dict[str, Any]:
        finals = run.of_kind("final")
        assert len(finals) == 1, run.describe()
        blocks = [
            b
            for m in claude_since_assistant(finals[0]["body"])
            for b in (m["content"] if isinstance(m.get("content"), list) else [])
        ]
        results = [b for b in blocks if b.get("type") == "tool_result"]
        assert len(results) == 1, blocks
        block = results[0]
        text = block.get("content")
        if isinstance(text, list):  # content blocks: keep their text
            text = "".join(part.get("text", "") for part in text)
        # PostToolUse reasons and added context ride along as text blocks: in the
        # result's message (2.1.197, <system-reminder>) or in a `system` message
        # after it (2.1.332).
        notes = [b.get("text", "") for b in blocks if b.get("type") == "text"]
        return {"content": text, "is_error": bool(block.get("is_error")), "notes": notes}

    def result_for(self, body: dict[str, Any], call_id: str) -> dict[str, Any] | None:
        """The tool result for `call_id` in a request, and the notes after it (batch.py)."""
        return anthropic_result_for(body, call_id)


def _toml_str(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


class Codex(Driver):
    runtime = "codex"
    tool = "Bash"  # what hooks see; the model calls `exec_command`
    matcher = "Bash"
    model_tool = "exec_command"
    pre_event = "PreToolUse"
    post_event = "PostToolUse"
    volatile = ("session_id", "transcript_path", "turn_id", "duration_ms")
    install_note = "trust"  # wrapped hooks must be re-trusted in Codex

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.home / ".codex" / "config.toml"

    def write_settings(self, sb: Sandbox, pre: str, post: str, pre_timeout: int = 30) -> None:
        config = f"""\
model = "gpt-5-e2e"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:{PORT}/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
hooks = true
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false
in_app_updates = false
api_key_model_discovery = false
skill_mcp_dependency_install = false

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = {_toml_str(pre)}
timeout = {pre_timeout}

[[hooks.PostToolUse]]
matcher = "Bash"

[[hooks.PostToolUse.hooks]]
type = "command"
command = {_toml_str(post)}
timeout = 30
"""
        path = sb.home / ".codex" / "config.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(config)

    def commands(self, settings: bytes) -> list[str]:
        hooks = tomllib.loads(settings.decode())["hooks"]
        return [hooks[event][0]["hooks"][0]["command"] for event in ("PreToolUse", "PostToolUse")]

    def where(self, sb: Sandbox) -> tuple[list[str], dict[str, str]]:
        return ["--user"], {"HOME": str(sb.home), "CODEX_HOME": str(sb.home / ".codex")}

    def env(self, sb: Sandbox) -> dict[str, str]:
        return base_env(sb.home) | {
            "CODEX_HOME": str(sb.home / ".codex"),
            "FAKE_API_KEY": "sk-test",
            "RUST_LOG": "error",
        }

    def argv(self, sb: Sandbox) -> list[str]:
        # Hook trust is keyed to a hash of the hook's definition, and wrapping a
        # command changes it: a user re-trusts after install, the test bypasses.
        return [
            str(cli_path(self.cli)),
            "exec",
            "--skip-git-repo-check",
            "--dangerously-bypass-hook-trust",
            "--json",
            "run the command",
        ]

    def tool_input(self, command: str) -> dict[str, Any]:
        return {"command": command}

    def script(self, command: str = ORIGINAL) -> dict[str, Any]:
        return {"tool": self.model_tool, "tool_input": {"cmd": command}}

    def tool_result(self, run: Run) -> dict[str, Any]:
        finals = run.of_kind("final")
        assert len(finals) == 1, run.describe()
        outputs = [
            item
            for item in finals[0]["body"]["input"]
            if isinstance(item, dict) and item.get("type") == "function_call_output"
        ]
        assert len(outputs) == 1, outputs
        # Added context goes in as a developer message after the call.
        items = finals[0]["body"]["input"]
        calls = [i for i, item in enumerate(items) if item.get("type") == "function_call"]
        notes = [
            part.get("text", "")
            for item in items[calls[-1] if calls else 0 :]
            if item.get("type") == "message" and item.get("role") == "developer"
            for part in item.get("content") or []
        ]
        output = outputs[0]["output"]
        if isinstance(output, list):  # content items: keep their text
            output = "".join(part.get("text", "") for part in output)
        elif isinstance(output, dict):
            output = output.get("content", json.dumps(output))
        # The Responses API has no error flag on a function output.
        return {"content": output, "is_error": False, "notes": notes}

    def result_for(self, body: dict[str, Any], call_id: str) -> dict[str, Any] | None:
        """The output of call `call_id` in a request, and the developer notes after it."""
        items = [i for i in body.get("input") or [] if isinstance(i, dict)]
        for item in items:
            if item.get("type") == "function_call_output" and item.get("call_id") == call_id:
                output = item["output"]
                if isinstance(output, list):
                    output = "".join(part.get("text", "") for part in output)
                elif isinstance(output, dict):
                    output = output.get("content", json.dumps(output))
                # Added context goes in as a developer message beside the output.
                start = next(
                    k
                    for k, i in enumerate(items)
                    if i.get("type") == "function_call" and i.get("call_id") == call_id
                )
                notes = []
                for later in items[start + 1 :]:
                    if later.get("type") == "function_call":
                        break
                    if later.get("type") == "message" and later.get("role") == "developer":
                        notes += [part.get("text", "") for part in later.get("content") or []]
                return {"content": output, "is_error": False, "notes": notes}
        return None

    def normalize(self, content: str) -> str:
        # exec_command output opens with a random chunk id and a wall time.
        return re.sub(r"^(Chunk ID|Wall time): .*\n", "", content, flags=re.M)


class GeminiCli(Driver):
    runtime = "gemini-cli"
    tool = "run_shell_command"
    matcher = "run_shell_command"
    pre_event = "BeforeTool"
    post_event = "AfterTool"
    volatile = ("session_id", "transcript_path", "timestamp")
    model = "gemini-2.5-flash"

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.home / ".gemini" / "settings.json"

    def write_settings(self, sb: Sandbox, pre: str, post: str, pre_timeout: int = 30) -> None:
        def hook(command: str, name: str, timeout_s: int = 30) -> dict[str, Any]:
            # Gemini CLI counts hook timeouts in milliseconds.
            return {
                "type": "command",
                "command": command,
                "name": name,
                "timeout": timeout_s * 1000,
            }

        settings = {
            # Keys in their current names: Gemini CLI rewrites a settings file
            # that uses deprecated ones (disableAutoUpdate, ...) on start-up.
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "hooks": {
                "BeforeTool": [
                    {"matcher": self.tool, "hooks": [hook(pre, "e2e-pre", pre_timeout)]}
                ],
                "AfterTool": [{"matcher": self.tool, "hooks": [hook(post, "e2e-post")]}],
            },
        }
        path = self.settings_path(sb)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2) + "\n")

    def commands(self, settings: bytes) -> list[str]:
        hooks = json.loads(settings)["hooks"]
        return [hooks[event][0]["hooks"][0]["command"] for event in ("BeforeTool", "AfterTool")]

    def where(self, sb: Sandbox) -> tuple[list[str], dict[str, str]]:
        return ["--user"], {"HOME": str(sb.home)}  # ~/.gemini/settings.json

    def env(self, sb: Sandbox) -> dict[str, str]:
        return base_env(sb.home) | {
            "GEMINI_API_KEY": "fake",
            "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{PORT}",
            "GEMINI_CLI_HOME": str(sb.home),
            # Headless mode exits 55 in an untrusted folder.
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            # One node process instead of a second one relaunched with a bigger heap.
            "GEMINI_CLI_NO_RELAUNCH": "true",
        }

    def argv(self, sb: Sandbox) -> list[str]:
        return [
            str(cli_path(self.cli)),
            "-m",
            self.model,
            "--approval-mode",
            "yolo",
            "-o",
            "json",
            "-p",
            "run the command",
        ]

    def tool_input(self, command: str) -> dict[str, Any]:
        return {"command": command, "description": "leave a marker"}

    def tool_result(self, run: Run) -> dict[str, Any]:
        finals = run.of_kind("final")
        assert len(finals) == 1, run.describe()
        parts = finals[0]["body"]["contents"][-1]["parts"]
        responses = [p["functionResponse"] for p in parts if "functionResponse" in p]
        assert len(responses) == 1, parts
        response = responses[0].get("response") or {}
        is_error = "error" in response
        content = response.get("error") if is_error else response.get("output")
        if not isinstance(content, str):
            content = json.dumps(response, sort_keys=True)
        return {"content": content, "is_error": is_error}

    def result_for(self, body: dict[str, Any], call_id: str) -> dict[str, Any] | None:
        """The response to the n-th call of the session (call_e2e_<n>_0): Gemini's
        calls carry no id of the model's, so they are matched in order."""
        n = int(call_id.split("_")[2])
        responses = [
            part["functionResponse"]
            for content in body.get("contents") or []
            for part in content.get("parts") or []
            if isinstance(part, dict) and "functionResponse" in part
        ]
        if len(responses) < n:
            return None
        response = responses[n - 1].get("response") or {}
        is_error = "error" in response
        content = response.get("error") if is_error else response.get("output")
        if not isinstance(content, str):
            content = json.dumps(response, sort_keys=True)
        return {"content": content, "is_error": is_error, "notes": []}

    def normalize(self, content: str) -> str:
        return re.sub(r"^Process Group PGID: \d+$", "Process Group PGID: N", content, flags=re.M)


class CodexHooksJson(Codex):
    """Codex with its hooks in CODEX_HOME/hooks.json instead of config.toml."""

    def settings_path(self, sb: Sandbox) -> Path:
        return sb.home / ".codex" / "hooks.json"

    def write_settings(self, sb: Sandbox, pre: str, post: str, pre_timeout: int = 30) -> None:
        super().write_settings(sb, pre, post, pre_timeout)
        config = sb.home / ".codex" / "config.toml"  # the same, less its hooks
        text = config.read_text()
        config.write_text(text[: text.index("[[hooks.PreToolUse]]")])

        def hooks(command: str, timeout: int) -> list[dict[str, Any]]:
            handler = {"type": "command", "command": command, "timeout": timeout}
            return [{"matcher": self.matcher, "hooks": [handler]}]

        settings = {
            "hooks": {"PreToolUse": hooks(pre, pre_timeout), "PostToolUse": hooks(post, 30)}
        }
        self.settings_path(sb).write_text(json.dumps(settings, indent=2) + "\n")

    def commands(self, settings: bytes) -> list[str]:
        hooks = json.loads(settings)["hooks"]
        return [hooks[event][0]["hooks"][0]["command"] for event in ("PreToolUse", "PostToolUse")]


class ClaudeCode197(ClaudeCode):
    """The first pin, 2.1.197, under its npm alias: where 2.1.332 behaves differently."""

    cli_name = "claude-code@2.1.197"


DRIVERS: dict[str, Driver] = {d.runtime: d for d in (ClaudeCode(), Codex(), GeminiCli())}
CODEX_HOOKS_JSON = CodexHooksJson()
CLAUDE_197 = ClaudeCode197()
