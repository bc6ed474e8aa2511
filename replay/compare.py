"""Comparing a recorded verdict with the one a replay produced.

Classes, one per record (they add up to the total):
- ``unchanged``: same decision, same rewrite, same reason and context;
- ``reason_only``: same decision and rewrite, only the reason or context text moved;
- ``changed``: the decision differs, or a modify/replace now rewrites to something
  else (compared key-order-insensitively), or a recorded failure now fails differently;
- ``failed``: the policy did not answer (decision ``failure``), with why;
- ``skipped``: not replayable (decided in ``hooktui.replay.policy``).

A changed or failed record is *loosened* when the call was stopped before and
now goes ahead (``Verdict.lets_through``: allow/modify/replace, or a failure the
runtime proceeds on), *tightened* the other way round.
"""

from __future__ import annotations

from typing import Any

from hooktui.tap.model import UNSET, Verdict

UNCHANGED = "unchanged"
REASON_ONLY = "reason_only"
CHANGED = "changed"
FAILED = "failed"
SKIPPED = "skipped"
CLASSES = (UNCHANGED, REASON_ONLY, CHANGED, FAILED, SKIPPED)

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


def same_effect(before: Verdict, after: Verdict) -> bool:
    """Do both verdicts do the same thing to the call (the text aside)?"""
    if before.decision != after.decision:
        return False
    if before.decision == "modify":
        return canonical(before.updated_input) == canonical(after.updated_input)
    if before.decision == "replace":
        return canonical(before.updated_output) == canonical(after.updated_output)
    if before.decision == "failure":
        return (before.failure, before.effect) == (after.failure, after.effect)
    return True


def same_text(before: Verdict, after: Verdict) -> bool:
    return before.reason == after.reason and before.context == after.context


def verdict_key(verdict: Verdict) -> tuple:
    """What must match between two runs of one record for the hook to count as steady.

    The failure detail is left out: it may quote timings that differ run to run.
    """
    return (
        verdict.decision,
        verdict.reason,
        verdict.context,
        verdict.failure,
        verdict.effect,
        canonical(verdict.updated_input),
        canonical(verdict.updated_output),
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

    `differs` says whether the effect on the call changed: a failed record whose
    recording failed the same way does not differ (the exit status ignores it).
    """
    differs = not same_effect(before, after)
    if after.decision == "failure":
        return FAILED, differs, direction(before, after) if differs else ""
    if differs:
        return CHANGED, True, direction(before, after)
    if not same_text(before, after):
        return REASON_ONLY, False, ""
    return UNCHANGED, False, ""


# How much a run's class matters when several runs of one record disagree.
_WEIGHT = {UNCHANGED: 0, REASON_ONLY: 1, FAILED: 2, CHANGED: 2}


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
