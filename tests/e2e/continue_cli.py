"""Driving Continue CLI: the real `cn` against a fake model, and its own hook runner.

`cn` (1.5.47) runs headless (`-p`) offline against a local OpenAI-compatible model
set in its config.yaml (the fake Chat Completions server), with its shell tool
`Bash`. It loads hooks but fires none (ORACLE.md), so what it makes of a hook's
answer is read from its runner (continue_runner.mjs: the shipped sources, as its
hook service calls them), fed the requests it builds (fireHook.ts).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.drivers import ORIGINAL
from tests.e2e.harness import PORT, Run, Sandbox, base_env, cli_path, node_modules

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "continue_runner.mjs"
CLI = "continue-cli"
# Every event 1.5.47 names (src/hooks/types.ts HOOK_EVENT_NAMES).
EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "UserPromptSubmit",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "ConfigChange",
    "TeammateIdle",
    "TaskCompleted",
    "WorktreeCreate",
    "WorktreeRemove",
)


def config_yaml(sb: Sandbox) -> Path:
    """Its config: one local OpenAI-compatible model, the fake server."""
    path = sb.root / "continue-config.yaml"
    path.write_text(
        "name: e2e\nversion: 1.0.0\nschema: v1\nmodels:\n"
        "  - name: fake\n    provider: openai\n    model: gpt-4.1\n"
        f"    apiBase: http://127.0.0.1:{PORT}/v1\n    apiKey: sk-test\n    roles: [chat]\n"
    )
    return path


def env(sb: Sandbox) -> dict[str, str]:
    return base_env(sb.home) | {"CONTINUE_GLOBAL_DIR": str(sb.home / ".continue")}


def run_cli(sb: Sandbox, name: str, command: str = ORIGINAL) -> Run:
    """One headless session: the model asks for one Bash call running `command`."""
    argv = ["node", str(cli_path(CLI)), "-p", "run the command"]
    argv += ["--config", str(config_yaml(sb)), "--auto"]
    script = {"tool": "Bash", "tool_input": {"command": command}}
    return sb.run(name, CLI, argv, env(sb), script, timeout=90)


def hooks_settings(handlers: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Claude-layout settings: {event: [handler, ...]} under one matcher group each."""
    return {"hooks": {event: [{"hooks": list(hs)}] for event, hs in handlers.items()}}


# --- its own runner ----------------------------------------------------------------------


def pre_tool_use(sb: Sandbox, command: str, tool_use_id: str) -> dict[str, Any]:
    """The request firePreToolUse builds (fireHook.ts getCommonFields + the tool's)."""
    return {
        "session_id": "e2e-session",
        "transcript_path": "",
        "cwd": str(sb.project),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": tool_use_id,
    }


@dataclass
class Fired:
    """What Continue's runner made of each input, and which hooks saw what."""

    results: list[dict[str, Any]]
    hook_calls: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def fire(sb: Sandbox, inputs: list[dict[str, Any]], timeout: float = 120) -> Fired:
    """Run Continue's runner over `inputs`, with the settings files as they are now."""
    folder = sb.root / "runner"
    folder.mkdir(exist_ok=True)
    (folder / "inputs.json").write_text(json.dumps(inputs))
    out = folder / "results.json"
    out.unlink(missing_ok=True)
    package = cli_path(CLI).parents[1]
    argv = ["node", str(RUNNER), str(package), str(node_modules() / "amaro")]
    argv += [str(sb.project), str(sb.home), str(folder / "inputs.json"), str(out)]
    proc = subprocess.run(
        argv, capture_output=True, text=True, timeout=timeout, env=env(sb), cwd=sb.project
    )
    assert proc.returncode == 0 and out.exists(), f"runner failed: {proc.stderr[-2000:]}"
    return Fired(json.loads(out.read_text()), sb.hook_calls())


def reading(result: dict[str, Any]) -> dict[str, Any]:
    """A runner result without what differs between a bare and a tapped run."""
    keep = ("blocked", "blockReason", "additionalContext", "permissionDecision")
    found = {k: result.get(k) for k in (*keep, "updatedInput", "threw")}
    found["results"] = [
        {k: r.get(k) for k in ("output", "stdout", "stderr", "exitCode", "blocked", "blockReason")}
        for r in result.get("results", [])
    ]
    return found


def lets_through(result: dict[str, Any]) -> bool:
    """Would Continue run the tool? (A block, or an ask it cannot put to anyone, stops it.)"""
    return not result.get("blocked") and result.get("permissionDecision") != "ask"
