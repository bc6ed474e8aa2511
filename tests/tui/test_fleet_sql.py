"""`hooktui sql` on DuckDB and the same `calls` view on ClickHouse (chDB: the ClickHouse
engine embedded, the SQL a ClickHouse server runs), over the same records: the DuckDB
view reads the stream, the ClickHouse one the OpenTelemetry exporter's otel_logs table
filled from `hooktui export --otlp-json`. The view and every named query give the same
answers on both."""

from __future__ import annotations

import json
import math
import re
import subprocess
from datetime import datetime
from pathlib import Path

import pytest
from hooktui.tui.cli.fleet import queries

from tests.conftest import HOOKTUI
from tests.lacking import importable, run_without
from tests.tui import otel_logs
from tests.tui.fleet_streams import demo_stream

SINCE = "2026-12-01T09:00:02Z"  # between the extra records: a real cut


def hooktui(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=180,
        cwd=cwd,
    )


@pytest.fixture(scope="module")
def stream(tmp_path_factory) -> Path:
    return demo_stream(tmp_path_factory.mktemp("sql"))


@pytest.fixture(scope="module")
def clickhouse(stream: Path):
    """A chDB session holding otel_logs as the exporter fills it, and the calls view."""
    export = hooktui("export", "--otlp-json", str(stream), "--batch", "17")
    assert export.returncode == 0, export.stderr
    from chdb import session as chdb_session  # ~500 MB of engine: loaded where used

    session = chdb_session.Session()
    loaded = otel_logs.load(session, export.stdout.encode().splitlines())
    assert loaded == len(stream.read_bytes().splitlines())
    session.query(queries.view_sql("clickhouse"))
    yield session
    session.close()


_STAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?")


def normal(value):
    """One form for both engines' JSON: times as datetimes, numbers as floats."""
    if isinstance(value, str) and _STAMP.fullmatch(value):
        return datetime.fromisoformat(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return float(value)
    return value


def same(rows_a: list[dict], rows_b: list[dict]) -> None:
    assert len(rows_a) == len(rows_b)
    for a, b in zip(rows_a, rows_b, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            x, y = normal(a[key]), normal(b[key])
            if isinstance(x, float) and isinstance(y, float):
                assert math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9), (key, a, b)
            else:
                assert x == y, (key, a, b)


def duck(stream: Path, *args: str) -> list[dict]:
    proc = hooktui("sql", *args, str(stream), "--format", "json")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return json.loads(proc.stdout)


def chdb(session, sql: str) -> list[dict]:
    text = str(
        session.query(sql + " SETTINGS output_format_json_quote_64bit_integers=0", "JSONEachRow")
    )
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_the_calls_view_is_the_same_on_both(stream: Path, clickhouse):
    query = "SELECT * FROM calls ORDER BY id"
    rows = duck(stream, query)
    assert len(rows) == len(stream.read_bytes().splitlines())
    same(rows, chdb(clickhouse, query))
    assert {r["decision"] for r in rows} >= {"allow", "deny", "ask", "failure", "modify"}
    assert any(r["fail_open"] for r in rows) and not all(r["fail_open"] for r in rows)


@pytest.mark.parametrize("name", queries.QUERIES)
def test_each_named_query_gives_the_same_answers(stream: Path, clickhouse, name: str):
    rows = duck(stream, "--query", name, "--since", SINCE)
    assert rows, name  # every query has something to say about this stream
    since = queries.parse_since(SINCE)
    same(rows, chdb(clickhouse, queries.named(name, "clickhouse", since)))


def test_misfires_since_cuts_at_the_time(stream: Path):
    everything = duck(stream, "--query", "misfires-since", "--since", "2000-01-01")
    later = duck(stream, "--query", "misfires-since", "--since", SINCE)
    assert sum(r["misfires"] for r in everything) == sum(r["misfires"] for r in later) + 1


def test_table_csv_and_a_stream_by_url(stream: Path):
    table = hooktui("sql", "--query", "deny-rate-by-hook", str(stream))
    assert table.returncode == 0
    assert table.stdout.splitlines()[0].split() == ["hook", "calls", "denies", "deny_rate"]
    csv = hooktui("sql", "SELECT count(*) AS n FROM calls", f"file://{stream}", "--format", "csv")
    assert csv.returncode == 0, csv.stderr
    assert csv.stdout == f"n\n{len(stream.read_bytes().splitlines())}\n"


def test_show_sql_prints_what_a_team_installs(clickhouse):
    view = hooktui("sql", "--show-sql", "clickhouse")
    assert view.returncode == 0 and view.stdout == queries.view_sql("clickhouse")
    slowest = hooktui("sql", "--show-sql", "clickhouse", "--query", "slowest-hooks")
    assert "quantileExactInclusive(0.95)" in slowest.stdout
    rows = chdb(clickhouse, slowest.stdout.rstrip().rstrip(";"))  # runs as printed
    assert rows and rows[0].keys() == {"hook", "calls", "p50_ms", "p95_ms", "max_ms"}


def test_bad_input_is_one_line(stream: Path, tmp_path: Path):
    cases = {
        ("SELECT nope FROM calls", str(stream)): "hooktui sql: Binder Error",
        ("--query", "nope", str(stream)): "hooktui sql: no query named 'nope'",
        ("--query", "misfires-since", "--since", "yesterday", str(stream)): "hooktui sql: --since",
        ("SELECT 1", str(tmp_path / "none.jsonl")): "hooktui sql: no such stream",
    }
    for args, start in cases.items():
        proc = hooktui("sql", *args)
        assert proc.returncode == 2 and proc.stdout == "", args
        assert proc.stderr.startswith(start) and proc.stderr.count("\n") == 1, proc.stderr


def test_a_missing_duckdb_is_one_line(tmp_path: Path, stream: Path):
    proc = run_without(tmp_path, {"duckdb"}, "sql", "SELECT 1", str(stream))
    assert not importable(tmp_path, "duckdb")
    assert proc.returncode == 2
    assert proc.stderr == (
        "hooktui sql: this command needs duckdb, which is not installed: "
        "pip install 'agent-hooktui[sql]'\n"
    )
