"""How a call held at a breakpoint reads: the word a row shows, the sentence the detail shows,
and the held panel's rows and its selected call while it waits.

The list's decision column, the header counts and `decision:` say what the runtime
got (model.RecordHead); these keep the hook's own answer in sight beside it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from hooktui.tap.hold.client import SLOW  # offered, no word back in time: never held
from hooktui.tap.model import Record, RecordHead
from hooktui.tap.read.sanitize import safe_line
from hooktui.tui.present.format import format_latency, printable
from rich.text import Text

if TYPE_CHECKING:
    from hooktui.tap.hold.server import HeldCall

_HELD_WORDS = {"allow": "allowed", "deny": "denied", "edit": "edited", "answer": "answered"}
_RELEASED = {
    "person": "by a person",
    "deadline": "at the deadline",
    "dashboard-gone": "when the dashboard went away",
    "runtime-ended": "when the runtime ended the call",
}


def held_word(head: RecordHead) -> str:
    """`denied`, `passed` (the hook's answer, by a person), `deadline`, `gone`..."""
    held = head.held
    if held.released_by != "person":
        return {"dashboard-gone": "gone", "runtime-ended": "ended", SLOW: "unheld"}.get(
            held.released_by, held.released_by
        )
    return _HELD_WORDS.get(held.action, "passed")


def held_mark(head: RecordHead) -> str:
    """What a row of a held call says first: `⏸ denied (hook: allow)` ("" when not held).

    The decision column says what the runtime got; the mark says a breakpoint
    decided it, and names the hook's own answer when that is not what went.
    A symbol and words, so it reads the same without colour; made safe for one
    terminal row, as both words come from the record.
    """
    if not head.held.released_by:
        return ""
    if head.held.released_by == SLOW:  # offered, never held: no pause sign
        return "⏵ unheld"
    said = f" (hook: {head.hook_decision})" if head.hook_decision != head.decision else ""
    return safe_line(f"⏸ {held_word(head)}{said}")


def held_note(record: Record) -> str:
    """One sentence: what the hook said and what became of it at the breakpoint ("" when
    the call was not held). E.g. `hook said allow; denied at a breakpoint after 3.2 s`."""
    held = record.held
    if not held or not held.released_by:
        return ""
    if held.released_by == SLOW:
        return (
            "offered at a breakpoint, but the dashboard did not answer in time: "
            f"the hook's own answer ({record.decision}) went through unheld"
        )
    after = f"after {format_latency(held.held_ms)}"
    sent = record.sent_instead
    if sent is None:
        how = _RELEASED.get(held.released_by, held.released_by)
        own = f"the hook's own answer ({record.decision})"
        return f"held {after} at a breakpoint; {own} went through {how}"
    word = _HELD_WORDS.get(held.action, "answered")
    note = f"hook said {record.decision}; {word} at a breakpoint {after}"
    if word not in ("allowed", "denied"):
        note += f" (the runtime got {sent.decision})"
    return note


def row_text(call: HeldCall) -> Text:
    record = call.record
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"⏸ {call.left_s():4.0f}s ", style="bold yellow")
    text.append(f"{printable(record.tool_name or record.native_event or record.event)} ")
    text.append(printable(record.summary)[:80])
    text.append(f"  hook: {verdict_words(record.decision, record.reason)}", style="dim")
    return text


def detail_text(call: HeldCall) -> Text:
    record = call.record
    text = Text()
    timeout = f"{record.hook.timeout_ms / 1000:g} s" if record.hook.timeout_ms else "unknown"
    text.append(f"{record.runtime} {record.native_event}  ", style="bold")
    text.append(
        f"runtime timeout {timeout} · goes on with the hook's answer in {call.left_s():.0f} s\n"
    )
    text.append("request  ", style="bold")
    text.append(_short_json(record.tool_input if record.tool_input is not None else record.request))
    text.append("\nanswer   ", style="bold")
    answer = record.stdout.data.strip() or f"(no output, exit {record.exit_code})"
    text.append(printable(answer)[:300])
    text.append("\nverdict  ", style="bold")
    text.append(verdict_words(record.decision, record.reason))
    return text


def verdict_words(decision: str, reason: str) -> str:
    return printable(f"{decision}: {reason}" if reason else decision)[:120]


def _short_json(value) -> str:
    return printable(json.dumps(value, ensure_ascii=False))[:300]
