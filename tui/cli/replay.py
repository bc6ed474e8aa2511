"""`hooktui replay`: re-run a recorded session against an edited policy."""

from __future__ import annotations

import argparse
import os
import sys
import time

from hooktui.replay.environ import REPLAY_ENV, all_runtime_env_names
from hooktui.replay.hooks import ALL, select_hook
from hooktui.replay.policy import MAX_TIMEOUT_S
from hooktui.replay.procs import kill_running
from hooktui.replay.report import FAIL_ON, Report, to_json
from hooktui.replay.run import Options, replay
from hooktui.replay.session import (
    STDIN,
    Session,
    SessionError,
    SessionRecord,
    by_id,
    load_session,
    plural,
    select,
)
from hooktui.tap.read.sanitize import inert_json, safe_line
from hooktui.tui.cli.args import RaisingParser, UsageError, number

FORMATS = ("tui", "text", "json")
MAX_JOBS = 256
MAX_REPEAT = 10_000

_jobs = number(
    int, "a whole number", lambda v: 1 <= v <= MAX_JOBS, f"must be 1 to {MAX_JOBS}: {{text!r}}"
)
_repeat = number(
    int, "a whole number", lambda v: 1 <= v <= MAX_REPEAT, f"must be 1 to {MAX_REPEAT}: {{text!r}}"
)
_seconds = number(
    float,
    "a number of seconds",
    lambda v: 0 < v <= MAX_TIMEOUT_S,  # NaN fails both tests
    f"must be more than 0 and at most {MAX_TIMEOUT_S:.0f} seconds (a day): {{text!r}}",
)

USAGE = (
    "hooktui replay [SESSION | -] [--policy COMMAND] [--hook NAME|all] [--filter EXPR]\n"
    "                      [--id ID [--edit] [--print-command]] [--jobs N] [--timeout S]\n"
    "                      [--format tui|text|json] [--watch[=PATH]]\n"
    "                      [--fail-on changed|decision|loosened|none] [--repeat N]"
)
DESCRIPTION = (
    "Re-run the requests of a recorded session against a hook (the edited policy, or each "
    "record's own hook) and show which decisions, and which effects under the same "
    "decision (new input, context, messages), change. Only hooks run, never tools; each "
    "runs in the recorded cwd with HOOKTUI_REPLAY=1. The baseline is today's reading of each "
    "recorded answer, so a newer hooktui's rules never show as a policy change (records "
    "whose reading changed are listed apart)."
)


def _epilog() -> str:
    names = ", ".join(all_runtime_env_names())
    return (
        "A session may come from someone else, so only the runtime's own hook variables are "
        f"taken from it ({names}); PATH, LD_*, PYTHON* and every other name it holds are "
        "ignored, and variables naming a file hooks write to (*_ENV_FILE) point at a scratch "
        "file. Without --policy, the hook commands written in the session run: do that only "
        "with sessions you trust. Whatever a hook leaves running is killed when it ends. "
        "With --policy, only the records of the hook it replaces are replayed (see --hook). "
        "Relative paths in --policy are taken from the current folder. "
        "Exit status: 0 nothing changed (per --fail-on), 1 something did, 2 bad usage or a "
        "bad session. --fail-on changed (the default): a decision or an effect changed, a "
        "failure differs or a hook is flaky; decision: the same but an effect alone; "
        "loosened: a call stopped before goes ahead now; outcome: a tool call's outcome, all "
        "its hooks together by the runtime's rule, changed; none: never. A folder of request "
        "files with an `expect` each is a session too (see docs/toolcalls.md)."
    )


def build_parser() -> argparse.ArgumentParser:
    p = RaisingParser(prog="hooktui replay", usage=USAGE, description=DESCRIPTION, epilog=_epilog())
    p.add_argument(
        "session",
        nargs="?",
        metavar="SESSION",
        help="a stream written by `hooktui tap`, or - for standard input "
        "(default: $HOOKTUI_STREAM, else the XDG state path, as watch and show)",
    )
    p.add_argument(
        "--policy",
        metavar="COMMAND",
        help="hook command line, run through `sh -c` (default: each record's recorded hook)",
    )
    p.add_argument(
        "--hook",
        metavar="NAME",
        help="replay the records of the hook named NAME (its label or script); `all`: every "
        "record. Default with --policy: the hook the policy replaces (same script name)",
    )
    p.add_argument("--filter", metavar="EXPR", help="replay only the records matching EXPR")
    p.add_argument(
        "--id",
        metavar="ID",
        help="replay the one record with this id (or a unique prefix of it or of its random part)",
    )
    p.add_argument(
        "--edit",
        action="store_true",
        help="with --id: edit the request in $VISUAL/$EDITOR first, then run it",
    )
    p.add_argument(
        "--print-command",
        action="store_true",
        help="with --id: print a shell command that re-runs that call, instead of running it",
    )
    p.add_argument(
        "--jobs", type=_jobs, default=0, metavar="N", help="concurrent hooks (default: CPUs)"
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        metavar="S",
        help="seconds before a hook's process group is killed "
        "(default: the recorded hook timeout, else 10)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="default: tui when stdin and stdout are terminals, else text",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="--watch or --watch=PATH: re-run whenever the policy file (or PATH) changes",
    )
    p.add_argument("--watch-path", action="append", default=[], help=argparse.SUPPRESS)
    p.add_argument("--fail-on", choices=FAIL_ON, default="changed", help="what makes the exit 1")
    p.add_argument("--repeat", type=_repeat, default=1, metavar="N", help="run each record N times")
    return p


