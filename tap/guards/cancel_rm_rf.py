#!/usr/bin/env python3
"""Stop a run that is about to wipe a folder: a Cline CLI PreToolUse hook.

What it does: when one of the shell commands Cline is about to run is an
`rm -rf` (or `-fr`, `-r -f`, `--recursive --force`), it answers `cancel`, with
the reason in `errorMessage`. Anything else gets no answer (exit 0, empty
stdout): the commands run.

Protocol (Cline hook files): one JSON request on stdin, `hookName: "tool_call"`,
the call in `tool_call {id, name, input}` (`run_commands` takes `{"commands":
[...]}`); the answer is JSON on stdout: `cancel: true` stops the whole run (the
tool does not run), `contextModification` adds text for the model, and
`overrideInput` replaces the tool's input. Cline never reads the exit code: a
hook that exits 2 with a reason on stderr, as Claude Code's guards do, lets the
commands run.

Install: save it as `.clinerules/hooks/PreToolUse.py` in the project (or in
`~/Documents/Cline/Hooks/`): the file's name is the event. Cline runs it with
python3 (its `#!` line). `hooktui install cline` then wraps the file.
"""

import json
import shlex
import sys


def wipes(command: str) -> bool:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    if "rm" not in words:
        return False
    flags = "".join(w.lstrip("-") for w in words if w.startswith("-") and not w.startswith("--"))
    long = {w for w in words if w.startswith("--")}
    recursive = "r" in flags or "R" in flags or "--recursive" in long
    force = "f" in flags or "--force" in long
    return recursive and force


def main() -> int:
    request = json.load(sys.stdin)
    tool_input = (request.get("tool_call") or {}).get("input") or {}
    commands = tool_input.get("commands") or []
    found = [c for c in commands if isinstance(c, str) and wipes(c)]
    if found:
        reason = f"refusing to run {found[0]!r}: delete what you mean by name instead"
        json.dump({"cancel": True, "errorMessage": reason}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
