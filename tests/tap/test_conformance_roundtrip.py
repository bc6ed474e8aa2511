"""encode -> judge round trips: the native answer an adapter writes makes its runtime reach the verdict.

The demo guards and tests rely on encode; a round trip through the adapter's own
judge (which the conformance tables pin to the runtime's rules) checks both.
"""

from __future__ import annotations

import pytest
from hooktui.tap.canonical import Outcome, Verdict
from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import request

NEW = {"command": "git status --short"}
BASH_OUT = {"stdout": "[redacted]", "stderr": "", "interrupted": False}


def V(decision: str, **fields) -> Verdict:
    return Verdict(decision=decision, **fields)


def F(kind: str, effect: str = "proceeds") -> Verdict:
    return Verdict(decision="failure", failure=kind, effect=effect, failure_detail="x")


ROUND_TRIPS = {
    "claude-code": [
        ("claude_pre_bash", V("allow")),
        ("claude_pre_bash", V("allow", context="fyi")),
        ("claude_pre_bash", V("deny", reason="no")),
        ("claude_pre_bash", V("deny", reason="no", context="see policy")),
        ("claude_pre_bash", V("ask", reason="sure?")),
        ("claude_pre_bash", V("ask", updated_input=NEW)),
        ("claude_pre_bash", V("modify", updated_input=NEW)),
        ("claude_pre_bash", V("modify", updated_input=NEW, context="rewritten")),
        ("claude_pre_bash", F("exit_code")),
        ("claude_post_bash", V("allow")),
        ("claude_post_bash", V("allow", context="c")),
        ("claude_post_bash", V("deny", reason="leak")),
        ("claude_post_bash", V("replace", updated_output=BASH_OUT)),
        ("claude_post_bash", V("replace", updated_output=BASH_OUT, context="c")),
        ("claude_post_mcp", V("replace", updated_output="x", context="c")),
        ("claude_post_edit", V("replace", updated_output={"filePath": "/x"})),
        ("claude_prompt", V("allow", context="ctx")),
        ("claude_prompt", V("deny", reason="no secrets")),
        ("claude_stop", V("deny", reason="run the tests first")),
        ("claude_session_start", V("allow", context="branch main")),
        ("claude_permission", V("allow")),
        ("claude_permission", V("deny", reason="not today")),
        ("claude_permission", V("modify", updated_input=NEW)),
        ("claude_permission", V("ask")),
    ],
    "codex": [
        ("codex_pre_bash", V("allow")),
        ("codex_pre_bash", V("allow", context="fyi")),
        ("codex_pre_bash", V("deny", reason="no rm")),
        ("codex_pre_bash", V("modify", updated_input={"command": "rm -rf build/tmp"})),
        ("codex_pre_bash", F("unsupported")),
        ("codex_pre_bash", F("exit_code")),
        ("codex_pre_bash", F("invalid_json")),
        ("codex_pre_patch", V("deny", reason="no patches to main.rs")),
        ("codex_post_bash", V("allow")),
        ("codex_post_bash", V("deny", reason="secret")),
        ("codex_post_bash", F("unsupported")),
        ("codex_prompt", V("deny", reason="no")),
        ("codex_prompt", V("allow", context="c")),
        ("codex_stop", V("deny", reason="keep going")),
        ("codex_permission", V("allow")),
        ("codex_permission", V("deny", reason="no network")),
        ("codex_permission", V("ask")),
        ("codex_permission", F("unsupported")),
    ],
    "gemini-cli": [
        ("gemini_before_shell", V("allow")),
        ("gemini_before_shell", V("allow", reason="fine", context="c")),
        ("gemini_before_shell", V("deny", reason="no")),
        ("gemini_before_shell", V("ask", reason="sure?")),
        ("gemini_before_shell", V("modify", updated_input={"command": "ls"})),
        ("gemini_before_shell", F("exit_code")),
        ("gemini_after_shell", V("deny", reason="secret")),
        ("gemini_after_shell", V("allow", context="c")),
        ("gemini_before_agent", V("deny", reason="off topic")),
    ],
    "cursor": [
        ("cursor_shell", V("allow")),
        ("cursor_shell", V("deny", reason="use pnpm")),
        ("cursor_shell", V("ask", reason="confirm")),
        ("cursor_shell", F("exit_code")),
        ("cursor_shell", F("invalid_json")),
        ("cursor_mcp", V("deny", reason="no db")),
        ("cursor_read", V("deny")),
        ("cursor_pre_tool", V("modify", updated_input={"command": "git push --dry-run"})),
        ("cursor_prompt", V("allow")),
        ("cursor_prompt", V("deny", reason="no secrets")),
        ("cursor_stop", V("allow")),
        ("cursor_stop", V("deny", reason="run the tests")),
        ("cursor_post_tool", V("allow", context="note")),
        ("cursor_post_tool", V("replace", updated_output="[]")),
        ("cursor_after_edit", V("allow")),
    ],
    "copilot": [
        ("copilot_pre_bash", V("allow")),
        ("copilot_pre_bash", V("deny", reason="no")),
        ("copilot_pre_bash", V("ask", reason="sure?")),
        ("copilot_pre_bash", V("modify", updated_input=NEW)),
        ("copilot_pre_bash", F("exit_code", "blocks")),  # preToolUse fails closed
        ("copilot_claude_pre_bash", V("deny", reason="no")),
        ("copilot_claude_pre_bash", V("modify", updated_input=NEW)),
        ("copilot_post_bash", V("allow", context="c")),
        ("copilot_post_bash", V("deny", reason="leak")),
        ("copilot_post_bash", V("replace", updated_output={"textResultForLlm": "x"})),
        ("copilot_post_bash", F("exit_code")),
        ("copilot_permission", V("allow")),
        ("copilot_permission", V("deny", reason="not here")),
        ("copilot_permission", V("ask")),
        ("copilot_agent_stop", V("deny", reason="keep going")),
    ],
    "qwen-code": [
        ("qwen_pre_shell", V("allow")),
        ("qwen_pre_shell", V("deny", reason="no")),
        ("qwen_pre_shell", V("ask", reason="sure?")),
        ("qwen_pre_shell", F("exit_code")),
        ("qwen_pre_shell", F("invalid_json")),
        ("qwen_post_shell", V("allow", context="c")),
        ("qwen_prompt", V("deny", reason="no secrets")),
        ("qwen_stop", V("deny", reason="run the tests first")),
        ("qwen_permission", V("allow")),
        ("qwen_permission", V("deny", reason="not today")),
        ("qwen_permission", V("modify", updated_input=NEW)),
        ("qwen_permission", V("ask")),
    ],
    "basis": [
        ("basis_pre_seed", V("allow")),
        ("basis_pre_seed", V("deny", reason="force-push is not allowed in this workspace")),
        (
            "basis_pre_seed",
            V("modify", reason="dropped --force", updated_input={"command": "git push"}),
        ),
        ("basis_pre_raw_input", V("modify", updated_input="raw text input")),
        ("basis_post_seed", V("allow")),
        ("basis_post_seed", V("deny", reason="secret in output")),
        ("basis_post_seed", V("replace", reason="a token", updated_output="[redacted]")),
        ("basis_pre_seed", F("exit_code", "blocks")),
        ("basis_pre_seed", F("empty_output", "blocks")),
        ("basis_pre_seed", F("invalid_json", "blocks")),
        ("basis_pre_seed", F("wrong_decision", "blocks")),
        ("basis_post_seed", F("wrong_decision", "blocks")),
        ("basis_post_seed", F("unsupported", "blocks")),
    ],
    "fastpace": [
        ("fastpace_pre_seed", V("allow")),
        ("fastpace_pre_seed", V("allow", reason="parse_error")),
        ("fastpace_pre_seed", V("deny", reason="dangerous_command", context="try trash")),
        ("fastpace_post", V("deny", reason="r")),
        ("fastpace_prompt", V("modify", reason="redacted", updated_input="deploy with [redacted]")),
        ("fastpace_prompt", V("deny", reason="secret")),
        ("fastpace_pre_seed", F("exit_code")),
        ("fastpace_pre_seed", F("empty_output")),
        ("fastpace_pre_seed", F("invalid_json")),
        ("fastpace_pre_seed", F("wrong_decision")),
        ("fastpace_prompt", F("unsupported")),
    ],
    "unknown": [
        ("claude_pre_bash", V("allow")),
        ("claude_pre_bash", V("deny", reason="no")),
        ("claude_pre_bash", V("ask", reason="?")),
        ("claude_pre_bash", V("modify", updated_input=NEW)),
        ("claude_post_bash", V("replace", updated_output="x")),
        ("claude_pre_bash", F("exit_code")),
    ],
    "mistral-vibe": [
        ("vibe_pre_bash", V("allow")),
        ("vibe_pre_bash", V("deny", reason="no")),
        ("vibe_pre_bash", V("modify", updated_input={"command": "ls", "timeout": 120})),
        ("vibe_pre_bash", F("exit_code")),
        ("vibe_pre_bash", F("invalid_json")),
        ("vibe_post_bash", V("allow")),
        ("vibe_post_bash", V("allow", context="c")),
        ("vibe_post_bash", V("replace", updated_output="masked")),
        ("vibe_post_bash", V("replace", updated_output="masked", context="c")),
        ("vibe_post_agent", V("deny", reason="run the tests first")),
        ("vibe_post_agent", V("allow")),
    ],
    "cline": [
        ("cline_pre_commands", V("allow")),
        ("cline_pre_commands", V("allow", context="fyi")),
        ("cline_pre_commands", V("deny", reason="no rm")),
        ("cline_pre_commands", V("modify", updated_input={"commands": ["ls"]})),
        ("cline_pre_commands", V("modify", updated_input={"commands": ["ls"]}, context="c")),
        ("cline_pre_commands", F("exit_code")),
        ("cline_pre_commands", F("invalid_json")),
        ("cline_post_commands", V("allow", context="c")),
        ("cline_post_commands", V("deny", reason="stop here")),
        ("cline_task_start", V("allow")),
    ],
    "opencode": [
        ("opencode_before_bash", V("allow")),
        ("opencode_before_bash", V("deny", reason="no")),
        ("opencode_before_bash", V("modify", updated_input={"command": "ls"})),
        ("opencode_before_bash", F("exit_code", "blocks")),
        ("opencode_before_bash", F("invalid_json", "blocks")),
        ("opencode_after_bash", V("allow")),
        ("opencode_after_bash", V("replace", updated_output="masked")),
        ("opencode_after_bash", F("exit_code")),
        ("opencode_permission", V("allow")),
        ("opencode_permission", V("ask")),
        ("opencode_permission", V("deny", reason="no")),
    ],
}

