"""Each runtime's rule for several hooks on one call, pinned on what its real CLI did.

Each row is two hooks answering one call as the real CLI saw them (the answer
bytes, read by the runtime's own `judge`; which finished last), and what the CLI
then did (2026-12-07: Claude Code 2.1.332, Codex 0.171, Gemini CLI 0.61, Copilot
1.0.102, Qwen Code 0.24.4, Continue CLI 1.5.47's runner; the runs themselves are tests/e2e/test_e2e_merge.py).
Every registered runtime must declare its rule and its hook sources, or say why not.
"""

from __future__ import annotations

import json

import pytest
from hooktui.tap.canonical import UNSET
from hooktui.tap.runtimes import ADAPTERS, RUNTIMES
from hooktui.tap.runtimes.combine import Answer
from hooktui.tap.runtimes.merge import MergeRule

from tests.tap.fixtures import out, request, specific

DEFAULT = MergeRule()


@pytest.mark.parametrize("name", RUNTIMES)
def test_every_runtime_declares_its_merge_rule_or_why_not(name) -> None:
    rule = ADAPTERS[name].merge
    assert rule != DEFAULT, f"{name}: its descriptor does not set `merge`"
    assert bool(rule.basis) != bool(rule.unknown), f"{name}: a rule says where it comes from"
    assert rule.runs in ("parallel", "sequential")
    assert rule.rewrite in ("last_finished", "last_leading", "last_in_order", "chained", "ignored")
    assert rule.reason in ("first_finished", "first_in_order", "joined")
    assert set(rule.precedence) <= {"deny", "defer", "ask", "allow"}


@pytest.mark.parametrize("name", RUNTIMES)
def test_every_runtime_declares_its_hook_sources_or_why_not(name) -> None:
    runtime = ADAPTERS[name]
    assert bool(runtime.hook_sources) != bool(runtime.sources_note), name
    if runtime.hook_sources:
        assert runtime.settings is not None, f"{name} names hook files but no settings layout"
        assert runtime.reading.basis, f"{name}: how it reads a bad settings file, and from where"
        for source in runtime.hook_sources:
            assert source.layout in ("", *RUNTIMES), source


def answers(runtime_name, fixture, native_answers) -> list[Answer]:
    """(key, outcome, finished) per hook -> Answers, read by the runtime's own judge."""
    runtime = ADAPTERS[runtime_name]
    call = runtime.parse(request(fixture))
    got = []
    for position, (key, outcome, finished) in enumerate(native_answers):
        verdict = runtime.judge(call, outcome)
        got.append(
            Answer(
                key=key,
                decision=verdict.decision,
                effect=verdict.effect,
                reason=verdict.reason,
                updated_input=verdict.updated_input,
                started=0.0,
                ended=finished,
                position=position,
                outcome=outcome,
            )
        )
    return got


def combined(runtime_name, fixture, native_answers):
    runtime = ADAPTERS[runtime_name]
    call = runtime.parse(request(fixture))
    return runtime.combine(answers(runtime_name, fixture, native_answers), call.native_event)


def claude(decision, reason="", **more):
    return out(
        specific("PreToolUse", permissionDecision=decision, permissionDecisionReason=reason, **more)
    )


def rewrite(event, **fields):
    return out(specific(event, permissionDecision="allow", **fields))


A_CMD, B_CMD = {"command": "a"}, {"command": "b"}

