"""The `hooktui` command line: a thin dispatcher.

Each subcommand lives in its own module with a `main(argv) -> int`. Nothing is
imported until a subcommand is chosen, so `hooktui tap` pays only for the tap.
"""

from __future__ import annotations

import sys

# name -> (module, function, one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "tap": (
        "hooktui.tap.hotpath.shim",
        "main",
        "wrap a hook: pass its traffic through, record each call",
    ),
    "watch": ("hooktui.tui.cli.watch", "main", "live dashboard of recorded hook calls"),
    "show": (
        "hooktui.tui.cli.show",
        "main",
        "print recorded calls without a TUI (scripts, CI logs)",
    ),
    "replay": (
        "hooktui.tui.cli.replay",
        "main",
        "re-run a recorded session against an edited policy",
    ),
    "hooks": (
        "hooktui.tui.cli.hooks",
        "main",
        "every configured hook of every runtime here, and whether it fires",
    ),
    "try": (
        "hooktui.tui.cli.try_",
        "main",
        "a hand-written request against the configured hooks (a dry run)",
    ),
    "install": (
        "hooktui.tui.cli.install",
        "install_main",
        "wrap a runtime's configured hooks in the tap",
    ),
    "uninstall": ("hooktui.tui.cli.install", "uninstall_main", "restore a runtime's hook settings"),
    "demo": ("hooktui.tui.cli.demo", "main", "real traffic through the real tap, for a first look"),
    "sql": ("hooktui.tui.cli.fleet.sql", "main", "SQL over streams (DuckDB): the calls view"),
    "export": ("hooktui.tui.cli.fleet.export", "main", "records as OpenTelemetry logs (OTLP/JSON)"),
    "pull": ("hooktui.tui.cli.fleet.pull", "main", "a team store's records, as recorded"),
}


def _usage() -> str:
    from hooktui.tap.version import __version__

    lines = [
        f"hooktui {__version__}: see, record and replay AI-agent hook traffic",
        "",
        "usage: hooktui COMMAND [ARGS...]",
        "",
        "commands:",
    ]
    width = max(map(len, COMMANDS))
    lines += [f"  {name:<{width}}  {help_}" for name, (_, _, help_) in COMMANDS.items()]
    lines += ["", "Run `hooktui help COMMAND` (or `hooktui COMMAND --help`) for its options."]
    return "\n".join(lines) + "\n"


def _unknown(name: str) -> int:
    sys.stderr.write(f"hooktui: unknown command {name!r} (try `hooktui --help`)\n")
    return 2


def _drop_unreadable_sizes() -> None:
    """Forget a COLUMNS or LINES that `str.isdigit` takes for a number and `int` refuses
    (`COLUMNS=²`): Rich and Textual read them so and would end in a traceback."""
    import os

    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name, "")
        if value.isdigit() and not value.isascii():
            del os.environ[name]


def _run(name: str, argv: list[str]) -> int:
    if name != "tap":  # the tap passes its environment on to the hook byte for byte
        _drop_unreadable_sizes()
    module_name, func_name, _ = COMMANDS[name]
    module = __import__(module_name, fromlist=[func_name])
    return getattr(module, func_name)(argv)


def help_command(args: list[str]) -> int:
    """`hooktui help [COMMAND]`: the overview, or that command's own --help."""
    if not args:
        sys.stdout.write(_usage())
        return 0
    if args[0] not in COMMANDS:
        return _unknown(args[0])
    try:
        return _run(args[0], ["--help"])
    except SystemExit as exc:  # argparse ends --help with SystemExit(0)
        return exc.code if isinstance(exc.code, int) else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "help":
        return help_command(args[1:])
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(_usage())
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
        from hooktui.tap.version import __version__

        sys.stdout.write(f"hooktui {__version__}\n")
        return 0
    if args[0] not in COMMANDS:
        return _unknown(args[0])
    return _run(args[0], args[1:])


if __name__ == "__main__":
    sys.exit(main())
