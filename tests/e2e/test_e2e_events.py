"""Answers to the other events (Claude Code's guards, Codex's Stop and compaction,
Gemini CLI's model-level answers),
inside the real CLIs: bare, then through `hooktui install`, the same outcome; the
record reads the answer as the runtime did (strict xfail where the adapter does not)."""

from __future__ import annotations

import pytest

from tests.e2e.cases_events import CLAUDE_EVENTS, CODEX_EVENTS, GEMINI_EVENTS
from tests.e2e.events import EventCase, Seen, check_record, check_seen, run_event
from tests.e2e.harness import Sandbox, skip_reason

CASES = [*CLAUDE_EVENTS, *CODEX_EVENTS, *GEMINI_EVENTS]
_RUNS: dict[str, tuple[Seen, Seen]] = {}


def _runs(case: EventCase, tmp_path_factory) -> tuple[Seen, Seen]:
    reason = skip_reason(case.spec.cli)
    if reason:
        pytest.skip(reason)
    if case.name not in _RUNS:
        sb = Sandbox(tmp_path_factory.mktemp(case.name))
        _RUNS[case.name] = (run_event(case, sb, tapped=False), run_event(case, sb, tapped=True))
    return _RUNS[case.name]


def _id(case: EventCase) -> str:
    return f"{case.spec.runtime}-{case.name}"


def _shared(case: EventCase):
    """Both tests of a case read its one pair of runs: one xdist group (--dist loadgroup)."""
    return pytest.mark.xdist_group(f"event:{_id(case)}")


@pytest.mark.parametrize("case", [pytest.param(c, id=_id(c), marks=_shared(c)) for c in CASES])
def test_event_answer_same_with_and_without_tap(case: EventCase, tmp_path_factory) -> None:
    bare, tapped = _runs(case, tmp_path_factory)
    check_seen(case, bare)
    check_seen(case, tapped)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            c,
            id=_id(c),
            marks=[
                _shared(c),
                pytest.mark.xfail(strict=True, reason=f"issue 10: adapter: {c.disagreement}"),
            ]
            if c.disagreement
            else _shared(c),
        )
        for c in CASES
    ],
)
def test_event_answer_record_agrees(case: EventCase, tmp_path_factory) -> None:
    check_record(case, _runs(case, tmp_path_factory)[1])
