"""`hooktui replay --watch`: edit the policy, save, and the new report appears."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import threading
from pathlib import Path

from tests.conftest import HOOKTUI
from tests.replay.helpers import (
    COMMANDS,
    PYTHON,
    V1,
    V2,
    guard_command,
    record_session,
    write_guard,
)
from tests.waits import WAIT_S, read_rest


class Lines:
    """The lines a running process prints, read in a thread so a test never blocks."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.queue: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.queue.put(line)
        self.queue.put(None)

    def until(self, needle: str, limit_s: float = 60.0) -> list[str]:
        """Lines up to and including the first one containing `needle`."""
        got: list[str] = []
        while True:
            try:
                line = self.queue.get(timeout=limit_s)
            except queue.Empty:
                raise AssertionError(f"{needle!r} never came; got {self.seen[-20:]}") from None
            if line is None:
                raise AssertionError(f"exited before {needle!r}; got {self.seen[-20:]}")
            self.seen.append(line)
            got.append(line)
            if needle in line:
                return got


def start(*args: str) -> tuple[subprocess.Popen, Lines]:
    proc = subprocess.Popen(
        [HOOKTUI, "replay", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return proc, Lines(proc)


def stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_watch_text_reprints_after_an_edit(tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, tmp_path)
    before = stream.read_bytes()
    proc, out = start(str(stream), "--policy", guard_command(guard), "--watch", "--format", "text")
    try:
        first = out.until("no decision or effect changed")
        assert any("replay #1" in line and str(guard) in line for line in first)
        write_guard(guard, V2)  # the edit
        out.until("replay #2")
        second = out.until("changed tightened")
        assert any("changed loosened" in line and "rm -rf build" in line for line in second)
        assert any("unchanged 3" in line and "loosened 1" in line for line in second)
    finally:
        code = stop(proc)
    err = read_rest(proc.stderr)
    assert err == ""
    assert code == 1  # the last report had changes
    assert stream.read_bytes() == before


def test_watch_json_one_object_per_run_and_watch_path(tmp_path: Path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"deny": ["rm -rf"]}))
    # A policy reading its rules from a data file: --watch=PATH names the file to watch.
    policy = tmp_path / "policy.py"
    policy.write_text(
        "import json, sys\n"
        f"deny = json.load(open({str(rules)!r}))['deny']\n"
        "req = json.load(sys.stdin)\n"
        "if any(w in req['tool_input']['command'] for w in deny):\n"
        "    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'deny', 'permissionDecisionReason': 'rule'}}))\n"
    )
    stream = tmp_path / "session.jsonl"
    records = record_session(
        stream, "codex", [PYTHON, str(policy)], ["rm -rf /", "ls", "sudo x"], tmp_path
    )
    proc, out = start(
        str(stream), "--policy", f"{PYTHON} {policy}", f"--watch={rules}", "--format", "json"
    )
    try:
        first = json.loads(out.until("{")[-1])
        assert (first["unchanged"], first["changed"]) == (3, 0)
        rules.write_text(json.dumps({"deny": ["sudo"]}))
        second = json.loads(out.until("{")[-1])
        changes = {c["id"]: c["direction"] for c in second["changes"]}
        assert changes == {records[0]["id"]: "loosened", records[2]["id"]: "tightened"}
    finally:
        stop(proc)
