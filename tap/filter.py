"""The filter language shared by watch, show and replay.

    tool:Bash decision:deny            both (juxtaposition is "and")
    tool:mcp__* or event:prompt        glob values; event aliases
    -decision:allow latency>=500ms     negation, comparisons with units
    not (hook:guard or "rm -rf")       parentheses, quoted phrases

Terms
  field:value   the field contains `value`, case-insensitively; a value with a
                glob character (* ? [) must match the whole field instead
                (`tool:mcp__*`, `session:abc*`). `field:""` matches an empty field.
  field=value   the field equals `value` (case-insensitive); `field!=value` negates.
  word, "a phrase"
                contained (case-insensitive) in the summary, the reason or the
                tool name. Quote words that start with - or ! or hold a colon.
  latency>50ms  comparisons: < <= > >= = != and `:` (same as =). Latency in
                ms (the default unit) or s; exit codes as integers.

Fields: tool, decision, runtime, event, hook (its label), session, agent,
failure, effect, reason, summary, id, native (the runtime's own event name);
numbers: latency, exit, signal. `event:` also takes the aliases pre, post,
prompt, permission, notify; `decision:block` means deny and `decision:approve`
allow.

Operators: `not`, `!` and `-` negate; `and` (or just a space) binds tighter
than `or`; parentheses group. Keywords are case-insensitive.

Bad lines (entries that are not records) have no fields: callers show them
only while the filter is empty.

The expression is compiled once into closures, so matching a record does no
parsing at all.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter

from hooktui.tap.model import RecordHead

Predicate = Callable[[RecordHead], bool]


class FilterError(ValueError):
    """A filter that does not parse; `position` is the 0-based index of the culprit."""

    def __init__(self, message: str, position: int, hint: str = "") -> None:
        super().__init__(f"{message} at {position}")
        self.message = message
        self.position = position
        self.hint = hint  # optional longer help, e.g. the list of fields


# --- fields ---------------------------------------------------------------

_TEXT_FIELDS: dict[str, Callable[[RecordHead], str]] = {
    "tool": attrgetter("tool_name"),
    "decision": attrgetter("decision"),
    "runtime": attrgetter("runtime"),
    "event": attrgetter("event"),
    "native": attrgetter("native_event"),
    "hook": lambda h: h.hook.label,
    "session": attrgetter("session_id"),
    "agent": attrgetter("agent_id"),
    "failure": attrgetter("failure"),
    "effect": attrgetter("effect"),
    "reason": attrgetter("reason"),
    "summary": attrgetter("summary"),
    "id": attrgetter("id"),
}
_FIELD_ALIASES = {
    "tool_name": "tool",
    "label": "hook",
    "session_id": "session",
    "agent_id": "agent",
    "native_event": "native",
    "duration": "latency",
    "duration_ms": "latency",
    "exit_code": "exit",
}
_NUM_FIELDS = ("latency", "exit", "signal")

_EVENT_ALIASES = {
    "pre": "pre_tool_use",
    "post": "post_tool_use",
    "prompt": "user_prompt",
    "permission": "permission_request",
    "perm": "permission_request",
    "notify": "notification",
}
_DECISION_ALIASES = {"block": "deny", "approve": "allow", "fail": "failure", "error": "failure"}

FIELDS = tuple(_TEXT_FIELDS) + _NUM_FIELDS
_FIELDS_HINT = "fields: " + ", ".join(FIELDS)

_GLOB_CHARS = frozenset("*?[")
_NAME_RE = re.compile(r"[A-Za-z_]+")
_OPS = ("<=", ">=", "!=", ":", "=", "<", ">")
_STOP = frozenset(" \t\r\n()")
_NUMBER_RE = re.compile(r"([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-zA-Z]*)")
_LATENCY_UNITS = {"": 1.0, "ms": 1.0, "s": 1000.0, "sec": 1000.0, "m": 60000.0, "min": 60000.0}


# --- tokens ---------------------------------------------------------------


@dataclass(slots=True)
class _Tok:
    kind: str  # "(" ")" "not" "and" "or" "word" "phrase" "field"
    pos: int
    text: str = ""  # word / phrase text, field name
    op: str = ""  # field operator
    value: str = ""  # field value
    quoted: bool = False  # field value was quoted
    value_pos: int = 0


def _read_quoted(expr: str, i: int) -> tuple[str, int]:
    """The phrase of a quote starting at expr[i] == '"', and the index after it."""
    out: list[str] = []
    j = i + 1
    n = len(expr)
    while j < n:
        c = expr[j]
        if c == "\\" and j + 1 < n and expr[j + 1] in '"\\':
            out.append(expr[j + 1])
            j += 2
            continue
        if c == '"':
            return "".join(out), j + 1
        out.append(c)
        j += 1
    raise FilterError("unclosed quote", i)


def _tokenize(expr: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i = 0
    n = len(expr)
    while i < n:
        c = expr[i]
        if c.isspace():
            i += 1
            continue
        if c in "()":
            toks.append(_Tok(c, i))
            i += 1
            continue
        if c in "!-":
            # A negation sign, unless it stands alone (then it is just text).
            if i + 1 < n and not expr[i + 1].isspace() and expr[i + 1] not in ")":
                toks.append(_Tok("not", i))
                i += 1
                continue
        if c == '"':
            text, i2 = _read_quoted(expr, i)
            toks.append(_Tok("phrase", i, text=text))
            i = i2
            continue
        m = _NAME_RE.match(expr, i)
        if m:
            j = m.end()
            op = next((o for o in _OPS if expr.startswith(o, j)), "")
            if op:
                name = m.group(0)
                vpos = j + len(op)
                if vpos < n and expr[vpos] == '"':
                    value, end = _read_quoted(expr, vpos)
                    toks.append(_Tok("field", i, name, op, value, True, vpos))
                else:
                    end = vpos
                    while end < n and expr[end] not in _STOP:
                        end += 1
                    toks.append(_Tok("field", i, name, op, expr[vpos:end], False, vpos))
                i = end
                continue
        # A bare word runs to the next space, parenthesis or quote.
        j = i
        while j < n and expr[j] not in _STOP and expr[j] != '"':
            j += 1
        word = expr[i:j]
        low = word.lower()
        if low in ("and", "or", "not"):
            toks.append(_Tok(low, i, text=word))
        else:
            toks.append(_Tok("word", i, text=word))
        i = j
    return toks


# --- terms ----------------------------------------------------------------


def _text_matcher(value: str, exact: bool) -> Callable[[str], bool]:
    """A case-insensitive test of one field's text against `value`."""
    v = value.lower()
    if exact or v == "":
        return lambda s: s.lower() == v
    if _GLOB_CHARS.intersection(v):
        rx = re.compile(fnmatch.translate(v), re.IGNORECASE | re.DOTALL)
        match = rx.match
        return lambda s: match(s) is not None
    return lambda s: v in s.lower()


