#!/usr/bin/env python3
"""Keep `.env` files unread: an OpenCode tool.execute.before command hook.

What it does: when OpenCode is about to read a file named `.env` (or
`.env.local`, `.env.production`, ...), refuses with a reason the model can act
on. Any other call gets no answer (exit 0, empty stdout): it runs.

Protocol (hooktui's command hooks for OpenCode, run by the plugin
`hooktui install opencode` writes): one JSON request on stdin,
`hook_event_name: "tool.execute.before"`, `tool_name` (`read`, `bash`, ...),
`tool_input` (the tool's arguments: `filePath` for read); the answer is JSON on
stdout: `decision: "deny"` with a `reason` refuses (the model reads the reason
as the tool's result), `tool_input` rewrites the call. A hook that fails
(another exit, a crash, a timeout, text that is not JSON) refuses the call too,
unless its settings say `"onFailure": "continue"`.

Install: in `.opencode/command-hooks.json`

    {"hooks": {"tool.execute.before": [{"matcher": "read", "hooks": [
        {"type": "command", "command": "python3 /path/to/keep_env_private.py"}]}]}}

then `hooktui install opencode` (it also writes the plugin that runs these).
"""

import json
import os
import sys


def main() -> int:
    request = json.load(sys.stdin)
    tool_input = request.get("tool_input") or {}
    path = tool_input.get("filePath") or tool_input.get("path") or ""
    name = os.path.basename(path) if isinstance(path, str) else ""
    if name == ".env" or name.startswith(".env."):
        reason = f"{name} holds secrets: ask the user for the value you need instead"
        json.dump({"decision": "deny", "reason": reason}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
