"""Claude Code's answers written out: the native answer that makes Claude Code reach a
verdict (the demo's guards and the round-trip tests use it; claude_code/answers.py reads them)."""

from __future__ import annotations

from hooktui.tap.canonical import Call, Verdict
from hooktui.tap.runtimes.base import cannot, encode_generic_failure, has, json_line
from hooktui.tap.runtimes.claude_code.answers import fits_output
from hooktui.tap.runtimes.claude_code.events import NON_BLOCKING, PERMISSION_GUARDS

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any


def encode(runtime: str, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
    native = call.native_event or "PreToolUse"
    d = verdict.decision
    if d == "failure":
        if verdict.failure == "invalid_json":  # broken JSON is plain text: an allow
            raise cannot(runtime, verdict, native)
        return encode_generic_failure(runtime, call, verdict)
    if native in PERMISSION_GUARDS:
        return _permission_decision(runtime, native, verdict)
    if native == "PermissionRequest":
        return _permission_request(runtime, native, verdict)
    ctx = {"additionalContext": verdict.context} if verdict.context else {}
    if d == "allow":
        if not ctx:
            return b"", b"", 0
        return json_line({"hookSpecificOutput": {"hookEventName": native, **ctx}}), b"", 0
    if d == "deny" and native not in NON_BLOCKING:
        out: dict[str, Any] = {"decision": "block", "reason": verdict.reason}
        if ctx:
            out["hookSpecificOutput"] = {"hookEventName": native, **ctx}
        return json_line(out), b"", 0
    if d == "replace" and call.event == "post_tool_use":
        if not (
            call.tool_name.startswith("mcp__")
            or fits_output(call.tool_name, verdict.updated_output)
        ):
            raise cannot(
                runtime,
                verdict,
                f"{native} for {call.tool_name or 'this tool'} with that output",
            )
        hso = {"hookEventName": native, "updatedToolOutput": verdict.updated_output, **ctx}
        return json_line({"hookSpecificOutput": hso}), b"", 0
    raise cannot(runtime, verdict, native)


def _permission_decision(runtime: str, native: str, verdict: Verdict) -> tuple[bytes, bytes, int]:
    """PreToolUse, PreSkillShellCommand, PreModelSwitch."""
    d = verdict.decision
    hso: dict[str, Any] = {"hookEventName": native}
    if d == "allow":
        if not verdict.context:
            return b"", b"", 0
        hso["permissionDecision"] = "allow"
    elif d in ("deny", "ask", "defer"):
        hso["permissionDecision"] = d
        if verdict.reason:
            hso["permissionDecisionReason"] = verdict.reason
        if d == "ask" and has(verdict.updated_input):
            hso["updatedInput"] = verdict.updated_input
    elif d == "modify" and native != "PreSkillShellCommand":  # a skill's line: blocked
        hso["permissionDecision"] = "allow"
        hso["updatedInput"] = verdict.updated_input
    else:
        raise cannot(runtime, verdict, native)
    if verdict.context:
        hso["additionalContext"] = verdict.context
    return json_line({"hookSpecificOutput": hso}), b"", 0


def _permission_request(runtime: str, native: str, verdict: Verdict) -> tuple[bytes, bytes, int]:
    d = verdict.decision
    if d == "allow":
        dec: dict[str, Any] = {"behavior": "allow"}
    elif d == "modify":
        dec = {"behavior": "allow", "updatedInput": verdict.updated_input}
    elif d == "deny":
        dec = {"behavior": "deny", "message": verdict.reason}
    elif d == "ask":
        return json_line({}), b"", 0
    else:
        raise cannot(runtime, verdict, native)
    return json_line({"hookSpecificOutput": {"hookEventName": native, "decision": dec}}), b"", 0
