"""When the app takes over `hooktui watch`'s pre-drawn screen, the detail pane shows the
focused call from the app's first frame on: never a pane without it, not for one frame,
and the active tab's underline where it stays.

The real command in a real terminal (tmux), every frame captured from the pre-drawn
screen until the app has handled a key typed meanwhile. How soon the pane's worker
would have built the call's detail depends on the machine (0.2 s to 0.7 s after the
takeover on 100k to 1M calls): here it is held until the checks are done
(HOOKTUI_TEST_DETAIL_GATE, a file this test keeps locked), so a first frame that waits
for the worker is seen every time, whatever the machine's speed.
"""

from __future__ import annotations

import fcntl
import shlex
import shutil
from pathlib import Path

import pytest
from hooktui.tap.model import encode_record

from tests.conftest import HOOKTUI
from tests.tui.conftest import make_record
from tests.tui.test_watch_first import TABS, Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

CALLS = 400  # of about 3.8 KB: 1.5 MB, more than the first screen reads (the rest is indexed)
NEWEST = "call-newest-takeover"  # the newest call's id, and its command's
SUMMARY = f"summary   echo {NEWEST}"  # the detail pane's summary line for it


def write_stream(path: Path) -> None:
    filler = " ".join(["x" * 60] * 15)
    records = [make_record(i, command=f"echo call {i} {filler}") for i in range(CALLS - 1)]
    records.append(make_record(CALLS - 1, id=NEWEST, command=f"echo {NEWEST}"))
    path.write_bytes(b"".join(encode_record(r) for r in records))


@pytest.fixture
def term(request, tmp_path: Path):
    t = Tmux(tmp_path, *request.param)
    yield t
    t.close()


def detail_body(screen: list[str], width: int) -> list[str] | None:
    """The detail pane's lines under its tabs (their underline first), or None before the
    app drew them, less the last two columns (the pane's scrollbar shows once laid out)."""
    tabs = next((y for y, line in enumerate(screen) if TABS in line), None)
    if tabs is None:
        return None
    return [line[: width - 2].rstrip() for line in screen[tabs + 1 : -1]]


@pytest.mark.parametrize(
    ("term", "no_color"),
    [((160, 45), False), ((80, 24), True)],
    indirect=["term"],
    ids=["160x45", "80x24-NO_COLOR"],
)
def test_the_detail_shows_the_focused_call_from_the_takeover_on(
    term: Tmux, tmp_path: Path, no_color: bool
) -> None:
    width = term.size[0]
    stream = tmp_path / "s.jsonl"
    write_stream(stream)
    gate = tmp_path / "gate"
    gate.touch()
    env = "NO_COLOR=1 " if no_color else ""
    command = f"{HOOKTUI} watch {shlex.quote(str(stream))}"
    with gate.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # the detail pane's workers wait until the end
        term.run(f"{env}HOOKTUI_TEST_DETAIL_GATE={shlex.quote(str(gate))} {command}")
        first = term.wait(lambda s: any(NEWEST in line for line in s) and "Quit" in s[-1])
        assert any(NEWEST in line for line in first), "no first screen:\n" + "\n".join(first)
        assert detail_body(first, width) is None, "the app drew first: nothing was pre-drawn"
        term.keys("f")  # typed before the app: once it is interactive, it stops following
        frames = [first]

        def settled(screen: list[str]) -> bool:
            """The app has handled the key, and its pane shows the call (or says it has none:
            anything else may be a frame caught half-written)."""
            frames.append(screen)
            shows = any(SUMMARY in line or "no call selected" in line for line in screen)
            return shows and any("not following" in line for line in screen[:3])

        last = term.wait(settled, every=0.001)
        shown = detail_body(last, width)
        assert shown is not None and any(SUMMARY in line for line in shown[1:]), (
            "once the app was interactive, its detail pane did not show the focused call:\n"
            + "\n".join(last)
        )
        seen = False
        for screen in frames:
            body = detail_body(screen, width)
            if body is None:
                assert not seen, "the app's screen went back to the pre-drawn one"
                continue
            # Only the focused call's lines, where they go (a capture may land while a
            # frame is being written: what is not written yet is still the first screen's
            # blank, so each line is the start of its line in the end).
            for y, line in enumerate(body):
                assert y < len(shown) and shown[y].startswith(line), (
                    f"the detail pane showed {line!r} at takeover, not what it settled on:\n"
                    + "\n".join(screen)
                )
            has = any(SUMMARY in line for line in body)
            assert has or not seen, "the detail pane lost the focused call:\n" + "\n".join(screen)
            seen = seen or has
    # The workers go on: the pane follows the cursor.
    term.keys("k")
    moved = term.wait(lambda s: any(f"summary   echo call {CALLS - 2}" in x for x in s))
    assert any(f"summary   echo call {CALLS - 2}" in line for line in moved), "\n".join(moved)
    term.keys("q")


