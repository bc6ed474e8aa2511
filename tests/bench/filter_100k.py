"""Benchmark: filtering 100k RecordHeads with the filter language (issue 3: under 300 ms).

    .venv/bin/python tests/bench/filter_100k.py [N]

Compiles each expression once, then times one pass over N heads (best of 5).
Not collected by pytest; exits non-zero if any expression misses the goal.
"""

from __future__ import annotations

import random
import sys
import time

from hooktui.tap.model import HookHead, RecordHead
from hooktui.tap.read.filter import compile_filter

GOAL_MS = 300.0
EXPRESSIONS = [
    "",
    "decision:deny",
    "tool:mcp__*",
    "event:post latency>50ms",
    "git status",
    '-decision:allow or (tool:Bash "rm -rf") or exit!=0',
    "hook:guard runtime:codex latency>=1s or failure:timeout effect:proceeds",
    "not (tool:Bash or tool:Edit) and session:sess-1* and summary:echo",
]


def make_heads(n: int) -> list[RecordHead]:
    rng = random.Random(3)
    tools = ["Bash", "Edit", "Read", "mcp__github__create_issue", "apply_patch"]
    decisions = ["allow"] * 8 + ["deny", "ask", "modify", "failure"]
    return [
        RecordHead(
            id=f"{i:08x}",
            ts=f"2026-03-01T10:{(i // 60) % 60:02d}:{i % 60:02d}Z",
            runtime=rng.choice(["claude-code", "codex", "gemini-cli"]),
            event=rng.choice(["pre_tool_use", "post_tool_use", "user_prompt"]),
            tool_name=rng.choice(tools),
            decision=(d := rng.choice(decisions)),
            failure="timeout" if d == "failure" else "",
            effect="proceeds" if d == "failure" else "",
            reason="blocked by policy" if d == "deny" else "",
            duration_ms=rng.expovariate(1 / 40),
            exit_code=rng.choice([0, 0, 0, 2]),
            summary=f"git status && echo {i} " + "x" * rng.randint(0, 80),
            session_id=f"sess-{i // 500}",
            hook=HookHead(label="guard.py"),
        )
        for i in range(n)
    ]


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    heads = make_heads(n)
    worst = 0.0
    print(f"{n:,} heads, goal < {GOAL_MS:.0f} ms per pass")
    for expr in EXPRESSIONS:
        pred = compile_filter(expr)
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            matched = sum(1 for h in heads if pred(h))
            best = min(best, time.perf_counter() - t0)
        worst = max(worst, best)
        print(f"{best * 1000:7.1f} ms  {matched:7,} match  {expr or '(empty)'}")
    return 0 if worst * 1000 < GOAL_MS else 1


if __name__ == "__main__":
    sys.exit(main())
