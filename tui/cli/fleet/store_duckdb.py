"""A DuckDB file as a store: the otel_logs table (the ClickHouse exporter's columns that
matter here), filled from streams by `hooktui export --duckdb FILE`, read by `hooktui
pull duckdb:FILE`. A DuckDB file has one writer at a time: a snapshot for a team (made
nightly, passed around), not a live store; ClickHouse is the live one."""

from __future__ import annotations

import json
import os
import tempfile
from decimal import Decimal

from hooktui.tui.cli.fleet.extras import need
from hooktui.tui.cli.fleet.otel import SERVICE

TABLE = """
CREATE TABLE IF NOT EXISTS otel_logs (
    Timestamp TIMESTAMP_NS,
    SeverityText VARCHAR,
    SeverityNumber UTINYINT,
    ServiceName VARCHAR,
    Body VARCHAR,
    LogAttributes MAP(VARCHAR, VARCHAR),
    EventName VARCHAR
)
"""
INSERT = """
INSERT INTO otel_logs
SELECT make_timestamp_ns(ns), severity_text, severity_number, service, body, attrs, event_name
FROM read_json(?, format = 'newline_delimited', columns = {
    'ns': 'BIGINT', 'severity_text': 'VARCHAR', 'severity_number': 'UTINYINT',
    'service': 'VARCHAR', 'body': 'VARCHAR', 'attrs': 'MAP(VARCHAR, VARCHAR)',
    'event_name': 'VARCHAR'})
WHERE attrs['log.record.uid'] NOT IN (
    SELECT LogAttributes['log.record.uid'] FROM otel_logs
    WHERE LogAttributes['log.record.uid'] IS NOT NULL)
"""


def as_string(value: dict) -> str:
    """An attribute's value as the ClickHouse exporter stores it (pcommon's AsString)."""
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        return str(int(value["intValue"]))
    text = format(Decimal(repr(float(value["doubleValue"]))), "f")
    return text[:-2] if text.endswith(".0") else text


def append(path: str, log_records: list[dict]) -> int:
    """Add the records not in the file yet (by uid); how many the file holds after."""
    duckdb = need("duckdb")
    con = duckdb.connect(path)
    try:
        con.execute(TABLE)
        fd, tmp = tempfile.mkstemp(prefix="hooktui-export-", suffix=".jsonl")
        try:
            with os.fdopen(fd, "w") as f:
                for log in log_records:
                    row = {
                        "ns": int(log["timeUnixNano"]),
                        "severity_text": log["severityText"],
                        "severity_number": log["severityNumber"],
                        "service": SERVICE,
                        "body": log["body"]["stringValue"],
                        "attrs": {a["key"]: as_string(a["value"]) for a in log["attributes"]},
                        "event_name": log["eventName"],
                    }
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")
            con.execute(INSERT, [tmp])
        finally:
            os.unlink(tmp)
        return con.execute("SELECT count(*) FROM otel_logs").fetchone()[0]
    finally:
        con.close()
