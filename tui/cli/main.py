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
    "install": (
        "hooktui.tui.cli.install",
        "install_main",
        "wrap a runtime's configured hooks in the tap",
    ),
    "uninstall": ("hooktui.tui.cli.install", "uninstall_main", "restore a runtime's hook settings"),
    "demo": ("hooktui.tui.cli.demo", "main", "real traffic through the real tap, for a first look"),
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
    lines += ["", "Run `hooktui COMMAND --help` for a command's options."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        sys.stdout.write(_usage())
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
        from hooktui.tap.version import __version__

        sys.stdout.write(f"hooktui {__version__}\n")
        return 0
    entry = COMMANDS.get(args[0])
    if entry is None:
        sys.stderr.write(f"hooktui: unknown command {args[0]!r} (try `hooktui --help`)\n")
        return 2
    module_name, func_name, _ = entry
    module = __import__(module_name, fromlist=[func_name])
    return getattr(module, func_name)(args[1:])


if __name__ == "__main__":
    sys.exit(main())
