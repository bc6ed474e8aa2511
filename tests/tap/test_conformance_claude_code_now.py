"""Claude Code as of 2.1.337: its 35 events (Interrupt since 2.1.335), the guards besides PreToolUse, what an answer
asks for besides its decision (the verdict's answer_effects), the request's details, per-event
timeouts, onFailure: block, and the rules dated by version (2.1.197 vs 2.1.214+ vs
2.1.295+). Requests are the ones the real CLI sent (fixtures/captured/claude-code),
outcomes what tests/e2e/ORACLE.md saw it act on."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hooktui.tap.canonical import ACTIONS, DETAILS, Outcome
from hooktui.tap.runtimes import ADAPTERS

from tests.conftest import HOOKTUI, wait_for_records
from tests.tap.fixtures import check, failed, out, request, specific

A = ADAPTERS["claude-code"]
CAPTURED = Path(__file__).parent / "fixtures" / "captured" / "claude-code"

# PROTOCOLS.md: the 34 events of 2.1.332, and 2.1.335's Interrupt.
ALL_EVENTS = """PreToolUse PostToolUse PostToolUseFailure PostToolBatch Notification
UserPromptSubmit UserPromptExpansion SessionStart SessionEnd Stop StopFailure SubagentStart
SubagentStop PreCompact PostCompact PreModelSwitch PostModelSwitch PermissionRequest
PermissionDenied Setup TeammateIdle TaskCreated TaskCompleted Elicitation ElicitationResult
ConfigChange WorktreeCreate WorktreeRemove InstructionsLoaded CwdChanged FileChanged
DirectoryAdded MessageDisplay PreSkillShellCommand Interrupt""".split()


def captured(event: str) -> dict:
    return json.loads((CAPTURED / f"{event}.json").read_text())


def judged(event_or_request: str | dict, outcome: Outcome, version: str = "", closed=False):
    req = (
        captured(event_or_request)["request"]
        if isinstance(event_or_request, str)
        else event_or_request
    )
    rules = A.for_version(version).for_hook(closed)
    return rules.judge_hook(rules.parse(req), outcome)


def hso(event: str, **fields) -> dict:
    return specific(event, **fields)


# --- events -----------------------------------------------------------------


def test_all_35_events_have_a_canonical_meaning() -> None:
    assert len(ALL_EVENTS) == 35 and set(A.events) == set(ALL_EVENTS)
    assert A.event_of("PreSkillShellCommand") == "pre_tool_use"
    assert A.event_of("PermissionDenied") == "permission_request"
    assert A.event_of("TeammateIdle") == "stop"
    assert {"PreToolUse", "PreSkillShellCommand", "PreModelSwitch", "PermissionRequest"} <= A.guards


@pytest.mark.parametrize("path", sorted(CAPTURED.glob("*.json")), ids=lambda p: p.stem)
def test_every_captured_request_reads_as_its_own_event(path: Path) -> None:
    fixture = json.loads(path.read_text())
    call = A.parse(fixture["request"])
    assert call.native_event == path.stem and call.event == A.events[path.stem]
    assert A.version_in(fixture["env"]) == fixture["version"] == "2.1.337"


def test_the_request_details_by_their_canonical_names() -> None:
    failure = A.parse(captured("PostToolUseFailure")["request"])
    assert failure.details["error"] == "Exit code 3" and failure.details["is_interrupt"] is False
    assert failure.details["effort"] == {"level": "medium"}  # an object, kept as sent
    stop = A.parse(captured("Stop")["request"]).details
    assert (stop["last_message"], stop["stop_hook_active"]) == ("E2E-DONE", False)
    prompt = A.parse(captured("UserPromptSubmit")["request"]).details
    assert prompt["permission_mode"] == "default" and prompt["prompt_id"]
    sub = request("claude_pre_bash")
    sub.update(agent_type="Explore", mcp_server={"name": "db", "source": "project"})
    details = A.parse(sub).details
    assert details["agent_type"] == "Explore" and details["mcp_server"]["name"] == "db"
    assert set(details) | set(stop) | set(failure.details) <= set(DETAILS)
    # ...and written back the same way (the demo's traffic).
    assert A.parse(A.request_for(A.parse(sub))).details == details


# --- the guards besides PreToolUse (e2e: cases_events.CLAUDE_EVENTS) ---------

SKILL, MODEL = "PreSkillShellCommand", "PreModelSwitch"
GUARD_CASES = [
    ("skill-deny", SKILL, out(hso(SKILL, permissionDecision="deny", permissionDecisionReason="no")),
     {"decision": "deny", "reason": "no"}),
    ("skill-allow", SKILL, out(hso(SKILL, permissionDecision="allow")), {"decision": "allow"}),
    # A skill's line is never rewritten: the changed command is blocked.
    ("skill-rewrite-blocks", SKILL,
     out(hso(SKILL, permissionDecision="allow", updatedInput={"command": "touch x"})),
     {"decision": "deny", "reason": "the hook changed the command, which isn't supported here",
      "note": "blocks it"}),
    ("skill-exit2", SKILL, out(stderr="nope", exit=2), {"decision": "deny", "reason": "nope"}),
    ("model-deny", MODEL, out(hso(MODEL, permissionDecision="deny", permissionDecisionReason="$")),
     {"decision": "deny", "reason": "$"}),
    ("model-ask", MODEL, out(hso(MODEL, permissionDecision="ask", permissionDecisionReason="?")),
     {"decision": "ask", "reason": "?"}),
    ("model-legacy-block", MODEL, out({"decision": "block", "reason": "r"}),
     {"decision": "deny", "reason": "r"}),
    ("model-allow", MODEL, out(hso(MODEL, permissionDecision="allow")), {"decision": "allow"}),
]  # fmt: skip


@pytest.mark.parametrize(("event", "outcome", "expected"), [c[1:] for c in GUARD_CASES],
                         ids=[c[0] for c in GUARD_CASES])  # fmt: skip
def test_the_other_guards_read_as_the_runtime_acted(event, outcome, expected) -> None:
    verdict = judged(event, outcome)
    check(verdict, expected)
    assert verdict.lets_through is (expected["decision"] == "allow")


# --- Interrupt (2.1.335+; e2e: test_e2e_claude_interrupt.py) ------------------

INTERRUPT_CASES = [
    ("nothing", out(), {"decision": "allow"}),
    ("block-stop-exit2-ignored",
     out({"decision": "block", "reason": "r", "continue": False}, stderr="e", exit=2),
     {"decision": "allow", "note": "ignored", "answer_effects": {}}),
    ("exit1-ignored", out(stderr="e", exit=1), {"decision": "allow", "note": "ignored"}),
    ("crash", out(signal=9, exit=None), failed("signal", "proceeds")),
    ("timeout", out(timeout=True), failed("timeout", "proceeds")),
]  # fmt: skip


@pytest.mark.parametrize(("outcome", "expected"), [c[1:] for c in INTERRUPT_CASES],
                         ids=[c[0] for c in INTERRUPT_CASES])  # fmt: skip
def test_interrupt_hooks_change_nothing(outcome, expected) -> None:
    verdict = judged("Interrupt", outcome)
    check(verdict, expected)
    assert verdict.lets_through and A.event_of("Interrupt") == "stop"
    # onFailure: block has nothing to block there.
    closed = A.for_hook(True).judge_hook(A.parse(captured("Interrupt")["request"]), outcome)
    assert closed.lets_through


def test_interrupt_request_and_its_timeout() -> None:
    call = A.parse(captured("Interrupt")["request"])
    assert (call.event, call.native_event) == ("stop", "Interrupt")
    assert A.timeout_for("Interrupt") == 30_000  # the binary's, for this event
    assert A.timeout_for("Interrupt", "2.1.332") == 600_000  # no such event before 2.1.335


def test_a_stop_block_while_a_hook_already_kept_it_going_says_the_cap() -> None:
    again = dict(captured("Stop")["request"], stop_hook_active=True)
    verdict = judged(again, out({"decision": "block", "reason": "go on"}))
    check(verdict, {"decision": "deny", "reason": "go on", "note": "8 blocks in a row"})
    first = judged(captured("Stop")["request"], out({"decision": "block", "reason": "go on"}))
    check(first, {"decision": "deny", "reason": "go on"})


# --- what an answer asks for besides its decision ------------------------------

PR = "PermissionRequest"
ACTION_CASES = [
    ("system-message", "PreToolUse",
     out({"systemMessage": "heads up", "suppressOutput": True}),
     {"decision": "allow", "answer_effects": {"user_message": "heads up", "hide_output": True}}),
    ("permission-allow-rules", PR,
     out(hso(PR, decision={"behavior": "allow", "updatedPermissions": [{"type": "setMode"}]})),
     {"decision": "allow", "answer_effects": {"permissions": [{"type": "setMode"}]}}),
    ("permission-deny-interrupt", PR,
     out(hso(PR, decision={"behavior": "deny", "message": "no", "interrupt": True})),
     {"decision": "deny", "reason": "no", "answer_effects": {"interrupt": True}}),
    ("permission-denied-retry", {"hook_event_name": "PermissionDenied", "tool_name": "Bash"},
     out(hso("PermissionDenied", retry=True)), {"decision": "allow", "answer_effects": {"retry": True}}),
    ("elicitation-accept", {"hook_event_name": "Elicitation", "mcp_server_name": "db"},
     out(hso("Elicitation", action="accept", content={"name": "x"})),
     {"decision": "allow",
      "answer_effects": {"elicitation_action": "accept", "elicitation_content": {"name": "x"}}}),
    ("elicitation-decline", {"hook_event_name": "Elicitation"},
     out(hso("Elicitation", action="decline")),
     {"decision": "deny", "reason": "decline", "answer_effects": {"elicitation_action": "decline"}}),
    ("session-start", "SessionStart",
     out(hso("SessionStart", additionalContext="ctx", initialUserMessage="go",
             sessionTitle="T", watchPaths=["a.txt"])),
     {"decision": "allow", "context": "ctx", "answer_effects": {
         "initial_message": "go", "session_title": "T", "watch_paths": ["a.txt"]}}),
    ("prompt-suppressed", "UserPromptSubmit",
     out(hso("UserPromptSubmit", additionalContext="c", suppressOriginalPrompt=True)),
     {"decision": "allow", "context": "c", "answer_effects": {"suppress_prompt": True}}),
    ("message-display", "MessageDisplay", out(hso("MessageDisplay", displayContent="shown")),
     {"decision": "allow", "answer_effects": {"display_content": "shown"}}),
    ("classifier-context", "claude_post",
     out(hso("PostToolUse", classifierContext="benign")),
     {"decision": "allow", "answer_effects": {"classifier_context": "benign"}}),
    ("async", "PreToolUse", out({"async": True}),
     {"decision": "allow", "note": "without waiting", "answer_effects": {"async": True}}),
    ("continue-false-stop", "Stop", out({"continue": False, "stopReason": "done"}),
     {"decision": "allow", "reason": "done", "answer_effects": {"stop": "done"}}),
    # WorktreeCreate: the folder is the last line of stdout, plain text.
    ("worktree-path", "WorktreeCreate", out("making it\n/tmp/wt/feat1\n"),
     {"decision": "allow", "answer_effects": {"worktree_path": "/tmp/wt/feat1"}}),
    ("worktree-json-fails", "WorktreeCreate",
     out(hso("WorktreeCreate", worktreePath="/tmp/wt")),
     failed("unsupported", "blocks", detail="last line of stdout")),
    ("worktree-exit1", "WorktreeCreate", out(stderr="no", exit=1), failed("exit_code", "blocks")),
]  # fmt: skip


def _request(source: str | dict) -> dict:
    if isinstance(source, dict):
        return source
    if source == "claude_post":
        return request("claude_post_bash")
    return captured(source)["request"]


@pytest.mark.parametrize(("source", "outcome", "expected"), [c[1:] for c in ACTION_CASES],
                         ids=[c[0] for c in ACTION_CASES])  # fmt: skip
def test_what_an_answer_asks_for_is_in_the_verdict(source, outcome, expected) -> None:
    verdict = judged(_request(source), outcome)
    check(verdict, expected)
    assert set(verdict.answer_effects) <= set(ACTIONS)


def test_defer_is_its_own_decision_and_stops_the_call() -> None:
    verdict = judged("PreToolUse", out(hso("PreToolUse", permissionDecision="defer")))
    assert verdict.decision == "defer" and not verdict.lets_through


# --- timeouts -----------------------------------------------------------------


def test_default_timeouts_per_event_and_handler_type() -> None:
    # Measured here: UserPromptSubmit 30 s, MessageDisplay 10 s (test_e2e_claude_versions).
    assert A.timeout_for("UserPromptSubmit") == 30_000
    assert A.timeout_for("MessageDisplay") == 10_000
    assert A.timeout_for("SessionEnd") == 1_500  # one budget the SessionEnd hooks share
    assert A.timeout_for("PreToolUse") == A.timeout_for("Stop") == 600_000
    assert A.timeouts.default_for("PreToolUse", "prompt") == 30_000
    assert A.timeouts.default_for("PreToolUse", "agent") == 60_000


# --- onFailure: "block" (2.1.295+) --------------------------------------------

ON_FAILURE = [
    ("exit1", "PreToolUse", out(stderr="E2E-EXIT1", exit=1), failed("exit_code", "blocks")),
    ("exit3", "PreToolUse", out(stderr="x", exit=3), failed("exit_code", "blocks")),
    ("crash", "PreToolUse", out(signal=9), failed("signal", "blocks")),
    ("crash-through-the-tap", "PreToolUse", out(exit=137), failed("exit_code", "blocks")),
    ("timeout", "PreToolUse", out(timeout=True), failed("timeout", "blocks")),
    ("cannot-start", "PreToolUse", out(spawn="ENOENT"), failed("spawn_error", "blocks")),
    ("json-allow-exit1", "PreToolUse", out(hso("PreToolUse", permissionDecision="allow"), exit=1),
     failed("exit_code", "blocks")),
    ("invalid-json", "PreToolUse", out({"decision": "allow"}), failed("unsupported", "blocks")),
    ("plain-text", "PreToolUse", out("just text"), {"decision": "allow"}),
    ("post-exit1", "PostToolUse", out(stderr="E2E-PEXIT1", exit=1),
     failed("exit_code", "blocks")),
    # Ignored at Stop (and SubagentStop, TaskCompleted, TeammateIdle).
    ("stop-ignores-it", "Stop", out(stderr="x", exit=1), failed("exit_code", "proceeds")),
]  # fmt: skip


@pytest.mark.parametrize(("event", "outcome", "expected"), [c[1:] for c in ON_FAILURE],
                         ids=[c[0] for c in ON_FAILURE])  # fmt: skip
def test_on_failure_block_makes_a_failure_block(event, outcome, expected) -> None:
    check(judged(event, outcome, "2.1.332", closed=True), expected)
    check(judged(event, outcome, "", closed=True), expected)  # unknown: the newest rules


# --- the rules dated by version -------------------------------------------------

EXIT2_INVALID = out({"decision": "allow"}, "E2E-EXIT2", exit=2)
DENY_AND_STOP = out(
    {"continue": False, "stopReason": "s",
     **hso("PreToolUse", permissionDecision="deny", permissionDecisionReason="E2E-DS")}
)  # fmt: skip


@pytest.mark.parametrize("version", ["2.1.214", "2.1.332", ""])
def test_exit2_with_a_dropped_answer_blocks_since_2_1_214(version) -> None:
    check(judged("PreToolUse", EXIT2_INVALID, version),
          {"decision": "deny", "reason": "E2E-EXIT2", "note": "exit 2 blocks"})  # fmt: skip


@pytest.mark.parametrize("version", ["2.1.197", "2.1.213"])
def test_exit2_with_a_dropped_answer_proceeded_before(version) -> None:
    check(judged("PreToolUse", EXIT2_INVALID, version), failed("unsupported", "proceeds"))


@pytest.mark.parametrize(("version", "blocks"), [("2.1.197", False), ("2.1.294", False),
                                                 ("2.1.295", True), ("", True)])  # fmt: skip
def test_on_failure_block_is_read_from_2_1_295(version, blocks) -> None:
    verdict = judged("PreToolUse", out(stderr="x", exit=1), version, closed=True)
    assert verdict.effect == ("blocks" if blocks else "proceeds")
    crash = judged("PreToolUse", out(signal=9), version, closed=True)
    assert crash.effect == verdict.effect
    allow = judged("PreToolUse", out(hso("PreToolUse", permissionDecision="allow"), exit=1),
                   version, closed=True)  # fmt: skip
    assert allow.lets_through is not blocks


def test_deny_with_continue_false_ends_the_turn_only_in_the_newer_rules() -> None:
    check(judged("PreToolUse", DENY_AND_STOP, "2.1.332"),
          {"decision": "deny", "reason": "E2E-DS", "answer_effects": {"stop": "s"}})  # fmt: skip
    check(judged("PreToolUse", DENY_AND_STOP, "2.1.197"), {"decision": "deny", "reason": "E2E-DS"})
    assert judged("PreToolUse", DENY_AND_STOP, "2.1.197").answer_effects == {}


def test_the_version_comes_from_ai_agent() -> None:
    assert A.version_in({"AI_AGENT": "claude-code_2-1-197_harness"}) == "2.1.197"
    assert A.version_in({"AI_AGENT": "other_2-1-197"}) == "" and A.version_in({}) == ""


# --- through the real tap: the record, and show ---------------------------------


def _tap(tmp_path, *tap_args: str, agent: str, hook: list[str]) -> dict:
    stream = tmp_path / "s.jsonl"
    argv = [HOOKTUI, "tap", "--wait", "--stream", str(stream), "--runtime", "claude-code"]
    env = dict(os.environ, AI_AGENT=agent)
    req = json.dumps(captured("PreToolUse")["request"]).encode()
    subprocess.run(
        [*argv, *tap_args, "--", *hook], input=req, env=env, capture_output=True, timeout=60
    )
    [rec] = wait_for_records(stream, 1)
    return rec


def test_a_failed_fail_closed_hook_is_recorded_as_blocking_and_shown_so(tmp_path) -> None:
    crash = ["sh", "-c", "echo E2E-EXIT1 >&2; exit 1"]
    rec = _tap(tmp_path, "--fail-closed", agent="claude-code_2-1-332_harness", hook=crash)
    assert (rec["runtime_version"], rec["hook"]["fails"]) == ("2.1.332", "closed")
    assert (rec["decision"], rec["failure"], rec["effect"]) == ("failure", "exit_code", "blocks")
    shown = subprocess.run([HOOKTUI, "show", str(tmp_path / "s.jsonl")], capture_output=True,
                           text=True, env=dict(os.environ, NO_COLOR="1"), timeout=60)  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert "fail" in shown.stdout and "failed open" not in shown.stdout, shown.stdout


def test_the_same_failure_under_2_1_197_proceeds(tmp_path) -> None:
    rec = _tap(tmp_path, "--fail-closed", agent="claude-code_2-1-197_harness",
               hook=["sh", "-c", "exit 1"])  # fmt: skip
    assert (rec["runtime_version"], rec["hook"]["fails"]) == ("2.1.197", "open")
    assert rec["effect"] == "proceeds"


def test_the_record_holds_the_details_and_the_answer_effects(tmp_path) -> None:
    answer = json.dumps({"systemMessage": "heads up"})
    rec = _tap(tmp_path, agent="claude-code_2-1-332_harness", hook=["echo", answer])
    assert rec["answer_effects"] == {"user_message": "heads up"}
    assert rec["details"]["permission_mode"] == "default"


def test_session_end_hooks_get_at_most_60_s_however_long_their_timeout() -> None:
    assert A.timeouts.applied(300, "SessionEnd") == 60_000
    assert A.timeouts.applied(4, "SessionEnd") == 4_000
    assert A.timeouts.applied(300, "PreToolUse") == 300_000


def test_install_and_the_record_tell_the_timeout_the_runtime_applies(tmp_path) -> None:
    settings = tmp_path / "settings.json"
    hooks = {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
        "SessionEnd": [{"hooks": [{"type": "command", "command": "true", "timeout": 300}]}],
    }
    settings.write_text(json.dumps({"hooks": hooks}))
    res = subprocess.run(
        [HOOKTUI, "install", "claude-code", "--settings", str(settings)],
        capture_output=True,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    installed = json.loads(settings.read_text())["hooks"]
    prompt = installed["UserPromptSubmit"][0]["hooks"][0]["command"]
    end = installed["SessionEnd"][0]["hooks"][0]["command"]
    assert "--timeout-ms 30000 --timeout-default" in prompt
    assert "--timeout-ms 60000" in end and "--timeout-default" not in end
