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

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    as_dict,
    failure,
    is_pascal_name,
    json_line,
    process_failure,
    s,
    str_field,
)
from hooktui.tap.runtimes.descriptor import Runtime
from hooktui.tap.runtimes.merge import MergeRule

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

EVENTS = {
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "UserPromptSubmit": "user_prompt",
    "Mutation": "other",
}
_DECISIONS = {"allow": "allow", "block": "deny"}
_CONSEQUENCE = "fastpace hooks fail open, the call proceeds"


class Fastpace(Runtime):
    def detectors(self):
        # A Mutation is fastpace whatever else the request holds (Codex's `model`
        # included); a `metadata` object only after Codex had its say.
        return ((35, self._is_mutation), (self.priority, self.detect))

    def _is_mutation(self, request: Any) -> bool:
        return isinstance(request, dict) and request.get("hook_event_name") == "Mutation"

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
            event=self.event_of(native),
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

    def request_for(self, call: Call) -> dict[str, Any]:
        r: dict[str, Any] = {
            "hook_event_name": call.native_event or "PreToolUse",
            "tool_name": call.tool_name,
            "tool_input": call.tool_input,
            "metadata": {"agent_id": call.agent_id, "model": "claude-opus-4.7", "runtime": "local"},
            "session_id": call.session_id,
            "cwd": call.cwd,
        }
        if call.tool_output is not None:
            r["tool_output"] = call.tool_output
        return r

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


RUNTIME = Fastpace(
    name="fastpace",
    title="fastpace",
    priority=50,  # PreToolUse-shaped with a metadata object, after Codex
    events=EVENTS,
    guards=frozenset({"PreToolUse", "UserPromptSubmit", "Mutation"}),
    # Bundles run inside Claude Code / Codex / Gemini CLI, whose variables they see.
    env_vars=("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "GEMINI_PROJECT_DIR", "CODEX_HOME"),
    budget_ms=50,
    prompt_keys=("prompt", "modified_prompt"),  # also nested: tool_input.prompt
    output_keys=("tool_output",),
    command_keys=("command",),
    path_keys=("file_path", "path"),
    shell_tool="Bash",
    read_tool="Read",
    merge=MergeRule(
        unknown="fastpace hooks run inside a host runtime's bundle (a Claude Code or Codex "
        "plugin, a Gemini CLI extension): the host's rule applies, and a fastpace request "
        "does not name the host",
    ),
    sources_note="its hooks live in the bundle `fastpace plugin build` writes for a host "
    "runtime, read there as that runtime's plugin or extension hooks",
)