def _compile_text_field(tok: _Tok, name: str) -> tuple[Predicate, str]:
    op = tok.op
    if op in ("<", "<=", ">", ">="):
        raise FilterError(
            f"'{op}' needs a number field (latency, exit, signal), not '{name}'",
            tok.pos + len(tok.text),
        )
    if not tok.value and not tok.quoted:
        raise FilterError(f"expected a value after '{tok.text}{op}'", tok.value_pos)
    value = tok.value
    get = _TEXT_FIELDS[name]
    exact = op in ("=", "!=")
    low = value.lower()
    pred: Predicate
    if name == "event" and low in _EVENT_ALIASES:
        target = _EVENT_ALIASES[low]
        pred = lambda h: h.event == target  # noqa: E731
    elif name == "event" and not exact and low and not _GLOB_CHARS.intersection(low):
        # A prefix of the canonical name, or part of the runtime's own name
        # (`event:PreToolUse` finds Claude's pre_tool_use calls).
        pred = lambda h: h.event.startswith(low) or low in h.native_event.lower()  # noqa: E731
    elif name == "decision" and low in _DECISION_ALIASES:
        target = _DECISION_ALIASES[low]
        pred = lambda h: h.decision == target  # noqa: E731
    else:
        test = _text_matcher(value, exact)
        pred = lambda h: test(get(h))  # noqa: E731
    shown = f'{name}{op}"{value}"' if tok.quoted or not value else f"{name}{op}{value}"
    if op == "!=":
        inner = pred
        pred = lambda h: not inner(h)  # noqa: E731
    return pred, shown


