"""Comparing a recorded verdict with the one a replay produced.

Classes, one per record (they add up to the total):
- ``unchanged``: same decision, same rewrite, same reason and context;
- ``reason_only``: same decision and effects, only the reason text moved;
- ``effect_changed``: same decision, but something else the runtime acts on differs
  (`effects_of`: the new input or output, the added context, an answer effect such as
  user_message or model_request; compared key-order-insensitively);
- ``changed``: the decision differs, or a recorded failure now fails differently;
- ``failed``: the policy did not answer (decision ``failure``), with why;
- ``skipped``: not replayable (decided in ``hooktui.replay.policy``).

A changed or failed record is *loosened* when the call was stopped before and
now goes ahead (``Verdict.lets_through``: allow/modify/replace, or a failure the
runtime proceeds on), *tightened* the other way round.
"""

from __future__ import annotations

from typing import Any

from hooktui.tap.canonical import UNSET, Verdict

UNCHANGED = "unchanged"
REASON_ONLY = "reason_only"
EFFECT_CHANGED = "effect_changed"
CHANGED = "changed"
FAILED = "failed"
SKIPPED = "skipped"
CLASSES = (UNCHANGED, REASON_ONLY, EFFECT_CHANGED, CHANGED, FAILED, SKIPPED)
# The classes worth a look (the report's changes, the screen's "changes only").
NOTEWORTHY = (CHANGED, EFFECT_CHANGED, FAILED, REASON_ONLY)

LOOSENED = "loosened"
TIGHTENED = "tightened"


def canonical(value: Any) -> Any:
    """A form of `value` where dict key order no longer matters (lists keep theirs)."""
    if isinstance(value, dict):
        return tuple(sorted((str(k), canonical(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("__list__", tuple(canonical(v) for v in value))
    if value is UNSET:
        return ("__unset__",)
    # bool is an int in Python: keep True distinct from 1.
    return (type(value).__name__, value) if isinstance(value, bool) else value


def same_decision(before: Verdict, after: Verdict) -> bool:
    """Same decision (and, for a failure, the same kind of failure with the same effect)?"""
    if before.decision != after.decision:
        return False
    if before.decision == "failure":
        return (before.failure, before.effect) == (after.failure, after.effect)
    return True


def effects_of(verdict: Verdict) -> dict[str, Any]:
    """What the runtime acts on besides the decision, by name: the new input or output,
    the added context, and the answer's effects (canonical.ACTIONS names)."""
    out: dict[str, Any] = {}
    if verdict.updated_input is not UNSET:
        out["updated_input"] = verdict.updated_input
    if verdict.updated_output is not UNSET:
        out["updated_output"] = verdict.updated_output
    if verdict.context:
        out["context"] = verdict.context
    out.update(verdict.answer_effects or {})
    return out


def changed_effects(before: Verdict, after: Verdict) -> list[str]:
    """The names of the effects that differ (set on one side only, or set to another value)."""
    was, now = effects_of(before), effects_of(after)
    return sorted(
        name
        for name in was.keys() | now.keys()
        if canonical(was.get(name, UNSET)) != canonical(now.get(name, UNSET))
    )


def same_effect(before: Verdict, after: Verdict) -> bool:
    """Do both verdicts do the same thing to the call (the reason text aside)?"""
    return same_decision(before, after) and not changed_effects(before, after)


def verdict_key(verdict: Verdict) -> tuple:
    """What must match between two runs of one record for the hook to count as steady.

    The failure detail is left out: it may quote timings that differ run to run.
    """
    return (
        verdict.decision,
        verdict.reason,
        verdict.failure,
        verdict.effect,
        canonical(effects_of(verdict)),  # the same effects compare weighs, one list of them
    )


def direction(before: Verdict, after: Verdict) -> str:
    """``loosened``, ``tightened`` or "" when the call's fate is the same."""
    was, now = before.lets_through, after.lets_through
    if now and not was:
        return LOOSENED
    if was and not now:
        return TIGHTENED
    return ""


def classify(before: Verdict, after: Verdict) -> tuple[str, bool, str]:
    """(class, differs, direction) for one replayed record.

    `differs` says whether what the runtime does changed (the decision or an
    effect): a failed record whose recording failed the same way does not differ
    (the exit status ignores it).
    """
    differs = not same_effect(before, after)
    if after.decision == "failure":
        return FAILED, differs, direction(before, after) if differs else ""
    if not same_decision(before, after):
        return CHANGED, True, direction(before, after)
    if differs:
        return EFFECT_CHANGED, True, ""  # same decision, so the call's fate is the same
    if before.reason != after.reason:
        return REASON_ONLY, False, ""
    return UNCHANGED, False, ""


# How much a run's class matters when several runs of one record disagree.
_WEIGHT = {UNCHANGED: 0, REASON_ONLY: 1, EFFECT_CHANGED: 2, FAILED: 3, CHANGED: 3}


def classify_runs(before: Verdict, runs: list[Verdict]) -> tuple[str, bool, str, int]:
    """(class, differs, direction, index of the run that decided them) over every run
    of one record (`--repeat N`): a guard that denies once and allows twice has let
    the call through, so the record is changed and loosened whatever run 1 said.

    The deciding run is the first whose effect differs, else the first with the
    weightiest class (a failure or a new reason), else run 1. The direction is the
    same for every differing run: the recorded verdict either let the call through
    or it did not.
    """
    best = 0
    best_key = (-1, -1)
    direction_ = ""
    classified = [classify(before, after) for after in runs]
    for i, (cls, differs, way) in enumerate(classified):
        key = (int(differs), _WEIGHT[cls])
        if key > best_key:
            best, best_key = i, key
        direction_ = direction_ or way
    cls, differs, _ = classified[best]
    return cls, differs, direction_, best
