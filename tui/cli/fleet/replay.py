"""`hooktui replay STREAM… --cluster ADDRESS | --part K/N | --merge PART…`: fleet replay.

The same replay as `hooktui replay` (the per-record engine is replay.run's), over
many streams cut into byte ranges: on a Dask cluster (`--cluster tcp://host:8786`, or
`local[:N]` for one on this machine), or one part at a time on any other scheduler
(`--part K/N` writes that part's results; `--merge` makes the report of them all).
The report, its classes, `--format json` and the exit status are a local replay's.
"""

from __future__ import annotations

import argparse
import os
import sys

import msgspec
from hooktui.replay.environ import REPLAY_ENV
from hooktui.replay.merge import merge
from hooktui.replay.partrun import Job, PartOutput, replay_part
from hooktui.replay.parts import split
from hooktui.replay.policy import anchor_policy
from hooktui.replay.report import FAIL_ON, Report
from hooktui.replay.session import SessionError
from hooktui.tap.read.sanitize import safe_line
from hooktui.tui.cli.args import RaisingParser, UsageError, number
from hooktui.tui.cli.replay import _repeat, _seconds

FLAGS = ("--cluster", "--part", "--parts", "--merge", "--every-call")
MAX_PARTS = 100_000

USAGE = (
    "hooktui replay STREAM... --policy COMMAND (--cluster ADDRESS|local[:N] | --part K/N)\n"
    "                      [--parts N] [--hook NAME|all] [--filter EXPR] [--timeout S]\n"
    "                      [--repeat N] [--every-call] [--format text|json] [--fail-on ...]\n"
    "       hooktui replay --merge PART.json... [--format text|json] [--fail-on ...]"
)
DESCRIPTION = (
    "Replay many streams (paths, globs or fsspec URLs: s3://, gs://, file://) as one: "
    "cut into byte ranges (a record is never cut), each part replayed with the same "
    "per-record engine, merged into the report a local replay gives. A request seen "
    "before (same request, same policy: see --every-call) is run once and its answer "
    "judged for every record that made it."
)
EPILOG = (
    "--cluster tcp://HOST:8786 uses a running Dask scheduler (hooktui must be installed "
    "on its workers, and the policy's file readable there); local:N starts N worker "
    "processes here. --part K/N replays the K-th of N parts and writes it to standard "
    "output, for any scheduler (a Kubernetes Job array, a CI matrix); --merge reads those "
    "files and reports. A recorded hook that needs a file of the machine it was recorded "
    "on, missing where it runs, is skipped and said per record. Exit status as replay's: "
    "0 nothing changed (per --fail-on), 1 something did, 2 bad usage or bad streams."
)

_parts = number(
    int, "a whole number", lambda v: 1 <= v <= MAX_PARTS, f"must be 1 to {MAX_PARTS}: {{text!r}}"
)


def _part(text: str) -> tuple[int, int]:
    k, _, n = text.partition("/")
    try:
        pair = int(k), int(n)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not K/N (part K of N): {text!r}") from None
    if not 1 <= pair[0] <= pair[1] <= MAX_PARTS:
        raise argparse.ArgumentTypeError(f"K/N needs 1 <= K <= N <= {MAX_PARTS}: {text!r}")
    return pair


def wanted(argv: list[str]) -> bool:
    """Is this a fleet replay (one of its flags given)?"""
    return any(arg.split("=", 1)[0] in FLAGS for arg in argv)


