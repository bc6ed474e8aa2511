"""`hooktui show` points at the tap's error log beside a stream: a real subprocess, real files."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from hooktui.tap.base.stream import error_log_path

from tests.conftest import HOOKTUI
from tests.tui.conftest import varied_records, write_stream
from tests.tui.test_show import Running


def _show(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="120", NO_COLOR="1", TERM="dumb")
    env.pop("HOOKTUI_STREAM", None)
    return subprocess.run(
        [HOOKTUI, "show", "--utc", *args], capture_output=True, text=True, env=env, timeout=60
    )


def _log_lines(stream: Path, count: int) -> Path:
    log = Path(error_log_path(str(stream)))
    with open(log, "a") as f:
        for i in range(count):
            f.write(f"2026-03-14T02:00:{i:02d}Z pid=42 stream={stream} disk full\n")
    return log


def test_error_log_is_named_on_stderr_after_the_table(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    log = _log_lines(stream, 3)
    r = _show(str(stream))
    assert r.returncode == 0  # a warning, not a failure: the table is still right
    assert r.stderr == f"hooktui show: 3 tap errors in {log}\n"
    assert r.stdout.splitlines()[-1].startswith("8 calls")  # the tally still ends stdout
    assert "tap error" not in r.stdout


def test_one_error_is_singular_and_only_streams_with_a_log_are_named(tmp_path: Path) -> None:
    quiet = write_stream(tmp_path / "quiet.jsonl", varied_records()[:2])
    broken = write_stream(tmp_path / "broken.jsonl", varied_records()[2:4])
    log = _log_lines(broken, 1)
    r = _show(str(quiet), str(broken))
    assert r.returncode == 0
    assert r.stderr == f"hooktui show: 1 tap error in {log}\n"


def test_no_error_log_nothing_on_stderr(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    Path(error_log_path(str(stream))).write_bytes(b"")  # an empty log says nothing either
    r = _show(str(stream))
    assert r.returncode == 0
    assert r.stderr == ""
    assert r.stdout.splitlines()[-1].startswith("8 calls")


def test_json_output_is_left_alone(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    _log_lines(stream, 2)
    r = _show(str(stream), "--format", "json")
    assert r.returncode == 0
    assert r.stdout.encode() == stream.read_bytes()
    assert r.stderr == ""  # the line goes with the text table; JSON users read the log itself


def test_follow_names_the_log_before_waiting(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    log = _log_lines(stream, 2)
    run = Running([str(stream), "--follow"])
    try:
        run.wait_for(f"hooktui show: 2 tap errors in {log}\n".encode(), where="err")
        run.wait_for(b"sleep 50")  # and the recorded rows are shown as usual
    finally:
        assert run.stop() == 0


def test_a_stream_the_taps_could_not_write_says_so_and_where(tmp_path: Path) -> None:
    """A read-only mount: every tap failed, its errors went to the fallback log under
    XDG_RUNTIME_DIR; `show` names that log, not "record one" (issue 19)."""
    folder = tmp_path / "readonly"
    folder.mkdir()
    stream = folder / "stream.jsonl"
    readonly = f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder}"
    tap = f'{readonly} && exec "$@"'
    done = subprocess.run(
        ["unshare", "-m", "--", "sh", "-c", tap, "sh",
         HOOKTUI, "tap", "--wait", "--stream", str(stream), "--", "cat"],
        input=b"{}", capture_output=True, timeout=60,
    )  # fmt: skip
    assert (done.stdout, done.returncode) == (b"{}", 0) and not stream.exists(), done.stderr
    r = _show(str(stream))
    assert r.returncode != 0
    assert "taps could not write it" in r.stderr and "tap-errors.log" in r.stderr
    assert "record one" not in r.stderr
