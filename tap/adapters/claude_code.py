"""Claude Code: the reference hook protocol (PreToolUse-style names, exit 2 blocks).

Rules, from the hooks reference (code.claude.com/docs/en/hooks) and PROTOCOLS.md:
- exit 2: a blocking error; stdout is ignored and stderr is the reason (for
  PreToolUse, PermissionRequest, UserPromptSubmit, Stop; PostToolUse shows it to
  Claude after the fact). SessionStart, SessionEnd and Notification cannot block:
  stderr goes to the user only.
- any other non-zero exit: a non-blocking error; the action proceeds (exit 1 does
  not block). A killed or timed-out hook is the same (a killed PreToolUse hook
  means the tool is allowed).
- exit 0: stdout is parsed as JSON when it starts with `{`; a `{...}` that fails to
  parse or validate is a non-blocking error. Anything else is plain text: ignored,
  except for UserPromptSubmit and SessionStart where it becomes context.
- JSON: `continue: false` stops Claude altogether (stopReason to the user),
  before any decision. PreToolUse: `hookSpecificOutput.permissionDecision`
  allow|deny|ask|defer (+ permissionDecisionReason, updatedInput = the whole new
  input, additionalContext); legacy top-level `decision: approve|block`.
  `defer` (headless -p only) hands the call to whoever runs Claude, to resume it
  later: the closest canonical reading is `ask` (someone else decides).
  PostToolUse/UserPromptSubmit/Stop: top-level `decision: "block"` + reason;
  PostToolUse `hookSpecificOutput.updatedToolOutput` (any tool, since 2.1.121) or
  `updatedMCPToolOutput` replaces the result. PermissionRequest:
  `hookSpecificOutput.decision.behavior` allow|deny (+ updatedInput, message).
- `decision` values other than approve/block fail the output schema: a
  non-blocking error.
"""

from __future__ import annotations

from typing import Any

from hooktui.tap.adapters.base import (
    Adapter,
    Stdout,
    as_dict,
    cannot,
    encode_generic_failure,
    failure,
    halt,
    has,
    is_pascal_name,
    json_line,
    pascal_event,
    process_failure,
    s,
    str_field,
    text_of,
)
from hooktui.tap.model import Call, Outcome, Verdict

# Events where exit 2 / decision:block cannot stop anything.
_NON_BLOCKING = {"SessionStart", "SessionEnd", "Notification", "Setup", "SubagentStart"}
# Events where plain stdout becomes context for the model.
_TEXT_IS_CONTEXT = {"UserPromptSubmit", "SessionStart", "Setup", "SubagentStart"}

_PERMISSION = {"allow": "allow", "deny": "deny", "ask": "ask", "defer": "ask"}
_LEGACY = {"approve": "allow", "block": "deny"}


def parse_pascal(runtime: str, request: Any) -> Call:
    """Claude-shaped request -> Call (Codex sends the same shape, plus model/turn_id)."""
    r = as_dict(request)
    native = s(r, "hook_event_name")
    prompt = r.get("prompt")
    return Call(
        runtime=runtime,
        event=pascal_event(native),
        native_event=native,
        tool_name=s(r, "tool_name"),
        tool_input=r.get("tool_input"),
        tool_output=r.get("tool_response"),
        is_error=True if native == "PostToolUseFailure" else None,
        session_id=s(r, "session_id"),
        agent_id=s(r, "agent_id"),
        tool_call_id=s(r, "tool_use_id"),
        cwd=s(r, "cwd"),
        prompt=prompt if isinstance(prompt, str) else None,
    )


