"""The detail pane's keys, the same in watch and replay: `z` full screen, `+` / `-` its size."""

from __future__ import annotations

from textual.binding import Binding


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
