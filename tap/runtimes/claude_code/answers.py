"""Claude Code's reading of a hook's answer: the verdict it acts on, by the rules of
the version that ran the hook (claude_code/__init__.py holds the runtime and lists the rules).

Dated rules (the version comes from `AI_AGENT`; unknown: the newest):
- since 2.1.214, exit 2 blocks even when stdout holds JSON that fails the output
  schema (2.1.197: a non-blocking error, the action proceeded);
- since 2.1.295, `onFailure: "block"` (claude_code/__init__.py's settings layout);
- a deny with `continue: false` ends the turn (first seen in 2.1.332; 2.1.197
  sent the reason back and went on);
- since 2.1.335, Interrupt, whose hooks' output and exit code change nothing.
"""

from __future__ import annotations

from hooktui.tap.canonical import UNSET, Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    failure,
    halt,
    process_failure,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.claude_code.events import (
    NON_BLOCKING,
    OUTPUT_IGNORED,
    PERMISSION_GUARDS,
    TEXT_IS_CONTEXT,
)
from hooktui.tap.runtimes.claude_code.schema import LEGACY, invalid_answer
from hooktui.tap.runtimes.descriptor import in_force

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

    from hooktui.tap.runtimes.descriptor import Runtime

EXIT2_BLOCKS_INVALID_SINCE = "2.1.214"
DENY_ENDS_TURN_SINCE = "2.1.332"

# What an answer asks for besides its decision: top-level keys, then hookSpecificOutput
# keys, -> canonical.ACTIONS names.
_TOP_ACTIONS = (
    ("systemMessage", "user_message"),
    ("suppressOutput", "hide_output"),
    ("terminalSequence", "terminal_sequence"),
    ("async", "async"),
)
_HSO_ACTIONS = (
    ("initialUserMessage", "initial_message"),
    ("sessionTitle", "session_title"),
    ("watchPaths", "watch_paths"),
    ("reloadSkills", "reload_skills"),
    ("suppressOriginalPrompt", "suppress_prompt"),
    ("displayContent", "display_content"),
    ("classifierContext", "classifier_context"),
    ("retry", "retry"),
)
# An MCP server's question, answered for the user (Elicitation, ElicitationResult).
_ELICITATION_ACTIONS = (("action", "elicitation_action"), ("content", "elicitation_content"))
_SKILL_REWRITE = "the hook changed the command, which isn't supported here"


def fails_closed_here(rt: Runtime, call: Call) -> bool:
    """Does this hook's failure block the action (onFailure: block, honoured here)?"""
    return (
        rt.hook_fails_closed
        and rt.honours_fail_closed(call)
        and call.native_event not in NON_BLOCKING
    )


def judge(rt: Runtime, call: Call, outcome: Outcome) -> Verdict:
    native = call.native_event
    if native in OUTPUT_IGNORED:
        return _ignored(rt, native, outcome)
    verdict = _judge(rt, call, outcome)
    if verdict.decision == "deny" and native in _STOPS and _details(call, "stop_hook_active"):
        # One call cannot tell its place in a run of blocks (seen in 2.1.332's bundle).
        note = (
            f"{native} already went on for a hook: Claude Code ends the turn anyway after 8 "
            "blocks in a row (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP)"
        )
        verdict.failure_detail = "; ".join(filter(None, (verdict.failure_detail, note)))
    return verdict


_STOPS = frozenset({"Stop", "SubagentStop"})


def _details(call: Call, name: str) -> Any:
    return (call.details or {}).get(name)


def _ignored(rt: Runtime, native: str, outcome: Outcome) -> Verdict:
    """An event whose hooks' answers and exit codes Claude Code ignores (Interrupt)."""
    crashed = process_failure(outcome, rt.title, "proceeds", f"{native} hooks change nothing")
    if crashed:
        return crashed
    said = outcome.exit_code != 0 or text_of(outcome.stdout) or text_of(outcome.stderr)
    note = f"{native}'s hook output and exit code are ignored" if said else ""
    return Verdict(decision="allow", failure_detail=note)


