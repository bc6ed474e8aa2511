"""Benchmark: open a 100k-record stream to its newest call vs `json.loads` of every line.

Issue 3 asks that opening (load_stream: every line split, every head decoded,
bad lines found) takes less time than the stdlib parsing each line. Run:

    .venv/bin/python tests/bench/open_100k.py [N]

Not collected by pytest (no test_ prefix); timing goals live here, not in tests.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

from hooktui.tap import model
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.lines import load_stream, read_record_at
from hooktui.tap.runtimes import RUNTIMES

TOOLS = ["Bash", "Edit", "Read", "Write", "mcp__github__create_issue", "apply_patch"]
DECISIONS = ["allow"] * 8 + ["deny", "ask", "modify", "failure"]


def as_recorded(request: dict) -> dict:
    """The canonical call a v2 tap stores beside the request (nothing for a v1 model),
    so the same script measures the streams each version writes."""
    if "tool_input" not in model.Record.__struct_fields__:
        return {}
    return {"tool_input": request["tool_input"], "tool_output": request.get("tool_response")}


def make_record(i: int, rng: random.Random) -> model.Record:
    tool = rng.choice(TOOLS)
    command = f"git log --oneline -n {i} && echo " + "x" * rng.randint(10, 300)
    post = rng.random() < 0.5
    request = {
        "session_id": "sess-" + str(i // 500),
        "hook_event_name": "PostToolUse" if post else "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command, "description": "run it"},
        **({"tool_response": {"stdout": "ok\n" * rng.randint(1, 40)}} if post else {}),
    }
    return model.Record(
        id=f"{i:08x}",
        ts=f"2026-03-01T{(i // 3600) % 24:02d}:{(i // 60) % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z",
        runtime=rng.choice(RUNTIMES[:4]),
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
    with path.open("wb") as f:
        for i in range(n):
            f.write(model.encode_record(make_record(i, rng)))


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stream.jsonl"
        write_stream(path, n)
        size = path.stat().st_size

        def open_newest():
            entries, _ = load_stream(str(path))
            off, newest = entries[-1]
            assert not isinstance(newest, BadLine)
            full = read_record_at(str(path), off)  # the detail pane of the newest call
            assert not isinstance(full, BadLine)

        def stdlib():
            with path.open("rb") as f:
                for line in f:
                    json.loads(line)

        ours = best_of(5, open_newest)
        base = best_of(5, stdlib)
        print(f"{n:,} records, {size / 1e6:.1f} MB")
        print(f"load_stream + newest record : {ours * 1000:8.1f} ms")
        print(f"json.loads of every line    : {base * 1000:8.1f} ms")
        print(f"ratio                       : {base / ours:8.1f}x faster")
        return 0 if ours < base else 1


if __name__ == "__main__":
    sys.exit(main())