# (runtime, fixture, [(key, outcome, finished at)], decision, decided_by, updated_input)
CASES = [
    # Claude Code 2.1.332: a deny from either hook blocks; the rewrite of the hook that
    # finished last wins; a rewrite made before an ask stays, one after it does not count.
    (
        "claude-code",
        "claude_pre_bash",
        [("a", claude("deny", "A"), 1), ("b", claude("allow"), 2)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "claude-code",
        "claude_pre_bash",
        [("a", claude("allow"), 1), ("b", claude("deny", "B"), 2)],
        "deny",
        "b",
        UNSET,
    ),
    (
        "claude-code",
        "claude_pre_bash",
        [("a", out(b"", b"no", 2), 1), ("b", claude("allow"), 2)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "claude-code",
        "claude_pre_bash",
        [("a", out(b"", b"boom", 1), 1), ("b", claude("allow"), 2)],
        "allow",
        "b",
        UNSET,
    ),
    (
        "claude-code",
        "claude_pre_bash",
        [
            ("a", rewrite("PreToolUse", updatedInput=A_CMD), 2),
            ("b", rewrite("PreToolUse", updatedInput=B_CMD), 1),
        ],
        "modify",
        "a",
        A_CMD,
    ),
    (
        "claude-code",
        "claude_pre_bash",
        [
            ("a", rewrite("PreToolUse", updatedInput=A_CMD), 1),
            ("b", rewrite("PreToolUse", updatedInput=B_CMD), 2),
        ],
        "modify",
        "b",
        B_CMD,
    ),
    (
        "claude-code",
        "claude_pre_bash",
        [("a", claude("ask", "A?"), 1), ("b", claude("allow"), 2)],
        "ask",
        "a",
        UNSET,
    ),
    (
        "claude-code",
        "claude_pre_bash",
        [("a", claude("ask", "A?"), 1), ("b", rewrite("PreToolUse", updatedInput=B_CMD), 2)],
        "ask",
        "a",
        UNSET,
    ),
    # Codex 0.171: any block; the rewrite of the hook that completed last.
    (
        "codex",
        "codex_pre_bash",
        [("a", claude("deny", "A"), 1), ("b", out(b""), 2)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "codex",
        "codex_pre_bash",
        [("a", out(b"", b"no", 2), 1), ("b", out(b""), 2)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "codex",
        "codex_pre_bash",
        [
            ("a", rewrite("PreToolUse", updatedInput=A_CMD), 2),
            ("b", rewrite("PreToolUse", updatedInput=B_CMD), 1),
        ],
        "modify",
        "a",
        A_CMD,
    ),
    (
        "codex",
        "codex_pre_bash",
        [
            ("a", rewrite("PreToolUse", updatedInput=A_CMD), 1),
            ("b", rewrite("PreToolUse", updatedInput=B_CMD), 2),
        ],
        "modify",
        "b",
        B_CMD,
    ),
    # Gemini CLI 0.61: any deny; the last tool_input in configured order, whoever ends last.
    (
        "gemini-cli",
        "gemini_before_shell",
        [("a", out({"decision": "deny", "reason": "A"}), 1), ("b", out({"decision": "allow"}), 2)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "gemini-cli",
        "gemini_before_shell",
        [("a", out(b"", b"no", 2), 1), ("b", out({"decision": "allow", "reason": "B"}), 2)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "gemini-cli",
        "gemini_before_shell",
        [
            (
                "a",
                out(
                    {
                        "decision": "allow",
                        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": A_CMD},
                    }
                ),
                2,
            ),
            (
                "b",
                out(
                    {
                        "decision": "allow",
                        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": B_CMD},
                    }
                ),
                1,
            ),
        ],
        "modify",
        "b",
        B_CMD,
    ),
    # Copilot 1.0.102: one after another; the first deny (a crash is one) stops the call;
    # the later rewrite stands, a silent hook keeps the earlier one.
    (
        "copilot",
        "copilot_pre_bash",
        [("a", out({"permissionDecision": "deny", "permissionDecisionReason": "A"}), 1)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "copilot",
        "copilot_pre_bash",
        [
            ("a", out({"permissionDecision": "allow"}), 1),
            ("b", out({"permissionDecision": "deny", "permissionDecisionReason": "B"}), 2),
        ],
        "deny",
        "b",
        UNSET,
    ),
    ("copilot", "copilot_pre_bash", [("a", out(b"", b"boom", 1), 1)], "deny", "a", UNSET),
    (
        "copilot",
        "copilot_pre_bash",
        [
            ("a", out({"permissionDecision": "allow", "modifiedArgs": A_CMD}), 1),
            ("b", out({"permissionDecision": "allow", "modifiedArgs": B_CMD}), 2),
        ],
        "modify",
        "b",
        B_CMD,
    ),
    (
        "copilot",
        "copilot_pre_bash",
        [("a", out({"permissionDecision": "allow", "modifiedArgs": A_CMD}), 1), ("b", out(b""), 2)],
        "modify",
        "a",
        A_CMD,
    ),
    # Qwen Code 0.24.4: the last permissionDecision in configured order decides, over a deny
    # by exit 2, by a top-level block or by an earlier permissionDecision.
    (
        "qwen-code",
        "qwen_pre_shell",
        [("a", claude("deny", "A no"), 1), ("b", claude("allow"), 2)],
        "allow",
        "b",
        UNSET,
    ),
    (
        "qwen-code",
        "qwen_pre_shell",
        [("a", claude("allow"), 1), ("b", claude("deny", "B no"), 2)],
        "deny",
        "b",
        UNSET,
    ),
    (
        "qwen-code",
        "qwen_pre_shell",
        [("a", out({"decision": "block", "reason": "A"}), 1), ("b", claude("allow"), 2)],
        "allow",
        "b",
        UNSET,
    ),
    (
        "qwen-code",
        "qwen_pre_shell",
        [("a", out(b"", b"no", 2), 1), ("b", claude("allow"), 2)],
        "allow",
        "b",
        UNSET,
    ),
    (
        "qwen-code",
        "qwen_pre_shell",
        [("a", claude("deny", "A no"), 1), ("b", out(b""), 2)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "qwen-code",
        "qwen_pre_shell",
        [("a", out({"decision": "block", "reason": "A"}), 1), ("b", out({"decision": "allow"}), 2)],
        "deny",
        "a",
        UNSET,
    ),
    (
        "qwen-code",
        "qwen_pre_shell",
        [("a", out(b"", b"no", 2), 1), ("b", out(b""), 2)],
        "deny",
        "a",
        UNSET,
    ),
    # Continue CLI 1.5.47's runner (tests/e2e/test_e2e_continue.py): a block from either
    # hook blocks; of two rewrites the last in config order wins, whoever finishes last.
    (
        "continue-cli",
        "claude_pre_bash",
        [("a", claude("allow"), 1), ("b", claude("deny", "B"), 2)],
        "deny",
        "b",
        UNSET,
    ),
    (
        "continue-cli",
        "claude_pre_bash",
        [
            ("a", rewrite("PreToolUse", updatedInput=A_CMD), 2),
            ("b", rewrite("PreToolUse", updatedInput=B_CMD), 1),
        ],
        "modify",
        "b",
        B_CMD,
    ),
    # Continue CLI 1.5.47 (its shipped runner, 2026-12-07): the last permissionDecision
    # in config order is passed on, so an ask and then an allow is an allow; a hook
    # that gives none changes nothing, and an allow and then an ask is an ask.
    (
        "continue-cli",
        "claude_pre_bash",
        [("a", claude("ask", "A"), 1), ("b", claude("allow"), 2)],
        "allow",
        "b",
        UNSET,
    ),
    (
        "continue-cli",
        "claude_pre_bash",
        [("a", claude("ask", "A"), 2), ("b", claude("allow"), 1)],
        "allow",
        "b",
        UNSET,
    ),
    (
        "continue-cli",
        "claude_pre_bash",
        [("a", claude("allow"), 1), ("b", claude("ask", "B"), 2)],
        "ask",
        "b",
        UNSET,
    ),
    (
        "continue-cli",
        "claude_pre_bash",
        [("a", claude("ask", "A"), 1), ("b", out(b""), 2)],
        "ask",
        "a",
        UNSET,
    ),
    (
        "continue-cli",
        "claude_pre_bash",
        [("a", claude("ask", "A"), 1), ("b", rewrite("PreToolUse", updatedInput=B_CMD), 2)],
        "modify",
        "b",
        B_CMD,
    ),
    # ... and of two denies the reason read is the last one's (each overwrites it).
    (
        "continue-cli",
        "claude_pre_bash",
        [("a", claude("deny", "A"), 1), ("b", claude("deny", "B"), 2)],
        "deny",
        "b",
        UNSET,
    ),
    (
        "continue-cli",
        "claude_pre_bash",
        [("a", out(b"", b"A", 2), 1), ("b", out(b"", b"B", 2), 2)],
        "deny",
        "a",
        UNSET,
    ),
]


@pytest.mark.parametrize(
    ("runtime", "fixture", "native", "decision", "decided_by", "updated"),
    CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)],
)
def test_runtime_rule_gives_what_the_real_cli_did(
    runtime, fixture, native, decision, decided_by, updated
) -> None:
    got = combined(runtime, fixture, native)
    assert got.decision == decision, got
    assert got.decided_by == decided_by, got
    assert got.updated_input == updated, got


def test_qwen_flags_the_deny_it_overrides() -> None:
    got = combined(
        "qwen-code", "qwen_pre_shell", [("a", out(b"", b"no", 2), 1), ("b", claude("allow"), 2)]
    )
    assert (
        got.overridden == ("a",) and "overridden" in got.conflicts and "disagree" in got.conflicts
    )
    assert any("permissionDecision" in note for note in got.notes)


def test_gemini_joins_every_reason_as_its_model_reads_them() -> None:
    got = combined(
        "gemini-cli",
        "gemini_before_shell",
        [
            ("a", out({"decision": "deny", "reason": "A no"}), 1),
            ("b", out({"decision": "allow", "reason": "B ok"}), 2),
        ],
    )
    assert got.reason == "A no\nB ok"  # 0.61 sent "Tool execution blocked: A no\nB ok"


def test_claude_flags_racing_rewrites() -> None:
    got = combined(
        "claude-code",
        "claude_pre_bash",
        [
            ("a", rewrite("PreToolUse", updatedInput=A_CMD), 2),
            ("b", rewrite("PreToolUse", updatedInput=B_CMD), 1),
        ],
    )
    assert "rewrite_race" in got.conflicts and got.overridden == ("b",)


def test_copilot_calls_are_grouped_by_the_timestamp_all_its_hooks_share() -> None:
    rule = ADAPTERS["copilot"].merge
    assert rule.call_keys == ("timestamp",)
    assert "timestamp" in request("copilot_pre_bash")


def test_unknown_rules_say_so_in_the_outcome() -> None:
    got = ADAPTERS["cursor"].combine(
        [Answer(key="a", decision="allow"), Answer(key="b", decision="deny", ended=1)]
    )
    assert got.decision == "deny" and any("not known" in n for n in got.notes)
    assert json.dumps(ADAPTERS["fastpace"].merge.summary()).count("host") >= 1
