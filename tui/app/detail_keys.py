"""The detail pane's keys, the same in watch and replay: `z` full screen, `+` / `-` its size."""

from __future__ import annotations

from textual.binding import Binding

# Which share of the screen the detail pane takes, by `+` / `-` steps.
DETAIL_SHARES = (25, 35, 45, 55, 65, 75, 85)


def next_share(share: int, step: int) -> int:
    """The share `step` steps (+1, -1) from the one nearest `share`, kept within the steps."""
    here = min(range(len(DETAIL_SHARES)), key=lambda i: abs(DETAIL_SHARES[i] - share))
    return DETAIL_SHARES[max(0, min(len(DETAIL_SHARES) - 1, here + step))]


def detail_bindings(scope: str, *, zoom_in_footer: bool = True) -> list[Binding]:
    """The three bindings, their ids under `scope` ("watch", "replay") for the keymap."""
    return [
        Binding(
            "z",
            "detail_full",
            "Zoom",
            show=zoom_in_footer,
            tooltip="detail pane full screen / back",
            id=f"{scope}.detail_full",
        ),
        Binding(
            "plus,equals_sign",
            "detail_size(1)",
            "Grow",
            show=False,
            tooltip="detail pane taller",
            id=f"{scope}.detail_grow",
        ),
        Binding(
            "minus",
            "detail_size(-1)",
            "Shrink",
            show=False,
            tooltip="detail pane shorter",
            id=f"{scope}.detail_shrink",
        ),
    ]
