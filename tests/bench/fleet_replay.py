"""Benchmark: fleet replay on a Dask LocalCluster against the local replay, same stream.

Side by side, in rounds that alternate them so machine noise hits both alike (the best
round of each counts), each as a user runs it (the `hooktui` command, start-up and, for
the cluster, starting its two worker processes included):
- `hooktui replay S --policy P --jobs 2`
- `hooktui replay S --policy P --cluster local:2`
on a stream where every request differs (nothing for the cluster to save), and on one
where each request repeats ten times, as a fleet's do (the cluster runs each distinct
request once; the local replay runs every record).

Run: .venv/bin/python tests/bench/fleet_replay.py [--records N] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hooktui.tap.model import HookInfo, Record, encode_record

HOOKTUI = str(Path(sys.executable).with_name("hooktui"))
POLICY = """\
import json, sys
req = json.load(sys.stdin)
if "rm -rf" in req["tool_input"]["command"]:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "destructive"}}))
"""


def make_stream(path: Path, n: int, cwd: str, distinct: int) -> None:
    with open(path, "wb") as f:
        for i in range(n):
            k = i % distinct
            command = f"rm -rf build{k}" if k % 10 == 0 else f"echo {k}"
            request = {
                "session_id": f"session-{i // 50}",
                "transcript_path": f"{cwd}/t.jsonl",
                "cwd": cwd,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command},
                "tool_use_id": f"toolu_{i:08d}",
            }
            f.write(
                encode_record(
                    Record(
                        id=f"bench{i:07d}",
                        ts="2026-12-02T10:00:00.000000Z",
                        runtime="claude-code",
                        event="pre_tool_use",
                        native_event="PreToolUse",
                        tool_name="Bash",
                        decision="allow",
                        summary=command,
                        session_id=request["session_id"],
                        tool_call_id=request["tool_use_id"],
                        cwd=cwd,
                        tool_input=request["tool_input"],
                        request=request,
                        hook=HookInfo(argv=["true"], cwd=cwd),
                    )
                )
            )


def timed(args: list[str], cwd: str) -> tuple[float, dict]:
    started = time.perf_counter()
    proc = subprocess.run(
        [HOOKTUI, "replay", *args, "--format", "json"],
        capture_output=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=3600,
    )
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        sys.exit(f"replay failed: {proc.stderr.decode()[-500:]}")
    report = json.loads(proc.stdout)
    return wall, report


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=2)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        policy = Path(tmp, "policy.py")
        policy.write_text(POLICY)
        cases = {
            "every request differs": opts.records,
            "each request ten times": opts.records // 10,
        }
        for label, distinct in cases.items():
            stream = Path(tmp, f"s{distinct}.jsonl")
            make_stream(stream, opts.records, tmp, distinct)
            base = [str(stream), "--policy", f"{sys.executable} {policy}"]
            ways = {"--jobs 2": ["--jobs", "2"], "--cluster local:2": ["--cluster", "local:2"]}
            best = dict.fromkeys(ways, float("inf"))
            reports = {}
            for _ in range(opts.rounds):
                for name, extra in ways.items():
                    wall, report = timed(base + extra, tmp)
                    best[name] = min(best[name], wall)
                    reports[name] = report
            local, fleet = reports["--jobs 2"], reports["--cluster local:2"]
            same = {k: v for k, v in local.items() if k != "session"} == {
                k: v for k, v in fleet.items() if k not in ("session", "fleet")
            }
            ratio = best["--cluster local:2"] / best["--jobs 2"]
            print(
                f"{label}: {opts.records} records; --jobs 2 {best['--jobs 2']:.1f} s, "
                f"--cluster local:2 {best['--cluster local:2']:.1f} s: {ratio:.2f}x; "
                f"same report: {same}; fleet {fleet['fleet']}"
            )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