class ClaudeCodeAdapter(Adapter):
    name = "claude-code"
    title = "Claude Code"
    env_vars = (
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_DATA",
        "CLAUDE_ENV_FILE",
        "CLAUDE_CODE_REMOTE",
        "CLAUDE_CONFIG_DIR",
    )
    default_timeout_ms = 600_000  # 600 s for command hooks on tool events

    def detect(self, request: Any) -> bool:
        return isinstance(request, dict) and is_pascal_name(request.get("hook_event_name"))

    def parse(self, request: Any) -> Call:
        return parse_pascal(self.name, request)

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        crashed = process_failure(
            outcome, self.title, "proceeds", "a hook that does not answer is a non-blocking error"
        )
        if crashed:
            return crashed
        code = outcome.exit_code
        if code == 2:
            if native in _NON_BLOCKING:
                return failure(
                    "exit_code",
                    f"exit 2: {native} cannot block; Claude Code shows stderr to the user only",
                )
            return Verdict(decision="deny", reason=text_of(outcome.stderr))
        if code != 0:
            return failure(
                "exit_code",
                f"exit {code}: Claude Code treats non-zero exits other than 2 as a "
                "non-blocking error; the action proceeds",
            )
        out = Stdout(outcome.stdout)
        if out.kind == "empty":
            return Verdict(decision="allow")
        if not out.text.startswith("{"):
            # Plain text (a JSON array or string counts as text too).
            if native in _TEXT_IS_CONTEXT:
                return Verdict(decision="allow", context=out.text)
            return Verdict(decision="allow")
        obj = out.obj
        if obj is None:
            return failure(
                "invalid_json",
                "stdout starts with `{` but is not valid JSON; Claude Code reports a "
                "non-blocking error and the action proceeds",
            )
        return self._judge_json(call, obj)

    def _judge_json(self, call: Call, obj: dict) -> Verdict:
        native = call.native_event
        hso = obj.get("hookSpecificOutput")
        hso = hso if isinstance(hso, dict) else {}
        context = hso.get("additionalContext")
        context = context if isinstance(context, str) else ""

        if obj.get("continue") is False:
            reason = str_field(obj, "stopReason") or "continue: false (Claude Code stops)"
            return halt(call, reason, context)

        legacy = obj.get("decision")
        if legacy is not None and legacy not in _LEGACY:
            return failure(
                "unsupported",
                f"decision {legacy!r} is not a Claude Code decision (approve or block); "
                "the output fails validation, a non-blocking error",
            )
        reason = str_field(obj, "reason")

        if call.event == "pre_tool_use" or native == "PreToolUse":
            pd = hso.get("permissionDecision")
            updated = hso.get("updatedInput")
            if pd is not None:
                if pd not in _PERMISSION:
                    return failure(
                        "unsupported",
                        f"permissionDecision {pd!r} is not allow, deny, ask or defer; "
                        "a non-blocking error",
                    )
                decision = _PERMISSION[pd]
                pd_reason = str_field(hso, "permissionDecisionReason")
                if pd == "defer":
                    return Verdict(decision="ask", reason=pd_reason or "defer")
                if isinstance(updated, dict) and decision in ("allow", "ask"):
                    decision = "modify" if decision == "allow" else "ask"
                    return Verdict(
                        decision=decision,
                        reason=pd_reason,
                        context=context,
                        updated_input=updated,
                    )
                return Verdict(decision=decision, reason=pd_reason, context=context)
            if isinstance(updated, dict):
                return Verdict(decision="modify", context=context, updated_input=updated)
            if legacy is not None:
                return Verdict(decision=_LEGACY[legacy], reason=reason, context=context)
            return Verdict(decision="allow", context=context)

        if native == "PermissionRequest":
            dec = hso.get("decision")
            dec = dec if isinstance(dec, dict) else {}
            behavior = dec.get("behavior")
            if behavior == "deny":
                return Verdict(decision="deny", reason=str_field(dec, "message"))
            if behavior == "allow":
                updated = dec.get("updatedInput")
                if isinstance(updated, dict):
                    return Verdict(decision="modify", updated_input=updated)
                return Verdict(decision="allow")
            if behavior is not None:
                return failure(
                    "unsupported", f"PermissionRequest behavior {behavior!r} is not allow or deny"
                )
            # No decision: the normal permission dialog is shown.
            return Verdict(decision="ask")

        if legacy == "block" and native not in _NON_BLOCKING:
            return Verdict(decision="deny", reason=reason, context=context)

        if call.event == "post_tool_use":
            for key in ("updatedToolOutput", "updatedMCPToolOutput"):
                if key in hso:
                    return Verdict(decision="replace", context=context, updated_output=hso[key])
        return Verdict(decision="allow", context=context)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = call.native_event or "PreToolUse"
        d = verdict.decision
        ctx = {"additionalContext": verdict.context} if verdict.context else {}
        if d == "failure":
            return encode_generic_failure(self.name, call, verdict)
        if native == "PreToolUse":
            hso: dict[str, Any] = {"hookEventName": native}
            if d == "allow":
                if not ctx:
                    return b"", b"", 0
                hso["permissionDecision"] = "allow"
            elif d in ("deny", "ask"):
                hso["permissionDecision"] = d
                if verdict.reason:
                    hso["permissionDecisionReason"] = verdict.reason
                if d == "ask" and has(verdict.updated_input):
                    hso["updatedInput"] = verdict.updated_input
            elif d == "modify":
                hso["permissionDecision"] = "allow"
                hso["updatedInput"] = verdict.updated_input
            else:
                raise cannot(self.name, verdict, native)
            hso.update(ctx)
            return json_line({"hookSpecificOutput": hso}), b"", 0
        if native == "PermissionRequest":
            if d == "allow":
                dec: dict[str, Any] = {"behavior": "allow"}
            elif d == "modify":
                dec = {"behavior": "allow", "updatedInput": verdict.updated_input}
            elif d == "deny":
                dec = {"behavior": "deny", "message": verdict.reason}
            elif d == "ask":
                return json_line({}), b"", 0
            else:
                raise cannot(self.name, verdict, native)
            return (
                json_line({"hookSpecificOutput": {"hookEventName": native, "decision": dec}}),
                b"",
                0,
            )
        if d == "allow":
            if not ctx:
                return b"", b"", 0
            return json_line({"hookSpecificOutput": {"hookEventName": native, **ctx}}), b"", 0
        if d == "deny" and native not in _NON_BLOCKING:
            out: dict[str, Any] = {"decision": "block", "reason": verdict.reason}
            if ctx:
                out["hookSpecificOutput"] = {"hookEventName": native, **ctx}
            return json_line(out), b"", 0
        if d == "replace" and call.event == "post_tool_use":
            hso = {"hookEventName": native, "updatedToolOutput": verdict.updated_output, **ctx}
            return json_line({"hookSpecificOutput": hso}), b"", 0
        raise cannot(self.name, verdict, native)
