"""What the line `hooktui install` writes costs per call, beside the bare hook.

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/wrapped_line.py [ROUNDS]

Each round runs, interleaved, under `sh -c` as a runtime would: the bare hook;
`hooktui tap ... -- sh -c '<hook>'` (the line install wrote before the re-cut);
the line it writes now (the fallback test, then `"$0" -c`); and the same with
the here-document a substituting runtime gets. It prints medians in ms and each
line's cost over the old one.
"""

from __future__ import annotations

import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hooktui.tap.install.wrapper import Tap, interpreter_of, wrap_shell

HOOKTUI = str(Path(sys.executable).parent / "hooktui")
HOOK = 'cat >/dev/null; printf \'{"decision":"allow"}\\n\''
REQUEST = b'{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}'


def timed(command: str) -> float:
    t0 = time.perf_counter()
    subprocess.run(["sh", "-c", command], input=REQUEST, capture_output=True, check=True)
    return time.perf_counter() - t0


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    with tempfile.TemporaryDirectory() as tmp:
        args = ("--label", "PreToolUse:Bash", "--runtime", "claude-code", "--stream")
        args += (f"{tmp}/s.jsonl", "--timeout-ms", "600000")
        tap = Tap(HOOKTUI, interpreter_of(HOOKTUI), args)
        lines = {
            "bare": HOOK,
            "old line": shlex.join([HOOKTUI, "tap", *args, "--", "sh", "-c", HOOK]),
            "new line": wrap_shell(HOOK, tap),
            "new, heredoc": wrap_shell(HOOK + " # $GEMINI_CWD", tap, ("$GEMINI_CWD",)),
        }
        times: dict[str, list[float]] = {name: [] for name in lines}
        for _ in range(rounds):
            for name, line in lines.items():
                times[name].append(timed(line))
    med = {name: statistics.median(t) * 1000 for name, t in times.items()}
    for name, ms in med.items():
        print(f"{name:<14} {ms:7.1f} ms   {ms / med['old line']:.2f}x the old line")


if __name__ == "__main__":
    main()
