"""Breakpoints end to end at the tap: real `hooktui tap` processes, a real HoldServer.

The server is the dashboard's model without Textual; the watch tests drive the
same through the app's keys.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from hooktui.tap.hold import answers, place
from hooktui.tap.hold.budget import hold_budget
from hooktui.tap.hold.server import HoldError, HoldServer
from hooktui.tap.hotpath import shim

from tests.conftest import HOOKTUI
from tests.hold_helpers import (
    REQUEST,
    finish,
    private_runtime_dir,
    records,
    start_tap,
    wait_for,
)
from tests.waits import WAIT_S, read_line

DENY_JSON = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}


@pytest.fixture
def runtime_dir(monkeypatch):
    path = private_runtime_dir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", path)
    return path


@pytest.fixture
def server(runtime_dir):
    srv = HoldServer()
    srv.set_breakpoint("tool:Bash")
    yield srv
    srv.close()


def held_one(srv: HoldServer, count: int = 1):
    return wait_for(lambda: len(srv.held()) >= count and srv.held())


def test_deny_from_the_dashboard_sends_the_runtimes_own_deny(server, tmp_path):
    stream = tmp_path / "s.jsonl"
    tap = start_tap(stream, os.environ["XDG_RUNTIME_DIR"])
    call = held_one(server)[0]
    assert call.record.decision == "allow" and call.record.tool_name == "Bash"
    assert 0 < call.left_s() <= hold_budget(60_000, 0)
    assert server.release(call.number, answers.deny(call, "not on main"))
    out, _err, code = finish(tap)
    sent = json.loads(out)["hookSpecificOutput"]
    assert (
        sent["permissionDecision"] == "deny" and sent["permissionDecisionReason"] == "not on main"
    )
    assert code == 0
    (rec,) = records(stream)
    # The record keeps the hook's own answer, and says what went instead.
    assert rec["decision"] == "allow" and rec["stdout"]["data"] == ""
    held = rec["held"]
    assert held["released_by"] == "person" and held["action"] == "deny"
    assert held["sent"]["decision"] == "deny" and held["sent"]["reason"] == "not on main"
    assert json.loads(held["sent"]["stdout"]) == json.loads(out)


def test_allow_edit_and_the_hooks_own_answer(server, tmp_path):
    stream = tmp_path / "s.jsonl"
    deny_hook = ["sh", "-c", f"cat >/dev/null; echo '{json.dumps(DENY_JSON)}'"]
    taps = [start_tap(stream, os.environ["XDG_RUNTIME_DIR"], hook=deny_hook) for _ in range(3)]
    calls = held_one(server, 3)  # three held at once, in one queue
    assert len({c.number for c in calls}) == 3
    assert all(c.record.decision == "deny" for c in calls)
    server.release(calls[0].number, answers.allow(calls[0]))
    server.release(calls[1].number, answers.rewrite(calls[1], {"command": "git push"}))
    server.release(calls[2].number, answers.own())
    outs = [finish(t)[0] for t in taps]
    answers_sent = [json.loads(o) if o.strip() else {} for o in outs]
    decisions = sorted(
        a.get("hookSpecificOutput", {}).get("permissionDecision", "none") for a in answers_sent
    )
    # allow: no output (Claude Code's plain allow); the rewrite: allow + updatedInput;
    # the hook's own answer: its deny.
    assert decisions == ["allow", "deny", "none"]
    rewrite = [a for a in answers_sent if a.get("hookSpecificOutput", {}).get("updatedInput")]
    assert rewrite[0]["hookSpecificOutput"]["updatedInput"] == {"command": "git push"}
    recs = wait_for(lambda: len(records(stream)) == 3 and records(stream))
    actions = sorted(r["held"]["action"] for r in recs)
    assert actions == ["allow", "edit", "hook"]
    own = next(r for r in recs if r["held"]["action"] == "hook")
    assert "sent" not in own["held"]  # the hook's own answer went: nothing instead


def test_at_the_deadline_the_hooks_answer_goes_through(server, tmp_path):
    stream = tmp_path / "s.jsonl"
    deny_hook = ["sh", "-c", f"cat >/dev/null; echo '{json.dumps(DENY_JSON)}'"]
    # A 6 s timeout leaves a 4 s hold (2 s before the runtime's timeout), counted from
    # the tap's start: room for a loaded machine's start-up. The record says it was held
    # (looking for the held call instead would race its release).
    tap = start_tap(stream, os.environ["XDG_RUNTIME_DIR"], timeout_ms=6000, hook=deny_hook)
    out, _err, code = finish(tap)
    assert json.loads(out) == DENY_JSON and code == 0
    (rec,) = records(stream)
    assert rec["held"]["released_by"] == "deadline" and rec["held"]["action"] == "hook"
    assert rec["held"]["held_ms"] < 6000
    wait_for(lambda: not server.held())


def test_a_call_that_does_not_match_is_not_held(server, tmp_path):
    stream = tmp_path / "s.jsonl"
    other = dict(REQUEST, tool_name="Read", tool_input={"file_path": "/etc/hosts"})
    out, _err, code = finish(start_tap(stream, os.environ["XDG_RUNTIME_DIR"], other), timeout=20)
    assert (out, code) == (b"", 0)
    assert not server.held()
    assert "held" not in records(stream)[0]


def test_no_dashboard_never_waits(runtime_dir, tmp_path):
    stream = tmp_path / "s.jsonl"
    assert shim._hold_socket() == b""  # no socket: the one stat says so
    t0 = time.monotonic()
    out, _err, code = finish(start_tap(stream, runtime_dir))
    # A hold would last 46 s here (60 s timeout): far from this.
    assert time.monotonic() - t0 < hold_budget(60_000, 0) / 4
    assert (out, code) == (b"", 0) and "held" not in records(stream)[0]


def test_a_dead_dashboards_socket_is_not_waited_on(runtime_dir, tmp_path):
    """A dashboard SIGKILLed without a call left its socket behind: nobody listens."""
    path = place.socket_path()
    place.private_dir(os.path.dirname(path))
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(path)
    stale.close()  # bound, never listening: as after a crash
    stream = tmp_path / "s.jsonl"
    t0 = time.monotonic()
    out, _err, code = finish(start_tap(stream, runtime_dir))
    assert time.monotonic() - t0 < hold_budget(60_000, 0) / 4
    assert (out, code) == (b"", 0) and "held" not in records(stream)[0]
    # The next dashboard takes the path over.
    srv = HoldServer()
    srv.set_breakpoint("tool:Bash")
    srv.close()


DASHBOARD = """
import sys, time
from hooktui.tap.hold.server import HoldServer
srv = HoldServer()
srv.set_breakpoint("tool:Bash")
print("ready", flush=True)
while not srv.held():
    time.sleep(0.02)