def _judge(rt: Runtime, call: Call, outcome: Outcome) -> Verdict:
    native = call.native_event
    closed = fails_closed_here(rt, call)
    effect = "blocks" if closed else "proceeds"
    consequence = _consequence(closed)
    if native == "WorktreeCreate":  # no folder, no worktree: a failure always stops it
        effect, consequence = "blocks", "the worktree is not created"
    crashed = process_failure(outcome, rt.title, effect, consequence)
    if crashed:
        return crashed
    if native == "WorktreeCreate":
        return _worktree(outcome, effect)
    code = outcome.exit_code
    out = Stdout(outcome.stdout)
    obj = out.obj if out.text.startswith("{") else None
    if code == 2 and native in NON_BLOCKING:
        return failure(
            "exit_code", f"exit 2: {native} cannot block; Claude Code shows stderr to the user only"
        )
    if closed and code != 0 and code != 2:
        return failure(
            "exit_code",
            f'exit {code}: the hook failed and its onFailure is "block": Claude Code blocks '
            "the action (an answer on stdout is not read)",
            "blocks",
        )
    if obj is not None:
        return _judge_object(rt, call, outcome, obj, effect)
    if code == 2:
        return Verdict(decision="deny", reason=text_of(outcome.stderr))
    if code != 0:
        return failure(
            "exit_code",
            f"exit {code}: without a JSON answer on stdout Claude Code treats non-zero "
            "exits other than 2 as a non-blocking error; the action proceeds",
        )
    if out.kind == "empty":
        return Verdict(decision="allow")
    if not out.text.startswith("{"):
        # Plain text (a JSON array or string counts as text too).
        if native in TEXT_IS_CONTEXT:
            return Verdict(decision="allow", context=out.text)
        return Verdict(decision="allow")
    # Broken JSON is plain text to Claude Code (pinned: no error, the call goes ahead).
    # Say so: the hook's author almost surely meant an answer.
    return Verdict(
        decision="allow",
        failure_detail=(
            "stdout starts with `{` but is not valid JSON; Claude Code reads it as plain "
            "text, not as an answer, and the action proceeds"
        ),
    )


def _consequence(closed: bool) -> str:
    if closed:
        return 'its onFailure is "block", so the action is blocked'
    return "a hook that does not answer is a non-blocking error"


def _judge_object(rt: Runtime, call: Call, outcome: Outcome, obj: dict, effect: str) -> Verdict:
    """A JSON object on stdout: read whatever the exit code (exit 1 with a deny blocks,
    exit 1 with an allow is a plain success), once it passes the output schema."""
    code = outcome.exit_code
    problem = invalid_answer(call, obj)
    if problem and code == 2 and in_force(EXIT2_BLOCKS_INVALID_SINCE, rt.version):
        return Verdict(
            decision="deny",
            reason=text_of(outcome.stderr),
            failure_detail=f"{problem}; exit 2 blocks all the same, with stderr as the reason",
        )
    if problem:
        if effect == "blocks":
            then = 'the hook failed and its onFailure is "block": Claude Code blocks the action'
        else:
            then = (
                "Claude Code reports a non-blocking error, ignores the whole answer "
                "(exit code included) and the action proceeds"
            )
        return failure("unsupported", f"{problem}; {then}", effect)
    verdict = judge_json(rt, call, obj)
    if code == 2 and verdict.decision != "deny":
        # exit 2 blocks with stderr unless the JSON itself already blocked.
        return Verdict(
            decision="deny", reason=text_of(outcome.stderr), answer_effects=verdict.answer_effects
        )
    return verdict


def answer_effects_of(native: str, obj: dict, hso: dict) -> dict[str, Any]:
    """What the answer asks for besides its decision (canonical.ACTIONS names)."""
    found: dict[str, Any] = {}
    for key, name in _TOP_ACTIONS:
        value = obj.get(key)
        if value is not None and value is not False and value != "":
            found[name] = value
    elicitation = _ELICITATION_ACTIONS if native.startswith("Elicitation") else ()
    for key, name in (*_HSO_ACTIONS, *elicitation):
        value = hso.get(key)
        if value is not None:
            found[name] = value
    return found


