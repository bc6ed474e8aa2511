"""A pytest plugin for the drift report: each test's outcome, one JSON line as it ends
(after a first line naming the version of the CLI the tests found installed).

drift.py loads it (`-p tests.e2e.drift_outcomes`) with HOOKTUI_DRIFT_OUTCOMES naming
the file. Written as each test ends (on the xdist controller too), so a run the
report's time box stops still leaves what it found.
"""

from __future__ import annotations

import json
import os


def _first_line(report) -> str:
    text = str(report.longrepr or "") if report.failed else ""
    if hasattr(report.longrepr, "reprcrash") and report.longrepr.reprcrash is not None:
        text = report.longrepr.reprcrash.message
    elif report.skipped and isinstance(report.longrepr, tuple):
        text = str(report.longrepr[2])
    return text.strip().splitlines()[0][:300] if text.strip() else ""


def _test_id(nodeid: str) -> str:
    """The test's id without the `@group` that --dist loadgroup appends to it."""
    head, at, group = nodeid.rpartition("@")
    return head if at and not any(c in group for c in "[]/") and "::" not in group else nodeid


def pytest_sessionstart(session) -> None:
    """First, the version of each drifting CLI the tests find installed: what they ran
    against (not the pin: the report checks it)."""
    path = os.environ.get("HOOKTUI_DRIFT_OUTCOMES")
    if not path or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from tests.e2e.harness import cli_version, drifting

    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"against": {cli: cli_version(cli) or "" for cli in drifting()}}))
        fh.write("\n")


def pytest_runtest_logreport(report) -> None:
    path = os.environ.get("HOOKTUI_DRIFT_OUTCOMES")
    if not path or os.environ.get("PYTEST_XDIST_WORKER"):
        return  # under xdist the controller gets every worker's reports: one line each
    if report.when != "call" and not (report.failed or report.skipped):
        return
    line = {
        "test": _test_id(report.nodeid),
        "when": report.when,
        "outcome": report.outcome,
        "xfail": bool(getattr(report, "wasxfail", "")),
        "message": _first_line(report),
    }
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")
