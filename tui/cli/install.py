"""`hooktui install` and `hooktui uninstall`: the command line over hooktui.tap.install.settings."""

from __future__ import annotations

import argparse
import os
import sys

from hooktui.tap.install import settings as inst
from hooktui.tui.cli.args import OneLineParser


def _parser(name: str, install: bool) -> argparse.ArgumentParser:
    verb = "wrap every command hook of" if install else "restore"
    p = OneLineParser(
        prog=f"hooktui {name}",
        description=f"{verb.capitalize()} a runtime's hook settings"
        + (" in the hooktui tap." if install else " as they were before `hooktui install`."),
    )
    p.add_argument("runtime", choices=inst.RUNTIMES, help="which runtime's settings")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--settings", metavar="PATH", help="this settings file instead")
    where.add_argument(
        "--user", action="store_true", help="the user-wide settings (~/.claude, ~/.codex, ...)"
    )
    if install:
        p.add_argument(
            "--stream",
            metavar="PATH",
            help="stream the wrapped hooks write to, made absolute (default: the tap's own: "
            "$HOOKTUI_STREAM, else ~/.local/state/hooktui/stream.jsonl)",
        )
        p.add_argument(
            "--label-from",
            choices=("matcher", "command"),
            default="matcher",
            help="label hooks by event:matcher (default) or by the command's name",
        )
    p.add_argument(
        "--dry-run", action="store_true", help="print the change as a diff, write nothing"
    )
    return p


def _run(argv: list[str], install: bool) -> int:
    name = "install" if install else "uninstall"
    try:
        args = _parser(name, install).parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        path = inst.find_settings(args.runtime, settings=args.settings, user=args.user)
        if install:
            opts = inst.Options(
                runtime=args.runtime,
                hooktui=inst.hooktui_path(),
                # Hooks run in the runtime's cwd: a relative path would move.
                stream=os.path.abspath(os.path.expanduser(args.stream)) if args.stream else None,
                label_from=args.label_from,
            )
            report = inst.install(path, opts, dry_run=args.dry_run)
        else:
            report = inst.uninstall(path, args.runtime, dry_run=args.dry_run)
    except inst.InstallError as exc:
        sys.stderr.write(f"hooktui {name}: {exc}\n")
        return exc.code
    except OSError as exc:
        sys.stderr.write(f"hooktui {name}: {exc.filename or ''}: {exc.strerror or exc}\n")
        return 1
    if report.diff:
        sys.stdout.write(report.diff)
    out = sys.stdout if report.code == 0 else sys.stderr
    for line in report.messages:
        out.write(f"{line}\n")
    return report.code


def install_main(argv: list[str]) -> int:
    return _run(argv, install=True)


def uninstall_main(argv: list[str]) -> int:
    return _run(argv, install=False)
