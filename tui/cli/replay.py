"""`hooktui replay`: re-run a recorded session against an edited policy."""

from __future__ import annotations

import argparse
import os
import sys
import time

from hooktui.replay.policy import REPLAY_ENV
from hooktui.replay.report import FAIL_ON, Report, to_json
from hooktui.replay.run import Options, replay
from hooktui.replay.session import Entry, Session, SessionError, load_session, select
from hooktui.tap.hotpath.runner import kill_running
from hooktui.tui.cli.args import RaisingParser, UsageError, number

FORMATS = ("tui", "text", "json")


_positive_int = number(int, "a whole number", lambda v: v >= 1, "must be at least 1: {text!r}")
_seconds = number(float, "a number of seconds", lambda v: v > 0, "must be more than 0: {text!r}")


def build_parser() -> argparse.ArgumentParser:
    p = RaisingParser(
        prog="hooktui replay",
        description=(
            "Re-run the requests of a recorded session against a hook (the edited policy, "
            "or each record's own hook) and show which decisions change. Only hooks run, "
            "never tools; each runs in the recorded cwd with HOOKTUI_REPLAY=1."
        ),
        epilog=(
            "Exit status: 0 nothing changed (per --fail-on), 1 something did, 2 bad usage "
            "or a bad session. Relative paths in --policy are taken from the current folder."
        ),
    )
    p.add_argument("session", metavar="SESSION.jsonl", help="a stream written by `hooktui tap`")
    p.add_argument(
        "--policy",
        metavar="COMMAND",
        help="hook command line, run through `sh -c` (default: each record's recorded hook)",
    )
    p.add_argument("--filter", metavar="EXPR", help="replay only the records matching EXPR")
    p.add_argument(
        "--jobs",
        type=_positive_int,
        default=0,
        metavar="N",
        help="concurrent hooks (default: CPUs)",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        metavar="S",
        help="seconds before a hook's process group is killed "
        "(default: the recorded hook timeout, else 10)",
    )
    p.add_argument(
        "--format", choices=FORMATS, help="default: tui when stdout is a terminal, else text"
    )
    p.add_argument(
        "--watch",
        nargs="?",
        const="",
        default=None,
        metavar="PATH",
        help="re-run whenever the policy file (or PATH) changes",
    )
    p.add_argument("--fail-on", choices=FAIL_ON, default="changed", help="what makes the exit 1")
    p.add_argument(
        "--repeat", type=_positive_int, default=1, metavar="N", help="run each record N times"
    )
    return p


class Job:
    """Everything one replay run needs, re-runnable for --watch."""

    def __init__(self, session: Session, entries: list[Entry], options: Options) -> None:
        self.session = session
        self.entries = entries
        self.options = options

    def run(self, **kwargs) -> Report:
        return replay(
            self.entries,
            self.options,
            session=self.session.path,
            bad_lines=self.session.bad_lines,
            **kwargs,
        )


def prepare(args: argparse.Namespace) -> Job:
    """Load and select; raises SessionError for a session that cannot be replayed."""
    from hooktui.replay.policy import anchor_policy, skip_reason

    if args.policy is not None:
        # Hooks run in each record's recorded cwd: pin the user's relative paths here.
        args.policy = anchor_policy(args.policy, os.getcwd())
    session = load_session(args.session)
    entries = select(session, args.filter)
    if not entries:
        raise SessionError(
            f"--filter {args.filter!r} matches none of the {len(session.entries)} records"
        )
    if all(skip_reason(e.record, args.policy) for e in entries):
        first = skip_reason(entries[0].record, args.policy)
        raise SessionError(
            f"no replayable records in {args.session} ({len(entries)} skipped; first: {first})"
        )
    options = Options(
        policy=args.policy, timeout_s=args.timeout, jobs=args.jobs, repeat=args.repeat
    )
    return Job(session, entries, options)


def watch_targets(args: argparse.Namespace, job: Job) -> list[str]:
    from hooktui.replay.policy import watch_paths

    if args.watch:
        if not os.path.exists(args.watch):
            raise UsageError(f"--watch: no such file or directory: {args.watch}")
        return [os.path.abspath(args.watch)]
    paths = watch_paths(args.policy, [e.record for e in job.entries])
    if not paths:
        raise UsageError("--watch: no file to watch in the policy command (name one: --watch PATH)")
    return paths


def _print_json(report: Report) -> None:
    sys.stdout.buffer.write(to_json(report) + b"\n")
    sys.stdout.flush()


def _run_text(args: argparse.Namespace, job: Job) -> int:
    from hooktui.tui.cli.replay_text import render_report
    from rich.console import Console

    console = Console(highlight=False)
    console.soft_wrap = not console.is_terminal  # piped: whole lines, for grep and logs
    if args.watch is None:
        report = job.run()
        if args.format == "json":
            _print_json(report)
        else:
            render_report(console, report)
        return report.exit_status(args.fail_on)

    from hooktui.tui.cli.replay_watch import snapshot, wait_for_change

    targets = watch_targets(args, job)
    report = None
    try:
        generation = 0
        while True:
            generation += 1
            since = snapshot(targets)  # before the run: an edit during it re-runs at once
            report = job.run()
            if args.format == "json":
                _print_json(report)
            else:
                if console.is_terminal:
                    console.clear()
                stamp = time.strftime("%H:%M:%S")
                console.print(
                    f"── replay #{generation} at {stamp}, watching {', '.join(targets)} ──",
                    style="bold",
                )
                render_report(console, report)
                sys.stdout.flush()
            wait_for_change(targets, since)
    except KeyboardInterrupt:
        kill_running()
        if report is None:  # stopped before a single complete report
            return 130
    return report.exit_status(args.fail_on)


def main(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        fmt = args.format or ("tui" if sys.stdout.isatty() else "text")
        args.format = fmt
        job = prepare(args)
        # This process only replays: with the marker in its own environment, hooks
        # that need nothing else can be spawned with it as it is (see replay.run).
        os.environ[REPLAY_ENV] = "1"
        if fmt == "tui":
            from hooktui.tui.app.replay import run_app

            targets = watch_targets(args, job) if args.watch is not None else []
            report = run_app(job, watch=targets)
            return report.exit_status(args.fail_on)
        return _run_text(args, job)
    except (UsageError, SessionError) as exc:
        sys.stderr.write(f"hooktui replay: {exc}\n")
        return 2
    except KeyboardInterrupt:
        kill_running()
        return 130
