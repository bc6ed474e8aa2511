"""A record as an OpenTelemetry log record (the mapping docs/teams.md tables).

- Timestamp: `ts` (the hook's start), to the nanosecond; EventName `hooktui.hook_call`.
- Body: the recorded line, unchanged, so a store can give records back to `watch`,
  `show` and `replay` (`hooktui pull`).
- Severity from the decision: allow/modify/replace INFO (9), ask/defer INFO2 (10), deny
  WARN (13), a failure that blocks the call ERROR (17), one that lets it through (a
  guard failing open) ERROR2 (18).
- Attributes: OpenTelemetry's names where they exist (`gen_ai.tool.name`,
  `gen_ai.tool.call.id` = Claude Code's `tool_use_id`, `gen_ai.agent.id`, `session.id`,
  `process.exit.code`, `log.record.uid`), the other summary fields as `hooktui.*`.
  Empty values are left out, as the collector's config does.
- Resource: `service.name=hooktui`; host and user are the collector's to add.

The same mapping is written in OTTL in otelcol.yaml (the collector's filelog path) and
read back by the `calls` view for ClickHouse (sql/clickhouse_calls.sql).
"""

from __future__ import annotations

import calendar
from typing import Any

from hooktui.tap.canonical import fails_open

EVENT_NAME = "hooktui.hook_call"
SERVICE = "hooktui"

INFO, INFO2, WARN, ERROR, ERROR2 = 9, 10, 13, 17, 18
SEVERITY_TEXT = {INFO: "INFO", INFO2: "INFO2", WARN: "WARN", ERROR: "ERROR", ERROR2: "ERROR2"}
_BY_DECISION = {
    "allow": INFO,
    "modify": INFO,
    "replace": INFO,
    "ask": INFO2,
    "defer": INFO2,
    "deny": WARN,
}

# attribute -> (record field, kind): kind is "str", "int" or "double"
ATTRIBUTES: dict[str, tuple[str, str]] = {
    "log.record.uid": ("id", "str"),
    "gen_ai.tool.name": ("tool_name", "str"),
    "gen_ai.tool.call.id": ("tool_call_id", "str"),
    "gen_ai.agent.id": ("agent_id", "str"),
    "session.id": ("session_id", "str"),
    "process.exit.code": ("exit_code", "int"),
    "hooktui.record.v": ("v", "int"),
    "hooktui.runtime": ("runtime", "str"),
    "hooktui.runtime.version": ("runtime_version", "str"),
    "hooktui.event": ("event", "str"),
    "hooktui.native_event": ("native_event", "str"),
    "hooktui.decision": ("decision", "str"),
    "hooktui.reason": ("reason", "str"),
    "hooktui.failure": ("failure", "str"),
    "hooktui.effect": ("effect", "str"),
    "hooktui.duration_ms": ("duration_ms", "double"),
    "hooktui.summary": ("summary", "str"),
    "hooktui.cwd": ("cwd", "str"),
    "hooktui.hook.label": ("hook.label", "str"),
    "hooktui.hook.timeout_ms": ("hook.timeout_ms", "int"),
    "hooktui.hook.fails": ("hook.fails", "str"),
}


def severity(record: dict[str, Any]) -> int:
    """The severity number of a record (see the module text)."""
    decision = record.get("decision")
    if decision == "failure":
        return ERROR2 if fails_open(decision, record.get("effect") or "") else ERROR
    return _BY_DECISION.get(decision, INFO)


def unix_nanos(ts: str) -> int:
    """`2026-12-02T10:00:00.123456Z` (RFC 3339, UTC) as nanoseconds; ValueError if not."""
    if not ts.endswith("Z") or "T" not in ts:
        raise ValueError(f"not an RFC 3339 UTC time: {ts!r}")
    day, _, clock = ts[:-1].partition("T")
    whole, _, fraction = clock.partition(".")
    year, month, mday = (int(x) for x in day.split("-"))
    hour, minute, second = (int(x) for x in whole.split(":"))
    seconds = calendar.timegm((year, month, mday, hour, minute, second, 0, 0, 0))
    if fraction and not fraction.isdigit():
        raise ValueError(f"not an RFC 3339 UTC time: {ts!r}")
    nanos = int((fraction + "000000000")[:9]) if fraction else 0
    return seconds * 1_000_000_000 + nanos


def _field(record: dict[str, Any], path: str) -> Any:
    value: Any = record
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _value(kind: str, value: Any) -> dict[str, Any] | None:
    """An OTLP/JSON AnyValue, or None when the field is empty or not of its kind."""
    if value is None or value == "" or isinstance(value, bool):
        return None
    if kind == "str":
        return {"stringValue": value} if isinstance(value, str) else None
    if kind == "int":
        return {"intValue": str(value)} if isinstance(value, int) else None
    if isinstance(value, int | float):
        return {"doubleValue": float(value)}
    return None


def attributes(record: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for key, (path, kind) in ATTRIBUTES.items():
        value = _value(kind, _field(record, path))
        if value is not None:
            out.append({"key": key, "value": value})
    return out


def log_record(line: str, record: dict[str, Any]) -> dict[str, Any]:
    """The OTLP/JSON LogRecord of one recorded line (`record`: that line decoded)."""
    number = severity(record)
    return {
        "timeUnixNano": str(unix_nanos(record["ts"])),
        "severityNumber": number,
        "severityText": SEVERITY_TEXT[number],
        "body": {"stringValue": line},
        "attributes": attributes(record),
        "eventName": EVENT_NAME,
    }


def export_request(log_records: list[dict[str, Any]], version: str) -> dict[str, Any]:
    """An ExportLogsServiceRequest (OTLP/JSON) holding `log_records`."""
    return {
        "resourceLogs": [
            {
                "resource": {
                    "attributes": [{"key": "service.name", "value": {"stringValue": SERVICE}}]
                },
                "scopeLogs": [
                    {"scope": {"name": SERVICE, "version": version}, "logRecords": log_records}
                ],
            }
        ]
    }
