"""basis (seed 000, module `wire`): one JSON object in, one JSON object out.

Rules, all from the seed:
- Request: `hook_schema`, `event` (pre_tool_use | post_tool_use), `workspace`,
  `agent_id`, `tool_call_id`, `tool_name`, `input` (parsed, or the raw string);
  post adds `output` and `is_error` (absent before the call, never null).
- Answer: `{"decision": "allow"|"deny"|"modify"|"replace", "reason"?, "input"?,
  "output"?, "is_error"?}`. modify belongs to pre, replace to post; the wrong one
  "has not answered, and takes the failure path".
- "stdout is the decision; the exit code is only a liveness signal": non-zero
  exit is a failure whatever was printed; exit 0 decides whatever was printed.
- "Silence is not an answer": empty stdout is a failure, not consent.
- Deny at post: the model sees the reason in place of the output, as an error.

The failure effect: the seed never says "fail open", and its reasoning only holds
if a failure is NOT consent. Empty stdout is "treated as a failure rather than as
consent, because a hook that crashed before printing looks exactly like one that
meant to say nothing", and a wrong decision is not "quietly reinterpreted"
because that "would give a guard powers it did not ask for". If the failure path
let the call through, silence would be consent after all and both sentences
would be empty. So basis fails closed: effect "blocks" (before the call the call
is refused; after it the output does not go through as it was). PROTOCOLS.md's
"fail-open is the norm" describes the vendor runtimes; the seed is basis's spec.
A crash, a kill and a timeout take the same path (a hook that did not answer).
"""

from __future__ import annotations

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    as_dict,
    failure,
    json_line,
    s,
    str_field,
)
from hooktui.tap.runtimes.descriptor import Runtime
from hooktui.tap.runtimes.merge import MergeRule

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

EVENTS = {"pre_tool_use": "pre_tool_use", "post_tool_use": "post_tool_use"}
_CONSEQUENCE = (
    "basis takes the failure path (fail-closed: a hook that did not answer is not consent)"
)


def _fail(kind: str, what: str) -> Verdict:
    return failure(kind, f"{what}; {_CONSEQUENCE}", "blocks")


class Basis(Runtime):
    def detect(self, request: Any) -> bool:
        return isinstance(request, dict) and "hook_schema" in request

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        native = s(r, "event")
        is_error = r.get("is_error")
        return Call(
            runtime=self.name,
            event=self.event_of(native),
            native_event=native,
            tool_name=s(r, "tool_name"),
            tool_input=r.get("input"),
            tool_output=r.get("output"),
            is_error=is_error if isinstance(is_error, bool) else None,
            agent_id=s(r, "agent_id"),
            tool_call_id=s(r, "tool_call_id"),
            cwd=s(r, "workspace"),
        )

    def request_for(self, call: Call) -> dict[str, Any]:
        r: dict[str, Any] = {
            "hook_schema": 1,
            "event": call.native_event or call.event,
            "workspace": call.cwd,
            "agent_id": call.agent_id,
            "tool_call_id": call.tool_call_id,
            "tool_name": call.tool_name,
            "input": call.tool_input,
        }
        if call.tool_output is not None:
            r.update(output=call.tool_output, is_error=bool(call.is_error))
        return r

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        if outcome.spawn_error:
            return _fail("spawn_error", f"the hook could not be started ({outcome.spawn_error})")
        if outcome.timed_out:
            return _fail("timeout", "the hook ran past its timeout")
        if outcome.signal is not None or outcome.exit_code is None:
            return _fail("signal", f"the hook was killed by signal {outcome.signal}")
        if outcome.exit_code != 0:
            return _fail(
                "exit_code",
                f"exit {outcome.exit_code}: a non-zero exit is a failure whatever was printed",
            )
        out = Stdout(outcome.stdout)
        if out.kind == "empty":
            return _fail("empty_output", "empty stdout: silence is not an answer")
        if out.kind != "json":
            return _fail("invalid_json", "stdout is not JSON")
        obj = out.obj
        if obj is None:
            return _fail("unsupported", "stdout is JSON but not an object")
        decision = obj.get("decision")
        reason = str_field(obj, "reason")
        pre = call.event == "pre_tool_use"
        post = call.event == "post_tool_use"
        if decision == "allow":
            return Verdict(decision="allow", reason=reason)
        if decision == "deny":
            return Verdict(decision="deny", reason=reason)
        if decision == "modify":
            if post:
                return _fail("wrong_decision", "modify answered after the call (it belongs to pre)")
            if "input" not in obj:
                return _fail("unsupported", "modify without an input")
            return Verdict(decision="modify", reason=reason, updated_input=obj["input"])
        if decision == "replace":
            if pre:
                return _fail(
                    "wrong_decision", "replace answered before the call (it belongs to post)"
                )
            if "output" not in obj:
                return _fail("unsupported", "replace without an output")
            return Verdict(decision="replace", reason=reason, updated_output=obj["output"])
        if decision is None:
            return _fail("unsupported", "the answer has no decision")
        return _fail("unsupported", f"unknown decision {decision!r}")

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        d = verdict.decision
        out: dict[str, Any] = {}
        if d == "failure":
            kind = verdict.failure
            if kind == "exit_code":
                # Non-zero exit with a perfectly good answer: still a failure.
                return json_line({"decision": "allow"}), b"hook error\n", 1
            if kind == "empty_output":
                return b"", b"", 0
            if kind == "invalid_json":
                return b"allow\n", b"", 0
            if kind == "wrong_decision":
                if call.event == "post_tool_use":
                    return json_line({"decision": "modify", "input": call.tool_input}), b"", 0
                return json_line({"decision": "replace", "output": ""}), b"", 0
            if kind == "unsupported":
                return json_line({"decision": "maybe"}), b"", 0
            raise ValueError(f"basis has no hook answer that means failure ({kind})")
        if d in ("allow", "deny"):
            out["decision"] = d
        elif d == "modify" and call.event != "post_tool_use":
            out = {"decision": "modify", "input": verdict.updated_input}
        elif d == "replace" and call.event != "pre_tool_use":
            out = {"decision": "replace", "output": verdict.updated_output, "is_error": False}
        else:
            raise ValueError(f"basis has no hook answer that means {d} at {call.native_event}")
        if verdict.reason:
            out["reason"] = verdict.reason
        return json_line(out), b"", 0


RUNTIME = Basis(
    name="basis",
    title="basis",
    priority=10,  # hook_schema wins over everything
    events=EVENTS,
    guards=frozenset(EVENTS),  # deny at post replaces the output with the reason
    env_vars=(),  # the seed names none
    prompt_keys=(),
    output_keys=("output",),
    command_keys=("command",),
    path_keys=("path",),
    shell_tool="shell",
    read_tool="read_file",
    # The seed: hooks chain (HookRunner): each sees the earlier rewrite and can still
    # refuse it; a deny from any of them stands.
    merge=MergeRule(
        runs="sequential",
        order="the order the hooks were registered in code",
        chained=True,
        precedence=("deny", "allow"),
        rewrite="chained",
        reason="first_in_order",
        basis="seed 000 (basis' wire module): a hook that runs after a rewrite sees it and "
        "can still refuse it",
        unknown="",
    ),
    sources_note="hooks are registered in code (HookRunner), not in a settings file",
)
