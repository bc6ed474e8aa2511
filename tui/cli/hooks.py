"""`hooktui hooks`: every hook every runtime here has configured, and whether it fires.

For each runtime with a hook source on this machine (`--all`: every runtime and
every source, missing ones too), the files it reads hooks from in its own order,
what it makes of each (read, partly ignored, rejected, with the reason), and each
hook as it will apply it: event, matcher, handler type, timeout, what a failure
does, whether the tap wraps it; joined with the streams: calls, last fired, deny
and fail-open rates, p95, "never fired since install", "quiet since DATE".
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import msgspec
from hooktui.tap.inventory.listing import SORTS, installed_only, sort_key
from hooktui.tap.inventory.model import Inventory
from hooktui.tap.inventory.read import inventory
from hooktui.tap.inventory.usage import join, uses
from hooktui.tap.read.sanitize import inert_json, safe_line
from hooktui.tap.runtimes import RUNTIMES, suggest
from hooktui.tui.cli.args import RaisingParser, UsageError

PROG = "hooktui hooks"


def build_parser() -> RaisingParser:
    p = RaisingParser(
        prog=PROG,
        description="Every configured hook of every runtime here, in each runtime's order, "
        "as it will apply them, and how often each one fired.",
        epilog="A hook hooktui has not wrapped (`hooktui install`) is listed, but its calls "
        "are not seen. Exit status: 0, or 1 with --check when a runtime would reject or "
        "partly ignore a settings file.",
    )
    p.add_argument(
        "--runtime",
        action="append",
        default=[],
        metavar="NAME",
        help=f"only this runtime (repeatable): {', '.join(RUNTIMES)}",
    )
    p.add_argument("--project", metavar="DIR", help="the project folder (default: here)")
    p.add_argument(
        "--stream",
        action="append",
        default=[],
        metavar="PATH",
        help="streams to count calls in (repeatable; default: the default stream)",
    )
    p.add_argument("--all", action="store_true", help="every runtime and source, missing ones too")
    p.add_argument("--sort", choices=SORTS, default="order", help="order of the hooks")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a runtime rejects or ignores part of a file",
    )
    return p


def _runtimes(names: list[str]) -> list[str]:
    out = []
    for name in names:
        if name in RUNTIMES:
            out.append(name)
            continue
        guess = suggest(name)
        hint = f" (did you mean {guess}?)" if guess else ""
        raise UsageError(f"unknown runtime {name!r}{hint}")
    return out or list(RUNTIMES)


def _streams(paths: list[str]) -> list[str]:
    if paths:
        return paths
    from hooktui.tap.base.stream import default_stream_path

    return [default_stream_path()]


def build(args: argparse.Namespace, environ=None) -> Inventory:
    project = Path(args.project).resolve() if args.project else Path.cwd()
    if args.project and not project.is_dir():
        raise UsageError(f"--project: no such folder: {args.project}")
    inv = inventory(_runtimes(args.runtime), project=project, environ=environ)
    join(inv.hooks, uses(_streams(args.stream)))
    if not args.all:
        installed_only(inv, explicit=bool(args.runtime))
    return inv


def problems_found(inv: Inventory) -> bool:
    return any(f.state in ("rejected", "partial", "fatal") for f in inv.files)


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
        inv = build(args)
    except UsageError as exc:
        sys.stderr.write(f"{PROG}: {safe_line(str(exc))}\n")
        return 2
    inv.hooks.sort(key=sort_key(args.sort))
    if args.format == "json":
        sys.stdout.buffer.write(inert_json(msgspec.json.encode(inv)) + b"\n")
    else:
        from hooktui.tui.cli.hooks_text import render

        render(inv, home=os.environ.get("HOME", ""))
    sys.stdout.flush()
    return 1 if args.check and problems_found(inv) else 0
