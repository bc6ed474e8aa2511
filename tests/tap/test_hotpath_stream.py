"""Nothing recorded is ever lost or torn: failed appends are undone, odd stream paths refused."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hooktui.tap.base.stream import error_log_path
from hooktui.tap.read.errlog import TapErrorLog

from tests.conftest import HOOKTUI, wait_for_lines
from tests.waits import WAIT_S, read_line, read_rest

REQUEST = json.dumps({"hook_event_name": "PreToolUse", "pad": "p" * 12000}).encode()
FIRST = json.dumps({"a line": "that was there before", "pad": "q" * 1000}).encode() + b"\n"


@pytest.fixture
def runtime_dir(tmp_path, monkeypatch) -> Path:
    """$XDG_RUNTIME_DIR for the tap and for the reader alike (the fallback log's home)."""
    path = tmp_path / "run"
    path.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(path))
    return path


def tap(stream: Path, *extra: str, preexec_fn=None) -> subprocess.CompletedProcess:
    hook = ["sh", "-c", 'cat >/dev/null; echo \'{"decision":"block"}\'; exit 2']
    out = subprocess.run(
        [HOOKTUI, "tap", *extra, "--stream", str(stream), "--", *hook],
        input=REQUEST,
        capture_output=True,
        timeout=60,
        preexec_fn=preexec_fn,
    )
    assert (out.stdout, out.stderr, out.returncode) == (b'{"decision":"block"}\n', b"", 2)
    return out


def test_a_write_past_the_file_size_limit_leaves_the_stream_as_it_was(tmp_path, runtime_dir):
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(FIRST)
    limit = len(FIRST) + 600  # room for the start of the record, not for all of it

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    # First a call without the limit: under it, Python would cut short the
    # bytecode caches it writes for modules changed since their last run.
    tap(tmp_path / "warm-up.jsonl", "--wait")
    tap(stream, "--wait", preexec_fn=small_files)
    assert stream.read_bytes() == FIRST
    (line,) = wait_for_lines(Path(error_log_path(str(stream))), 1)
    assert b"cannot write the stream" in line and b"File too large" in line


@pytest.fixture
def full_disk(tmp_path):
    """A tiny tmpfs, filled up but for the end of the stream's last page."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)],
        capture_output=True,
        timeout=60,
    )
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        (mnt / "s.jsonl").write_bytes(FIRST)
        fd = os.open(mnt / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"f" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False, timeout=60)


@pytest.mark.parametrize("wait", [True, False], ids=["--wait", "detached"])
def test_a_full_disk_leaves_the_stream_as_it_was_and_the_error_is_counted(
    full_disk, runtime_dir, wait
):
    stream = full_disk / "s.jsonl"
    tap(stream, *(["--wait"] if wait else []))
    fallback = runtime_dir / "hooktui" / "tap-errors.log"
    (line,) = wait_for_lines(fallback, 1)  # the log beside the stream is on the full disk
    assert b"No space left on device" in line
    assert stream.read_bytes() == FIRST
    log = TapErrorLog(str(stream))  # what show and watch count
    assert log.check() and log.count == 1 and log.path == str(fallback)


WRITER = """
import json, os, resource, sys
from hooktui.tap.base import stream
path, who, count, limited = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
done = []
for i in range(count):
    line = json.dumps({"who": who, "i": i, "pad": who[-1] * 3000}).encode() + b"\\n"
    if limited:  # a limit that cuts this very line in two, if nobody else writes first
        size = os.stat(path).st_size if os.path.exists(path) else 0
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + len(line) // 2, resource.RLIM_INFINITY))
    try:
        stream.append_line(path, line)
        done.append(i)
    except OSError:
        pass
