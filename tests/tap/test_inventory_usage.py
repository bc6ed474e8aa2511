"""The inventory joined with the streams (tap/inventory/usage.py): counts, and when a
configured hook went quiet while its runtime kept calling tools its matcher selects.

The streams are written as the tap writes them (Record structs, one JSON line each);
their times are set, since "quiet since" is about the order of calls in time.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from hooktui.tap.inventory.model import Hook
from hooktui.tap.inventory.usage import join, uses
from hooktui.tap.model import HookInfo

from tests.records import record

GUARD, OTHER = "python3 guard.py", "python3 audit.py"


def hook(command: str, matcher: str = "Bash") -> Hook:
    return Hook(
        runtime="claude-code",
        scope="project",
        path=".claude/settings.json",
        where="hooks.PreToolUse[0].hooks[0]",
        position=0,
        event="PreToolUse",
        matcher=matcher,
        command=command,
        wrapped=True,
    )


def call(ts: str, command: str, tool: str = "Bash", decision: str = "allow"):
    return record(
        id=f"{ts}-{command}-{tool}",
        ts=ts,
        native_event="PreToolUse",
        tool_name=tool,
        decision=decision,
        hook=HookInfo(argv=["/bin/sh", "-c", command]),
    )


def joined(tmp_path: Path, hooks: list[Hook], *calls) -> list[Hook]:
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(b"".join(msgspec.json.encode(c) + b"\n" for c in calls))
    join(hooks, uses([str(stream)]))
    return hooks


def test_a_hook_silent_while_its_runtime_calls_tools_it_selects_is_quiet_since(tmp_path):
    guard, audit = joined(
        tmp_path,
        [hook(GUARD), hook(OTHER, matcher="")],
        call("2026-12-01T10:00:00.000Z", GUARD, decision="deny"),
        call("2026-12-01T10:00:00.100Z", OTHER),
        call("2026-12-03T09:00:00.000Z", OTHER),  # Bash again: only the audit hook ran
    )
    assert guard.usage.calls == 1 and guard.usage.denies == 1
    assert guard.usage.state == "quiet since 2026-12-01"
    assert audit.usage.calls == 2 and audit.usage.state == ""


def test_later_calls_of_tools_its_matcher_does_not_select_keep_a_hook_current(tmp_path):
    (guard,) = joined(
        tmp_path,
        [hook(GUARD)],
        call("2026-12-01T10:00:00.000Z", GUARD),
        call("2026-12-03T09:00:00.000Z", OTHER, tool="Edit"),  # Edit: not the guard's
        call("2026-12-01T10:00:00.500Z", OTHER),  # Bash, but within its own second
    )
    assert guard.usage.calls == 1 and guard.usage.state == ""


def test_a_hook_with_no_record_never_fired(tmp_path):
    (guard,) = joined(tmp_path, [hook(GUARD)], call("2026-12-01T10:00:00Z", OTHER))
    assert guard.usage.calls == 0 and guard.usage.state == "never fired since install"
