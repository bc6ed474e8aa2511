"""Benchmark: `hooktui show --filter` against jq and msgspec one-liners, time and peak RSS.

Issue 12 asks that `show` streams: constant memory whatever the file size, and
a filtered pass within 1.2x of a msgspec one-liner that streams. Each size is
generated here (records of about 1.6 KB, like real ones), never committed, and
every command runs on the same file, interleaved, best of RUNS. Run:

    .venv/bin/python tests/bench/show_filter.py [N ...]     # default: 100000 1000000

Not collected by pytest (no test_ prefix); timing goals live here, not in tests.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hooktui.tap import model

RUNS = 3
TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
HOOKTUI = str(Path(sys.executable).with_name("hooktui"))
TOOLS = ["Bash", "Edit", "Read", "Write", "mcp__github__create_issue", "apply_patch"]
DECISIONS = ["allow"] * 8 + ["deny", "ask", "modify", "failure"]

# The one-liners a user would write instead. The dict one decodes whole
# records; the struct one decodes the single field it tests (the floor).
ONE_LINER_DICT = (
    "import sys,msgspec\n"
    "d=msgspec.json.decode;w=sys.stdout.buffer.write\n"
    "for l in sys.stdin.buffer:\n"
    "  if d(l).get('decision')=='deny': w(l)\n"
)
ONE_LINER_STRUCT = (
    "import sys,msgspec\n"
    "class H(msgspec.Struct):\n  decision: str = ''\n"
    "d=msgspec.json.Decoder(H).decode;w=sys.stdout.buffer.write\n"
    "for l in sys.stdin.buffer:\n"
    "  if d(l).decision=='deny': w(l)\n"
)


def as_recorded(request: dict) -> dict:
    """The canonical call a v2 tap stores beside the request (nothing for a v1 model),
    so the same script measures the streams each version writes."""
    if "tool_input" not in model.Record.__struct_fields__:
        return {}
    return {"tool_input": request["tool_input"], "tool_output": request.get("tool_response")}


def make_record(i: int, rng: random.Random) -> model.Record:
    tool = rng.choice(TOOLS)
    command = f"git log --oneline -n {i} && echo " + "x" * rng.randint(10, 200)
    post = rng.random() < 0.5
    request = {
        "session_id": "sess-" + str(i // 500),
        "transcript_path": "/home/user/.claude/projects/p/" + "t" * 40 + ".jsonl",
        "hook_event_name": "PostToolUse" if post else "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command, "description": "run it"},
        "tool_response": {"stdout": "ok line of output\n" * rng.randint(10, 40)},
    }
    return model.Record(
        id=f"{i:08x}",
        ts=f"2026-03-01T{(i // 3600) % 24:02d}:{(i // 60) % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z",
        runtime=rng.choice(model.RUNTIMES[:4]),
        event="post_tool_use" if post else "pre_tool_use",
        native_event="PostToolUse" if post else "PreToolUse",
        tool_name=tool,
        decision=rng.choice(DECISIONS),
        duration_ms=rng.expovariate(1 / 40),
        exit_code=0,
        summary=command[:120],
        session_id="sess-" + str(i // 500),
        cwd="/home/user/project",
        request=request,
        **as_recorded(request),
        hook=model.HookInfo(label="guard.py", argv=["python3", "guard.py"], timeout_ms=60000),
        stdout=model.Blob(data='{"decision":"allow"}', length=20, sha256="0" * 64),
    )


def write_stream(path: Path, n: int) -> None:
    rng = random.Random(7)
    # A few thousand distinct records repeated with fresh ids: generating 1M
    # from scratch would take longer than the benchmark itself.
    base = [model.encode_record(make_record(i, rng)) for i in range(min(n, 5000))]
    with path.open("wb", buffering=1 << 20) as f:
        for i in range(n):
            line = base[i % len(base)]
            f.write(line.replace(b'"id":"', b'"id":"%08x-' % i, 1))


def run(cmd: list[str], stdin: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one run, output to /dev/null.

    Peak RSS comes from GNU time when it is there: a child forked from this
    (large) process would report this process's size as its own floor.
    """
    with tempfile.NamedTemporaryFile("r") as report:
        wrap = [TIME, "-f", "%M", "-o", report.name] if TIME else []
        with stdin.open("rb") as fin, open(os.devnull, "wb") as fout:
            t0 = time.perf_counter()
            proc = subprocess.Popen([*wrap, *cmd], stdin=fin, stdout=fout)
            _, status, usage = os.wait4(proc.pid, 0)
            elapsed = time.perf_counter() - t0
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            raise SystemExit(f"{cmd[:3]} exited {code}")
        text = report.read().strip().splitlines()
        return elapsed, int(text[-1]) if text else usage.ru_maxrss


def commands(path: Path) -> dict[str, list[str]]:
    p = str(path)
    cmds = {
        "show --format json": [HOOKTUI, "show", "-f", "decision:deny", "--format", "json", p],
        "show (text)": [HOOKTUI, "show", "-f", "decision:deny", p],
        "msgspec one-liner (dict)": [sys.executable, "-c", ONE_LINER_DICT],
        "msgspec one-liner (1 field)": [sys.executable, "-c", ONE_LINER_STRUCT],
    }
    if shutil.which("jq"):
        cmds["jq"] = ["jq", "-c", 'select(.decision=="deny")', p]
    return cmds


def bench(n: int, tmp: Path) -> None:
    path = tmp / f"stream-{n}.jsonl"
    write_stream(path, n)
    size = path.stat().st_size
    print(f"\n{n:,} records, {size / 1e6:.0f} MB ({size / n:.0f} B each)")
    cmds = commands(path)
    best = {name: (float("inf"), 0) for name in cmds}
    for _ in range(RUNS):
        for name, cmd in cmds.items():  # interleaved: drift hits all alike
            t, rss = run(cmd, path)
            best[name] = (min(best[name][0], t), max(best[name][1], rss))
    ref_t, ref_rss = best["msgspec one-liner (dict)"]
    floor_t, floor_rss = best["msgspec one-liner (1 field)"]
    print(f"{'command':30} {'time':>8} {'peak RSS':>10} {'/dict':>7} {'/1-field':>9} {'RSS/1f':>7}")
    for name, (t, rss) in best.items():
        print(
            f"{name:30} {t:7.2f}s {rss / 1024:8.1f}Mi {t / ref_t:6.2f}x {t / floor_t:8.2f}x"
            f" {rss / floor_rss:6.2f}x"
        )


def main() -> int:
    sizes = [int(a) for a in sys.argv[1:]] or [100_000, 1_000_000]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            bench(n, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
