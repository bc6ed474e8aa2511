"""Which word of a hook command names the hook: its script, not its interpreter.

The tap labels a hook by it, `install --label-from command` too, and replay
watches that file for edits: `python3 /x/guard.py` is guard.py, and
`sh -c 'uv run ~/h/policy.py --strict'` is policy.py. Stdlib only.
"""

from __future__ import annotations

import os
import shlex

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
        return shlex.split(text)
    except ValueError:
        return text.split()


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
