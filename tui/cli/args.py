"""Argument parsing the subcommands share: a one-line-error parser and number checks."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TypeVar

from hooktui.tap.read.sanitize import safe_line

N = TypeVar("N", int, float)


class OneLineParser(argparse.ArgumentParser):
    """Bad usage is one line on stderr and exit 2, without argparse's usage dump."""

    def error(self, message: str) -> None:
        sys.stderr.write(f"{self.prog}: {safe_line(message)}\n")
        raise SystemExit(2)


class UsageError(Exception):
    """Bad usage: one line for the user, exit 2."""


class RaisingParser(argparse.ArgumentParser):
    """Bad usage raises UsageError, for a subcommand that words the line itself."""

    def error(self, message: str) -> None:
        raise UsageError(message)


def number(
    convert: Callable[[str], N], what: str, ok: Callable[[N], bool], must: str
) -> Callable[[str], N]:
    """An argparse `type`: `convert(text)`, refused as "not <what>: 'text'" when it is not a
    number and with `must` (formatted with `text`) when `ok(value)` is false."""

    def parse(text: str) -> N:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(must.format(text=text))
        return value

    return parse


def app_exit_code(app, result) -> int:
    """The command's exit status once a Textual app has run: one that crashed (Textual
    printed the traceback and set its return code) must not exit 0 as if all went well."""
    if app.return_code:
        return app.return_code
    return result if isinstance(result, int) else 0
