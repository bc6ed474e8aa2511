"""The loudest warning is legible: a fail-open badge and cell meet WCAG's 4.5:1.

Light grey on red measured 2.84:1. Contrast here is computed from what the real
app draws (the segments of every widget holding `⚠`, their colours resolved
through the app's own ANSI theme) and from replay's `▲ loosened` look; under
NO_COLOR the same marks carry no colour and stand out by weight and reverse video.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import pytest
from hooktui.replay.compare import LOOSENED
from hooktui.tap.model import HookInfo
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.present.format import NEAR_TIMEOUT_MARK
from hooktui.tui.present.palette import DIRECTION_LOOK
from rich.color import Color
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from textual.geometry import Region

from tests.tui.conftest import make_record, wait_until, write_stream

WCAG_AA = 4.5


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(style: Style, theme) -> float:
    fg = (style.color or Color.default()).get_truecolor(theme, foreground=True)
    bg = (style.bgcolor or Color.default()).get_truecolor(theme, foreground=False)
    if style.reverse:
        fg, bg = bg, fg
    hi, lo = sorted((luminance(tuple(fg)), luminance(tuple(bg))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_wcag_formula_on_known_pairs():
    black_on_white = Style(color="#000000", bgcolor="#ffffff")
    assert round(contrast(black_on_white, DEFAULT_TERMINAL_THEME), 1) == 21.0
    grey_on_red = Style(color="#c5c8c6", bgcolor="#d70000")  # the look
    assert contrast(grey_on_red, DEFAULT_TERMINAL_THEME) < WCAG_AA


def _stream(tmp_path: Path) -> Path:
    failed_open = make_record(
        1, decision="failure", failure="exit_code", effect="proceeds", exit_code=1
    )
    return write_stream(tmp_path / "s.jsonl", [make_record(0), failed_open])


async def _warnings(app: WatchApp, mark: str = "⚠") -> list[tuple[str, Style]]:
    """Every drawn segment of a `mark` warning, with its style, as the screen gets it (the
    app's own line filters applied: its ANSI theme, NO_COLOR's monochrome)."""
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_until(
            pilot, lambda: app.main_screen.feed.loaded and app.main_screen.view.total == 2
        )
        await pilot.press("G")  # the failed call: its row and detail
        await pilot.pause()
        found = []
        for widget in app.screen.walk_children():
            if not widget.display or not widget.size.area:
                continue
            for strip in widget.render_lines(Region(0, 0, *widget.size)):
                segments = list(strip)
                for i, seg in enumerate(segments):
                    if mark in seg.text and seg.style is not None:
                        words = "".join(s.text for s in segments[i : i + 3])
                        found.append((f"{type(widget).__name__}: {words.strip()}", seg.style))
        return found


async def test_fail_open_marks_meet_4_5_to_1_as_drawn(tmp_path: Path):
    app = WatchApp([str(_stream(tmp_path))], tz=UTC, live=False)
    found = await _warnings(app)
    where = " | ".join(w for w, _ in found)
    assert "fail-open" in where and "exit_code" in where, where  # badge and cell both
    for theme in (app.ansi_theme_dark, app.ansi_theme_light, DEFAULT_TERMINAL_THEME):
        for what, style in found:
            assert contrast(style, theme) >= WCAG_AA, (what, style, contrast(style, theme))


@pytest.mark.parametrize("theme", [DEFAULT_TERMINAL_THEME])
def test_replays_loosened_meets_4_5_to_1(theme):
    style = Style.parse(DIRECTION_LOOK[LOOSENED][1])
    assert contrast(style, theme) >= WCAG_AA


async def test_under_no_color_the_marks_stay_legible_without_hue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("NO_COLOR", "1")
    app = WatchApp([str(_stream(tmp_path))], tz=UTC, live=False)
    found = await _warnings(app)
    where = " | ".join(w for w, _ in found)
    assert "fail-open" in where and "exit_code" in where, where
    for what, style in found:
        assert style.bold or style.reverse, (what, style)
        for theme in (app.ansi_theme_dark, DEFAULT_TERMINAL_THEME):
            assert contrast(style, theme) >= WCAG_AA, (what, style, contrast(style, theme))


def _near_timeout_stream(tmp_path: Path) -> Path:
    hook = HookInfo(label="guard", argv=["python3", "guard.py"], timeout_ms=1000)
    slow = make_record(1, hook=hook, duration_ms=950.0)  # 95% of its timeout: `◷950ms`
    return write_stream(tmp_path / "s.jsonl", [make_record(0), slow])


@pytest.mark.parametrize("no_color", [False, True])
async def test_near_timeout_latency_cell_meets_4_5_to_1_as_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_color: bool
):
    # Dark on salmon, as drawn: the gradient's colour reversed onto the row's background.
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = WatchApp([str(_near_timeout_stream(tmp_path))], tz=UTC, live=False)
    found = await _warnings(app, NEAR_TIMEOUT_MARK)
    assert any("950ms" in what for what, _ in found), found
    for theme in (app.ansi_theme_dark, app.ansi_theme_light, DEFAULT_TERMINAL_THEME):
        for what, style in found:
            assert contrast(style, theme) >= WCAG_AA, (what, style, contrast(style, theme))
