"""The command line `install` writes around a hook, and how to read one back.

A wrapped shell-form hook is one line the runtime's own shell runs:

    set -- '<original>'; [ -x <python> ] && [ -x <hooktui> ] &&
        exec <python> -I -S -X utf8 <hooktui> tap <options> -- "$0" -c "$1"; exec "$0" -c "$1"

- `"$0" -c "$1"` runs the original under the very shell the runtime started
  (`$0` is that shell: `/bin/sh`, `bash`, the user's login shell), so
  bash-isms and quoting behave exactly as they do bare. The original is held in
  `$1`, not in a variable: assigning a variable the caller exported (`c`, say)
  would change the environment the hook gets.
- A runtime that replaces text in a command before its shell reads it (Gemini
  CLI puts a shell-quoted path where `$GEMINI_PROJECT_DIR` was) gets the
  original in a quoted here-document instead of single quotes: the replaced
  text lands there literally, as it would in the bare command. A `.` printed
  after it, and cut off again, keeps the trailing newlines `$(...)` would drop.
- An original too long for the single-quoted line (each `'` takes five bytes)
  goes in the here-document too; one too long even there is not wrapped: the
  kernel refuses a single argument over MAX_ARG_STRLEN, so the runtime could
  not start the wrapped line at all.
- If the interpreter hooktui runs on (or hooktui itself) is gone, the second
  `exec` runs the original as if it had never been wrapped: a guard never fails
  open because of us. This needs nothing but the shell's own `[` and `exec`.
- When hooktui is our launcher (bin/hooktui) and the Python beside it is a
  fixed path, the line starts that Python as the launcher's shell step would
  (START_FLAGS), skipping the step: a shell less on every call. Any other
  hooktui (or a launcher whose Python is found on PATH) is exec'd itself:
  `exec <hooktui> tap ...`.

An exec-form hook (a command plus an argv, no shell) becomes
`/bin/sh -c '<the same test> exec <hooktui> tap ... -- "$@"; exec "$@"' hooktui <argv>`.

Lines written by older versions (`c='<original>'; ... "$c"`, `exec <hooktui> tap
...` after the tests, `<hooktui> tap ... -- sh -c '<original>'`, or the exec form
with hooktui as the command) are still read back.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass

from hooktui.tap.install.files import InstallError

EXEC_SHELL = "/bin/sh"
EXEC_NAME = "hooktui"  # $0 of the exec-form wrapper
_TAG = "HOOKTUI_END"
# How the launcher's shell step starts the tap's Python (bin/hooktui): isolated
# and without `site`, and in UTF-8 mode, which spares Python decoding through
# the locale (about 6% of its start-up, 1.4M instructions) and is not passed on
# to the hook. Lines
# written before 2026-12-03 (evening) have no `-X utf8`; they are still read.
START_FLAGS = "-I -S -X utf8"
_RUN = ' -- "$0" -c "$1"; '
_BARE = 'exec "$0" -c "$1"'  # the fallback: the original, as if never wrapped
_TAIL = _RUN + _BARE
_OLD_TAIL = ' -- "$0" -c "$c"; exec "$0" -c "$c"'  # lines written before 2026-12-05
_EXEC_TAIL = ' -- "$@"; exec "$@"'
# The kernel's limit on one argument (Linux MAX_ARG_STRLEN, with its NUL): the
# runtime passes the whole line as one (`sh -c <line>`).
MAX_LINE = 32 * 4096 - 1
# A word as shlex.quote writes it: safe characters, or single-quoted pieces.
_WORD = r"""(?:'[^']*'(?:"'"'[^']*')*|[\w@%+=:,./-]+)"""


def guard_pattern(word: str) -> str:
    """The tests and the tap's start, with `word` the way the line quotes one."""
    return (
        rf"(?:\[ -x (?P<py>{word}) \] && )?\[ -x (?P<h>{word}) \] && (?:\[ -r {word} \] && )*"
        rf"exec (?:(?P=py) -I -S (?:-X utf8 )?)?(?P=h) tap (?P<args>.*?)"
    )


