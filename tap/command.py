"""Which word of a hook command names the hook: its script, not its interpreter.

The tap labels a hook by it, `install --label-from command` too, and replay
watches that file for edits: `python3 /x/guard.py` is guard.py, and
`sh -c 'uv run ~/h/policy.py --strict'` is policy.py. Imports only `os`: the
tap's recorder names a hook with it when no `--label` was given, and `shlex`
(which loads `re`) would cost that call more than the rest of naming it.
"""

from __future__ import annotations

import os

# Interpreters and launchers: they run the hook, they are not it.
LAUNCHERS = frozenset(
    "sh bash zsh dash ksh fish env python python3 pypy3 node deno bun ruby perl php "
    "uv uvx npx pnpm yarn run exec nohup timeout".split()
)
SHELLS = frozenset("sh bash zsh dash ksh fish".split())


def is_launcher(word: str) -> bool:
    name = os.path.basename(word)
    return name in LAUNCHERS or name.rstrip("0123456789.") in LAUNCHERS  # python3.11


def split_words(text: str) -> list[str]:
    """A command line's words, shell-quoted or (when the quoting is broken) by spaces."""
    try:
        return shell_words(text)
    except ValueError:
        return text.split()


_BLANKS = " \t\r\n"


def shell_words(text: str) -> list[str]:
    """`shlex.split(text)`, word for word: blanks split words; `'...'` is literal;
    in `"..."` a backslash escapes only `\\` and `"`; elsewhere it escapes any
    character. ValueError for an unclosed quote or a trailing backslash."""
    words: list[str] = []
    word: list[str] | None = None  # None: between words
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char in _BLANKS:
            if word is not None:
                words.append("".join(word))
                word = None
            i += 1
            continue
        if word is None:
            word = []
        if char == "\\":
            if i + 1 >= n:
                raise ValueError("No escaped character")
            word.append(text[i + 1])
            i += 2
        elif char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise ValueError("No closing quotation")
            word.append(text[i + 1 : end])
            i = end + 1
        elif char == '"':
            i = _double_quoted(text, i + 1, word)
        else:
            word.append(char)
            i += 1
    if word is not None:
        words.append("".join(word))
    return words


def _double_quoted(text: str, i: int, word: list[str]) -> int:
    """Append the inside of a `"..."` that starts at `i` to `word`; the index past it."""
    n = len(text)
    while i < n:
        char = text[i]
        if char == '"':
            return i + 1
        if char == "\\" and i + 1 < n and text[i + 1] in '\\"':
            word.append(text[i + 1])
            i += 2
        else:
            word.append(char)
            i += 1
    raise ValueError("No closing quotation")


def script_name(argv: list[str]) -> str:
    """The basename of the first word that is not a launcher, an option or `VAR=value`.

    `sh -c SCRIPT` is looked into; a command of launchers only is named by its first word.
    """
    if not argv:
        return ""
    words = list(argv)
    if os.path.basename(words[0]) in SHELLS and len(words) > 2 and words[1] == "-c":
        words = split_words(words[2])
    for word in words:
        name = os.path.basename(word.rstrip("/;&|"))
        if not name or word.startswith("-") or ("=" in word and not word.startswith("/")):
            continue
        if is_launcher(word):
            continue
        return name
    return os.path.basename(argv[0]) or argv[0]