def _parse_number(name: str, tok: _Tok) -> float:
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


def _compile_num_field(tok: _Tok, name: str) -> tuple[Predicate, str]:
    op = "=" if tok.op == ":" else tok.op
    if not tok.value:
        raise FilterError(f"expected a number after '{tok.text}{tok.op}'", tok.value_pos)
    if name != "latency" and tok.value.lower() in ("none", "null", '""'):
        # exit:none / signal:none: the hook did not exit / was not signalled.
        if op not in ("=", "!="):
            raise FilterError(f"'{op}' cannot compare with none", tok.value_pos)
        attr = "exit_code" if name == "exit" else "signal"
        get_opt = attrgetter(attr)
        if op == "=":
            return (lambda h: get_opt(h) is None), f"{name}=none"
        return (lambda h: get_opt(h) is not None), f"{name}!=none"
    x = _parse_number(name, tok)
    shown_x = f"{x:g}ms" if name == "latency" else f"{int(x)}"
    shown = f"{name}{op}{shown_x}"
    if name == "latency":
        get = attrgetter("duration_ms")
        cmp = {
            "=": lambda h: get(h) == x,
            "!=": lambda h: get(h) != x,
            "<": lambda h: get(h) < x,
            "<=": lambda h: get(h) <= x,
            ">": lambda h: get(h) > x,
            ">=": lambda h: get(h) >= x,
        }[op]
        return cmp, shown
    getn = attrgetter("exit_code" if name == "exit" else "signal")
    # A hook killed by a signal has no exit code: it matches only `!=`
    # (it certainly did not exit 0); every other comparison is false.
    table = {
        "=": lambda h: (v := getn(h)) is not None and v == x,
        "!=": lambda h: (v := getn(h)) is None or v != x,
        "<": lambda h: (v := getn(h)) is not None and v < x,
        "<=": lambda h: (v := getn(h)) is not None and v <= x,
        ">": lambda h: (v := getn(h)) is not None and v > x,
        ">=": lambda h: (v := getn(h)) is not None and v >= x,
    }
    return table[op], shown


def _compile_field(tok: _Tok) -> tuple[Predicate, str]:
    name = tok.text.lower()
    name = _FIELD_ALIASES.get(name, name)
    if name in _TEXT_FIELDS:
        return _compile_text_field(tok, name)
    if name in _NUM_FIELDS:
        return _compile_num_field(tok, name)
    raise FilterError(f"unknown field '{tok.text}'", tok.pos, _FIELDS_HINT)


class _TextCache:
    """The lower-cased searchable text of the last record seen.

    Several bare words in one filter then lower-case each record once.
    """

    __slots__ = ("head", "text")

    def __init__(self) -> None:
        self.head: RecordHead | None = None
        self.text = ""

    def get(self, h: RecordHead) -> str:
        if self.head is not h:
            self.head = h
            self.text = f"{h.summary}\n{h.reason}\n{h.tool_name}".lower()
        return self.text


def _compile_text(text: str, cache: _TextCache, quoted: bool) -> tuple[Predicate, str]:
    needle = text.lower()
    get = cache.get
    shown = '"' + text.replace('"', '\\"') + '"' if quoted else text
    return (lambda h: needle in get(h)), shown


# --- parser ---------------------------------------------------------------


