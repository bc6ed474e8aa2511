"""The wrapped line for a runtime that runs hooks with the user's login shell.

Codex runs a hook as `$SHELL -lc <command>`: bash or zsh, but also fish or tcsh,
where the POSIX line (wrapper.py) does not parse (fish) or runs nothing and
exits 0 (tcsh), which reads as allow. This line is one command every one of
them reads alike, handing the rest to /bin/sh:

    exec /bin/sh -c '<script>' "$SHELL" '<original>'

The script is the POSIX line's (the tests, then the tap, then the original
bare), run under `"$SHELL" -c <original>`: the very shell the runtime chose
(/bin/sh when SHELL is unset, as Codex does). Words in it are double-quoted, so
the whole script sits in single quotes that no shell treats differently: no `'`,
no backslash (fish reads `\\` and `\'` inside single quotes), no `!` (tcsh's
history) and no newline (tcsh). An original holding one of those goes in
escaped (`\\NNN`, `%%`) and the script decodes it with printf. One /bin/sh more
than the POSIX line, only for this runtime.
"""

from __future__ import annotations

import re
import shlex

from hooktui.tap.install.wrapper import MAX_LINE, Tap, TooLong, Wrapped, guard, guard_pattern

_SAFE = re.compile(r"[\w@%+=:,./-]+")
_UNSAFE = frozenset("'\\!\n")  # what some shell reads inside single quotes
_UNQUOTABLE = _UNSAFE | frozenset('"$`')  # what double quotes cannot hold as is here
_PLAIN = '"$1"'
_DECODED = '"$(printf "$1"; printf .)"; set -- "$1" "${2%.}"'
_RUN = ' -- "$1" -c "$2"; exec "$1" -c "$2"'
_DQWORD = r'(?:"[^"\\$`]*"|[\w@%+=:,./-]+)'
_LINE = re.compile(
    r"""exec /bin/sh -c 'set -- "\$\{0:-/bin/sh\}" (?P<dec>"\$1"|"\$\(printf "\$1"; printf """
    r"""\.\)"; set -- "\$1" "\$\{2%\.\}"); """
    + guard_pattern(_DQWORD)
    + re.escape(_RUN)
    + r"""' "\$SHELL" '(?P<orig>[^']*)'""",
    re.S,
)


def _dq(word: str) -> str:
    if _SAFE.fullmatch(word):
        return word
    if _UNQUOTABLE.intersection(word):
        raise ValueError(word)
    return f'"{word}"'


def encoded(command: str) -> str:
    """`command` as a printf format that prints it: its `%` doubled, and each
    character some shell reads inside single quotes as an octal escape."""
    out = []
    for ch in command:
        if ch == "%":
            out.append("%%")
        elif ch in _UNSAFE:
            out.append("".join(f"\\{b:03o}" for b in ch.encode()))
        else:
            out.append(ch)
    return "".join(out)


def wrap_any_shell(command: str, tap: Tap) -> str | None:
    """The line for `command`, or None when a path or option of the tap holds a
    character the script cannot quote (the POSIX line is written then)."""
    try:
        tests = guard(tap, quote=_dq)
    except ValueError:
        return None
    plain = not _UNSAFE.intersection(command)
    original = command if plain else encoded(command)
    script = f'set -- "${{0:-/bin/sh}}" {_PLAIN if plain else _DECODED}; {tests}{_RUN}'
    line = f"""exec /bin/sh -c '{script}' "$SHELL" '{original}'"""
    if len(line.encode("utf-8", "surrogatepass")) > MAX_LINE:
        raise TooLong(
            f"its command is {len(command.encode())} bytes: wrapped, the line would pass the "
            f"{MAX_LINE + 1}-byte limit on one argument, and the runtime could not start it"
        )
    return line


def read_any_shell(command: str) -> Wrapped | None:
    m = _LINE.fullmatch(command)
    if m is None:
        return None
    try:
        args = shlex.split(m["args"])
        hooktui = shlex.split(m["h"])[0]
    except ValueError:
        return None
    original = m["orig"] if m["dec"] == _PLAIN else _decoded(m["orig"])
    return Wrapped(hooktui, args, original=original)


def _decoded(text: str) -> str:
    """What `printf <text>` prints for the texts `encoded` writes."""
    raw = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m[1], 8)]), text.encode())
    return raw.replace(b"%%", b"%").decode("utf-8", "surrogateescape")
