"""Telling runtimes apart, the registry, and judge_request (the entry point of tap and replay)."""

from __future__ import annotations

import pytest
from hooktui.tap.runtimes import (
    ADAPTERS,
    RUNTIMES,
    Adapter,
    detect,
    get_adapter,
    judge_request,
)

from tests.tap.fixtures import names, out, request

# A runtime's request fixtures are named after its short label: claude_pre_bash, ...
PREFIXES = {f"{ADAPTERS[name].label}_": name for name in RUNTIMES}
ALL_FIXTURES = [(name, runtime) for prefix, runtime in PREFIXES.items() for name in names(prefix)]


@pytest.mark.parametrize(("fixture", "runtime"), ALL_FIXTURES, ids=[f for f, _ in ALL_FIXTURES])
def test_every_fixture_is_detected_as_its_runtime(fixture, runtime):
    assert detect(request(fixture)).name == runtime


TIE_BREAKERS = [
    # PreToolUse-style names: turn_id/model -> codex; metadata/Mutation -> fastpace; else claude
    ("pascal-plain", {"hook_event_name": "PreToolUse", "tool_name": "Bash"}, "claude-code"),
    ("pascal-turn-id", {"hook_event_name": "PreToolUse", "turn_id": "t"}, "codex"),
    ("pascal-model", {"hook_event_name": "PostToolUse", "model": "gpt-5"}, "codex"),
    ("pascal-metadata", {"hook_event_name": "PreToolUse", "metadata": {}}, "fastpace"),
    (
        "metadata-and-turn-id",
        {"hook_event_name": "PreToolUse", "metadata": {}, "turn_id": "t"},
        "codex",
    ),
    ("mutation-with-model", {"hook_event_name": "Mutation", "model": "m"}, "fastpace"),
    ("mutation-bare", {"hook_event_name": "Mutation"}, "fastpace"),
    ("metadata-not-object", {"hook_event_name": "PreToolUse", "metadata": "x"}, "claude-code"),
    ("claude-unknown-pascal", {"hook_event_name": "PreCompact"}, "claude-code"),
    # hook_schema wins over everything
    ("schema-and-before-tool", {"hook_schema": 1, "hook_event_name": "BeforeTool"}, "basis"),
    ("schema-and-conversation", {"hook_schema": 2, "conversation_id": "c"}, "basis"),
    # Gemini names before Cursor's conversation_id
    (
        "before-tool-and-conversation",
        {"hook_event_name": "BeforeTool", "conversation_id": "c"},
        "gemini-cli",
    ),
    ("after-agent", {"hook_event_name": "AfterAgent"}, "gemini-cli"),
    ("pre-compress", {"hook_event_name": "PreCompress"}, "gemini-cli"),
    # Names both use: Gemini adds a timestamp
    (
        "session-start-timestamp",
        {"hook_event_name": "SessionStart", "timestamp": "t"},
        "gemini-cli",
    ),
    ("session-start-plain", {"hook_event_name": "SessionStart"}, "claude-code"),
    ("notification-timestamp", {"hook_event_name": "Notification", "timestamp": "t"}, "gemini-cli"),
    # camelCase or conversation_id -> cursor
    ("camel-stop", {"hook_event_name": "stop"}, "cursor"),
    ("camel-pre-tool", {"hook_event_name": "preToolUse", "model": "gpt"}, "cursor"),
    ("conversation-pascal", {"hook_event_name": "PreToolUse", "conversation_id": "c"}, "cursor"),
    ("conversation-only", {"conversation_id": "c"}, "cursor"),
    # Nothing to go on
    ("empty-object", {}, "unknown"),
    ("no-event-name", {"tool_name": "Bash", "tool_input": {}}, "unknown"),
    ("event-not-string", {"hook_event_name": 3}, "unknown"),
    ("event-snake-case", {"hook_event_name": "pre_tool_use"}, "unknown"),
    ("event-empty", {"hook_event_name": ""}, "unknown"),
    ("event-with-space", {"hook_event_name": "Pre Tool"}, "unknown"),
]


@pytest.mark.parametrize(
    ("request_", "runtime"), [c[1:] for c in TIE_BREAKERS], ids=[c[0] for c in TIE_BREAKERS]
)
def test_tie_breakers(request_, runtime):
    assert detect(request_).name == runtime


