"""`hooktui show`, run as a real subprocess on real stream files."""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from pathlib import Path

import pytest
from hooktui.tap import model

from tests import records
from tests.conftest import HOOKTUI
from tests.waits import WAIT_S, finish, read_line


def rec(i: int, **kw) -> model.Record:
    return records.record(
        records.numbered(i, f"echo number-{i}", ts_suffix=".000Z"),
        dict(
            duration_ms=12.0 + i,
            exit_code=0,
            hook=model.HookInfo(label="guard.py", timeout_ms=60000),
        ),
        **kw,
    )


RECORDS = [
    rec(1),
    rec(2, decision="deny", reason="no deleting", summary="rm -rf build", exit_code=2),
    rec(
        3,
        runtime="codex",
        event="post_tool_use",
        tool_name="mcp__github__create_issue",
        decision="failure",
        failure="timeout",
        effect="proceeds",
        summary="create issue",
        duration_ms=59_000.0,
        exit_code=None,
        signal=9,
    ),
]


def write(path: Path, parts: list[model.Record | bytes]) -> list[bytes]:
    """Writes the parts; returns each record's line as written (newline included)."""
    lines = []
    with path.open("ab") as f:
        for part in parts:
            data = model.encode_record(part) if isinstance(part, model.Record) else part
            f.write(data)
            if isinstance(part, model.Record):
                lines.append(data)
    return lines


