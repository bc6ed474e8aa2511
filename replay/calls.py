"""What a replay changes one level up: each tool call's outcome, all its hooks together.

An edited guard may answer differently and change nothing (another hook on the same
call denies anyway, or a later one's rewrite wins), or change the call though its
own answer moved only a little. The session's records are grouped into tool calls
(tap/toolcall); each call with a replayed hook is combined by its runtime's rule
twice: with today's reading of every recorded answer, and with the replayed hooks'
new answers in their place.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
from hooktui.tap.model import Record, Verdict
from hooktui.tap.toolcall.group import group
from hooktui.tap.toolcall.model import ToolCall


class CallChange(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One tool call a replayed hook answered, before and after."""

    key: str
    runtime: str
    tool_name: str = ""
    summary: str = ""
    before: str  # the call's outcome with the recorded answers (today's reading)
    after: str  # with the replayed answers
    before_by: str = ""  # the label of the hook that decided it
    after_by: str = ""
    changed: bool = False  # the call's outcome changed
    hook_changed: bool = False  # a replayed hook's own answer changed
    masked: bool = False  # its answer changed, the call's outcome did not: another hook decides
    replayed: list[str] = []  # ids of the replayed records in this call
    conflicts: list[str] = []  # after the replay


def call_changes(
    records: Iterable[Record], before: dict[str, Verdict], after: dict[str, Verdict]
) -> list[CallChange]:
    """The calls holding a replayed record whose hook's answer or whose own outcome
    changed. `before`/`after`: record id -> verdict, for the replayed records."""
    records = list(records)
    if not after:
        return []
    then = {c.key: c for c in group(records, instead=before)}
    now = group(records, instead=after)
    out = []
    for call in now:
        replayed = [p.id for p in call.parts if p.id in after]
        if not replayed:
            continue
        old = then.get(call.key)
        if old is None:
            continue
        own = any(_moved(before[r], after[r]) for r in replayed if r in before)
        changed = _outcome(old) != _outcome(call)
        if not (own or changed):
            continue
        out.append(
            CallChange(
                key=call.key,
                runtime=call.runtime,
                tool_name=call.tool_name,
                summary=call.summary,
                before=old.decision,
                after=call.decision,
                before_by=_decider(old),
                after_by=_decider(call),
                changed=changed,
                hook_changed=own,
                masked=own and not changed,
                replayed=replayed,
                conflicts=list(call.conflicts),
            )
        )
    return out


def _moved(a: Verdict, b: Verdict) -> bool:
    return (a.decision, a.effect, a.updated_input, a.updated_output) != (
        b.decision,
        b.effect,
        b.updated_input,
        b.updated_output,
    )


def _outcome(call: ToolCall) -> tuple:
    """What the runtime does with the call: each step's decision and rewrite."""
    return tuple((s.native_event, s.decision, _plain(s.updated_input)) for s in call.steps)


def _plain(value):
    return None if value is msgspec.UNSET else msgspec.json.encode(value)


def _decider(call: ToolCall) -> str:
    for step in call.steps:
        for part in step.hooks:
            if part.id == step.decided_by:
                return part.label
    return ""
