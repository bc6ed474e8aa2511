"""Replay is safe to run on a session file someone sent you (issue 8).

Sessions are recorded through the real tap, then edited the way a hostile sender
would; the replays are real `hooktui replay` processes running real hooks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, process_alive
from tests.replay.helpers import (
    PYTHON,
    V1,
    guard_command,
    record_session,
    replay_cli,
    replay_json,
    write_guard,
)
from tests.waits import WAIT_S


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    d = tmp_path / "project"
    d.mkdir()
    return d


def recorded(tmp_path: Path, workdir: Path, commands=("rm -rf build",)) -> list[dict]:
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "recorded.jsonl"
    return record_session(stream, "claude-code", [PYTHON, str(guard)], list(commands), workdir)


def write_session(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


# A policy that denies, saying what it found in its environment and where it ran.
PROBE = """\
import json, os, sys
json.load(sys.stdin)
target = os.environ.get("CLAUDE_ENV_FILE")
if target:
    with open(target, "a") as f:  # what a SessionStart hook does with it
        f.write("export INJECTED=1\\n")
seen = {k: os.environ.get(k) for k in
        ("PATH", "LD_PRELOAD", "PYTHONPATH", "HOME", "CLAUDE_PROJECT_DIR", "CLAUDE_ENV_FILE",
         "CLAUDE_CONFIG_DIR", "HOOKTUI_REPLAY")}
seen["cwd"] = os.getcwd()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
      "permissionDecision": "deny", "permissionDecisionReason": json.dumps(seen)}}))
"""


def test_only_the_runtime_variables_come_from_the_session(tmp_path: Path, workdir: Path):
    (record,) = recorded(tmp_path, workdir)
    evil = tmp_path / "evil"
    evil.mkdir()
    ran = tmp_path / "evil-ran"
    # A `python3` that would run instead of the user's if PATH came from the session.
    (evil / "python3").write_text(f'#!/bin/sh\ntouch {ran}\nexec {PYTHON} "$@"\n')
    (evil / "python3").chmod(0o755)
    victim = tmp_path / "victim.rc"
    victim.write_text("mine\n")
    record["hook"]["env"] = {
        "PATH": f"{evil}:/usr/bin:/bin",
        "LD_PRELOAD": str(evil / "x.so"),
        "PYTHONPATH": str(evil),
        "HOME": str(evil),
        "CLAUDE_PROJECT_DIR": "/the/recorded/project",
        "CLAUDE_ENV_FILE": str(victim),
        "CLAUDE_CONFIG_DIR": "nul\u0000inside",
    }
    session = write_session(tmp_path / "sent.jsonl", [record])
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "LD_"))}
    env["PATH"] = f"{Path(PYTHON).parent}:/usr/bin:/bin"
    proc = replay_cli(
        str(session), "--policy", f"python3 {probe}", "--format", "json", env=env, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr  # deny before and after: a reason-only change
    (change,) = json.loads(proc.stdout)["changes"]
    seen = json.loads(change["after"]["reason"])
    assert not ran.exists(), "the session chose which python3 ran"
    assert seen["PATH"] == env["PATH"]
    assert seen["LD_PRELOAD"] is None and seen["PYTHONPATH"] is None
    assert seen["HOME"] == os.environ.get("HOME")
    assert seen["CLAUDE_PROJECT_DIR"] == "/the/recorded/project"  # the runtime's own: kept
    assert seen["CLAUDE_CONFIG_DIR"] is None  # a value no process can carry: dropped
    assert seen["HOOKTUI_REPLAY"] == "1"
    # The file the session named is never written; the hook wrote to a scratch file.
    assert victim.read_text() == "mine\n"
    assert seen["CLAUDE_ENV_FILE"] != str(victim)
    # --help says so.
    help_text = subprocess.run(
        [HOOKTUI, "replay", "--help"], capture_output=True, text=True, timeout=60
    )
    assert "PATH, LD_*, PYTHON*" in " ".join(help_text.stdout.split())


def test_user_runtime_variables_do_not_leak_into_a_record_without_them(
    tmp_path: Path, workdir: Path
):
    (record,) = recorded(tmp_path, workdir)
    record["hook"]["env"] = {}
    session = write_session(tmp_path / "sent.jsonl", [record])
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    env = dict(os.environ, CLAUDE_PROJECT_DIR="/where/i/am/now")
    proc = replay_cli(str(session), "--policy", f"{PYTHON} {probe}", "--format", "json", env=env)
    (change,) = json.loads(proc.stdout)["changes"]
    assert json.loads(change["after"]["reason"])["CLAUDE_PROJECT_DIR"] is None


# Leaves three kinds of process behind: a background job in its group, a `setsid`
# daemon, and a double-forked daemon in a session of its own. Each writes its pid,
# and the hook ends only once all three have.
LEAVER = """\
cat >/dev/null
mine=$(mktemp)
sleep 300 & echo $! >> "$mine"
setsid sh -c 'echo $$ >> "$1"; exec sleep 301' sh "$mine" </dev/null >/dev/null 2>&1 &
{python} -c '
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open(sys.argv[1], "a") as f:
            f.write(f"{{os.getpid()}}\\n")
        os.close(0); os.close(1); os.close(2)
        time.sleep(302)
    os._exit(0)
