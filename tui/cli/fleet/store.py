"""A team's store, as `hooktui pull` reads it: ClickHouse over its HTTP interface, or a
DuckDB file; both hold the OpenTelemetry exporter's otel_logs shape (store_duckdb.py
writes one). Each gives back pages of (line, time in ns, uid) after a point."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from hooktui.tui.cli.args import UsageError
from hooktui.tui.cli.fleet.extras import need

SQL = Path(__file__).with_name("sql")
HTTP_TIMEOUT_S = 60


class StoreError(Exception):
    """The store refused or could not be reached; one line."""


def _quoted(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def page_sql(dialect: str, after_ns: int, after_uid: str, limit: int) -> str:
    uid = (
        _quoted(after_uid) if dialect == "clickhouse" else "'" + after_uid.replace("'", "''") + "'"
    )
    text = (SQL / f"pull.{dialect}.sql").read_text()
    return (
        text.replace("{after_ns}", str(int(after_ns)))
        .replace("{after_uid}", uid)
        .replace("{limit}", str(int(limit)))
    )


class ClickHouse:
    """`http(s)://[user:password@]host:8123/?database=hooktui`; the user and password may
    come from CLICKHOUSE_USER / CLICKHOUSE_PASSWORD instead."""

    dialect = "clickhouse"

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.user = urllib.parse.unquote(parts.username or os.environ.get("CLICKHOUSE_USER", ""))
        self.password = urllib.parse.unquote(
            parts.password or os.environ.get("CLICKHOUSE_PASSWORD", "")
        )
        netloc = parts.hostname or ""
        if parts.port:
            netloc += f":{parts.port}"
        self.url = urllib.parse.urlunsplit(
            (parts.scheme, netloc, parts.path or "/", parts.query, "")
        )
        self.shown = urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))

    def page(self, after_ns: int, after_uid: str, limit: int) -> list[tuple[str, int, str]]:
        sql = page_sql(self.dialect, after_ns, after_uid, limit) + "\nFORMAT JSONEachRow"
        request = urllib.request.Request(self.url, data=sql.encode(), method="POST")
        if self.user:
            request.add_header("X-ClickHouse-User", self.user)
            request.add_header("X-ClickHouse-Key", self.password)
        request.add_header("X-ClickHouse-Format", "JSONEachRow")
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as reply:
                text = reply.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            why = exc.read().decode("utf-8", "replace").strip().splitlines()
            raise StoreError(
                f"{self.shown} answered {exc.code}: {why[0] if why else exc.reason}"
            ) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise StoreError(f"cannot reach {self.shown}: {reason}") from None
        rows = []
        for line in text.splitlines():
            if line.strip():
                row = json.loads(line)
                rows.append((row["Body"], int(row["ns"]), row["uid"]))
        return rows


class DuckDBFile:
    """A DuckDB file with an otel_logs table, opened read-only (a writer may hold it)."""

    dialect = "duckdb"

    def __init__(self, path: str) -> None:
        self.shown = path
        duckdb = need("duckdb")
        if not os.path.isfile(path):
            raise UsageError(f"no such DuckDB file: {path}")
        try:
            self.con = duckdb.connect(path, read_only=True)
        except duckdb.Error as exc:
            raise StoreError(f"cannot open {path}: {str(exc).splitlines()[0]}") from None
        self.error = duckdb.Error

    def page(self, after_ns: int, after_uid: str, limit: int) -> list[tuple[str, int, str]]:
        try:
            return [
                (body, int(ns), uid)
                for body, ns, uid in self.con.execute(
                    page_sql(self.dialect, after_ns, after_uid, limit)
                ).fetchall()
            ]
        except self.error as exc:
            raise StoreError(f"{self.shown}: {str(exc).splitlines()[0]}") from None


def open_store(name: str):
    if name.startswith(("http://", "https://")):
        return ClickHouse(name)
    if name.startswith("duckdb:"):
        return DuckDBFile(name.removeprefix("duckdb:"))
    if name.endswith((".duckdb", ".db")):
        return DuckDBFile(name)
    raise UsageError(
        f"not a store: {name!r} (give http(s)://host:8123/?database=NAME for ClickHouse, "
        "or a DuckDB file: duckdb:PATH)"
    )
