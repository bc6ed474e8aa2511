"""Shared formatting: decision colours, latency gradient, times, JSON, short names.

Everything here is pure (no widgets), so the call list, the detail pane, the
header and `show` agree on how a call looks.
"""

from __future__ import annotations

import json
import math
import os
from datetime import datetime, tzinfo
from functools import lru_cache
from pathlib import Path
from typing import Any

from hooktui.tap.canonical import fails_open
from hooktui.tap.read.sanitize import safe_line, safe_text
from hooktui.tui.present.palette import FAIL_OPEN, PALETTE, UNKNOWN
from rich.color import Color
from rich.style import Style
from rich.text import Text

# One distinct look per decision, from the one palette (tui/cli/palette.py).
DECISION_STYLES: dict[str, Style] = {d: look.style() for d, look in PALETTE.items()}
FAIL_OPEN_STYLE = FAIL_OPEN.style()
BAD_LINE_STYLE = Style(color="red1", italic=True)
UNKNOWN_DECISION_STYLE = UNKNOWN.style()

FAIL_OPEN_MARK = FAIL_OPEN.symbol
NEAR_TIMEOUT_MARK = "◷"
MARK_MARK = "●"

# "Close to the timeout": the share of the timeout a call used.
NEAR_TIMEOUT_RATIO = 0.8

EVENT_SHORT = {
    "pre_tool_use": "pre",
    "post_tool_use": "post",
    "user_prompt": "prompt",
    "permission_request": "perm",
    "stop": "stop",
    "session": "session",
    "notification": "notify",
    "other": "other",
}


def decision_style(decision: str, fail_open: bool = False) -> Style:
    if fail_open:
        return FAIL_OPEN_STYLE
    return DECISION_STYLES.get(decision, UNKNOWN_DECISION_STYLE)


def decision_label(decision: str, effect: str = "") -> str:
    if fails_open(decision, effect):
        return f"{FAIL_OPEN_MARK} {decision}"
    return decision


# Latency gradient: green at <= 1 ms to red at >= 2 s, on a log scale, because
# hook latencies spread over four orders of magnitude.
_GRADIENT_LOW_MS = 1.0
_GRADIENT_HIGH_MS = 2000.0
_GRADIENT_STEPS = 24
_GREEN = (95, 215, 95)
_YELLOW = (255, 215, 95)
_RED = (255, 95, 95)


