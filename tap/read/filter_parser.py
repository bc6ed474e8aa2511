"""The filter language's grammar: a recursive-descent parser from tokens to one
Python expression over `h` (the RecordHead) and its description for the user.
"""

from __future__ import annotations

from hooktui.tap.read.filter_eval import Gen, field_code, text_code
from hooktui.tap.read.filter_tokens import FilterError, Tok, tokenize

MAX_DEPTH = 50


class Parser:
    """Recursive descent: or := and ('or' and)*; and := unary (['and'] unary)*;
    unary := ('not' | '!' | '-') unary | primary; primary := '(' or ')' | term.

    Each rule returns (python source, description).
    """

    def __init__(self, expr: str) -> None:
        self.expr = expr
        self.toks = tokenize(expr)
        self.i = 0
        self.gen = Gen()
        self.depth = 0  # nesting of parentheses and negations

    def peek(self) -> Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def parse(self) -> tuple[str, str]:
        code, shown = self.parse_or()
        tok = self.peek()
        if tok is not None:  # only a stray ")" can stop parse_or early
            raise FilterError(f"unexpected '{tok.kind}'", tok.pos)
        return code, shown

    def take_operator(self, tok: Tok) -> None:
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

    def nest(self, tok: Tok) -> None:
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
            return field_code(self.gen, tok)
        if tok.kind in ("word", "phrase"):
            return text_code(self.gen, tok.text, tok.kind == "phrase")
        raise FilterError(f"unexpected '{tok.text or tok.kind}'", tok.pos)
