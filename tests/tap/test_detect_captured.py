"""Telling the runtimes apart on what the real CLIs sent: every captured payload, with
the environment its runtime gave the hook (tests/tap/fixtures/captured), is detected
as the runtime that sent it, and never as another; the environment wins over an
install's `--runtime` (Copilot runs the hooks of Claude Code's settings)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hooktui.tap.runtimes import ADAPTERS, detect, reader_of

from tests.conftest import HOOKTUI, wait_for_records

CAPTURED = Path(__file__).parent / "fixtures" / "captured"
FIXTURES = sorted(CAPTURED.rglob("*.json"))


def _load(path: Path) -> tuple[dict, dict, str]:
    data = json.loads(path.read_text())
    return data["request"], data["env"], data["runtime"]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_captured_call_is_detected_as_the_runtime_that_sent_it(path):
    request, env, runtime = _load(path)
    assert detect(request, env).name == runtime
    # Whatever runtime's settings install wrapped it for, a runtime that marks its
    # hooks (Gemini CLI does not) is named as the caller.
    if ADAPTERS[runtime].marks(env):
        for forced in ADAPTERS:
            assert reader_of(request, forced, env).name == runtime, forced


# Payload alone: enough for the new runtimes' calls but these, which only the
# environment tells apart (PROTOCOLS.md: "payload shape alone cannot decide").
PAYLOAD_ALONE_CANNOT = {
    "copilot/SessionEnd.claude-settings.json",  # Gemini CLI's SessionEnd, to the key
    "claude-code/MessageDisplay.json",  # turn_id: Codex's mark
    "claude-code-2.1.197/MessageDisplay.json",
    "codex/SessionEnd.json",  # neither model nor turn_id: Claude Code's shape
}


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_payload_alone(path):
    request, _, runtime = _load(path)
    name = f"{path.parent.name}/{path.name}"
    if name in PAYLOAD_ALONE_CANNOT:
        assert detect(request).name != runtime  # if this passes, drop it from the list
    else:
        assert detect(request).name == runtime


def _env_of(runtime_folder: str) -> dict:
    return json.loads(next((CAPTURED / runtime_folder).glob("*.json")).read_text())["env"]


NESTED = [
    # A runtime started from another one's shell tool inherits its variables: the
    # payload must agree with the environment's runtime.
    ("claude-code/PreToolUse.json", "copilot", "claude-code"),
    ("claude-code/PreToolUse.json", "qwen-code", "claude-code"),
    ("copilot/PreToolUse.claude-settings.json", "claude-code", "copilot"),
    ("copilot/preToolUse.json", "qwen-code", "copilot"),
    ("qwen-code/PreToolUse.json", "copilot", "qwen-code"),
    ("qwen-code/PreToolUse.json", "claude-code", "qwen-code"),
    ("gemini-cli/BeforeTool.json", "claude-code", "gemini-cli"),
    ("codex/PreToolUse.json", "claude-code", "codex"),
]


@pytest.mark.parametrize(("fixture", "outer", "runtime"), NESTED)
def test_inherited_variables_do_not_take_over(fixture, outer, runtime):
    request, env, _ = _load(CAPTURED / fixture)
    assert detect(request, {**_env_of(outer), **env}).name == runtime


def test_no_environment_and_odd_ones_fall_back_to_the_payload():
    request, _, _ = _load(CAPTURED / "copilot/PreToolUse.claude-settings.json")
    assert detect(request, {}).name == "copilot"
    assert detect(request, {"COPILOT_CLI": "0"}).name == "copilot"
    assert reader_of(request, "claude-code", {}).name == "claude-code"  # forced, nothing else
    assert detect("not json", {"COPILOT_CLI": "1"}).name == "unknown"


def test_the_tap_records_the_runtime_that_called_not_the_one_installed_for(tmp_path):
    """A hook `install claude-code` wrapped, run by Copilot: the record names Copilot and
    judges by its rules (exit 1 at PreToolUse: Copilot fails closed, Claude proceeds)."""
    request, env, _ = _load(CAPTURED / "copilot/PreToolUse.claude-settings.json")
    stream = tmp_path / "s.jsonl"
    argv = [HOOKTUI, "tap", "--runtime", "claude-code", "--stream", str(stream)]
    hook = ["--", "sh", "-c", "echo oops >&2; exit 1"]
    for environ in (env, {}):
        done = subprocess.run(
            [*argv, *hook],
            input=json.dumps(request).encode(),
            env={**os.environ, **environ},
            capture_output=True,
            timeout=30,
        )
        assert (done.returncode, done.stderr) == (1, b"oops\n")  # the answer is untouched
    # Two detached recorders: their records may land in either order.
    by_runtime = {r["runtime"]: r for r in wait_for_records(stream, 2)}
    copilot, claude = by_runtime["copilot"], by_runtime["claude-code"]
    assert (copilot["runtime"], copilot["runtime_version"]) == ("copilot", "1.0.102")
    assert (copilot["decision"], copilot["effect"]) == ("failure", "blocks")
    assert copilot["hook"]["fails"] == "closed"
    assert copilot["hook"]["timeout_ms"] == 30_000  # Copilot's default, not Claude's 600 s
    assert (claude["runtime"], claude["decision"], claude["effect"]) == (
        "claude-code",
        "failure",
        "proceeds",
    )
