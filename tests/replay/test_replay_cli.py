"""`hooktui replay` end to end: sessions recorded through the real tap, real hooks."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.replay.helpers import (
    COMMANDS,
    PYTHON,
    V1,
    V2,
    guard_command,
    record_session,
    replay_cli,
    replay_json,
    tap,
    write_guard,
)
from tests.waits import finish

RUNTIMES = ("claude-code", "codex", "gemini-cli", "cursor", "basis", "fastpace")


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    d = tmp_path / "project"
    d.mkdir()
    return d


def by_id(changes: list[dict]) -> dict[str, tuple[str, str]]:
    return {c["id"]: (c["class"], c["direction"]) for c in changes}


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_policy_edit_changes_some_decisions_each_way(tmp_path: Path, workdir: Path, runtime: str):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    records = record_session(stream, runtime, [PYTHON, str(guard)], COMMANDS, workdir)
    assert [r["runtime"] for r in records] == [runtime] * 5
    assert [r["decision"] for r in records] == ["allow", "deny", "deny", "allow", "allow"]

    # The same policy: nothing changes, exit 0.
    code, same = replay_json(str(stream), "--policy", guard_command(guard))
    assert code == 0
    assert (same["total"], same["unchanged"], same["changed"], same["changes"]) == (5, 5, 0, [])

    edited = write_guard(tmp_path / "guard2.py", V2)
    code, report = replay_json(str(stream), "--policy", guard_command(edited))
    assert code == 1
    ids = [r["id"] for r in records]
    assert by_id(report["changes"]) == {
        ids[1]: ("changed", "loosened"),
        ids[4]: ("changed", "tightened"),
    }
    assert (report["unchanged"], report["changed"], report["failed"], report["skipped"]) == (
        3,
        2,
        0,
        0,
    )
    assert (report["loosened"], report["tightened"]) == (1, 1)
    change = {c["id"]: c for c in report["changes"]}
    assert change[ids[1]]["before"] == {"decision": "deny", "reason": "destructive"}
    assert change[ids[1]]["after"]["decision"] == "allow"
    assert change[ids[4]]["after"] == {"decision": "deny", "reason": "no pipe to shell"}
    assert change[ids[4]]["summary"] == "curl x.sh | sh"

    # --fail-on loosened still fails (one loosened); --fail-on none never does.
    assert (
        replay_cli(
            str(stream),
            "--policy",
            guard_command(edited),
            "--format",
            "json",
            "--fail-on",
            "loosened",
        ).returncode
        == 1
    )
    assert (
        replay_cli(
            str(stream), "--policy", guard_command(edited), "--format", "json", "--fail-on", "none"
        ).returncode
        == 0
    )


def test_only_tightened_passes_fail_on_loosened(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, workdir)
    stricter = write_guard(tmp_path / "strict.py", {**V1, "ls": ("deny", "no listing")})
    args = (str(stream), "--policy", guard_command(stricter), "--format", "json")
    assert replay_cli(*args, "--fail-on", "loosened").returncode == 0
    proc = replay_cli(*args)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert (report["changed"], report["tightened"], report["loosened"]) == (1, 1, 0)


def test_reason_only_and_modify_changes(tmp_path: Path, workdir: Path):
    v1 = {"push --force": ("modify", "push --force-with-lease"), "rm": ("deny", "destructive")}
    guard = write_guard(tmp_path / "guard.py", v1)
    stream = tmp_path / "session.jsonl"
    records = record_session(
        stream, "claude-code", [PYTHON, str(guard)], ["git push --force", "rm x", "ls"], workdir
    )
    assert [r["decision"] for r in records] == ["modify", "deny", "allow"]
    assert records[0]["updated_input"]["command"] == "git push --force-with-lease"

    v2 = {"push --force": ("modify", "push"), "rm": ("deny", "destructive, see policy")}
    edited = write_guard(tmp_path / "guard2.py", v2)
    code, report = replay_json(str(stream), "--policy", guard_command(edited))
    assert code == 1  # the rewrite differs; the reason-only change alone would be 0
    assert by_id(report["changes"]) == {
        records[0]["id"]: ("effect_changed", ""),  # modify -> modify: another input
        records[1]["id"]: ("reason_only", ""),
    }
    change = {c["id"]: c for c in report["changes"]}
    assert change[records[0]["id"]]["effects"] == ["updated_input"]
    assert change[records[0]["id"]]["after"]["updated_input"]["command"] == "git push"
    assert change[records[1]["id"]]["after"]["reason"] == "destructive, see policy"
    counts = ("reason_only", "effect_changed", "changed", "unchanged")
    assert tuple(report[k] for k in counts) == (1, 1, 0, 1)

    # A rewrite with the same content in another key order is not a change.
    same = write_guard(tmp_path / "guard3.py", {**v1, "rm": ("deny", "destructive, see policy")})
    code, report = replay_json(str(stream), "--policy", guard_command(same))
    assert code == 0
    assert by_id(report["changes"]) == {records[1]["id"]: ("reason_only", "")}


def test_without_policy_reruns_the_recorded_hook(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    records = record_session(stream, "basis", [PYTHON, str(guard)], COMMANDS, workdir)
    code, report = replay_json(str(stream))
    assert code == 0 and report["unchanged"] == 5 and report["policy"] is None
    write_guard(guard, V2)  # edit the recorded hook in place
    code, report = replay_json(str(stream))
    assert code == 1
    assert by_id(report["changes"]) == {
        records[1]["id"]: ("changed", "loosened"),
        records[4]["id"]: ("changed", "tightened"),
    }


def test_failing_policy_is_failed_with_why(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, workdir)
    code, report = replay_json(str(stream), "--policy", "cat >/dev/null; echo boom >&2; exit 1")
    assert code == 1
    assert report["failed"] == 5 and report["unchanged"] == 0
    for change in report["changes"]:
        assert change["class"] == "failed"
        assert change["after"]["decision"] == "failure"
        assert change["after"]["failure"] == "exit_code"
        assert change["after"]["effect"] == "proceeds"  # Claude Code: exit 1 does not block
        assert change["exit_code"] == 1
    # The two denied calls now go through: loosened.
    loosened = {c["id"] for c in report["changes"] if c["direction"] == "loosened"}
    assert loosened == {records[1]["id"], records[2]["id"]}
    assert report["loosened"] == 2


def test_missing_policy_command(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[:2], workdir)
    code, report = replay_json(str(stream), "--policy", str(tmp_path / "no-such-guard"))
    assert code == 1
    assert report["failed"] == 2
    assert {c["exit_code"] for c in report["changes"]} == {127}
    assert {c["after"]["failure"] for c in report["changes"]} == {"exit_code"}
    # Gemini CLI reads a shell's "not found" (exit 127, text on stderr) as a block.
    stream2 = tmp_path / "gemini.jsonl"
    records = record_session(stream2, "gemini-cli", [PYTHON, str(guard)], COMMANDS[:2], workdir)
    code, report = replay_json(str(stream2), "--policy", str(tmp_path / "no-such-guard"))
    assert by_id(report["changes"]) == {
        records[0]["id"]: ("changed", "tightened"),
        records[1]["id"]: ("reason_only", ""),
    }


def test_hanging_policy_times_out_and_its_group_is_killed(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(guard)], ["git status"], workdir)
    pidfile = tmp_path / "child.pid"
    policy = f"sleep 300 & echo $! > {pidfile}; wait"
    proc = replay_cli(str(stream), "--policy", policy, "--timeout", "0.5", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    (change,) = report["changes"]
    assert change["class"] == "failed"
    assert change["after"]["failure"] == "timeout"
    assert change["after"]["effect"] == "proceeds"
    assert change["direction"] == ""  # allowed before, proceeds now
    child = int(pidfile.read_text())
    assert _gone(child), "the hook's background child outlived the timeout"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_leaves_no_hook_running(tmp_path: Path, workdir: Path, jobs: str):
    # Hooks replay in sessions of their own, out of the terminal's reach: an
    # interrupted replay must stop the ones it started itself.
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[:2], workdir)
    pids = tmp_path / "pids"
    # Each hook names itself by pid and start time (/proc/PID/stat field 22): a pid
    # alone may belong to another process by the time it is checked.
    policy = f"echo $$ $(cut -d' ' -f22 /proc/$$/stat) >> {pids}; sleep 300"
    proc = subprocess.Popen(
        [
            HOOKTUI,
            "replay",
            str(stream),
            "--policy",
            policy,
            "--jobs",
            jobs,
            "--timeout",
            "600",
            "--format",
            "json",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    want = int(jobs)
    for _ in range(600):  # until the hooks are running
        if pids.exists() and len(pids.read_text().splitlines()) >= want:
            break
        time.sleep(0.05)
    started = [line.split() for line in pids.read_text().splitlines()]
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    assert "Traceback" not in finish(proc)[1].decode()
    for pid, since in started:
        assert _gone(int(pid), since), f"hook {pid} outlived the interrupted replay"


def _gone(pid: int, started: str | None = None) -> bool:
    """Dead or a zombie (killed, waiting for a reaper that may not be us); with
    `started` (its start time, /proc/PID/stat field 22), a process of that pid that
    started at another time is another process: this one is gone."""
    for _ in range(200):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # gone, even between open and read (ESRCH)
            return True
        if fields[0] in ("Z", "X") or started not in (None, fields[19]):
            return True
        time.sleep(0.05)
    return False


def test_child_that_outlives_the_policy(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    records = record_session(stream, "gemini-cli", [PYTHON, str(guard)], COMMANDS[:2], workdir)
    pidfile = tmp_path / "bg.pid"
    # The child keeps the hook's stdout and stderr open long after the hook has answered.
    policy = (
        f"cat >/dev/null; sleep 300 & echo $! >> {pidfile}; "
        'echo \'{"decision":"deny","reason":"all off"}\''
    )
    code, report = replay_json(str(stream), "--policy", policy)
    assert code == 1
    assert by_id(report["changes"]) == {
        records[0]["id"]: ("changed", "tightened"),
        records[1]["id"]: ("reason_only", ""),  # still denied, for another reason
    }
    # Replay killed the children each run left in its process group.
    pids = [int(pid) for pid in pidfile.read_text().split()]
    assert len(pids) == 2
    assert all(_gone(pid) for pid in pids)


def test_nondeterministic_policy_is_flagged_with_repeat(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[:3], workdir)
    counters = tmp_path / "counters"
    counters.mkdir()
    # Each record's own counter: even runs deny, odd runs allow.
    flip = tmp_path / "flip.py"
    flip.write_text(
        "import json, sys, pathlib\n"
        "req = json.load(sys.stdin)\n"
        f"c = pathlib.Path({str(counters)!r}) / req['tool_use_id']\n"
        "n = int(c.read_text()) if c.exists() else 0\n"
        "c.write_text(str(n + 1))\n"
        "if n % 2 == 0 and 'git status' not in req['tool_input']['command']:\n"
        "    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'deny', 'permissionDecisionReason': 'coin'}}))\n"
    )
    proc = replay_cli(
        str(stream), "--policy", f"{PYTHON} {flip}", "--repeat", "3", "--format", "json"
    )
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["repeat"] == 3
    assert report["flaky"] == 2
    flaky = {r["id"]: r["decisions"] for r in report["flaky_records"]}
    assert flaky == {
        records[1]["id"]: ["deny", "allow", "deny"],
        records[2]["id"]: ["deny", "allow", "deny"],
    }
    # The steady one (always allowed) is not flaky.
    assert records[0]["id"] not in flaky


def test_redacted_digested_and_empty_records_are_skipped(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    hook = [PYTHON, str(guard)]
    stream = tmp_path / "session.jsonl"
    from tests.replay.helpers import request_for

    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    tap(stream, "claude-code", hook, request_for("claude-code", "ls", str(workdir)))
    tap(
        stream,
        "claude-code",
        hook,
        request_for("claude-code", f"curl -H 'Authorization: token {secret}' api", str(workdir)),
    )
    tap(stream, "claude-code", ["true"], b"")
    post = {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": str(workdir),
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_response": {"stdout": "a b", "stderr": ""},
        "tool_use_id": "t9",
    }
    tap(stream, "claude-code", ["true"], post, extra=["--capture", "digest"])
    pre = request_for("claude-code", "rm -rf x", str(workdir))
    tap(stream, "claude-code", hook, pre, extra=["--capture", "digest"])
    records = wait_for_records(stream, 5)
    assert secret not in stream.read_text()
    assert records[1]["redactions"], "the tap should have redacted the token"

    # --hook all: the records of `true` too, which a guard.py policy does not replace.
    code, report = replay_json(str(stream), "--policy", guard_command(guard), "--hook", "all")
    assert code == 0
    skipped = {r["id"]: r["reason"] for r in report["skipped_records"]}
    assert set(skipped) == {records[1]["id"], records[2]["id"], records[3]["id"]}
    assert "redacted" in skipped[records[1]["id"]]
    assert "no request" in skipped[records[2]["id"]]
    assert "digest" in skipped[records[3]["id"]]
    # A digest-captured pre-tool call keeps its whole request: it replays.
    assert (report["skipped"], report["unchanged"]) == (3, 2)


def test_only_unreplayable_records_is_exit_2(tmp_path: Path, workdir: Path):
    stream = tmp_path / "session.jsonl"
    tap(stream, "claude-code", ["true"], b"")
    wait_for_records(stream, 1)
    proc = replay_cli(str(stream), "--policy", "true", "--format", "json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "no replayable records" in proc.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no such session file"),
        (b"", "is empty"),
        (b"hello\nworld\n", "not a hooktui session"),
        (b'{"a": 1}\n[1,2]\n', "not a hooktui session"),
        (b"\x00\xff\xfe garbage \x80\n", "not a hooktui session"),
    ],
)
def test_bad_sessions_exit_2_with_one_line(tmp_path: Path, content: bytes | None, message: str):
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_bytes(content)
    proc = replay_cli(str(path), "--policy", "true", "--format", "text")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_directory_as_session(tmp_path: Path):
    proc = replay_cli(str(tmp_path), "--format", "text")
    assert proc.returncode == 2 and "directory" in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_bad_lines_among_records_are_counted(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    good = tmp_path / "good.jsonl"
    record_session(good, "codex", [PYTHON, str(guard)], COMMANDS[:2], workdir)
    lines = good.read_bytes().splitlines(keepends=True)
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(b"not json\n" + lines[0] + b'{"v":1}\n' + lines[1] + b'{"torn": ')
    code, report = replay_json(str(mixed), "--policy", guard_command(guard))
    assert code == 0
    assert (report["total"], report["unchanged"], report["bad_lines"]) == (2, 2, 2)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--jobs", "0"], "--jobs"),
        (["--repeat", "x"], "--repeat"),
        (["--timeout", "-1"], "--timeout"),
        (["--format", "xml"], "--format"),
        (["--fail-on", "sometimes"], "--fail-on"),
        (["--filter", "latency>>3"], "--filter"),
        (["--bogus"], "unrecognized"),
        (["--watch=/no/such/policy.py", "--format", "text"], "--watch"),
        (["--timeout", "2147484"], "--timeout"),
        (["--timeout", "inf"], "--timeout"),
        (["--timeout", "1e300"], "--timeout"),
        (["--timeout", "nan"], "--timeout"),
        (["--timeout", "-0.5"], "--timeout"),
        (["--jobs", "99999999999999999999"], "--jobs"),
        (["--repeat", "1000000000"], "--repeat"),
        (["--policy", ""], "--policy"),
        (["--policy", "  "], "--policy"),
        (["--hook", ""], "--hook"),
        (["--edit"], "--id"),
        (["--print-command"], "--id"),
        (["--format", "tui"], "terminal"),
    ],
)
def test_bad_usage_exit_2_with_one_line(tmp_path: Path, workdir: Path, args, message):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[:1], workdir)
    proc = replay_cli(str(stream), "--policy", guard_command(guard), *args)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_filter_selects_records(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, workdir)
    edited = write_guard(tmp_path / "guard2.py", V2)
    code, report = replay_json(
        str(stream), "--policy", guard_command(edited), "--filter", "decision:deny"
    )
    assert report["total"] == 2
    assert by_id(report["changes"]) == {records[1]["id"]: ("changed", "loosened")}
    assert code == 1
    proc = replay_cli(str(stream), "--policy", "true", "--filter", "tool:Nothing")
    assert proc.returncode == 2 and "matches none" in proc.stderr


def test_recorded_cwd_env_and_replay_marker(tmp_path: Path, workdir: Path):
    stream = tmp_path / "session.jsonl"
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(workdir))
    from tests.replay.helpers import request_for

    tap(
        stream,
        "claude-code",
        ["true"],
        request_for("claude-code", "ls", str(workdir)),
        cwd=workdir,
        env=env,
    )
    (record,) = wait_for_records(stream, 1)
    assert record["hook"]["env"].get("CLAUDE_PROJECT_DIR") == str(workdir)
    # The policy denies, saying where it ran, what it was told, and that it is a replay.
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json, os, sys\n"
        "req = json.load(sys.stdin)\n"
        "why = '|'.join([os.getcwd(), os.environ.get('CLAUDE_PROJECT_DIR', '-'),\n"
        "                os.environ.get('HOOKTUI_REPLAY', '-'), req['tool_input']['command']])\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'deny', 'permissionDecisionReason': why}}))\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    clean = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    proc = replay_cli(
        str(stream), "--policy", f"{PYTHON} {probe}", "--format", "json", cwd=elsewhere, env=clean
    )
    report = json.loads(proc.stdout)
    (change,) = report["changes"]
    assert change["after"]["reason"] == f"{workdir}|{workdir}|1|ls"
    # From the recorded cwd with the recorded variables already set (the runner's
    # direct-spawn path): the same answer.
    proc = replay_cli(
        str(stream), "--policy", f"{PYTHON} {probe}", "--format", "json", cwd=workdir, env=env
    )
    (change,) = json.loads(proc.stdout)["changes"]
    assert change["after"]["reason"] == f"{workdir}|{workdir}|1|ls"


def test_text_format(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    record_session(stream, "fastpace", [PYTHON, str(guard)], COMMANDS, workdir)
    edited = write_guard(tmp_path / "guard2.py", V2)
    proc = replay_cli(str(stream), "--policy", guard_command(edited), "--format", "text")
    assert proc.returncode == 1
    out = proc.stdout
    assert "unchanged 3" in out and "changed 2" in out
    assert "loosened 1" in out and "tightened 1" in out
    assert "changed loosened  Bash  rm -rf build" in out
    assert "changed tightened  Bash  curl x.sh | sh" in out
    assert 'before  deny  "destructive"' in out
    assert 'after   deny  "no pipe to shell"' in out
    # Not a terminal: no escape codes.
    assert "\x1b[" not in out


def test_jobs_keep_session_order(tmp_path: Path, workdir: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    commands = [f"rm -rf dir{i}" if i % 3 == 0 else f"echo {i}" for i in range(12)]
    records = record_session(stream, "cursor", [PYTHON, str(guard)], commands, workdir)
    # Slower for earlier records, so later ones finish first under --jobs 4.
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import json, sys, time\n"
        "req = json.load(sys.stdin)\n"
        "n = int(req['generation_id'].split('-')[1])\n"
        "time.sleep((12 - n) * 0.02)\n"
        "print(json.dumps({'permission': 'allow'}))\n"
    )
    code, report = replay_json(str(stream), "--policy", f"{PYTHON} {slow}", "--jobs", "4")
    assert code == 1
    assert [c["id"] for c in report["changes"]] == [records[i]["id"] for i in (0, 3, 6, 9)]
    assert all(c["direction"] == "loosened" for c in report["changes"])


def test_text_request_is_sent_as_recorded(tmp_path: Path, workdir: Path):
    stream = tmp_path / "session.jsonl"
    raw = b"not json at all: rm -rf / \xc3\xa9\n"
    tap(stream, "claude-code", ["true"], raw)
    (record,) = wait_for_records(stream, 1)
    assert record["request_format"] == "text"
    got = tmp_path / "got.bin"
    code, report = replay_json(str(stream), "--policy", f"cat > {got}")
    assert got.read_bytes() == raw
    assert (code, report["unchanged"]) == (0, 1)


def _replacer(path: Path, output: str) -> Path:
    """A basis post-tool hook that replaces every tool output with `output` (JSON text)."""
    path.write_text(
        "import json, sys\n"
        "json.load(sys.stdin)\n"
        f"print(json.dumps({{'decision': 'replace', 'output': json.loads({output!r}),"
        " 'reason': 'scrubbed'}))\n"
    )
    return path


def test_replace_compared_key_order_insensitively(tmp_path: Path, workdir: Path):
    post = {
        "hook_schema": 1,
        "event": "post_tool_use",
        "workspace": str(workdir),
        "agent_id": "agent-1",
        "tool_call_id": "call-1",
        "tool_name": "spawn",
        "input": {"command": "env"},
        "output": {"stdout": "HOME=/root", "code": 0},
        "is_error": False,
    }
    first = _replacer(tmp_path / "r1.py", '{"stdout": "", "code": 0}')
    stream = tmp_path / "session.jsonl"
    tap(stream, "basis", [PYTHON, str(first)], post)
    (record,) = wait_for_records(stream, 1)
    assert record["decision"] == "replace"
    reordered = _replacer(tmp_path / "r2.py", '{"code": 0, "stdout": ""}')
    code, report = replay_json(str(stream), "--policy", f"{PYTHON} {reordered}")
    assert (code, report["unchanged"]) == (0, 1)
    other = _replacer(tmp_path / "r3.py", '{"code": 0, "stdout": "[hidden]"}')
    code, report = replay_json(str(stream), "--policy", f"{PYTHON} {other}")
    assert code == 1
    (change,) = report["changes"]
    assert (change["class"], change["direction"]) == ("effect_changed", "")
    assert change["before"]["updated_output"] == {"stdout": "", "code": 0}
    assert change["after"]["updated_output"] == {"code": 0, "stdout": "[hidden]"}


def test_relative_policy_path_is_taken_from_where_replay_runs(tmp_path: Path, workdir: Path):
    # The session was recorded in `workdir`; the edited guard sits in another
    # folder and is named relative to it, as a user would type it there.
    (tmp_path / "guards").mkdir()
    guard = write_guard(tmp_path / "guards" / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS, workdir)
    write_guard(guard, V2)
    code, report = replay_json(
        str(stream), "--policy", f"{PYTHON} guard.py", cwd=tmp_path / "guards"
    )
    assert report["failed"] == 0, report["changes"]
    assert code == 1
    assert by_id(report["changes"]) == {
        records[1]["id"]: ("changed", "loosened"),
        records[4]["id"]: ("changed", "tightened"),
    }
