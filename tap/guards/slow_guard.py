#!/usr/bin/env python3
"""A slow guard that runs close to its timeout: a Gemini CLI BeforeTool hook.

What it does: stands for a guard that calls out to something slow (a policy
server, a scanner) before each shell command. It sleeps `--sleep-ms` (default
800 ms), then allows the call. Configured with a 1000 ms timeout it uses 80% of
its budget on every call: one slow day and Gemini CLI kills it, and a killed
hook *allows* the tool. `hooktui watch` marks calls that come this close to
their timeout.

Protocol (Gemini CLI hooks): JSON on stdin with `hook_event_name`
(`BeforeTool`, `AfterTool`, ...), `tool_name` (`run_shell_command`, ...),
`tool_input`, `timestamp`; the answer is JSON on stdout with a top-level
`decision` (`allow` | `deny`, `block` is an alias) and `reason`. Exit 2 with a
reason on stderr blocks; exit 1 only warns and the tool runs.

Install: in `.gemini/settings.json` (the timeout is in milliseconds)

    {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": "python3 /path/to/slow_guard.py --sleep-ms 800",
         "timeout": 1000}]}]}}
"""

import json
import sys
import time


def main(argv: list[str]) -> int:
    sleep_ms = 800
    if len(argv) >= 2 and argv[0] == "--sleep-ms":
        sleep_ms = int(argv[1])
    request = json.load(sys.stdin)
    time.sleep(sleep_ms / 1000)  # the "policy server" round trip
    tool = request.get("tool_name", "the tool")
    json.dump({"decision": "allow", "reason": f"{tool} checked (slowly)"}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
