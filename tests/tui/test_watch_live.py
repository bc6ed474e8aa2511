"""The watch app following real files while it runs: appends, a missing stream, truncation, pause."""

from __future__ import annotations

import os
from datetime import UTC
from pathlib import Path

from hooktui.tap.model import RecordHead, encode_record
from hooktui.tui.app.watch import WatchApp

from tests.tui.conftest import make_record, varied_records, wait_until, write_stream
from tests.waits import WAIT_S

SIZE = (120, 36)


def _append(path: Path, data: bytes) -> None:
    with open(path, "ab") as f:
        f.write(data)


async def test_appended_records_show_and_follow(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        _append(stream, encode_record(make_record(100, command="echo appended")))
        await wait_until(pilot, lambda: app.main_screen.view.total == 9)
        current = app.main_screen.calls.current
        assert current is not None and isinstance(current.head, RecordHead)
        assert current.head.summary == "echo appended"  # following: the cursor is on it
        assert app.main_screen.calls.cursor == len(app.main_screen.view) - 1


async def test_torn_line_waits_for_its_newline(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records()[:2])
    app = WatchApp([str(stream)], tz=UTC)
    line = encode_record(make_record(50, command="written in two parts"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 2)
        _append(stream, line[:40])
        # Let the tailer see the half line: it must hold it back, not show it.
        await pilot.pause(0.4)
        assert app.main_screen.view.total == 2
        _append(stream, line[40:])
        await wait_until(pilot, lambda: app.main_screen.view.total == 3)
        assert app.main_screen.view.stats.bad == 0
        assert app.main_screen.view.line(2).head.summary == "written in two parts"


async def test_missing_stream_shows_how_to_start_then_fills(tmp_path: Path) -> None:
    stream = tmp_path / "later" / "stream.jsonl"
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        message = app.main_screen.empty_message()
        assert message is not None
        assert "hooktui install claude-code" in message.plain
        assert "hooktui demo" in message.plain
        assert app.query_one("#body").has_class("-empty")
        stream.parent.mkdir()
        write_stream(stream, varied_records()[:3])
        await wait_until(pilot, lambda: app.main_screen.view.total == 3)
        await wait_until(pilot, lambda: not app.query_one("#body").has_class("-empty"))
        assert app.main_screen.empty_message() is None


async def test_truncated_stream_reloads(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        with open(stream, "wb") as f:  # truncate and start over, as a log rotation would
            f.write(encode_record(make_record(200, command="after rotation")))
        await wait_until(pilot, lambda: app.main_screen.view.total == 1)
        assert app.main_screen.view.line(0).head.summary == "after rotation"


async def test_replaced_file_reloads(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        fresh = write_stream(tmp_path / "new.jsonl", [make_record(i) for i in range(300, 303)])
        os.replace(fresh, stream)
        await wait_until(pilot, lambda: app.main_screen.view.total == 3)
        assert [app.main_screen.view.line(i).head.id for i in range(3)] == [
            "call-00300",
            "call-00301",
            "call-00302",
        ]


async def test_bad_line_appended_is_an_error_row(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records()[:1])
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 1)
        _append(stream, b"this is not json\n")
        await wait_until(pilot, lambda: app.main_screen.view.total == 2)
        assert app.main_screen.view.line(1).is_bad
        assert app.main_screen.view.stats.bad == 1
        assert "bad line" in app.main_screen.calls.render_line(1).text


async def test_pause_holds_records_until_resumed(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records()[:2])
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 2)
        await pilot.press("p")
        assert app.main_screen.header_state().paused
        _append(stream, encode_record(make_record(60)) + encode_record(make_record(61)))
        await wait_until(pilot, lambda: app.main_screen.header_state().buffered == 2)
        assert app.main_screen.view.total == 2  # held back, not applied
        await pilot.press("p")
        assert not app.main_screen.header_state().paused
        assert app.main_screen.view.total == 4
        assert app.main_screen.header_state().buffered == 0


async def test_not_following_counts_new_rows(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records())
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        await pilot.press("k")  # scrolling up stops following
        assert not app.main_screen.calls.following
        row = app.main_screen.calls.cursor
        _append(stream, encode_record(make_record(70)) + encode_record(make_record(71)))
        await wait_until(pilot, lambda: app.main_screen.view.total == 10)
        await wait_until(pilot, lambda: app.main_screen.header_state().new == 2)
        assert app.main_screen.calls.cursor == row  # the cursor stayed put
        assert "2 new" in app.query_one("#header").render().plain
        await pilot.press("G")  # resumes following
        assert app.main_screen.calls.following
        assert app.main_screen.calls.cursor == 9
        await wait_until(pilot, lambda: app.main_screen.header_state().new == 0)


async def test_two_streams_merge_by_time(tmp_path: Path) -> None:
    records = [make_record(i) for i in range(6)]
    a = write_stream(tmp_path / "a.jsonl", records[0::2])
    b = write_stream(tmp_path / "b.jsonl", records[1::2])
    app = WatchApp([str(a), str(b)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 6)
        assert [app.main_screen.view.line(i).head.id for i in range(6)] == [r.id for r in records]
        assert [app.main_screen.view.line(i).source for i in range(6)] == [0, 1, 0, 1, 0, 1]
        _append(b, encode_record(make_record(10)))
        await wait_until(pilot, lambda: app.main_screen.view.total == 7)
        assert app.main_screen.view.line(6).source == 1


async def test_records_arriving_under_a_modal_screen(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records()[:2])
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 2)
        await pilot.press("question_mark")  # the help screen is now the active screen
        _append(stream, encode_record(make_record(80)))
        await wait_until(pilot, lambda: app.main_screen.view.total == 3)
        await pilot.pause(0.3)  # the header redraw that once looked on the wrong screen
        await pilot.press("escape")
        assert "3/3 shown" in app.main_screen.header.render().plain


async def test_a_line_of_many_megabytes(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records()[:1])
    big = "x" * (6 * 1024 * 1024)
    line = encode_record(
        make_record(
            90,
            command="cat huge.log",
            request={"tool_name": "Bash", "tool_input": {"command": "cat huge.log"}, "blob": big},
        )
    )
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 1)
        # Written in pieces, as a slow writer would: only the complete line counts.
        for start in range(0, len(line), 1 << 20):
            _append(stream, line[start : start + (1 << 20)])
        await wait_until(pilot, lambda: app.main_screen.view.total == 2, timeout=WAIT_S)
        assert app.main_screen.view.line(1).head.summary == "cat huge.log"
        await wait_until(
            pilot,
            lambda: (
                app.main_screen.detail.loaded is not None
                and app.main_screen.detail.loaded.stream_line.offset > 0
            ),
            timeout=30,
        )
        assert app.main_screen.detail.loaded.record.request["blob"] == big


async def test_deleted_then_recreated_stream(tmp_path: Path) -> None:
    stream = write_stream(tmp_path / "s.jsonl", varied_records()[:3])
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 3)
        stream.unlink()
        await wait_until(pilot, lambda: app.main_screen.feed.missing[0])
        assert app.main_screen.view.total == 3  # what was read stays on screen
        write_stream(stream, [make_record(400, command="a new file")])
        await wait_until(pilot, lambda: app.main_screen.view.total == 1)
        assert app.main_screen.view.line(0).head.summary == "a new file"
        assert not app.main_screen.feed.missing[0]


