"""`hooktui export --otlp-json`: records as OpenTelemetry log records, checked against
OpenTelemetry's own protobuf definitions (opentelemetry-proto, protobuf's json_format):
each line parses as an ExportLogsServiceRequest with no unknown field, and prints back
to the very JSON we wrote (the canonical proto3 JSON form). The body is the recorded
line, unchanged."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml
from google.protobuf import json_format
from hooktui.tui.cli.fleet import otel
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest

from tests.conftest import HOOKTUI
from tests.tui.fleet_streams import demo_stream

COLLECTOR = Path(otel.__file__).with_name("otelcol.yaml")


@pytest.fixture(scope="module")
def stream(tmp_path_factory) -> Path:
    return demo_stream(tmp_path_factory.mktemp("otel"))


def export(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, "export", "--otlp-json", *args],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


def test_every_line_is_a_valid_export_request(stream: Path):
    proc = export(str(stream), "--batch", "25")
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    requests = proc.stdout.splitlines()
    lines = stream.read_bytes().splitlines()
    assert len(requests) == -(-len(lines) // 25)
    bodies = []
    for text in requests:
        message = json_format.Parse(text, ExportLogsServiceRequest())  # unknown fields raise
        ours = json.loads(text)
        assert json_format.MessageToDict(message, use_integers_for_enums=True) == ours
        (resource,) = message.resource_logs
        assert resource.resource.attributes[0].value.string_value == "hooktui"
        for log in resource.scope_logs[0].log_records:
            bodies.append(log.body.string_value.encode())
            assert log.event_name == "hooktui.hook_call"
    assert bodies == lines  # byte for byte, in order


def _by_uid(proc) -> dict[str, dict]:
    out = {}
    for text in proc.stdout.splitlines():
        message = json_format.Parse(text, ExportLogsServiceRequest())
        for log in message.resource_logs[0].scope_logs[0].log_records:
            attrs = {a.key: json_format.MessageToDict(a.value) for a in log.attributes}
            out[attrs["log.record.uid"]["stringValue"]] = {"log": log, "attrs": attrs}
    return out


def test_the_mapping(stream: Path):
    logs = _by_uid(export(str(stream)))
    records = {r["id"]: r for r in map(json.loads, stream.read_bytes().splitlines())}
    assert logs.keys() == records.keys()
    expected_severity = {
        ("allow", ""): (9, "INFO"),
        ("modify", ""): (9, "INFO"),
        ("replace", ""): (9, "INFO"),
        ("ask", ""): (10, "INFO2"),
        ("deny", ""): (13, "WARN"),
        ("failure", "blocks"): (17, "ERROR"),
        ("failure", "proceeds"): (18, "ERROR2"),  # a guard failing open
    }
    seen = set()
    for uid, record in records.items():
        log, attrs = logs[uid]["log"], logs[uid]["attrs"]
        key = (record["decision"], record["effect"])
        seen.add(key)
        assert (log.severity_number, log.severity_text) == expected_severity[key]
        assert log.time_unix_nano == otel.unix_nanos(record["ts"])
        assert attrs["hooktui.decision"] == {"stringValue": record["decision"]}
        assert attrs["hooktui.runtime"] == {"stringValue": record["runtime"]}
        assert attrs["hooktui.duration_ms"] == {"doubleValue": record["duration_ms"]}
        if record["tool_name"]:
            assert attrs["gen_ai.tool.name"] == {"stringValue": record["tool_name"]}
        if record["tool_call_id"]:
            assert attrs["gen_ai.tool.call.id"] == {"stringValue": record["tool_call_id"]}
        if record["session_id"]:
            assert attrs["session.id"] == {"stringValue": record["session_id"]}
        if record["exit_code"] is not None:
            assert attrs["process.exit.code"] == {"intValue": str(record["exit_code"])}
        assert not any(v == {"stringValue": ""} for v in attrs.values())  # empties left out
    assert seen == set(expected_severity)


def test_timestamps_to_the_nanosecond():
    assert otel.unix_nanos("1970-01-01T00:00:01.000000001Z") == 1_000_000_001
    assert otel.unix_nanos("2026-12-01T09:00:01.5Z") == 1_796_115_601_500_000_000
    with pytest.raises(ValueError):
        otel.unix_nanos("2026-12-01 09:00:01")


def test_a_line_that_is_not_a_record_is_left_out_and_counted(tmp_path: Path, stream: Path):
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(b'{"not": "a record"}\n' + stream.read_bytes().splitlines()[0] + b"\n")
    proc = export(str(mixed))
    assert proc.returncode == 0
    assert proc.stderr == b"hooktui export: 1 lines that are not records left out\n"
    assert len(_by_uid(proc)) == 1


def test_the_collector_config_sets_every_mapped_attribute():
    """The Collector cannot run here (otelcol-contrib is in no registry we reach): its
    config is held to the mapping it must write, attribute by attribute."""
    config = yaml.safe_load(COLLECTOR.read_text())
    receivers = config["receivers"]
    assert receivers["filelog"]["storage"] == "file_storage"
    statements = "\n".join(
        s
        for group in config["processors"]["transform/hooktui"]["log_statements"]
        for s in group["statements"]
    )
    for key in otel.ATTRIBUTES:
        assert f'log.attributes["{key}"]' in statements, key
    for number in otel.SEVERITY_TEXT:
        assert f"set(log.severity_number, {number})" in statements
    assert f'set(log.event_name, "{otel.EVENT_NAME}")' in statements
    pipelines = config["service"]["pipelines"]
    assert {"logs/otlp", "logs/clickhouse"} <= set(pipelines)
    for pipeline in pipelines.values():
        assert (
            pipeline["receivers"] == ["filelog"] and "transform/hooktui" in pipeline["processors"]
        )