def judge_json(rt: Runtime, call: Call, obj: dict) -> Verdict:
    hso = obj.get("hookSpecificOutput")
    hso = hso if isinstance(hso, dict) else {}
    context = hso.get("additionalContext")
    context = context if isinstance(context, str) else ""
    actions = answer_effects_of(call.native_event, obj, hso)
    if obj.get("async") is True:
        return Verdict(
            decision="allow",
            answer_effects=actions,
            failure_detail=(
                "the hook answered async: Claude Code went on without waiting for its answer"
            ),
        )
    if obj.get("continue") is False:
        verdict = _judge_continue_false(rt, call, obj, hso, context, actions)
    else:
        verdict = _decide(call, obj, hso, context)
    verdict.answer_effects = {**actions, **verdict.answer_effects}  # a fresh dict
    return verdict


def _judge_continue_false(
    rt: Runtime, call: Call, obj: dict, hso: dict, context: str, actions: dict
) -> Verdict:
    reason = str_field(obj, "stopReason")
    actions["stop"] = reason
    if call.event not in ("pre_tool_use", "post_tool_use"):
        return halt(call, reason or "continue: false (Claude Code stops)", context)
    # At a tool event the answer still decides the call (the tool runs, PostToolUse
    # fires); only then the turn ends.
    verdict = _decide(call, obj, hso, context)
    if verdict.decision == "deny":
        if not in_force(DENY_ENDS_TURN_SINCE, rt.version):
            del actions["stop"]  # 2.1.197: the model reads the reason and goes on
        return verdict
    verdict.reason = verdict.reason or reason or "continue: false"
    verdict.failure_detail = (
        "continue: false: Claude Code lets the call go ahead, then ends the turn "
        "(stopReason goes to the user; the model is not asked again)"
    )
    return verdict


def _decide(call: Call, obj: dict, hso: dict, context: str) -> Verdict:
    """The decision itself, by event."""
    native = call.native_event
    legacy = obj.get("decision")
    reason = str_field(obj, "reason")
    if native in PERMISSION_GUARDS or (call.event == "pre_tool_use" and not native):
        return _permission_decision(call, hso, legacy, reason, context)
    if native == "PermissionRequest":
        return _permission_request(hso)
    if native in ("Elicitation", "ElicitationResult") and hso.get("action") in (
        "decline",
        "cancel",
    ):
        return Verdict(decision="deny", reason=hso["action"])
    if legacy == "block" and native not in NON_BLOCKING:
        return Verdict(decision="deny", reason=reason, context=context)
    if call.event == "post_tool_use":
        return _post_tool_use(call, hso, context)
    return Verdict(decision="allow", context=context)


def _permission_decision(call: Call, hso: dict, legacy: Any, reason: str, context: str) -> Verdict:
    """PreToolUse, PreSkillShellCommand, PreModelSwitch: `permissionDecision`."""
    pd = hso.get("permissionDecision")
    updated = hso.get("updatedInput")
    pd_reason = str_field(hso, "permissionDecisionReason")
    skill = call.native_event == "PreSkillShellCommand"
    if pd == "deny":
        # The model reads permissionDecisionReason, else the top-level reason.
        return Verdict(decision="deny", reason=pd_reason or reason, context=context)
    if pd in ("ask", "defer"):
        verdict = Verdict(decision=pd, reason=pd_reason or (reason if pd == "defer" else ""))
        verdict.context = context
        if isinstance(updated, dict) and pd == "ask":
            verdict.updated_input = updated
        return verdict
    if isinstance(updated, dict) and skill:
        # A skill's shell line is never rewritten: a changed command is refused.
        return Verdict(
            decision="deny",
            reason=_SKILL_REWRITE,
            context=context,
            failure_detail=(
                "updatedInput at PreSkillShellCommand: Claude Code does not run the changed "
                "line, it blocks it"
            ),
        )
    if isinstance(updated, dict):
        return Verdict(
            decision="modify",
            reason=pd_reason if pd else "",
            context=context,
            updated_input=updated,
        )
    if pd == "allow":
        return Verdict(decision="allow", reason=pd_reason, context=context)
    if legacy is not None:
        return Verdict(decision=LEGACY[legacy], reason=reason, context=context)
    return Verdict(decision="allow", context=context)