class _Parser:
    def __init__(self, expr: str) -> None:
        self.expr = expr
        self.toks = _tokenize(expr)
        self.i = 0
        self.cache = _TextCache()

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def parse(self) -> tuple[Predicate, str]:
        pred, shown = self.parse_or()
        tok = self.peek()
        if tok is not None:  # only a stray ")" can stop parse_or early
            raise FilterError(f"unexpected '{tok.kind}'", tok.pos)
        return pred, shown

    def parse_or(self) -> tuple[Predicate, str]:
        tok = self.peek()
        if tok is not None and tok.kind in ("or", "and"):
            raise FilterError(f"'{tok.text}' needs a term before it", tok.pos)
        parts = [self.parse_and()]
        while (tok := self.peek()) is not None and tok.kind == "or":
            self.i += 1
            nxt = self.peek()
            if nxt is None or nxt.kind in (")", "or", "and"):
                raise FilterError(f"nothing after '{tok.text}'", tok.pos)
            parts.append(self.parse_and())
        if len(parts) == 1:
            return parts[0][:2]
        # Spell out the precedence: a OR (b AND c).
        shown = " OR ".join(f"({s})" if compound else s for _, s, compound in parts)
        return _any([p for p, _, _ in parts]), shown

    def parse_and(self) -> tuple[Predicate, str, bool]:
        parts = [self.parse_unary()]
        while (tok := self.peek()) is not None and tok.kind not in (")", "or"):
            if tok.kind == "and":
                self.i += 1
                nxt = self.peek()
                if nxt is None or nxt.kind in (")", "or", "and"):
                    raise FilterError(f"nothing after '{tok.text}'", tok.pos)
            parts.append(self.parse_unary())
        if len(parts) == 1:
            return parts[0][0], parts[0][1], False
        return _all([p for p, _ in parts]), " AND ".join(s for _, s in parts), True

    def parse_unary(self) -> tuple[Predicate, str]:
        tok = self.peek()
        if tok is not None and tok.kind == "not":
            self.i += 1
            nxt = self.peek()
            if nxt is None or nxt.kind in (")", "or", "and"):
                word = tok.text or self.expr[tok.pos]
                raise FilterError(f"nothing after '{word}'", tok.pos)
            inner, shown = self.parse_unary()
            return (lambda h: not inner(h)), f"NOT {shown}"
        return self.parse_primary()

    def parse_primary(self) -> tuple[Predicate, str]:
        tok = self.peek()
        assert tok is not None  # callers check
        self.i += 1
        if tok.kind == "(":
            nxt = self.peek()
            if nxt is None:
                raise FilterError("unclosed '('", tok.pos)
            if nxt.kind == ")":
                raise FilterError("empty parentheses", tok.pos)
            pred, shown = self.parse_or()
            close = self.peek()
            if close is None or close.kind != ")":
                raise FilterError("unclosed '('", tok.pos)
            self.i += 1
            return pred, f"({shown})"
        if tok.kind == ")":
            raise FilterError("unexpected ')'", tok.pos)
        if tok.kind == "field":
            return _compile_field(tok)
        if tok.kind in ("word", "phrase"):
            return _compile_text(tok.text, self.cache, tok.kind == "phrase")
        raise FilterError(f"unexpected '{tok.text or tok.kind}'", tok.pos)


def _all(preds: list[Predicate]) -> Predicate:
    # Nested pairs: faster per record than all() over a generator.
    if len(preds) == 1:
        return preds[0]
    a, b = preds[0], _all(preds[1:])
    return lambda h: a(h) and b(h)


def _any(preds: list[Predicate]) -> Predicate:
    if len(preds) == 1:
        return preds[0]
    a, b = preds[0], _any(preds[1:])
    return lambda h: a(h) or b(h)


def _match_all(h: RecordHead) -> bool:
    return True


def _parse(expr: str) -> tuple[Predicate, str]:
    if not expr or expr.isspace():
        return _match_all, ""
    return _Parser(expr).parse()


def compile_filter(expr: str) -> Callable[[RecordHead], bool]:
    """A predicate for `expr`; empty or blank matches everything. Raises FilterError."""
    return _parse(expr)[0]


def describe_filter(expr: str) -> str:
    """The filter as it was understood: explicit OR/NOT, parentheses, canonical fields.

    Raises FilterError like compile_filter.
    """
    return _parse(expr)[1]


def is_empty_filter(expr: str) -> bool:
    """True when `expr` matches everything (bad lines are shown only then)."""
    return not expr or expr.isspace()
