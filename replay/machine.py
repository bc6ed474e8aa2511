"""What a recorded hook needs from the machine it was recorded on.

A session replayed elsewhere (a colleague's laptop, a fleet replay's workers) names
files of the machine that recorded it: `python3 /home/alice/.claude/hooks/guard.py`,
`"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`. Running such a hook where the file is
missing only says "can't open file", which would read as the hook failing, a change.
So before a recorded hook runs, the first path its command names (after the
interpreters) is looked for here; when it, or an interpreter named by its path, is
missing, the record is not run and the report says which file it needs.

Only recorded hooks are looked into: a `--policy` is the user's own command, and a
policy that cannot start must show as the failure it is.
"""

from __future__ import annotations

import os
import re
import socket

from hooktui.tap.command import is_launcher, split_words

_VAR = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def _words(argv: list[str]) -> list[str]:
    """The command's words, a `sh -c SCRIPT` looked into."""
    out: list[str] = []
    for word in argv:
        out.extend(split_words(word) if any(c.isspace() for c in word) else [word])
    return out


def _expand(word: str, env: dict[str, str]) -> str:
    """`word` with $NAME / ${NAME} taken from `env` (the hook's) and a leading ~ from
    this machine's home; a name `env` does not hold is left as written."""

    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, match.group(0))

    word = _VAR.sub(value, word)
    return os.path.expanduser(word) if word.startswith("~/") else word


def _is_path(word: str) -> bool:
    return word.startswith(("/", "./", "../", "~/")) and "$" not in word


def needed_file(argv: list[str], env: dict[str, str], recorded_cwd: str) -> str:
    """The file of the recorded machine that `argv` needs and this machine lacks, or "".

    The words are read as `script_name` reads them: options, `VAR=value` and
    interpreters are passed (an interpreter named by a path must exist); the first
    other word is the hook itself. When it is a path, it must exist (a relative one in
    the recorded cwd); a bare name is found on PATH and is not looked for. Later words
    (arguments, redirections) may name files still to be made: they are not looked at.
    """
    for raw in _words(argv):
        word = _expand(raw.rstrip(";&|"), env)
        if word.startswith("-") or ("=" in word and not word.startswith("/")):
            continue
        if _is_path(word):
            path = word if os.path.isabs(word) else os.path.join(recorded_cwd or "/", word)
            if not os.path.exists(path):
                return os.path.normpath(path)
        if not is_launcher(word):
            return ""
    return ""


def needs_text(path: str) -> str:
    """The per-record line of the report."""
    here = socket.gethostname() or "this machine"
    return f"needs {path} from the machine it was recorded on; it is not on {here}"
