"""The filter language shared by watch, show and replay.

    tool:Bash decision:deny            both (juxtaposition is "and")
    tool:mcp__* or event:prompt        glob values; event aliases
    -decision:allow latency>=500ms     negation, comparisons with units
    not (hook:guard or "rm -rf")       parentheses, quoted phrases

The terms (fields, their aliases and help) are one table, `filter_terms.TERMS`;
`filter_terms.help_text()` lists them with the syntax.

Bad lines (entries that are not records) have no fields: callers show them
only while the filter is empty.

The expression is compiled once into one plain Python function (values go in
as constants, never as source), so matching a record does no parsing and no
per-term calls: 100k records filter in tens of milliseconds. A compiled
predicate holds no state and can be shared between threads.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass

from hooktui.tap.model import RecordHead
from hooktui.tap.read.filter_terms import ALIASES, TERMS, help_text

Predicate = Callable[[RecordHead], bool]


class FilterError(ValueError):
    """A filter that does not parse; `position` is the 0-based index of the culprit."""

    def __init__(self, message: str, position: int, hint: str = "") -> None:
        super().__init__(f"{message} at {position}")
        self.message = message
        self.position = position
        self.hint = hint  # optional longer help, e.g. the list of fields


# --- fields ---------------------------------------------------------------

_EVENT_ALIASES = {
    "pre": "pre_tool_use",
    "post": "post_tool_use",
    "prompt": "user_prompt",
    "permission": "permission_request",
    "perm": "permission_request",
    "notify": "notification",
}
_DECISION_ALIASES = {"block": "deny", "approve": "allow", "fail": "failure", "error": "failure"}

# A short syntax card for help screens (`hooktui show --help`, watch's `?`).
HELP = help_text()

MAX_DEPTH = 50
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
#
# Each term becomes a Python expression over `h` (the RecordHead); the whole
# filter becomes one function compiled with exec, so a record costs a few
# attribute reads and string tests, not a call per term. Only names from the
# tables above and generated constant names (`_c0`, `_c1`...) go into the
# source; every value the user typed is passed in as a constant.

# Each term reads `h.<its field>`: names from the table only, never user text.
_FIELD_EXPR = {t.name: f"h.{t.field}" for t in TERMS if t.kind == "text"}
_NUM_EXPR = {t.name: f"h.{t.field}" for t in TERMS if t.kind == "number"}
FIELDS = tuple(t.name for t in TERMS)
_FIELDS_HINT = "fields: " + ", ".join(FIELDS)
_PY_OPS = {":": "==", "=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class _Gen:
    """Constants for the generated source, by name."""

    def __init__(self) -> None:
        self.env: dict[str, object] = {}

    def const(self, value: object) -> str:
        name = f"_c{len(self.env)}"
        self.env[name] = value
        return name


def _text_field(gen: _Gen, tok: _Tok, name: str) -> tuple[str, str]:
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
    elif name == "decision" and low in _DECISION_ALIASES:
        code = f"h.decision == {gen.const(_DECISION_ALIASES[low])}"
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


def _num_field(gen: _Gen, tok: _Tok, name: str) -> tuple[str, str]:
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


def _field(gen: _Gen, tok: _Tok) -> tuple[str, str]:
    name = tok.text.lower()
    name = ALIASES.get(name, name)
    if name in _FIELD_EXPR:
        return _text_field(gen, tok, name)
    if name in _NUM_EXPR:
        return _num_field(gen, tok, name)
    raise FilterError(f"unknown field '{tok.text}'", tok.pos, _FIELDS_HINT)


def _text(gen: _Gen, text: str, quoted: bool) -> tuple[str, str]:
    c = gen.const(text.lower())
    code = f"({c} in h.summary.lower() or {c} in h.reason.lower() or {c} in h.tool_name.lower())"
    shown = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"' if quoted else text
    return code, shown


# --- parser ---------------------------------------------------------------


class _Parser:
    """Recursive descent: or := and ('or' and)*; and := unary (['and'] unary)*;
    unary := ('not' | '!' | '-') unary | primary; primary := '(' or ')' | term.

    Each rule returns (python source, description).
    """

    def __init__(self, expr: str) -> None:
        self.expr = expr
        self.toks = _tokenize(expr)
        self.i = 0
        self.gen = _Gen()
        self.depth = 0  # nesting of parentheses and negations

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def parse(self) -> tuple[str, str]:
        code, shown = self.parse_or()
        tok = self.peek()
        if tok is not None:  # only a stray ")" can stop parse_or early
            raise FilterError(f"unexpected '{tok.kind}'", tok.pos)
        return code, shown

    def take_operator(self, tok: _Tok) -> None:
        """Steps over the binary operator `tok`, which must have a term after it."""
        self.i += 1
        nxt = self.peek()
        if nxt is None or nxt.kind in (")", "or", "and"):
            raise FilterError(f"nothing after '{tok.text}'", tok.pos)

    def parse_or(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is not None and tok.kind in ("or", "and"):
            raise FilterError(f"'{tok.text}' needs a term before it", tok.pos)
        parts = [self.parse_and()]
        while (tok := self.peek()) is not None and tok.kind == "or":
            self.take_operator(tok)
            parts.append(self.parse_and())
        if len(parts) == 1:
            return parts[0][:2]
        # Spell out the precedence: a OR (b AND c).
        shown = " OR ".join(f"({s})" if compound else s for _, s, compound in parts)
        return "(" + " or ".join(c for c, _, _ in parts) + ")", shown

    def parse_and(self) -> tuple[str, str, bool]:
        parts = [self.parse_unary()]
        while (tok := self.peek()) is not None and tok.kind not in (")", "or"):
            if tok.kind == "and":
                self.take_operator(tok)
            parts.append(self.parse_unary())
        if len(parts) == 1:
            return parts[0][0], parts[0][1], False
        code = "(" + " and ".join(c for c, _ in parts) + ")"
        return code, " AND ".join(s for _, s in parts), True

    def nest(self, tok: _Tok) -> None:
        # Python's own parser (and ours) recurse: keep far from their limits.
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FilterError(f"nested more than {MAX_DEPTH} deep", tok.pos)

    def parse_unary(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is not None and tok.kind == "not":
            self.nest(tok)
            self.i += 1
            nxt = self.peek()
            if nxt is None or nxt.kind in (")", "or", "and"):
                word = tok.text or self.expr[tok.pos]
                raise FilterError(f"nothing after '{word}'", tok.pos)
            code, shown = self.parse_unary()
            self.depth -= 1
            return f"(not {code})", f"NOT {shown}"
        return self.parse_primary()

    def parse_primary(self) -> tuple[str, str]:
        tok = self.peek()
        assert tok is not None  # callers check
        self.i += 1
        if tok.kind == "(":
            nxt = self.peek()
            if nxt is None:
                raise FilterError("unclosed '('", tok.pos)
            if nxt.kind == ")":
                raise FilterError("empty parentheses", tok.pos)
            self.nest(tok)
            code, shown = self.parse_or()
            close = self.peek()
            if close is None or close.kind != ")":
                raise FilterError("unclosed '('", tok.pos)
            self.i += 1
            self.depth -= 1
            return code, f"({shown})"
        if tok.kind == ")":
            raise FilterError("unexpected ')'", tok.pos)
        if tok.kind == "field":
            return _field(self.gen, tok)
        if tok.kind in ("word", "phrase"):
            return _text(self.gen, tok.text, tok.kind == "phrase")
        raise FilterError(f"unexpected '{tok.text or tok.kind}'", tok.pos)


def _match_all(h: RecordHead) -> bool:
    return True


_match_all.fields = frozenset()  # type: ignore[attr-defined]
_READS = re.compile(r"\bh\.(\w+)")


def _parse(expr: str) -> tuple[Predicate, str]:
    if not expr or expr.isspace():
        return _match_all, ""
    parser = _Parser(expr)
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


def describe_filter(expr: str) -> str:
    """The filter as it was understood: explicit OR/NOT, parentheses, canonical fields.

    Raises FilterError like compile_filter.
    """
    return _parse(expr)[1]


def is_empty_filter(expr: str) -> bool:
    """True when `expr` matches everything (bad lines are shown only then)."""
    return not expr or expr.isspace()
