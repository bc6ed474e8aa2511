"""`hooktui watch`: the app around its one screen (watch_screen.py).

The app owns what outlives the screen: the streams' names and the spool files a
pipe is read through, the time zone, and how the process ends (q, SIGTERM, a
hangup). Everything the user sees and does is the screen's parts'.
"""

from __future__ import annotations

import asyncio
import os
import signal
from datetime import tzinfo
from typing import ClassVar

from hooktui.tui.app.palette import BindingCommands
from hooktui.tui.app.spool import Spools
from hooktui.tui.app.watch_screen import WatchScreen
from hooktui.tui.present.first_screen import First
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen


class WatchApp(App[int]):
    """`hooktui watch`: every recorded hook call, live."""

    CSS_PATH = "hooktui.tcss"
    TITLE = "hooktui watch"
    COMMANDS = App.COMMANDS | {BindingCommands}
    ENABLE_COMMAND_PALETTE = True

    # Quitting is the app's, from any screen (the screen's keys: watch_screen.py).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", tooltip="quit", id="watch.quit"),
        # Ctrl-C quits, as everywhere in a terminal (the app's own ctrl+q too).
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True, id="watch.interrupt"),
    ]

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
        self.names = [str(p) for p in paths]  # as the user gave them
        # What is read: the same paths, except a pipe or FIFO, read through a spool file.
        self.spools = Spools()
        self.paths = [self.spools.path_for(p) for p in self.names]
        self.tz = tz
        # --intercept's HoldServer, already holding; `first`: one stream's newest
        # lines, read (and drawn) before Textual loaded, shown from the first frame.
        self.main_screen = WatchScreen(
            self.paths, self.names, tz=tz, live=live, hold=hold, first=first
        )

    def get_default_screen(self) -> Screen:
        return self.main_screen

    def on_mount(self) -> None:
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
        self.spools.remove()

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
