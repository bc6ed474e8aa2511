"""The watch app: header, call list, detail pane, filter bar; live as streams grow."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from datetime import tzinfo
from typing import ClassVar

from hooktui.tap.read.view import CallView
from hooktui.tap.runtimes import RUNTIMES
from hooktui.tui.app.palette import BindingCommands
from hooktui.tui.app.reproduce import CallDetail, WatchReproduce
from hooktui.tui.app.spool import Spools
from hooktui.tui.app.watch_commands import WatchCommands
from hooktui.tui.app.watch_filter import WatchFilter
from hooktui.tui.app.watch_hold import WatchHold
from hooktui.tui.app.watch_io import WatchIO
from hooktui.tui.app.watch_keys import WATCH_BINDINGS
from hooktui.tui.app.watch_patterns import WatchPatterns
from hooktui.tui.app.watch_replay import WatchReplay
from hooktui.tui.app.watch_streams import WatchStreams
from hooktui.tui.app.widgets.call_list import CallList
from hooktui.tui.app.widgets.detail import DetailPane, focus_now
from hooktui.tui.app.widgets.filter_bar import FilterBar
from hooktui.tui.app.widgets.header import ColumnHeader, StatsHeader
from hooktui.tui.app.widgets.held import HeldPanel
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.app.widgets.patterns import PatternsPanel
from hooktui.tui.present.call_tabs import TAB_TITLES, load_tabs
from hooktui.tui.present.first_screen import (
    COMPACT_BELOW,
    DETAIL_SHARE,
    First,
    footer_line,
    row_width,
)
from hooktui.tui.present.format import display_path, printable
from hooktui.tui.present.header import HeaderState
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import Footer, Static

# The header is redrawn at most this often during a burst (percentiles sort).
HEADER_INTERVAL = 0.1
# While following, rates end at the clock: the header is redrawn this often (seconds)
# with no record arriving, so an idle stream's rate falls as the minutes pass.
CLOCK_TICK = 5.0
# The focused call's detail is built before the app's first frame up to this line length.
FIRST_DETAIL_BYTES = 4 << 20


class WatchFooter(Footer):
    """Textual's Footer, with the keys the first screen drew until its own are there.

    The Footer adds its keys only after the app's first refresh (a few hundred ms
    on a busy machine): without this its line went blank when the app took over
    the pre-drawn screen, then came back.
    """

    def render(self):
        if self.children:  # its keys are there
            return super().render()
        return footer_line(self.size.width)


class WatchApp(
    WatchCommands,
    WatchPatterns,
    WatchFilter,
    WatchIO,
    WatchReplay,
    WatchHold,
    WatchReproduce,
    WatchStreams,
    App[int],
):
    """`hooktui watch`: every recorded hook call, live."""

    CSS_PATH = "hooktui.tcss"
    TITLE = "hooktui watch"
    COMMANDS = App.COMMANDS | {BindingCommands}
    ENABLE_COMMAND_PALETTE = True

    BINDINGS: ClassVar[list[BindingType]] = WATCH_BINDINGS

    # Which share of the body the detail pane takes, by `+` / `-` steps.
    DETAIL_SHARES = (25, 35, 45, 55, 65, 75, 85)
    detail_share: var[int] = var(DETAIL_SHARE)
    detail_full: var[bool] = var(False)
    paused: var[bool] = var(False)  # new records are held back, not applied

    def __init__(
        self,
        paths: list[str],
        *,
        tz: tzinfo | None = None,
        live: bool = True,
        hold=None,
        first: First | None = None,
    ) -> None:
        super().__init__()
        self._hold_at_start = hold  # a HoldServer holding --intercept's breakpoint
        self.names = [str(p) for p in paths]  # as the user gave them
        # What is read: the same paths, except a pipe or FIFO, read through a spool file.
        self.spools = Spools()
        self.paths = [self.spools.path_for(p) for p in self.names]
        self.tz = tz
        self.live = live
        self.view = CallView(self.paths)
        self.view.background = True  # filters reading the files run in a worker (watch_filter)
        self.view.on_filter_pass.append(self._start_filter_pass)
        self.state = HeaderState()
        self.state.title = (
            display_path(self.names[0]) if len(self.names) == 1 else f"{len(self.names)} streams"
        )
        self.loaded = False
        self.missing = [False] * len(self.paths)
        self.tap_errors = [0] * len(self.paths)  # lines in each stream's tap error log
        self._held: list[Message] = []  # records that arrived while paused
        self._stop = asyncio.Event()
        self._header_due = False
        self._header_last = 0.0
        self._filter_timer = None
        self._pending_filter: tuple[str, object] | None = None
        self._index_total = 0
        # One stream's newest lines, read (and drawn) before Textual loaded: shown from
        # the first frame, taken before the listeners below are there to react.
        self._first = first
        if first is not None:
            self._take_first(first)
        self.view.on_added.append(lambda _first, _count: self._changed())
        self.view.on_refresh.append(self._changed)
        self.view.on_added.append(self._patterns_rows_added)
        self.view.on_refresh.append(self._patterns_view_refreshed)
        self.view.on_prepended.append(lambda _rows, _shown: self._patterns_view_refreshed())

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Kept as attributes, not queried: `App.query_one` searches the active
        # screen, which is the help or a prompt while records keep arriving.
        self.header = StatsHeader(id="header")
        self.calls = CallList(self.view, self.tz, id="calls")
        self.empty = Static(id="empty")
        self.detail = CallDetail(TAB_TITLES, id="detail")
        self.patterns = PatternsPanel(id="patterns")
        self.filter_bar = FilterBar(id="filter")
        self.held_panel = HeldPanel(id="held")  # calls a breakpoint holds come first
        self.body = Vertical(
            self.held_panel, self.calls, self.empty, self.detail, self.patterns, id="body"
        )
        yield self.header
        self.columns = ColumnHeader(id="columns")
        yield self.columns
        yield self.body
        yield self.filter_bar
        self.footer = WatchFooter()
        yield self.footer

    def on_resize(self, event: events.Resize) -> None:
        # Under 100 columns the keys fit (q among them) only without the space after each key.
        self.footer.compact = event.size.width < COMPACT_BELOW

    def on_mount(self) -> None:
        self.footer.compact = self.size.width < COMPACT_BELOW
        focus_now(self.calls)
        self.detail.clear("no call selected")
        self._update_empty()
        self._flush_header()
        self.start_holding(self._hold_at_start)
        if self._first is not None:  # its rows are shown already: so is the cursor's call
            self._show_first()
            # The titles too, from the first frame on (else only once a row is painted).
            width, height = self.size
            lines = 3 if self.state.tap_errors else 2
            self.columns.show(row_width(len(self.view), width, height, lines))
        if self.live:
            self.set_interval(CLOCK_TICK, self._changed)
            self._follow_streams()
        else:
            self._load_once()
        self._end_on_signals(True)

    def _end_on_signals(self, on: bool) -> None:
        """SIGTERM ends the app as `q` does, and SIGHUP (the terminal went away) removes
        a pipe's spool file before it ends the process: neither leaves a copy behind.

        On a hangup there is no terminal left to restore, and Textual's orderly exit
        can wait forever on its writer thread then: the process dies as SIGHUP kills
        it (a tap with a breakpoint held sends the hook's own answer on, as when the
        dashboard dies).
        """
        loop = asyncio.get_running_loop()
        for signum, handler in ((signal.SIGHUP, self._hung_up), (signal.SIGTERM, self.exit)):
            try:
                if on:
                    loop.add_signal_handler(signum, handler)
                else:
                    loop.remove_signal_handler(signum)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # not the main thread's loop (a test's), or no such signal here

    def _hung_up(self) -> None:
        self.spools.remove()
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGHUP)

    async def on_unmount(self) -> None:
        self._end_on_signals(False)
        self.stop_holding()
        self._stop.set()
        self.spools.remove()

    # -- header, empty state -------------------------------------------------

    def _changed(self) -> None:
        """Something the header or the empty state shows changed: redraw soon."""
        if self._header_due:
            return
        wait = self._header_last + HEADER_INTERVAL - time.monotonic()
        if wait <= 0:
            self._header_due = True
            self.call_later(self._flush_header)
        else:
            self._header_due = True
            self.set_timer(wait, self._flush_header)

    def _flush_header(self) -> None:
        self._header_due = False
        if not self.header.is_attached:  # shutting down
            return
        self._header_last = time.monotonic()
        state = self.state
        calls = self.calls
        state.following = calls.following
        state.new = calls.new
        state.now = time.time() if self.live else None
        self.header.show(self.view, state)
        self._update_empty()

    def empty_message(self) -> Text | None:
        """What the body says instead of rows, or None when there are rows."""
        if len(self.view):
            return None
        text = Text(justify="center")
        if not self.loaded:
            text.append(f"reading {self.state.title} …", style="dim")
            return text
        if self.view.filter_progress is not None:
            text.append(f"filtering … {printable(self.view.filter_text)}", style="dim")
            return text
        if self.view.total:
            text.append("no call matches", style="bold")
            if self.view.filter_text:
                text.append(f"  {printable(self.view.filter_text)}", style="cyan")
            if self.view.marked_only:
                text.append("  (marked only)", style="cyan")
            text.append("\n\nesc clears the filter", style="dim")
            return text
        names = ", ".join(display_path(p) for p in self.names)
        if all(self.missing):
            text.append("No hook calls recorded yet.\n\n", style="bold")
            text.append(f"Waiting for {names} to appear.\n\n")
        else:
            text.append("Waiting for the first hook call…\n\n", style="bold")
            text.append(f"{names} is empty.\n\n")
        text.append("To start recording:\n\n")
        text.append(f"  hooktui install {RUNTIMES[0]}", style="bold cyan")
        text.append("   wrap your agent's hooks in the tap\n")
        text.append("  hooktui demo               ", style="bold cyan")
        text.append("   example traffic, for a first look\n\n")
        text.append("This screen fills as soon as the first call is recorded.", style="dim")
        return text

    def _update_empty(self) -> None:
        message = self.empty_message()
        self.body.set_class(message is not None, "-empty")
        if message is not None:
            self.empty.update(message)

    # -- list and detail -----------------------------------------------------

    def on_line_list_highlighted(self, message: LineList.Highlighted) -> None:
        self._show_current()

    def _show_current(self, now: bool = False) -> None:
        """The cursor's call in the detail pane: soon, in a worker, or `now`."""
        entry = self.calls.current  # the newest: older highlights were coalesced away
        if entry is None:
            self.detail.clear("no call selected")
            return
        path, tz, color = self.paths[entry.source], self.tz, not self.no_color
        show = self.detail.show_now if now else self.detail.show
        show(entry, lambda: load_tabs(path, entry, tz, color))

    def _show_first(self) -> None:
        """The cursor's call (the first screen's newest), built before the app's first frame.

        Built in the worker, the pane came up over the pre-drawn screen saying "no call
        selected", then filled 0.2 to 0.7 s later. Read by offset and built here it costs
        a few ms; a line of many MB (7 ms a MB) is left to the worker, the pane saying so.
        """
        entry = self.calls.current
        if entry is not None and self._first.tail.end - entry.offset > FIRST_DETAIL_BYTES:
            self.detail.clear("reading this call …")
            self._show_current()
        else:
            self._show_current(now=True)

    @property
    def detail_loaded(self):
        """What the detail pane shows now (a watch_tabs.Loaded), or None."""
        return self.detail.built.get("loaded")

    def on_call_list_opened(self, message: CallList.Opened) -> None:
        if message.entry is not None:
            self.detail.focus_now()

    def on_detail_pane_back(self, message: DetailPane.Back) -> None:
        focus_now(self.calls)

    @property
    def home_list(self) -> LineList:
        """Where focus rests: the patterns table while it is shown, else the calls."""
        return self.patterns.list if self.patterns_open else self.calls

    def on_line_list_row_width(self, message: LineList.RowWidth) -> None:
        self.columns.show(message.width)

    def on_line_list_follow_changed(self, message: LineList.FollowChanged) -> None:
        self._changed()

    # -- the detail pane's size ----------------------------------------------

    def action_detail_full(self) -> None:
        self.detail_full = not self.detail_full
        # z again: back where z was pressed from, the list (as in replay).
        if not self.detail_full and self.focused is not None:
            if self.detail in self.focused.ancestors:
                focus_now(self.calls)

    def action_detail_size(self, step: int) -> None:
        shares = self.DETAIL_SHARES
        here = min(range(len(shares)), key=lambda i: abs(shares[i] - self.detail_share))
        self.detail_full = False
        self.detail_share = shares[max(0, min(len(shares) - 1, here + step))]

    def watch_detail_share(self, share: int) -> None:
        self._size_detail()

    def watch_detail_full(self, full: bool) -> None:
        self.body.set_class(full, "-detail-full")
        self.columns.display = not full  # titles over no rows (z is off in patterns)
        self._size_detail()
        if full and self.focused is self.calls:
            self.detail.focus_now()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # Full screen hides the list: focus going back to it (enter, esc, the filter
        # bar or the patterns view closing) means out of full screen, else its keys
        # would move a cursor no one sees.
        if self.detail_full and event.widget is self.calls:
            self.detail_full = False

    def _size_detail(self) -> None:
        # A height set here outranks the stylesheet: full screen is set here too.
        self.detail.styles.height = "1fr" if self.detail_full else f"{self.detail_share}%"

    # -- tabs, follow --------------------------------------------------------

    def action_detail_tab(self, tab: str) -> None:
        self.detail.action_tab(tab)

    def action_follow(self) -> None:
        self.calls.set_following(not self.calls.following)
        self._changed()

    # -- marks, copy, write, replay ------------------------------------------

    def action_mark(self) -> None:
        calls = self.calls
        if calls.current is None:
            return
        row = calls.cursor
        self.view.toggle_mark(row)
        calls.refresh_row_of(row)
        if not self.view.marked_only and row + 1 < len(self.view):
            calls.action_cursor_down()
        self._changed()

    def action_marked_only(self) -> None:
        if not self.view.marked_only and not self.view.marks:
            self.notify("nothing marked yet: m marks the selected call")
            return
        self.view.set_marked_only(not self.view.marked_only)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity="information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Notifications carry paths and filter text: plain, never markup, by default."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