def _blend(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@lru_cache(maxsize=_GRADIENT_STEPS + 1)
def _gradient_style(step: int) -> Style:
    t = step / _GRADIENT_STEPS
    rgb = _blend(_GREEN, _YELLOW, t * 2) if t < 0.5 else _blend(_YELLOW, _RED, (t - 0.5) * 2)
    return Style(color=Color.from_rgb(*rgb))


def latency_style(ms: float) -> Style:
    if ms <= _GRADIENT_LOW_MS:
        return _gradient_style(0)
    span = math.log(_GRADIENT_HIGH_MS / _GRADIENT_LOW_MS)
    t = min(1.0, math.log(ms / _GRADIENT_LOW_MS) / span)
    return _gradient_style(round(t * _GRADIENT_STEPS))


def format_latency(ms: float) -> str:
    if ms != ms:  # NaN
        return "?"
    if ms < 10:
        return f"{ms:.1f}ms"
    if ms < 1000:
        return f"{ms:.0f}ms"
    if ms < 60_000:
        return f"{ms / 1000:.2f}s"
    if ms < 3_600_000:
        minutes, seconds = divmod(ms / 1000, 60)
        return f"{int(minutes)}m{int(seconds):02d}s"
    # A record may claim anything (1e300 ms, inf): a few characters, never a page.
    if not math.isfinite(ms) or ms >= 1000 * 86_400_000:
        return ">999d"
    hours = ms / 3_600_000
    return f"{int(hours)}h{int(hours % 1 * 60):02d}m" if hours < 48 else f"{int(hours // 24)}d"


def near_timeout(duration_ms: float, timeout_ms: int | None) -> bool:
    return bool(timeout_ms) and duration_ms >= NEAR_TIMEOUT_RATIO * timeout_ms


@lru_cache(maxsize=256)
def default_timeout_ms(runtime: str, native_event: str = "") -> int | None:
    """The runtime's default hook timeout at that event (UserPromptSubmit's may be
    shorter than the rest), when its descriptor knows one."""
    from hooktui.tap.runtimes import ADAPTERS

    found = ADAPTERS.get(runtime)
    return found.timeout_for(native_event) if found is not None else None


def effective_timeout_ms(
    runtime: str, timeout_ms: int | None, native_event: str = ""
) -> int | None:
    return timeout_ms if timeout_ms else default_timeout_ms(runtime, native_event)


def _moment(epoch: float, tz: tzinfo | None) -> datetime | None:
    """The datetime of `epoch` in `tz` (None: local); None when no datetime can hold it.

    A record may say year 1 or 9999 with any offset, or a time past what the
    platform can convert: that is a row that shows no time, never a crash.
    """
    if not math.isfinite(epoch):
        return None
    try:
        return datetime.fromtimestamp(epoch, tz or datetime.now().astimezone().tzinfo)
    except (ValueError, OverflowError, OSError):
        return None


def format_time(epoch: float, tz: tzinfo | None, millis: bool = False) -> str:
    """Wall-clock time of a record; `tz=None` means the local zone."""
    moment = _moment(epoch, tz)
    if moment is None:
        return "--:--:--.---" if millis else "--:--:--"
    text = moment.strftime("%H:%M:%S")
    if millis:
        text += f".{moment.microsecond // 1000:03d}"
    return text


def format_datetime(epoch: float, tz: tzinfo | None) -> str:
    moment = _moment(epoch, tz)
    if moment is None:
        return "unknown time" if math.isnan(epoch) else "out of range"
    return moment.isoformat(timespec="milliseconds")


def short_event(event: str) -> str:
    return EVENT_SHORT.get(event, event)


@lru_cache(maxsize=64)
def short_runtime(runtime: str) -> str:
    """The runtime's own short label (the registry's), any other text as it is."""
    from hooktui.tap.runtimes import label

    return label(runtime)


# Record text is untrusted: one sanitizer (tap/read/sanitize.py) for every
# field a terminal shows, under the names the widgets already use.
one_line = safe_line
printable = safe_text


def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def format_count(n: int) -> str:
    return f"{n:,}"


SPARK_BLOCKS = " ▁▂▃▄▅▆▇█"


def sparkline(values: list[int]) -> str:
    """One block character per value, scaled to the largest."""
    # A quiet minute is the lowest bar, so the line reads as a baseline.
    top = max(values, default=0)
    if top <= 0:
        return SPARK_BLOCKS[1] * len(values)
    last = len(SPARK_BLOCKS) - 1
    return "".join(
        SPARK_BLOCKS[1] if v <= 0 else SPARK_BLOCKS[max(2, math.ceil(v / top * last))]
        for v in values
    )


def count_of(n: int, noun: str, plural: str = "") -> str:
    """ "1 call", "2 calls", "1,000 records": the noun agrees with its number."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


# The most characters one tab body lays out: wrapping is done on the UI thread,
# so a 20 MB field is cut here (`c` copies the whole record).
SHOW_LIMIT = 64 * 1024


def clip(text: str, limit: int = SHOW_LIMIT) -> str:
    """`text`, cut at `limit` characters with a note of what was left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({count_of(len(text) - limit, 'more character')})"


def bounded_text(text: str, style: str = "", limit: int = SHOW_LIMIT) -> Text:
    """Recorded text as a renderable: bounded, never markup, control characters made visible."""
    return Text(printable(clip(text, limit)), style=style)


def display_path(path: str) -> str:
    home = str(Path.home())
    return "~" + path[len(home) :] if path.startswith(home + os.sep) else path
