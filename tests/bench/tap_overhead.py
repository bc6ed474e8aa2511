"""How much `hooktui tap` adds to a hook call, as a multiple of a bare Python start.

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/tap_overhead.py [ROUNDS]

Each round runs, interleaved so machine noise hits all alike: the bare hook,
the same hook through `<venv>/bin/hooktui tap --stream <tmp> --`, again with
`--timeout-ms` (as `hooktui install` writes it: the watchdog is armed), and
`python -c pass` on the venv's interpreter. It prints the medians and
`(tapped - bare) / python_pass`; the goal (issue 12) is at most 0.8x. In an
editable venv `python -c pass` itself is slower (its `site` imports setuptools'
finder, which the tap skips): tap_install_kinds.py compares both kinds of
install against one unit.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VENV_BIN = Path(sys.executable).parent
HOOKTUI = str(VENV_BIN / "hooktui")
REQUEST = json.dumps(
    {
        "session_id": "bench",
        "hook_event_name": "PreToolUse",
        "cwd": "/tmp",
        "tool_name": "Bash",
        "tool_input": {"command": "git status --short", "description": "status"},
        "tool_use_id": "toolu_bench",
    }
).encode()
HOOK = ["/bin/sh", "-c", 'cat >/dev/null; printf \'{"decision":"allow"}\\n\'']


def run(argv: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        argv, input=REQUEST, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
    )
    return time.perf_counter() - t0


def wait_lines(path: str, count: int) -> float:
    """perf_counter() once `path` holds `count` lines (gives up after 10 s)."""
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline:
        if os.path.exists(path) and open(path, "rb").read().count(b"\n") >= count:
            break
        time.sleep(0.002)
    return time.perf_counter()


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    with tempfile.TemporaryDirectory() as tmp:
        stream = os.path.join(tmp, "stream.jsonl")
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "bare hook": HOOK,
            "tapped hook": [HOOKTUI, "tap", "--stream", stream, "--", *HOOK],
            # As `hooktui install` writes it: with a timeout, the watchdog is
            # armed (but a hook this fast never forks it).
            "tapped, timeout": [
                HOOKTUI,
                "tap",
                "--timeout-ms",
                "600000",
                "--stream",
                stream,
                "--",
                *HOOK,
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        lag: list[float] = []  # answer back -> record in the stream
        tapped = [name for name, argv in cases.items() if argv[0] == HOOKTUI]
        for argv in cases.values():  # warm the page cache
            run(argv)
        lines = len(tapped)
        for _ in range(rounds):
            for name, argv in cases.items():
                times[name].append(run(argv))
                if name in tapped:
                    # Let the detached recorder finish before the next timing,
                    # so its CPU does not land on another case's clock.
                    done = time.perf_counter()
                    lines += 1
                    lag.append(wait_lines(stream, lines) - done)
        recorded = sum(1 for _ in open(stream, "rb"))
    med = {name: statistics.median(values) * 1000 for name, values in times.items()}
    for name, value in med.items():
        print(f"{name:>16}: median {value:7.2f} ms  (min {min(times[name]) * 1000:6.2f})")
    for name in tapped:
        overhead = (med[name] - med["bare hook"]) / med["python -c pass"]
        print(f"{'overhead':>16}: {overhead:.2f}x python -c pass  ({name}; goal <= 0.8x)")
    calls = (rounds + 1) * len(tapped)
    print(f"{'recorded':>16}: {recorded} lines for {calls} tapped calls")
    print(f"{'record lag':>16}: median {statistics.median(lag) * 1000:.1f} ms after the answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
