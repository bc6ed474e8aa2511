"""The replay screen's detail pane size: a share of the screen (`+` / `-`) or all of it (`z`)."""

from __future__ import annotations

from hooktui.tui.app.detail_keys import next_share
from hooktui.tui.app.widgets.detail import DetailPane, focus_now
from hooktui.tui.app.widgets.result_list import ResultList
from textual.screen import Screen


class DetailSize:
    """How much of the screen the detail pane takes, under the list.

    Depends on: the screen (its `-detail-full` class hides the list and its
    titles, in the stylesheet), the detail pane it sizes and the list that
    takes the focus back from full screen.
    """

    SHARE = 45  # of the screen, at first

    def __init__(self, screen: Screen, detail: DetailPane, results: ResultList) -> None:
        self.screen, self.detail, self.list = screen, detail, results
        self.share = self.SHARE
        self.full = False

    def toggle_full(self) -> None:
        """`z`: the pane takes the screen (and the focus), or gives the list back."""
        self.full = not self.full
        self.apply()
        if self.full and self.screen.focused is self.list:
            self.detail.focus_now()
        elif not self.full and self.screen.focused is not self.list:
            focus_now(self.list)

    def step(self, step: int) -> None:
        """`+` (1) / `-` (-1): the next share up or down, out of full screen."""
        self.full = False
        self.share = next_share(self.share, step)
        self.apply()

    def leave_full(self) -> None:
        """Out of full screen (the list is to be seen), without moving the focus."""
        if self.full:
            self.full = False
            self.apply()

    def apply(self) -> None:
        # A height set here outranks the stylesheet; full screen hides the list.
        self.screen.set_class(self.full, "-detail-full")
        self.detail.styles.height = "1fr" if self.full else f"{self.share}%"
        self.detail.place_underline()
