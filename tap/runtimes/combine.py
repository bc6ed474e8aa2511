"""Applying a runtime's MergeRule: the answers of the hooks of one call -> what the
runtime does with the call, which hook decided it, and where the hooks disagreed.

Runtime-agnostic: a runtime's rule is data (merge.py); a runtime whose reading
cannot be said as data overrides `Runtime.combine` in its own file and reuses the
steps here. Loaded by readers only (never on the tap's recording path).
"""

from __future__ import annotations

from hooktui.tap.canonical import UNSET, Outcome
from hooktui.tap.runtimes.facts import Facts
from hooktui.tap.runtimes.merge import PRECEDENCE, MergeRule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

# What conflicts are called (`Combined.conflicts`), for filters and JSON.
CONFLICTS = {
    "disagree": "the hooks answered differently",
    "rewrite_race": "two hooks rewrote the call differently and the one that finished last won",
    "rewrite_clash": "two hooks rewrote the call differently; the order they are configured in decided",
    "overridden": "a hook's answer did not carry: another hook's answer was taken",
    "after_stop": "a hook ran after the one that should have stopped the call",
}


class Answer(Facts):
    """One hook's answer, as its runtime read it, within one event of one call.

    `key` names the hook's call (a record id); `position` its place in the runtime's
    configured order when known (else the start time orders it); `outcome` the hook's
    bytes, for a runtime whose rule reads more than the verdict.
    """

    key: str
    decision: str
    effect: str = ""
    reason: str = ""
    updated_input: Any = UNSET
    updated_output: Any = UNSET
    started: float = 0.0
    ended: float = 0.0
    position: int | None = None
    outcome: Outcome | None = None

    @property
    def vote(self) -> str:
        """What the answer says about the call: allow | deny | ask | defer, or "" (none:
        a failure the runtime lets pass)."""
        if self.decision == "failure":
            return "deny" if self.effect == "blocks" else ""
        if self.decision in ("modify", "replace"):
            return "allow"
        return self.decision if self.decision in PRECEDENCE else ""

    @property
    def rewrite(self) -> Any:
        return self.updated_input if self.updated_input is not UNSET else self.updated_output


class Combined(Facts):
    """What the runtime does with the call after all its hooks answered."""

    decision: str = "allow"  # allow | deny | ask | defer | modify | replace
    reason: str = ""
    updated_input: Any = UNSET
    updated_output: Any = UNSET
    decided_by: str = ""  # the key of the hook whose answer is the decision ("": none voted)
    rewritten_by: str = ""  # the key of the hook whose rewrite stands
    overridden: tuple[str, ...] = ()  # keys of hooks whose own answer did not carry
    conflicts: tuple[str, ...] = ()  # names from CONFLICTS
    notes: tuple[str, ...] = ()  # sentences: why, in the runtime's terms
    rule: str = ""  # the rule's one-line summary

    @property
    def lets_through(self) -> bool:
        return self.decision in ("allow", "modify", "replace")


def in_order(answers: Iterable[Answer]) -> list[Answer]:
    """The answers in the runtime's configured order (positions first, then start time)."""
    return sorted(answers, key=lambda a: (a.position is None, a.position or 0, a.started, a.key))


def by_finish(answers: Iterable[Answer]) -> list[Answer]:
    return sorted(answers, key=lambda a: (a.ended, a.started, a.key))


def stronger(a: str, b: str, precedence: Sequence[str]) -> str:
    """The stronger of two votes ("" is weaker than any)."""
    if not a:
        return b
    if not b:
        return a
    return a if precedence.index(a) <= precedence.index(b) else b


def combine(answers: Sequence[Answer], rule: MergeRule) -> Combined:
    """The call's outcome by `rule` (an unknown rule is read as "any deny blocks")."""
    if not answers:
        return Combined(rule=rule.summary())
    if len(answers) == 1:
        return _alone(answers[0], rule)
    ran, after_stop = _ran(answers, rule)
    vote = ""
    for answer in ran:
        if answer.vote in rule.precedence:
            vote = stronger(vote, answer.vote, rule.precedence)
    decided = _deciders(ran, vote, rule)
    rewriter = _rewriter(ran, rule, vote) if vote in ("", "allow", "ask") else None
    return _outcome(answers, ran, after_stop, vote, decided, rewriter, rule)


def _alone(answer: Answer, rule: MergeRule) -> Combined:
    """One hook: its answer is the call's (what `combine` comes to, without its steps:
    most calls have one hook, and a stream holds many)."""
    vote = answer.vote if answer.vote in rule.precedence else ""
    rewrites = (
        answer.rewrite is not UNSET and vote in ("", "allow", "ask") and rule.rewrite != "ignored"
    )
    decision = vote or "allow"
    if rewrites and decision == "allow":
        decision = "modify" if answer.updated_input is not UNSET else "replace"
    return Combined(
        decision=decision,
        reason=answer.reason if (vote or rule.reason == "joined") else "",
        updated_input=answer.updated_input if rewrites else UNSET,
        updated_output=answer.updated_output if rewrites else UNSET,
        decided_by=answer.key if (vote or (rewrites and decision in ("modify", "replace"))) else "",
        rewritten_by=answer.key if rewrites else "",
        notes=_notes([answer], [], vote, rule),
        rule=rule.summary(),
    )