print("held", flush=True)
time.sleep(600)
"""


def test_a_dashboard_killed_while_holding_lets_the_call_go(runtime_dir, tmp_path):
    stream = tmp_path / "s.jsonl"
    deny_hook = ["sh", "-c", f"cat >/dev/null; echo '{json.dumps(DENY_JSON)}'"]
    dash = subprocess.Popen([sys.executable, "-c", DASHBOARD], stdout=subprocess.PIPE, text=True)
    try:
        assert read_line(dash.stdout).strip() == "ready"
        tap = start_tap(stream, runtime_dir, hook=deny_hook)
        assert read_line(dash.stdout).strip() == "held"
        dash.send_signal(signal.SIGKILL)
        out, _err, code = finish(tap)
    finally:
        dash.kill()
        dash.wait(timeout=WAIT_S)
    assert json.loads(out) == DENY_JSON and code == 0
    assert records(stream)[0]["held"]["released_by"] == "dashboard-gone"


def test_a_dashboard_that_does_not_answer_in_time_is_named_in_the_record(runtime_dir, tmp_path):
    """A dashboard stopped (Ctrl-Z) or starved on a loaded machine: its kernel still
    accepts, it never says hold or pass. The hook's answer goes through after the
    offer window, and the record says why the breakpoint let the call by."""
    stream = tmp_path / "s.jsonl"
    deny_hook = ["sh", "-c", f"cat >/dev/null; echo '{json.dumps(DENY_JSON)}'"]
    dash = subprocess.Popen([sys.executable, "-c", DASHBOARD], stdout=subprocess.PIPE, text=True)
    try:
        assert read_line(dash.stdout).strip() == "ready"
        dash.send_signal(signal.SIGSTOP)
        out, _err, code = finish(start_tap(stream, runtime_dir, hook=deny_hook))
    finally:
        dash.send_signal(signal.SIGCONT)
        dash.kill()
        dash.wait(timeout=WAIT_S)
    assert json.loads(out) == DENY_JSON and code == 0
    (record,) = records(stream)
    assert record["held"] == {"held_ms": 0.0, "released_by": "dashboard-slow", "action": "hook"}
    assert record["decision"] == "deny"
    shown = subprocess.run(
        [HOOKTUI, "show", str(stream)], capture_output=True, text=True, timeout=WAIT_S
    )
    assert "⏵ unheld" in shown.stdout, shown.stdout + shown.stderr
    assert "⏸" not in shown.stdout  # it was never held


def test_one_dashboard_holds_breakpoints_at_a_time(server):
    second = HoldServer()
    with pytest.raises(HoldError, match="another dashboard"):
        second.set_breakpoint("tool:Bash")
    server.set_breakpoint("")  # cleared: the socket is gone, the path free
    assert not os.path.exists(server.path)
    second.set_breakpoint("tool:Bash")
    second.close()


def shim_socket(env: dict | None = None) -> bytes:
    """What a tap (another process: the lock is per process) finds."""
    probe = "import sys; from hooktui.tap.hotpath import shim; sys.stdout.buffer.write(shim._hold_socket())"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, env=env, timeout=60, check=True
    )
    return done.stdout


def test_the_shim_and_the_server_agree_on_the_socket(server, monkeypatch):
    assert shim_socket() == server.path.encode()
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    state = os.path.join(os.environ["XDG_STATE_HOME"], "hooktui")
    assert place.socket_path() == os.path.join(state, "hold.sock")


def test_the_budget_stays_inside_the_timeout():
    assert hold_budget(60_000, 0) == 48.0
    assert hold_budget(5_000, 0) == 3.0  # 2 s before the timeout
    assert hold_budget(2_000, 0) == 0.0  # too short to hold
    assert hold_budget(60_000, 47.8) == 0.0
    assert hold_budget(None, 0) == 24.0  # nothing known: 30 s assumed


def test_a_runtime_ending_the_tap_ends_the_hold(server, tmp_path):
    """SIGTERM to a tap holding a call (the runtime gave up): the hook's answer, at once."""
    stream = tmp_path / "s.jsonl"
    tap = start_tap(stream, os.environ["XDG_RUNTIME_DIR"])
    held_one(server)
    tap.send_signal(signal.SIGTERM)
    out, _err, code = finish(tap, timeout=10)  # well before the 46 s hold would end
    assert (out, code) == (b"", 0)
    assert records(stream)[0]["held"]["released_by"] == "runtime-ended"


