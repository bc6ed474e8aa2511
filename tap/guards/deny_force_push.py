#!/usr/bin/env python3
"""Deny force-pushes: a Claude Code PreToolUse guard.

What it does: reads the Bash command Claude is about to run and, when it is a
`git push` with `--force`, `-f` or `--force-with-lease`, denies it with a
reason the model can act on. Anything else gets no answer at all (exit 0 and an
empty stdout), which Claude Code reads as "no objection": the normal
permission flow goes on. (Answering `permissionDecision: "allow"` would also
skip the user's permission prompt, which a guard rarely means to do.)

Protocol (Claude Code hooks): one JSON request on stdin with
`hook_event_name`, `tool_name`, `tool_input`, ...; the answer is JSON on stdout:
`{"hookSpecificOutput": {"hookEventName": "PreToolUse",
"permissionDecision": "deny", "permissionDecisionReason": "..."}}`.
(Exit 2 with the reason on stderr denies too; any other non-zero exit is an
error and the tool runs anyway.)

Install: in `.claude/settings.json`

    {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3 /path/to/deny_force_push.py"}]}]}}

then `hooktui install claude-code` to watch it work.
"""

import json
import shlex
import sys

FORCE_FLAGS = {"--force", "-f", "--force-with-lease", "--force-if-includes"}


def is_force_push(command: str) -> bool:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    for i in range(len(words) - 1):
        if words[i] == "git" and words[i + 1] == "push":
            rest = words[i + 2 :]
            return any(w in FORCE_FLAGS or w.startswith("+") for w in rest)
    return False


def main() -> int:
    request = json.load(sys.stdin)
    command = (request.get("tool_input") or {}).get("command", "")
    if request.get("tool_name") == "Bash" and is_force_push(command):
        answer = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": (
                    "force-push is not allowed here; push without --force or open a pull request"
                ),
            }
        }
        json.dump(answer, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
