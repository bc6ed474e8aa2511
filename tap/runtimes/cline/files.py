"""How Cline runs a hook file (`@cline/core` 0.0.86, bundled in `cline` 3.0.65).

It does not execute the file: it reads the file's first line and starts the
interpreter a `#!` line names, with the file's path after its words; `env` is
dropped (recursively), and `bash`, `sh`, `zsh`, `python3`, `python` are started by
their bare name (found on PATH, whatever folder the line gave). Without a `#!`
line, the extension decides: .sh .bash .zsh -> bash; .js .mjs .cjs -> node; .ts
.mts .cts -> bun run; .py -> python3; .ps1 -> pwsh -File; anything else -> bash.
Install (tap/install/hookfiles.py) writes that argv into the wrapper, so the
wrapped hook starts exactly as Cline started it bare. Loaded only by install.
"""

from __future__ import annotations

_BY_NAME = ("bash", "sh", "zsh", "python3", "python")
_BY_EXTENSION = {
    ".sh": ["bash"],
    ".bash": ["bash"],
    ".zsh": ["bash"],
    ".js": ["node"],
    ".mjs": ["node"],
    ".cjs": ["node"],
    ".ts": ["bun", "run"],
    ".mts": ["bun", "run"],
    ".cts": ["bun", "run"],
    ".py": ["python3"],
    ".ps1": ["pwsh", "-File"],
}


def shebang(path: str) -> list[str] | None:
    """The words of the file's `#!` line (first line, trimmed), or None."""
    try:
        with open(path, "rb") as f:
            head = f.readline()
    except OSError:
        return None
    line = head.decode("utf-8", "replace").strip()
    if not line.startswith("#!"):
        return None
    words = line[2:].split()
    return words or None


def _interpreter(words: list[str]) -> list[str] | None:
    """Cline's reading of a `#!` line's words (its `Bq`)."""
    if not words:
        return None
    first, rest = words[0], words[1:]
    name = first.replace("\\", "/").lower().rsplit("/", 1)[-1]
    if name == "env":
        return _interpreter(rest)
    if name in _BY_NAME:
        return [name, *rest]
    return words


def argv_for(path: str) -> list[str]:
    """The argv Cline starts for the hook file at `path`."""
    words = shebang(path)
    if words:
        found = _interpreter(words)
        return [*(found if found is not None else words), path]
    lower = path.lower()
    for ending, interpreter in _BY_EXTENSION.items():
        if lower.endswith(ending):
            return [*interpreter, path]
    return ["bash", path]
