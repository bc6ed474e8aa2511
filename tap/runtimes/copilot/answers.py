"""GitHub Copilot CLI's reading of a hook's answer, and the answer for a verdict
(copilot/__init__.py holds the runtime: its events and requests).

Rules, from what the real 1.0.102 did (tests/e2e/ORACLE.md, test_e2e_copilot.py):
- Answers are flat: preToolUse `permissionDecision` allow|deny|ask (+
  `permissionDecisionReason`), `modifiedArgs` (the whole new args, with or without
  a decision; a string is read as JSON). New args that are no object (null too) or
  that the tool refuses (`bash` without a string `command`) refuse the call: the
  tool never runs and the model reads `Invalid input: ...` (seen 2026-12-07). Headless, `ask` refuses. Claude's `hookSpecificOutput`
  (permissionDecision, updatedInput) is read only in the Claude dialect; legacy
  `decision: block` and `continue: false` are not read at preToolUse.
- stdout lines `{"type": "progress", ...}` are skipped; the answer is the rest.
  Plain text, `{not json` and empty are no answer: the tool runs.
- preToolUse fails CLOSED: exit 2 denies whatever was printed, with the reason
  `hook exited with code 2` (stderr is never the reason: it goes to Copilot's log);
  any other non-zero exit, or a crash (Copilot reports a kill as code 1), denies
  as a failure. A timeout fails OPEN.
- postToolUse: `modifiedResult` replaces what the model reads, but only as an
  object (`{resultType, textResultForLlm}`; a string is ignored);
  `additionalContext` is appended; `decision: block` + reason replaces the result
  with `Tool result blocked: <reason>`. Non-zero exits are ignored there.
- agentStop/subagentStop `decision: block` + reason; permissionRequest flat
  `behavior` allow|deny + `message` (not pinned here). preMcpToolCall cannot block.
"""

from __future__ import annotations

from hooktui.tap.base import jsonio
from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import cannot, failure, json_line, process_failure, str_field

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

_PRE = {"preToolUse", "PreToolUse"}
_POST = {"postToolUse", "PostToolUse"}
_STOPS = {"agentStop", "subagentStop", "Stop", "SubagentStop"}
_PERMISSIONS = ("allow", "deny", "ask")
_TITLE = "Copilot"


def read_stdout(raw: bytes) -> tuple[str, Any]:
    """("empty" | "json" | "text", value) of stdout, progress lines left out."""
    text = raw.decode("utf-8", errors="replace").strip()
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("{") and '"progress"' in stripped:
            try:
                value = jsonio.loads(stripped)
            except jsonio.NotJSON:
                value = None
            if isinstance(value, dict) and value.get("type") == "progress":
                continue
        lines.append(line)
    rest = "\n".join(lines).strip()
    if not rest:
        return "empty", None
    try:
        return "json", jsonio.loads(rest)
    except jsonio.NotJSON:
        return "text", rest


def judge(call: Call, outcome: Outcome) -> Verdict:
    """What Copilot does with this hook's outcome."""
    native = call.native_event
    pre = native in _PRE
    if outcome.timed_out:  # fails open, even at preToolUse (seen)
        return process_failure(outcome, _TITLE, "proceeds", "the call proceeds")
    effect = "blocks" if pre else "proceeds"
    consequence = "preToolUse fails closed, the tool is denied" if pre else "ignored"
    crashed = process_failure(outcome, _TITLE, effect, consequence)
    if crashed:
        return crashed
    code = outcome.exit_code
    if code == 2 and pre:
        # stderr is not the reason: Copilot tells the model the exit code.
        return Verdict(decision="deny", reason="hook exited with code 2")
    if code != 0:
        return failure(
            "exit_code",
            f"exit {code}: {_TITLE} reads it as a hook error; {consequence}",
            effect,
        )
    kind, value = read_stdout(outcome.stdout)
    if kind != "json" or not isinstance(value, dict):
        value = {}  # no answer
    if pre:
        return _pre(call, value)
    if native in _POST:
        return _post(value)
    if native in _STOPS and value.get("decision") == "block":
        return Verdict(decision="deny", reason=str_field(value, "reason"))
    if native in ("permissionRequest", "PermissionRequest"):
        behavior = value.get("behavior")
        if behavior == "deny":
            return Verdict(decision="deny", reason=str_field(value, "message"))
        # No behavior: Copilot asks as it would without the hook.
        return Verdict(decision="allow" if behavior == "allow" else "ask")
    context = value.get("additionalContext")
    return Verdict(decision="allow", context=context if isinstance(context, str) else "")


