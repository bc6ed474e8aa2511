#!/usr/bin/env python3
"""Run commands without `sudo`: a Mistral Vibe pre_tool hook.

What it does: when the bash command Vibe is about to run starts with `sudo`,
answers with the same command minus `sudo` (and its options), so the agent
goes on without raising its privileges. Other commands get no answer (exit 0,
empty stdout): Vibe runs them unchanged.

Protocol (Vibe hooks): one JSON request on stdin, `hook_event_name:
"pre_tool"`, `tool_name` qualified (`file_system.bash`), `tool_input`; the
answer is JSON on stdout: `decision: "deny"` with a `reason` refuses, and
`hook_specific_output.tool_input` replaces the whole input. Only exit 0 is an
answer: any other exit, or text that is not a JSON object, is a failure that
lets the call through, unless the hook is `strict = true`.

Install: in `.vibe/hooks.toml` (a trusted folder) or `~/.vibe/hooks.toml`

    [[hooks]]
    name = "no-sudo"
    type = "pre_tool"
    match = "bash"
    command = "python3 /path/to/no_sudo.py"

then `hooktui install mistral-vibe`.
"""

import json
import shlex
import sys


def without_sudo(command: str) -> str | None:
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if not words or words[0] != "sudo":
        return None
    rest = words[1:]
    while rest and rest[0].startswith("-"):
        rest = rest[1:]
    return shlex.join(rest) if rest else None


def main() -> int:
    request = json.load(sys.stdin)
    tool_input = request.get("tool_input") or {}
    command = tool_input.get("command")
    new = without_sudo(command) if isinstance(command, str) else None
    if new is not None:
        answer = {"hook_specific_output": {"tool_input": {**tool_input, "command": new}}}
        json.dump(answer, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
