"""`hooktui export --otlp-json [STREAM...]`: records as OpenTelemetry logs (OTLP/JSON).

One ExportLogsServiceRequest per line, up to --batch records each: the form of the
Collector's OTLP JSON file exporter and `otlpjsonfile` receiver, and the body an OTLP/HTTP
endpoint takes (`curl -H 'Content-Type: application/json' --data-binary @-`). The
mapping is otel.py's. This is an offline export of files: the tap itself never sends
anything over the network (it keeps writing its stream; a collector ships it).
"""

from __future__ import annotations

import argparse
import sys

import msgspec
from hooktui.tap.model import record_decoder
from hooktui.tap.read.sanitize import safe_line
from hooktui.tap.version import __version__
from hooktui.tui.cli.args import RaisingParser, UsageError, number
from hooktui.tui.cli.fleet.otel import export_request, log_record

_batch = number(
    int, "a whole number", lambda v: 1 <= v <= 1_000_000, "must be 1 to 1000000: {text!r}"
)


def build_parser() -> argparse.ArgumentParser:
    p = RaisingParser(
        prog="hooktui export",
        description="Write recorded calls as OpenTelemetry log records (docs/teams.md).",
    )
    p.add_argument("streams", nargs="*", metavar="STREAM", help="default: the default stream")
    to = p.add_mutually_exclusive_group(required=True)
    to.add_argument("--otlp-json", action="store_true", help="OTLP/JSON, one request a line")
    to.add_argument(
        "--duckdb", metavar="FILE", help="append to FILE's otel_logs (a store for pull)"
    )
    p.add_argument("--batch", type=_batch, default=1000, metavar="N", help="records per request")
    return p


def lines_of(paths: list[str]):
    """(path, line) for every complete line of the streams, newline dropped."""
    from hooktui.tui.cli.fleet.streams import expand, open_stream

    for path, _ in expand(paths):
        with open_stream(path) as f:
            for line in f:
                if line.endswith(b"\n"):
                    yield path, line[:-1]


def mapped(line: bytes) -> dict | None:
    """The LogRecord of a line, or None for a line that is not a record."""
    try:
        record_decoder.decode(line)  # a record by the contract, not just any JSON
        text = line.decode("utf-8")
        return log_record(text, msgspec.json.decode(line))
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, ValueError):
        return None
    except RecursionError:
        return None


def to_duckdb(args: argparse.Namespace) -> int:
    from hooktui.tui.cli.fleet.store_duckdb import append

    records, bad = [], 0
    for _, line in lines_of(args.streams):
        if line.strip():
            item = mapped(line)
            if item is None:
                bad += 1
            else:
                records.append(item)
    held = append(args.duckdb, records)
    sys.stderr.write(f"hooktui export: {args.duckdb} holds {held} records\n")
    if bad:
        sys.stderr.write(f"hooktui export: {bad} lines that are not records left out\n")
    return 0


def main(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        if not args.streams:
            from hooktui.tap.base.stream import default_stream_path

            args.streams = [default_stream_path()]
        if args.duckdb:
            return to_duckdb(args)
        out = sys.stdout.buffer
        batch: list[dict] = []
        bad = 0
        for _, line in lines_of(args.streams):
            if not line.strip():
                continue
            item = mapped(line)
            if item is None:
                bad += 1
                continue
            batch.append(item)
            if len(batch) >= args.batch:
                out.write(msgspec.json.encode(export_request(batch, __version__)) + b"\n")
                batch = []
        if batch:
            out.write(msgspec.json.encode(export_request(batch, __version__)) + b"\n")
        out.flush()
        if bad:
            sys.stderr.write(f"hooktui export: {bad} lines that are not records left out\n")
        return 0
    except UsageError as exc:
        sys.stderr.write(f"hooktui export: {safe_line(str(exc))}\n")
        return 2
    except BrokenPipeError:
        return 0
