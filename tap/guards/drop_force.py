#!/usr/bin/env python3
"""Rewrite a command to drop `--force`: a Codex CLI PreToolUse guard.

What it does: when the shell command Codex is about to run carries `--force`
(or `-f` on `git push`), answers with the same command minus that flag, so the
agent keeps going with the safe form instead of being told "no". Commands
without it get no answer (exit 0, empty stdout): Codex runs them unchanged.

Protocol (Codex hooks, same shape as Claude Code's, plus `model` and
`turn_id` in the request): a rewrite is `permissionDecision: "allow"` together
with `updatedInput`, the whole new tool input, which must carry `command`.
Careful: `permissionDecision: "allow"` on its own, `ask`, or `continue: false`
are read by Codex as a *failed* hook, and the original command runs.

Install: in `.codex/hooks.json` (or `[[hooks.PreToolUse.hooks]]` tables in
`.codex/config.toml`)

    {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3 /path/to/drop_force.py", "timeout": 10}]}]}}

Codex asks you to trust a hook before running it; `hooktui install codex`
changes the definition, so trust it again afterwards.
"""

import json
import shlex
import sys


def without_force(command: str) -> str | None:
    """The command minus its force flags, or None when it has none."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None  # not something we can safely rewrite
    is_push = "push" in words[:3]
    kept = [w for w in words if w != "--force" and not (is_push and w == "-f")]
    return shlex.join(kept) if len(kept) < len(words) else None


def main() -> int:
    request = json.load(sys.stdin)
    tool_input = request.get("tool_input") or {}
    command = tool_input.get("command")
    new_command = without_force(command) if isinstance(command, str) else None
    if new_command is not None:
        answer = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "dropped --force",
                "updatedInput": {**tool_input, "command": new_command},
            }
        }
        json.dump(answer, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
