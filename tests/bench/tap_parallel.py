"""Tapped hook calls per second, 8 at a time, against the same hook bare.

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/tap_parallel.py [CALLS] [--hooktui PATH] [--secrets]

Eight threads each start calls one after another (as eight agents or
subagents would); a tapped round ends when every record is in the stream, so
the detached recorders' CPU counts: at this load the machine is CPU-bound on
them (issue 12 measured 21 tapped calls/s against 613 bare). Bare and tapped
rounds alternate, three each; the medians and their ratio are printed.
`--hooktui` picks the launcher (default: the one beside this interpreter);
`--secrets` sends a request holding secrets (recorder_cpu.py's), so every
record is redacted (from the user's cache of compiled patterns, once warm).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

WORKERS = 8
SECRETS = False
REQUEST = (
    b'{"session_id":"bench","hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash",'
    b'"tool_input":{"command":"git status --short"},"tool_use_id":"toolu_bench"}'
)
SECRET_REQUEST = (
    b'{"session_id":"bench","hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash",'
    b'"tool_input":{"command":"curl -H \'Authorization: Bearer abcdefghijklmnop1234\' '
    b'https://u:hunter22@x.io","description":"GITHUB_TOKEN=ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6"},'
    b'"tool_use_id":"toolu_bench"}'
)
HOOK = ["/bin/sh", "-c", 'cat >/dev/null; printf \'{"decision":"allow"}\\n\'']


def call(argv: list[str]) -> None:
    r, w = os.pipe()
    os.write(w, SECRET_REQUEST if SECRETS else REQUEST)
    os.close(w)
    null = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, r, 0), (os.POSIX_SPAWN_DUP2, null, 1)]
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    os.waitpid(pid, 0)
    os.close(r)
    os.close(null)


def lines(path: str) -> int:
    try:
        with open(path, "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


def round_per_s(argv: list[str], calls: int, stream: str | None) -> float:
    """Calls per second for `calls` calls on WORKERS threads (until recorded, if tapped)."""
    before = lines(stream) if stream else 0
    per_worker = calls // WORKERS

    def work() -> None:
        for _ in range(per_worker):
            call(argv)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=work) for _ in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if stream:
        deadline = time.monotonic() + 300
        while lines(stream) < before + per_worker * WORKERS and time.monotonic() < deadline:
            time.sleep(0.005)
    return per_worker * WORKERS / (time.perf_counter() - t0)


def main() -> int:
    args = sys.argv[1:]
    hooktui = str(Path(sys.executable).with_name("hooktui"))
    if "--hooktui" in args:
        i = args.index("--hooktui")
        hooktui = args[i + 1]
        del args[i : i + 2]
    global SECRETS
    SECRETS = "--secrets" in args
    args = [a for a in args if a != "--secrets"]
    calls = int(args[0]) if args else 160
    with tempfile.TemporaryDirectory() as tmp:
        stream = os.path.join(tmp, "stream.jsonl")
        tapped = [hooktui, "tap", "--timeout-ms", "600000", "--stream", stream, "--", *HOOK]
        round_per_s(tapped, WORKERS, stream)  # warm up
        bare, tap = [], []
        for _ in range(3):
            bare.append(round_per_s(HOOK, calls, None))
            tap.append(round_per_s(tapped, calls, stream))
        recorded, expected = lines(stream), WORKERS + 3 * (calls // WORKERS) * WORKERS
    b, t = statistics.median(bare), statistics.median(tap)
    print(f"{'bare hook':>14}: {b:7.1f} calls/s  ({', '.join(f'{x:.0f}' for x in bare)})")
    print(f"{'tapped':>14}: {t:7.1f} calls/s  ({', '.join(f'{x:.0f}' for x in tap)})")
    print(f"{'ratio':>14}: tapped = {t / b:.3f}x bare ({WORKERS} at a time, until recorded)")
    print(f"{'recorded':>14}: {recorded} lines for {expected} tapped calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