print(json.dumps(done))
"""


def test_failed_appends_among_concurrent_ones_tear_and_lose_nothing(tmp_path):
    stream = tmp_path / "s.jsonl"
    writers = {f"w{n}": n % 2 == 1 for n in range(12)}  # half of them keep failing
    procs = {
        who: subprocess.Popen(
            [sys.executable, "-c", WRITER, str(stream), who, "150", "1" if limited else "0"],
            stdout=subprocess.PIPE,
        )
        for who, limited in writers.items()
    }
    written = set()
    for who, proc in procs.items():
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0
        written |= {(who, i) for i in json.loads(out)}
    data = stream.read_bytes()
    assert data.endswith(b"\n")
    lines = [json.loads(line) for line in data.split(b"\n")[:-1]]  # every line whole
    found = [(line["who"], line["i"]) for line in lines]
    assert len(found) == len(set(found)) and set(found) == written
    assert all(line["pad"] == line["who"][-1] * 3000 for line in lines)
    unlimited = sum(1 for limited in writers.values() if not limited)
    assert len(written) >= unlimited * 150  # the failing writers lost only their own lines


def test_a_fifo_as_the_stream_is_refused_at_once(tmp_path, runtime_dir):
    stream = tmp_path / "fifo"
    os.mkfifo(stream)
    tap(stream, "--wait")  # would block forever in open(): the test's timeout catches it
    tap(stream)
    lines = wait_for_lines(Path(error_log_path(str(stream))), 2)
    assert all(b"not a regular file (a FIFO)" in line for line in lines)


def test_a_fifo_with_a_reader_gets_nothing_either(tmp_path, runtime_dir):
    stream = tmp_path / "fifo"
    os.mkfifo(stream)
    reader = os.open(stream, os.O_RDONLY | os.O_NONBLOCK)
    try:
        tap(stream, "--wait")
        assert os.read(reader, 1 << 16) == b""
    finally:
        os.close(reader)
    (line,) = wait_for_lines(Path(error_log_path(str(stream))), 1)
    assert b"not a regular file (a FIFO)" in line


def test_an_error_log_that_is_a_fifo_sends_the_error_to_the_fallback(tmp_path, runtime_dir):
    stream = tmp_path / "d"
    stream.mkdir()  # the stream cannot be written...
    os.mkfifo(error_log_path(str(stream)))  # ...nor its error log
    tap(stream, "--wait")
    (line,) = wait_for_lines(runtime_dir / "hooktui" / "tap-errors.log", 1)
    assert b"cannot write the stream" in line
    assert TapErrorLog(str(stream)).check()


def test_the_fallback_log_is_private_and_refuses_someone_elses_directory(tmp_path, runtime_dir):
    stream = tmp_path / "d"
    stream.mkdir()
    Path(error_log_path(str(stream))).mkdir()
    theirs = runtime_dir / "hooktui"
    theirs.mkdir(mode=0o777)
    theirs.chmod(0o777)  # not ours alone: skipped for /tmp/hooktui-<uid>
    tap(stream, "--wait")
    assert not (theirs / "tap-errors.log").exists()
    mine = Path(f"/tmp/hooktui-{os.getuid()}")
    assert mine.stat().st_mode & 0o777 == 0o700
    assert TapErrorLog(str(stream)).check()


def test_a_line_torn_by_a_killed_writer_does_not_swallow_the_next_record(tmp_path):
    """SIGKILL in the middle of a write leaves part of a line: the next one stays whole."""
    stream = tmp_path / "s.jsonl"
    torn = FIRST + b'{"id": "cut short by SIGKIL'
    stream.write_bytes(torn)
    tap(stream, "--wait")
    data = stream.read_bytes()
    assert data.startswith(torn + b"\n")
    record = json.loads(data[len(torn) + 1 :])
    assert record["exit_code"] == 2 and data.endswith(b"\n")
    (line,) = wait_for_lines(Path(error_log_path(str(stream))), 1)
    assert b"ended inside a line" in line


KILLED_WRITER = """
import json, sys
from hooktui.tap.base import stream
path, who = sys.argv[1], sys.argv[2]
for i in range(10**6):
    stream.append_line(path, json.dumps({"who": who, "i": i, "pad": "k" * (1 << 20)}).encode() + b"\\n")
    print(i, flush=True)
"""


def test_writers_killed_at_random_moments_glue_no_records_together(tmp_path):
    stream = tmp_path / "s.jsonl"
    done: dict[str, int] = {}
    for round_ in range(6):
        procs = {
            f"r{round_}w{n}": subprocess.Popen(
                [sys.executable, "-c", KILLED_WRITER, str(stream), f"r{round_}w{n}"],
                stdout=subprocess.PIPE,
            )
            for n in range(4)
        }
        for proc in procs.values():
            read_line(proc.stdout)  # it has written at least one line
        for who, proc in procs.items():
            os.kill(proc.pid, 9)  # SIGKILL, wherever it is (often inside a 1 MiB write)
            proc.wait(timeout=WAIT_S)
            with proc.stdout:
                done[who] = max([-1, *map(int, read_rest(proc.stdout).split())])
    whole = set()
    for line in stream.read_bytes().split(b"\n")[:-1]:
        try:
            record = json.loads(line)
        except ValueError:
            assert line.count(b'{"who"') == 1  # a torn line holds one record's start, alone
            continue
        whole.add((record["who"], record["i"]))
    for who, last in done.items():  # every line a writer finished is there, whole
        assert {(who, i) for i in range(last + 1)} <= whole
