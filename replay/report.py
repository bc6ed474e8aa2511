"""The replay report: one Result per selected record, counts, and the JSON form."""

from __future__ import annotations

from typing import Any

import msgspec
from hooktui.replay.calls import CallChange
from hooktui.replay.compare import (
    CLASSES,
    EFFECT_CHANGED,
    LOOSENED,
    NOTEWORTHY,
    SKIPPED,
    TIGHTENED,
    UNCHANGED,
    changed_effects,
    effects_of,
)
from hooktui.tap.canonical import UNSET, Outcome, Verdict
from hooktui.tap.model import Record

# What makes the exit status 1: "changed" (the decision or an effect), "decision"
# (the decision only), "loosened" (a call stopped before goes ahead now), "outcome" (a
# tool call's outcome, all its hooks together, changed), "none".
FAIL_ON = ("changed", "decision", "loosened", "outcome", "none")


class Result(msgspec.Struct, kw_only=True):
    """One selected record, replayed (or skipped)."""

    index: int  # position in the selection, which is the session's order
    line: int  # line number in the session file
    record: Record
    cls: str  # one of compare.CLASSES
    differs: bool = False  # the effect on the call changed (see compare.classify)
    direction: str = ""  # "loosened" | "tightened" | ""
    after: Verdict | None = None  # the verdict of the run that decided the class
    outcome: Outcome | None = None  # that run's process outcome
    runs: list[Verdict] = []  # every run's verdict, with --repeat N
    run_index: int = 0  # which of `runs` is `after`
    flaky: bool = False  # the runs did not all agree
    skip_reason: str = ""
    argv: list[str] = []  # what was run
    # Today's reading of the recorded outcome (see replay.baseline); None: the
    # recorded verdict, which is also the baseline when the outcome was not kept.
    baseline: Verdict | None = None
    rules_changed: bool = False  # today's reading differs from the recorded verdict
    notes: list[str] = []  # e.g. "recorded cwd /x no longer exists; ran in /y"
    source: str = ""  # the stream it came from, when a report covers several (fleet replay)

    @property
    def before(self) -> Verdict:
        """What the replay is compared with: today's reading of the recorded call."""
        return self.baseline if self.baseline is not None else self.record.verdict

    @property
    def recorded(self) -> Verdict:
        """The verdict written in the session (by the rules of its day)."""
        return self.record.verdict

    @property
    def effects(self) -> list[str]:
        """With the same decision, the names of the effects that changed (compare.effects_of)."""
        if self.cls != EFFECT_CHANGED or self.after is None:
            return []
        return changed_effects(self.before, self.after)

    def effect_pairs(self) -> list[tuple[str, Any, Any]]:
        """(name, before, after) for each changed effect; UNSET on the side that lacks it."""
        if self.after is None:
            return []
        was, now = effects_of(self.before), effects_of(self.after)
        return [(name, was.get(name, UNSET), now.get(name, UNSET)) for name in self.effects]


class Report(msgspec.Struct, kw_only=True):
    session: str = ""
    policy: str | None = None  # None: each record's recorded hook command
    repeat: int = 1
    bad_lines: int = 0  # lines of the session that are not records
    bad_line_errors: list[tuple[int, str]] = []  # (line number, why) for the first few
    results: list[Result] = []
    # Records of other hooks than the one --policy replaces, left out of `results`:
    # hook label -> count, and how to include them.
    left_out: dict[str, int] = {}
    left_out_hint: str = ""
    # Unchanged records without anything to say, counted but not kept: a fleet replay's
    # merge (replay.merge) keeps only the records a report shows.
    unlisted: int = 0
    # A fleet replay's figures (replay.merge.fleet_figures): parts, requests run, runs saved.
    fleet: dict[str, int] | None = None
    # The tool calls a replayed hook answered whose outcome, or whose hook's own
    # answer, changed (replay/calls.py).
    calls: list[CallChange] = []

    def count(self, cls: str) -> int:
        extra = self.unlisted if cls == UNCHANGED else 0
        return extra + sum(1 for r in self.results if r.cls == cls)

    @property
    def total(self) -> int:
        return len(self.results) + self.unlisted

    def counts(self) -> dict[str, int]:
        out = {"total": self.total}
        out.update({cls: self.count(cls) for cls in CLASSES})
        out[LOOSENED] = sum(1 for r in self.results if r.direction == LOOSENED)
        out[TIGHTENED] = sum(1 for r in self.results if r.direction == TIGHTENED)
        out["flaky"] = sum(1 for r in self.results if r.flaky)
        out["rules_changed"] = sum(1 for r in self.results if r.rules_changed)
        return out

    @property
    def changes(self) -> list[Result]:
        """Records worth a look: changed, effect changed, failed, or with a new reason only."""
        return [r for r in self.results if r.cls in NOTEWORTHY]

    def exit_status(self, fail_on: str = "changed") -> int:
        """Like diff: 1 when something changed under `fail_on`, else 0."""
        if fail_on == "none":
            return 0
        if fail_on == "outcome":
            return 1 if any(c.changed for c in self.calls) else 0
        if fail_on == "loosened":
            return 1 if any(r.direction == LOOSENED for r in self.results) else 0
        if fail_on == "decision":
            # As "changed", less the records whose decision stayed (an effect moved).
            return (
                1
                if any((r.differs and r.cls != EFFECT_CHANGED) or r.flaky for r in self.results)
                else 0
            )
        # "changed": a new decision or effect on any call, a failure that differs, or a
        # flaky hook.
        return 1 if any(r.differs or r.flaky for r in self.results) else 0


