"""`hooktui watch FILE` draws its first screen before Textual loads, as the app then shows it.

The real command in a real terminal (tmux): the screen drawn before the app
(its detail pane still blank) and the app's first frame must agree line for
line outside the detail pane: header, column titles, rows, and the footer,
which keeps its keys through the takeover. Keys typed
meanwhile reach the app unechoed, and the tty's mode is restored at the end.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import subprocess
import time
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tap.model import encode_record
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.cli.watch_first import read_first
from hooktui.tui.present.first_screen import (
    COLUMNS,
    CURSOR,
    FOOTER,
    FOOTER_KEY,
    HEADER,
    SCREEN,
    list_box,
)
from textual.widgets._footer import FooterKey

from tests.conftest import HOOKTUI
from tests.tui.conftest import make_record, varied_records
from tests.waits import WAIT_S

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

TABS = " Summary  Request"  # the detail pane's tabs: only the app draws them


def write_stream(path: Path, n: int = 60) -> list:
    records = varied_records() + [make_record(i, command=f"echo call {i}") for i in range(8, n)]
    path.write_bytes(b"".join(encode_record(r) for r in records))
    return records


class Tmux:
    def __init__(self, tmp_path: Path, width: int, height: int) -> None:
        self.base = ["tmux", "-L", f"hooktui-first-{os.getpid()}-{width}x{height}"]
        self.size = (width, height)
        subprocess.run(
            [
                *self.base,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                str(width),
                "-y",
                str(height),
            ],
            check=True,
            env={**os.environ, "TZ": "UTC"},
            timeout=60,
        )
        subprocess.run([*self.base, "set", "-g", "status", "off"], check=True, timeout=60)

    def run(self, command: str) -> None:
        subprocess.run([*self.base, "send-keys", "-l", command], check=True, timeout=60)
        subprocess.run([*self.base, "send-keys", "Enter"], check=True, timeout=60)

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", *keys], check=True, timeout=60)

    def screen(self) -> list[str]:
        out = subprocess.run(
            [*self.base, "capture-pane", "-p"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
        return out.split("\n")[: self.size[1]]

    def wait(self, ok, timeout: float = 30.0, every: float = 0.005) -> list[str]:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if ok(screen) or time.monotonic() > deadline:
                return screen
            time.sleep(every)

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=60)


@pytest.fixture
def term(request, tmp_path: Path):
    width, height = request.param
    t = Tmux(tmp_path, width, height)
    yield t
    t.close()


def _has(text: str):
    return lambda screen: any(text in line for line in screen)


def _outside_detail(screen: list[str], width: int, height: int) -> list[str]:
    """The lines above and below the detail pane, but for the last column (the scrollbar)."""
    top, rows = list_box(height, 2)
    return [line[: width - 1] for line in screen[: top + rows] + screen[height - 1 :]]


SIZES = [(160, 45), (80, 24)]


@pytest.mark.parametrize("term", SIZES, indirect=True, ids=["160x45", "80x24"])
@pytest.mark.parametrize("no_color", [False, True], ids=["color", "NO_COLOR"])
def test_the_first_screen_is_the_apps_first_frame(term: Tmux, tmp_path: Path, no_color) -> None:
    stream = tmp_path / "s.jsonl"
    write_stream(stream)
    env = "NO_COLOR=1 " if no_color else ""
    term.run(f"{env}{HOOKTUI} watch {shlex.quote(str(stream))}")
    newest = "echo call 59"
    # Drawn whole: its last line, the footer, is written last (a capture may land mid-write).
    before = term.wait(lambda screen: _has(newest)(screen) and "Quit" in screen[-1])
    assert any(newest in line for line in before), "no first screen: " + "\n".join(before)
    assert not any(TABS in line for line in before), "the app drew first: nothing was pre-drawn"
    # The app's frames as it takes over: the footer keeps its keys throughout (Textual's
    # Footer fills them in only after its first refresh: the line went blank meanwhile).
    footers = set()

    def taken_over(screen: list[str]) -> bool:
        footers.add(screen[-1].rstrip())
        return _has(TABS)(screen) and "Quit" in screen[-1]

    after = term.wait(taken_over, every=0.001)
    assert any(TABS in line for line in after), "the app never took over"
    assert footers == {after[-1].rstrip()}, f"the footer changed at takeover: {footers}"
    assert _outside_detail(before, *term.size) == _outside_detail(after, *term.size)
    term.keys("q")


@pytest.mark.parametrize("term", [(100, 30)], indirect=True, ids=["100x30"])
def test_keys_typed_before_the_app_reach_it_unechoed(term: Tmux, tmp_path: Path) -> None:
    stream = tmp_path / "s.jsonl"
    write_stream(stream)
    done = tmp_path / "stty"
    term.run(f"{HOOKTUI} watch {shlex.quote(str(stream))}; stty -a > {shlex.quote(str(done))}")
    before = term.wait(_has("echo call 59"))
    term.keys("k")  # up one row: the detail pane then shows the call before the newest
    if not any(TABS in line for line in term.screen()):  # (else the app was first: still fine)
        time.sleep(0.05)
        pre = term.screen()
        assert not any(TABS in line for line in pre)
        assert pre == before, "a key typed before the app showed on the screen"
    term.wait(_has("summary   echo call 58"))
    assert any("summary   echo call 58" in line for line in term.screen()), "the key was lost"
    term.keys("q")
    deadline = time.monotonic() + WAIT_S
    while not (done.exists() and done.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    modes = done.read_text().split()
    for mode in ("icanon", "echo", "isig", "icrnl"):
        assert mode in modes, f"-{mode} left set after watch exited"


async def test_the_geometry_and_colours_are_the_apps(tmp_path: Path) -> None:
    """Where the list sits, at sizes the tmux tests do not try, and each part's colours."""
    stream = tmp_path / "s.jsonl"
    write_stream(stream)
    for size in [(120, 46), (100, 31), (90, 20), (200, 60)]:
        app = WatchApp([str(stream)], tz=UTC, first=read_first(str(stream)))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            region = app.main_screen.calls.region
            assert (region.y, region.height) == list_box(size[1], 2), size
            cursor = app.main_screen.calls.get_component_rich_style("line-list--cursor")
            assert cursor.bgcolor == CURSOR.bgcolor
            assert app.screen.rich_style == SCREEN
            assert app.main_screen.header.rich_style == HEADER
            assert app.main_screen.columns.rich_style == COLUMNS
            assert app.main_screen.footer.rich_style == FOOTER
            await wait_footer(pilot, app)
            key = app.main_screen.footer.query(FooterKey).first()
            assert key.get_component_rich_style("footer-key--key") == FOOTER + FOOTER_KEY
        await asyncio.sleep(0)