CASES = [
    (runtime, fixture, verdict)
    for runtime, rows in ROUND_TRIPS.items()
    for fixture, verdict in rows
]
IDS = [
    f"{runtime}-{fixture}-{verdict.decision}{'-' + verdict.failure if verdict.failure else ''}-{i}"
    for i, (runtime, fixture, verdict) in enumerate(CASES)
]


@pytest.mark.parametrize(("runtime", "fixture", "verdict"), CASES, ids=IDS)
def test_encode_then_judge_gives_the_verdict_back(runtime, fixture, verdict):
    adapter = ADAPTERS[runtime]
    call = adapter.parse(request(fixture))
    stdout, stderr, code = adapter.encode(call, verdict)
    assert isinstance(stdout, bytes) and isinstance(stderr, bytes) and isinstance(code, int)
    got = adapter.judge(call, Outcome(stdout=stdout, stderr=stderr, exit_code=code))
    assert got.decision == verdict.decision, (stdout, stderr, code, got)
    assert (got.failure, got.effect) == (verdict.failure, verdict.effect), got
    if verdict.decision != "failure":
        assert got.reason == verdict.reason, got
        assert got.context == verdict.context, got
        assert got.updated_input == verdict.updated_input, got
        assert got.updated_output == verdict.updated_output, got