def env(**extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e.update(COLUMNS="200", NO_COLOR="1", TERM="dumb")
    e.pop("HOOKTUI_STREAM", None)
    e.update(extra)
    return e


def show(*args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [HOOKTUI, "show", *args],
        capture_output=True,
        text=True,
        env=kw.pop("env", None) or env(),
        timeout=60,
        **kw,
    )


def assert_one_clean_line(stderr: str) -> None:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr


@pytest.fixture
def stream(tmp_path: Path) -> tuple[Path, list[bytes]]:
    p = tmp_path / "stream.jsonl"
    lines = write(p, [RECORDS[0], b"this is not json\n", RECORDS[1], RECORDS[2]])
    return p, lines


# --- text -----------------------------------------------------------------


def test_text_table_rows_bad_lines_and_tally(stream):
    p, _ = stream
    r = show(str(p))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Traceback" not in r.stderr
    rows = out.splitlines()
    header = rows[0].split()
    assert header == [
        "answered",
        "runtime",
        "event",
        "hook",
        "tool",
        "summary",
        "decision",
        "latency",
        "why",
    ]
    assert "echo number-1" in out and "rm -rf build" in out and "create issue" in out
    deny_row = next(r for r in rows if "rm -rf build" in r)
    assert "deny" in deny_row and "Bash" in deny_row and "guard.py" in deny_row
    fail_row = next(r for r in rows if "create issue" in r)
    assert "timeout" in fail_row and "codex" in fail_row and "post" in fail_row
    assert "59.00s" in fail_row
    bad_row = next(r for r in rows if "bad line" in r)
    assert "not a JSON" in bad_row or "invalid JSON" in bad_row
    # Rows come in file order; the bad line sits where it is in the file.
    order = [
        i for i, r in enumerate(rows) if any(s in r for s in ("number-1", "bad line", "rm -rf"))
    ]
    assert (
        "number-1" in rows[order[0]] and "bad line" in rows[order[1]] and "rm -rf" in rows[order[2]]
    )
    tally = rows[-1]
    assert tally.startswith("3 calls")
    assert "1 allow" in tally and "1 deny" in tally and "1 failure" in tally
    assert "1 failed open" in tally and "1 bad line" in tally


def test_tally_percentiles_are_the_watch_headers(tmp_path):
    # 20 calls of 1..20 ms: watch's header (nearest rank) puts p95 at the 19th;
    # show's tally is computed by the same Stats, so it says the same.
    p = tmp_path / "s.jsonl"
    write(p, [rec(i, duration_ms=float(i)) for i in range(1, 21)])
    tally = show(str(p)).stdout.splitlines()[-1]
    assert "p50 10ms, p95 19ms" in tally


def test_text_with_filter_hides_bad_lines_but_counts_them(stream):
    p, _ = stream
    r = show(str(p), "--filter", "decision:deny or failure:timeout")
    assert r.returncode == 0, r.stderr
    assert "rm -rf build" in r.stdout and "create issue" in r.stdout
    assert "number-1" not in r.stdout
    assert "bad line at" not in r.stdout and "not json" not in r.stdout
    tally = r.stdout.splitlines()[-1]
    assert tally.startswith("2 of 3 calls") and "1 bad line" in tally


def test_text_narrow_terminal_drops_columns_not_the_summary(stream):
    p, _ = stream
    r = show(str(p), env=env(COLUMNS="80"))
    assert r.returncode == 0, r.stderr
    assert all(len(line) <= 80 for line in r.stdout.splitlines()[:-1])
    assert "rm -rf build" in r.stdout and "deny" in r.stdout


# --- json -----------------------------------------------------------------


def test_json_is_the_original_lines_byte_for_byte(stream):
    p, lines = stream
    r = subprocess.run(
        [HOOKTUI, "show", str(p), "--format", "json"], capture_output=True, env=env(), timeout=60
    )
    assert r.returncode == 0
    assert r.stdout == b"".join(lines)
    err = r.stderr.decode()
    assert_one_clean_line(err)
    assert "bad line at byte" in err and str(len(lines[0])) in err


def test_json_with_filter(stream):
    p, lines = stream
    r = show(str(p), "--format", "json", "-f", "tool:bash -decision:allow")
    assert r.returncode == 0
    assert [json.loads(x)["id"] for x in r.stdout.splitlines()] == ["r2"]
    assert r.stdout.encode() == lines[1]


def test_last_n(stream):
    p, _ = stream
    r = show(str(p), "--format", "json", "--last", "2")
    assert [json.loads(x)["id"] for x in r.stdout.splitlines()] == ["r2", "r3"]
    r = show(str(p), "--format", "json", "--last", "0")
    assert r.stdout == "" and r.returncode == 0


def test_several_streams_merge_by_time(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write(a, [rec(1), rec(4)])
    write(b, [rec(2), rec(3), rec(5)])
    r = show(str(a), str(b), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert [json.loads(x)["id"] for x in r.stdout.splitlines()] == ["r1", "r2", "r3", "r4", "r5"]
    t = show(str(a), str(b))
    assert t.stdout.splitlines()[0].split()[1] == "stream"
    assert "a.jsonl" in t.stdout and "b.jsonl" in t.stdout
    assert t.stdout.splitlines()[-1].startswith("5 calls")


def test_default_stream_from_the_environment(tmp_path, stream):
    p, lines = stream
    r = show("--format", "json", env=env(HOOKTUI_STREAM=str(p)))
    assert r.returncode == 0
    assert r.stdout.encode() == b"".join(lines)
    # Without HOOKTUI_STREAM: the XDG state directory.
    state = tmp_path / "state"
    (state / "hooktui").mkdir(parents=True)
    write(state / "hooktui" / "stream.jsonl", [rec(9)])
    r = show("--format", "json", env=env(XDG_STATE_HOME=str(state)))
    assert [json.loads(x)["id"] for x in r.stdout.splitlines()] == ["r9"]


# --- bad input ------------------------------------------------------------


def test_missing_stream_is_one_line_and_exit_2(tmp_path):
    r = show(str(tmp_path / "nope.jsonl"))
    assert r.returncode == 2
    assert_one_clean_line(r.stderr)
    assert "no stream at" in r.stderr and "nope.jsonl" in r.stderr
    assert r.stdout == ""


def test_directory_instead_of_a_stream(tmp_path):
    r = show(str(tmp_path))
    assert r.returncode == 2
    assert_one_clean_line(r.stderr)


@pytest.mark.parametrize(
    ("expr", "where"),
    [
        ("tool:bash)", "unexpected ')' at 9"),
        ('"rm -rf', "unclosed quote at 0"),
        ("colour:red", "at 0"),
    ],
)
def test_bad_filter_names_the_position(stream, expr, where):
    p, _ = stream
    r = show(str(p), "--filter", expr)
    assert r.returncode == 2
    assert_one_clean_line(r.stderr)
    assert "bad filter" in r.stderr and where in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize(
    "args", [["--bogus"], ["--format", "xml"], ["--last", "x"], ["--last", "-1"]]
)
def test_bad_arguments(stream, args):
    p, _ = stream
    r = show(str(p), *args)
    assert r.returncode == 2
    assert_one_clean_line(r.stderr)


def test_closed_pipe_ends_quietly(tmp_path):
    p = tmp_path / "big.jsonl"
    write(p, [rec(i % 60, id=f"x{i}") for i in range(3000)])
    proc = subprocess.Popen(
        [HOOKTUI, "show", str(p), "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = read_line(proc.stdout)
    assert json.loads(first)["id"] == "x0"
    proc.stdout.close()  # like `| head -1`
    err = finish(proc)[1].decode()
    assert proc.returncode == 0
    assert "Traceback" not in err and "Broken pipe" not in err


# --- follow ---------------------------------------------------------------


class Running:
    """A `hooktui show --follow` process whose output is read as it comes."""

    def __init__(self, args: list[str], extra_env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [HOOKTUI, "show", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env(**(extra_env or {})),
        )
        self.out = b""
        self.err = b""
        self.sel = selectors.DefaultSelector()
        assert self.proc.stdout is not None and self.proc.stderr is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        os.set_blocking(self.proc.stderr.fileno(), False)
        self.sel.register(self.proc.stdout, selectors.EVENT_READ, "out")
        self.sel.register(self.proc.stderr, selectors.EVENT_READ, "err")

    def _pump(self, wait: float) -> None:
        for key, _ in self.sel.select(wait):
            chunk = os.read(key.fileobj.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk:
                self.sel.unregister(key.fileobj)
                continue
            if key.data == "out":
                self.out += chunk
            else:
                self.err += chunk

    def wait_for(self, needle: bytes, where: str = "out", limit: float = 30.0) -> None:
        """Reads until `needle` shows up (the limit only keeps a broken run from hanging)."""
        deadline = time.monotonic() + limit
        while needle not in (self.out if where == "out" else self.err):
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never came; out={self.out!r} err={self.err!r}")
            assert self.proc.poll() is None, f"exited early: {self.err!r}"
            self._pump(0.1)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=WAIT_S)
        while self.sel.get_map():
            self._pump(0.1)
        return code


def test_follow_json_prints_appended_records(stream):
    p, lines = stream
    run = Running([str(p), "--format", "json", "--follow", "--filter", "-decision:failure"])
    try:
        run.wait_for(lines[1])  # the existing matches come first
        assert lines[2] not in run.out  # filtered out
        new = write(p, [rec(10, summary="appended later")])
        run.wait_for(new[0])
        write(p, [rec(11, decision="failure", effect="blocks")])
        write(p, [rec(12)])
        torn = model.encode_record(rec(13))
        write(p, [torn[:30]])  # half a line: never printed early
        run.wait_for(b'"id":"r12"')
        assert b'"id":"r11"' not in run.out
        assert b'"id":"r13"' not in run.out
        write(p, [torn[30:]])
        run.wait_for(torn)
    finally:
        code = run.stop()
    assert code == 0
    assert run.out == lines[0] + lines[1] + new[0] + model.encode_record(rec(12)) + torn
    assert b"Traceback" not in run.err


def test_follow_waits_for_a_missing_stream(tmp_path):
    p = tmp_path / "later" / "stream.jsonl"
    run = Running(["--follow"], extra_env={"HOOKTUI_STREAM": str(p)})
    try:
        run.wait_for(b"waiting for", where="err")
        p.parent.mkdir()
        write(p, [rec(1, summary="first call ever")])
        run.wait_for(b"first call ever")
        write(p, [b"garbage line\n", rec(2, summary="second call")])
        run.wait_for(b"second call")
        assert b"bad line" in run.out  # no filter: bad lines are shown
    finally:
        code = run.stop()
    assert code == 0
    assert b"Traceback" not in run.err


def test_follow_across_truncation(stream):
    p, _ = stream
    run = Running([str(p), "--format", "json", "--follow"])
    try:
        run.wait_for(b'"id":"r3"')
        with p.open("r+b") as f:
            f.truncate(0)
        run.wait_for(b"truncated or replaced", where="err")
        new = write(p, [rec(20)])
        run.wait_for(new[0])
    finally:
        assert run.stop() == 0


def test_ascii_only_output_does_not_crash(stream):
    p, _ = stream
    r = subprocess.run(
        [HOOKTUI, "show", str(p)],
        capture_output=True,
        env=env(PYTHONIOENCODING="ascii"),
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert b"rm -rf build" in r.stdout
    assert r.stdout.splitlines()[-1].startswith(b"3 calls")


def test_follow_ends_cleanly_on_ctrl_c(stream):
    p, _ = stream
    run = Running([str(p), "--follow"])
    try:
        run.wait_for(b"rm -rf build")
    finally:
        run.proc.send_signal(signal.SIGINT)
        code = run.proc.wait(timeout=WAIT_S)
    assert code == 0
    assert run.proc.stderr is not None
    assert b"Traceback" not in run.err + (run.proc.stderr.read() or b"")


def test_help_carries_the_filter_syntax():
    r = show("--help")
    assert r.returncode == 0
    assert "latency>50ms" in r.stdout and "tool:mcp__*" in r.stdout
