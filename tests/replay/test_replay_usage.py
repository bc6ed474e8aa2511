"""What a user of `hooktui replay` saw and found wrong (issue 8): real commands, real files."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.replay.helpers import (
    COMMANDS,
    PYTHON,
    V1,
    guard_command,
    record_session,
    replay_cli,
    replay_json,
    request_for,
    tap,
    write_guard,
)
from tests.waits import WAIT_S, finish, join, read_line


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    d = tmp_path / "project"
    d.mkdir()
    return d


@pytest.fixture
def session(tmp_path: Path, workdir: Path) -> tuple[Path, Path, list[dict]]:
    """(stream, guard, records): the five COMMANDS through guard.py (V1 rules)."""
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, workdir)
    return stream, guard, records


def test_every_repeat_run_counts(tmp_path: Path, session):
    stream, _, records = session
    counter = tmp_path / "count"
    # Denies rm -rf on its first run only, then lets it through.
    flaky = tmp_path / "flaky.py"
    flaky.write_text(
        "import json, pathlib, sys\n"
        "req = json.load(sys.stdin)\n"
        f"c = pathlib.Path({str(counter)!r})\n"
        "if 'rm -rf' in req['tool_input']['command']:\n"
        "    n = int(c.read_text()) if c.exists() else 0\n"
        "    c.write_text(str(n + 1))\n"
        "    if n == 0:\n"
        "        print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'deny', 'permissionDecisionReason': 'destructive'}}))\n"
        "elif 'push --force' in req['tool_input']['command']:\n"
        "    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'deny', 'permissionDecisionReason': 'no force pushes'}}))\n"
    )
    args = (str(stream), "--policy", f"{PYTHON} {flaky}", "--repeat", "3", "--jobs", "1")
    proc = replay_cli(*args, "--format", "json", "--fail-on", "loosened")
    assert proc.returncode == 1, proc.stderr  # rm -rf went through on runs 2 and 3
    report = json.loads(proc.stdout)
    assert (report["changed"], report["loosened"], report["flaky"]) == (1, 1, 1)
    (change,) = report["changes"]
    assert change["id"] == records[1]["id"] and change["direction"] == "loosened"
    assert change["after"]["decision"] == "allow" and change["run"] == 2
    counter.unlink()
    text = replay_cli(*args, "--format", "text").stdout
    assert "changed loosened flaky" in text and "runs    deny, allow, allow" in text


def test_tui_without_a_terminal_refuses_in_one_line(session):
    stream, guard, _ = session
    proc = subprocess.run(
        [HOOKTUI, "replay", str(stream), "--policy", guard_command(guard), "--format", "tui"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "needs a terminal" in proc.stderr


def _pty_run(argv: list[str], *, stdin=subprocess.DEVNULL, tty_stdout: bool, env=None):
    """Run `argv` with stdout (or, if not `tty_stdout`, stderr) on a pseudo-terminal;
    returns (exit code, what the terminal got, what the pipe got)."""
    master, slave = pty.openpty()
    io = (
        {"stdout": slave, "stderr": subprocess.PIPE}
        if tty_stdout
        else {
            "stdout": subprocess.PIPE,
            "stderr": slave,
        }
    )
    proc = subprocess.Popen(argv, stdin=stdin, env=env, **io)
    os.close(slave)
    pipe = proc.stderr if tty_stdout else proc.stdout
    got = threading.Thread(target=lambda: setattr(proc, "piped", pipe.read()), daemon=True)
    got.start()
    screen = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            screen += data
        elif proc.poll() is not None:
            break
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=WAIT_S)
    join(got)
    os.close(master)
    return code, screen.decode(errors="replace"), proc.piped.decode(errors="replace")


def test_default_format_on_a_terminal_without_stdin_is_text(session):
    stream, guard, _ = session
    code, screen, err = _pty_run(
        [HOOKTUI, "replay", str(stream), "--policy", guard_command(guard)], tty_stdout=True
    )
    assert code == 0, err
    assert "replay of" in screen and "no decision or effect changed" in screen


def test_progress_on_a_terminal_only(session):
    stream, guard, _ = session
    code, screen, out = _pty_run(
        [HOOKTUI, "replay", str(stream), "--policy", guard_command(guard), "--format", "text"],
        tty_stdout=False,
    )
    assert code == 0
    assert "replaying 5/5" in screen  # on stderr, the terminal
    assert "replaying" not in out and "\x1b" not in out  # never in the piped report
    piped = replay_cli(str(stream), "--policy", guard_command(guard), "--format", "text")
    assert piped.stderr == ""


def test_no_session_reads_the_default_stream(tmp_path: Path, session):
    stream, guard, _ = session
    env = dict(os.environ, HOOKTUI_STREAM=str(stream))
    proc = replay_cli("--policy", guard_command(guard), "--format", "json", env=env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["total"] == 5
    env["HOOKTUI_STREAM"] = str(tmp_path / "nothing-yet.jsonl")
    proc = replay_cli("--policy", guard_command(guard), "--format", "json", env=env)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "nothing-yet.jsonl" in proc.stderr and "hooktui install" in proc.stderr


def test_dash_reads_the_session_from_stdin_and_fifos_work(tmp_path: Path, session):
    stream, guard, _ = session
    proc = subprocess.run(
        [HOOKTUI, "replay", "-", "--policy", guard_command(guard), "--format", "json"],
        input=stream.read_bytes(),
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["total"] == 5
    text = subprocess.run(
        [HOOKTUI, "replay", "-", "--policy", guard_command(guard), "--format", "text"],
        input=stream.read_bytes(),
        capture_output=True,
        timeout=120,
    )
    assert b"replay of standard input" in text.stdout
    fifo = tmp_path / "session.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as f:
            f.write(stream.read_bytes())

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    code, report = replay_json(str(fifo), "--policy", guard_command(guard))
    join(writer)
    assert report["total"] == 5


def test_policy_is_fed_the_records_of_the_hook_it_replaces(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    guarded = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[:3], workdir)
    # A logger on post-tool calls and a codex formatter share the stream.
    post = dict(request_for("claude-code", "ls", str(workdir)), hook_event_name="PostToolUse")
    post["tool_response"] = {"stdout": "a"}
    tap(stream, "claude-code", ["sh", "-c", "cat > /dev/null"], post, extra=["--label", "log"])
    tap(stream, "codex", ["true"], request_for("codex", "ls", str(workdir)))
    wait_for_records(stream, 5)

    # The same script name, elsewhere: its records only, and the rest said.
    edited = write_guard(workdir / "guard.py", V1)
    code, report = replay_json(str(stream), "--policy", guard_command(edited))
    assert report["total"] == 3
    assert {c["id"] for c in report["changes"]} == set()
    assert report["left_out"] == {
        "records": 2,
        "hooks": {"log": 1, "true": 1},
        "include_with": "--hook all",
    }
    text = replay_cli(str(stream), "--policy", guard_command(edited), "--format", "text").stdout
    assert "left out 2 records of other hooks: log (1), true (1); include them with --hook all" in (
        text
    )
    # Another name: the user says which hook it replaces.
    other = write_guard(tmp_path / "policy-v2.py", V1)
    proc = replay_cli(str(stream), "--policy", guard_command(other), "--format", "json")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "3 hooks (guard.py (3), log (1), true (1))" in proc.stderr and "--hook" in proc.stderr
    code, report = replay_json(str(stream), "--policy", guard_command(other), "--hook", "guard.py")
    assert [r["id"] for r in report["changes"]] == [] and report["total"] == len(guarded)
    code, report = replay_json(str(stream), "--policy", guard_command(other), "--hook", "all")
    assert report["total"] == 5 and report["left_out"]["records"] == 0
    proc = replay_cli(str(stream), "--policy", "true", "--hook", "nope", "--format", "json")
    assert proc.returncode == 2 and "no records of that hook" in proc.stderr


def test_watch_takes_no_path_of_its_own(tmp_path: Path, session):
    stream, guard, _ = session
    proc = subprocess.Popen(
        [HOOKTUI, "replay", "--watch", str(stream), "--policy", guard_command(guard)]
        + ["--format", "json"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = read_line(proc.stdout)
        assert json.loads(line)["total"] == 5
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=WAIT_S)
    assert finish(proc)[1] == ""


def test_help_for_every_command():
    from hooktui.tui.cli.main import COMMANDS

    for name in COMMANDS:
        proc = subprocess.run([HOOKTUI, "help", name], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, (name, proc.stderr)
        assert f"hooktui {name}" in proc.stdout.splitlines()[0], (name, proc.stdout[:200])
    replay_help = subprocess.run(
        [HOOKTUI, "help", "replay"], capture_output=True, text=True, timeout=60
    )
    assert "--print-command" in replay_help.stdout and "--watch[=PATH]" in replay_help.stdout
    proc = subprocess.run([HOOKTUI, "help", "nope"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_counts_are_singular_when_one(tmp_path: Path, session):
    stream, guard, _ = session
    one = tmp_path / "one.jsonl"
    one.write_bytes(stream.read_bytes().splitlines(keepends=True)[0] + b"not json\n")
    out = replay_cli(str(one), "--policy", guard_command(guard), "--format", "text").stdout
    assert ": 1 record (1 bad line ignored)" in out, out
    none = replay_cli(str(one), "--policy", "true", "--filter", "tool:Nothing").stderr
    assert "matches none of the 1 record\n" in none, none
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"not json\n")
    err = replay_cli(str(bad), "--policy", "true", "--format", "text").stderr
    assert "none of its 1 line is a record" in err