_GUARD = guard_pattern(_WORD)
# An http hook's fallback: it cannot run bare (its POST is hooktui's), so the line
# answers as the runtime reads a refusal, with one line saying why (Fallback).
_FAIL = rf"printf %s {_WORD}; printf '%s\\n' {_WORD} >&2; exit \d+"
_FALLBACK = rf"(?P<fallback>{re.escape(_BARE)}|{_FAIL})"
# The first lines of our launcher (bin/hooktui), as pip installs it.
_LAUNCHER_HEAD = b"#!/bin/sh\n# The hooktui command: a shell line, then Python"
_HEREDOC = rf"\$\(cat <<'(?P<tag>{_TAG}\w*)'\n(?P<orig>.*)\n(?P=tag)\n"
_SHELL_FORMS = (
    re.compile(rf"set -- (?P<orig>{_WORD}); {_GUARD}{re.escape(_RUN)}{_FALLBACK}", re.S),
    re.compile(rf"c=(?P<orig>{_WORD}); {_GUARD}{re.escape(_OLD_TAIL)}", re.S),
)
_HEREDOC_FORMS = (
    re.compile(
        rf'set -- "{_HEREDOC}printf \.\)"; set -- "\$\{{1%\?\?\}}"; '
        rf"{_GUARD}{re.escape(_RUN)}{_FALLBACK}",
        re.S,
    ),
    re.compile(rf"c={_HEREDOC}\); {_GUARD}{re.escape(_OLD_TAIL)}", re.S),
)
_EXEC_SCRIPT = re.compile(rf"{_GUARD}{re.escape(_EXEC_TAIL)}", re.S)


@dataclass(frozen=True)
class Tap:
    """Where the tap lives and how to call it: everything but the hook itself."""

    hooktui: str  # absolute path of the hooktui command
    python: str | None  # the interpreter it runs on, when it has one of its own
    args: tuple[str, ...]  # `tap` options, without `tap` and `--`
    direct: bool = False  # start it as `<python> START_FLAGS <hooktui> tap` (our launcher)
    # More files the call needs (an http hook's module): when one is unreadable the
    # line takes its fallback, as when hooktui is gone.
    requires: tuple[str, ...] = ()


@dataclass(frozen=True)
class Wrapped:
    """A wrapped hook read back: the tap's options and the original hook."""

    hooktui: str
    args: list[str]
    original: str | None = None  # shell form
    argv: list[str] | None = None  # exec form
    fails_closed: bool = False  # with hooktui gone it refuses (an http hook), not runs bare


@dataclass(frozen=True)
class Fallback:
    """What a line answers when it cannot run its hook through the tap nor bare (an
    http hook: the POST is hooktui's): the runtime's refusal, and why, on stderr."""

    stdout: str
    message: str  # one line
    code: int

    def shell(self) -> str:
        out, message = shlex.quote(self.stdout), shlex.quote(self.message)
        return f"printf %s {out}; printf '%s\\n' {message} >&2; exit {self.code}"


