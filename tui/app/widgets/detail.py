"""One detail pane for watch and replay: tabs whose bodies are built off the UI thread.

The screen hands the pane a key (what is selected) and a builder (a function
that returns one renderable per tab). The builder runs in a thread worker,
throttled while the cursor moves, and only the newest selection is shown. A
builder that raises shows its error in the tab: one odd record never takes
the app down. Builders bound what they lay out (`present.format.clip`).
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

from hooktui.tui.present.format import bounded_text
from rich.console import RenderableType
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static, Tab, TabbedContent, TabPane, Tabs
from textual.worker import get_current_worker

# The detail pane reloads at most this often (seconds) while the cursor moves.
LOAD_INTERVAL = 0.1
# For tests: the path of a file a test holds an exclusive lock on; the pane's workers
# wait for it (a shared lock) before building, so what shows without them is seen
# (tests/tui/test_watch_takeover.py), however fast they would have been.
WORKER_GATE = os.environ.get("HOOKTUI_TEST_DETAIL_GATE", "")

Builder = Callable[[], dict[str, RenderableType]]


def focus_now(widget: Widget) -> None:
    """Focus `widget` before the next queued key is handled.

    `Widget.focus()` defers the change to a callback queued behind any keys
    already read, so "/" then "dec" typed in one burst would land on the list
    ("c" copies, "f" stops following). Setting it directly avoids that.
    """
    widget.screen.set_focus(widget)


class DetailScroll(VerticalScroll):
    """A tab's scroll area: the list's movement keys scroll it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "scroll_down", "Scroll down", show=False, id="detail.down"),
        Binding("k,up", "scroll_up", "Scroll up", show=False, id="detail.up"),
        Binding("g,home", "scroll_home", "Top", show=False, id="detail.top"),
        Binding("G,end", "scroll_end", "Bottom", show=False, id="detail.bottom"),
        Binding("space,pagedown", "page_down", "Page down", show=False, id="detail.page_down"),
        Binding("b,pageup", "page_up", "Page up", show=False, id="detail.page_up"),
    ]