def side(verdict: Verdict) -> dict[str, Any]:
    """A verdict as a JSON object: decision and reason always, the rest when set."""
    out: dict[str, Any] = {"decision": verdict.decision, "reason": verdict.reason}
    if verdict.context:
        out["context"] = verdict.context
    if verdict.updated_input is not UNSET:
        out["updated_input"] = verdict.updated_input
    if verdict.updated_output is not UNSET:
        out["updated_output"] = verdict.updated_output
    if verdict.answer_effects:
        out["answer_effects"] = dict(verdict.answer_effects)
    if verdict.decision == "failure":
        out["failure"] = verdict.failure
        out["failure_detail"] = verdict.failure_detail
        out["effect"] = verdict.effect
    return out


def _ident(r: Result) -> dict[str, Any]:
    rec = r.record
    where = {"stream": r.source} if r.source else {}
    return {
        **where,
        "id": rec.id,
        "line": r.line,
        "runtime": rec.runtime,
        "event": rec.event,
        "tool_name": rec.tool_name,
        "summary": one_line(rec.summary),
    }


def one_line(text: str, width: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def to_builtins(report: Report) -> dict[str, Any]:
    """The JSON object `--format json` prints."""
    out: dict[str, Any] = {"session": report.session, "policy": report.policy}
    out.update(report.counts())
    out["repeat"] = report.repeat
    out["bad_lines"] = report.bad_lines
    changes = []
    for r in report.changes:
        item = _ident(r)
        item["class"] = r.cls
        item["direction"] = r.direction
        if r.cls == EFFECT_CHANGED:
            item["effects"] = r.effects
        item["before"] = side(r.before)
        item["after"] = side(r.after) if r.after is not None else None
        if r.rules_changed:
            item["recorded"] = side(r.recorded)
        item["rules_changed"] = r.rules_changed
        if r.outcome is not None:
            item["exit_code"] = r.outcome.exit_code
        item["flaky"] = r.flaky
        if len(r.runs) > 1:
            item["run"] = r.run_index + 1
        changes.append(item)
    out["changes"] = changes
    if report.fleet is None:  # a fleet part holds byte ranges, not whole tool calls
        out["calls"] = [msgspec.to_builtins(c) for c in report.calls]
    out["rules_changed_records"] = [
        {**_ident(r), "recorded": side(r.recorded), "today": side(r.before)}
        for r in report.results
        if r.rules_changed
    ]
    out["notes"] = [{**_ident(r), "notes": list(r.notes)} for r in report.results if r.notes]
    out["left_out"] = {
        "records": sum(report.left_out.values()),
        "hooks": dict(report.left_out),
        "include_with": report.left_out_hint,
    }
    out["bad_line_errors"] = [{"line": n, "error": why} for n, why in report.bad_line_errors]
    if report.fleet is not None:
        out["fleet"] = dict(report.fleet)
    out["skipped_records"] = [
        {**_ident(r), "reason": r.skip_reason} for r in report.results if r.cls == SKIPPED
    ]
    out["flaky_records"] = [
        {**_ident(r), "decisions": [v.decision for v in r.runs], "runs": [side(v) for v in r.runs]}
        for r in report.results
        if r.flaky
    ]
    return out


_encoder = msgspec.json.Encoder()


def to_json(report: Report) -> bytes:
    return _encoder.encode(to_builtins(report))
