"""Codex's and Gemini CLI's event cases with what the record must say beyond
cases_events.py's (seen here 2026-12-03; ORACLE.md): the answer fields the runtime
acted on (`answer_effects`), the failed hook a PreCompact block is, and the 3 s
Codex clamps a SessionEnd hook's timeout to. test_e2e_codex.py and
test_e2e_gemini.py run them; agreement.py shows them in docs/verdict-agreement.md."""

from __future__ import annotations

import dataclasses
import json

from tests.e2e.capture import Scenario
from tests.e2e.capture_specs import CODEX, _codex, _text
from tests.e2e.cases_events import CODEX_EVENTS, GEMINI_EVENTS
from tests.e2e.events import EventCase

# case -> (the record's decision, the answer field the runtime acted on, its
# canonical.ACTIONS name in the record)
_EFFECTS = {
    "before-model-llm-request": ("modify", "llm_request", "model_request"),
    "before-model-deny-with-synthetic-response": ("deny", "llm_response", "model_response"),
    "after-model-llm-response": ("replace", "llm_response", "model_response"),
    "before-tool-selection-tool-config": ("modify", "toolConfig", "tool_config"),
    "after-tool-tail-call": ("allow", "tailToolCallRequest", "follow_up_call"),
    "after-agent-deny-clear-context": ("deny", "clearContext", "clear_context"),
}


def _with_effect(case: EventCase) -> EventCase:
    decision, field, name = _EFFECTS[case.name]
    answer = json.loads(case.answer["stdout"])
    record = {**case.record, "decision": decision}
    record["answer_effects"] = {name: answer["hookSpecificOutput"][field]}
    return dataclasses.replace(case, record=record)


GEMINI_EFFECTS = [_with_effect(c) for c in GEMINI_EVENTS if c.name in _EFFECTS]

_PRE_COMPACT = next(c for c in CODEX_EVENTS if c.name == "pre-compact-block-ignored")
CODEX_MORE = [
    # PreCompact's answer schema has no `decision`: a block fails the hook, and the
    # compaction happens anyway.
    dataclasses.replace(
        _PRE_COMPACT,
        record={"decision": "failure", "failure": "unsupported", "effect": "proceeds"},
    ),
    # A SessionEnd hook configured with 30 s: Codex says it clamps it to 3 s.
    EventCase(
        name="session-end-clamped",
        spec=CODEX,
        event="SessionEnd",
        answer={},
        scenario=Scenario("end", _codex("go"), steps=[_text("x")]),
        output_has=("clamping SessionEnd hook timeout to 3s",),
        calls={"SessionEnd": 1},
        record={"decision": "allow"},
    ),
]
CLAMPED_MS = 3000  # the record's hook.timeout_ms for session-end-clamped