@pytest.mark.parametrize(
    "request_", ["not json at all", "", "{truncated", None, 42, 1.5, True, [], [{"hook_schema": 1}]]
)
def test_non_objects_are_unknown(request_):
    assert detect(request_).name == "unknown"


def test_registry():
    assert set(ADAPTERS) == {*RUNTIMES, "unknown"}
    for name, adapter in ADAPTERS.items():
        assert isinstance(adapter, Adapter)
        assert adapter.name == name
        assert get_adapter(name) is adapter


@pytest.mark.parametrize("bad", ["claude", "Claude-Code", "", "gemini", None])
def test_get_adapter_rejects_unknown_names_clearly(bad):
    with pytest.raises(ValueError, match="unknown runtime") as info:
        get_adapter(bad)
    assert "claude-code" in str(info.value)  # the message lists what is accepted


def test_judge_request_detects_parses_and_judges():
    adapter, call, verdict = judge_request(request("codex_pre_bash"), out(stderr="no", exit=2))
    assert adapter.name == "codex" and call.runtime == "codex"
    assert (verdict.decision, verdict.reason) == ("deny", "no")


def test_judge_request_forced_runtime_overrides_detection():
    # A Claude-looking request judged as Gemini: exit 2 with no output proceeds there.
    req = request("claude_pre_bash")
    assert judge_request(req, out(exit=2))[2].decision == "deny"
    adapter, call, verdict = judge_request(req, out(exit=2), runtime="gemini-cli")
    assert adapter.name == "gemini-cli" and call.runtime == "gemini-cli"
    assert verdict.decision == "allow"


def test_judge_request_forced_runtime_on_text_request():
    adapter, call, verdict = judge_request("raw text", out(), runtime="basis")
    assert adapter.name == "basis" and call.event == "other"
    assert (verdict.decision, verdict.failure, verdict.effect) == (
        "failure",
        "empty_output",
        "blocks",
    )


def test_judge_request_unknown_forced_name_falls_back_to_detection():
    adapter, _, verdict = judge_request(
        request("cursor_shell"), out({"permission": "deny"}), "nope"
    )
    assert adapter.name == "cursor" and verdict.decision == "deny"


@pytest.mark.parametrize(
    ("outcome", "decision", "failure"),
    [
        (out(), "allow", ""),
        (out("plain words"), "allow", ""),
        (out(stderr="stop", exit=2), "deny", ""),
        (out(exit=1), "failure", "exit_code"),
        (out(signal=9), "failure", "signal"),
    ],
)
def test_judge_request_text_request_is_unknown(outcome, decision, failure):
    adapter, call, verdict = judge_request("this is not JSON", outcome)
    assert adapter.name == "unknown"
    assert (call.runtime, call.event) == ("unknown", "other")
    assert (verdict.decision, verdict.failure) == (decision, failure)


class _Broken(Adapter):
    """An adapter with a bug: judge_request must survive it."""

    def detect(self, request):
        return True

    def parse(self, request):
        raise KeyError("tool_input")

    def judge(self, call, outcome):  # pragma: no cover - never reached
        raise AssertionError


def test_judge_request_survives_a_broken_adapter(monkeypatch):
    monkeypatch.setitem(ADAPTERS, "claude-code", _Broken(name="claude-code"))
    adapter, call, verdict = judge_request(request("claude_pre_bash"), out(exit=1))
    assert adapter.name == "unknown" and call.runtime == "unknown"
    assert call.tool_name == "Bash"  # the unknown adapter's best-effort reading
    assert verdict.decision == "failure" and verdict.effect == "proceeds"
    assert "claude-code adapter could not read this call" in verdict.failure_detail
    # A successful outcome is still read (allow), with no failure noise added.
    _, _, ok = judge_request(request("claude_pre_bash"), out())
    assert ok.decision == "allow" and ok.failure_detail == ""


def test_detect_survives_a_broken_detector(monkeypatch):
    class Exploding(_Broken):
        def detect(self, request):
            raise RuntimeError("bug")

    monkeypatch.setitem(ADAPTERS, "basis", Exploding(name="basis"))
    assert detect({"hook_schema": 1}).name == "unknown"
