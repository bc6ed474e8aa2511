"""The watch app: header, call list, detail pane, filter bar; live as streams grow."""

from __future__ import annotations

import asyncio
import os
import time
from datetime import tzinfo
from pathlib import Path
from typing import BinaryIO, ClassVar

from hooktui.tap.hotpath.stream import error_log_path
from hooktui.tap.read.reader import read_line_at
from hooktui.tap.read.view import CallView, Entry
from hooktui.tui.app.help import HelpScreen
from hooktui.tui.app.live import LiveStreams, follow
from hooktui.tui.app.messages import (
    RecordsAppended,
    StreamPresence,
    StreamReset,
    StreamsLoaded,
    TapErrors,
)
from hooktui.tui.app.palette import WatchCommands
from hooktui.tui.app.widgets.call_list import CallList
from hooktui.tui.app.widgets.detail import DetailPane, focus_now
from hooktui.tui.app.widgets.filter_bar import FilterBar, check_filter
from hooktui.tui.app.widgets.header import HeaderState, StatsHeader
from hooktui.tui.app.widgets.prompt import PathPrompt
from hooktui.tui.app.widgets.rows import header_row
from hooktui.tui.cli.format import printable
from rich.text import Text
from textual import on, work
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Input, Static

# The header is redrawn at most this often during a burst (percentiles sort).
HEADER_INTERVAL = 0.1
# How long the filter waits for typing to stop before refiltering everything.
FILTER_DEBOUNCE = 0.08


def display_path(path: str) -> str:
    home = str(Path.home())
    return "~" + path[len(home) :] if path.startswith(home + os.sep) else path


def write_lines(out: BinaryIO, entries: list[Entry], paths: list[str]) -> None:
    """Copy each entry's line, byte for byte, newline included, into `out`.

    One open file per stream (not one per line): `w` on 100k shown records.
    """
    sources: dict[int, BinaryIO] = {}
    try:
        for entry in entries:
            src = sources.get(entry.source)
            if src is None:
                src = sources[entry.source] = open(paths[entry.source], "rb")
            src.seek(entry.offset)
            line = src.readline()
            out.write(line if line.endswith(b"\n") else line + b"\n")
    finally:
        for src in sources.values():
            src.close()


class ColumnHeader(Static):
    """Column titles, laid out for the width the list's rows have."""

    row_width: int | None = None

    def show(self, row_width: int) -> None:
        self.row_width = row_width
        self.update(header_row(row_width))

    def on_resize(self) -> None:
        # Until the list paints a row (the empty state), the titles span the screen.
        if self.row_width is None:
            self.update(header_row(self.size.width))


