"""fastpace (seed 004, "Hook contract"): JSON in, `decision` out, exit 0.

Rules, from the seed:
- Request: `hook_event_name` (PreToolUse | PostToolUse | UserPromptSubmit |
  Mutation), `tool_name`, `tool_input`, `tool_output` (post), `metadata` (agent_id,
  model, runtime, ...), `session_id`, `cwd`.
- Answer: `{"decision": "allow"|"block"|"modify", "reason", "summary"?, "coach"?}`
  with exit 0. block = deny (shown to the user, not retried). modify is for
  UserPromptSubmit only, the new prompt in `summary.modified_prompt`.
- "Failing safely": hooks return allow on their own unexpected errors, because a
  developer unable to work is worse than a missed signal; only designated guards
  fail closed, and they do it by answering block (a deny, not a failure).
  So an answer that breaks the contract (non-zero exit, empty or non-JSON stdout,
  an unknown decision, modify outside UserPromptSubmit) is read as a failure
  with effect "proceeds": the fail-open norm the seed asks hooks to implement.
- Budget: 50 ms on the happy path (a goal for the dashboard, not a kill timeout).
"""

from __future__ import annotations

from typing import Any

from hooktui.tap.model import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Adapter,
    Stdout,
    as_dict,
    failure,
    is_pascal_name,
    json_line,
    pascal_event,
    process_failure,
    s,
    str_field,
)

_DECISIONS = {"allow": "allow", "block": "deny"}
_CONSEQUENCE = "fastpace hooks fail open, the call proceeds"


class FastpaceAdapter(Adapter):
    name = "fastpace"
    title = "fastpace"
    # Bundles run inside Claude Code / Codex / Gemini CLI, whose variables they see.
    env_vars = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "GEMINI_PROJECT_DIR", "CODEX_HOME")
    default_timeout_ms = None
    budget_ms = 50

    def detect(self, request: Any) -> bool:
        if not isinstance(request, dict):
            return False
        native = request.get("hook_event_name")
        if native == "Mutation":
            return True
        return is_pascal_name(native) and isinstance(request.get("metadata"), dict)

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        native = s(r, "hook_event_name")
        meta = r.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        tool_input = r.get("tool_input")
        prompt = r.get("prompt")
        if not isinstance(prompt, str) and native == "UserPromptSubmit":
            inner = tool_input.get("prompt") if isinstance(tool_input, dict) else None
            prompt = inner if isinstance(inner, str) else None
        return Call(
            runtime=self.name,
            event=pascal_event(native),
            native_event=native,
            tool_name=s(r, "tool_name"),
            tool_input=tool_input,
            tool_output=r.get("tool_output"),
            session_id=s(r, "session_id"),
            agent_id=s(meta, "agent_id") or s(r, "agent_id"),
            tool_call_id=s(r, "tool_use_id", "tool_call_id"),
            cwd=s(r, "cwd"),
            prompt=prompt if isinstance(prompt, str) else None,
        )

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        crashed = process_failure(outcome, self.title, "proceeds", _CONSEQUENCE)
        if crashed:
            return crashed
        if outcome.exit_code != 0:
            return failure(
                "exit_code", f"exit {outcome.exit_code}: the contract is exit 0; {_CONSEQUENCE}"
            )
        out = Stdout(outcome.stdout)
        if out.kind == "empty":
            return failure("empty_output", f"empty stdout: no decision; {_CONSEQUENCE}")
        obj = out.obj
        if obj is None:
            return failure("invalid_json", f"stdout is not a JSON object; {_CONSEQUENCE}")
        decision = obj.get("decision")
        reason = str_field(obj, "reason")
        coach = str_field(obj, "coach")
        if decision in _DECISIONS:
            return Verdict(decision=_DECISIONS[decision], reason=reason, context=coach)
        if decision == "modify":
            if call.native_event != "UserPromptSubmit":
                return failure(
                    "wrong_decision",
                    f"modify at {call.native_event or 'this event'}: modify is for "
                    f"UserPromptSubmit only; {_CONSEQUENCE}",
                )
            summary = obj.get("summary")
            new_prompt = summary.get("modified_prompt") if isinstance(summary, dict) else None
            if not isinstance(new_prompt, str):
                return failure(
                    "unsupported", f"modify without summary.modified_prompt; {_CONSEQUENCE}"
                )
            return Verdict(
                decision="modify", reason=reason, context=coach, updated_input=new_prompt
            )
        return failure("unsupported", f"unknown decision {decision!r}; {_CONSEQUENCE}")

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        d = verdict.decision
        if d == "failure":
            kind = verdict.failure
            if kind == "exit_code":
                return b"", b"hook error\n", 1
            if kind == "empty_output":
                return b"", b"", 0
            if kind == "invalid_json":
                return b"allow\n", b"", 0
            if kind == "wrong_decision" and call.native_event != "UserPromptSubmit":
                return json_line({"decision": "modify", "summary": {"modified_prompt": ""}}), b"", 0
            if kind == "unsupported":
                return json_line({"decision": "maybe"}), b"", 0
            raise ValueError(f"fastpace has no hook answer that means failure ({kind})")
        out: dict[str, Any]
        if d == "allow":
            out = {"decision": "allow"}
        elif d == "deny":
            out = {"decision": "block"}
        elif d == "modify" and call.native_event == "UserPromptSubmit":
            out = {"decision": "modify", "summary": {"modified_prompt": verdict.updated_input}}
        else:
            raise ValueError(f"fastpace has no hook answer that means {d} at {call.native_event}")
        out["reason"] = verdict.reason
        if verdict.context:
            out["coach"] = verdict.context
        return json_line(out), b"", 0
