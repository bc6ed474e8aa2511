"""The watch screen: its parts, laid out, and the keys that move between them.

Each part owns its state and its keys (`keys.Key`), and is given what it depends on:
the stream feed (live tailing, pause and its buffer: feed.py), the call list
(widgets/call_list.py), the detail pane and reproducing its call (reproduce.py),
the filter bar (watch_filter.py), the patterns view and its count
(patterns_view.py), the breakpoint panel and its hold server (breakpoints.py),
what is done with the shown calls (shown_calls.py), and the body that lays them
out (watch_body.py: the detail pane's size, full screen). The screen itself owns
where focus goes (enter, esc), the header and the empty state.
"""

from __future__ import annotations

import time
from datetime import tzinfo
from typing import TYPE_CHECKING, ClassVar

from hooktui.tap.read.view import CallView
from hooktui.tui.app.breakpoints import BreakpointPanel
from hooktui.tui.app.feed import StreamFeed
from hooktui.tui.app.hooks_screen import HooksScreen
from hooktui.tui.app.keys import Key, KeyedScreen, keys_in_order
from hooktui.tui.app.patterns_view import PatternsView
from hooktui.tui.app.reproduce import CallDetail
from hooktui.tui.app.shown_calls import ShownCalls
from hooktui.tui.app.tool_calls import ToolCallList
from hooktui.tui.app.watch_body import WatchBody
from hooktui.tui.app.watch_commands import help_screen, presets
from hooktui.tui.app.watch_filter import CallFilter
from hooktui.tui.app.widgets.call_list import CallList
from hooktui.tui.app.widgets.detail import DetailPane, focus_now
from hooktui.tui.app.widgets.header import ColumnHeader, StatsHeader
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.present.call_tabs import TAB_TITLES, load_tabs
from hooktui.tui.present.first_screen import (
    COMPACT_BELOW,
    First,
    footer_line,
    row_width,
)
from hooktui.tui.present.format import display_path
from hooktui.tui.present.header import HeaderState, empty_text, tool_calls_empty
from hooktui.tui.present.tool_calls import titles as tool_call_titles
from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

if TYPE_CHECKING:
    from hooktui.tap.hold.server import HoldServer

# The header is redrawn at most this often during a burst (percentiles sort).
HEADER_INTERVAL = 0.1
# While following, rates end at the clock: the header is redrawn this often (seconds)
# with no record arriving, so an idle stream's rate falls as the minutes pass.
CLOCK_TICK = 5.0
# The focused call's detail is built before the app's first frame up to this line length.
FIRST_DETAIL_BYTES = 4 << 20

# The help's order of the keys (and the footer's, for those it shows); the app's
# own keys (q, ctrl+c: they quit from any screen) come after them.
KEY_ORDER = (
    "watch.help",
    "watch.filter",
    "watch.enter",
    "watch.clear",
    *(f"watch.tab.{tab}" for tab, _ in TAB_TITLES),
    "watch.detail_full",
    "watch.detail_grow",
    "watch.detail_shrink",
    "watch.patterns",
    "watch.tool_calls",
    "watch.hooks",
    "watch.follow",
    "watch.pause",
    "watch.intercept",
    "watch.mark",
    "watch.marked_only",
    "watch.copy",
    "watch.command",
    "watch.reproduce",
    "watch.write",
    "watch.replay",
)


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


SCREEN_KEYS: tuple[Key, ...] = (
    Key(Binding("question_mark", "help", "Help", tooltip="this help", id="watch.help")),
    Key(
        Binding(
            "enter",
            "enter_key",
            "Detail",
            show=False,
            priority=True,
            tooltip="focus the detail pane (enter or esc goes back)",
            id="watch.enter",
        )
    ),
    Key(
        Binding(
            "escape",
            "clear",
            "Clear",
            show=False,
            tooltip="clear the filter and marked-only",
            id="watch.clear",
        )
    ),
    Key(
        Binding(
            "H",
            "hooks",
            "Hooks",
            show=False,
            tooltip="every configured hook and its calls here; enter filters to one",
            id="watch.hooks",
        )
    ),
)


