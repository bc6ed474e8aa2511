"""The tap is invisible: same stdout bytes, stderr bytes and exit status as the bare hook."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import WAIT_S, read_rest

REQUEST = json.dumps(
    {
        "session_id": "s1",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git status"},
        "cwd": "/tmp",
    }
).encode()
BIG_REQUEST = json.dumps({"hook_event_name": "PreToolUse", "pad": "x" * (1 << 20)}).encode()


def script(tmp_path: Path, name: str, body: str) -> list[str]:
    """A Python hook written to tmp_path, run on the test's interpreter."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return [sys.executable, str(path)]


def run_both(tmp_path: Path, command: list[str], request: bytes = REQUEST, **kw):
    """(bare result, tapped result, the record) for one hook and one request."""
    stream = tmp_path / "stream.jsonl"
    bare = subprocess.run(command, input=request, capture_output=True, timeout=60, **kw)
    tapped = subprocess.run(
        [HOOKTUI, "tap", "--stream", str(stream), "--", *command],
        input=request,
        capture_output=True,
        timeout=60,
        **kw,
    )
    assert tapped.stdout == bare.stdout
    assert tapped.stderr == bare.stderr
    assert tapped.returncode == bare.returncode
    (record,) = wait_for_records(stream, 1)
    return bare, tapped, record


def blob_bytes(blob: dict) -> bytes:
    if blob["encoding"] == "base64":
        return base64.b64decode(blob["data"])
    return blob["data"].encode()


def check_blob(blob: dict, raw: bytes) -> None:
    assert blob["length"] == len(raw)
    assert blob["sha256"] == hashlib.sha256(raw).hexdigest()
    if not blob["truncated"]:
        assert blob_bytes(blob) == raw


def test_allow_answer_passes_through(tmp_path):
    bare, _, record = run_both(
        tmp_path, ["sh", "-c", 'cat >/dev/null; printf \'{"decision":"allow"}\\n\'']
    )
    assert bare.stdout == b'{"decision":"allow"}\n'
    assert record["exit_code"] == 0 and record["signal"] is None
    assert record["request"] == json.loads(REQUEST)
    assert record["request_format"] == "json"
    check_blob(record["stdout"], bare.stdout)


def test_echo_hook_sees_the_exact_request(tmp_path):
    bare, _, record = run_both(tmp_path, ["cat"])
    assert bare.stdout == REQUEST
    check_blob(record["stdout"], REQUEST)


def test_exit_2_with_reason_on_stderr(tmp_path):
    bare, _, record = run_both(
        tmp_path, ["sh", "-c", "cat >/dev/null; echo 'blocked: rm -rf' >&2; exit 2"]
    )
    assert bare.returncode == 2 and bare.stderr == b"blocked: rm -rf\n"
    assert record["exit_code"] == 2
    check_blob(record["stderr"], bare.stderr)


def test_crash_with_traceback(tmp_path):
    command = script(tmp_path, "crash.py", "import sys, json\njson.load(sys.stdin)\n1 / 0\n")
    bare, _, record = run_both(tmp_path, command)
    assert bare.returncode == 1 and b"ZeroDivisionError" in bare.stderr
    assert record["exit_code"] == 1
    check_blob(record["stderr"], bare.stderr)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV])
def test_death_by_signal_is_passed_on(tmp_path, sig):
    bare, _, record = run_both(tmp_path, ["sh", "-c", f"echo partial; kill -{int(sig)} $$"])
    assert bare.returncode == -sig and bare.stdout == b"partial\n"
    assert record["signal"] == sig and record["exit_code"] is None


def test_megabytes_on_both_pipes_do_not_deadlock(tmp_path):
    command = script(
        tmp_path,
        "loud.py",
        """
        import os, sys
        sys.stdin.buffer.read()
        for i in range(64):
            os.write(1, bytes([65 + i % 26]) * 65536)
            os.write(2, bytes([97 + i % 26]) * 49152)
        """,
    )
    bare, _, record = run_both(tmp_path, command, request=BIG_REQUEST)
    assert len(bare.stdout) == 64 * 65536 and len(bare.stderr) == 64 * 49152
    check_blob(record["stdout"], bare.stdout)
    check_blob(record["stderr"], bare.stderr)
    assert record["stdout"]["truncated"] and record["stderr"]["truncated"]
    cut = blob_bytes(record["stdout"])
    assert 0 < len(cut) < len(bare.stdout) and bare.stdout.startswith(cut)


