"""Fleet replay (issue 22) against the real engines: byte-range parts on real files,
`--part K/N` + `--merge`, a Dask LocalCluster started by `--cluster local:2`, and a
scheduler and worker run as separate processes (`--cluster tcp://…`). Each is held to
the local replay of the same stream, record for record (the JSON report lists every
record that changed, was skipped, or carries a note, and counts the rest)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hooktui.replay.parts import Owned, owned_lines, split
from hooktui.tap.model import encode_record

from tests.lacking import importable, run_without
from tests.replay.fleet_helpers import (
    Scheduler,
    fleet_session,
    guard_pair,
    recorded,
    replay,
    report,
)
from tests.replay.helpers import PYTHON

RECORDS = 60  # six commands, ten times each


def test_parts_read_every_line_once(tmp_path: Path):
    rng = random.Random(22)
    lines = [b"x" * rng.randint(0, 300) for _ in range(400)]
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n" + b"torn")
    size = path.stat().st_size
    for n in (1, 2, 3, 7, 50, 399, 1000):
        seen: list[bytes] = []
        counted = 0
        torn = False
        for part in split([(str(path), size)], n):
            for segment in part.segments:
                found = Owned()
                with open(path, "rb") as f:
                    seen.extend(owned_lines(f, segment, found))
                counted += found.lines
                torn = torn or found.torn_tail
        assert seen == lines, n
        assert counted == len(lines) and torn


def test_split_spans_streams_in_order():
    parts = split([("a", 10), ("b", 0), ("c", 30)], 4)
    assert [p.index for p in parts] == [1, 2, 3, 4]
    assert [(s.stream, s.start, s.end) for p in parts for s in p.segments] == [
        ("a", 0, 10),
        ("c", 0, 10),
        ("c", 10, 20),
        ("c", 20, 30),
    ]


@pytest.fixture
def fleet(tmp_path: Path):
    v1, v2 = guard_pair(tmp_path)
    stream = fleet_session(tmp_path / "fleet.jsonl", v1, RECORDS, tmp_path)
    local = replay(str(stream), "--policy", f"{PYTHON} {v2}", "--format", "json", cwd=tmp_path)
    assert local.returncode == 1, local.stderr
    return tmp_path, stream, v2, local


def test_parts_and_merge_equal_the_local_replay(fleet):
    where, stream, v2, local = fleet
    files = []
    for k in range(1, 5):
        proc = replay(str(stream), "--policy", f"{PYTHON} {v2}", "--part", f"{k}/4", cwd=where)
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
        files.append(where / f"part{k}.json")
        files[-1].write_bytes(proc.stdout)
    merged = replay("--merge", *map(str, reversed(files)), "--format", "json", cwd=where)
    assert merged.returncode == local.returncode == 1
    assert report(merged) == report(local)
    assert report(local)["changed"] > 0 and report(local)["bad_lines"] == 1
    figures = json.loads(merged.stdout)["fleet"]
    # Each part runs its own distinct requests once: at most six per part.
    assert figures["records"] == RECORDS and figures["requests_run"] <= 4 * 6
    assert figures["runs_saved"] == RECORDS - figures["requests_run"]
    text = replay("--merge", *map(str, files), cwd=where)
    assert text.returncode == 1
    assert f"{figures['runs_saved']} runs saved" in text.stdout.decode()


def test_streams_by_glob_and_by_url(fleet):
    where, stream, v2, local = fleet
    for name in (str(where / "fleet*.jsonl"), f"file://{stream}"):
        part = replay(name, "--policy", f"{PYTHON} {v2}", "--part", "1/1", cwd=where)
        assert part.returncode == 0, part.stderr
        (where / "only.json").write_bytes(part.stdout)
        merged = replay("--merge", str(where / "only.json"), "--format", "json", cwd=where)
        assert report(merged) == report(local), name


def test_merge_refuses_a_missing_or_foreign_part(fleet):
    where, stream, v2, _ = fleet
    one = replay(str(stream), "--policy", f"{PYTHON} {v2}", "--part", "1/3", cwd=where)
    (where / "p1.json").write_bytes(one.stdout)
    missing = replay("--merge", str(where / "p1.json"), cwd=where)
    assert missing.returncode == 2
    assert missing.stderr.decode() == "hooktui replay: 2 parts of 3 missing: 2, 3\n"
    other = replay(str(stream), "--policy", "true", "--part", "2/3", cwd=where)
    (where / "p2.json").write_bytes(other.stdout)
    mixed = replay("--merge", str(where / "p1.json"), str(where / "p2.json"), cwd=where)
    assert mixed.returncode == 2 and b"come from different replays" in mixed.stderr
    bad = replay(str(stream), "--part", "4/3", cwd=where)
    assert bad.returncode == 2 and bad.stderr.count(b"\n") == 1


def test_local_cluster_equals_the_local_replay(fleet):
    where, stream, v2, local = fleet
    proc = replay(
        str(stream),
        "--policy",
        f"{PYTHON} {v2}",
        "--cluster",
        "local:2",
        "--parts",
        "5",
        "--format",
        "json",
        cwd=where,
    )
    assert proc.returncode == local.returncode, proc.stderr
    assert report(proc) == report(local)
    # Across the whole fleet, each distinct request ran once: six of sixty.
    assert json.loads(proc.stdout)["fleet"] == {
        "parts": 5,
        "records": RECORDS,
        "requests_run": 6,
        "runs_saved": RECORDS - 6,
    }


def test_scheduler_address_and_a_guard_missing_on_the_worker(tmp_path: Path):
    """Records whose recorded hook is a file of another machine: said per record, as
    skipped, not counted as a change; the rest replay as recorded (nothing changed)."""
    v1, _ = guard_pair(tmp_path)
    elsewhere = "/nonexistent/home/alice/.claude/hooks/guard.py"
    stream = tmp_path / "mixed.jsonl"
    with open(stream, "wb") as f:
        for i in range(24):
            command = ["git status", "ls -la", "npm test"][i % 3]
            hook = [PYTHON, elsewhere if i % 2 else str(v1)]
            f.write(encode_record(recorded("allow", "", command, str(tmp_path), i, hook)))
    local = replay(str(stream), "--format", "json", cwd=tmp_path)
    assert local.returncode == 0, local.stderr
    scheduler = Scheduler(tmp_path)
    try:
        proc = replay(
            str(stream),
            "--cluster",
            scheduler.address,
            "--parts",
            "3",
            "--format",
            "json",
            cwd=tmp_path,
        )
    finally:
        scheduler.close()
    assert proc.returncode == 0, proc.stderr
    got = report(proc)
    assert got == report(local)
    assert got["skipped"] == 12 and got["unchanged"] == 12 and got["changes"] == []
    reasons = {r["reason"] for r in got["skipped_records"]}
    assert len(reasons) == 1 and reasons.pop().startswith(
        f"needs {elsewhere} from the machine it was recorded on; it is not on "
    )
    assert sorted(r["line"] for r in got["skipped_records"]) == list(range(2, 25, 2))


def test_a_missing_dask_is_one_line(tmp_path: Path):
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(encode_record(recorded("allow", "", "ls", str(tmp_path), 0, ["true"])))
    proc = run_without(
        tmp_path, {"distributed", "dask"}, "replay", str(stream), "--cluster", "local"
    )
    assert not importable(tmp_path, "distributed")
    assert importable(tmp_path, "msgspec")  # the rest is there
    assert proc.returncode == 2
    assert proc.stderr == (
        "hooktui replay: --cluster needs distributed, which is not installed: "
        "pip install 'agent-hooktui[fleet]'\n"
    )


def test_progress_on_a_terminal_and_nowhere_else(tmp_path: Path):
    import os
    import select
    import time

    from hooktui.tui.cli.fleet.cluster import Progress

    master, slave = os.openpty()
    try:
        with os.fdopen(slave, "w") as tty:
            progress = Progress("replaying", 4, 100, stream=tty)
            progress.step(25)
            progress.step(25)
            assert progress.line(10.0) == "replaying: parts 2/4 · 5 records/s · ETA 0:00:10"
            progress.clear()
        shown = ""
        deadline = time.monotonic() + 10
        while "parts 2/4" not in shown and time.monotonic() < deadline:
            if select.select([master], [], [], 0.5)[0]:  # the pty hands writes on one by one
                shown += os.read(master, 4096).decode()
    finally:
        os.close(master)
    assert "replaying: parts 1/4" in shown and "replaying: parts 2/4" in shown
    with open(tmp_path / "log", "w") as log:  # a pipe or a log: nothing
        quiet = Progress("replaying", 4, 100, stream=log)
        quiet.step(25)
    assert (tmp_path / "log").read_text() == ""