def _permission_request(hso: dict) -> Verdict:
    dec = hso.get("decision")
    dec = dec if isinstance(dec, dict) else {}
    behavior = dec.get("behavior")
    actions: dict[str, Any] = {}
    if dec.get("updatedPermissions") is not None:
        actions["permissions"] = dec["updatedPermissions"]
    if dec.get("interrupt") is True:
        actions["interrupt"] = True
    if behavior == "deny":
        return Verdict(decision="deny", reason=str_field(dec, "message"), answer_effects=actions)
    if behavior == "allow":
        updated = dec.get("updatedInput")
        if isinstance(updated, dict):
            return Verdict(decision="modify", updated_input=updated, answer_effects=actions)
        return Verdict(decision="allow", answer_effects=actions)
    # No decision: the normal permission dialog is shown.
    return Verdict(decision="ask")


def _post_tool_use(call: Call, hso: dict, context: str) -> Verdict:
    replaced = replaced_output(call, hso)
    if replaced is not UNSET:
        return Verdict(decision="replace", context=context, updated_output=replaced)
    if "updatedToolOutput" in hso or "updatedMCPToolOutput" in hso:
        return Verdict(
            decision="allow",
            context=context,
            failure_detail=(
                f"the replacement output does not fit {call.tool_name or 'the tool'}'s "
                "output shape (only MCP tools take any value); Claude Code keeps the "
                "real output"
            ),
        )
    return Verdict(decision="allow", context=context)


def _worktree(outcome: Outcome, effect: str) -> Verdict:
    """WorktreeCreate: the folder is the last line of stdout, plain text (a JSON
    answer is taken as a path too, and fails); any other exit fails the creation."""
    code = outcome.exit_code
    if code != 0:
        return failure(
            "exit_code",
            f"exit {code}: WorktreeCreate failed; Claude Code does not create the worktree",
            "blocks",
        )
    lines = [line.strip() for line in text_of(outcome.stdout).splitlines() if line.strip()]
    if not lines:
        return failure(
            "empty_output",
            "WorktreeCreate printed no folder; Claude Code does not create the worktree",
            "blocks",
        )
    path = lines[-1]
    if path.startswith("{"):
        return failure(
            "unsupported",
            "WorktreeCreate's folder is the last line of stdout, plain text: Claude Code takes "
            "this JSON for a path, finds no such folder, and does not create the worktree",
            "blocks",
        )
    return Verdict(decision="allow", answer_effects={"worktree_path": path})


def replaced_output(call: Call, hso: dict) -> Any:
    """The output the model gets instead of the tool's, or UNSET when it keeps the real one.

    Claude Code takes any updatedToolOutput for an MCP tool, and updatedMCPToolOutput
    (when truthy) only for MCP tools. For a built-in tool the value must fit the
    tool's own output schema, or the real output stays; Bash's is {stdout: str,
    stderr: str, interrupted: bool, ...} (pinned), other tools' schemas are not
    known here, so an object is taken as fitting.
    """
    mcp = call.tool_name.startswith("mcp__")
    if "updatedToolOutput" in hso:
        value = hso["updatedToolOutput"]
        if value is not None and (mcp or fits_output(call.tool_name, value)):
            return value
        return UNSET
    value = hso.get("updatedMCPToolOutput")
    if mcp and value:
        return value
    return UNSET


def fits_output(tool: str, value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if tool == "Bash":
        return (
            isinstance(value.get("stdout"), str)
            and isinstance(value.get("stderr"), str)
            and isinstance(value.get("interrupted"), bool)
        )
    return True
