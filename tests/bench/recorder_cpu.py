"""CPU the tap's detached recorder burns per call, as a multiple of `python -c pass`.

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/recorder_cpu.py [--rounds N] [HOOKTUI ...]

HOOKTUI defaults to this venv's `hooktui`; give several (say the `bin/hooktui`
of a venv holding an older build) to compare them in one run. This process
makes itself a child subreaper (Linux `PR_SET_CHILD_SUBREAPER`), so the
recorder the tap leaves behind is re-parented to it when the tap exits, and
`os.wait4` reports that process's own CPU (user + system): the imports plus
the work of writing one record, nothing of the tap or the hook.

Each round runs, interleaved so machine noise hits all alike, `python -c pass`
on each HOOKTUI's interpreter (whole process) and, per HOOKTUI, one tapped call
per case: a plain Claude Code request, one carrying secrets (the redaction
patterns are rebuilt from the user's cache of what `re` compiled them into,
tap/record/sre_cache.py; the first round fills it), the same with an empty
cache directory each time (`re` is imported and compiles, and the cache is
written: what the first such call on a machine costs), and a `--capture
digest` call. It prints medians and
ratios; the goal (issue 12) is at most 1.5x `python -c pass`. Run it with
PYTHONDONTWRITEBYTECODE unset: without cached bytecode every import compiles.
"""

from __future__ import annotations

import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36

PLAIN = {
    "session_id": "bench",
    "hook_event_name": "PreToolUse",
    "cwd": "/tmp",
    "tool_name": "Bash",
    "tool_input": {"command": "git status --short", "description": "status"},
    "tool_use_id": "toolu_bench",
}
SECRET = dict(
    PLAIN,
    tool_input={
        "command": "curl -H 'Authorization: Bearer abcdefghijklmnop1234' https://u:hunter22@x.io",
        "description": "GITHUB_TOKEN=ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6",
    },
)
HOOK = ["/bin/sh", "-c", 'cat >/dev/null; printf \'{"decision":"allow"}\\n\'']
CASES = {  # name: (request, extra tap options)
    "plain": (PLAIN, []),
    "secrets": (SECRET, []),
    "secrets cold": (SECRET, []),
    "digest": (
        dict(PLAIN, hook_event_name="UserPromptSubmit", prompt="hi"),
        ["--capture", "digest"],
    ),
}


def cpu_ms(usage) -> float:
    return (usage.ru_utime + usage.ru_stime) * 1000


def python_pass(python: str) -> float:
    proc = subprocess.Popen([python, "-c", "pass"])
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped here; keep Popen from waiting again
    return cpu_ms(usage)


def recorder_cpu(
    hooktui: str, stream: str, request: bytes, extra: list[str], cache: str | None = None
) -> float:
    """The CPU of the process(es) the tap left behind, once they have exited.

    `cache`: the XDG_CACHE_HOME to give it (default: the caller's)."""
    argv = [hooktui, "tap", "--stream", stream, "--label", "guard", *extra, "--", *HOOK]
    # A neutral cwd: the hook's cwd is part of the record, and redaction reads it.
    cwd = os.path.dirname(stream)
    env = dict(os.environ, XDG_CACHE_HOME=cache) if cache else None
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, cwd=cwd, env=env
    )
    proc.stdin.write(request)
    proc.stdin.close()
    os.wait4(proc.pid, 0)
    proc.returncode = 0
    total = 0.0
    while True:  # the recorder, re-parented to us as the tap exited
        try:
            _, _, usage = os.wait4(-1, 0)
        except ChildProcessError:
            return total
        total += cpu_ms(usage)


def main() -> int:
    args = sys.argv[1:]
    rounds = 40
    if args[:1] == ["--rounds"]:
        rounds, args = int(args[1]), args[2:]
    hooktuis = args or [str(Path(sys.executable).parent / "hooktui")]
    pythons = {h: interpreter(h) for h in hooktuis}
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("cannot become a child subreaper (Linux only)", file=sys.stderr)
        return 2
    base: dict[str, list[float]] = {h: [] for h in hooktuis}
    cpu: dict[tuple[str, str], list[float]] = {(h, c): [] for h in hooktuis for c in CASES}
    with tempfile.TemporaryDirectory() as tmp:
        streams = {h: os.path.join(tmp, f"{i}.jsonl") for i, h in enumerate(hooktuis)}
        for i in range(rounds + 1):  # the first round warms the page cache
            for h in hooktuis:
                spent = python_pass(pythons[h])
                if i:
                    base[h].append(spent)
                for case, (request, extra) in CASES.items():
                    cache = tempfile.mkdtemp(dir=tmp) if case.endswith("cold") else None
                    raw = json.dumps(request).encode()
                    spent = recorder_cpu(h, streams[h], raw, extra, cache)
                    if i:
                        cpu[(h, case)].append(spent)
        time.sleep(0)
        lines = {h: sum(1 for _ in open(streams[h], "rb")) for h in hooktuis}
    for h in hooktuis:
        bare = statistics.median(base[h])
        print(f"{h}")
        print(f"  {'python -c pass':>21}: {bare:6.2f} ms CPU (median of {rounds})")
        for case in CASES:
            med = statistics.median(cpu[(h, case)])
            print(
                f"  {'recorder ' + case:>21}: {med:6.2f} ms CPU = {med / bare:.2f}x python -c pass"
            )
        print(f"  {'records':>21}: {lines[h]} of {(rounds + 1) * len(CASES)} calls")
    print("goal: recorder <= 1.5x python -c pass")
    return 0


def interpreter(hooktui: str) -> str:
    """The Python a `hooktui` script runs on: its shebang's, or for the launcher
    (`#!/bin/sh`, bin/hooktui) the python3 beside it, as its shell step picks it."""
    with open(hooktui, "rb") as fh:
        first = fh.readline().decode().strip()
    named = first[2:].split()[0] if first.startswith("#!") else sys.executable
    if os.path.basename(named) in ("sh", "bash", "dash"):
        beside = os.path.join(os.path.dirname(os.path.realpath(hooktui)), "python3")
        return beside if os.access(beside, os.X_OK) else sys.executable
    return named


if __name__ == "__main__":
    sys.exit(main())