def build_parser() -> argparse.ArgumentParser:
    p = RaisingParser(prog="hooktui replay", usage=USAGE, description=DESCRIPTION, epilog=EPILOG)
    p.add_argument("streams", nargs="*", metavar="STREAM")
    p.add_argument("--policy", metavar="COMMAND", help="hook command line, run through `sh -c`")
    p.add_argument("--cluster", metavar="ADDRESS", help="tcp://HOST:PORT, or local[:N]")
    p.add_argument("--parts", type=_parts, metavar="N", help="byte ranges to cut into")
    p.add_argument("--part", type=_part, metavar="K/N", help="replay part K of N only")
    p.add_argument("--merge", action="store_true", help="STREAMs are --part outputs: report")
    p.add_argument("--hook", metavar="NAME", help="the hook the policy replaces; all: every one")
    p.add_argument("--filter", metavar="EXPR", help="replay only the records matching EXPR")
    p.add_argument("--timeout", type=_seconds, metavar="S", help="seconds before a hook is killed")
    p.add_argument("--repeat", type=_repeat, default=1, metavar="N", help="run each N times")
    p.add_argument(
        "--every-call",
        action="store_true",
        help="run every record, even a request seen before (a guard that keeps state)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--fail-on", choices=FAIL_ON, default="changed", help="what makes the exit 1")
    return p


def check_usage(args: argparse.Namespace) -> None:
    modes = [m for m in ("cluster", "part", "merge") if getattr(args, m)]
    if len(modes) != 1:
        raise UsageError("give one of --cluster ADDRESS, --part K/N or --merge")
    if args.merge:
        if not args.streams:
            raise UsageError("--merge: name the part files (the outputs of --part K/N)")
        return
    if args.policy is not None and not args.policy.strip():
        raise UsageError("--policy: empty command (leave --policy out to run the recorded hooks)")
    if args.parts and not args.cluster:
        raise UsageError("--parts goes with --cluster (with --part K/N, N says it)")
    if args.hook is not None and not args.hook.strip():
        raise UsageError("--hook: empty name (use --hook all for every record)")
    if args.part and sys.stdout.isatty():
        raise UsageError("--part writes the part's results for --merge: redirect it to a file")


def make_job(args: argparse.Namespace) -> Job:
    policy = args.policy
    if policy is not None:  # hooks run in each record's recorded cwd: pin relative paths
        policy = anchor_policy(policy, os.getcwd())
    return Job(
        policy=policy,
        timeout_s=args.timeout,
        repeat=args.repeat,
        filter=args.filter,
        every_call=args.every_call,
    )


_part_decoder = msgspec.json.Decoder(PartOutput)


def read_parts(paths: list[str]) -> list[PartOutput]:
    out = []
    for path in paths:
        try:
            with open(path, "rb") as f:
                out.append(_part_decoder.decode(f.read()))
        except OSError as exc:
            raise SessionError(f"cannot read {path}: {exc.strerror or exc}") from None
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise SessionError(f"{path} is not the output of --part K/N ({exc})") from None
    return out


def run_part(args: argparse.Namespace) -> int:
    from hooktui.tui.cli.fleet.streams import expand, open_stream

    k, n = args.part
    streams = expand(args.streams)
    part = split(streams, n)[k - 1]
    output = replay_part(part, make_job(args), open_stream, streams, args.hook)
    sys.stdout.buffer.write(msgspec.json.encode(output) + b"\n")
    sys.stdout.flush()
    return 0


def show(report: Report, args: argparse.Namespace) -> int:
    if report.total == 0:
        hint = " (is --hook needed? with --part, the hook is the one named like the policy)"
        raise SessionError(
            f"no records replayed in {report.session}{hint if report.left_out else ''}"
        )
    from hooktui.tui.cli.fleet.report import print_report

    print_report(report, args.format)
    return report.exit_status(args.fail_on)


def main(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        check_usage(args)
        os.environ[REPLAY_ENV] = "1"  # as replay's main: hooks can take this environment
        if args.merge:
            return show(merge(read_parts(args.streams)), args)
        if args.part:
            return run_part(args)
        from hooktui.tui.cli.fleet.cluster import run_on_cluster

        report = run_on_cluster(args, make_job(args))
        report.session = ", ".join(args.streams)
        return show(report, args)
    except (UsageError, SessionError) as exc:
        sys.stderr.write(f"hooktui replay: {safe_line(str(exc))}\n")
        return 2
    except KeyboardInterrupt:
        return 130
