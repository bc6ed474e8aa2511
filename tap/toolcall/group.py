"""Grouping hook calls into tool calls, and each tool call's outcome by its runtime's rule.

Which hook calls belong to one tool call: the runtime's own id for the call where
the request has one (the record's `tool_call_id`); otherwise the session, the event,
the tool and the request keys the runtime's rule names (`MergeRule.call_keys`: a
timestamp all hooks of one call share), within the rule's time window. The events
of one call (before the tool, after it) join by that id, or else by the tool input
the later event reports. Each event's answers are then combined by the runtime
(`Runtime.combine`), so the outcome is the runtime's own reading.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec
from hooktui.tap.canonical import UNSET, Outcome, Verdict
from hooktui.tap.model import Blob, CallMark, Record
from hooktui.tap.read.merge import parse_ts
from hooktui.tap.runtimes import ADAPTERS, UNKNOWN
from hooktui.tap.runtimes.combine import Answer, Combined
from hooktui.tap.runtimes.descriptor import Runtime
from hooktui.tap.toolcall.model import HookPart, Step, ToolCall

# The event whose outcome is the call's: the guard before the tool runs.
GUARDING = ("pre_tool_use", "permission_request")

Position = Callable[[Record], "int | None"]


class _Step:
    """A step being filled: its records, and when its last hook ended."""

    __slots__ = ("key", "records", "last_end", "call")

    def __init__(self, key: tuple, record: Record, end: float) -> None:
        self.key = key
        self.records = [record]
        self.last_end = end
        self.call: _Call | None = None


class _Call:
    __slots__ = ("steps", "id_key")

    def __init__(self, id_key: tuple | None) -> None:
        self.steps: list[_Step] = []
        self.id_key = id_key


def group(
    records: Iterable[Record],
    position: Position | None = None,
    instead: Mapping[str, Verdict] | None = None,
) -> list[ToolCall]:
    """The tool calls of `records` (any order), in the order their first hook started.

    `position(record)`: the hook's place in its runtime's configured order, when the
    caller knows the configuration (`hooktui try`, the inventory); else the start
    times order the hooks. `instead`: record id -> the verdict to take for that hook
    (what an edited guard answers on replay), in place of its recorded one.
    """
    grouper = Grouper(position, instead)
    grouper.add(records)
    return grouper.calls()


class Grouper:
    """Tool calls built as records come: `group` feeds all at once, a live view each
    batch it reads; a call is combined again only when a record joined it."""

    def __init__(
        self, position: Position | None = None, instead: Mapping[str, Verdict] | None = None
    ) -> None:
        self.position = position
        self.instead = instead or {}
        self._calls: list[_Call] = []
        self._by_id: dict[tuple, _Call] = {}
        self._open: dict[tuple, _Step] = {}
        self._of_record: dict[str, _Call] = {}
        self._done: dict[int, ToolCall] = {}

    def add(self, records: Iterable[Record]) -> set[str]:
        """Place `records` (any order within the batch); the ids of their records'
        calls' first hooks (the calls they changed) come back."""
        changed = set()
        timed = sorted(((_start(r), r) for r in records), key=lambda t: (t[0], t[1].id))
        for start, record in timed:
            call = _place(record, start, self._calls, self._by_id, self._open)
            self._of_record[record.id] = call
            self._done.pop(id(call), None)
            changed.add(call.steps[0].records[0].id)
        return changed

    def calls(self) -> list[ToolCall]:
        """Every call, in the order its first hook started."""
        out = [self._finished(call) for call in self._calls]
        out.sort(key=lambda c: (parse_ts(c.ts), c.key))
        return out

    def call_of(self, record_id: str) -> ToolCall | None:
        call = self._of_record.get(record_id)
        return None if call is None else self._finished(call)

    def __len__(self) -> int:
        return len(self._calls)

    def _finished(self, call: _Call) -> ToolCall:
        done = self._done.get(id(call))
        if done is None:
            done = self._done[id(call)] = _finish(call, self.position, self.instead)
        return done


def marks(calls: Iterable[ToolCall]) -> dict[str, CallMark]:
    """record id -> what its call came to (for RecordHead.toolcall and the filter)."""
    out = {}
    for call in calls:
        conflicts = " ".join(call.conflicts)
        for part in call.parts:
            out[part.id] = CallMark(
                decision=call.decision,
                conflicts=conflicts,
                role=part.role,
                hooks=call.hooks,
                key=call.key,
            )
    return out


