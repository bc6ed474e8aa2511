"""The OpenTelemetry Collector's ClickHouse exporter, as far as the `calls` view and
`hooktui pull` see it: its otel_logs table (the schema it creates, create_schema: true)
and the row it inserts for each log record (Timestamp, severity, ServiceName from the
resource's service.name, Body as a string, every attribute's value as a string, as the
exporter's attributesToMap does with pcommon's AsString). The exporter itself is Go in
otelcol-contrib, which no registry reachable here ships; this is the part of its
behaviour the tests depend on, written down."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal

TABLE = """
CREATE TABLE IF NOT EXISTS otel_logs (
    Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
    TimestampTime DateTime DEFAULT toDateTime(Timestamp),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    TraceFlags UInt8,
    SeverityText LowCardinality(String) CODEC(ZSTD(1)),
    SeverityNumber UInt8,
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Body String CODEC(ZSTD(1)),
    ResourceSchemaUrl LowCardinality(String) CODEC(ZSTD(1)),
    ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    ScopeSchemaUrl LowCardinality(String) CODEC(ZSTD(1)),
    ScopeName String CODEC(ZSTD(1)),
    ScopeVersion LowCardinality(String) CODEC(ZSTD(1)),
    ScopeAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    LogAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    INDEX idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_body Body TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 8
) ENGINE = MergeTree
PARTITION BY toDate(TimestampTime)
PRIMARY KEY (ServiceName, TimestampTime)
ORDER BY (ServiceName, TimestampTime, Timestamp)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1
"""


def as_string(value: dict) -> str:
    """pcommon.Value.AsString for the kinds hooktui writes."""
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        return str(int(value["intValue"]))
    if "doubleValue" in value:  # Go: strconv.FormatFloat(v, 'f', -1, 64)
        text = format(Decimal(repr(float(value["doubleValue"]))), "f")
        return text[:-2] if text.endswith(".0") else text
    if "boolValue" in value:
        return "true" if value["boolValue"] else "false"
    raise ValueError(value)


def rows(export_lines: list[bytes]) -> list[dict]:
    """The otel_logs rows the exporter inserts for `hooktui export --otlp-json` output."""
    out = []
    for line in export_lines:
        for resource in json.loads(line)["resourceLogs"]:
            attrs = {a["key"]: as_string(a["value"]) for a in resource["resource"]["attributes"]}
            for scope in resource["scopeLogs"]:
                for log in scope["logRecords"]:
                    nanos = int(log["timeUnixNano"])
                    when = datetime.fromtimestamp(nanos // 10**9, UTC)
                    out.append(
                        {
                            "Timestamp": when.strftime("%Y-%m-%d %H:%M:%S")
                            + f".{nanos % 10**9:09d}",
                            "SeverityText": log["severityText"],
                            "SeverityNumber": log["severityNumber"],
                            "ServiceName": attrs.get("service.name", ""),
                            "Body": log["body"]["stringValue"],
                            "ResourceAttributes": attrs,
                            "ScopeName": scope["scope"]["name"],
                            "ScopeVersion": scope["scope"].get("version", ""),
                            "LogAttributes": {
                                a["key"]: as_string(a["value"]) for a in log["attributes"]
                            },
                        }
                    )
    return out


def load(session, export_lines: list[bytes]) -> int:
    """Create otel_logs in a chDB session and insert the rows; how many."""
    session.query(TABLE)
    data = "\n".join(json.dumps(r) for r in rows(export_lines))
    session.query(f"INSERT INTO otel_logs FORMAT JSONEachRow\n{data}")
    return len(data.splitlines())