' "$mine"
while [ "$(wc -l < "$mine")" -lt 3 ]; do sleep 0.01; done
cat "$mine" >> {pids}
rm -f "$mine"
"""


def _leaver(tmp_path: Path) -> tuple[Path, Path]:
    pids = tmp_path / "pids"
    script = tmp_path / "leaver.sh"
    script.write_text(LEAVER.format(pids=pids, python=PYTHON))
    return script, pids


def test_nothing_a_policy_leaves_behind_survives_the_replay(tmp_path: Path, workdir: Path):
    records = recorded(tmp_path, workdir, ["rm -rf build", "ls"])
    session = write_session(tmp_path / "sent.jsonl", records)
    script, pids = _leaver(tmp_path)
    try:
        proc = replay_cli(str(session), "--policy", f"sh {script}", "--format", "json")
        assert proc.returncode in (0, 1), proc.stderr
        left = [int(p) for p in pids.read_text().split()]
        assert len(left) == 6
        deadline = time.monotonic() + WAIT_S
        while any(map(process_alive, left)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [p for p in left if process_alive(p)] == []
    finally:
        for pid in map(int, pids.read_text().split() if pids.exists() else []):
            try:
                os.kill(pid, 9)
            except OSError:
                pass


# The host of an in-process replay (as watch is): its own children, started before
# and during the replay, in its session and in sessions of their own, must survive.
HOST = """\
import json, os, subprocess, sys, time
from hooktui.replay.run import Options, replay
from hooktui.replay.session import load_session

session, policy = sys.argv[1], sys.argv[2]
mine = [subprocess.Popen(["sleep", "60"]),
        subprocess.Popen(["sleep", "60"], start_new_session=True)]
during = []
def started(result):
    during.append(subprocess.Popen(["sleep", "60"]))
report = replay(load_session(session).records, Options(policy=policy, jobs=1),
                on_result=started)
time.sleep(0.3)
print(json.dumps({"alive": [p.poll() is None for p in mine + during],
                  "total": len(report.results)}))
for p in mine + during:
    p.kill()
    p.wait()
