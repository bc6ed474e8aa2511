"""The replay report: one Result per selected record, counts, and the JSON form."""

from __future__ import annotations

from typing import Any

import msgspec
from hooktui.replay.compare import (
    CHANGED,
    CLASSES,
    FAILED,
    LOOSENED,
    REASON_ONLY,
    SKIPPED,
    TIGHTENED,
)
from hooktui.tap.model import Outcome, Record, Verdict
from msgspec import UNSET

FAIL_ON = ("changed", "loosened", "none")


class Result(msgspec.Struct, kw_only=True):
    """One selected record, replayed (or skipped)."""

    index: int  # position in the selection, which is the session's order
    line: int  # line number in the session file
    record: Record
    cls: str  # one of compare.CLASSES
    differs: bool = False  # the effect on the call changed (see compare.classify)
    direction: str = ""  # "loosened" | "tightened" | ""
    after: Verdict | None = None  # the first run's verdict
    outcome: Outcome | None = None  # the first run's process outcome
    runs: list[Verdict] = []  # every run's verdict, with --repeat N
    flaky: bool = False  # the runs did not all agree
    skip_reason: str = ""
    argv: list[str] = []  # what was run

    @property
    def before(self) -> Verdict:
        return self.record.verdict


class Report(msgspec.Struct, kw_only=True):
    session: str = ""
    policy: str | None = None  # None: each record's recorded hook command
    repeat: int = 1
    bad_lines: int = 0  # lines of the session that are not records
    results: list[Result] = []

    def count(self, cls: str) -> int:
        return sum(1 for r in self.results if r.cls == cls)

    def counts(self) -> dict[str, int]:
        out = {"total": len(self.results)}
        out.update({cls: self.count(cls) for cls in CLASSES})
        out[LOOSENED] = sum(1 for r in self.results if r.direction == LOOSENED)
        out[TIGHTENED] = sum(1 for r in self.results if r.direction == TIGHTENED)
        out["flaky"] = sum(1 for r in self.results if r.flaky)
        return out

    @property
    def changes(self) -> list[Result]:
        """Records worth a look: changed, failed, or with a new reason only."""
        return [r for r in self.results if r.cls in (CHANGED, FAILED, REASON_ONLY)]

    def exit_status(self, fail_on: str = "changed") -> int:
        """Like diff: 1 when something changed under `fail_on`, else 0."""
        if fail_on == "none":
            return 0
        if fail_on == "loosened":
            return 1 if any(r.direction == LOOSENED for r in self.results) else 0
        # "changed": a new effect on any call, a failure that differs, or a flaky hook.
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
    if verdict.decision == "failure":
        out["failure"] = verdict.failure
        out["failure_detail"] = verdict.failure_detail
        out["effect"] = verdict.effect
    return out


def _ident(r: Result) -> dict[str, Any]:
    rec = r.record
    return {
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
        item["before"] = side(r.before)
        item["after"] = side(r.after) if r.after is not None else None
        if r.outcome is not None:
            item["exit_code"] = r.outcome.exit_code
        item["flaky"] = r.flaky
        changes.append(item)
    out["changes"] = changes
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
