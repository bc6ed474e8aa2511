"""Claude Code's output schema: when it drops a hook's JSON answer whole (claude_code/answers.py
reads what it keeps). Pinned against the real CLI: a wrong type, an unknown decision, a
hookSpecificOutput without this event's name (tests/e2e: deny-without-hookEventName,
deny-under-wrong-hookEventName, invalid-answer-with-exit2)."""

from __future__ import annotations

from hooktui.tap.canonical import Call
from hooktui.tap.runtimes.claude_code.events import PERMISSION_GUARDS

PERMISSION = ("allow", "deny", "ask", "defer")
LEGACY = {"approve": "allow", "block": "deny"}
# Output schema field types (a wrong type, null included, fails validation).
_BOOL_FIELDS = ("continue", "suppressOutput", "async")
_STR_FIELDS = ("stopReason", "reason", "systemMessage", "terminalSequence")


def invalid_answer(call: Call, obj: dict) -> str:
    """Why Claude Code rejects this JSON answer outright, or "" when it reads it.

    Claude Code validates stdout against its output schema, then checks that
    hookSpecificOutput names this very event; either failing drops the whole answer.
    """
    for key in _BOOL_FIELDS:
        if key in obj and not isinstance(obj[key], bool):
            return f"{key} is not true or false"
    for key in _STR_FIELDS:
        if key in obj and not isinstance(obj[key], str):
            return f"{key} is not a string"
    legacy = obj.get("decision", "approve")
    if legacy not in LEGACY:
        return f"decision {legacy!r} is not a Claude Code decision (approve or block)"
    if "hookSpecificOutput" not in obj:
        return ""
    hso = obj["hookSpecificOutput"]
    if not isinstance(hso, dict):
        return "hookSpecificOutput is not an object"
    name = hso.get("hookEventName")
    if name is None:
        return 'hookSpecificOutput is missing its "hookEventName"'
    expected = call.native_event
    if expected and name != expected:
        return f"hookSpecificOutput names {name!r}, not this event ({expected!r})"
    if "additionalContext" in hso and not isinstance(hso["additionalContext"], str):
        return "additionalContext is not a string"
    if name in PERMISSION_GUARDS:
        pd = hso.get("permissionDecision", "allow")
        if pd not in PERMISSION:
            return f"permissionDecision {pd!r} is not allow, deny, ask or defer"
        if "permissionDecisionReason" in hso and not isinstance(
            hso["permissionDecisionReason"], str
        ):
            return "permissionDecisionReason is not a string"
        if "updatedInput" in hso and not isinstance(hso["updatedInput"], dict):
            return "updatedInput is not an object"
    if name == "PermissionRequest":
        dec = hso.get("decision")
        if not isinstance(dec, dict) or dec.get("behavior") not in ("allow", "deny"):
            return "PermissionRequest decision.behavior is not allow or deny"
    return ""
