#!/usr/bin/env python3
"""Allow everything, say so explicitly: a fastpace hook.

What it does: the smallest correct guard. It reads the request (a hook must
read its stdin), and answers allow with a short reason for the audit trail.
A starting point: add your checks before the final answer.

Protocol (fastpace hook contract): JSON on stdin with `hook_event_name`
(`PreToolUse` | `PostToolUse` | `UserPromptSubmit` | `Mutation`), `tool_name`,
`tool_input`, `tool_output` (post), `metadata` (agent_id, model, ...),
`session_id`, `cwd`. The answer is JSON on stdout, exit 0:
`{"decision": "allow" | "block" | "modify", "reason": "..."}`; `modify` only at
UserPromptSubmit, with the new prompt in `summary.modified_prompt`. Keep it
under 50 ms, and never write prompts or responses to disk (digests only).

Install: drop it in the plugin's hooks and wire it to PreToolUse, e.g. for
Claude Code-style bundles `{"type": "command", "command": "python3 /path/to/allow_all.py"}`.
"""

import json
import sys


def main() -> int:
    request = json.load(sys.stdin)
    tool = request.get("tool_name") or request.get("hook_event_name", "call")
    json.dump({"decision": "allow", "reason": f"{tool}: no policy objects"}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