class WatchApp(App[int]):
    """`hooktui watch`: every recorded hook call, live."""

    CSS_PATH = "watch.tcss"
    TITLE = "hooktui watch"
    COMMANDS = App.COMMANDS | {WatchCommands}
    ENABLE_COMMAND_PALETTE = True

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help", id="watch.help"),
        # Priority: handled as the key is read, so focus has moved before the
        # keys typed right after it are routed ("/dec" in one burst filters,
        # it does not copy). They step aside (SkipAction) inside an input.
        Binding("slash", "filter_key", "Filter", priority=True, id="watch.filter"),
        Binding("enter", "enter_key", "Detail", show=False, priority=True, id="watch.enter"),
        Binding("escape", "clear", "Clear", show=False, id="watch.clear"),
        # The detail tabs answer from the list too: a glance at the diff without
        # leaving the list (inside the pane, its own 1-5 bindings take these).
        Binding("1", "detail_tab('summary')", show=False, id="watch.tab.summary"),
        Binding("2", "detail_tab('request')", show=False, id="watch.tab.request"),
        Binding("3", "detail_tab('response')", show=False, id="watch.tab.response"),
        Binding("4", "detail_tab('diff')", show=False, id="watch.tab.diff"),
        Binding("5", "detail_tab('raw')", show=False, id="watch.tab.raw"),
        Binding("f", "follow", "Follow", id="watch.follow"),
        Binding("p", "pause", "Pause", id="watch.pause"),
        Binding("m", "mark", "Mark", show=False, id="watch.mark"),
        Binding("M", "marked_only", "Marked", show=False, id="watch.marked_only"),
        Binding("c", "copy", "Copy", id="watch.copy"),
        Binding("w", "write", "Write", id="watch.write"),
        Binding("r", "replay", "Replay", show=False, id="watch.replay"),
        Binding("q", "quit", "Quit", id="watch.quit"),
    ]

    def __init__(self, paths: list[str], *, tz: tzinfo | None = None, live: bool = True) -> None:
        super().__init__()
        self.paths = [str(p) for p in paths]
        self.tz = tz
        self.live = live
        self.view = CallView(self.paths)
        self.state = HeaderState()
        self.state.title = (
            display_path(self.paths[0]) if len(self.paths) == 1 else f"{len(self.paths)} streams"
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
        self.view.on_added.append(lambda _first, _count: self._changed())
        self.view.on_refresh.append(self._changed)

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Kept as attributes, not queried: `App.query_one` searches the active
        # screen, which is the help or a prompt while records keep arriving.
        self.header = StatsHeader(id="header")
        self.calls = CallList(self.view, self.tz, id="calls")
        self.empty = Static(id="empty")
        self.detail = DetailPane(self.paths, self.tz, id="detail")
        self.filter_bar = FilterBar(id="filter")
        self.body = Vertical(self.calls, self.empty, self.detail, id="body")
        yield self.header
        self.columns = ColumnHeader(id="columns")
        yield self.columns
        yield self.body
        yield self.filter_bar
        yield Footer()

    def on_mount(self) -> None:
        focus_now(self.calls)
        self._update_empty()
        self._flush_header()
        if self.live:
            self._follow_streams()
        else:
            self._load_once()

    async def on_unmount(self) -> None:
        self._stop.set()

    # -- streams -------------------------------------------------------------

    @work(exclusive=True, group="live")
    async def _follow_streams(self) -> None:
        await follow(LiveStreams(self.paths), self.post_message, self._stop)

    @work(thread=True, exclusive=True, group="live")
    def _load_once(self) -> None:
        self.post_message(LiveStreams(self.paths).load())

    def on_streams_loaded(self, message: StreamsLoaded) -> None:
        self.loaded = True
        self.missing = message.missing
        for source, count in enumerate(message.tap_errors):
            self._set_tap_errors(source, count)
        self.view.replace_all(message.entries)

    def on_records_appended(self, message: RecordsAppended) -> None:
        if self.state.paused:
            self._held.append(message)
            self.state.buffered += len(message.entries)
            self._changed()
            return
        self._apply(message)

    def on_stream_reset(self, message: StreamReset) -> None:
        if self.state.paused:
            self._held.append(message)
            self._changed()
            return
        self._apply(message)

    def on_stream_presence(self, message: StreamPresence) -> None:
        self.missing[message.source] = message.missing
        self._changed()

    def on_tap_errors(self, message: TapErrors) -> None:
        # Shown even while paused: it says whether anything is being recorded at all.
        self._set_tap_errors(message.source, message.count)

    def _set_tap_errors(self, source: int, count: int) -> None:
        self.tap_errors[source] = count
        self.state.tap_errors = [
            (display_path(error_log_path(path)), n)
            for path, n in zip(self.paths, self.tap_errors, strict=True)
            if n
        ]
        self._changed()

    def _apply(self, message: Message) -> None:
        if isinstance(message, RecordsAppended):
            added = self.view.add(message.entries)
            if added and not self.calls.following:
                self.state.new = self.calls.new_while_paused
        elif isinstance(message, StreamReset):
            self.view.reset_source(message.source, message.entries)
            self.notify(
                f"{display_path(self.paths[message.source])} was truncated or replaced: reloaded",
                severity="warning",
            )

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
        state.new = 0 if calls.following else calls.new_while_paused
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
        if self.view.total:
            text.append("no call matches", style="bold")
            if self.view.filter_text:
                text.append(f"  {printable(self.view.filter_text)}", style="cyan")
            if self.view.marked_only:
                text.append("  (marked only)", style="cyan")
            text.append("\n\nesc clears the filter", style="dim")
            return text
        names = ", ".join(display_path(p) for p in self.paths)
        if all(self.missing):
            text.append("No hook calls recorded yet.\n\n", style="bold")
            text.append(f"Waiting for {names} to appear.\n\n")
        else:
            text.append("Waiting for the first hook call…\n\n", style="bold")
            text.append(f"{names} is empty.\n\n")
        text.append("To start recording:\n\n")
        text.append("  hooktui install claude-code", style="bold cyan")
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

    def on_call_list_highlighted(self, message: CallList.Highlighted) -> None:
        self.detail.show_entry(message.entry)

    def on_call_list_opened(self, message: CallList.Opened) -> None:
        if message.entry is not None:
            self.detail.focus_now()

    def on_call_list_row_width(self, message: CallList.RowWidth) -> None:
        self.columns.show(message.width)

    def on_call_list_follow_changed(self, message: CallList.FollowChanged) -> None:
        self._changed()

    # -- filter --------------------------------------------------------------

    def _main_focus(self) -> Widget | None:
        """The focused widget when the watch screen itself is active, else None."""
        if self.screen is not self.screen_stack[0]:
            return None
        return self.focused

    def action_filter_key(self) -> None:
        focused = self._main_focus()
        if focused is None or isinstance(focused, Input):
            raise SkipAction()  # "/" typed into an input is a character
        self.action_filter()

    def action_enter_key(self) -> None:
        focused = self._main_focus()
        if focused is self.calls:
            if self.calls.current is not None:
                self.detail.focus_now()
            return
        if focused is not None and self.detail in focused.ancestors:
            focus_now(self.calls)
            return
        raise SkipAction()  # enter in the filter bar, a prompt, the palette

    def action_filter(self) -> None:
        bar = self.filter_bar
        bar.add_class("-active")
        bar.input.value = self.view.filter_text
        bar.input.cursor_position = len(bar.input.value)
        focus_now(bar.input)

    def action_apply_filter(self, expr: str) -> None:
        """Set the filter to `expr` (the command palette's presets)."""
        predicate, error = check_filter(expr)
        if error:
            self.notify(f"filter: {error}", severity="error")
            return
        bar = self.filter_bar
        bar.add_class("-active")
        with bar.input.prevent(Input.Changed):
            bar.input.value = expr
        self._set_filter(expr, predicate)

    @on(FilterBar.Changed)
    def _filter_changed(self, message: FilterBar.Changed) -> None:
        # Refilter once typing pauses: a 100k-record refilter per keystroke
        # would make typing lag.
        self._pending_filter = (message.text, message.predicate)
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_DEBOUNCE, self._apply_pending_filter)

    def _apply_pending_filter(self) -> None:
        self._filter_timer = None
        if self._pending_filter is not None:
            text, predicate = self._pending_filter
            self._pending_filter = None
            self._set_filter(text, predicate)

    def _set_filter(self, text: str, predicate) -> None:
        text = text.strip()
        if text == self.view.filter_text and (predicate is None) == (not self.view.filter_text):
            return
        self.view.set_predicate(text, predicate)

    @on(FilterBar.Done)
    def _filter_done(self, message: FilterBar.Done) -> None:
        self._close_filter(keep=message.keep)

    def _close_filter(self, keep: bool) -> None:
        bar = self.filter_bar
        if keep:
            self._apply_pending_filter()
            predicate, error = check_filter(bar.input.value)
            if error:
                return  # stay in the bar: the error is shown under it, to be fixed
            else:
                self._set_filter(bar.input.value, predicate)
        if not keep:
            if self._filter_timer is not None:
                self._filter_timer.stop()
                self._filter_timer = None
            self._pending_filter = None
            self._set_filter("", None)
        # The header shows the filter in force: the bar gives its rows back.
        bar.remove_class("-active")
        focus_now(self.calls)

    def action_clear(self) -> None:
        """esc: leave the detail pane or the filter bar; otherwise drop filter and marked-only."""
        focused = self.focused
        bar = self.filter_bar
        if focused is not None and bar in focused.ancestors_with_self:
            self._close_filter(keep=False)
            return
        if focused is not None and self.detail in focused.ancestors_with_self:
            focus_now(self.calls)
            return
        with self.batch_update():
            if self.view.marked_only:
                self.view.set_marked_only(False)
            if self.view.filter_text:
                self._set_filter("", None)
            bar.input.value = ""
            bar.remove_class("-active")

    # -- follow, pause -------------------------------------------------------

    def action_detail_tab(self, tab: str) -> None:
        self.detail.action_tab(tab)

    def action_follow(self) -> None:
        self.calls.set_following(not self.calls.following)
        self._changed()

    def action_pause(self) -> None:
        state = self.state
        state.paused = not state.paused
        if not state.paused:
            held, self._held = self._held, []
            state.buffered = 0
            for message in held:
                self._apply(message)
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

    def _line_of(self, entry: Entry) -> bytes:
        return read_line_at(self.paths[entry.source], entry.offset)

    def action_copy(self) -> None:
        entry = self.calls.current
        if entry is None:
            self.notify("no call selected", severity="warning")
            return
        try:
            line = self._line_of(entry)
        except OSError as exc:
            self.notify(f"cannot read the record: {exc.strerror}", severity="error")
            return
        self.copy_to_clipboard(line.decode("utf-8", "replace"))
        self.notify(f"copied the record ({len(line):,} bytes) to the clipboard")

    def action_write(self) -> None:
        if not len(self.view):
            self.notify("nothing shown to write", severity="warning")
            return
        self.push_screen(
            PathPrompt(
                f"Write the {len(self.view):,} shown records to (JSONL):", "hooktui-calls.jsonl"
            ),
            self._write_to,
        )

    def _write_to(self, path: str | None) -> None:
        if path:
            self._write(os.path.expanduser(path), self.view.shown_entries())

    @work(thread=True, group="write")
    def _write(self, path: str, entries: list[Entry]) -> None:
        try:
            # "x": never overwrite anything, a recorded stream least of all.
            with open(path, "xb") as out:
                write_lines(out, entries, self.paths)
        except FileExistsError:
            self.call_from_thread(
                self.notify, f"{path} exists: choose a new name", severity="error"
            )
            return
        except OSError as exc:
            self.call_from_thread(
                self.notify, f"cannot write {path}: {exc.strerror}", severity="error"
            )
            return
        self.call_from_thread(self.notify, f"wrote {len(entries):,} records to {path}")

    def replay_entries(self) -> list[Entry]:
        """What `r` replays: the marked calls if any, else the shown ones."""
        marked = self.view.marked_entries()
        return marked or self.view.shown_entries()

    def action_replay(self) -> None:
        """`r`: the replay screen (issue 4) for the marked calls, else the shown ones."""
        from hooktui.tui.app.replay import replay_watch_selection

        replay_watch_selection(self, self.replay_entries(), self.paths)

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

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())
