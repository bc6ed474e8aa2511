"""The decision palette: one colour, symbol and weight per decision, for every screen.

Colour is never the only signal: each decision also has a symbol and a
weight, so a row reads the same under NO_COLOR, in a CI log or to a
colour-blind reader. Deny and modify differ in hue (red against blue), not only
in shade, and a failure the runtime let through (a guard silently bypassed) is
the loudest look of all. `show`, watch's rows and header, and replay use this
table; nothing else names a decision's colour. Replay's comparison classes and
directions have their looks here too (`CLASS_LOOK`, `DIRECTION_LOOK`), for its
screen, header and `--format text` alike.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from hooktui.replay.compare import (
    CHANGED,
    EFFECT_CHANGED,
    FAILED,
    LOOSENED,
    REASON_ONLY,
    SKIPPED,
    TIGHTENED,
    UNCHANGED,
)
from rich.style import Style


class DecisionLook(NamedTuple):
    color: str  # a rich colour name (foreground)
    symbol: str  # one cell wide, shown before the decision's word
    bold: bool
    bgcolor: str | None = None
    # Without colour: the attributes that set it apart (with its symbol).
    plain: tuple[str, ...] = ()

    def style(self, color: bool = True) -> Style:
        """The rich Style; without colour, its `plain` attributes (reverse for a background)."""
        if not color:
            attrs = dict.fromkeys(self.plain, True)
            if self.bgcolor is not None:
                attrs["reverse"] = True
            return Style(**attrs)
        return Style(color=self.color, bgcolor=self.bgcolor, bold=self.bold)


PALETTE: dict[str, DecisionLook] = {
    "allow": DecisionLook("green3", "✓", False),
    "deny": DecisionLook("red1", "✗", True, plain=("bold",)),
    "ask": DecisionLook("gold1", "?", True, plain=("bold", "italic")),
    # Handed to whoever runs the agent, to decide later: neither run nor refused now.
    "defer": DecisionLook("light_pink3", "»", True, plain=("italic",)),
    # Far from deny's red in hue and in lightness: the two must never be confused.
    "modify": DecisionLook("medium_purple1", "✎", False, plain=("underline",)),
    "replace": DecisionLook("deep_sky_blue1", "⇄", False, plain=("italic", "underline")),
    "failure": DecisionLook("dark_orange", "!", True, plain=("bold",)),
}
# Pure white on red3, 5.4:1 (WCAG AA asks 4.5): "white" is the terminal theme's
# light grey, 2.8:1 on red (tests/tui/test_warning_contrast.py).
FAIL_OPEN = DecisionLook("grey100", "⚠", True, bgcolor="red3", plain=("bold",))
UNKNOWN = DecisionLook("grey62", "·", False, plain=("dim",))


def no_color(environ: dict[str, str] | None = None) -> bool:
    """NO_COLOR (https://no-color.org): set to anything but the empty string."""
    return bool((os.environ if environ is None else environ).get("NO_COLOR"))


def look(decision: str, fail_open: bool = False) -> DecisionLook:
    if fail_open:
        return FAIL_OPEN
    return PALETTE.get(decision, UNKNOWN)


def decision_style(decision: str, fail_open: bool = False, color: bool = True) -> Style:
    return look(decision, fail_open).style(color)


def decision_mark(decision: str, fail_open: bool = False, word: str = "") -> str:
    """'✗ deny', '⚠ timeout' (a fail-open failure, named by what failed): symbol and word."""
    return f"{look(decision, fail_open).symbol} {word or decision}"


# What a replay found, record by record: a symbol or word and a style for each
# comparison class, and the direction a decision moved (replay's screen, header and text).
CLASS_LOOK = {
    UNCHANGED: ("=", "grey50"),
    REASON_ONLY: ("~ reason", "deep_sky_blue1"),
    CHANGED: ("≠", "bold gold1"),
    EFFECT_CHANGED: ("≈ effect", "gold1"),
    FAILED: ("✗ failed", "bold dark_orange"),
    SKIPPED: ("- skipped", "grey50 italic"),
}
DIRECTION_LOOK = {
    LOOSENED: ("▲ loosened", "bold grey100 on red3"),  # as FAIL_OPEN: 5.4:1
    TIGHTENED: ("▼ tightened", "bold green3"),
}
