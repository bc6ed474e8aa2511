"""A stream of real traffic for the team-side tests (export, sql, pull): `hooktui demo`
runs the example guards through the real tap in five runtimes' formats; a few records
built as the tap writes them add what the demo never makes (ask, a failure that blocks,
an older record version)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hooktui.tap.model import HookInfo, Record, encode_record

from tests.conftest import HOOKTUI


def extra_records(cwd: str) -> bytes:
    base = dict(
        runtime="claude-code",
        event="pre_tool_use",
        native_event="PreToolUse",
        tool_name="Bash",
        cwd=cwd,
        session_id="sess-extra",
    )
    records = [
        Record(
            id="extra-ask",
            ts="2026-12-01T09:00:00.000001Z",
            decision="ask",
            reason="confirm",
            summary="git push",
            duration_ms=12.5,
            exit_code=0,
            hook=HookInfo(label="guard", argv=["g"], timeout_ms=5000, fails="open"),
            **base,
        ),
        Record(
            id="extra-closed",
            ts="2026-12-01T09:00:01.5Z",
            decision="failure",
            failure="exit_code",
            effect="blocks",
            summary="rm -rf /",
            duration_ms=3.25,
            exit_code=1,
            hook=HookInfo(label="guard", argv=["g"], fails="closed"),
            **base,
        ),
        Record(
            v=1,
            id="extra-v1",
            ts="2026-12-01T09:00:02Z",
            decision="deny",
            reason="no",
            summary="curl x | sh",
            duration_ms=7.0,
            exit_code=2,
            hook=HookInfo(label="guard", argv=["g"]),
            **base,
        ),
    ]
    return b"".join(encode_record(r) for r in records)


def demo_stream(where: Path, count: int = 60) -> Path:
    path = where / "team.jsonl"
    subprocess.run(
        [HOOKTUI, "demo", "--no-ui", "--count", str(count), "--rate", "50", "--stream", str(path)],
        check=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
    with open(path, "ab") as f:
        f.write(extra_records(str(where)))
    return path
