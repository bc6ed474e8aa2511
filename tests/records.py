"""Hand-made records for tests: one factory; each module passes the fields its tests rely on."""

from __future__ import annotations

from typing import Any

from hooktui.tap.model import Record, RecordHead
from hooktui.tap.runtimes import call_of

# A hand-made call is an allowed Claude Code Bash call before it runs, unless a test says otherwise.
BASH_CALL: dict[str, Any] = dict(
    runtime="claude-code", event="pre_tool_use", tool_name="Bash", decision="allow"
)


def _fields(layers: tuple[dict[str, Any], ...], fields: dict[str, Any]) -> dict[str, Any]:
    merged = dict(BASH_CALL)
    for layer in layers:
        merged.update(layer)
    merged.update(fields)
    return merged


def record(*layers: dict[str, Any], **fields: Any) -> Record:
    """A Record of BASH_CALL, updated by each of `layers` in turn, then by `fields`; the
    canonical call fields not given are read out of its request, as the tap stores them."""
    merged = _fields(layers, fields)
    call = call_of(merged["runtime"], merged.get("request"))
    for name in ("prompt", "tool_input", "tool_output", "is_error"):
        merged.setdefault(name, getattr(call, name))
    return Record(**merged)


def head(*layers: dict[str, Any], **fields: Any) -> RecordHead:
    """A RecordHead of BASH_CALL, updated by each of `layers` in turn, then by `fields`."""
    return RecordHead(**_fields(layers, fields))


def numbered(i: int, command: str | None = None, *, ts_suffix: str = "Z") -> dict[str, Any]:
    """Fields of call number `i`: id `r<i>`, at 10:00:<i mod 60> on 2026-03-01, running
    `command` (`echo <i>` unless given) as its summary and its request's tool input."""
    command = f"echo {i}" if command is None else command
    return dict(
        id=f"r{i}",
        ts=f"2026-03-01T10:00:{i % 60:02d}{ts_suffix}",
        summary=command,
        request={"tool_input": {"command": command}},
    )
