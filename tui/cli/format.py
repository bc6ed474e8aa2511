"""Shared formatting: decision colours, latency gradient, times, JSON, short names.

Everything here is pure (no widgets), so the call list, the detail pane, the
header and `show` agree on how a call looks.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

from rich.color import Color
from rich.style import Style

# One distinct look per decision. A failure that let the call through (the
# runtime failed open: a guard silently bypassed) is the loudest thing on screen.
DECISION_STYLES: dict[str, Style] = {
    "allow": Style(color="green3"),
    "deny": Style(color="red1", bold=True),
    "ask": Style(color="gold1", bold=True),
    # Far from deny's red in hue and in lightness: the two must never be confused.
    "modify": Style(color="medium_purple1"),
    "replace": Style(color="deep_sky_blue1"),
    "failure": Style(color="dark_orange", bold=True),
}
FAIL_OPEN_STYLE = Style(color="white", bgcolor="red3", bold=True)
BAD_LINE_STYLE = Style(color="red1", italic=True)
UNKNOWN_DECISION_STYLE = Style(color="grey62")

FAIL_OPEN_MARK = "⚠"
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

RUNTIME_SHORT = {
    "claude-code": "claude",
    "gemini-cli": "gemini",
}


def decision_style(decision: str, fail_open: bool = False) -> Style:
    if fail_open:
        return FAIL_OPEN_STYLE
    return DECISION_STYLES.get(decision, UNKNOWN_DECISION_STYLE)


def is_fail_open(decision: str, effect: str) -> bool:
    """A failure the runtime let through (same rule as Verdict.lets_through)."""
    return decision == "failure" and effect != "blocks"


def decision_label(decision: str, effect: str = "") -> str:
    if is_fail_open(decision, effect):
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
    if ms < 10:
        return f"{ms:.1f}ms"
    if ms < 1000:
        return f"{ms:.0f}ms"
    if ms < 60_000:
        return f"{ms / 1000:.2f}s"
    minutes, seconds = divmod(ms / 1000, 60)
    return f"{int(minutes)}m{int(seconds):02d}s"


def near_timeout(duration_ms: float, timeout_ms: int | None) -> bool:
    return bool(timeout_ms) and duration_ms >= NEAR_TIMEOUT_RATIO * timeout_ms


@lru_cache(maxsize=64)
def default_timeout_ms(runtime: str) -> int | None:
    """The runtime's default hook timeout, when its adapter knows one."""
    try:
        from hooktui.tap.runtimes import get_adapter

        return get_adapter(runtime).default_timeout_ms
    except Exception:  # an unknown runtime, or an adapter without the attribute
        return None


def effective_timeout_ms(runtime: str, timeout_ms: int | None) -> int | None:
    return timeout_ms if timeout_ms else default_timeout_ms(runtime)


def format_time(epoch: float, tz: tzinfo | None, millis: bool = False) -> str:
    """Wall-clock time of a record; `tz=None` means the local zone."""
    if math.isnan(epoch):
        return "--:--:--"
    moment = datetime.fromtimestamp(epoch, tz or datetime.now().astimezone().tzinfo)
    text = moment.strftime("%H:%M:%S")
    if millis:
        text += f".{moment.microsecond // 1000:03d}"
    return text


def format_datetime(epoch: float, tz: tzinfo | None) -> str:
    if math.isnan(epoch):
        return "unknown time"
    moment = datetime.fromtimestamp(epoch, tz or datetime.now().astimezone().tzinfo)
    return moment.isoformat(timespec="milliseconds")


def short_event(event: str) -> str:
    return EVENT_SHORT.get(event, event)


def short_runtime(runtime: str) -> str:
    return RUNTIME_SHORT.get(runtime, runtime)


_CONTROL = {i: "·" for i in range(32)}
_CONTROL[ord("\n")] = "⏎"
_CONTROL[ord("\t")] = " "
_CONTROL.update({i: "·" for i in range(0x7F, 0xA0)})  # DEL and C1 (0x9b is a CSI)


def one_line(text: str) -> str:
    """Text safe for a single terminal row: no newlines or control characters."""
    return text.translate(_CONTROL)


# Hook output is untrusted: an escape sequence in it must show, not run
# (OSC 52 could write the clipboard, others retitle or garble the terminal).
_UNPRINTABLE = {i: f"\\x{i:02x}" for i in (*range(32), *range(0x7F, 0xA0))}
del _UNPRINTABLE[ord("\n")], _UNPRINTABLE[ord("\t")]


def printable(text: str) -> str:
    """Multi-line text with control characters shown as \\xNN escapes."""
    return text.translate(_UNPRINTABLE)


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