class WatchScreen(KeyedScreen):
    """`hooktui watch`'s one screen: every recorded hook call, live."""

    KEYS = SCREEN_KEYS
    BINDINGS: ClassVar[list[BindingType]] = keys_in_order(
        KEY_ORDER,
        SCREEN_KEYS,
        StreamFeed.KEYS,
        CallList.KEYS,
        CallDetail.KEYS,
        CallFilter.KEYS,
        WatchBody.KEYS,
        PatternsView.KEYS,
        ToolCallList.KEYS,
        BreakpointPanel.KEYS,
        ShownCalls.KEYS,
    )

    def __init__(
        self,
        paths: list[str],
        names: list[str],
        *,
        tz: tzinfo | None,
        live: bool,
        hold: HoldServer | None,
        first: First | None,
    ) -> None:
        """`paths` are read (a pipe's spool file), `names` as the user gave them."""
        super().__init__()
        self.names, self.paths = names, paths
        self.tz = tz
        self.view = CallView(paths)
        self.view.background = True  # filters reading the files run in a worker (watch_filter)
        self.stream_title = display_path(names[0]) if len(names) == 1 else f"{len(names)} streams"
        self._first: First | None = first
        self._header_due = False
        self._header_last = 0.0
        self.feed = StreamFeed(
            self.view,
            paths,
            names,
            live=live,
            first=first,
            changed=self.changed,
            before_append=lambda: self.calls.stop_following_if_grabbed(),
        )
        self.calls = CallList(self.view, tz, paths=paths, changed=self.changed, id="calls")
        self.detail = CallDetail(
            TAB_TITLES, selected=lambda: self.shown_list.current, paths=paths, id="detail"
        )
        self.patterns = PatternsView(
            self.view, tz, lambda shown: self.body.show_patterns(shown), id="patterns"
        )
        self.tool_calls = ToolCallList(
            self.view,
            tz,
            hooks=self.calls,
            shown=self._tool_calls_shown,
            changed=self.changed,
            id="tool-calls",
        )
        self.filter_bar = CallFilter(self.view, lambda: self.home_list, self.changed, id="filter")
        self.held_panel = BreakpointPanel(hold, self.calls, self.changed, id="held")
        self.shown_calls = ShownCalls(self.view, paths, names, lambda: self.shown_list.current)
        self.view.on_added.append(lambda _first, _count: self.changed())
        self.view.on_refresh.append(self.changed)

    def key_parts(self):
        return (
            self,
            self.feed,
            self.calls,
            self.detail,
            self.filter_bar,
            self.patterns,
            self.tool_calls,
            self.held_panel,
            self.shown_calls,
            self.body,
        )

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.header = StatsHeader(id="header")
        self.empty = Static(id="empty")
        # Calls a breakpoint holds come first.
        self.columns = ColumnHeader(id="columns")
        self.body = WatchBody(
            self.held_panel,
            self.calls,
            self.empty,
            self.detail,
            self.patterns,
            columns=self.columns,
            tool_calls=self.tool_calls,
            id="body",
        )
        yield self.header
        yield self.columns
        yield self.body
        yield self.filter_bar
        self.footer = WatchFooter()
        yield self.footer
        yield self.feed
        yield self.shown_calls

    def on_resize(self, event: events.Resize) -> None:
        # Under 100 columns the keys fit (q among them) only without the space after each key.
        self.footer.compact = event.size.width < COMPACT_BELOW

    def on_mount(self) -> None:
        self.footer.compact = self.app.size.width < COMPACT_BELOW
        focus_now(self.calls)
        self.detail.clear("no call selected")
        self._update_empty()
        self._flush_header()
        if self._first is not None:  # its rows are shown already: so is the cursor's call
            self._show_first()
            # The titles too, from the first frame on (else only once a row is painted).
            width, height = self.app.size
            lines = 3 if self.feed.error_logs else 2
            self.columns.show(row_width(len(self.view), width, height, lines))
        if self.feed.live:
            self.set_interval(CLOCK_TICK, self.changed)
        self.feed.start()

    # -- which keys work now -------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Under another screen (the help, a prompt, the palette) this footer shows
        # only the app's keys: these do not reach this screen then.
        if self.app.screen is not self:
            return False
        return not self._resting(action)

    def _resting(self, action: str) -> bool:
        """The patterns view shows groups, not calls: the keys of the list and the detail
        pane rest, and the pane's size (it is not shown). The tool-call view rests the
        hook list's keys (its rows are not there), and the two views do not stack."""
        owned = self.key_for(action)
        if self.tool_calls.is_open and (
            action == "patterns" or (owned is not None and owned[0] is self.calls)
        ):
            return True
        if not self.patterns.is_open:
            return False
        if action == "tool_calls":
            return True
        if owned is not None and owned[0] in (self.calls, self.detail):
            return True
        return action in ("detail_full", "detail_size", "enter_key")

    def palette_allows(self, action: str) -> bool:
        """The palette (over this screen) offers a key only when it does something now."""
        return not self._resting(action) and self.why_not(action) is None

    def palette_presets(self):
        return presets(self)

    def action_help(self) -> None:
        self.app.push_screen(help_screen(self))

    # -- header, empty state -------------------------------------------------

    def changed(self) -> None:
        """Something the header or the empty state shows changed: redraw soon."""
        if self._header_due:
            return
        self._header_due = True
        wait = self._header_last + HEADER_INTERVAL - time.monotonic()
        if wait <= 0:
            self.call_later(self._flush_header)
        else:
            self.set_timer(wait, self._flush_header)

    def header_state(self) -> HeaderState:
        """What the header shows besides the view's stats, read from the parts that own it."""
        feed, calls, tool_calls = self.feed, self.calls, self.tool_calls
        return HeaderState(
            following=self.shown_list.following,
            paused=feed.paused,
            buffered=feed.buffered,
            new=0 if tool_calls.is_open else calls.new,
            indexing=feed.indexing,
            title=self.stream_title,
            tap_errors=feed.error_logs,
            now=time.time() if feed.live else None,
            breakpoint=self.held_panel.breakpoint,
            tool_calls=tool_calls.shown_calls if tool_calls.is_open else None,
            grouping=tool_calls.grouping,
        )

    def _flush_header(self) -> None:
        self._header_due = False
        if not self.header.is_attached:  # shutting down
            return
        self._header_last = time.monotonic()
        self.header.show(self.view, self.header_state())
        self._update_empty()

    def empty_message(self):
        """What the body says instead of rows, or None when there are rows."""
        feed = self.feed
        if self.tool_calls.is_open and self.view.total:
            return tool_calls_empty(
                self.view, self.tool_calls.shown_calls, self.tool_calls.grouping
            )
        return empty_text(self.view, self.stream_title, self.names, feed.loaded, all(feed.missing))

    def _update_empty(self) -> None:
        message = self.empty_message()
        self.body.show_empty(message is not None)
        if message is not None:
            self.empty.update(message)

    # -- list and detail -----------------------------------------------------

    def on_line_list_highlighted(self, message: LineList.Highlighted) -> None:
        self._show_current()

    def _show_current(self, now: bool = False) -> None:
        """The cursor's call in the detail pane: soon, in a worker, or `now`."""
        line = self.shown_list.current  # the newest: older highlights were coalesced away
        if line is None:
            self.detail.clear("no call selected")
            return
        path, tz, color = self.paths[line.source], self.tz, not self.app.no_color
        show = self.detail.show_now if now else self.detail.show
        show(line, lambda: load_tabs(path, line, tz, color))

    def _show_first(self) -> None:
        """The cursor's call (the first screen's newest), built before the app's first frame.

        Built in the worker, the pane came up over the pre-drawn screen saying "no call
        selected", then filled 0.2 to 0.7 s later. Read by offset and built here it costs
        a few ms; a line of many MB (7 ms a MB) is left to the worker, the pane saying so.
        """
        line = self.calls.current
        if line is not None and self._first.tail.end - line.offset > FIRST_DETAIL_BYTES:
            self.detail.clear("reading this call …")
            self._show_current()
        else:
            self._show_current(now=True)

    def on_call_list_opened(self, message: CallList.Opened) -> None:
        if message.line is not None:
            self.detail.focus_now()

    def on_tool_call_list_opened(self, message: ToolCallList.Opened) -> None:
        if self.tool_calls.current is not None:
            self.detail.focus_now()

    def on_detail_pane_back(self, message: DetailPane.Back) -> None:
        focus_now(self.shown_list)

    @property
    def shown_list(self) -> CallList | ToolCallList:
        """The list of calls shown: the tool calls (t), else the hook calls."""
        return self.tool_calls if self.tool_calls.is_open else self.calls

    @property
    def home_list(self) -> LineList:
        """Where focus rests: the patterns table while it is shown, else the shown list."""
        return self.patterns.list if self.patterns.is_open else self.shown_list

    def on_line_list_row_width(self, message: LineList.RowWidth) -> None:
        self.columns.show(message.width)

    def on_line_list_follow_changed(self, message: LineList.FollowChanged) -> None:
        self.changed()

    # -- where focus goes: enter, esc ----------------------------------------

    def action_enter_key(self) -> None:
        focused = self.focused
        if focused is self.calls:
            if self.calls.current is not None:
                self.detail.focus_now()
            return
        if focused is self.tool_calls:
            # Its own enter (opening a call), in turn with the keys before it: this
            # binding runs as the key is read, ahead of a `jj` still queued.
            raise SkipAction()
        if focused is not None and self.detail in focused.ancestors:
            focus_now(self.shown_list)
            return
        raise SkipAction()  # enter in the filter bar

    def action_clear(self) -> None:
        """esc: leave the detail pane or the filter bar; otherwise drop filter and marked-only."""
        focused = self.focused
        if focused is not None and self.filter_bar in focused.ancestors_with_self:
            self.filter_bar.close(keep=False)
        elif focused is not None and self.detail in focused.ancestors_with_self:
            focus_now(self.home_list)
        else:
            self.filter_bar.clear()

    # -- the patterns view ---------------------------------------------------

    def on_patterns_view_filter_to(self, message: PatternsView.FilterTo) -> None:
        self.filter_bar.action_apply_filter(message.expr)

    # -- the tool-call view ----------------------------------------------------

    def _tool_calls_shown(self, shown: bool) -> None:
        shown_list = self.shown_list
        self.body.show_tool_calls(shown, shown_list)
        self.columns.titles = tool_call_titles if shown else None
        self.columns.show(shown_list.row_width or self.columns.size.width)
        self._update_empty()
        self._show_current()

    # -- the hooks screen ----------------------------------------------------

    def action_hooks(self) -> None:
        """`H`: the hook inventory; a hook chosen there filters the calls to it."""
        screen = HooksScreen(self.paths, self.stream_title, self.tz)
        self.app.push_screen(screen, self.filter_bar.filter_to_hook)