async def test_a_third_header_line_moves_the_list_down_in_both(tmp_path: Path) -> None:
    """The tap logged errors: the header has three lines, in the first screen and in the app."""
    from hooktui.tap.base.stream import error_log_path
    from hooktui.tui.present.first_screen import first_screen

    stream = tmp_path / "s.jsonl"
    write_stream(stream)
    Path(error_log_path(str(stream))).write_text("2026-03-14T02:00:00Z tap: disk full\n")
    first = read_first(str(stream))
    assert first is not None and first.tap_errors == 1
    screen = first_screen(first, str(stream), UTC, 120, 40, True)
    assert screen is not None and "tap" in screen.lines[2].plain
    app = WatchApp([str(stream)], tz=UTC, first=first)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        region = app.main_screen.calls.region
        assert (region.y, region.height) == (screen.list_top, screen.list_rows)


async def wait_footer(pilot, app) -> None:
    for _ in range(200):
        if app.main_screen.footer.query(FooterKey):
            return
        await pilot.pause(0.01)


def test_nothing_is_pre_drawn_for_an_empty_stream(tmp_path: Path) -> None:
    from hooktui.tui.present.first_screen import first_screen

    stream = tmp_path / "s.jsonl"
    stream.write_bytes(b"")
    first = read_first(str(stream))
    assert first is not None
    assert first_screen(first, str(stream), UTC, 80, 24, True) is None
    assert read_first(str(tmp_path / "missing.jsonl")) is None


async def test_the_footer_shows_the_first_screens_keys_until_its_own(tmp_path: Path) -> None:
    """Textual's Footer has no keys until after the app's first refresh; meanwhile it shows
    the line the first screen drew (in its colours), not a blank one. (The tmux test sees
    the line kept through a real takeover.)"""
    from hooktui.tui.present.first_screen import footer_line
    from rich.text import Text

    stream = tmp_path / "s.jsonl"
    write_stream(stream)
    for width in (120, 80):  # roomy and compact
        app = WatchApp([str(stream)], tz=UTC, first=read_first(str(stream)))
        async with app.run_test(size=(width, 30)) as pilot:
            await wait_footer(pilot, app)
            bare = None
            for _ in range(20):  # (the Footer may add its keys again meanwhile)
                await app.main_screen.footer.remove_children()  # as before its keys came
                if not app.main_screen.footer.children:
                    bare = app.main_screen.footer.render()
                    break
            assert isinstance(bare, Text) and bare.plain == footer_line(width).plain
            assert bare.plain.split()[:2] == ["?", "Help"]
            assert bare.get_style_at_offset(app.console, bare.plain.index("?")).color == (
                FOOTER_KEY.color
            )
        await asyncio.sleep(0)