"""


def test_replay_never_kills_its_hosts_own_children(tmp_path: Path, workdir: Path):
    records = recorded(tmp_path, workdir, ["rm -rf build", "ls"])
    session = write_session(tmp_path / "sent.jsonl", records)
    script, pids = _leaver(tmp_path)
    host = tmp_path / "host.py"
    host.write_text(HOST)
    try:
        proc = subprocess.run(
            [sys.executable, str(host), str(session), f"sh {script}"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == {"alive": [True, True, True, True], "total": 2}
        left = [int(p) for p in pids.read_text().split()]
        assert len(left) == 6 and not any(map(process_alive, left))
    finally:
        for pid in map(int, pids.read_text().split() if pids.exists() else []):
            try:
                os.kill(pid, 9)
            except OSError:
                pass


def test_a_recorded_cwd_that_is_gone_is_said_per_record(tmp_path: Path, workdir: Path):
    records = recorded(tmp_path, workdir, ["rm -rf build", "ls", "git status"])
    gone = str(tmp_path / "deleted-project")
    for record in records[:2]:
        record["hook"]["cwd"] = record["cwd"] = gone
    records[2]["hook"]["cwd"] = "relative/dir"
    records[2]["cwd"] = ""
    session = write_session(tmp_path / "sent.jsonl", records)
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    code, report = replay_json(str(session), "--policy", f"{PYTHON} {probe}", cwd=tmp_path)
    notes = {n["line"]: n["notes"] for n in report["notes"]}
    assert notes == {
        1: [f"recorded cwd {gone} no longer exists; ran in {tmp_path}"],
        2: [f"recorded cwd {gone} no longer exists; ran in {tmp_path}"],
        3: [f"recorded cwd relative/dir is not an absolute path; ran in {tmp_path}"],
    }
    proc = replay_cli(str(session), "--policy", f"{PYTHON} {probe}", "--format", "text")
    assert f"2 lines (1, 2): recorded cwd {gone} no longer exists" in proc.stdout


def test_hostile_numbers_and_words_in_a_session(tmp_path: Path, workdir: Path):
    records = recorded(tmp_path, workdir, ["rm -rf build", "ls", "git status"])
    records[0]["hook"]["timeout_ms"] = 2**63 - 1  # overflowed the poll loop
    records[1]["hook"]["timeout_ms"] = -5  # timed out at once
    records[2]["hook"]["argv"] = ["sh", "-c", "true\u0000; echo hi"]  # NUL: cannot start
    session = write_session(tmp_path / "sent.jsonl", records)
    code, report = replay_json(str(session))  # each record's own (recorded) hook
    assert (report["unchanged"], report["skipped"], report["failed"]) == (2, 1, 0)
    (skipped,) = report["skipped_records"]
    assert "NUL" in skipped["reason"] and skipped["line"] == 3


def deep_record(record: dict, depth: int) -> bytes:
    """`record` with a value nested `depth` levels inside its tool input."""
    text = json.dumps(record)
    marker = '"rm -rf build"'
    return text.replace(marker, '"rm -rf build", "deep": ' + "[" * depth + "]" * depth, 1).encode()


def test_deeply_nested_records_are_one_line_or_skipped(tmp_path: Path, workdir: Path):
    (record,) = recorded(tmp_path, workdir)
    guard = tmp_path / "guard.py"
    alone = tmp_path / "deep.jsonl"
    alone.write_bytes(deep_record(record, 10_000) + b"\n")
    proc = replay_cli(str(alone), "--policy", guard_command(guard), "--format", "text")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "nested too deep" in proc.stderr, proc.stderr
    # Among good records: counted and said as a bad line; a record just under the
    # reader's limit (but past what a recursive walk survives) is skipped, not fatal.
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(
        json.dumps(record).encode()
        + b"\n"
        + deep_record(record, 10_000)
        + b"\n"
        + deep_record(record, 900)
        + b"\n"
    )
    code, report = replay_json(str(mixed), "--policy", guard_command(guard))
    assert report["bad_lines"] == 1
    assert report["bad_line_errors"][0]["line"] == 2
    assert "nested too deep" in report["bad_line_errors"][0]["error"]
    assert report["total"] == 2 and report["failed"] == 0


def test_escape_sequences_in_a_session_never_reach_the_terminal(tmp_path: Path, workdir: Path):
    (record,) = recorded(tmp_path, workdir)
    osc = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned\x07\x9b31m"
    record["summary"] = f"rm {osc}"
    record["tool_name"] = f"Bash{osc}"
    record["reason"] = f"see {osc}"
    record["hook"]["cwd"] = record["cwd"] = f"/gone/{osc}"
    session = write_session(tmp_path / "sent.jsonl", [record])
    allow = tmp_path / "allow.py"
    allow.write_text("import sys; sys.stdin.read()\n")
    proc = replay_cli(str(session), "--policy", f"{PYTHON} {allow}", "--format", "text")
    assert proc.returncode == 1, proc.stderr
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout and "\x9b" not in proc.stdout
    assert "\\x1b]52;c;" in proc.stdout


def test_reasons_are_shown_as_written(tmp_path: Path, workdir: Path):
    recorded(tmp_path, workdir)
    session = tmp_path / "recorded.jsonl"
    reason = 'C:\\temp\\new "quoted" it\'s'
    policy = tmp_path / "policy.py"
    policy.write_text(
        textwrap.dedent(f"""\
        import json, sys
        sys.stdin.read()
        print(json.dumps({{"hookSpecificOutput": {{"hookEventName": "PreToolUse",
              "permissionDecision": "deny", "permissionDecisionReason": {reason!r}}}}}))
        """)
    )
    proc = replay_cli(str(session), "--policy", f"{PYTHON} {policy}", "--format", "text")
    assert f'after   deny  "{reason}"' in proc.stdout, proc.stdout
