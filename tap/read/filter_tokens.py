"""The filter language's words: the tokenizer, and the error every stage raises.

`tokenize` turns an expression into tokens (parentheses, negations, `and`/`or`/`not`,
words, quoted phrases, `field<op>value` terms); positions are 0-based indexes
into the expression, for error messages that point at the culprit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class FilterError(ValueError):
    """A filter that does not parse; `position` is the 0-based index of the culprit."""

    def __init__(self, message: str, position: int, hint: str = "") -> None:
        super().__init__(f"{message} at {position}")
        self.message = message
        self.position = position
        self.hint = hint  # optional longer help, e.g. the list of fields


_NAME_RE = re.compile(r"[A-Za-z_]+")
_OPS = ("<=", ">=", "!=", ":", "=", "<", ">")
_STOP = frozenset(" \t\r\n()")


@dataclass(slots=True)
class Tok:
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


def tokenize(expr: str) -> list[Tok]:
    toks: list[Tok] = []
    i = 0
    n = len(expr)
    while i < n:
        c = expr[i]
        if c.isspace():
            i += 1
            continue
        if c in "()":
            toks.append(Tok(c, i))
            i += 1
            continue
        if c in "!-":
            # A negation sign, unless it stands alone (then it is just text).
            if i + 1 < n and not expr[i + 1].isspace() and expr[i + 1] not in ")":
                toks.append(Tok("not", i))
                i += 1
                continue
        if c == '"':
            text, i2 = _read_quoted(expr, i)
            toks.append(Tok("phrase", i, text=text))
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
                    toks.append(Tok("field", i, name, op, value, True, vpos))
                else:
                    end = vpos
                    while end < n and expr[end] not in _STOP:
                        end += 1
                    toks.append(Tok("field", i, name, op, expr[vpos:end], False, vpos))
                i = end
                continue
        # A bare word runs to the next space, parenthesis or quote.
        j = i
        while j < n and expr[j] not in _STOP and expr[j] != '"':
            j += 1
        word = expr[i:j]
        low = word.lower()
        if low in ("and", "or", "not"):
            toks.append(Tok(low, i, text=word))
        else:
            toks.append(Tok("word", i, text=word))
        i = j
    return toks