def _pre(call: Call, obj: dict) -> Verdict:
    decision = obj.get("permissionDecision")
    reason = str_field(obj, "permissionDecisionReason")
    rewrites = "modifiedArgs" in obj  # any value, null included (seen 2026-12-07)
    updated = obj.get("modifiedArgs")
    hso = obj.get("hookSpecificOutput")
    if call.native_event == "PreToolUse" and isinstance(hso, dict):
        # Claude's answer is read in the Claude dialect only (seen).
        if decision not in _PERMISSIONS:
            decision = hso.get("permissionDecision")
            reason = reason or str_field(hso, "permissionDecisionReason")
        if not rewrites and hso.get("updatedInput") is not None:  # its null: no rewrite
            rewrites, updated = True, hso["updatedInput"]
    if decision == "deny":
        return Verdict(decision="deny", reason=reason)
    if decision == "ask":
        return Verdict(decision="ask", reason=reason)
    if rewrites:
        return _rewrite(call, updated, reason)
    return Verdict(decision="allow", reason=reason)


# What Copilot 1.0.102 tells the model for new args that are no JSON object.
_KINDS = ((bool, "boolean"), (int, "number"), (float, "number"), (list, "array"), (str, "string"))


def _rewrite(call: Call, args: Any, reason: str) -> Verdict:
    """New args, as Copilot applies them (seen 2026-12-07): a string is read as JSON; what
    is then no object, or what its tool refuses, refuses the call (the tool never runs)."""
    said = ""
    if isinstance(args, str):
        try:
            args = jsonio.loads(args) if args.strip() else {}
        except jsonio.NotJSON:
            said = "not JSON"
    if not said and not isinstance(args, dict):
        kind = "null" if args is None else next(k for t, k in _KINDS if isinstance(args, t))
        said = f"Expected JSON object but got {kind}"
    if not said:
        said = _refused(call.tool_name, args)
    if said:
        return failure(
            "unsupported",
            f"modifiedArgs: {_TITLE} refuses the call (the tool does not run; the model reads "
            f"`Invalid input: {said}`)",
            "blocks",
        )
    return Verdict(decision="modify", reason=reason, updated_input=args)


def _refused(tool: str, args: dict) -> str:
    """Why Copilot's shell tool refuses `args` ("" when it takes them; other tools' input
    schemas are not known here: their rewrites read as made)."""
    if tool not in ("bash", "Bash"):  # its own name, and the Claude dialect's
        return ""
    command = args.get("command")
    if command is None:
        return '"command": Required'
    if not isinstance(command, str):
        return '"command": Expected string'
    if not command:
        return "No command provided"
    if "description" in args and not isinstance(args["description"], str):
        return '"description": Expected string'
    return ""


def encode(name: str, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
    """The answer a hook gives Copilot for this verdict (stdout, stderr, exit code)."""
    native = call.native_event or "preToolUse"
    d = verdict.decision
    if d == "failure":
        if verdict.failure == "exit_code":
            return b"", (verdict.failure_detail or "hook error").encode() + b"\n", 1
        raise cannot(name, verdict, native)
    if native in _PRE:
        if verdict.context:  # preToolUse has no context to add
            raise cannot(name, verdict, native)
        if d == "allow" and not verdict.reason:
            return b"", b"", 0
        out: dict[str, Any] = {"permissionDecision": "allow" if d == "modify" else d}
        if d not in ("allow", "deny", "ask", "modify"):
            raise cannot(name, verdict, native)
        if verdict.reason:
            out["permissionDecisionReason"] = verdict.reason
        if d == "modify":
            out["modifiedArgs"] = verdict.updated_input
        return json_line(out), b"", 0
    if native in _POST:
        if d == "allow":
            ctx = {"additionalContext": verdict.context} if verdict.context else {}
            return (json_line(ctx) if ctx else b""), b"", 0
        if d == "deny":
            return json_line({"decision": "block", "reason": verdict.reason}), b"", 0
        if d == "replace" and isinstance(verdict.updated_output, dict):
            return json_line({"modifiedResult": verdict.updated_output}), b"", 0
        raise cannot(name, verdict, native)
    if native in ("permissionRequest", "PermissionRequest"):
        if d == "ask":
            return b"", b"", 0
        if d == "allow":
            return json_line({"behavior": "allow"}), b"", 0
        if d == "deny":
            return json_line({"behavior": "deny", "message": verdict.reason}), b"", 0
        raise cannot(name, verdict, native)
    if d == "deny" and native in _STOPS:
        return json_line({"decision": "block", "reason": verdict.reason}), b"", 0
    if d == "allow":
        ctx = {"additionalContext": verdict.context} if verdict.context else {}
        return (json_line(ctx) if ctx else b""), b"", 0
    raise cannot(name, verdict, native)


def _post(obj: dict) -> Verdict:
    context = obj.get("additionalContext")
    context = context if isinstance(context, str) else ""
    if obj.get("decision") == "block":
        return Verdict(decision="deny", reason=str_field(obj, "reason"), context=context)
    result = obj.get("modifiedResult")
    if isinstance(result, dict):
        return Verdict(decision="replace", context=context, updated_output=result)
    if "modifiedResult" in obj:
        return Verdict(
            decision="allow",
            context=context,
            failure_detail=f"modifiedResult is not an object: {_TITLE} keeps the real result",
        )
    return Verdict(decision="allow", context=context)
