"""A request no runtime claims (or not JSON at all): read it generically.

Parsing is best-effort over the field names the known runtimes use. Judging is
the common core of all of them: exit 0 with nothing = allow; a JSON decision in
any of the known spellings is honoured; exit 2 = deny with stderr as the reason;
any other non-zero exit, a kill or a timeout = failure, and the call proceeds
(fail-open is the norm).
"""

from __future__ import annotations

from hooktui.tap.canonical import EVENTS, Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    as_dict,
    failure,
    json_line,
    process_failure,
    s,
    str_field,
    text_of,
)
from hooktui.tap.runtimes.descriptor import Runtime
from hooktui.tap.runtimes.merge import MergeRule

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

_WORDS = {
    "allow": "allow",
    "approve": "allow",
    "deny": "deny",
    "block": "deny",
    "ask": "ask",
    "defer": "ask",
}
# A native name that already is a canonical event stays as it is ("other" included:
# it would come out as "other" through the name tables too).
_SNAKE = frozenset(EVENTS)


def _event(native: str) -> str:
    if native in _SNAKE:
        return native
    from hooktui.tap.runtimes.registry import event_of_any  # the registry loads this file

    return event_of_any(native)


class Unknown(Runtime):
    def detect(self, request: Any) -> bool:
        return True

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        if not r:
            return Call(runtime=self.name, event="other")
        native = s(r, "hook_event_name", "event")
        tool_input = r.get("tool_input", r.get("input"))
        if tool_input is None and "command" in r:
            tool_input = {"command": r["command"]}
        prompt = r.get("prompt")
        meta = r.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        return Call(
            runtime=self.name,
            event=_event(native),
            native_event=native,
            tool_name=s(r, "tool_name"),
            tool_input=tool_input,
            tool_output=r.get("tool_response", r.get("tool_output", r.get("output"))),
            session_id=s(r, "session_id", "conversation_id"),
            agent_id=s(r, "agent_id") or s(meta, "agent_id"),
            tool_call_id=s(r, "tool_use_id", "tool_call_id"),
            cwd=s(r, "cwd", "workspace"),
            prompt=prompt if isinstance(prompt, str) else None,
        )

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        crashed = process_failure(outcome, "unknown runtime", "proceeds", "read as fail-open")
        if crashed:
            return crashed
        code = outcome.exit_code
        if code == 2:
            return Verdict(decision="deny", reason=text_of(outcome.stderr))
        if code != 0:
            return failure(
                "exit_code", f"exit {code}: a hook error; read as fail-open, the call proceeds"
            )
        obj = Stdout(outcome.stdout).obj
        if obj is None:
            return Verdict(decision="allow")
        hso = obj.get("hookSpecificOutput")
        hso = hso if isinstance(hso, dict) else {}
        context = str_field(hso, "additionalContext") or str_field(obj, "additional_context")
        if obj.get("continue") is False:
            return Verdict(
                decision="deny", reason=str_field(obj, "stopReason", "reason", "user_message")
            )
        word = hso.get("permissionDecision", obj.get("decision", obj.get("permission")))
        reason = str_field(hso, "permissionDecisionReason") or str_field(
            obj, "reason", "agent_message", "user_message"
        )
        updated = hso.get("updatedInput", hso.get("tool_input", obj.get("updated_input")))
        if word == "modify" and "input" in obj:
            updated = obj["input"]
        if word in ("deny", "block", "ask", "defer"):
            return Verdict(decision=_WORDS[word], reason=reason, context=context)
        if updated is not None:
            return Verdict(decision="modify", reason=reason, context=context, updated_input=updated)
        if word == "replace" and "output" in obj:
            return Verdict(decision="replace", reason=reason, updated_output=obj["output"])
        return Verdict(decision="allow", reason=reason, context=context)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        d = verdict.decision
        if d == "failure" and verdict.failure == "exit_code":
            return b"", b"hook error\n", 1
        if d == "allow":
            return b"", b"", 0
        if d == "deny":
            return b"", verdict.reason.encode() + b"\n", 2
        if d == "ask":
            return json_line({"decision": "ask", "reason": verdict.reason}), b"", 0
        if d == "modify":
            return json_line({"decision": "modify", "input": verdict.updated_input}), b"", 0
        if d == "replace":
            return json_line({"decision": "replace", "output": verdict.updated_output}), b"", 0
        raise ValueError(
            f"the generic reading has no hook answer that means {d} ({verdict.failure})"
        )


# The generic reading knows every runtime's words for prompts, outputs,
# commands and paths (the registry adds each runtime's own).
RUNTIME = Unknown(
    name="unknown",
    title="the runtime",
    prompt_keys=("prompt",),
    output_keys=("tool_response", "tool_output", "output", "response"),
    command_keys=("command", "cmd"),
    path_keys=("file_path", "path", "absolute_path", "notebook_path", "filePath"),
    merge=MergeRule(unknown="the runtime that called the hook is not known"),
    sources_note="the runtime is not known",
)