async def test_second_stream_appears_later(tmp_path: Path) -> None:
    first = write_stream(tmp_path / "a.jsonl", [make_record(0), make_record(2)])
    second = tmp_path / "b.jsonl"
    app = WatchApp([str(first), str(second)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 2)
        assert app.main_screen.feed.missing == [False, True]
        write_stream(second, [make_record(5)])
        await wait_until(pilot, lambda: app.main_screen.view.total == 3)
        assert app.main_screen.view.line(2).source == 1
        await wait_until(pilot, lambda: "2 streams" in app.main_screen.header.render().plain)


async def test_a_fifo_is_read_as_it_arrives(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    lines = b"".join(encode_record(r) for r in varied_records())

    def writer() -> None:
        with open(fifo, "wb") as f:  # blocks until watch opens it
            f.write(lines)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    app = WatchApp([str(fifo)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.main_screen.view.total == 8)
        await wait_until(pilot, lambda: "pipe" in app.main_screen.header.render().plain)
        await wait_until(pilot, lambda: app.main_screen.detail.loaded is not None)
        await pilot.press("q")
    thread.join(5)


def test_q_exits_on_a_fifo_whose_writer_has_gone(tmp_path: Path) -> None:
    """The real command in a real terminal (tmux): quitting never hangs on a FIFO."""
    import shutil
    import subprocess
    import time

    import pytest

    from tests.conftest import HOOKTUI

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = tmp_path / "done"
    server = f"hooktui-test-{os.getpid()}"
    tmux = ["tmux", "-L", server]
    command = f"{HOOKTUI} watch {fifo}; echo $? > {done}"
    subprocess.run(
        [*tmux, "new-session", "-d", "-x", "100", "-y", "30", command], check=True, timeout=60
    )
    try:
        with open(fifo, "wb") as f:  # one writer, then gone
            f.write(b"".join(encode_record(r) for r in varied_records()[:3]))

        def screen() -> str:
            return subprocess.run(
                [*tmux, "capture-pane", "-p"],
                capture_output=True,
                text=True,
                timeout=60,
            ).stdout

        deadline = time.monotonic() + WAIT_S
        while "3/3 shown" not in screen() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "3/3 shown" in screen()
        subprocess.run([*tmux, "send-keys", "q"], check=True, timeout=60)
        deadline = time.monotonic() + WAIT_S
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert done.exists(), "watch did not exit after q"
        assert done.read_text().strip() == "0"
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=60)


async def test_an_anonymous_pipe_is_a_stream(tmp_path: Path) -> None:
    """`hooktui watch <(cat s.jsonl)`: the shell hands over /dev/fd/N, a pipe with no size."""
    read_end, write_end = os.pipe()
    os.write(write_end, b"".join(encode_record(r) for r in varied_records()))
    os.close(write_end)
    try:
        app = WatchApp([f"/dev/fd/{read_end}"], tz=UTC)
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: app.main_screen.view.total == 8)
            assert app.main_screen.empty_message() is None
            await pilot.press("g")
            await wait_until(
                pilot,
                lambda: app.main_screen.detail.loaded.stream_line is app.main_screen.calls.current,
            )
            assert app.main_screen.detail.loaded.record.id == "call-00000"
    finally:
        os.close(read_end)