def test_non_utf8_output_is_base64_in_the_record(tmp_path):
    bare, _, record = run_both(tmp_path, ["sh", "-c", r"printf '\377\376ok\000\200'; exit 0"])
    assert bare.stdout == b"\xff\xfeok\x00\x80"
    assert record["stdout"]["encoding"] == "base64"
    check_blob(record["stdout"], bare.stdout)


# A cap above BIG_REQUEST: the record keeps all of it (the default cap would cut
# the pad: tests/tap/test_record_bounds.py).
WHOLE = {**os.environ, "HOOKTUI_BODY_CAP": str(4 << 20)}
PAD = json.loads(BIG_REQUEST)["pad"].encode()


def test_hook_that_ignores_a_big_request(tmp_path):
    command = ["sh", "-c", "echo '{}'"]
    bare, _, record = run_both(tmp_path, command, request=BIG_REQUEST, env=WHOLE)
    assert bare.stdout == b"{}\n"
    # The record keeps the whole request even though the hook read none of it.
    assert record["request"] == json.loads(BIG_REQUEST)


def test_a_big_request_the_hook_ignored_is_cut_as_read_whole(tmp_path):
    """Under the default cap the pad is cut, and described whole: the tap read it all."""
    _, _, record = run_both(tmp_path, ["sh", "-c", "echo '{}'"], request=BIG_REQUEST)
    cut = {c["pointer"]: c for c in record["cut"]}["/request/pad"]
    assert cut["length"] == len(PAD) and cut["sha256"] == hashlib.sha256(PAD).hexdigest()


def test_hook_that_reads_part_of_the_request(tmp_path):
    bare, _, record = run_both(tmp_path, ["head", "-c", "100"], request=BIG_REQUEST, env=WHOLE)
    assert bare.stdout == BIG_REQUEST[:100]
    assert record["request"] == json.loads(BIG_REQUEST)


def test_slow_hook(tmp_path):
    bare, _, record = run_both(tmp_path, ["sh", "-c", "cat >/dev/null; sleep 0.3; echo done"])
    assert bare.stdout == b"done\n"
    assert record["exit_code"] == 0


def test_environment_cwd_group_and_signal_dispositions_are_unchanged(tmp_path):
    command = script(
        tmp_path,
        "where.py",
        """
        import os, signal
        print(os.getcwd(), os.environ.get("TAP_PROBE"), os.getpgrp(), os.getppid() > 0)
        status = dict(l.split(":", 1) for l in open("/proc/self/status"))
        # glibc's posix_spawn leaves its two internal signals (32, 33) ignored;
        # no program can use them, so they are left out of the comparison.
        print(int(status["SigIgn"], 16) & ~0x180000000, int(status["SigBlk"], 16))
        print(signal.getsignal(signal.SIGPIPE) == signal.SIG_DFL)
        """,
    )
    env = dict(os.environ, TAP_PROBE="probe-value")
    bare, _, _ = run_both(tmp_path, command, cwd=str(tmp_path), env=env)
    assert f"{tmp_path} probe-value {os.getpgrp()} True".encode() in bare.stdout


def test_empty_request(tmp_path):
    bare, _, record = run_both(tmp_path, ["sh", "-c", "cat; echo '{}'"], request=b"")
    assert bare.stdout == b"{}\n"
    assert record["request"] == "" and record["request_format"] == "empty"


def test_non_json_request_is_kept_as_text(tmp_path):
    bare, _, record = run_both(tmp_path, ["cat"], request=b"not json at all\n")
    assert bare.stdout == b"not json at all\n"
    assert record["request"] == "not json at all\n"
    assert record["request_format"] == "text"
    assert record["runtime"] == "unknown"


