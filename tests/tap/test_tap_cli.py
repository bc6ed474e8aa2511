"""`hooktui tap` options, bad input, the stream's place and modes, secrets, signals."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hooktui.tap.read.errlog import TapErrorLog

from tests.conftest import HOOKTUI, wait_for_lines, wait_for_records
from tests.waits import WAIT_S, read_line, read_rest

REQUEST = {
    "session_id": "s1",
    "transcript_path": "/tmp/t.jsonl",
    "cwd": "/tmp",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "ls"},
}

# One planted secret per kind the redactor knows.
SECRETS = {
    "aws_access_key": "AKIAIOSFODNN7EXAMPLQ",
    "aws_secret_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "github_token": "ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6",
    "github_pat": "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH",
    "openai_key": "sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678",
    "anthropic_key": "sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "private_key": "MIIEowIBAAKCAQEA7bq9secretkeymaterialQWERTYUIOP",
    "password": "hunter2-correct-horse",
}


def secret_command() -> str:
    return (
        f"export AWS_ACCESS_KEY_ID={SECRETS['aws_access_key']} "
        f"aws_secret_access_key={SECRETS['aws_secret_key']} "
        f"GH={SECRETS['github_token']} PAT={SECRETS['github_pat']} "
        f"OAI={SECRETS['openai_key']} ANT={SECRETS['anthropic_key']} "
        f"&& curl -H 'Authorization: {SECRETS['jwt']}' "
        f"--data password={SECRETS['password']}"
    )


def tap(args: list[str], stdin: bytes = b"", **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, "tap", *args], input=stdin, capture_output=True, timeout=60, **kw
    )


def test_missing_command_exits_127_like_a_shell(tmp_path):
    stream = tmp_path / "s.jsonl"
    out = tap(["--stream", str(stream), "--", "no-such-hook-xyz", "--flag"], b'{"a": 1}')
    assert out.returncode == 127
    assert out.stderr == b"hooktui tap: no-such-hook-xyz: command not found\n"
    assert out.stdout == b""
    (record,) = wait_for_records(stream, 1)
    assert record["decision"] == "failure" and record["failure"] == "spawn_error"
    assert record["exit_code"] == 127
    assert record["request"] == {"a": 1}
    assert record["hook"]["argv"] == ["no-such-hook-xyz", "--flag"]


def test_not_executable_exits_126(tmp_path):
    hook = tmp_path / "hook.sh"
    hook.write_text("#!/bin/sh\necho hi\n")
    hook.chmod(0o644)
    out = tap(["--stream", str(tmp_path / "s.jsonl"), "--", str(hook)])
    assert out.returncode == 126
    assert out.stderr.count(b"\n") == 1 and str(hook).encode() in out.stderr
    assert out.stderr.startswith(b"hooktui tap: ")


@pytest.mark.parametrize(
    "args, word",
    [
        ([], b"no hook command"),
        (["--"], b"no hook command"),
        (["--stream", "x.jsonl", "--"], b"no hook command"),
        (["--bogus", "--", "true"], b"--bogus"),
        (["--capture", "everything", "--", "true"], b"everything"),
        (["--runtime", "vim", "--", "true"], b"vim"),
        (["--timeout-ms", "soon", "--", "true"], b"soon"),
        (["--label"], b"--label"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(tmp_path, args, word):
    out = tap(args, cwd=tmp_path)
    assert out.returncode == 2
    first, *rest = out.stderr.decode().splitlines()
    assert word.decode() in first and first.startswith("hooktui tap: ")
    assert all(line.startswith("usage:") for line in rest)
    assert b"Traceback" not in out.stderr
    assert not (tmp_path / "x.jsonl").exists()


def test_help(tmp_path):
    out = tap(["--help"])
    assert out.returncode == 0 and b"--capture" in out.stdout


def test_stream_is_a_directory_answer_still_goes_through(tmp_path):
    stream = tmp_path / "stream-dir"
    stream.mkdir()
    hook = ["sh", "-c", 'cat >/dev/null; echo \'{"decision":"block"}\'; echo why >&2; exit 2']
    out = tap(["--stream", str(stream), "--", *hook], json.dumps(REQUEST).encode())
    assert out.stdout == b'{"decision":"block"}\n'
    assert out.stderr == b"why\n"
    assert out.returncode == 2
    (line,) = wait_for_lines(Path(f"{stream}.errors.log"), 1)
    assert b"cannot write the stream" in line and str(stream).encode() in line
    assert line[:4].isdigit()  # timestamped


def test_stream_under_a_file_is_logged_in_the_fallback_log_readers_count(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    stream = blocker / "s.jsonl"
    out = tap(["--stream", str(stream), "--", "echo", "ok"])
    assert out.stdout == b"ok\n" and out.stderr == b"" and out.returncode == 0
    (line,) = wait_for_lines(runtime / "hooktui" / "tap-errors.log", 1)
    assert b"cannot write the stream" in line
    log = TapErrorLog(str(stream))  # what show and watch count
    assert log.check() and log.count == 1
    assert log.path == str(runtime / "hooktui" / "tap-errors.log")
    assert TapErrorLog(str(tmp_path / "other.jsonl")).check() is False  # not another stream's


def test_stream_file_and_directories_are_private(tmp_path):
    stream = tmp_path / "a" / "b" / "s.jsonl"
    out = tap(["--wait", "--stream", str(stream), "--", "true"], b"{}")
    assert out.returncode == 0
    assert stat.S_IMODE(stream.stat().st_mode) == 0o600
    assert stat.S_IMODE(stream.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(stream.parent.parent.stat().st_mode) == 0o700


def test_default_stream_from_env_then_xdg(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "HOOKTUI_STREAM"}
    env["XDG_STATE_HOME"] = str(tmp_path / "xdg")
    tap(["--", "true"], b"{}", env=env)
    (record,) = wait_for_records(tmp_path / "xdg" / "hooktui" / "stream.jsonl", 1)
    assert record["hook"]["label"] == "true"
    env["HOOKTUI_STREAM"] = str(tmp_path / "env.jsonl")
    tap(["--", "true"], b"{}", env=env)
    assert len(wait_for_records(tmp_path / "env.jsonl", 1)) == 1


def test_wait_records_before_exiting(tmp_path):
    stream = tmp_path / "s.jsonl"
    env = dict(os.environ, HOOKTUI_TAP_WAIT="1")
    tap(["--stream", str(stream), "--", "true"], b"{}", env=env)
    # No waiting: the line is there the moment the tap has exited.
    assert len(stream.read_bytes().splitlines()) == 1


def test_label_runtime_timeout_and_env_are_recorded(tmp_path):
    stream = tmp_path / "s.jsonl"
    env = dict(
        os.environ, HOOKTUI_REPLAY="1", CLAUDE_PROJECT_DIR="/proj", UNRELATED_SECRET_VAR="nope"
    )
    tap(
        ["--stream", str(stream), "--label", "my-guard", "--runtime", "claude-code"]
        + ["--timeout-ms", "5000", "--", "sh", "-c", "cat >/dev/null; exit 0"],
        json.dumps(REQUEST).encode(),
        env=env,
    )
    (record,) = wait_for_records(stream, 1)
    assert record["hook"]["label"] == "my-guard"
    assert record["hook"]["timeout_ms"] == 5000
    assert record["hook"]["argv"] == ["sh", "-c", "cat >/dev/null; exit 0"]
    assert record["hook"]["cwd"] == os.getcwd()
    assert record["hook"]["env"].get("HOOKTUI_REPLAY") == "1"
    assert record["hook"]["env"].get("CLAUDE_PROJECT_DIR") == "/proj"
    assert "UNRELATED_SECRET_VAR" not in record["hook"]["env"]
    assert record["runtime"] == "claude-code"
    assert record["tap_version"]
    assert record["ts"].endswith("Z") and len(record["ts"]) == len("2026-01-01T00:00:00.000000Z")


@pytest.mark.parametrize(
    "argv, label",
    [
        (["sh", "-c", "python3 /opt/hooks/guard.py --strict"], "guard.py"),
        (["/usr/bin/env", "node", "policy.js"], "policy.js"),
        (["echo", "x"], "echo"),
    ],
)
def test_default_label_names_the_script(tmp_path, argv, label):
    stream = tmp_path / "s.jsonl"
    tap(["--wait", "--stream", str(stream), "--", *argv], b"")
    assert json.loads(stream.read_bytes())["hook"]["label"] == label


def test_secrets_never_reach_the_stream_but_reach_the_hook(tmp_path):
    stream = tmp_path / "s.jsonl"
    seen = tmp_path / "seen.json"
    key_block = (
        "-----BEGIN RSA PRIVATE KEY-----\n"
        + SECRETS["private_key"]
        + "\n-----END RSA PRIVATE KEY-----"
    )
    request = dict(REQUEST, tool_input={"command": secret_command(), "content": key_block})
    raw = json.dumps(request).encode()
    hook = ["sh", "-c", f"tee {seen}; echo 'token={SECRETS['password']}' >&2"]
    out = tap(["--stream", str(stream), "--", *hook], raw)
    assert out.stdout == raw  # the caller gets the unredacted answer
    assert seen.read_bytes() == raw  # the hook got the unredacted request
    (line,) = wait_for_lines(stream, 1)
    for kind, secret in SECRETS.items():
        assert secret.encode() not in line, kind
    record = json.loads(line)
    kinds = {r["kind"] for r in record["redactions"]}
    assert {
        "aws_access_token",
        "aws_secret_key",
        "github_pat",
        "github_token",
        "openai_api_key",
        "anthropic_api_key",
        "curl_auth_header",  # the JWT, in `curl -H 'Authorization: …'`
        "private_key",
        "secret_assignment",
    } <= kinds
    pointers = {r["pointer"] for r in record["redactions"]}
    assert {"/request/tool_input/command", "/request/tool_input/content"} <= pointers
    assert {"/stdout/data", "/stderr/data"} <= pointers
    assert "[REDACTED:github_pat:" in record["request"]["tool_input"]["command"]
    # The captured bytes are still described truthfully.
    assert record["stdout"]["length"] == len(raw)


def test_capture_full_keeps_secrets(tmp_path):
    stream = tmp_path / "s.jsonl"
    raw = json.dumps(dict(REQUEST, tool_input={"command": secret_command()})).encode()
    tap(["--wait", "--capture", "full", "--stream", str(stream), "--", "true"], raw)
    record = json.loads(stream.read_bytes())
    assert record["request"]["tool_input"]["command"] == secret_command()
    assert record["redactions"] == [] and record["capture"] == "full"


def test_capture_digest_keeps_no_prompt_or_output(tmp_path):
    import hashlib

    stream = tmp_path / "s.jsonl"
    prompt = "please refactor the billing module, my secret plan"
    tool_output = {"stdout": "total 0\nsecret-file.txt", "exit": 0}
    raw = json.dumps(
        {
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
            "tool_output": tool_output,
            "prompt": prompt,
            "metadata": {"agent_id": "a1"},
        }
    ).encode()
    out = tap(["--wait", "--capture", "digest", "--stream", str(stream), "--", "cat"], raw)
    assert out.stdout == raw
    line = stream.read_bytes()
    assert b"billing" not in line and b"secret-file" not in line
    record = json.loads(line)
    digest = hashlib.sha256(prompt.encode()).hexdigest()
    assert record["request"]["prompt"] == f"[digest sha256:{digest} len:{len(prompt)}]"
    assert record["request"]["tool_output"].startswith("[digest sha256:")
    assert record["request"]["tool_input"] == {"command": "ls"}  # not a prompt or an output
    assert record["stdout"]["encoding"] == "digest" and record["stdout"]["data"] == ""
    assert record["stdout"]["sha256"] == hashlib.sha256(raw).hexdigest()
    assert record["stdout"]["length"] == len(raw)
    assert record["capture"] == "digest"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signal_to_the_tap_reaches_the_hook(tmp_path, sig):
    stream = tmp_path / "s.jsonl"
    proc = subprocess.Popen(
        [HOOKTUI, "tap", "--stream", str(stream), "--", "sh", "-c", "echo started; exec sleep 60"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # no controlling terminal: the signal is for the tap alone
    )
    try:
        assert read_line(proc.stdout) == b"started\n"  # the hook runs, output passes through live
        proc.send_signal(sig)
        assert proc.wait(timeout=WAIT_S) == -sig
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
    (record,) = wait_for_records(stream, 1)
    assert record["signal"] == sig and record["exit_code"] is None
    assert record["decision"] == "failure"


def test_recording_errors_stay_off_the_hooks_stderr(tmp_path, monkeypatch):
    # A stream path that exists as a directory AND an error log that cannot be
    # written either: still nothing but the hook's own bytes reach the caller.
    stream = tmp_path / "d"
    stream.mkdir()
    Path(f"{stream}.errors.log").mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    (tmp_path / "run").mkdir(mode=0o700)
    out = tap(["--stream", str(stream), "--", "sh", "-c", "echo out; echo err >&2"])
    assert (out.stdout, out.stderr, out.returncode) == (b"out\n", b"err\n", 0)
    (line,) = wait_for_lines(tmp_path / "run" / "hooktui" / "tap-errors.log", 1)
    assert b"cannot write the stream" in line


def test_shim_runtime_names_match_the_model():
    from hooktui.tap import model
    from hooktui.tap.hotpath import shim
    from hooktui.tap.runtimes import RUNTIMES, UNKNOWN

    assert set(shim.runtime_names()) == {*RUNTIMES, UNKNOWN}
    assert set(shim.CAPTURES) == set(model.CAPTURES)


def test_runtime_killing_the_tap_at_its_timeout_is_recorded_as_a_timeout(tmp_path):
    stream = tmp_path / "s.jsonl"
    proc = subprocess.Popen(
        [HOOKTUI, "tap", "--stream", str(stream), "--timeout-ms", "200", "--runtime", "claude-code"]
        + ["--", "sh", "-c", "cat >/dev/null; echo started; exec sleep 60"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        proc.stdin.write(json.dumps(REQUEST).encode())
        proc.stdin.close()
        assert read_line(proc.stdout) == b"started\n"
        # Like a runtime whose timeout expired: wait past it, then SIGTERM the tap.
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=WAIT_S) == -signal.SIGTERM
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
    (record,) = wait_for_records(stream, 1)
    assert record["timed_out"] is True and record["signal"] == signal.SIGTERM
    assert record["hook"]["timeout_ms"] == 200
    assert record["decision"] == "failure"
    assert record["failure"] == "timeout"


def test_exit_status_survives_a_caller_that_ignores_sigchld(tmp_path):
    stream = tmp_path / "s.jsonl"
    out = subprocess.run(
        [HOOKTUI, "tap", "--stream", str(stream), "--", "sh", "-c", "echo hi; exit 3"],
        capture_output=True,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN),
    )
    assert (out.stdout, out.returncode) == (b"hi\n", 3)
    assert wait_for_records(stream, 1)[0]["exit_code"] == 3


def _ctrl_c_counts(tmp_path: Path, command: list[str]) -> bytes:
    """Run `command` as the foreground job of a fresh terminal, press Ctrl-C once."""
    import fcntl
    import termios

    master, slave = os.openpty()

    def take_terminal():  # after setsid: make the pty our controlling terminal
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        command,
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=take_terminal,
    )
    os.close(slave)
    try:
        assert read_line(proc.stdout) == b"ready\n"
        os.write(master, b"\x03")
        out = read_rest(proc.stdout)
        proc.wait(timeout=WAIT_S)
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
        os.close(master)
    return out


def test_ctrl_c_reaches_the_hook_once(tmp_path):
    hook = tmp_path / "count.py"
    hook.write_text(
        "import signal, sys, time\n"
        "hits = []\n"
        "signal.signal(signal.SIGINT, lambda *a: hits.append(1))\n"
        "print('ready', flush=True)\n"
        "while not hits: time.sleep(0.01)\n"
        "time.sleep(0.5)  # a second SIGINT would arrive in here\n"
        "print(len(hits), flush=True)\n"
    )
    command = [sys.executable, str(hook)]
    stream = tmp_path / "s.jsonl"
    bare = _ctrl_c_counts(tmp_path, command)
    tapped = _ctrl_c_counts(tmp_path, [HOOKTUI, "tap", "--stream", str(stream), "--", *command])
    assert bare == tapped == b"1\n"