def _ran(answers: Sequence[Answer], rule: MergeRule) -> tuple[list[Answer], list[Answer]]:
    """The answers that count, and (sequential runtimes) those after the hook that should
    have stopped the call."""
    ordered = in_order(answers)
    if rule.runs != "sequential" or not rule.stops_at:
        return ordered, []
    for i, answer in enumerate(ordered):
        if answer.vote in rule.stops_at:
            return ordered[: i + 1], ordered[i + 1 :]
    return ordered, []


def _deciders(ran: list[Answer], vote: str, rule: MergeRule) -> list[Answer]:
    """The hooks that gave the decision, the one whose reason the model reads first."""
    givers = [a for a in ran if a.vote == vote and vote]
    if rule.reason == "first_finished":
        return by_finish(givers)
    return givers  # already in configured order


def _rewriter(ran: list[Answer], rule: MergeRule, vote: str) -> Answer | None:
    """The hook whose rewrite the call runs with, by the rule."""
    rewrites = [a for a in ran if a.rewrite is not UNSET and a.vote in ("allow", "ask", "")]
    if not rewrites or rule.rewrite == "ignored":
        return None
    if rule.rewrite == "last_finished":
        return by_finish(rewrites)[-1]
    if rule.rewrite == "last_leading":
        return _last_leading(ran, rule)
    return rewrites[-1]  # last_in_order, chained: `ran` is in configured order


def _last_leading(ran: list[Answer], rule: MergeRule) -> Answer | None:
    """In finish order, a rewrite counts when its hook's vote is the strongest so far
    (a hook asking after an allow-and-rewrite leaves the rewrite; one allowing after an
    ask does not bring its rewrite in)."""
    leading, chosen = "", None
    for answer in by_finish(ran):
        leading = stronger(leading, answer.vote, rule.precedence)
        if answer.rewrite is UNSET:
            continue
        if not answer.vote or answer.vote == leading or (leading, answer.vote) == ("defer", "ask"):
            chosen = answer
    return chosen


def _outcome(
    answers: Sequence[Answer],
    ran: list[Answer],
    after_stop: list[Answer],
    vote: str,
    decided: list[Answer],
    rewriter: Answer | None,
    rule: MergeRule,
) -> Combined:
    decision = vote or "allow"
    if rewriter is not None and decision == "allow":
        decision = "modify" if rewriter.updated_input is not UNSET else "replace"
    reason = _reason(ran, decided, rule)
    overridden = tuple(
        a.key
        for a in in_order(answers)
        if (a.vote and a.vote != vote) or (a.rewrite is not UNSET and a is not rewriter)
    )
    conflicts = _conflicts(ran, after_stop, rewriter, overridden, rule)
    notes = _notes(ran, after_stop, vote, rule)
    return Combined(
        decision=decision,
        reason=reason,
        updated_input=rewriter.updated_input if rewriter is not None else UNSET,
        updated_output=rewriter.updated_output if rewriter is not None else UNSET,
        decided_by=_winner(decision, decided, rewriter),
        rewritten_by=rewriter.key if rewriter is not None else "",
        overridden=overridden,
        conflicts=conflicts,
        notes=notes,
        rule=rule.summary(),
    )


def _winner(decision: str, decided: list[Answer], rewriter: Answer | None) -> str:
    """The hook whose answer the call went with: the rewrite's, when it ran rewritten."""
    if rewriter is not None and decision in ("modify", "replace"):
        return rewriter.key
    return decided[0].key if decided else ""


def _reason(ran: list[Answer], decided: list[Answer], rule: MergeRule) -> str:
    if rule.reason == "joined":
        return "\n".join(a.reason for a in ran if a.reason)
    return decided[0].reason if decided else ""


def _conflicts(
    ran: list[Answer],
    after_stop: list[Answer],
    rewriter: Answer | None,
    overridden: tuple[str, ...],
    rule: MergeRule,
) -> tuple[str, ...]:
    found = []
    if len({a.vote for a in ran if a.vote}) > 1:
        found.append("disagree")
    rewrites = [a.rewrite for a in ran if a.rewrite is not UNSET]
    if len(rewrites) > 1 and any(r != rewrites[0] for r in rewrites):
        racing = rule.rewrite in ("last_finished", "last_leading") and rule.runs == "parallel"
        found.append("rewrite_race" if racing else "rewrite_clash")
    if overridden:
        found.append("overridden")
    if after_stop:
        found.append("after_stop")
    return tuple(found)


def _notes(
    ran: list[Answer], after_stop: list[Answer], vote: str, rule: MergeRule
) -> tuple[str, ...]:
    notes = []
    if rule.unknown:
        notes.append(
            f"how this runtime combines hooks is not known ({rule.unknown}): read as any deny blocks"
        )
    failed = [a for a in ran if a.decision == "failure" and not a.vote]
    if failed and not vote:
        notes.append(
            "no hook gave a decision (the failures let the call pass): it goes ahead as asked"
        )
    if after_stop:
        notes.append(
            f"{len(after_stop)} hook(s) answered after the one that stopped the call; "
            "the runtime runs its hooks one after another and should not have run them"
        )
    return tuple(notes)
