"""The one table of filter terms: the parser, help screens, --help and docs/filter.md come from it.

Adding a term is one row here (and, for a new record field, the field on
`RecordHead`): `filter.py` compiles it, `help_rows()` feeds watch's `?`
screen, `help_text()` is `show --help`'s epilog and `readme_block()` is
docs/filter.md's block (a test checks they match).
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from hooktui.tap.runtimes import RUNTIMES


class Term(NamedTuple):
    name: str  # what the user types before `:`
    kind: str  # "text" (contains / glob / exact) or "number" (comparisons)
    field: str  # the RecordHead attribute it reads ("hook.label": a nested one)
    help: str  # one short line
    example: str  # what a help screen shows for it
    aliases: tuple[str, ...] = ()  # other names accepted for it


TERMS: tuple[Term, ...] = (
    Term("tool", "text", "tool_name", "the tool's name", "tool:Bash", ("tool_name",)),
    Term(
        "decision",
        "text",
        "decision",
        "what the runtime got: allow deny ask modify replace failure (block = deny)",
        "decision:deny",
    ),
    Term(
        "hook_decision",
        "text",
        "hook_decision",
        "the hook's own decision (differs where a breakpoint's answer replaced it)",
        "hook_decision:allow",
        ("said",),
    ),
    Term(
        "runtime", "text", "runtime", "the runtime that called the hook", f"runtime:{RUNTIMES[1]}"
    ),
    Term(
        "event",
        "text",
        "event",
        "pre post prompt permission notify, or part of the runtime's own event name",
        "event:pre",
    ),
    Term("native", "text", "native_event", "the runtime's own event name", "native:PreToolUse"),
    Term("hook", "text", "hook.label", "the hook's label", "hook:guard", ("label",)),
    Term("command", "text", "hook.command", "the hook's command line", "command:guard.py"),
    Term("session", "text", "session_id", "the session id", "session:abc*", ("session_id",)),
    Term("agent", "text", "agent_id", "the (sub)agent id", "agent:x", ("agent_id",)),
    Term(
        "failure",
        "text",
        "failure",
        "why a hook failed: timeout, exit_code, invalid_json, signal ...",
        "failure:timeout",
    ),
    Term("effect", "text", "effect", "what a failure did: proceeds or blocks", "effect:proceeds"),
    Term("reason", "text", "reason", "the hook's reason", "reason:secret"),
    Term("summary", "text", "summary", "the call's one-line summary", "summary:rm"),
    Term("id", "text", "id", "the record's id", "id:7f3a"),
    Term(
        "latency",
        "number",
        "duration_ms",
        "how long the hook ran: ms (the default) or s",
        "latency>50ms",
        ("duration", "duration_ms"),
    ),
    Term(
        "exit",
        "number",
        "exit_code",
        "the hook's exit code; exit:none when a signal ended it",
        "exit!=0",
        ("exit_code",),
    ),
    Term("signal", "number", "signal", "the signal that ended the hook", "signal=9"),
    Term(
        "call",
        "text",
        "toolcall.decision",
        "what the tool call came to, all its hooks by the runtime's rule (show --calls, watch's calls)",
        "call:deny",
    ),
    Term(
        "conflict",
        "text",
        "toolcall.conflicts",
        "how the call's hooks disagreed: disagree rewrite_race rewrite_clash overridden after_stop",
        "conflict:race",
    ),
    Term(
        "role",
        "text",
        "toolcall.role",
        "this hook's part in its call: decided rewrote overridden agreed silent",
        "role:overridden",
    ),
    Term("hooks", "number", "toolcall.hooks", "how many hook calls answered the call", "hooks>1"),
    Term(
        "held",
        "text",
        "held.released_by",
        "held at a breakpoint, let go by: person deadline dashboard-gone runtime-ended tap-killed"
        " (dashboard-slow: offered, never held); any: held:?*",
        "held:person",
    ),
)

# The language around the terms, as (what to type, what it does).
SYNTAX: tuple[tuple[str, str], ...] = (
    ("field:value", "the field contains the value (case-insensitive)"),
    ("tool:mcp__*", "with * ? [ ] the whole field must match the glob"),
    ("field=value  field!=value", "the field is (is not) exactly the value"),
    ('field:""', "the field is empty"),
    ("latency>50ms  exit<=2", "comparisons: < <= > >= = != on number fields"),
    ('word  "a phrase"', "in the summary, the reason or the tool name"),
    ("-term  !term  not term", "negation (quote words that start with - or !)"),
    ("a b  a and b", "both"),
    ("a or b  (a or b) c", "either; not binds tightest, then and, then or"),
)

BY_NAME: dict[str, Term] = {t.name: t for t in TERMS}
ALIASES: dict[str, str] = {alias: t.name for t in TERMS for alias in t.aliases}
TEXT_TERMS = tuple(t.name for t in TERMS if t.kind == "text")
NUMBER_TERMS = tuple(t.name for t in TERMS if t.kind == "number")


def term_named(name: str) -> Term | None:
    """The term a user's field name means (aliases and case allowed), or None."""
    low = name.lower()
    return BY_NAME.get(ALIASES.get(low, low))


def getter(term: Term):
    """A function reading the term's field from a RecordHead."""
    return attrgetter(term.field)


def help_rows() -> list[tuple[str, str]]:
    """Rows for a help screen: (example, what it selects) per term, then the syntax."""
    return [(t.example, t.help) for t in TERMS] + list(SYNTAX)


def help_text() -> str:
    """The filter card for `--help` (plain text, aligned)."""
    rows = help_rows()
    width = max(len(example) for example, _ in rows)
    lines = ["filter terms (case-insensitive):"]
    lines += [f"  {t.example:<{width}}  {t.help}" for t in TERMS]
    lines.append("syntax:")
    lines += [f"  {typed:<{width}}  {does}" for typed, does in SYNTAX]
    return "\n".join(lines)


def readme_block() -> str:
    """docs/filter.md's filter block: a fenced block of `help_text()`."""
    return "```\n" + help_text() + "\n```"