def interpreter_of(hooktui: str) -> str | None:
    """The interpreter hooktui runs on, when it is a path of its own: for our
    launcher the Python beside it, else the one its `#!` line names."""
    try:
        with open(hooktui, "rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    if head.startswith(_LAUNCHER_HEAD):
        return launcher_python(hooktui)
    first = head.partition(b"\n")[0]
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if not words or os.path.basename(words[0]) == "env":
        return None  # found on PATH at run time: nothing fixed to test for
    return words[0]


def launcher_python(hooktui: str) -> str | None:
    """The Python our launcher starts, as its shell step finds it: `python3` beside
    the command as named, else beside the file it links to (pipx, uv); None when
    it would be whichever `python3` is on PATH (nothing fixed to test for)."""
    for where in (os.path.dirname(hooktui), os.path.dirname(os.path.realpath(hooktui))):
        python = os.path.join(where, "python3")
        if os.path.isfile(python) and os.access(python, os.X_OK):
            return python
    return None


def starts_direct(hooktui: str, python: str | None) -> bool:
    """Whether the line may start `python` on `hooktui` itself: only our launcher,
    whose Python part puts its package on the path without `site`."""
    return python is not None and python == _launcher_python_of(hooktui)


def _launcher_python_of(hooktui: str) -> str | None:
    try:
        with open(hooktui, "rb") as f:
            head = f.read(len(_LAUNCHER_HEAD))
    except OSError:
        return None
    return launcher_python(hooktui) if head == _LAUNCHER_HEAD else None


class TooLong(InstallError):
    """A hook whose wrapped line the system could not run (it stays as it is)."""


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def guard(tap: Tap, quote=shlex.quote) -> str:
    """`[ -x <python> ] && [ -x <hooktui> ] && ... exec <the tap>`, words quoted by `quote`."""
    py = f"[ -x {quote(tap.python)} ] && " if tap.python else ""
    h = quote(tap.hooktui)
    start = f"{quote(tap.python)} {START_FLAGS} {h}" if tap.direct and tap.python else h
    needs = "".join(f"[ -r {quote(path)} ] && " for path in tap.requires)
    args = " ".join(quote(arg) for arg in tap.args)
    return f"{py}[ -x {h} ] && {needs}exec {start} tap {args}"


def wrap_shell(
    command: str,
    tap: Tap,
    substitutions: tuple[str, ...] = (),
    fallback: Fallback | None = None,
) -> str:
    """The shell-form line that runs `command` through the tap, or bare when it cannot
    (or, given a `fallback`, answers that)."""
    line_guard = guard(tap) + _RUN + (fallback.shell() if fallback else _BARE)
    if any(token in line_guard for token in substitutions):
        raise InstallError(
            "a path in the tap's options contains text the runtime replaces "
            f"({', '.join(substitutions)}); use another --stream or hooktui location"
        )
    if not any(token in command for token in substitutions):
        line = f"set -- {shlex.quote(command)}; {line_guard}"
        if _size(line) <= MAX_LINE:
            return line
    tag = _TAG
    lines = set(command.split("\n"))
    while tag in lines:
        tag += "_"  # never a line of the original
    here = f"cat <<'{tag}'\n{command}\n{tag}\nprintf ."
    line = f'set -- "$({here})"; set -- "${{1%??}}"; {line_guard}'
    if _size(line) > MAX_LINE:
        raise TooLong(
            f"its command is {_size(command)} bytes: wrapped, the line would pass the "
            f"{MAX_LINE + 1}-byte limit on one argument, and the runtime could not start it"
        )
    return line


def wrap_exec(argv: list[str], tap: Tap) -> tuple[str, list[str]]:
    """(command, args) of the exec-form wrapper around `argv`."""
    return EXEC_SHELL, ["-c", f"{guard(tap)}{_EXEC_TAIL}", EXEC_NAME, *argv]


def script_line(tap: Tap) -> str:
    """The last line of a wrapper script whose "$@" holds the hook's argv: the tap when
    it is there, else the hook bare (install for hook files, hookfiles.py)."""
    return f"{guard(tap)}{_EXEC_TAIL}"


def read_script_line(line: str) -> Wrapped | None:
    """A wrapper script's last line read back (its argv is the script's business)."""
    m = _EXEC_SCRIPT.fullmatch(line)
    args = _tap_args(m["args"]) if m else None
    return Wrapped(_unquote(m["h"]), args, argv=[]) if args is not None else None


def _unquote(word: str) -> str:
    return shlex.split(word)[0] if word else ""


def _tap_args(text: str) -> list[str] | None:
    try:
        return shlex.split(text)
    except ValueError:
        return None


def read_shell(command: str) -> Wrapped | None:
    """A shell-form command read back, or None when it is not one of ours."""
    for form in (*_SHELL_FORMS, *_HEREDOC_FORMS):
        m = form.fullmatch(command)
        if m is None:
            continue
        args = _tap_args(m["args"])
        if args is None:
            return None
        original = m["orig"] if form in _HEREDOC_FORMS else _unquote(m["orig"])
        closed = (m.groupdict().get("fallback") or _BARE) != _BARE
        return Wrapped(_unquote(m["h"]), args, original=original, fails_closed=closed)
    from hooktui.tap.install.anyshell import read_any_shell  # it builds on this module

    return read_any_shell(command) or _read_legacy(command)


def _read_legacy(command: str) -> Wrapped | None:
    """`<hooktui> tap ... -- sh -c '<original>'` (or any argv), as older versions wrote."""
    argv = _tap_args(command)
    if argv is None or not _is_legacy_argv(argv):
        return None
    args, rest = _split_at_dashes(argv[1:])
    if not rest:
        return None
    if len(rest) == 3 and rest[0] == "sh" and rest[1] == "-c":
        return Wrapped(argv[0], args[1:], original=rest[2])
    return Wrapped(argv[0], args[1:], original=shlex.join(rest))


def read_exec(command: str, args: list[str]) -> Wrapped | None:
    """An exec-form hook (command + args) read back, or None when it is not one of ours."""
    if command == EXEC_SHELL and len(args) >= 4 and args[0] == "-c" and args[2] == EXEC_NAME:
        m = _EXEC_SCRIPT.fullmatch(args[1])
        tap_args = _tap_args(m["args"]) if m else None
        if tap_args is not None:
            return Wrapped(_unquote(m["h"]), tap_args, argv=args[3:])
        return None
    argv = [command, *args]
    if not _is_legacy_argv(argv):
        return None
    tap_args, rest = _split_at_dashes(args)
    return Wrapped(command, tap_args[1:], argv=rest) if rest else None


def _is_legacy_argv(argv: list[str]) -> bool:
    return len(argv) >= 3 and os.path.basename(argv[0]) == "hooktui" and argv[1] == "tap"


def _split_at_dashes(args: list[str]) -> tuple[list[str], list[str]]:
    """(`tap` and its options, the hook's argv) of `tap ... -- CMD ...`."""
    try:
        i = args.index("--")
    except ValueError:
        return args, []
    return args[:i], args[i + 1 :]


def unwrap_shell(command: str) -> str | None:
    """The original of a wrapped shell-form command, or None when it is not wrapped."""
    wrapped = read_shell(command)
    return wrapped.original if wrapped is not None else None
