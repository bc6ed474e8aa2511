"""The record describes itself (v2): the canonical call, the runtime's version, the
timeout the runtime applies and whether a failure of the hook blocks the action."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from hooktui.tap import model
from hooktui.tap.canonical import Call
from hooktui.tap.install import settings as install
from hooktui.tap.install.wrapper import read_shell
from hooktui.tap.record.digest import digest_marker
from hooktui.tap.record.recorder import build_record, encode_line
from hooktui.tap.record.tapcall import Captured, TapCall
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tap.runtimes.descriptor import TimeoutRule, Timeouts, in_force, version_text

from tests.conftest import HOOKTUI, wait_for_records
from tests.tap.fixtures import names, request

ALL_FIXTURES = names("")


def built(raw: dict | bytes, *, stdout: bytes = b"", **kw) -> model.Record:
    data = raw if isinstance(raw, bytes) else json.dumps(raw).encode()
    kw.setdefault("exit_code", 0)
    call = TapCall(argv=["guard"], label="g", request=data, stdout=Captured(stdout), **kw)
    return model.decode_record(encode_line(build_record(call, tap_version="9.9")))


# --- the canonical call --------------------------------------------------


@pytest.mark.parametrize("fixture", ALL_FIXTURES)
def test_the_record_holds_the_call_its_runtime_reads(fixture: str) -> None:
    record = built(request(fixture), capture="full")
    assert record.v == model.SCHEMA_VERSION == 2
    expected = ADAPTERS[record.runtime].parse(request(fixture))
    assert record.call == expected
    line = json.loads(encode_line(build_record(TapCall(argv=["g"], request=b"{}"))))
    for name in ("prompt", "tool_input", "tool_output", "is_error", "runtime_version"):
        assert name in line  # written even when empty: a reader never guesses


def test_a_secret_in_the_tool_input_is_redacted_in_the_call_and_the_request() -> None:
    req = request("claude_pre_bash")
    req["tool_input"]["command"] = "curl -u admin:hunter22secret https://x.io"
    record = built(req)
    assert "hunter22secret" not in json.dumps(record.tool_input)
    assert record.tool_input == record.request["tool_input"]
    pointers = {r.pointer for r in record.redactions}
    assert {"/tool_input/command", "/request/tool_input/command"} <= pointers


def test_digest_capture_digests_the_call_as_it_digests_the_request() -> None:
    prompt = built(request("claude_prompt"), capture="digest")
    assert prompt.prompt == digest_marker(request("claude_prompt")["prompt"])
    assert prompt.prompt == prompt.request["prompt"]
    post = built(request("claude_post_bash"), capture="digest")
    assert post.tool_output == digest_marker(request("claude_post_bash")["tool_response"])
    assert post.tool_output == post.request["tool_response"]
    # fastpace nests its prompt in the tool input: digested there too.
    req = request("fastpace_pre_seed")
    req["tool_input"] = {"prompt": "summarise the quarterly numbers for me", "depth": 2}
    nested = built(req, capture="digest")
    assert nested.tool_input == nested.request["tool_input"]
    assert nested.tool_input["prompt"] == digest_marker(req["tool_input"]["prompt"])


# --- the runtime's version ------------------------------------------------


def test_the_version_claude_code_tells_its_hooks_is_recorded(monkeypatch) -> None:
    monkeypatch.setenv("AI_AGENT", "claude-code_2-1-332_harness")
    assert built(request("claude_pre_bash")).runtime_version == "2.1.332"
    # Another agent's AI_AGENT says nothing about Claude Code; other runtimes have none.
    monkeypatch.setenv("AI_AGENT", "some-agent_9-9")
    assert built(request("claude_pre_bash")).runtime_version == ""
    monkeypatch.setenv("AI_AGENT", "claude-code_2-1-332_harness")
    assert built(request("codex_pre_bash")).runtime_version == ""


def test_version_text() -> None:
    assert version_text("2-1-332_harness") == "2.1.332"
    assert version_text("v1.0.102") == "1.0.102"
    assert version_text("0.24.4\n") == "0.24.4"
    assert version_text("harness") == ""
    assert in_force("2.1.295", "2.1.332") and not in_force("2.1.295", "2.1.197")
    assert in_force("2.1.295", "") and in_force("", "1.0")
    assert in_force("2.1.295", "2.1.295") and not in_force("2.10.0", "2.9.9")


# --- the effective timeout -------------------------------------------------


def test_a_configured_timeout_is_recorded_as_configured() -> None:
    hook = built(request("claude_pre_bash"), timeout_ms=30_000).hook
    assert (hook.timeout_ms, hook.timeout_source) == (30_000, "configured")


def test_without_one_the_runtimes_default_for_the_event_is_recorded() -> None:
    hook = built(request("claude_pre_bash")).hook
    assert (hook.timeout_ms, hook.timeout_source) == (600_000, "default")
    # install passed its default: the runtime's rules still say which it is.
    hook = built(request("codex_pre_bash"), timeout_ms=1234, timeout_default=True).hook
    assert (hook.timeout_ms, hook.timeout_source) == (ADAPTERS["codex"].timeout_for(""), "default")
    # A runtime with no default, and no timeout given: nothing is known.
    hook = built(b"plain text").hook
    assert (hook.timeout_ms, hook.timeout_source) == (None, "")
    hook = built(b"plain text", timeout_ms=900, timeout_default=True).hook
    assert (hook.timeout_ms, hook.timeout_source) == (900, "default")


def test_timeout_rules_hold_from_their_version() -> None:
    timeouts = Timeouts(
        default_ms=600_000,
        rules=(TimeoutRule(event="UserPromptSubmit", ms=30_000, since="2.1.300"),),
    )
    assert timeouts.default_for("UserPromptSubmit", "command", "2.1.332") == 30_000
    assert timeouts.default_for("UserPromptSubmit", "command", "") == 30_000  # the newest
    assert timeouts.default_for("UserPromptSubmit", "command", "2.1.197") == 600_000
    assert timeouts.default_for("PreToolUse", "command", "2.1.332") == 600_000


# --- fails open or closed ---------------------------------------------------


def test_a_hook_fails_open_or_closed_by_the_runtimes_rules_and_its_settings(monkeypatch):
    assert built(request("claude_pre_bash")).hook.fails == "open"
    assert built(request("claude_pre_bash"), fail_closed=True).hook.fails == "closed"
    assert built(request("basis_pre_seed")).hook.fails == "closed"  # basis always blocks
    # Claude Code ignores onFailure at Stop, and before 2.1.295.
    assert built(request("claude_stop"), fail_closed=True).hook.fails == "open"
    monkeypatch.setenv("AI_AGENT", "claude-code_2-1-197_harness")
    assert built(request("claude_pre_bash"), fail_closed=True).hook.fails == "open"
    # A runtime with no such setting reads none.
    assert built(request("codex_pre_bash"), fail_closed=True).hook.fails == "open"


def test_fails_closed_asks_the_runtimes_own_reading_of_a_crash() -> None:
    claude = ADAPTERS["claude-code"]
    pre = Call(runtime="claude-code", event="pre_tool_use", native_event="PreToolUse")
    assert not claude.fails_closed(pre)
    assert claude.fails_closed(pre, configured=True, version="2.1.332")
    assert not claude.fails_closed(pre, configured=True, version="2.1.294")


# --- through the real tap and install ---------------------------------------


def test_the_tap_passes_its_options_to_the_record(tmp_path) -> None:
    stream = tmp_path / "s.jsonl"
    argv = [HOOKTUI, "tap", "--wait", "--stream", str(stream), "--timeout-ms", "5000"]
    argv += ["--timeout-default", "--fail-closed", "--runtime", "claude-code", "--", "true"]
    env = dict(os.environ, AI_AGENT="claude-code_2-1-332_harness")
    req = request("claude_prompt")
    proc = subprocess.run(
        argv, input=json.dumps(req).encode(), env=env, capture_output=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    [rec] = wait_for_records(stream, 1)
    assert rec["runtime_version"] == "2.1.332"
    assert rec["hook"]["timeout_source"] == "default"
    assert rec["hook"]["timeout_ms"] == ADAPTERS["claude-code"].timeout_for("UserPromptSubmit")
    assert rec["hook"]["fails"] == "closed"
    assert rec["prompt"] == req["prompt"]


def test_install_tells_the_tap_what_the_settings_say(tmp_path) -> None:
    path = tmp_path / "settings.json"
    handlers = [
        {"type": "command", "command": "guard.sh", "timeout": 30, "onFailure": "block"},
        {"type": "command", "command": "other.sh"},
        {"type": "command", "command": "third.sh", "onFailure": "continue"},
    ]
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": handlers}]}}))
    opts = install.Options(runtime="claude-code", hooktui=HOOKTUI)
    install.install(path, opts)
    written = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"]
    args = [read_shell(h["command"]).args for h in written]
    assert "--fail-closed" in args[0] and "--timeout-default" not in args[0]
    assert args[0][args[0].index("--timeout-ms") + 1] == "30000"
    assert "--fail-closed" not in args[1] and "--timeout-default" in args[1]
    assert "--fail-closed" not in args[2]
    assert [read_shell(h["command"]).original for h in written] == [
        "guard.sh",
        "other.sh",
        "third.sh",
    ]


def test_a_hooks_own_variables_from_its_settings_are_recorded(tmp_path) -> None:
    # Gemini CLI 0.61 runs a hook with its handler's `env` merged over its own
    # variables (its bundled hook runner, 0.61, read 2026-12-03): install names them.
    path = tmp_path / "settings.json"
    stream = tmp_path / "s.jsonl"
    hook = {"type": "command", "command": "cat >/dev/null", "env": {"GUARD_MODE": "strict"}}
    path.write_text(json.dumps({"hooks": {"BeforeTool": [{"hooks": [hook]}]}}))
    opts = install.Options(runtime="gemini-cli", hooktui=HOOKTUI, stream=str(stream))
    install.install(path, opts)
    [written] = json.loads(path.read_text())["hooks"]["BeforeTool"][0]["hooks"]
    args = read_shell(written["command"]).args
    assert args[args.index("--hook-env") + 1] == "GUARD_MODE"
    env = dict(os.environ, GUARD_MODE="strict", HOOKTUI_TAP_WAIT="1", GEMINI_PROJECT_DIR="/p")
    req = {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {}}
    proc = subprocess.run(
        ["bash", "-c", written["command"]], input=json.dumps(req).encode(), env=env, timeout=60
    )
    assert proc.returncode == 0
    [rec] = wait_for_records(stream, 1)
    assert rec["hook"]["env"]["GUARD_MODE"] == "strict"
