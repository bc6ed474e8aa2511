"""Answers to events other than Bash's PreToolUse, and what the real CLI did with them
(seen here 2026-12-03; ORACLE.md). See events.py for how a case runs."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.capture import Scenario
from tests.e2e.capture_specs import (
    CLAUDE,
    CODEX,
    GEMINI,
    _call,
    _claude,
    _codex,
    _exec,
    _gemini,
    _spawn,
    _text,
)
from tests.e2e.events import EventCase

J = json.dumps


def _hso(event: str, **fields: Any) -> str:
    return J({"hookSpecificOutput": {"hookEventName": event, **fields}})


# --- Claude Code 2.1.332: the guards besides PreToolUse ------------------------------------
_SKILL = "---\nname: hello\ndescription: say hello\n---\nHello output: !`touch skill-ran`\n"
_SKILL_RUN = Scenario(
    "skill",
    _claude("/hello", "--output-format", "json", "--allowedTools", "Bash"),
    files={".claude/skills/hello/SKILL.md": _SKILL},
)
_MODEL_SWITCH = Scenario("model", _claude("/model claude-sonnet-4-5", "--output-format", "json"))
# A Write outside the project: headless Claude Code asks, so PermissionRequest fires.
_WRITE = Scenario(
    "write",
    _claude("write it", "--output-format", "json"),
    steps=[_call("Write", file_path="{root}/outside.txt", content="E2E-WRITTEN")],
)

CLAUDE_EVENTS = [
    EventCase(
        name="skill-shell-deny",
        spec=CLAUDE,
        event="PreSkillShellCommand",
        answer={
            "stdout": _hso(
                "PreSkillShellCommand",
                permissionDecision="deny",
                permissionDecisionReason="E2E-SKILLDENY",
            )
        },
        scenario=_SKILL_RUN,
        # The skill's text reaches the model with the line replaced.
        model_has=("[not run: blocked by hook: E2E-SKILLDENY]",),
        no_files=("skill-ran",),
        record={"decision": "deny", "reason": "E2E-SKILLDENY"},
        lets_through=False,
    ),
    EventCase(
        name="skill-shell-allow",
        spec=CLAUDE,
        event="PreSkillShellCommand",
        answer={"stdout": _hso("PreSkillShellCommand", permissionDecision="allow")},
        scenario=_SKILL_RUN,
        files=("skill-ran",),
        record={"decision": "allow"},
        lets_through=True,
    ),
    EventCase(
        name="skill-shell-rewrite-blocks",
        spec=CLAUDE,
        event="PreSkillShellCommand",
        # updatedInput is NOT a rewrite here: the line is blocked.
        answer={
            "stdout": _hso(
                "PreSkillShellCommand",
                permissionDecision="allow",
                updatedInput={"command": "touch rewritten"},
            )
        },
        scenario=_SKILL_RUN,
        model_has=("the hook changed the command, which isn't supported here",),
        no_files=("skill-ran", "rewritten"),
        record={
            "decision": "deny",
            "reason": "the hook changed the command, which isn't supported here",
        },
        lets_through=False,
    ),
    EventCase(
        name="model-switch-deny",
        spec=CLAUDE,
        event="PreModelSwitch",
        answer={
            "stdout": _hso(
                "PreModelSwitch",
                permissionDecision="deny",
                permissionDecisionReason="E2E-MODELDENY",
            )
        },
        scenario=_MODEL_SWITCH,
        output_has=(
            "Model switch to Sonnet 4.5 was blocked by a PreModelSwitch hook: E2E-MODELDENY",
        ),
        record={"decision": "deny", "reason": "E2E-MODELDENY"},
        lets_through=False,
    ),
    EventCase(
        name="model-switch-ask-headless",
        spec=CLAUDE,
        event="PreModelSwitch",
        answer={
            "stdout": _hso(
                "PreModelSwitch", permissionDecision="ask", permissionDecisionReason="E2E-MODELASK"
            )
        },
        scenario=_MODEL_SWITCH,
        output_has=("blocked by a PreModelSwitch hook: E2E-MODELASK (run /model interactively",),
        record={"decision": "ask", "reason": "E2E-MODELASK"},
    ),
    EventCase(
        name="model-switch-allow",
        spec=CLAUDE,
        event="PreModelSwitch",
        answer={"stdout": _hso("PreModelSwitch", permissionDecision="allow")},
        scenario=_MODEL_SWITCH,
        output_has=("Set model to `Sonnet 4.5`",),
        record={"decision": "allow"},
        lets_through=True,
    ),
    EventCase(
        name="permission-request-deny",
        spec=CLAUDE,
        event="PermissionRequest",
        answer={
            "stdout": _hso(
                "PermissionRequest", decision={"behavior": "deny", "message": "E2E-PRDENY"}
            )
        },
        scenario=_WRITE,
        model_has=('"content": "E2E-PRDENY", "is_error": true',),
        record={"decision": "deny", "reason": "E2E-PRDENY"},
        lets_through=False,
    ),
    EventCase(
        name="permission-request-allow-rewrite",
        spec=CLAUDE,
        event="PermissionRequest",
        answer={
            "stdout": _hso(
                "PermissionRequest",
                decision={
                    "behavior": "allow",
                    "updatedInput": {"file_path": "{project}/rewritten.txt", "content": "x"},
                },
            )
        },
        scenario=_WRITE,
        files=("rewritten.txt",),
        record={"decision": "modify"},
        lets_through=True,
    ),
    EventCase(
        name="permission-request-deny-interrupt",
        spec=CLAUDE,
        event="PermissionRequest",
        # interrupt: true with the deny: the run aborts there.
        answer={
            "stdout": _hso(
                "PermissionRequest",
                decision={"behavior": "deny", "message": "E2E-PRSTOP", "interrupt": True},
            )
        },
        scenario=_WRITE,
        output_has=("aborted_tools",),
        exit_code=1,
        record={"decision": "deny", "reason": "E2E-PRSTOP", "answer_effects": {"interrupt": True}},
        lets_through=False,
    ),
    EventCase(
        name="permission-request-wrong-shape-falls-through",
        spec=CLAUDE,
        event="PermissionRequest",
        # PreToolUse's answer shape: ignored; headless then refuses as it would anyway.
        answer={"stdout": _hso("PermissionRequest", permissionDecision="allow")},
        scenario=_WRITE,
        model_has=("but you haven't granted it yet",),
        record={},
    ),
]

# --- Codex 0.171.0 -------------------------------------------------------------------------
_STOP = Scenario("stop", _codex("go"), steps=[_text("first"), _text("second")])
_COMPACT = Scenario(
    "compact",
    _codex("-c", "model_auto_compact_token_limit=12", "compact please"),
    steps=[_exec("echo one"), _text("summary"), _exec("echo two"), _text("s")],
)

CODEX_EVENTS = [
    EventCase(
        name="stop-block",
        spec=CODEX,
        event="Stop",
        # The turn goes on: the reason is the model's next prompt; Stop fires again.
        answer={"stdout": J({"decision": "block", "reason": "E2E-STOPBLOCK"}), "once": True},
        scenario=_STOP,
        model_has=("E2E-STOPBLOCK",),
        calls={"Stop": 2},
        record={"decision": "deny", "reason": "E2E-STOPBLOCK"},
    ),
    EventCase(
        name="stop-exit2",
        spec=CODEX,
        event="Stop",
        answer={"stderr": "E2E-STOPX2", "exit": 2, "once": True},
        scenario=_STOP,
        model_has=("E2E-STOPX2",),
        calls={"Stop": 2},
        record={"decision": "deny", "reason": "E2E-STOPX2"},
    ),
    EventCase(
        name="subagent-stop-block",
        spec=CODEX,
        event="SubagentStop",
        answer={"stdout": J({"decision": "block", "reason": "E2E-SUBBLOCK"}), "once": True},
        scenario=Scenario(
            "subagent",
            _codex("delegate"),
            steps=[
                {"text": "spawn", "calls": [_spawn("do it")], "match": "delegate"},
                {"text": "sub-first", "unless": "delegate"},
                {"text": "sub-second", "unless": "delegate"},
                {**_exec("sleep 4"), "match": "delegate"},
                {"text": "main-done", "match": "delegate"},
            ],
        ),
        model_has=("E2E-SUBBLOCK",),
        calls={"SubagentStop": 2},
        record={"decision": "deny", "reason": "E2E-SUBBLOCK"},
    ),
    EventCase(
        name="pre-compact-block-ignored",
        spec=CODEX,
        event="PreCompact",
        # Compaction happens anyway; the reason goes nowhere.
        answer={"stdout": J({"decision": "block", "reason": "E2E-PCBLOCK"})},
        scenario=_COMPACT,
        model_lacks=("E2E-PCBLOCK",),
        calls={"PreCompact": 1},
    ),
    EventCase(
        name="session-start-context",
        spec=CODEX,
        event="SessionStart",
        answer={"stdout": _hso("SessionStart", additionalContext="E2E-SSCTX")},
        scenario=Scenario("start", _codex("go"), steps=[_text("x")]),
        model_has=("E2E-SSCTX",),
        record={"decision": "allow", "context": "E2E-SSCTX"},
    ),
]


# --- Gemini CLI 0.61.0: the model-level answers (the real hook runner, in the real CLI) -----


def _llm_response(text: str) -> dict[str, Any]:
    """A response in the hook's own (stable) shape: parts are plain strings."""
    return {"candidates": [{"content": {"role": "model", "parts": [text]}, "finishReason": "STOP"}]}


