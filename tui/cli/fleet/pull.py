"""`hooktui pull STORE`: the lines a team's store holds after a watermark, byte for byte.

    hooktui pull http://clickhouse:8123/?database=hooktui --follow | hooktui watch -

The watermark is a point in the records' time (`ts`, to the nanosecond) and uid. A
collector ships in batches, so a record can land in the store after later ones: each
poll looks back --lag seconds before the watermark and skips the uids it already
printed. `--state FILE` keeps the watermark (and the uids inside the lag) between runs,
so a cron job prints each line once.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from hooktui.tap.read.sanitize import safe_line
from hooktui.tui.cli.args import RaisingParser, UsageError, number
from hooktui.tui.cli.fleet.queries import QueryError, parse_since
from hooktui.tui.cli.fleet.store import StoreError, open_store

PAGE = 5000
_seconds = number(
    float, "a number of seconds", lambda v: 0 <= v <= 86_400, "must be 0 to 86400: {text!r}"
)
_every = number(
    float, "a number of seconds", lambda v: 0.05 <= v <= 3600, "must be 0.05 to 3600: {text!r}"
)


def build_parser() -> argparse.ArgumentParser:
    p = RaisingParser(
        prog="hooktui pull",
        usage="hooktui pull STORE [--since WHEN] [--state FILE] [--follow [--every S]] [--lag S]",
        description="Print the records a team's store holds (ClickHouse over HTTP, or a "
        "DuckDB file), as recorded, oldest first: for `hooktui watch -`, show, replay.",
        epilog="STORE: http(s)://[user:password@]host:8123/?database=NAME (or CLICKHOUSE_USER, "
        "CLICKHOUSE_PASSWORD), or duckdb:PATH. --since takes 2026-12-01, "
        "2026-12-01T09:30:00Z or a span back (24h); default 24h, or the --state file's mark.",
    )
    p.add_argument("store", metavar="STORE")
    p.add_argument("--since", metavar="WHEN", help="records from this time on")
    p.add_argument("--state", metavar="FILE", help="read and keep the watermark here")
    p.add_argument("--follow", action="store_true", help="keep polling for new records")
    p.add_argument("--every", type=_every, default=2.0, metavar="S", help="seconds between polls")
    p.add_argument("--lag", type=_seconds, default=30.0, metavar="S", help="look back S seconds")
    return p


class Mark:
    """The watermark: the newest time printed, and the uids printed within the lag."""

    def __init__(self, ns: int, recent: dict[str, int] | None = None) -> None:
        self.ns = ns
        self.recent = recent or {}

    @classmethod
    def load(cls, path: str) -> Mark | None:
        try:
            with open(path) as f:
                data = json.load(f)
            return cls(int(data["ns"]), {str(k): int(v) for k, v in data["recent"].items()})
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise UsageError(f"--state {path}: not a watermark file ({exc})") from None

    def save(self, path: str) -> None:
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".hooktui-pull-")
        with os.fdopen(fd, "w") as f:
            json.dump({"ns": self.ns, "recent": self.recent}, f)
        os.replace(tmp, path)  # whole or not at all


def poll(store, mark: Mark, lag_ns: int, out) -> int:
    """Print what is new since `mark`; how many lines."""
    after_ns, after_uid = mark.ns - lag_ns, ""
    printed = 0
    while True:
        rows = store.page(after_ns, after_uid, PAGE)
        for body, ns, uid in rows:
            if uid in mark.recent:
                continue
            out.write(body.encode("utf-8", "surrogateescape") + b"\n")
            mark.recent[uid] = ns
            mark.ns = max(mark.ns, ns)
            printed += 1
        if rows:
            after_ns, after_uid = rows[-1][1], rows[-1][2]
        if len(rows) < PAGE:
            break
    out.flush()
    floor = mark.ns - lag_ns
    mark.recent = {uid: ns for uid, ns in mark.recent.items() if ns >= floor}
    return printed


def start_mark(args: argparse.Namespace) -> Mark:
    kept = Mark.load(args.state) if args.state else None
    if kept is not None and args.since is None:
        return kept
    since = parse_since(args.since or "24h")
    epoch = since.replace(tzinfo=None)
    from calendar import timegm

    return Mark(timegm(epoch.timetuple()) * 10**9 + epoch.microsecond * 1000)


def main(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        store = open_store(args.store)
        mark = start_mark(args)
        lag_ns = int(args.lag * 1e9)
        out = sys.stdout.buffer
        while True:
            poll(store, mark, lag_ns, out)
            if args.state:
                mark.save(args.state)
            if not args.follow:
                return 0
            time.sleep(args.every)
    except (UsageError, StoreError, QueryError) as exc:
        sys.stderr.write(f"hooktui pull: {safe_line(str(exc))}\n")
        return 2
    except BrokenPipeError:  # the reader went away (`| head`, watch closed)
        return 0
    except KeyboardInterrupt:
        return 130
