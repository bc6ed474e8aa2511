"""`hooktui watch`'s first screen, drawn before Textual loads (its text: `present/first_screen.py`).

The command reads the stream's tail (`read_first`), draws it straight to the
terminal's alternate screen and hands the same tail to the app, which takes over
that screen and redraws it in place.

The tty is put in the app's input mode before anything is drawn (no echo, no
line editing, no signals, CR kept as CR): keys typed meanwhile wait in the tty
for the app, unechoed. The app saves and restores that mode; the command
restores the one it found (`QuietTty`).
"""

from __future__ import annotations

import os
import sys
import termios
from datetime import tzinfo

from hooktui.tap.read.errlog import TapErrorLog
from hooktui.tap.read.index_load import read_tail
from hooktui.tap.read.lines import is_regular
from hooktui.tui.present.first_screen import First, first_screen, to_ansi


def read_first(path: str) -> First | None:
    """The newest lines of one regular file, or None (missing, unreadable: the app says so)."""
    if not is_regular(path):
        return None
    try:
        tail = read_tail(path)
    except OSError:
        return None
    log = TapErrorLog(path)
    log.check()
    return First(tail, log.count)


class QuietTty:
    """The tty in the app's input mode while it loads; the mode found is restored at the end."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.saved: list | None = None

    def __enter__(self) -> QuietTty:
        try:
            self.saved = termios.tcgetattr(self.fd)
            mode = termios.tcgetattr(self.fd)
        except termios.error:
            return self
        # As Textual's driver sets it: keys are read one by one, unechoed, ^C included.
        mode[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
        mode[0] &= ~(termios.IXON | termios.IXOFF | termios.ICRNL | termios.INLCR | termios.IGNCR)
        mode[6][termios.VMIN] = 1
        try:
            termios.tcsetattr(self.fd, termios.TCSANOW, mode)
        except termios.error:
            self.saved = None
        return self

    def __exit__(self, *_exc) -> None:
        if self.saved is not None:
            try:
                termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)
            except termios.error:
                pass


def draw_first(first: First, path: str, tz: tzinfo | None, color: bool) -> bool:
    """Draw the first screen where the app draws (stderr); whether it was drawn.

    Sized as the app sizes itself (shutil's rule: $COLUMNS and $LINES first).
    """
    import shutil

    fd = sys.__stderr__.fileno()
    if not os.isatty(fd):
        return False
    width, height = shutil.get_terminal_size((0, 0))
    if width < 20 or height < 8:
        return False
    screen = first_screen(first, path, tz, width, height, color)
    if screen is None:
        return False
    data = to_ansi(screen, color).encode("utf-8", "replace")
    while data:  # unbuffered: it must be on screen before the imports that follow
        written = os.write(fd, data)
        data = data[written:]
    return True


def leave_first() -> None:
    """Back to the normal screen, cursor shown: the app failed before it took over."""
    os.write(sys.__stderr__.fileno(), b"\x1b[?1049l\x1b[?25h")
