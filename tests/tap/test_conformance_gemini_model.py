"""Gemini CLI 0.61: the model-level answers the runtime acts on, read from the requests
the real CLI sent (tests/tap/fixtures/captured/gemini-cli). What each does was pinned
inside the real CLI, with its own hook runner (tests/e2e, GEMINI_EVENTS and
test_e2e_gemini.py); here, that the verdict says so and keeps the fields it acted on,
by their canonical names (canonical.ACTIONS)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooktui.tap.canonical import ACTIONS, UNSET
from hooktui.tap.runtimes import ADAPTERS

from tests.tap.fixtures import out, specific

A = ADAPTERS["gemini-cli"]
CAPTURED = Path(__file__).parent / "fixtures" / "captured" / "gemini-cli"
REQUEST = {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": "NEW"}]}
RESPONSE = {"candidates": [{"content": {"role": "model", "parts": ["SYN"]}}]}
TOOLS = {"mode": "ANY", "allowedFunctionNames": ["read_file"]}
TAIL = {"name": "run_shell_command", "args": {"command": "echo tail"}}


def judged(event: str, answer) -> object:
    request = json.loads((CAPTURED / f"{event}.json").read_text())["request"]
    return A.judge(A.parse(request), out(answer))


CASES = [
    # (id, event, answer, decision, answer_effects)
    (
        "llm-request",
        "BeforeModel",
        specific("BeforeModel", llm_request=REQUEST),
        "modify",
        {"model_request": REQUEST},
    ),
    (
        "synthetic-alone-ignored",
        "BeforeModel",
        specific("BeforeModel", llm_response=RESPONSE),
        "allow",
        {},
    ),
    (
        "deny-with-synthetic",
        "BeforeModel",
        {"decision": "deny", "reason": "r", **specific("BeforeModel", llm_response=RESPONSE)},
        "deny",
        {"model_response": RESPONSE},
    ),
    (
        "after-model-response",
        "AfterModel",
        specific("AfterModel", llm_response=RESPONSE),
        "replace",
        {"model_response": RESPONSE},
    ),
    (
        "tool-config",
        "BeforeToolSelection",
        specific("BeforeToolSelection", toolConfig=TOOLS),
        "modify",
        {"tool_config": TOOLS},
    ),
    (
        "tail-call",
        "AfterTool",
        specific("AfterTool", tailToolCallRequest=TAIL),
        "allow",
        {"follow_up_call": TAIL},
    ),
    ("after-agent-deny", "AfterAgent", {"decision": "deny", "reason": "again"}, "deny", {}),
    (
        "after-agent-deny-clear",
        "AfterAgent",
        {"decision": "deny", "reason": "again", **specific("AfterAgent", clearContext=True)},
        "deny",
        {"clear_context": True},
    ),
    (
        "clear-context-without-deny",
        "AfterAgent",
        specific("AfterAgent", clearContext=True),
        "allow",
        {},
    ),
    (
        "llm-request-elsewhere-ignored",
        "AfterModel",
        specific("AfterModel", llm_request=REQUEST),
        "allow",
        {},
    ),
    ("system-message", "BeforeTool", {"systemMessage": "note"}, "allow", {"user_message": "note"}),
]


@pytest.mark.parametrize(
    ("event", "answer", "decision", "effects"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_model_level_answers(event, answer, decision, effects) -> None:
    verdict = judged(event, answer)
    assert verdict.decision == decision, verdict
    assert verdict.answer_effects == effects, verdict
    assert set(verdict.answer_effects) <= set(ACTIONS)
    # A model request or answer is not the tool's input or output.
    assert verdict.updated_input is UNSET and verdict.updated_output is UNSET


def test_deny_re_prompts_with_the_reason() -> None:
    verdict = judged("AfterAgent", {"decision": "deny", "reason": "try again"})
    assert (verdict.decision, verdict.reason) == ("deny", "try again")


def test_the_variables_gemini_gives_its_hooks_are_recorded() -> None:
    """The real CLI sets these five (captured env; the e2e test pins the record)."""
    env = json.loads((CAPTURED / "BeforeTool.json").read_text())["env"]
    assert set(env) <= set(A.env_vars)
    assert {"GEMINI_PLANS_DIR", "CLAUDE_PROJECT_DIR"} <= set(A.env_vars)
