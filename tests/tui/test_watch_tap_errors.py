"""The watch header warns about the tap's error log beside a stream: real files, the real app."""

from __future__ import annotations

import subprocess
from datetime import UTC
from pathlib import Path

from hooktui.tap.base.stream import error_log_path
from hooktui.tap.read.errlog import TapErrorLog
from hooktui.tui.app.watch import WatchApp
from textual.geometry import Region

from tests.conftest import HOOKTUI, wait_for_lines
from tests.tui.conftest import varied_records, wait_until, write_stream

SIZE = (80, 24)


def _log_lines(stream: Path, count: int, start: int = 0) -> None:
    with open(error_log_path(str(stream)), "a") as f:
        for i in range(start, start + count):
            f.write(f"2026-03-14T02:00:{i:02d}Z pid=42 stream={stream} cannot write the stream\n")


def _header_lines(app: WatchApp) -> list[str]:
    """What the header shows on screen, row by row."""
    header = app.main_screen.header
    region = Region(0, 0, header.size.width, header.size.height)
    return [strip.text.rstrip() for strip in header.render_lines(region)]


def _shows(app: WatchApp, text: str) -> bool:
    return any(text in line for line in _header_lines(app))


async def test_error_log_shows_a_warning_with_its_count(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    _log_lines(stream, 3)
    app = WatchApp([str(stream)], tz=UTC)
    wide = (200, 24)  # room for the whole path (the test's tmp path is long)
    async with app.run_test(size=wide) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        await wait_until(pilot, lambda: _shows(app, "⚠ 3 tap errors"))
        lines = _header_lines(app)
        assert len(lines) == 3  # the warning takes a row of its own
        assert lines[2].strip().startswith("⚠ 3 tap errors")
        assert f"(see {stream}.errors.log)" in lines[2]
        assert app.main_screen.header.has_class("-tap-errors")


async def test_appended_error_lines_update_the_count(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    _log_lines(stream, 1)
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: _shows(app, "⚠ 1 tap error "))
        _log_lines(stream, 2, start=1)
        await wait_until(pilot, lambda: _shows(app, "⚠ 3 tap errors"))
        _log_lines(stream, 1, start=3)
        await wait_until(pilot, lambda: _shows(app, "⚠ 4 tap errors"))
        assert app.main_screen.feed.tap_errors == [4]


async def test_error_log_appearing_while_watching_shows_the_warning(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        assert not _shows(app, "tap error")
        _log_lines(stream, 2)
        await wait_until(pilot, lambda: _shows(app, "⚠ 2 tap errors"))
        assert len(_header_lines(app)) == 3


async def test_no_error_log_no_warning(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    empty_log_stream = write_stream(tmp_path / "t.jsonl", varied_records()[:2])
    Path(error_log_path(str(empty_log_stream))).write_bytes(b"")  # exists, but no lines
    app = WatchApp([str(stream), str(empty_log_stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 10)
        # A few polls' worth of running: the warning must still not appear.
        for _ in range(3):
            await pilot.pause(0.3)
        lines = _header_lines(app)
        assert len(lines) == 2
        assert not any("tap error" in line for line in lines)
        assert not app.main_screen.header.has_class("-tap-errors")
        assert app.main_screen.feed.tap_errors == [0, 0]


async def test_several_streams_name_only_the_logs_with_errors(tmp_path: Path) -> None:
    quiet = write_stream(tmp_path / "quiet.jsonl", varied_records()[:2])
    broken = write_stream(tmp_path / "broken.jsonl", varied_records()[2:4])
    _log_lines(broken, 2)
    app = WatchApp([str(quiet), str(broken)], tz=UTC, live=False)
    async with app.run_test(size=(120, 24)) as pilot:
        await wait_until(pilot, lambda: _shows(app, "⚠ 2 tap errors"))
        (warning,) = [line for line in _header_lines(app) if "tap error" in line]
        assert "broken.jsonl.errors.log" in warning
        assert "quiet.jsonl" not in warning


async def test_long_paths_shrink_to_file_names_at_80_columns(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / "e"
    deep.mkdir(parents=True)
    stream = write_stream(deep / "s.jsonl", varied_records()[:1])
    _log_lines(stream, 5)
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: _shows(app, "⚠ 5 tap errors"))
        warning = _header_lines(app)[2]
        assert "(see s.jsonl.errors.log)" in warning
        assert len(warning) <= SIZE[0]


async def test_unwritable_stream_end_to_end(tmp_path: Path) -> None:
    # A stream path that is a directory: the tap cannot write it, passes the
    # hook's answer through anyway and logs the problem beside it.
    stream = tmp_path / "stream-dir"
    stream.mkdir()
    out = subprocess.run(
        [HOOKTUI, "tap", "--stream", str(stream), "--", "echo", "{}"],
        input=b"{}",
        capture_output=True,
        timeout=60,
    )
    assert out.returncode == 0 and out.stdout == b"{}\n"
    wait_for_lines(Path(error_log_path(str(stream))), 1)
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: _shows(app, "⚠ 1 tap error "))
        warning = _header_lines(app)[2]
        assert "stream-dir.errors.log)" in warning and len(warning) <= SIZE[0]


def test_error_log_counter_follows_appends_truncation_and_replacement(tmp_path: Path) -> None:
    stream = tmp_path / "s.jsonl"
    log = TapErrorLog(str(stream))
    assert not log.check() and log.count == 0  # no log at all
    _log_lines(stream, 2)
    assert log.check() and log.count == 2
    assert not log.check()  # unchanged: nothing to recount
    path = Path(log.path)
    with open(path, "ab") as f:
        f.write(b"half a line")
    assert not log.check() and log.count == 2  # counted once its newline comes
    with open(path, "ab") as f:
        f.write(b" and the rest\n")
    assert log.check() and log.count == 3
    path.write_bytes(b"one\n")  # truncated and rewritten
    assert log.check() and log.count == 1
    replacement = tmp_path / "other.log"
    replacement.write_bytes(b"a\nb\nc\nd\ne\n")
    replacement.replace(path)  # a new file, larger than the old one
    assert log.check() and log.count == 5
    path.unlink()
    assert log.check() and log.count == 0