# --- placing one record --------------------------------------------------------------


def _start(record: Record) -> float:
    start = parse_ts(record.ts)
    return start if math.isfinite(start) else 0.0


def _end(record: Record, start: float) -> float:
    duration = record.duration_ms
    return start + duration / 1000 if duration > 0 and math.isfinite(duration) else start


def _rule(record: Record):
    return (ADAPTERS.get(record.runtime) or ADAPTERS[UNKNOWN]).merge


def _place(record, start, calls, by_id, open_steps) -> _Call:
    end = _end(record, start)
    rule = _rule(record)
    if record.tool_call_id:
        id_key = ("id", record.runtime, record.session_id, record.tool_call_id)
        step_key: tuple = (*id_key, record.native_event)
    else:
        id_key = None
        step_key = (
            "req",
            record.runtime,
            record.session_id,
            record.native_event,
            record.tool_name,
            _identity(record, rule.call_keys),
        )
    step = open_steps.get(step_key)
    if step is not None and start <= step.last_end + rule.window_ms / 1000:
        step.records.append(record)
        step.last_end = max(step.last_end, end)
        return step.call
    step = _Step(step_key, record, end)
    open_steps[step_key] = step
    call = by_id.get(id_key) if id_key else _follows(record, start, calls)
    if call is None:
        call = _Call(id_key)
        calls.append(call)
        if id_key:
            by_id[id_key] = call
    call.steps.append(step)
    step.call = call
    return call


def _identity(record: Record, keys: tuple[str, ...]) -> str:
    """What the hooks of one call share in their requests: the rule's keys, else the
    tool input (parallel hooks all get the same)."""
    request = _request(record) if keys else {}
    if keys:
        return json.dumps([request.get(k) for k in keys], sort_keys=True, default=str)
    return json.dumps(record.tool_input, sort_keys=True, default=str)


def _follows(record: Record, start: float, calls: list[_Call]) -> _Call | None:
    """The earlier call (no call id) this record's event continues: same runtime,
    session and tool, a guarding step already there and this event not yet, and the
    tool input this event reports is the one the call ran with."""
    if record.event in GUARDING or not record.tool_name:
        return None
    for call in reversed(calls[-64:]):  # a call's events follow each other closely
        if call.id_key is not None or not call.steps:
            continue
        first = call.steps[0].records[0]
        if (first.runtime, first.session_id, first.tool_name) != (
            record.runtime,
            record.session_id,
            record.tool_name,
        ):
            continue
        if first.event not in GUARDING or any(
            s.records[0].native_event == record.native_event for s in call.steps
        ):
            continue
        if call.steps[0].last_end > start + 0.001:
            continue
        if record.tool_input in _inputs(call.steps[0]):
            return call
    return None


def _request(record: Any) -> dict:
    """The request as a dict (a CallHead keeps it raw until a rule reads it)."""
    request = record.request
    if isinstance(request, msgspec.Raw):
        try:
            request = msgspec.json.decode(request)
        except msgspec.DecodeError:
            return {}
    return request if isinstance(request, dict) else {}


def _inputs(step: _Step) -> list[Any]:
    seen = [step.records[0].tool_input]
    seen += [r.updated_input for r in step.records if r.updated_input is not msgspec.UNSET]
    return seen


# --- finishing a call: combine each step ------------------------------------------


def _finish(call: _Call, position: Position | None, instead: Mapping[str, Verdict]) -> ToolCall:
    steps = [_step(step, position, instead) for step in call.steps]
    first = call.steps[0].records[0]
    guarding = next((s for s in steps if s.event in GUARDING), steps[0])
    conflicts = list(dict.fromkeys(c for s in steps for c in s.conflicts))
    return ToolCall(
        key=first.id,
        runtime=first.runtime,
        session_id=first.session_id,
        tool_call_id=first.tool_call_id,
        tool_name=first.tool_name,
        summary=first.summary,
        ts=first.ts,
        decision=guarding.decision,
        conflicts=conflicts,
        hooks=sum(len(s.hooks) for s in steps),
        steps=steps,
    )


