"""Watch's hooks screen (`H`): every configured hook, how often it fired in the shown streams.

The inventory `hooktui hooks` prints, for the project it would read when run from
watch's folder: each hook of each runtime with a hook source here (event,
matcher, handler type, timeout, what a failure does, wrapped or not), joined
with the streams watch reads (calls, last call, deny and fail-open rates, p95,
never fired, quiet since), and the settings files a runtime rejects or partly
ignores, with the reason. Read in a thread worker, again each time the screen
opens. `s` sorts by the next column; enter closes the screen and filters the
calls to the selected hook (an expression in the filter bar, `/` edits it).
"""

from __future__ import annotations

from datetime import tzinfo
from pathlib import Path
from typing import ClassVar

from hooktui.tap.inventory.listing import SORTS, Listing, calls_filter, listing, no_calls, sort_key
from hooktui.tap.inventory.model import Hook
from hooktui.tap.read.focus import Focus
from hooktui.tap.read.sanitize import safe_line
from hooktui.tap.runtimes import ADAPTERS
from hooktui.tui.app.help import HelpScreen, bindings_of, help_rows
from hooktui.tui.app.keys import Key, KeyedScreen, keys_in_order
from hooktui.tui.app.widgets.detail import focus_now
from hooktui.tui.app.widgets.keyed_rows import KeyedRows
from hooktui.tui.app.widgets.line_list import LineList
from hooktui.tui.present import inventory as present
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static


def _why_not_choose(hooks: HookList) -> str | None:
    if not hooks.loaded:
        return "reading the hooks…"
    hook = hooks.current
    if hook is None:
        return "no hook selected"
    why = no_calls(hook)
    return None if why is None else f"{hook_name(hook)}: {why}"


def hook_name(hook: Hook) -> str:
    runtime = ADAPTERS[hook.runtime].title if hook.runtime in ADAPTERS else hook.runtime
    return f"{runtime} {hook.event} hook {hook.command[:80]!r}"


class HookList(LineList):
    """One row per configured hook, in the chosen order; the cursor keeps its hook on a re-sort."""

    KEYS: ClassVar[tuple[Key, ...]] = (
        Key(
            Binding(
                "enter",
                "choose",
                "Filter to hook",
                tooltip="back to the calls, filtered to the selected hook's",
                id="hooks.choose",
            ),
            _why_not_choose,
        ),
        Key(Binding("s", "resort", "Sort", tooltip="sort by the next column", id="hooks.sort")),
        Key(
            Binding(
                "S",
                "reverse",
                "Reverse",
                show=False,
                tooltip="reverse the order",
                id="hooks.reverse",
            )
        ),
    )

    def __init__(self, tz: tzinfo | None, **kwargs) -> None:
        self.rows = KeyedRows()
        focus = Focus(self.rows)
        focus.set_following(False)  # a table is read from the top
        super().__init__(focus, **kwargs)
        self.tz = tz
        self.sort, self.reverse = SORTS[0], False
        self.loaded = False
        self._hooks: list[Hook] = []

    def render_row(self, row: int, width: int) -> Text:
        return present.hook_row(self.rows.item(row), width, self.tz, not self.app.no_color)

    def fill(self, hooks: list[Hook]) -> None:
        """Show `hooks` in the chosen order (the cursor keeps its hook)."""
        self._hooks, self.loaded = hooks, True
        if self.sort == "order":  # the inventory's own: runtimes in the registry's order
            ordered = hooks[::-1] if self.reverse else list(hooks)
        else:
            ordered = sorted(hooks, key=sort_key(self.sort), reverse=self.reverse)
        self.rows.replace(((h.runtime, h.position), h) for h in ordered)

    @property
    def current(self) -> Hook | None:
        row = self.focus_model.selected_row
        return None if row is None else self.rows.item(row)

    def action_choose(self) -> None:
        self.screen.choose(self.current)

    def action_open(self) -> None:  # a double click: enter, its reason asked first
        self.call_later(self.screen.run_action, "choose")

    def action_resort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.reverse = False
        self._resorted()

    def action_reverse(self) -> None:
        self.reverse = not self.reverse
        self._resorted()

    def _resorted(self) -> None:
        self.fill(self._hooks)
        self.screen.draw()


def _reading(screen: HooksScreen) -> str | None:
    return "reading the hooks…" if screen.reading else None


SCREEN_KEYS: tuple[Key, ...] = (
    Key(Binding("question_mark", "help", "Help", tooltip="this help", id="hooks.help")),
    Key(
        Binding(
            "r",
            "reread",
            "Read again",
            tooltip="read the settings files and the streams again",
            id="hooks.reread",
        ),
        _reading,
    ),
    Key(Binding("escape,q", "close", "Back", tooltip="back to the calls", id="hooks.close")),
)
KEY_ORDER = (
    "hooks.help",
    "hooks.choose",
    "hooks.sort",
    "hooks.reverse",
    "hooks.reread",
    "hooks.close",
)