def split_watch(argv: list[str]) -> list[str]:
    """`--watch=PATH` as `--watch --watch-path PATH`: PATH only ever comes attached, so
    `--watch SESSION` leaves SESSION where it belongs."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            return out + argv[i:]
        if arg.startswith("--watch="):
            out += ["--watch", "--watch-path", arg.removeprefix("--watch=")]
        else:
            out.append(arg)
    return out


def parse_args(argv: list[str]) -> argparse.Namespace:
    args = build_parser().parse_args(split_watch(argv))
    args.format = args.format or default_format(args)
    check_usage(args)
    return args


def _terminal() -> bool:
    return sys.stdout.isatty() and sys.stdin.isatty()


def default_format(args: argparse.Namespace) -> str:
    """The dashboard on a terminal (as `watch`), text anywhere else and for one call."""
    return "tui" if _terminal() and args.id is None else "text"


def check_usage(args: argparse.Namespace) -> None:
    """What argparse cannot say alone; raises UsageError."""
    if args.policy is not None and not args.policy.strip():
        raise UsageError("--policy: empty command (leave --policy out to run the recorded hooks)")
    if any(not p for p in args.watch_path):
        raise UsageError("--watch=PATH: empty path")
    if (args.edit or args.print_command) and args.id is None:
        flag = "--edit" if args.edit else "--print-command"
        raise UsageError(f"{flag} needs --id ID (the record to reproduce)")
    if args.id is not None and (args.watch or args.format == "tui"):
        raise UsageError("--id shows one call as text or json (not with --watch or --format tui)")
    if args.hook is not None and not args.hook.strip():
        raise UsageError(f"--hook: empty name (use --hook {ALL} for every record)")
    if args.format == "tui" and not _terminal():
        raise UsageError(
            "--format tui needs a terminal on stdin and stdout (use --format text or json)"
        )


class Job:
    """Everything one replay run needs, re-runnable for --watch."""

    def __init__(
        self,
        session: Session,
        records: list[SessionRecord],
        options: Options,
        *,
        left_out: dict[str, int] | None = None,
        left_out_hint: str = "",
    ) -> None:
        self.session = session
        self.records = records
        self.options = options
        self.left_out = left_out or {}
        self.left_out_hint = left_out_hint

    def run(self, **kwargs) -> Report:
        report = replay(
            self.records,
            self.options,
            session=self.session.path,
            bad_lines=self.session.bad_lines,
            **kwargs,
        )
        report.bad_line_errors = list(self.session.bad_line_errors)
        report.left_out = dict(self.left_out)
        report.left_out_hint = self.left_out_hint
        report.calls = calls_of(self.session, report)
        return report


def calls_of(session: Session, report: Report) -> list:
    """The tool calls whose outcome (all their hooks together) the replay changes."""
    from hooktui.replay.calls import call_changes

    done = [r for r in report.results if r.after is not None]
    before = {r.record.id: r.before for r in done}
    after = {r.record.id: r.after for r in done}
    return call_changes((e.record for e in session.records), before, after)


def session_path(args: argparse.Namespace) -> str:
    if args.session is not None:
        return args.session
    from hooktui.tap.base.stream import default_stream_path

    path = default_stream_path()
    if not os.path.exists(path):
        raise SessionError(
            f"no session given and no stream at {path} yet "
            "(record one with `hooktui install`, or name a session file)"
        )
    return path


def prepare(args: argparse.Namespace) -> Job:
    """Load and select; raises SessionError for a session that cannot be replayed."""
    from hooktui.replay.policy import anchor_policy, skip_reason

    if args.policy is not None:
        # Hooks run in each record's recorded cwd: pin the user's relative paths here.
        args.policy = anchor_policy(args.policy, os.getcwd())
    args.session = session_path(args)
    session = load_session(args.session)
    options = Options(
        policy=args.policy, timeout_s=args.timeout, jobs=args.jobs, repeat=args.repeat
    )
    if args.id is not None:
        return Job(session, [by_id(select(session, args.filter), args.id)], options)
    records = select(session, args.filter)
    if not records:
        raise SessionError(
            f"--filter {args.filter!r} matches none of the {plural(len(session.records), 'record')}"
        )
    chosen = select_hook(records, args.policy, args.hook)
    records = chosen.records
    if all(skip_reason(e.record, args.policy) for e in records):
        first = skip_reason(records[0].record, args.policy)
        name = "standard input" if args.session == STDIN else args.session
        raise SessionError(
            f"no replayable records in {name} ({len(records)} skipped; first: {first})"
        )
    return Job(session, records, options, left_out=chosen.left_out, left_out_hint=chosen.hint)


def watch_targets(args: argparse.Namespace, job: Job) -> list[str]:
    from hooktui.replay.policy import watch_paths

    if args.watch_path:
        for path in args.watch_path:
            if not os.path.exists(path):
                raise UsageError(f"--watch: no such file or directory: {path}")
        return [os.path.abspath(p) for p in args.watch_path]
    paths = watch_paths(args.policy, [e.record for e in job.records])
    if not paths:
        raise UsageError("--watch: no file to watch in the policy command (name one: --watch=PATH)")
    return paths


def _print_json(report: Report) -> None:
    sys.stdout.buffer.write(inert_json(to_json(report)) + b"\n")
    sys.stdout.flush()


def _run_with_progress(job: Job) -> Report:
    from hooktui.tui.cli.replay_progress import Progress

    progress = Progress(len(job.records))
    try:
        return job.run(on_result=progress)
    finally:
        progress.clear()


def _show(report: Report, fmt: str, console) -> None:
    from hooktui.tui.present.replay_text import render_report

    if fmt == "json":
        _print_json(report)
    else:
        render_report(console, report)
        sys.stdout.flush()


def make_console():
    from rich.console import Console

    console = Console(highlight=False)
    console.soft_wrap = not console.is_terminal  # piped: whole lines, for grep and logs
    return console


def _run_text(args: argparse.Namespace, job: Job) -> int:
    console = make_console()
    if not args.watch:
        report = _run_with_progress(job)
        _show(report, args.format, console)
        return report.exit_status(args.fail_on)

    from hooktui.replay.watch import snapshot, wait_for_change
    from rich.text import Text

    targets = watch_targets(args, job)
    report = None
    try:
        generation = 0
        while True:
            generation += 1
            since = snapshot(targets)  # before the run: an edit during it re-runs at once
            if args.format != "json":
                if console.is_terminal:
                    console.clear()
                stamp = time.strftime("%H:%M:%S")
                watching = safe_line(", ".join(targets))  # a path is text, never markup
                console.print(
                    Text(f"── replay #{generation} at {stamp}, watching {watching} ──"),
                    style="bold",
                )
            report = _run_with_progress(job)
            _show(report, args.format, console)
            wait_for_change(targets, since)
    except KeyboardInterrupt:
        kill_running()
        if report is None:  # stopped before a single complete report
            return 130
    return report.exit_status(args.fail_on)


def main(argv: list[str]) -> int:
    from hooktui.tui.cli.fleet.replay import wanted

    if wanted(argv):  # --cluster, --part K/N, --merge: many streams, one report
        from hooktui.tui.cli.fleet.replay import main as fleet_main

        return fleet_main(argv)
    try:
        args = parse_args(argv)
        job = prepare(args)
        # This process only replays: with the marker in its own environment, hooks
        # that need nothing else can be spawned with it as it is (see replay.run).
        os.environ[REPLAY_ENV] = "1"
        if args.id is not None:
            from hooktui.tui.cli.replay_one import run_one

            return run_one(args, job)
        if args.format == "tui":
            from hooktui.tui.cli.launch import run_replay_app

            targets = watch_targets(args, job) if args.watch else []
            report, crashed = run_replay_app(job, watch=targets)
            return crashed or report.exit_status(args.fail_on)
        return _run_text(args, job)
    except (UsageError, SessionError) as exc:
        sys.stderr.write(f"hooktui replay: {safe_line(str(exc))}\n")
        return 2
    except KeyboardInterrupt:
        kill_running()
        return 130