def _step(step: _Step, position: Position | None, instead: Mapping[str, Verdict]) -> Step:
    records = step.records
    first = records[0]
    runtime = ADAPTERS.get(first.runtime) or ADAPTERS[UNKNOWN]
    answers = [_answer(r, position, instead.get(r.id)) for r in records]
    combined: Combined = runtime.combine(answers, first.native_event)
    pairs = sorted(zip(records, answers, strict=True), key=lambda p: (p[0].ts, p[0].id))
    hooks = [_part(r, a, combined) for r, a in pairs]
    return Step(
        event=first.event,
        native_event=first.native_event,
        decision=combined.decision,
        reason=combined.reason,
        decided_by=combined.decided_by,
        rewritten_by=combined.rewritten_by,
        updated_input=_msgspec_unset(combined.updated_input),
        updated_output=_msgspec_unset(combined.updated_output),
        conflicts=list(combined.conflicts),
        notes=list(combined.notes),
        rule=combined.rule,
        hooks=hooks,
    )


def answer_of(
    record: Record, position: int | None = None, verdict: Verdict | None = None
) -> Answer:
    """A record as its runtime read the hook's answer (a breakpoint's answer, when a
    person sent one instead; `verdict`, when given, in place of the recorded one)."""
    start = _start(record)
    sent = record.sent_instead if verdict is None else None
    if verdict is not None:
        own = (verdict.decision, verdict.effect, verdict.reason)
        rewrites = (verdict.updated_input, verdict.updated_output)
    else:  # the record's own fields (a Verdict built per record costs more than this)
        decision = getattr(record, "hook_decision", "") or record.decision
        own = (decision, record.effect, record.reason)
        rewrites = (_canonical_unset(record.updated_input), _canonical_unset(record.updated_output))
    decision, effect, reason = own
    if sent is not None:
        decision, reason = sent.decision, sent.reason
    return Answer(
        key=record.id,
        decision=decision,
        effect=effect,
        reason=reason,
        updated_input=rewrites[0] if sent is None else UNSET,
        updated_output=rewrites[1] if sent is None else UNSET,
        started=start,
        ended=_end(record, start),
        position=position,
        outcome=_outcome(record) if _reads_outcome(record.runtime) else None,
    )


def _answer(record: Record, position: Position | None, verdict: Verdict | None) -> Answer:
    return answer_of(record, position(record) if position is not None else None, verdict)


def _reads_outcome(runtime_name: str) -> bool:
    """Does the runtime's combine read more than the verdicts (its own `combine`)?"""
    runtime = ADAPTERS.get(runtime_name)
    return runtime is not None and type(runtime).combine is not Runtime.combine


def _outcome(record: Record) -> Outcome:
    return Outcome(
        stdout=_bytes(record.stdout),
        stderr=_bytes(record.stderr),
        exit_code=record.exit_code,
        signal=record.signal,
        timed_out=record.timed_out,
        duration_ms=record.duration_ms,
    )


def _bytes(blob: Any) -> bytes:
    if isinstance(blob, msgspec.Raw):
        try:
            blob = msgspec.json.decode(blob, type=Blob)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return b""
    if blob.encoding == "base64":
        try:
            return base64.b64decode(blob.data, validate=True)
        except (binascii.Error, ValueError):
            return b""
    return blob.data.encode("utf-8", "surrogateescape") if blob.encoding == "utf-8" else b""


def _part(record: Record, answer: Answer, combined: Combined) -> HookPart:
    return HookPart(
        id=record.id,
        label=record.hook.label,
        native_event=record.native_event,
        ts=record.ts,
        duration_ms=record.duration_ms,
        decision=answer.decision,
        effect=answer.effect,
        reason=answer.reason,
        role=_role(answer, combined),
        updated_input=_msgspec_unset(answer.updated_input),
    )


def _role(answer: Answer, combined: Combined) -> str:
    if answer.key == combined.decided_by:
        return "decided"
    if answer.key == combined.rewritten_by:
        return "rewrote"
    if answer.key in combined.overridden:
        return "overridden"
    return "agreed" if answer.vote else "silent"


def _canonical_unset(value: Any) -> Any:
    return UNSET if value is msgspec.UNSET else value


def _msgspec_unset(value: Any) -> Any:
    return msgspec.UNSET if value is UNSET else value
