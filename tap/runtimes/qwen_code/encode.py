"""Qwen Code: the native answer that makes Qwen Code 0.24.4 reach a verdict (the demo's
and the tests' answers; qwen_code/__init__.py reads answers)."""

from __future__ import annotations

from hooktui.tap.canonical import Call, Verdict
from hooktui.tap.runtimes.base import cannot, json_line
from hooktui.tap.runtimes.qwen_code.words import NON_BLOCKING

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any


def encode(name: str, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
    native = call.native_event or "PreToolUse"
    d = verdict.decision
    ctx = {"additionalContext": verdict.context} if verdict.context else {}
    if d == "failure":
        if verdict.failure == "exit_code":
            return b"", (verdict.failure_detail or "warning").encode() + b"\n", 1
        if verdict.failure == "invalid_json":
            return b"{not json\n", b"", 0
        raise cannot(name, verdict, native)
    if native == "PermissionRequest":
        if d == "ask":
            return json_line({}), b"", 0
        dec: dict[str, Any] = {"behavior": "deny" if d == "deny" else "allow"}
        if d == "modify":
            dec["updatedInput"] = verdict.updated_input
        elif d == "deny":
            dec["message"] = verdict.reason
        elif d != "allow":
            raise cannot(name, verdict, native)
        answer = {"hookSpecificOutput": {"hookEventName": native, "decision": dec}}
        return json_line(answer), b"", 0
    if ctx and native == "PreToolUse":  # 0.24.4 passes it to nobody (seen 2026-12-05)
        raise ValueError(f"{name} has no hook answer that adds context at {native}")
    if d == "allow":
        if not ctx:
            return b"", b"", 0
        return json_line({"hookSpecificOutput": {"hookEventName": native, **ctx}}), b"", 0
    if d in ("deny", "ask") and native == "PreToolUse":
        hso = {"hookEventName": native, "permissionDecision": d}
        if verdict.reason:
            hso["permissionDecisionReason"] = verdict.reason
        return json_line({"hookSpecificOutput": hso}), b"", 0
    if d == "deny" and native not in NON_BLOCKING:
        return b"", (verdict.reason or "blocked").encode() + b"\n", 2
    raise cannot(name, verdict, native)
