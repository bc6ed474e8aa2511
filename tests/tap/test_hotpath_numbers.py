"""Every number the tap takes is range-checked or clamped: a guard's answer always goes through."""

from __future__ import annotations

import json
import math
import subprocess

import pytest
from hooktui.replay.runner import run_hook

from tests.conftest import HOOKTUI, wait_for_records

DENY = ["sh", "-c", "cat >/dev/null; echo 'no force pushes' >&2; exit 2"]


def tap(args: list[str], stdin: bytes = b"{}") -> subprocess.CompletedProcess:
    return subprocess.run([HOOKTUI, "tap", *args], input=stdin, capture_output=True, timeout=60)


@pytest.mark.parametrize(
    "value, recorded",
    [
        ("99999999999", 99999999999),  # what `install` writes for "timeout": 99999999
        ("9" * 30, 2**53),
        ("1" + "0" * 5000, 2**53),  # more digits than int() takes by default
    ],
)
def test_a_timeout_meaning_never_still_lets_the_deny_through(tmp_path, value, recorded):
    stream = tmp_path / "s.jsonl"
    out = tap(["--timeout-ms", value, "--stream", str(stream), "--", *DENY])
    assert (out.returncode, out.stderr, out.stdout) == (2, b"no force pushes\n", b"")
    (record,) = wait_for_records(stream, 1)
    assert record["hook"]["timeout_ms"] == recorded
    assert record["exit_code"] == 2 and record["decision"] == "deny"


@pytest.mark.parametrize("value", ["²", "٣", "-5", "1e3", "0x10", ""])
def test_a_timeout_that_is_no_whole_number_is_one_clear_line(tmp_path, value):
    out = tap(["--timeout-ms", value, "--stream", str(tmp_path / "s.jsonl"), "--", "true"])
    assert out.returncode == 2
    first, *rest = out.stderr.decode().splitlines()
    assert first.startswith("hooktui tap: --timeout-ms needs a whole number")
    assert rest[0].startswith("usage:") and "Traceback" not in out.stderr.decode()


@pytest.mark.parametrize("timeout_s", [math.inf, math.nan, 1e300, 2147484.0, -1.0])
def test_the_runner_takes_any_timeout(timeout_s):
    outcome = run_hook(["sh", "-c", "cat; exit 3"], b'{"x": 1}', timeout_s=timeout_s)
    if timeout_s < 0:  # already due: killed at once, or done first
        assert outcome.timed_out or outcome.exit_code == 3
        return
    assert (outcome.exit_code, outcome.stdout, outcome.timed_out) == (3, b'{"x": 1}', False)


def test_a_long_timeout_keeps_the_watchdog_armed_without_overflow(tmp_path):
    """A slow hook with a huge timeout: pump's waits are taken in steps, not one huge poll."""
    stream = tmp_path / "s.jsonl"
    hook = ["sh", "-c", 'cat >/dev/null; sleep 0.3; echo \'{"decision":"block"}\'']
    out = tap(["--timeout-ms", "5000000000", "--stream", str(stream), "--", *hook])
    assert (out.returncode, out.stdout) == (0, b'{"decision":"block"}\n')
    (record,) = wait_for_records(stream, 1)
    assert json.loads(out.stdout)["decision"] == "block" and record["exit_code"] == 0
