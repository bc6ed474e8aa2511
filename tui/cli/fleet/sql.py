"""`hooktui sql "SELECT …" [STREAM…]`: SQL over streams, on DuckDB embedded.

The streams (paths, globs, fsspec URLs; default: the default stream) are read as the
`calls` view (queries.py, sql/duckdb_calls.sql): one row per call, the record's summary
fields as columns. `--query NAME` runs a named query instead; `--show-sql clickhouse`
prints the same view and queries for a team's ClickHouse (over the OpenTelemetry
exporter's otel_logs table). Output: an aligned table, CSV or JSON.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from datetime import date, datetime
from decimal import Decimal

from hooktui.tap.read.sanitize import safe_line
from hooktui.tui.cli.args import RaisingParser, UsageError
from hooktui.tui.cli.fleet import queries
from hooktui.tui.cli.fleet.extras import need
from hooktui.tui.cli.fleet.queries import QueryError

FORMATS = ("table", "csv", "json")


def build_parser() -> argparse.ArgumentParser:
    p = RaisingParser(
        prog="hooktui sql",
        usage='hooktui sql ("SELECT …" | --query NAME [--since WHEN]) [STREAM…] '
        "[--format table|csv|json]\n       hooktui sql --show-sql duckdb|clickhouse [--query NAME]",
        description="SQL over recorded streams, on DuckDB, through the `calls` view "
        "(docs/teams.md lists its columns).",
        epilog=f"Named queries: {', '.join(queries.QUERIES)}. --since takes 2026-12-01, "
        "2026-12-01T09:30:00Z or a span back from now (7d, 24h); default 7d.",
    )
    p.add_argument("args", nargs="*", metavar="SQL STREAM")
    p.add_argument("--query", metavar="NAME", help="a named query instead of SQL")
    p.add_argument("--since", metavar="WHEN", help="for misfires-since: from when")
    p.add_argument("--format", choices=FORMATS, default="table")
    p.add_argument(
        "--show-sql",
        choices=queries.DIALECTS,
        metavar="DIALECT",
        help="print the calls view of DIALECT (with --query: that query) instead",
    )
    return p


def show_sql(dialect: str, name: str | None, since: str | None) -> str:
    """The `calls` view of `dialect`, or with a name that query, ready to run there."""
    if name is None:
        return queries.view_sql(dialect)
    return queries.named(name, dialect, queries.parse_since(since)).rstrip() + ";\n"


def _quoted(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def connect(streams: list[str]):
    """A DuckDB connection with the `calls` view over `streams`."""
    duckdb = need("duckdb")
    from hooktui.tui.cli.fleet.streams import expand, is_url

    found = [name for name, _ in expand(streams)]
    con = duckdb.connect()
    protocols = {name.split("://", 1)[0] for name in found if is_url(name)}
    for protocol in sorted(protocols):  # object storage through fsspec, as replay reads it
        con.register_filesystem(need("fsspec").filesystem(protocol))
    listing = "[" + ", ".join(_quoted(name) for name in found) + "]"
    con.execute(queries.view_sql("duckdb").replace("{streams}", listing))
    return con


def _cell(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    return value


def write(columns: list[str], rows: list[tuple], fmt: str, out) -> None:
    rows = [tuple(_cell(v) for v in row) for row in rows]
    if fmt == "json":
        json.dump([dict(zip(columns, row, strict=True)) for row in rows], out, ensure_ascii=False)
        out.write("\n")
    elif fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(columns)
        w.writerows(["" if v is None else v for v in row] for row in rows)
    else:
        shown = [[safe_line("" if v is None else str(v)) for v in row] for row in rows]
        widths = [max([len(c)] + [len(r[i]) for r in shown]) for i, c in enumerate(columns)]
        for line in [columns, ["-" * w for w in widths], *shown]:
            out.write(
                "  ".join(v.ljust(w) for v, w in zip(line, widths, strict=True)).rstrip() + "\n"
            )


def plan(args: argparse.Namespace) -> tuple[str, list[str]]:
    """(the SQL to run, the streams)."""
    if args.query:
        since = queries.parse_since(args.since)
        return queries.named(args.query, "duckdb", since), args.args
    if args.since:
        raise UsageError("--since goes with --query (a query of your own says its own time)")
    if not args.args:
        raise UsageError('give a query ("SELECT … FROM calls") or --query NAME')
    return args.args[0], args.args[1:]


def main(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.show_sql:
            sys.stdout.write(show_sql(args.show_sql, args.query, args.since))
            return 0
        text, streams = plan(args)
        if not streams:
            from hooktui.tap.base.stream import default_stream_path

            streams = [default_stream_path()]
        con = connect(streams)
        duckdb = need("duckdb")
        try:
            cursor = con.execute(text)
            columns = [d[0] for d in cursor.description or []]
            rows = cursor.fetchall()
        except duckdb.Error as exc:
            raise QueryError(str(exc).strip().splitlines()[0]) from None
        write(columns, rows, args.format, sys.stdout)
        return 0
    except (UsageError, QueryError) as exc:
        sys.stderr.write(f"hooktui sql: {safe_line(str(exc))}\n")
        return 2
    except BrokenPipeError:
        return 0
