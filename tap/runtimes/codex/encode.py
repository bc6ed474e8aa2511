"""Codex: the native answer that makes Codex reach a verdict (the demo's and the tests'
answers; codex/__init__.py reads answers)."""

from __future__ import annotations

from hooktui.tap.canonical import Call, Verdict
from hooktui.tap.runtimes.base import cannot, encode_generic_failure, json_line

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any


def encode(name: str, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
    native = call.native_event or "PreToolUse"
    d = verdict.decision
    ctx = {"additionalContext": verdict.context} if verdict.context else {}
    if d == "failure":
        if verdict.failure == "unsupported":
            out = {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "ask",
                }
            }
            if native == "PreToolUse":
                return json_line(out), b"", 0
            if native == "PermissionRequest":
                return json_line({"continue": False}), b"", 0
            if native == "SessionEnd":  # Codex reads no answer there
                raise cannot(name, verdict, native)
            # Without a reason where a block is read; an unknown field elsewhere.
            return json_line({"decision": "block"}), b"", 0
        return encode_generic_failure(name, call, verdict)
    if d == "allow":
        if ctx and native in ("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart"):
            return json_line({"hookSpecificOutput": {"hookEventName": native, **ctx}}), b"", 0
        if native == "PermissionRequest":
            dec = {"behavior": "allow"}
            return (
                json_line({"hookSpecificOutput": {"hookEventName": native, "decision": dec}}),
                b"",
                0,
            )
        return b"", b"", 0
    if d == "deny":
        reason = verdict.reason or "denied"
        if native == "PreToolUse":
            hso = {
                "hookEventName": native,
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
                **ctx,
            }
            return json_line({"hookSpecificOutput": hso}), b"", 0
        if native == "PermissionRequest":
            dec = {"behavior": "deny", "message": reason}
            return (
                json_line({"hookSpecificOutput": {"hookEventName": native, "decision": dec}}),
                b"",
                0,
            )
        out: dict[str, Any] = {"decision": "block", "reason": reason}
        if ctx:
            out["hookSpecificOutput"] = {"hookEventName": native, **ctx}
        return json_line(out), b"", 0
    if d == "modify" and native == "PreToolUse":
        hso = {
            "hookEventName": native,
            "permissionDecision": "allow",
            "updatedInput": verdict.updated_input,
            **ctx,
        }
        return json_line({"hookSpecificOutput": hso}), b"", 0
    if d == "ask" and native == "PermissionRequest":
        return json_line({}), b"", 0
    raise cannot(name, verdict, native)
