"""How each filter term is evaluated: the Python expression it becomes.

Each term becomes a Python expression over `h` (the RecordHead); the parser
(filter_parser.py) joins them with `and`/`or`/`not`, and filter.py compiles
the whole into one function, so a record costs a few attribute reads and
string tests, not a call per term. Only names from the tables here and
generated constant names (`_c0`, `_c1`...) go into the source; every value
the user typed is passed in as a constant (`Gen.const`).
"""

from __future__ import annotations

import fnmatch
import re

from hooktui.tap.read.filter_terms import ALIASES, TERMS
from hooktui.tap.read.filter_tokens import FilterError, Tok

_EVENT_ALIASES = {
    "pre": "pre_tool_use",
    "post": "post_tool_use",
    "prompt": "user_prompt",
    "permission": "permission_request",
    "perm": "permission_request",
    "notify": "notification",
}
_DECISION_ALIASES = {"block": "deny", "approve": "allow", "fail": "failure", "error": "failure"}

_GLOB_CHARS = frozenset("*?[")
_NUMBER_RE = re.compile(r"([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-zA-Z]*)")
_LATENCY_UNITS = {"": 1.0, "ms": 1.0, "s": 1000.0, "sec": 1000.0, "m": 60000.0, "min": 60000.0}

# Each term reads `h.<its field>`: names from the table only, never user text.
_FIELD_EXPR = {t.name: f"h.{t.field}" for t in TERMS if t.kind == "text"}
_NUM_EXPR = {t.name: f"h.{t.field}" for t in TERMS if t.kind == "number"}
FIELDS = tuple(t.name for t in TERMS)
_FIELDS_HINT = "fields: " + ", ".join(FIELDS)
_PY_OPS = {":": "==", "=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class Gen:
    """Constants for the generated source, by name."""

    def __init__(self) -> None:
        self.env: dict[str, object] = {}

    def const(self, value: object) -> str:
        name = f"_c{len(self.env)}"
        self.env[name] = value
        return name


def _text_field(gen: Gen, tok: Tok, name: str) -> tuple[str, str]:
    op = tok.op
    if op in ("<", "<=", ">", ">="):
        raise FilterError(
            f"'{op}' needs a number field (latency, exit, signal), not '{name}'",
            tok.pos + len(tok.text),
        )
    if not tok.value and not tok.quoted:
        raise FilterError(f"expected a value after '{tok.text}{op}'", tok.value_pos)
    value = tok.value
    low = value.lower()
    field = _FIELD_EXPR[name]
    exact = op in ("=", "!=")
    if name == "event" and low in _EVENT_ALIASES:
        code = f"h.event == {gen.const(_EVENT_ALIASES[low])}"
    elif name in ("decision", "hook_decision", "call") and low in _DECISION_ALIASES:
        code = f"{field} == {gen.const(_DECISION_ALIASES[low])}"
    elif exact or not low:
        code = f"{field}.lower() == {gen.const(low)}"
    elif _GLOB_CHARS.intersection(low):
        rx = re.compile(fnmatch.translate(low), re.IGNORECASE | re.DOTALL)
        code = f"{gen.const(rx.match)}({field}) is not None"
    elif name == "event":
        # A prefix of the canonical name, or part of the runtime's own name
        # (`event:PreToolUse` finds Claude's pre_tool_use calls).
        c = gen.const(low)
        code = f"h.event.startswith({c}) or {c} in h.native_event.lower()"
    else:
        code = f"{gen.const(low)} in {field}.lower()"
    shown = f'{name}{op}"{value}"' if tok.quoted or not value else f"{name}{op}{value}"
    if op == "!=":
        code = f"not ({code})"
    return f"({code})", shown


def _parse_number(name: str, tok: Tok) -> float:
    raw = tok.value
    m = _NUMBER_RE.fullmatch(raw.strip())
    if name == "latency":
        unit = m.group(2).lower() if m else ""
        if not m or unit not in _LATENCY_UNITS:
            raise FilterError(f"bad latency '{raw}' (use e.g. 50ms, 1.5s)", tok.value_pos)
        return float(m.group(1)) * _LATENCY_UNITS[unit]
    if not m or m.group(2) or "." in m.group(1):
        raise FilterError(f"bad {name} '{raw}' (expected a whole number)", tok.value_pos)
    return float(int(m.group(1)))


def _num_field(gen: Gen, tok: Tok, name: str) -> tuple[str, str]:
    op = "=" if tok.op == ":" else tok.op
    if not tok.value:
        raise FilterError(f"expected a number after '{tok.text}{tok.op}'", tok.value_pos)
    field = _NUM_EXPR[name]
    if name != "latency" and tok.value.lower() in ("none", "null"):
        # exit:none / signal:none: the hook did not exit / was not signalled.
        if op not in ("=", "!="):
            raise FilterError(f"'{op}' cannot compare with none", tok.value_pos)
        return f"({field} is {'' if op == '=' else 'not '}None)", f"{name}{op}none"
    x = _parse_number(name, tok)
    shown = f"{name}{op}{x:g}ms" if name == "latency" else f"{name}{op}{int(x)}"
    c = gen.const(x)
    py = _PY_OPS[op]
    if name == "latency":
        return f"({field} {py} {c})", shown
    # A hook killed by a signal has no exit code: it matches only `!=`
    # (it certainly did not exit 0); every other comparison is false.
    if op == "!=":
        return f"({field} is None or {field} != {c})", shown
    return f"({field} is not None and {field} {py} {c})", shown


def field_code(gen: Gen, tok: Tok) -> tuple[str, str]:
    name = tok.text.lower()
    name = ALIASES.get(name, name)
    if name in _FIELD_EXPR:
        return _text_field(gen, tok, name)
    if name in _NUM_EXPR:
        return _num_field(gen, tok, name)
    raise FilterError(f"unknown field '{tok.text}'", tok.pos, _FIELDS_HINT)


def text_code(gen: Gen, text: str, quoted: bool) -> tuple[str, str]:
    c = gen.const(text.lower())
    code = f"({c} in h.summary.lower() or {c} in h.reason.lower() or {c} in h.tool_name.lower())"
    shown = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"' if quoted else text
    return code, shown