def _codes_of_yes_cut_off(stream, sigpipe: int) -> list[int]:
    """Exit codes of bare `yes` and tapped `yes` whose reader goes away after 4 bytes,
    each started with SIGPIPE unblocked or blocked (SIG_UNBLOCK / SIG_BLOCK): a CI
    runner may hand its children a blocked SIGPIPE, and the hook must see what it
    would see bare either way."""
    codes = []
    for command in (["yes"], [HOOKTUI, "tap", "--stream", str(stream), "--", "yes"]):
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=lambda: signal.pthread_sigmask(sigpipe, {signal.SIGPIPE}),
        )
        assert proc.stdout.read(4) == b"y\ny\n"
        proc.stdout.close()
        codes.append(proc.wait(timeout=WAIT_S))
    return codes


def test_caller_that_stops_reading_gives_the_hook_a_broken_pipe(tmp_path):
    stream = tmp_path / "stream.jsonl"
    assert _codes_of_yes_cut_off(stream, signal.SIG_UNBLOCK) == [-signal.SIGPIPE] * 2
    (record,) = wait_for_records(stream, 1)
    assert record["signal"] == signal.SIGPIPE


def test_a_blocked_sigpipe_reaches_the_hook_blocked_as_bare(tmp_path):
    stream = tmp_path / "stream.jsonl"
    bare, tapped = _codes_of_yes_cut_off(stream, signal.SIG_BLOCK)
    assert bare == tapped == 1  # `yes` sees EPIPE, says so, exits 1
    (record,) = wait_for_records(stream, 1)
    assert (record["exit_code"], record["signal"]) == (1, None)


def test_caller_that_never_closes_stdin_does_not_keep_the_tap(tmp_path):
    stream = tmp_path / "stream.jsonl"
    proc = subprocess.Popen(
        [HOOKTUI, "tap", "--stream", str(stream), "--", "sh", "-c", "head -c 2; echo"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        proc.stdin.write(b'{}{"more": 1}')
        proc.stdin.flush()
        assert read_rest(proc.stdout) == b"{}\n"  # the hook answered and the tap let go
        assert proc.wait(timeout=WAIT_S) == 0
    finally:
        proc.stdin.close()
        proc.kill()
        proc.wait(timeout=WAIT_S)
    (record,) = wait_for_records(stream, 1)
    assert record["request"] == '{}{"more": 1}' and record["request_format"] == "text"


@pytest.mark.parametrize("fd", [0, 1, 2])
def test_a_standard_fd_the_caller_closed_stays_closed_for_the_hook(tmp_path, fd):
    hook = ["sh", "-c", "cat >/dev/null; echo cat=$?; echo out; echo err >&2; echo after"]
    stream = tmp_path / "stream.jsonl"
    results = []
    for command in (hook, [HOOKTUI, "tap", "--stream", str(stream), "--", *hook]):
        # A shell runs the command with one of its standard fds closed.
        wrapped = ["sh", "-c", f'exec "$@" {fd}>&-', "sh", *command]
        done = subprocess.run(wrapped, input=REQUEST, capture_output=True, timeout=60)
        results.append((done.stdout, done.stderr, done.returncode))
    assert results[0] == results[1]
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == results[0][2]


def test_signals_the_caller_ignores_stay_ignored_for_the_hook(tmp_path):
    def ignore():  # like `nohup`, or a runtime that ignores SIGINT for its hooks
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    # Masking glibc's internal signals 32 and 33 (see runner._SIGDEF).
    command = [
        "sh",
        "-c",
        "cat >/dev/null; echo $(( 0x$(grep SigIgn /proc/self/status | cut -f2) & ~0x180000000 ))",
    ]
    bare, _, _ = run_both(tmp_path, command, preexec_fn=ignore)
    ignored = int(bare.stdout)
    assert ignored & (1 << (signal.SIGHUP - 1)) and ignored & (1 << (signal.SIGINT - 1))


@pytest.mark.parametrize("leader", [True, False], ids=["tap-leads-its-session", "a-member"])
def test_the_hook_leads_its_session_when_it_would_bare(tmp_path, leader):
    """Codex starts each hook command as a session leader: bare, the hook led its
    session; tapped, it was a member of the tap's (issue 19)."""
    probe = [sys.executable, "-c", "import os; print(os.getsid(0) == os.getpid())"]
    bare, _, _ = run_both(tmp_path, probe, start_new_session=leader)
    assert bare.stdout == f"{leader}\n".encode()
