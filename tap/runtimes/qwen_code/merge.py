"""Qwen Code: how several hooks' answers on one call combine (0.24.4).

Its hookAggregator.ts merges the hooks' output objects in configured order (project,
user, system, extensions; Promise.all keeps that order): a top-level decision
`block`/`deny` (an exit 2 becomes one) sets `decision: "block"`, but every
`hookSpecificOutput` key is copied over the earlier ones, and the PreToolUse reader
asks `hookSpecificOutput.permissionDecision` first. So the last hook in order that
gives a permissionDecision decides, even over another hook's deny; a top-level
`ask` survives only when it is the only answer. Seen in the real 0.24.4: exit 2 or
`decision: "block"` from one hook and `permissionDecision: "allow"` from the next,
and the tool ran (tests/e2e/test_e2e_merge.py). Loaded by readers only.
"""

from __future__ import annotations

from hooktui.tap.base import jsonio
from hooktui.tap.runtimes import combine as merge

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from hooktui.tap.runtimes.combine import Answer, Combined
    from hooktui.tap.runtimes.merge import MergeRule

_DECISIONS = ("allow", "deny", "ask")


def output_object(answer: Answer) -> dict | None:
    """The output object 0.24.4's runner makes of a hook's outcome (hookRunner.ts), or
    None when the hook gave none (empty output, a timeout, `{` that is not JSON)."""
    outcome = answer.outcome
    if outcome is None or outcome.timed_out:
        return None
    code = outcome.exit_code
    blocking = code == 2
    out = outcome.stdout.decode("utf-8", "replace").strip()
    err = outcome.stderr.decode("utf-8", "replace").strip()
    text = err if blocking else (out or err)
    if not text:
        return None
    parsed = _json(text)
    if isinstance(parsed, dict):
        return parsed
    if not blocking and text.startswith("{"):
        return None
    if blocking:
        return {"decision": "deny", "reason": text}
    return {"decision": "allow"}


def _json(text: str) -> Any:
    try:
        value = jsonio.loads(text)
        return jsonio.loads(value) if isinstance(value, str) else value
    except jsonio.NotJSON:
        return None


def permission_decision(obj: dict) -> str:
    specific = obj.get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("permissionDecision") in _DECISIONS:
        return specific["permissionDecision"]
    return ""


def combine(answers: list[Answer], rule: MergeRule, native_event: str) -> Combined:
    """Pre-tool answers by 0.24.4's merge; every other event by the generic rule."""
    ordered = merge.in_order(answers)
    outputs = [(a, output_object(a)) for a in ordered]
    outputs = [(a, o) for a, o in outputs if o is not None]
    if native_event != "PreToolUse" or len(outputs) < 2:
        return merge.combine(answers, rule)
    specific = [(a, permission_decision(o)) for a, o in outputs if permission_decision(o)]
    if specific:
        winner, decision = specific[-1]
        note = (
            "the last hook in configured order that gave hookSpecificOutput."
            "permissionDecision decides, over any other hook's deny"
        )
        return _decided(answers, winner, decision, note, rule)
    blockers = [a for a, o in outputs if o.get("decision") in ("block", "deny")]
    if blockers:
        return _decided(answers, blockers[0], "deny", "", rule)
    allowers = [a for a, o in outputs if o.get("decision") == "allow"]
    winner = allowers[0] if allowers else None
    note = ""
    if any(o.get("decision") == "ask" for _, o in outputs):
        note = "a top-level `ask` is dropped when several hooks answer (only an allow or a block is kept)"
    if winner is None:
        return merge.Combined(rule=rule.summary(), notes=(note,) if note else ())
    return _decided(answers, winner, "allow", note, rule)


def _decided(
    answers: list[Answer], winner: Answer, decision: str, note: str, rule: MergeRule
) -> Combined:
    base = merge.combine(answers, rule)
    overridden = tuple(
        a.key for a in merge.in_order(answers) if a is not winner and a.vote and a.vote != decision
    )
    conflicts = [c for c in base.conflicts if c not in ("overridden",)]
    if overridden:
        conflicts.append("overridden")
    notes = tuple(n for n in (*base.notes, note) if n)
    return merge.Combined(
        decision=decision,
        reason=winner.reason,
        decided_by=winner.key,
        overridden=overridden,
        conflicts=tuple(conflicts),
        notes=notes,
        rule=rule.summary(),
    )
