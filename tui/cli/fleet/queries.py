"""The `calls` view and the named queries, as shipped SQL, for DuckDB and ClickHouse.

A query is written once (`sql/NAME.sql`) unless the dialects differ, as they do for
percentiles: then `sql/NAME.duckdb.sql` and `sql/NAME.clickhouse.sql`. A query's
`{since}` becomes a timestamp literal of the dialect; the value is parsed first, so
nothing a user typed reaches the SQL as text.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

SQL = Path(__file__).with_name("sql")
DIALECTS = ("duckdb", "clickhouse")
QUERIES = ("deny-rate-by-hook", "misfires-since", "slowest-hooks", "fail-open")
DEFAULT_SINCE = timedelta(days=7)
_RELATIVE = re.compile(r"(\d+)([smhdw])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


class QueryError(Exception):
    """A query or parameter that cannot be used; the message is one line."""


def view_sql(dialect: str) -> str:
    return (SQL / f"{dialect}_calls.sql").read_text()


def query_text(name: str, dialect: str) -> str:
    if name not in QUERIES:
        raise QueryError(f"no query named {name!r} (there are: {', '.join(QUERIES)})")
    own = SQL / f"{name}.{dialect}.sql"
    return (own if own.exists() else SQL / f"{name}.sql").read_text()


def parse_since(text: str | None, now: float | None = None) -> datetime:
    """`2026-12-01`, `2026-12-01T09:30:00Z`, or a span back from now (`7d`, `24h`, `90m`);
    None: seven days ago. Naive UTC, as the `ts` column."""
    current = datetime.fromtimestamp(time.time() if now is None else now, UTC)
    if text is None:
        return (current - DEFAULT_SINCE).replace(tzinfo=None)
    span = _RELATIVE.fullmatch(text.strip())
    if span:
        delta = timedelta(**{_UNITS[span.group(2)]: int(span.group(1))})
        return (current - delta).replace(tzinfo=None)
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise QueryError(
            f"--since: not a time ({text!r}): give 2026-12-01, 2026-12-01T09:30:00Z or 7d"
        ) from None
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return when


def literal(when: datetime, dialect: str) -> str:
    stamp = when.strftime("%Y-%m-%d %H:%M:%S.%f")
    if dialect == "clickhouse":
        return f"toDateTime64('{stamp}', 6, 'UTC')"
    return f"TIMESTAMP '{stamp}'"


def named(name: str, dialect: str, since: datetime) -> str:
    """The named query, ready to run in `dialect`."""
    return query_text(name, dialect).replace("{since}", literal(since, dialect))