def test_an_answer_too_big_to_hold_is_not_offered(server, tmp_path):
    stream = tmp_path / "s.jsonl"
    big = ["sh", "-c", "cat >/dev/null; head -c 5000000 /dev/zero | tr '\\\\0' x"]
    out, _err, code = finish(start_tap(stream, os.environ["XDG_RUNTIME_DIR"], hook=big))
    assert len(out) == 5_000_000 and code == 0
    assert not server.held() and "held" not in records(stream)[0]


def test_a_regular_install_ships_the_hold_package():
    """`pip install .` installs the listed packages only (pyproject's explicit list)."""
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "hooktui.tap.hold" in pyproject["tool"]["setuptools"]["packages"]


def test_a_bad_offer_is_hung_up_on_and_the_dashboard_goes_on(server, tmp_path):
    from hooktui.tap.hold import wire

    for frame in (b"\x00\x00\x00\x05[1,2", b'\x00\x00\x00\x0b{"argv": 5}'):
        probe = socket.socket(socket.AF_UNIX)
        probe.connect(server.path)
        probe.sendall(frame)
        probe.shutdown(socket.SHUT_WR)
        probe.settimeout(10)
        assert wire.receive(probe) is None  # closed without a word
        probe.close()
    stream = tmp_path / "s.jsonl"
    tap = start_tap(stream, os.environ["XDG_RUNTIME_DIR"])
    call = held_one(server)[0]
    server.release(call.number, answers.own())
    assert finish(tap)[2] == 0
