"""`hooktui try`: would my hooks fire for this call, in which order, with which timeout,
and what would they decide together? A dry run from a hand-written request.

The request is a JSON file (the runtime's own shape, as a hook gets it), or
`--tool NAME --input JSON`, filled in to the runtime's full request. The configured
hooks that would run (`hooktui hooks`) are listed in the runtime's order with their
timeouts; without `--plan` each command hook runs through the tap, and each answer,
the combined outcome and the runtime's reading are shown.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import msgspec
from hooktui.tap.inventory.read import inventory
from hooktui.tap.inventory.trial import Trial, TrialError, prepare, run
from hooktui.tap.read.sanitize import inert_json, safe_line
from hooktui.tap.runtimes import RUNTIMES, detect, suggest
from hooktui.tui.cli.args import RaisingParser, UsageError

PROG = "hooktui try"


def build_parser() -> RaisingParser:
    p = RaisingParser(
        prog=PROG,
        description="Run a hand-written request against the hooks a runtime has configured "
        "here: which would fire, in which order, with which timeout, what each answers and "
        "what the runtime makes of them together.",
        epilog="Hooks run in the project folder with HOOKTUI_TRY=1, each killed at the timeout "
        "the runtime gives it. Their records go to a scratch stream unless --stream names one. "
        "Exit status: 0; 1 when --expect is given and the outcome differs; 2 bad usage.",
    )
    p.add_argument(
        "request", nargs="?", metavar="REQUEST.json", help="the request, as a hook gets it"
    )
    p.add_argument("--tool", metavar="NAME", help="the tool called (with --input)")
    p.add_argument("--input", metavar="JSON", help="the tool's input, a JSON object")
    p.add_argument("--runtime", metavar="NAME", help=f"whose hooks ({', '.join(RUNTIMES)})")
    p.add_argument(
        "--event", metavar="NAME", help="the runtime's event (default: before a tool runs)"
    )
    p.add_argument("--project", metavar="DIR", help="the project folder (default: here)")
    p.add_argument("--plan", action="store_true", help="only list the hooks that would run")
    p.add_argument("--stream", metavar="PATH", help="keep the records in this stream")
    p.add_argument("--expect", metavar="DECISION", help="exit 1 unless the outcome is this")
    p.add_argument("--format", choices=("text", "json"), default="text")
    return p


def _request(args: argparse.Namespace):
    if args.request is None:
        if args.tool is None:
            raise UsageError("give a REQUEST.json, or --tool NAME (and --input JSON)")
        return None
    if args.tool or args.input:
        raise UsageError("give a REQUEST.json or --tool/--input, not both")
    try:
        text = sys.stdin.read() if args.request == "-" else Path(args.request).read_text()
    except OSError as exc:
        raise UsageError(f"cannot read {args.request}: {exc.strerror or exc}") from None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{args.request}: not JSON ({exc})") from None


def _tool_input(args: argparse.Namespace):
    if args.input is None:
        return {}
    try:
        value = json.loads(args.input)
    except ValueError as exc:
        raise UsageError(f"--input: not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise UsageError("--input: a JSON object, please (the tool's arguments)")
    return value


def _runtime(args: argparse.Namespace, request, project: Path) -> str:
    if args.runtime:
        if args.runtime in RUNTIMES:
            return args.runtime
        guess = suggest(args.runtime)
        hint = f" (did you mean {guess}?)" if guess else ""
        raise UsageError(f"unknown runtime {args.runtime!r}{hint}")
    if request is not None:
        found = detect(request)
        if found.name != "unknown":
            return found.name
        raise UsageError("cannot tell whose request this is: name the runtime with --runtime")
    hooks = [h for h in inventory(project=project).hooks if not h.ignored]
    own = {h.runtime for h in hooks if h.scope != "guest"}  # not a file it reads as a guest
    here = {h.runtime for h in hooks}
    for found in (own, here):
        if len(found) == 1:
            return found.pop()
    names = ", ".join(sorted(here)) or "none has hooks here"
    raise UsageError(f"name the runtime with --runtime ({names})")


def _hooktui() -> str:
    from hooktui.tap.install.settings import hooktui_path

    return hooktui_path()


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
        project = Path(args.project).resolve() if args.project else Path.cwd()
        if not project.is_dir():
            raise UsageError(f"--project: no such folder: {args.project}")
        request = _request(args)
        runtime = _runtime(args, request, project)
        trial = prepare(
            runtime,
            project=project,
            environ=os.environ,
            native_event=args.event or "",
            tool=args.tool or "",
            tool_input=_tool_input(args),
            request=request,
        )
    except (UsageError, TrialError) as exc:
        sys.stderr.write(f"{PROG}: {safe_line(str(exc))}\n")
        return 2
    if not args.plan:
        trial = _run(trial, args, project)
    _print(trial, args)
    outcome = trial.call.decision if trial.call is not None else "allow"
    return 1 if args.expect and not args.plan and outcome != args.expect else 0


def _run(trial: Trial, args: argparse.Namespace, project: Path) -> Trial:
    if args.stream:
        return run(
            trial, hooktui=_hooktui(), stream=args.stream, project=project, environ=os.environ
        )
    with tempfile.TemporaryDirectory(prefix="hooktui-try-") as scratch:
        stream = os.path.join(scratch, "try.jsonl")
        trial = run(trial, hooktui=_hooktui(), stream=stream, project=project, environ=os.environ)
        trial.stream = ""
        return trial


def _print(trial: Trial, args: argparse.Namespace) -> None:
    if args.format == "json":
        sys.stdout.buffer.write(inert_json(msgspec.json.encode(trial)) + b"\n")
    else:
        from hooktui.tui.cli.try_text import render

        render(trial, planned_only=args.plan, home=os.environ.get("HOME", ""))
    sys.stdout.flush()