class HooksScreen(KeyedScreen):
    """The hook inventory over the watch screen; dismissed with a filter expression (or None)."""

    KEYS = SCREEN_KEYS
    BINDINGS: ClassVar[list[BindingType]] = keys_in_order(KEY_ORDER, SCREEN_KEYS, HookList.KEYS)

    def __init__(
        self, paths: list[str], streams: str, tz: tzinfo | None, project: Path | None = None
    ) -> None:
        """`paths` are the streams read, `streams` how the title names them."""
        super().__init__()
        self.paths, self.streams = paths, streams
        self.project = project or Path.cwd()  # where `hooktui hooks` would read from
        self.listing: Listing | None = None
        self.reading = False
        self.hooks = HookList(tz, id="hooks-list")

    def key_parts(self):
        return (self, self.hooks)

    def compose(self) -> ComposeResult:
        self.heading = Static(id="hooks-title")
        self.titles = Static(id="hooks-columns")
        self.line = Static(id="hooks-line")
        self.files = Static(id="hooks-files")
        yield self.heading
        yield self.titles
        yield self.hooks
        yield self.line
        yield self.files
        yield Footer()

    def on_mount(self) -> None:
        focus_now(self.hooks)
        self.action_reread()

    def action_reread(self) -> None:
        """Read the settings and the streams (again), in a worker; the rows stay till then."""
        reason = self.why_not("reread")
        if reason is not None:  # a key of the screen's own: not guarded on the way
            self.notify(reason, severity="warning")
            return
        self.reading = True
        self.draw()
        self._read(self.paths, self.project)

    @work(thread=True, exclusive=True, group="hooks")
    def _read(self, paths: list[str], project: Path) -> None:
        # Reading settings files and every record of the streams: never on the UI thread.
        try:
            found = listing(paths, project=project)
        except (OSError, ValueError) as exc:  # said on the screen; watch goes on
            self.app.call_from_thread(self._read_failed, str(exc))
            return
        self.app.call_from_thread(self._read_done, found)

    def _read_failed(self, error: str) -> None:
        self.reading = False
        self.draw()
        self.notify(f"hooks: {safe_line(error)}", severity="error")

    def _read_done(self, found: Listing) -> None:
        self.listing, self.reading = found, False
        self.hooks.fill(found.inventory.hooks)
        self.draw()

    # -- drawing -------------------------------------------------------------

    def draw(self) -> None:
        inv = self.listing.inventory if self.listing is not None else None
        hooks = self.hooks
        title = present.heading(str(self.project), self.streams, inv, hooks.sort, self.reading)
        self.heading.update(title)
        self._draw_titles()
        self._draw_line()
        home, color = str(Path.home()), not self.app.no_color
        lines = present.file_lines(inv.files, home, color) if inv is not None else []
        if inv is not None and not inv.hooks:
            none = " no runtime has a hook configured for this folder"
            hint = " (`hooktui hooks --all` lists where each one looks)"
            lines.insert(0, Text(none + hint, style="italic"))
        self.files.display = bool(lines)
        self.files.update(Text("\n", no_wrap=True, overflow="ellipsis").join(lines))

    def _draw_titles(self, width: int | None = None) -> None:
        lst = self.hooks
        width = width or lst.row_width or self.size.width or 80
        self.titles.update(present.titles(lst.sort, lst.reverse, width))

    def _draw_line(self) -> None:
        hook = self.hooks.current
        text = present.hook_line(hook, str(Path.home()), self.hooks.tz) if hook else Text("")
        self.line.update(text)

    def on_line_list_row_width(self, message: LineList.RowWidth) -> None:
        self._draw_titles(message.width)

    def on_line_list_highlighted(self, message: LineList.Highlighted) -> None:
        self._draw_line()

    # -- keys ----------------------------------------------------------------

    def choose(self, hook: Hook | None) -> None:
        """Back to the calls, filtered to `hook`'s (the key's reason was asked first)."""
        if hook is None or self.listing is None:
            return
        expr = calls_filter(hook, self.listing.recorded)
        if expr is None:  # its calls were counted, but not its command line: cannot happen
            self.notify(f"{hook_name(hook)}: no calls to show", severity="warning")
            return
        self.dismiss(expr)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.push_screen(help_screen(self))

    def palette_allows(self, action: str) -> bool:
        return self.why_not(action) is None


def help_screen(screen: HooksScreen) -> HelpScreen:
    rows = help_rows(bindings_of(type(screen)))
    notes = (
        "A hook hooktui has not wrapped (`hooktui install`) is listed, but its calls are not "
        "seen. A timeout marked * is the runtime's default."
    )
    return HelpScreen("hooktui watch — hooks (H)", [("keys", rows)], notes)
