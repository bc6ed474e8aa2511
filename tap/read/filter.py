"""The filter language shared by watch, show and replay.

    tool:Bash decision:deny            both (juxtaposition is "and")
    tool:mcp__* or event:prompt        glob values; event aliases
    -decision:allow latency>=500ms     negation, comparisons with units
    not (hook:guard or "rm -rf")       parentheses, quoted phrases

The terms (fields, their aliases and help) are one table, `filter_terms.TERMS`;
`filter_terms.help_text()` lists them with the syntax.

Bad lines (lines that are not records) have no fields: callers show them
only while the filter is empty.

The modules by role: filter_tokens.py (tokenizer, FilterError),
filter_parser.py (grammar), filter_eval.py (what each term evaluates to),
this one (the API: compile, describe, the fields a predicate reads).

The expression is compiled once into one plain Python function (values go in
as constants, never as source), so matching a record does no parsing and no
per-term calls: 100k records filter in tens of milliseconds. A compiled
predicate holds no state and can be shared between threads.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hooktui.tap.model import RecordHead
from hooktui.tap.read.filter_parser import Parser
from hooktui.tap.read.filter_terms import help_text
from hooktui.tap.read.filter_tokens import FilterError

__all__ = [
    "HELP",
    "Predicate",
    "compile_filter",
    "describe_filter",
    "filter_fields",
    "is_empty_filter",
    "reads_tool_calls",
]

Predicate = Callable[[RecordHead], bool]

# A short syntax card for help screens (`hooktui show --help`, watch's `?`).
HELP = help_text()


def _match_all(h: RecordHead) -> bool:
    return True


_match_all.fields = frozenset()  # type: ignore[attr-defined]
_READS = re.compile(r"\bh\.(\w+)")


def _parse(expr: str) -> tuple[Predicate, str]:
    if not expr or expr.isspace():
        return _match_all, ""
    parser = Parser(expr)
    code, shown = parser.parse()
    env = dict(parser.gen.env)
    try:
        # Deeply nested input could exhaust the compiler's recursion.
        exec(compile(f"def _pred(h):\n    return {code}\n", "<filter>", "exec"), env)
    except (RecursionError, MemoryError, SyntaxError) as exc:
        raise FilterError("filter too deeply nested", 0) from exc
    pred = env["_pred"]
    assert callable(pred)
    # The record fields it reads: a reader may decode only these to filter.
    pred.fields = frozenset(_READS.findall(code))  # type: ignore[attr-defined]
    return pred, shown  # type: ignore[return-value]


def compile_filter(expr: str) -> Callable[[RecordHead], bool]:
    """A predicate for `expr`; empty or blank matches everything. Raises FilterError.

    It reads only RecordHead's attributes, so a full Record works as well;
    its `fields` attribute names the ones it reads (see `filter_fields`).
    """
    return _parse(expr)[0]


def filter_fields(predicate: Callable[[RecordHead], bool]) -> frozenset[str]:
    """The RecordHead fields a compiled predicate reads (all of them when unknown)."""
    fields = getattr(predicate, "fields", None)
    return fields if fields is not None else frozenset(RecordHead.__struct_fields__)


def reads_tool_calls(predicate: Callable[[RecordHead], bool]) -> bool:
    """Does a compiled filter read what only the tool-call grouping fills in (`call:`,
    `conflict:`, `role:`, `hooks`)? False when what it reads is not known."""
    return "toolcall" in getattr(predicate, "fields", ())


def describe_filter(expr: str) -> str:
    """The filter as it was understood: explicit OR/NOT, parentheses, canonical fields.

    Raises FilterError like compile_filter.
    """
    return _parse(expr)[1]


def is_empty_filter(expr: str) -> bool:
    """True when `expr` matches everything (bad lines are shown only then)."""
    return not expr or expr.isspace()
