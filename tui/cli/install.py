"""`hooktui install` and `hooktui uninstall`: the command line over hooktui.tap.install.settings."""

from __future__ import annotations

import argparse
import os
import sys

from hooktui.tap.install import settings as inst
from hooktui.tap.runtimes import get_adapter, installable
from hooktui.tui.cli.args import OneLineParser


def _parser(name: str, install: bool) -> argparse.ArgumentParser:
    verb = "wrap every command hook of" if install else "restore"
    p = OneLineParser(
        prog=f"hooktui {name}",
        description=f"{verb.capitalize()} a runtime's hook settings"
        + (" in the hooktui tap." if install else " as they were before `hooktui install`."),
    )
    p.add_argument("runtime", help=f"which runtime's settings: {', '.join(installable())}")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--settings", metavar="PATH", help="this settings file instead")
    where.add_argument(
        "--user",
        action="store_true",
        help="the user-wide settings ("
        + ", ".join(
            dict.fromkeys(
                "/".join(p for p in ("~", get_adapter(n).settings.user_dir) if p)
                for n in installable()
            )
        )
        + ")",
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
        runtime = inst.runtime_of(args.runtime)
        paths = inst.find_settings(runtime.name, settings=args.settings, user=args.user)
        reports = []
        for path in paths:
            if install:
                opts = inst.Options(
                    runtime=runtime.name,
                    hooktui=inst.hooktui_path(),
                    # Hooks run in the runtime's cwd: a relative path would move.
                    stream=os.path.abspath(os.path.expanduser(args.stream))
                    if args.stream
                    else None,
                    label_from=args.label_from,
                )
                reports.append(inst.install(path, opts, dry_run=args.dry_run))
            else:
                reports.append(inst.uninstall(path, runtime.name, dry_run=args.dry_run))
    except inst.InstallError as exc:
        sys.stderr.write(f"hooktui {name}: {exc}\n")
        return exc.code
    except OSError as exc:
        sys.stderr.write(f"hooktui {name}: {exc.filename or ''}: {exc.strerror or exc}\n")
        return 1
    except RecursionError:
        sys.stderr.write(f"hooktui {name}: the settings are nested too deeply to read\n")
        return 2
    for report in reports:
        _print(report)
    # The worst outcome decides, so one file without hooks beside another does not hide.
    return max((r.code for r in reports), default=0) if all(r.code for r in reports) else 0


def _print(report: inst.Report) -> None:
    if report.diff:
        sys.stdout.write(report.diff)
    out = sys.stdout if report.code == 0 else sys.stderr
    for skipped in report.skipped:
        out.write(f"not wrapped: {report.path}: {skipped.where}: {skipped.why}\n")
    for line in report.messages:
        out.write(f"{line}\n")


def install_main(argv: list[str]) -> int:
    return _run(argv, install=True)


def uninstall_main(argv: list[str]) -> int:
    return _run(argv, install=False)
