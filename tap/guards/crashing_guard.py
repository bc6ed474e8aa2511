#!/usr/bin/env python3
"""A guard that crashes, and so lets the call through: a Claude Code example of what to avoid.

What it does: meant to block `curl ... | sh`, it assumes every tool input has a
`command` field. For `Read`, `Edit`, `Write` ... it has none: the script dies
with a KeyError traceback and exit status 1. Claude Code reads any non-zero
exit other than 2 as a *non-blocking error* and runs the tool anyway, so the
guard fails open, silently. `hooktui watch` shows these calls as failures that
let the call proceed, with the traceback from stderr.

The fix is the usual one: read fields with `.get()`, catch what you did not
expect, and decide deliberately what a broken guard should do (exit 2 with a
reason on stderr if it must fail closed).

Protocol (Claude Code hooks): JSON request on stdin; exit 0 with JSON (or
nothing) on stdout is an answer, exit 2 blocks with stderr as the reason, any
other exit is an error and the action proceeds.

Install: in `.claude/settings.json`

    {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "python3 /path/to/crashing_guard.py"}]}]}}
"""

import json
import sys


def main() -> int:
    request = json.load(sys.stdin)
    command = request["tool_input"]["command"]  # the bug: not every tool has one
    if "| sh" in command or "| bash" in command:
        sys.stderr.write("piping a download into a shell is not allowed\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
