"""`hooktui show` on what is not a plain file: pipes, FIFOs, stdin, links; and following rewrites.

Real subprocesses, real FIFOs and real process substitution (bash).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from hooktui.tap import model

from tests.conftest import HOOKTUI
from tests.tui.test_show import RECORDS, Running, env, rec, show, write
from tests.waits import WAIT_S, join


def _ids(stdout: str) -> list[str]:
    return [json.loads(x)["id"] for x in stdout.splitlines()]


@pytest.fixture
def stream(tmp_path: Path) -> tuple[Path, list[bytes]]:
    p = tmp_path / "s.jsonl"
    return p, write(p, [RECORDS[0], b"not json\n", RECORDS[1], RECORDS[2]])


def test_stdin_as_dash(stream):
    p, lines = stream
    r = subprocess.run(
        [HOOKTUI, "show", "-", "--format", "json"],
        input=p.read_bytes(),
        capture_output=True,
        env=env(),
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"".join(lines)  # byte for byte, like a file
    assert b"bad line at byte" in r.stderr
    t = subprocess.run(
        [HOOKTUI, "show", "-"], input=p.read_bytes(), capture_output=True, env=env(), timeout=60
    )
    assert t.returncode == 0, t.stderr
    assert t.stdout.decode().splitlines()[-1].startswith("3 calls")


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for <(...)")
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_process_substitution(stream, fmt):
    p, lines = stream
    r = subprocess.run(
        ["bash", "-c", f'"$0" show --format {fmt} <(cat "$1")', HOOKTUI, str(p)],
        capture_output=True,
        env=env(),
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    if fmt == "json":
        assert r.stdout == b"".join(lines)
    else:
        assert b"rm -rf build" in r.stdout
        assert r.stdout.splitlines()[-1].startswith(b"3 calls")


def test_fifo_rows_come_as_they_are_written(tmp_path):
    # show streams: rows written into a FIFO are printed while the writer
    # still holds it open, not only after it closed.
    fifo = tmp_path / "live.fifo"
    os.mkfifo(fifo)
    run = Running([str(fifo), "--format", "json"])
    try:
        with fifo.open("wb", buffering=0) as w:
            first = model.encode_record(rec(1, summary="first through the fifo"))
            w.write(first)
            run.wait_for(first)
            second = model.encode_record(rec(2))
            w.write(second)
            run.wait_for(second)
        assert run.proc.wait(timeout=WAIT_S) == 0  # the writer went: the stream ended
    finally:
        if run.proc.poll() is None:
            run.stop()


def test_a_file_named_twice_or_through_a_link_is_read_once(stream, tmp_path):
    p, lines = stream
    link = tmp_path / "link.jsonl"
    link.symlink_to(p)
    r = show(str(p), str(link), str(p), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert _ids(r.stdout) == ["r1", "r2", "r3"]
    t = show(str(p), str(link))
    assert t.stdout.splitlines()[-1].startswith("3 calls")
    assert "stream" not in t.stdout.splitlines()[0].split()  # one stream: no stream column


def test_several_streams_merge_by_when_hooks_answered(tmp_path):
    # A slow call that started first ends last: it comes last, and the time
    # each row shows is that end time, so the times read in order.
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write(a, [rec(1, id="slow", duration_ms=30_000.0)])  # 10:00:01 + 30 s
    write(b, [rec(5, id="quick", duration_ms=10.0), rec(40, id="later", duration_ms=10.0)])
    r = show(str(a), str(b), "--format", "json")
    assert _ids(r.stdout) == ["quick", "slow", "later"]
    t = show(str(a), str(b), "--utc")
    rows = [x for x in t.stdout.splitlines()[1:-1]]
    times = [x.split()[0] for x in rows]
    assert times == ["10:00:05.010", "10:00:31.000", "10:00:40.010"]
    assert times == sorted(times)


def test_follow_sees_a_file_truncated_then_grown_past_its_old_size(stream):
    p, _ = stream
    run = Running([str(p), "--format", "json", "--follow"])
    try:
        run.wait_for(b'"id":"r3"')
        size = p.stat().st_size
        # Rewritten between two polls: truncated, then more bytes than before.
        big = [rec(30 + i, summary="after the rewrite " + "x" * 200) for i in range(8)]
        data = b"".join(model.encode_record(r) for r in big)
        assert len(data) > size
        with p.open("r+b") as f:  # in place: same inode, as `cat new > s.jsonl` does
            f.write(data)
            f.truncate(len(data))
        run.wait_for(b"truncated or replaced", where="err")

        def after_first_new() -> bytes:
            head, found, tail = run.out.rpartition(b'"id":"r30"')
            return tail if found else b""

        deadline = time.monotonic() + WAIT_S
        while b'"id":"r37"' not in after_first_new():  # the first new record is not skipped
            assert time.monotonic() < deadline, (run.out, run.err)
            run._pump(0.1)
        assert all(f'"id":"r{i}"'.encode() in after_first_new() for i in range(31, 38))
    finally:
        assert run.stop() == 0


def test_follow_a_fifo_keeps_printing(tmp_path):
    fifo = tmp_path / "f.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def writer() -> None:
        with fifo.open("wb", buffering=0) as w:
            for i in range(3):
                line = model.encode_record(rec(i, id=f"f{i}"))
                got.append(line)
                w.write(line)

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    r = subprocess.run(
        [HOOKTUI, "show", str(fifo), "--format", "json"], capture_output=True, env=env(), timeout=60
    )
    join(t)
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"".join(got)