def _gemini_run(*steps: dict[str, Any]) -> Scenario:
    return Scenario(
        "gemini", _gemini("--approval-mode", "yolo", "-p", "run the command"), steps=list(steps)
    )


_ONE_TURN = _gemini_run(_text("E2E-REAL"))

GEMINI_EVENTS = [
    EventCase(
        name="before-model-synthetic-alone-is-ignored",
        spec=GEMINI,
        event="BeforeModel",
        # llm_response counts only with a block: alone, the model is asked as usual.
        answer={
            "stdout": _hso("BeforeModel", llm_response=_llm_response("E2E-SYNTH")),
            "once": True,
        },
        scenario=_ONE_TURN,
        output_has=("E2E-REAL",),
        model_requests=1,
        record={"decision": "allow"},
    ),
    EventCase(
        name="before-model-deny-with-synthetic-response",
        spec=GEMINI,
        event="BeforeModel",
        answer={
            "stdout": J(
                {
                    "decision": "deny",
                    "reason": "E2E-BMDENY",
                    "hookSpecificOutput": {
                        "hookEventName": "BeforeModel",
                        "llm_response": _llm_response("E2E-SYNTH"),
                    },
                }
            )
        },
        scenario=_ONE_TURN,
        output_has=('"response": "E2E-SYNTH"',),
        model_requests=0,
        record={"decision": "deny", "reason": "E2E-BMDENY"},
    ),
    EventCase(
        name="before-model-deny",
        spec=GEMINI,
        event="BeforeModel",
        answer={"stdout": J({"decision": "deny", "reason": "E2E-BMDENY"})},
        scenario=_ONE_TURN,
        output_has=("E2E-BMDENY",),
        model_requests=0,
        record={"decision": "deny", "reason": "E2E-BMDENY"},
    ),
    EventCase(
        name="before-model-llm-request",
        spec=GEMINI,
        event="BeforeModel",
        answer={
            "stdout": _hso(
                "BeforeModel",
                llm_request={
                    "model": "gemini-2.5-flash",
                    "messages": [{"role": "user", "content": "E2E-NEWPROMPT"}],
                },
            ),
            "once": True,
        },
        scenario=_ONE_TURN,
        model_has=("E2E-NEWPROMPT",),
        model_requests=1,
        record={"decision": "modify"},
    ),
    EventCase(
        name="after-model-llm-response",
        spec=GEMINI,
        event="AfterModel",
        answer={
            "stdout": _hso("AfterModel", llm_response=_llm_response("E2E-AFTERMODEL")),
            "once": True,
        },
        scenario=_ONE_TURN,
        output_has=('"response": "E2E-AFTERMODEL"',),
        record={"decision": "replace"},
    ),
    EventCase(
        name="before-tool-selection-tool-config",
        spec=GEMINI,
        event="BeforeToolSelection",
        answer={
            "stdout": _hso(
                "BeforeToolSelection",
                toolConfig={"mode": "ANY", "allowedFunctionNames": ["read_file"]},
            ),
            "once": True,
        },
        scenario=_ONE_TURN,
        model_has=('"allowedFunctionNames": ["read_file"]',),
        record={"decision": "modify"},
    ),
    EventCase(
        name="after-tool-tail-call",
        spec=GEMINI,
        event="AfterTool",
        # A follow-up call runs right after the tool; its result is what the model gets.
        answer={
            "stdout": _hso(
                "AfterTool",
                tailToolCallRequest={
                    "name": "run_shell_command",
                    "args": {"command": "touch tail-ran && echo E2E-TAIL", "description": "tail"},
                },
            ),
            "once": True,
        },
        scenario=_gemini_run(_call("run_shell_command", command="echo first", description="d")),
        files=("tail-ran",),
        model_has=("E2E-TAIL",),
        calls={"AfterTool": 2},
    ),
    EventCase(
        name="after-agent-deny-reprompts",
        spec=GEMINI,
        event="AfterAgent",
        answer={"stdout": J({"decision": "deny", "reason": "E2E-AGENTDENY"}), "once": True},
        scenario=_gemini_run(_text("first"), _text("second")),
        model_has=("E2E-AGENTDENY",),
        model_requests=2,
        calls={"AfterAgent": 2},
        record={"decision": "deny", "reason": "E2E-AGENTDENY"},
    ),
    EventCase(
        name="after-agent-deny-clear-context",
        spec=GEMINI,
        event="AfterAgent",
        # The re-prompt goes out with the history cleared: the first prompt is gone.
        answer={
            "stdout": J(
                {
                    "decision": "deny",
                    "reason": "E2E-AGENTDENY",
                    "hookSpecificOutput": {"hookEventName": "AfterAgent", "clearContext": True},
                }
            ),
            "once": True,
        },
        scenario=_gemini_run(_text("first"), _text("second")),
        model_has=("E2E-AGENTDENY",),
        model_requests=2,
        last_request_lacks=("run the command",),
        record={"decision": "deny", "reason": "E2E-AGENTDENY"},
    ),
    EventCase(
        name="before-agent-deny",
        spec=GEMINI,
        event="BeforeAgent",
        answer={"stdout": J({"decision": "deny", "reason": "E2E-BADENY"})},
        scenario=_ONE_TURN,
        output_has=("E2E-BADENY",),
        model_requests=0,
        record={"decision": "deny", "reason": "E2E-BADENY"},
    ),
]
