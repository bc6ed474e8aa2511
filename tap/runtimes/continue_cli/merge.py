"""Continue CLI: how several hooks' answers on one call combine (1.5.47).

Its hookRunner.ts (`aggregateResults`) walks the results in configured order
(Promise.all keeps it) and copies each `hookSpecificOutput` over the earlier ones:
- any block blocks (exit 2, `decision: "block"`, a `permissionDecision` or
  PermissionRequest `behavior` of deny);
- the `permissionDecision` passed on is the LAST one given: one hook asking and a
  later one allowing passes on allow (a silent hook, with no permissionDecision,
  changes nothing: an ask before it stands);
- the block's reason: each deny given in `hookSpecificOutput` overwrites it, so the
  last such deny's reason; without one, the first blocking exit's (exit 2,
  `decision: "block"`), which never overwrites.
Rewrites and the rest follow the declared MergeRule (the last updatedInput in
order). Driven in Continue's own runner: tests/e2e/test_e2e_continue.py. Loaded by
readers only.
"""

from __future__ import annotations

from hooktui.tap.base import jsonio
from hooktui.tap.runtimes import combine as merge

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hooktui.tap.runtimes.combine import Answer, Combined
    from hooktui.tap.runtimes.merge import MergeRule


def specific_decision(answer: Answer) -> str:
    """The decision the hook gave in its `hookSpecificOutput` (PreToolUse's
    permissionDecision, PermissionRequest's decision.behavior), read as Continue's
    runner reads stdout; "" when it gave none (or its bytes are not at hand)."""
    outcome = answer.outcome
    if outcome is None or outcome.timed_out:
        return ""
    text = outcome.stdout.decode("utf-8", "replace").strip()
    if not text.startswith("{"):  # tryParseJson
        return ""
    try:
        obj = jsonio.loads(text)
    except jsonio.NotJSON:
        return ""
    hso = obj.get("hookSpecificOutput") if isinstance(obj, dict) else None
    if not isinstance(hso, dict):
        return ""
    if hso.get("hookEventName") == "PreToolUse":
        decision = hso.get("permissionDecision")
        return decision if isinstance(decision, str) else ""
    if hso.get("hookEventName") == "PermissionRequest" and isinstance(hso.get("decision"), dict):
        behavior = hso["decision"].get("behavior")
        return behavior if isinstance(behavior, str) else ""
    return ""


def combine(answers: list[Answer], rule: MergeRule) -> Combined:
    base = merge.combine(answers, rule)
    if len(answers) < 2:
        return base
    ordered = merge.in_order(answers)
    if base.decision == "deny":
        return _deny_reason(ordered, base)
    if base.decision == "ask":
        return _last_said(ordered, base, rule)
    return base


def _deny_reason(ordered: list[Answer], base: Combined) -> Combined:
    """The reason read: the last deny given in hookSpecificOutput, else the first block."""
    said = [a for a in ordered if a.vote == "deny" and specific_decision(a) == "deny"]
    if not said or said[-1].key == base.decided_by:
        return base
    note = (
        "of several denies, the reason read is the last one given in hookSpecificOutput "
        "(each overwrites the one before)"
    )
    return base.replace(decided_by=said[-1].key, reason=said[-1].reason, notes=(*base.notes, note))


def _last_said(ordered: list[Answer], base: Combined, rule: MergeRule) -> Combined:
    """No block and a hook asked: the last permissionDecision in order is passed on."""
    said = [a for a in ordered if a.vote == "ask" or (a.vote == "allow" and specific_decision(a))]
    last = said[-1]
    if last.vote == "ask":
        return base
    askers = {a.key for a in ordered if a.vote == "ask"}
    passed = merge.combine(
        [a.replace(decision="allow") if a.key in askers else a for a in ordered], rule
    )
    overridden = tuple(a.key for a in ordered if a.key in askers or a.key in passed.overridden)
    conflicts = tuple(dict.fromkeys(("disagree", *passed.conflicts, "overridden")))
    note = (
        "an ask is passed on only when no later hook in configured order gives a "
        "permissionDecision: the last one given wins"
    )
    rewritten = passed.decision in ("modify", "replace")
    return passed.replace(
        decided_by=passed.decided_by if rewritten else last.key,
        reason=last.reason,
        overridden=overridden,
        conflicts=conflicts,
        notes=(*passed.notes, note),
    )