IMPOSSIBLE = [
    ("mistral-vibe", "vibe_pre_bash", V("replace", updated_output="x")),
    ("mistral-vibe", "vibe_post_bash", V("modify", updated_input=NEW)),
    ("mistral-vibe", "vibe_pre_bash", F("timeout")),
    ("cline", "cline_pre_commands", V("replace", updated_output="x")),
    ("cline", "cline_post_commands", V("modify", updated_input=NEW)),
    ("cline", "cline_task_start", V("deny", reason="background hooks are not read")),
    ("opencode", "opencode_before_bash", V("ask")),
    ("opencode", "opencode_after_bash", V("modify", updated_input=NEW)),
    ("claude-code", "claude_pre_bash", V("replace", updated_output="x")),
    ("claude-code", "claude_post_bash", V("modify", updated_input=NEW)),
    # Bash's output is replaced only by one in its own shape (stdout, stderr, interrupted).
    ("claude-code", "claude_post_bash", V("replace", updated_output="x")),
    ("claude-code", "claude_post_bash", V("replace", updated_output={"stdout": "x"})),
    ("claude-code", "claude_session_start", V("deny", reason="r")),
    ("claude-code", "claude_pre_bash", F("timeout")),
    ("codex", "codex_pre_bash", V("ask")),
    ("codex", "codex_post_bash", V("replace", updated_output="x")),
    ("codex", "codex_post_bash", V("modify", updated_input=NEW)),
    ("gemini-cli", "gemini_after_shell", V("replace", updated_output="x")),
    ("gemini-cli", "gemini_after_shell", V("modify", updated_input=NEW)),
    ("gemini-cli", "gemini_before_shell", F("signal")),
    ("cursor", "cursor_shell", V("modify", updated_input=NEW)),
    ("cursor", "cursor_prompt", V("ask")),
    ("cursor", "cursor_after_edit", V("deny", reason="r")),
    ("basis", "basis_post_seed", V("modify", updated_input=NEW)),
    ("basis", "basis_pre_seed", V("replace", updated_output="x")),
    ("basis", "basis_pre_seed", F("timeout", "blocks")),
    ("fastpace", "fastpace_pre_seed", V("modify", updated_input="p")),
    ("fastpace", "fastpace_pre_seed", V("ask")),
    ("fastpace", "fastpace_pre_seed", F("signal")),
    ("unknown", "claude_pre_bash", F("timeout")),
    # Claude Code reads broken JSON as plain text (an allow), never as a failure.
    ("claude-code", "claude_pre_bash", F("invalid_json")),
    # Copilot: a string modifiedResult is ignored; no crash or timeout can be written.
    ("copilot", "copilot_post_bash", V("replace", updated_output="x")),
    ("copilot", "copilot_post_bash", V("modify", updated_input=NEW)),
    ("copilot", "copilot_pre_bash", F("timeout")),
    # Qwen Code: no PreToolUse rewrite; PostToolUse cannot block...
    ("qwen-code", "qwen_pre_shell", V("modify", updated_input=NEW)),
    ("qwen-code", "qwen_post_shell", V("deny", reason="r")),
    ("qwen-code", "qwen_pre_shell", F("signal")),
    # ...and passes no PreToolUse additionalContext to the model (measured 2026-12-05).
    ("qwen-code", "qwen_pre_shell", V("allow", context="fyi")),
]


@pytest.mark.parametrize(
    ("runtime", "fixture", "verdict"),
    IMPOSSIBLE,
    ids=[f"{r}-{f}-{v.decision}{v.failure}" for r, f, v in IMPOSSIBLE],
)
def test_encode_refuses_what_the_runtime_cannot_say(runtime, fixture, verdict):
    adapter = ADAPTERS[runtime]
    with pytest.raises(ValueError, match="no hook answer"):
        adapter.encode(adapter.parse(request(fixture)), verdict)


def test_basis_nonzero_exit_fails_even_with_a_good_answer():
    """The encoded exit_code failure prints a valid allow: basis still fails (exit is liveness)."""
    adapter = ADAPTERS["basis"]
    call = adapter.parse(request("basis_pre_seed"))
    stdout, _, code = adapter.encode(call, F("exit_code", "blocks"))
    assert b'"allow"' in stdout and code != 0
