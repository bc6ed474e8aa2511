"""The readers attacked: hostile session files and paths against watch, show and replay.

Each test here pins a defect found by attacking the readers (read-attack): a crash,
an escape sequence reaching the terminal, a misleading line. Real files, real
subprocesses and a real (headless) app; no mocks.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
from datetime import UTC
from pathlib import Path

from hooktui.replay.report import Result
from hooktui.tap.model import Blob, Held, HookInfo
from hooktui.tap.read.lines import load_stream
from hooktui.tap.read.view import StreamLine
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.present.call_tabs import load_tabs
from hooktui.tui.present.replay_tabs import build_tabs
from hooktui.tui.present.rows import call_row
from rich.console import Console

from tests.conftest import HOOKTUI
from tests.tui.conftest import make_record, varied_records, wait_until, write_stream

# What must never reach a terminal as it is: OSC 52 (writes the clipboard), a clear
# screen, a one-byte C1 CSI, NUL, bidi overrides and isolates, a line separator.
HOSTILE = "\x1b]52;c;aGk=\x07\x1b[2J\x9b31m\x00\u202e\u2066rm -rf /\u2028"
UNSAFE = set("\x1b\x07\x9b\x00\u202e\u2066\u2028")


def _inert(text: str) -> bool:
    return not UNSAFE.intersection(text)


def _shown(renderable) -> str:
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def test_watch_refuses_a_symlink_loop_in_one_line(tmp_path: Path) -> None:
    loop = tmp_path / "s.jsonl"
    loop.symlink_to(loop)
    result = subprocess.run(
        [HOOKTUI, "watch", str(loop)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"hooktui watch: cannot read {loop}: Too many levels of symbolic links"
    ]


async def test_watch_follows_a_stream_whose_error_log_is_a_symlink_loop(tmp_path: Path) -> None:
    # The tap's error log beside the stream is followed too: a loop there once
    # took the dashboard down (Path.resolve raises on a loop) as it started following.
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    log = tmp_path / "s.jsonl.errors.log"
    log.symlink_to(log)
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        with open(stream, "ab") as f:
            f.write(write_stream(tmp_path / "one.jsonl", [make_record(9)]).read_bytes())
        await wait_until(pilot, lambda: app.main_screen.view.total == 9)
    assert app.return_code in (None, 0)


def test_a_held_rows_mark_and_the_diff_tab_are_inert(tmp_path: Path) -> None:
    # How a breakpoint let a call go (`released_by`) and the hook's own decision are
    # words from the record: in the row's mark and the diff tab they must stay text.
    records = [
        make_record(0, held=Held(released_by=HOSTILE, held_ms=5.0)),
        make_record(1, decision=HOSTILE),
    ]
    stream = write_stream(tmp_path / "s.jsonl", records)
    heads, _ = load_stream(str(stream))
    assert len(heads) == 2
    for offset, head in heads:
        line = StreamLine(0, offset, head)
        for color in (True, False):
            row = call_row(line, 160, UTC, marked=False, color=color).plain
            assert _inert(row), row
        tabs = load_tabs(str(stream), line, UTC)
        for name, view in tabs.items():
            if name != "loaded":
                assert _inert(_shown(view)), name


def test_replay_text_shows_a_hostile_recorded_decision_inert(tmp_path: Path) -> None:
    # A recorded decision today's reading disagrees with is printed as `recorded`:
    # it came from the file, so it must not act on the terminal either.
    record = make_record(
        0,
        decision=HOSTILE,
        hook=HookInfo(label="guard", argv=["true"], timeout_ms=5000),
        stdout=Blob(),
    )
    session = write_stream(tmp_path / "s.jsonl", [record])
    result = subprocess.run(
        [HOOKTUI, "replay", str(session), "--format", "text", "--policy", "cat >/dev/null"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
    )
    assert result.returncode in (0, 1), result.stderr
    assert "recorded" in result.stdout
    assert _inert(result.stdout), [
        line for line in result.stdout.splitlines() if "recorded" in line
    ]
    assert "\\x1b]52" in result.stdout  # shown, as an escape


def test_the_replay_response_tab_shows_a_hostile_blob_encoding_inert() -> None:
    # A blob's `encoding` other than utf-8 is named, not decoded: the name is the file's.
    record = make_record(
        0,
        stdout=Blob(data="", encoding=HOSTILE, length=3),
        stderr=Blob(data="", encoding=HOSTILE, length=3),
    )
    result = Result(index=0, line=1, record=record, cls="unchanged")
    text = _shown(build_tabs(result)["response"])
    assert "\\x1b]52" in text
    assert _inert(text), text


def test_the_raw_tab_shows_a_line_nested_too_deep_as_text(tmp_path: Path) -> None:
    # Valid JSON nested past what msgspec reads is a bad line; its raw tab still
    # shows the line itself, not an error about the tab.
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(b'{"deep":' + b"[" * 5000 + b"]" * 5000 + b"}\n")
    heads, _ = load_stream(str(stream))
    ((offset, head),) = heads
    raw = _shown(load_tabs(str(stream), StreamLine(0, offset, head), UTC)["raw"])
    assert "cannot show" not in raw
    assert '{"deep":[[[[' in raw


def _bounded() -> None:
    # 2 GiB of address space: a reader that holds an endless input fails, not the machine.
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def _cli(*args: str, cwd: Path | None = None, stdin=subprocess.DEVNULL):
    return subprocess.run(
        [HOOKTUI, *args],
        capture_output=True,
        text=True,
        stdin=stdin,
        cwd=cwd,
        timeout=120,
        preexec_fn=_bounded,
    )


def test_show_names_a_symlink_loop_for_what_it_is(tmp_path: Path) -> None:
    loop = tmp_path / "s.jsonl"
    loop.symlink_to(loop)
    result = _cli("show", str(loop))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"hooktui show: cannot read {loop}: Too many levels of symbolic links"
    ]


def test_error_lines_show_a_hostile_argument_inert(tmp_path: Path) -> None:
    # A filter or a path from a shared script is text: the one error line it earns
    # must not retitle the terminal or write its clipboard.
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    word = HOSTILE.replace("\x00", "").replace("/", "|")  # an argument holds neither
    for args in (
        ("show", str(stream), "--filter", f"latency>{word}"),
        ("show", str(stream), "--group-by", word),
        ("replay", str(tmp_path / word)),
        ("replay", str(stream), "--format", word),
        ("watch", f"--{word}"),
    ):
        result = _cli(*args, cwd=tmp_path)
        assert result.returncode == 2, args
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert _inert(result.stderr), result.stderr


def test_show_survives_a_columns_no_terminal_has(tmp_path: Path) -> None:
    # Rows are padded to COLUMNS in a pipe: a huge one padded each row to gigabytes
    # (MemoryError); "²" is a digit to str.isdigit but not to int (Rich's ValueError).
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    for columns in ("99999999999", "²", "١٢٠"):
        result = subprocess.run(
            [HOOKTUI, "show", str(stream)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "COLUMNS": columns, "LINES": columns},
            timeout=120,
        )
        assert result.returncode == 0, (columns, result.stderr[-300:])
        assert result.stderr == ""
        rows = result.stdout.splitlines()
        assert len(rows) == 10 and "rm -rf /" in result.stdout
        assert max(map(len, rows)) <= 10_000


def test_readers_refuse_an_endless_device_in_one_line(tmp_path: Path) -> None:
    # /dev/zero has no newline, ever: show and replay held it in memory looking for
    # one, and watch spooled it to a temporary file until the disk was full.
    expected = "cannot read /dev/zero: a device, not a stream file"
    for command in ("show", "replay", "watch"):
        result = _cli(command, "/dev/zero", cwd=tmp_path)
        assert result.returncode == 2, command
        assert result.stderr.splitlines() == [f"hooktui {command}: {expected}"]
    with open("/dev/zero", "rb") as zero:
        for command in ("show", "replay"):
            result = _cli(command, "-", cwd=tmp_path, stdin=zero)
            assert result.returncode == 2, command
            assert result.stderr.splitlines() == [
                f"hooktui {command}: cannot read standard input: a device, not a stream file"
            ]


def test_dev_null_still_reads_as_an_empty_stream(tmp_path: Path) -> None:
    result = _cli("show", "/dev/null", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == "0 calls"


def test_show_takes_a_last_bigger_than_any_stream(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    result = _cli("show", str(stream), "--last", "9" * 30, "--format", "json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-300:]
    assert result.stdout == stream.read_text()


# Raw in JSON text, as an encoder leaves them: DEL, a C1 CSI, bidi, a line separator.
RAW_IN_JSON = "\x7f\x9b31m\u202e\u2066rm -rf /\u2028x"


def test_json_hooktui_writes_itself_holds_record_text_escaped(tmp_path: Path) -> None:
    # `show --group-by --format json` and `replay --format json` encode record text
    # anew: written as \\u escapes it is the same JSON value, inert on a terminal.
    # (`show --format json` prints the recorded lines byte for byte, by design.)
    record = make_record(
        0, summary=RAW_IN_JSON, hook=HookInfo(label="guard", argv=["true"], timeout_ms=5000)
    )
    stream = write_stream(tmp_path / "s.jsonl", [record])
    groups = _cli("show", str(stream), "--group-by", "summary", "--format", "json", cwd=tmp_path)
    deny = "cat >/dev/null; echo no >&2; exit 2"  # a change: the report lists it
    report = _cli("replay", str(stream), "--policy", deny, "--format", "json", cwd=tmp_path)
    assert groups.returncode == 0 and report.returncode in (0, 1), report.stderr
    for out in (groups.stdout, report.stdout):
        assert not set(RAW_IN_JSON[:1] + RAW_IN_JSON[1:2] + "\u202e\u2066\u2028") & set(out)
    assert json.loads(groups.stdout)["key"] == RAW_IN_JSON
    # (the report's summary is on one line: the separator became a space)
    assert json.loads(report.stdout)["changes"][0]["summary"] == RAW_IN_JSON.replace("\u2028", " ")
