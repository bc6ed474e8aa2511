"""The replay screen's header: what is replayed against what, and the counts so far.

A pure function of a `HeaderState` (no widget state), so the screen redraws it
from whatever it holds and a test can build one directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hooktui.replay.compare import (
    CHANGED,
    EFFECT_CHANGED,
    FAILED,
    LOOSENED,
    REASON_ONLY,
    SKIPPED,
    TIGHTENED,
)
from hooktui.replay.report import Report, Result
from hooktui.tui.present.format import printable
from hooktui.tui.present.palette import CLASS_LOOK
from hooktui.tui.present.replay_tabs import RULES_MARK
from rich.text import Text

# The counts, in the order the header shows them: (label, Report.counts key, style);
# those in SHOWN_IF_ANY only when not 0: the counts fit one row of 80 columns, so at
# 80x24 the list keeps that row (the decision counts are always shown, 0 says "none").
SHOWN_IF_ANY = frozenset({EFFECT_CHANGED, REASON_ONLY, FAILED, SKIPPED})
COUNTS = (
    ("unchanged", "unchanged", ""),
    ("changed", CHANGED, CLASS_LOOK[CHANGED][1]),
    ("loosened", LOOSENED, "bold red1"),
    ("tightened", TIGHTENED, "bold green3"),
    ("effect changed", EFFECT_CHANGED, CLASS_LOOK[EFFECT_CHANGED][1]),
    ("reason only", REASON_ONLY, CLASS_LOOK[REASON_ONLY][1]),
    ("failed", FAILED, CLASS_LOOK[FAILED][1]),
    ("skipped", SKIPPED, ""),
)


@dataclass
class HeaderState:
    results: list[Result]
    repeat: int = 1
    policy: str | None = None  # None: the recorded hooks
    session: str = ""
    generation: int | None = None  # with --watch: which run this is
    shown: int = 0
    total: int = 0  # records to replay
    running: bool = False
    changes_only: bool = False
    filter_expr: str = ""
    left_out: Text | None = field(default=None)
    width: int = 0  # the header's width: the policy is cut to keep its line one row (0: not)


def header_text(state: HeaderState) -> Text:
    c = Report(results=state.results, repeat=state.repeat).counts()
    text = Text()
    session = printable(state.session)
    watching = f"  watching ({state.generation})" if state.generation is not None else ""
    if state.policy is None:
        against = "recorded hooks"
    else:
        # One row: a long policy (an inline script) would push the list down a row or
        # three at 80x24. The summary tab's `ran` row shows it whole.
        policy = printable(state.policy)
        room = state.width - len(f"replay {session} against ``{watching}")
        if state.width and len(policy) > room >= 12:
            policy = policy[: room - 1] + "…"
        against = f"`{policy}`"
    text.append(f"replay {session} ", style="bold")
    text.append(f"against {against}")
    if watching:
        text.append(watching, style="italic")
    text.append("\n")
    done = len(state.results)
    text.append(f"{state.shown}/{done} shown", style="bold")
    if state.running:
        text.append(f"  running {done}/{state.total}", style="italic gold1")
    for label, key, style in COUNTS:
        if key in SHOWN_IF_ANY and not c[key]:
            continue
        text.append(f"  {label} ")
        text.append(str(c[key]), style=style if c[key] else "grey50")
    if state.repeat > 1:
        text.append("  flaky ")
        text.append(str(c["flaky"]), style="bold magenta" if c["flaky"] else "grey50")
    if c["rules_changed"]:
        text.append(f"  {RULES_MARK}rules changed ", style="yellow")
        text.append(str(c["rules_changed"]), style="bold yellow")
    if state.changes_only:
        text.append("  [changes only]", style="reverse")
    if state.filter_expr:
        text.append(f"  filter: {printable(state.filter_expr)}", style="italic")
    if state.left_out is not None:
        text.append("\n")
        text.append_text(state.left_out)
    return text