@pytest.mark.parametrize("term", [(100, 30)], indirect=True, ids=["100x30"])
def test_a_call_of_many_mb_is_read_in_the_worker_the_pane_saying_so(
    term: Tmux, tmp_path: Path
) -> None:
    """Built before the first frame, its line would hold the takeover back (7 ms a MB)."""
    from hooktui.tui.app.watch_screen import FIRST_DETAIL_BYTES

    stream = tmp_path / "s.jsonl"
    huge = "y" * (FIRST_DETAIL_BYTES // 3)  # the command is recorded three times
    lines = [encode_record(make_record(i)) for i in range(40)]
    lines.append(encode_record(make_record(40, command=f"echo {huge}")))
    assert len(lines[-1]) > FIRST_DETAIL_BYTES
    stream.write_bytes(b"".join(lines))
    gate = tmp_path / "gate"
    gate.touch()
    frames = []

    def reading(screen: list[str]) -> bool:
        frames.append(screen)
        return any("reading this call" in line for line in screen)

    with gate.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        term.run(
            f"HOOKTUI_TEST_DETAIL_GATE={shlex.quote(str(gate))} "
            f"{HOOKTUI} watch {shlex.quote(str(stream))}"
        )
        shown = term.wait(reading, every=0.001)
        assert any("reading this call" in line for line in shown), "\n".join(shown)
        assert not any("no call selected" in line for f in frames for line in f)
    done = term.wait(lambda s: any("summary   echo" in line for line in s))
    assert any("summary   echo" in line for line in done), "\n".join(done)
    term.keys("q")


async def test_the_underline_is_under_the_active_tab_before_the_first_refresh() -> None:
    """Where the pane puts the underline when mounted (before any frame is drawn) is where
    Textual puts it once the tabs are laid out: it does not move after the first frame."""
    from hooktui.tui.app.widgets.detail import DetailPane
    from hooktui.tui.present import call_tabs, replay_tabs
    from textual.app import App
    from textual.widgets import Tabs

    def underline(app: App) -> tuple[int, int]:
        bar = app.query_one(Tabs).query_one("Underline")
        return bar.highlight_start, bar.highlight_end

    class Pane(App):
        def __init__(self, titles) -> None:
            super().__init__()
            self.titles = titles
            self.at_mount: tuple[int, int] | None = None

        def compose(self):
            yield DetailPane(self.titles)

        def on_mount(self) -> None:  # the pane and its tabs are mounted: nothing drawn yet
            self.at_mount = underline(self)

    for titles in (call_tabs.TAB_TITLES, replay_tabs.TAB_TITLES):
        app = Pane(titles)
        async with app.run_test(size=(100, 30)) as pilot:
            tabs = app.query_one(Tabs)
            for _ in range(50):  # until Textual has laid the tabs out and placed it
                await pilot.pause()
                if tabs.active_tab is not None and tabs.active_tab.size.width:
                    break
            await pilot.pause()
            tab = tabs.active_tab
            assert tab is not None and tab.label.plain == titles[0][1]
            laid_out = tab.virtual_region.shrink(tab.styles.gutter).column_span
            assert app.at_mount == laid_out == underline(app), titles[0]
