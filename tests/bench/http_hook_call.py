"""A wrapped `http` hook call, as a multiple of `python -c pass`, side by side.

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/http_hook_call.py [ROUNDS]

Each round times, interleaved: `python -c pass`; the http hook command alone
(`python -m hooktui.tap.httphook`, one POST to a local server); and the whole
line `install` writes (sh, the tap, the command, the record). The runtime's own
POST costs it no process at all: these are what wrapping adds per call.
"""

from __future__ import annotations

import json
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests.e2e's server

from hooktui.tap.httphook.spec import HttpSpec, to_argv, to_line
from hooktui.tap.install.wrapper import Tap, wrap_shell

from tests.e2e.http_hook_server import serve

REQUEST = b'{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}'


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, input=REQUEST, capture_output=True, check=False)
    return time.perf_counter() - start


def main(rounds: int) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tmp = Path(tempfile.mkdtemp())
    answers = {"/a": {"status": 200, "body": json.dumps({"decision": "block", "reason": "r"})}}
    server = serve({"port": port, "log": str(tmp / "log.jsonl"), "answers": answers})
    spec = HttpSpec("claude-code", f"http://127.0.0.1:{port}/a")
    hooktui = str(Path(sys.executable).with_name("hooktui"))
    args = ("--label", "PreToolUse:Bash", "--runtime", "claude-code", "--timeout-ms", "30000")
    tap = Tap(hooktui, None, (*args, "--stream", str(tmp / "s.jsonl")))
    line = wrap_shell(to_line(spec, sys.executable), tap)
    kinds = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "http hook command": to_argv(spec, sys.executable),
        "wrapped line": ["/bin/sh", "-c", line],
    }
    times: dict[str, list[float]] = {k: [] for k in kinds}
    for _ in range(rounds):
        for kind, argv in kinds.items():
            times[kind].append(timed(argv))
    server.shutdown()
    base = statistics.median(times["python -c pass"])
    for kind, got in times.items():
        median = statistics.median(got)
        print(f"{kind:20} {median * 1000:7.1f} ms  {median / base:5.2f}x")
    print(f"(line: {shlex.quote(line)[:80]}...)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
