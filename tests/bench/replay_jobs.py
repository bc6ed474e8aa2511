"""Benchmark: `hooktui replay` over 1,000 records against a small Python policy.

Measured side by side, in rounds that alternate the three ways so machine noise
hits them alike (the best round of each counts):
- a plain loop running the same 1,000 subprocesses (`sh -c POLICY`, the request
  on stdin, output read) with subprocess.run;
- replay with --jobs 1;
- replay with --jobs 2.
Goals (issue 4): jobs 2 <= 0.6x jobs 1; jobs 1 <= 1.1x the plain loop.

Run: .venv/bin/python tests/bench/replay_jobs.py [--records N] [--rounds R]
Replay runs in-process here (hooktui.replay.run.replay), so the ratio measures the
per-record cost of replay, not the one-off start-up of the `hooktui` command. As
`hooktui replay` does, the process marks itself HOOKTUI_REPLAY=1, and it runs from
the session's recorded cwd (replaying in the project directory, the usual case).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hooktui.replay.policy import request_bytes
from hooktui.replay.run import Options, replay
from hooktui.replay.session import load_session
from hooktui.tap.model import HookInfo, Record, encode_record

POLICY = """\
import json, sys
req = json.load(sys.stdin)
cmd = req["tool_input"]["command"]
if "rm -rf" in cmd:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "destructive"}}))
"""


def make_session(path: Path, n: int, cwd: str) -> None:
    with open(path, "wb") as f:
        for i in range(n):
            command = f"rm -rf build{i}" if i % 10 == 0 else f"echo {i}"
            request = {
                "session_id": "bench",
                "transcript_path": f"{cwd}/t.jsonl",
                "cwd": cwd,
                "permission_mode": "default",
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command},
                "tool_use_id": f"toolu_{i}",
            }
            record = Record(
                id=f"bench{i:06d}",
                ts="2026-12-02T10:00:00Z",
                runtime="claude-code",
                event="pre_tool_use",
                native_event="PreToolUse",
                tool_name="Bash",
                decision="allow",  # so every tenth record shows as tightened
                summary=command,
                cwd=cwd,
                request=request,
                hook=HookInfo(argv=["true"], cwd=cwd),
            )
            f.write(encode_record(record))


def plain_loop(records, policy: str) -> float:
    argv = ["sh", "-c", policy]
    started = time.perf_counter()
    for recorded in records:
        subprocess.run(
            argv,
            input=request_bytes(recorded.record),
            capture_output=True,
            cwd=recorded.record.cwd,
            check=False,
        )
    return time.perf_counter() - started


def replayed(records, policy: str, jobs: int) -> float:
    started = time.perf_counter()
    report = replay(records, Options(policy=policy, jobs=jobs))
    elapsed = time.perf_counter() - started
    counts = report.counts()
    expected = sum(1 for e in records if "rm -rf" in e.record.summary)
    assert counts["tightened"] == expected and counts["failed"] == 0, counts
    return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        policy_file = tmp_path / "policy.py"
        policy_file.write_text(POLICY)
        policy = f"{sys.executable} {policy_file}"
        session = tmp_path / "session.jsonl"
        make_session(session, args.records, tmp)
        records = load_session(str(session)).records
        os.environ["HOOKTUI_REPLAY"] = "1"  # as hooktui replay's main does
        os.chdir(tmp)
        best = {"loop": float("inf"), "jobs1": float("inf"), "jobs2": float("inf")}
        for r in range(args.rounds):
            times = {
                "loop": plain_loop(records, policy),
                "jobs1": replayed(records, policy, 1),
                "jobs2": replayed(records, policy, 2),
            }
            for k, v in times.items():
                best[k] = min(best[k], v)
            print(
                f"round {r + 1}: plain loop {times['loop']:.2f}s  "
                f"jobs 1 {times['jobs1']:.2f}s  jobs 2 {times['jobs2']:.2f}s",
                flush=True,
            )
    cpus = len(os.sched_getaffinity(0))
    n = args.records
    print(f"{n} records, {cpus} CPUs, best of {args.rounds} rounds:")
    print(
        f"  plain loop of {n} subprocesses  {best['loop']:.2f}s ({best['loop'] / n * 1000:.1f} ms each)"
    )
    print(f"  replay --jobs 1                {best['jobs1']:.2f}s")
    print(f"  replay --jobs 2                {best['jobs2']:.2f}s")
    r2 = best["jobs2"] / best["jobs1"]
    r1 = best["jobs1"] / best["loop"]
    print(f"jobs 2 / jobs 1     = {r2:.2f}x (goal <= 0.6x)  {'ok' if r2 <= 0.6 else 'MISSED'}")
    print(f"jobs 1 / plain loop = {r1:.2f}x (goal <= 1.1x)  {'ok' if r1 <= 1.1 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