class DetailPane(Vertical, can_focus=False):
    """Tabs for the selected row; `tabs` are (id, title) pairs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "back", "Back to list", id="detail.back"),
    ]

    def __init__(self, tabs: tuple[tuple[str, str], ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tab_ids = tuple(tab for tab, _ in tabs)
        self.tab_titles = dict(tabs)
        self.key: Hashable | None = None  # what the bodies show now
        self.built: dict[str, RenderableType] = {}
        self._wanted: tuple[Hashable, Builder] | None = None
        self._load_timer: Timer | None = None
        self._last_load = 0.0

    def compose(self) -> ComposeResult:
        with TabbedContent(initial=self.tab_ids[0]):
            for tab in self.tab_ids:
                with TabPane(self.tab_titles[tab], id=tab):
                    with DetailScroll(id=f"{tab}-scroll", classes="detail-scroll"):
                        yield Static(id=f"{tab}-body", classes="detail-body")

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one(TabbedContent)

    @property
    def active(self) -> str:
        return self.tabs.active

    @active.setter
    def active(self, tab: str) -> None:
        self.tabs.active = tab

    def body(self, tab: str) -> Static:
        return self.query_one(f"#{tab}-body", Static)

    def focus_now(self) -> None:
        focus_now(self.query_one(f"#{self.active}-scroll", DetailScroll))

    def on_mount(self) -> None:
        # The active tab's underline from the first frame on: Textual places it after a
        # refresh, and a busy start (watch's index being read) took 0.3-0.5 s to get there,
        # so the bar lit up under "Summary" that long after the pane was drawn.
        tabs = self.tabs.query_one(Tabs)
        x = 0
        for tab in tabs.query(Tab):
            gutter = tab.styles.gutter
            width = tab.label.cell_length + gutter.width
            if tab is tabs.active_tab:  # where place_underline will put it, once laid out
                underline = tabs.query_one("Underline")
                underline.highlight_start = x + gutter.left
                underline.highlight_end = x + width - gutter.right
                return
            x += width

    def on_show(self) -> None:
        self.place_underline()

    def on_resize(self) -> None:
        self.place_underline()

    def place_underline(self, tries: int = 20) -> None:
        """Put the tab underline under the active tab, once it is laid out.

        Shown again after `display: none`, the tabs may place their underline before
        they are laid out (or not at all), and it stays zero wide: always so with
        animations off. Screens that show the pane call this too: the pane itself
        is not always told it was shown.
        """
        # The app's queue, not the pane's: it runs after the next refresh whatever
        # the pane is doing.
        self.app.call_after_refresh(self._place_underline, tries)

    def _place_underline(self, tries: int) -> None:
        if not self.is_attached:
            return
        tabs = self.tabs.query_one(Tabs)
        tab = tabs.active_tab
        if tab is None or not self.display:
            return
        if not tab.size.width:
            if tries:
                self.app.call_after_refresh(self._place_underline, tries - 1)
            return
        start, end = tab.virtual_region.shrink(tab.styles.gutter).column_span
        underline = tabs.query_one("Underline")
        # `animate` replaces a slide still under way (toward where the tab was not yet),
        # and with animations off sets the value at once.
        underline.animate("highlight_start", start, duration=0.1, level="basic")
        underline.animate("highlight_end", end, duration=0.1, level="basic")

    def action_back(self) -> None:
        self.post_message(self.Back())

    class Back(Message):
        """Enter inside the pane: focus goes back to the list."""

    def action_tab(self, tab: str) -> None:
        self.active = tab
        focused = self.app.focused
        if focused is not None and self in focused.ancestors:
            self.focus_now()

    # -- loading -------------------------------------------------------------

    def clear(self, message: str = "nothing selected") -> None:
        self.key = None
        self._wanted = None
        self.built = {}
        for tab in self.tab_ids:
            self.body(tab).update(Text(message if tab == self.tab_ids[0] else "", style="dim"))

    def show(self, key: Hashable, build: Builder) -> None:
        """Build and show the tabs for `key` (soon: at most every LOAD_INTERVAL)."""
        self._wanted = (key, build)
        # Throttled: while following a burst the cursor moves on every poll,
        # and re-rendering the pane each time would starve key handling.
        if self._load_timer is None:
            wait = self._last_load + LOAD_INTERVAL - time.monotonic()
            if wait <= 0:
                self._start_load()
            else:
                self._load_timer = self.set_timer(wait, self._start_load)

    def show_now(self, key: Hashable, build: Builder) -> None:
        """Build and show the tabs for `key` at once, on the UI thread.

        For the app's first frame over the pre-drawn screen: built in the worker,
        the pane would come up empty and fill a moment later (a flash). Only for a
        record already at hand (read by offset, a few ms): moving the cursor uses `show`.
        """
        self._wanted = (key, build)
        self._apply(key, _built(build, self.tab_ids))

    def _start_load(self) -> None:
        self._load_timer = None
        self._last_load = time.monotonic()
        if self._wanted is not None:
            self._build(*self._wanted)

    @work(thread=True, exclusive=True, group="detail")
    def _build(self, key: Hashable, build: Builder) -> None:
        if WORKER_GATE:
            _wait_gate(WORKER_GATE)
        views = _built(build, self.tab_ids)
        if not get_current_worker().is_cancelled:  # a newer selection won
            self.app.call_from_thread(self._apply, key, views)

    def _apply(self, key: Hashable, views: dict[str, RenderableType]) -> None:
        if self._wanted is None or self._wanted[0] != key:
            return
        self.key = key
        self.built = views
        for tab in self.tab_ids:
            self.body(tab).update(views.get(tab, Text("")))
            self.query_one(f"#{tab}-scroll", DetailScroll).scroll_home(animate=False)


def _built(build: Builder, tabs: tuple[str, ...]) -> dict[str, RenderableType]:
    """What `build` returns, or its error in every tab: one odd record must not take the
    app down."""
    try:
        return build()
    except Exception as exc:
        return {tab: bounded_text(f"cannot show this here: {exc!r}", "red") for tab in tabs}


def _wait_gate(path: str) -> None:
    """Until whoever holds `path` locked lets go (at once when no one does)."""
    try:
        with open(path, "rb") as gate:
            fcntl.flock(gate, fcntl.LOCK_SH)
    except OSError:
        pass
