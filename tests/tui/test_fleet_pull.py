"""`hooktui pull STORE`: the stored lines after a watermark, byte for byte, from ClickHouse
over HTTP (chDB behind a loopback stand-in for its HTTP interface: tests/tui/chdb_http.py
says what is ours) and from a DuckDB file; piped into `hooktui show -` as into watch."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hooktui.tui.cli.fleet import otel
from hooktui.tui.cli.fleet.store import page_sql

from tests.conftest import HOOKTUI
from tests.tui import otel_logs
from tests.tui.chdb_http import ChdbHTTP
from tests.tui.fleet_streams import demo_stream

EPOCH = "2000-01-01"


def hooktui(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args], capture_output=True, stdin=subprocess.DEVNULL, timeout=180, **kw
    )


@pytest.fixture(scope="module")
def stream(tmp_path_factory) -> Path:
    return demo_stream(tmp_path_factory.mktemp("pull"))


@pytest.fixture(scope="module")
def clickhouse(stream: Path):
    export = hooktui("export", "--otlp-json", str(stream))
    assert export.returncode == 0
    from chdb import session as chdb_session  # ~500 MB of engine: loaded where used

    session = chdb_session.Session()
    session.query("CREATE DATABASE IF NOT EXISTS hooktui")
    session.query("USE hooktui")
    otel_logs.load(session, export.stdout.splitlines())
    server = ChdbHTTP(session, user="team", password="s3cret")
    yield session, server
    server.close()
    session.close()


def lines_by_time(stream: Path) -> list[bytes]:
    lines = stream.read_bytes().splitlines()
    return sorted(
        lines, key=lambda line: (otel.unix_nanos(json.loads(line)["ts"]), json.loads(line)["id"])
    )


def test_the_page_sql_on_chdb_walks_the_store_in_order(stream: Path, clickhouse):
    session, _ = clickhouse
    want = lines_by_time(stream)
    got, after = [], (0, "")
    while True:  # pages of 7, each after the last row of the one before
        text = str(session.query(page_sql("clickhouse", *after, 7) + " FORMAT JSONEachRow"))
        rows = [json.loads(r) for r in text.splitlines() if r.strip()]
        got += [r["Body"].encode() for r in rows]
        if len(rows) < 7:
            break
        after = (int(rows[-1]["ns"]), rows[-1]["uid"])
    assert got == want


def test_pull_over_http_gives_the_lines_back_byte_for_byte(stream: Path, clickhouse):
    _, server = clickhouse
    proc = hooktui("pull", server.url("hooktui", "team:s3cret@"), "--since", EPOCH)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    assert proc.stdout.splitlines() == lines_by_time(stream)
    assert any("FROM otel_logs" in q for q in server.queries)


def test_pull_piped_into_a_reader(stream: Path, clickhouse):
    _, server = clickhouse
    pull = subprocess.Popen(
        [HOOKTUI, "pull", server.url("hooktui", "team:s3cret@"), "--since", EPOCH],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    try:
        show = subprocess.run(
            [HOOKTUI, "show", "-", "--format", "json"],
            stdin=pull.stdout,
            capture_output=True,
            timeout=120,
        )
    finally:
        pull.stdout.close()
        pull.wait(timeout=60)
    assert show.returncode == 0, show.stderr
    assert sorted(show.stdout.splitlines()) == sorted(stream.read_bytes().splitlines())


def test_the_watermark_prints_each_line_once_and_late_ones_too(
    stream: Path, clickhouse, tmp_path: Path
):
    session, server = clickhouse
    state = tmp_path / "mark.json"
    url = server.url("hooktui", "team:s3cret@")
    first = hooktui("pull", url, "--since", EPOCH, "--state", str(state))
    assert len(first.stdout.splitlines()) == len(stream.read_bytes().splitlines())
    assert hooktui("pull", url, "--state", str(state)).stdout == b""
    # A record the collector shipped late: 10 s older than the newest, inside the 30 s lag.
    newest = json.loads(lines_by_time(stream)[-1])
    late = dict(newest, id="late-arrival")
    late["ts"] = (
        newest["ts"][:17] + f"{max(0, int(newest['ts'][17:19]) - 10):02d}" + newest["ts"][19:]
    )
    line = json.dumps(late, separators=(",", ":"))
    request = otel.export_request([otel.log_record(line, late)], "test")
    session.query("USE hooktui")
    session.query(
        "INSERT INTO otel_logs FORMAT JSONEachRow\n"
        + json.dumps(otel_logs.rows([json.dumps(request).encode()])[0])
    )
    again = hooktui("pull", url, "--state", str(state))
    assert again.returncode == 0 and again.stdout == line.encode() + b"\n"
    assert hooktui("pull", url, "--state", str(state)).stdout == b""


def test_pull_from_a_duckdb_file(stream: Path, tmp_path: Path):
    store = tmp_path / "team.duckdb"
    for _ in range(2):  # a second export adds nothing: records are known by uid
        made = hooktui("export", "--duckdb", str(store), str(stream))
        assert made.returncode == 0, made.stderr
    count = len(stream.read_bytes().splitlines())
    assert made.stderr.decode() == f"hooktui export: {store} holds {count} records\n"
    proc = hooktui("pull", f"duckdb:{store}", "--since", EPOCH)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == lines_by_time(stream)


def test_a_store_that_refuses_or_is_not_there_is_one_line(clickhouse, tmp_path: Path):
    _, server = clickhouse
    cases = {
        server.url("hooktui", "team:wrong@"): "answered 516: Code: 516.",
        server.url("nosuchdb", "team:s3cret@"): "answered 500: Code: 60.",
        "http://127.0.0.1:9/?database=x": "cannot reach http://127.0.0.1:9",
        "ftp://x": "not a store",
        f"duckdb:{tmp_path / 'none.duckdb'}": "no such DuckDB file",
    }
    for store, words in cases.items():
        proc = hooktui("pull", store, "--since", EPOCH)
        err = proc.stderr.decode()
        assert proc.returncode == 2 and proc.stdout == b"", store
        assert err.startswith("hooktui pull: ") and words in err and err.count("\n") == 1, err
