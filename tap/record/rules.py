"""What the redactor looks for: gitleaks' default rules, and a few of hooktui's own.

Loaded in steps, so a record without secrets costs next to nothing: `KEYWORDS`
(every rule's keywords, lowercase) is all a record is checked against first;
the rules themselves and each rule's compiled pattern are loaded only when
one of a rule's keywords turns up, and the patterns come from a cache of
what `re` compiled them into, so `re` itself is not loaded (sre_cache.py).

Matching follows gitleaks: a rule runs only where one of its keywords occurs;
its secret is the rule's secret group (or the first group that matched, or the
whole match); a secret whose Shannon entropy is at or below the rule's
threshold, or that an allowlist (the global one, then the rule's) lets
through, is no finding.
"""

from __future__ import annotations

from hooktui.tap.record.gitleaks_keywords import KEYWORDS as _GITLEAKS_KEYWORDS
from hooktui.tap.record.local_rules import ASSIGNMENT as _ASSIGNMENT
from hooktui.tap.record.local_rules import LOCAL as _LOCAL

ASCII = 256  # re.ASCII, without importing `re` (sre_cache.py)

# How far from a keyword a rule with no bound on its length is looked for.
UNBOUNDED_REACH = 16384

KEYWORDS: tuple[str, ...] = tuple(
    sorted(set(_GITLEAKS_KEYWORDS).union(*(rule[1] for rule in (*_LOCAL, _ASSIGNMENT))))
)


class Rule:
    """One rule; its pattern and allowlists are compiled on first use.

    Its `kind`, the word in `[REDACTED:<kind>:…]`, is the gitleaks rule id in
    snake_case (`github-pat` is `github_pat`), or one of hooktui's own.
    """

    __slots__ = (
        "kind",
        "keywords",
        "source",
        "group",
        "entropy",
        "allowlists",
        "reach",
        "width",
        "anchored",
        "order",
        "gitleaks",
        "_pattern",
        "_allow",
    )

    def __init__(self, order: int, data: tuple, gitleaks: bool) -> None:
        self.order = order
        self.gitleaks = gitleaks  # gitleaks' global allowlist applies to its rules only
        (
            self.kind,
            self.keywords,
            self.source,
            self.group,
            self.entropy,
            self.allowlists,
            self.reach,
            self.width,
            self.anchored,
        ) = data
        self.kind = self.kind.replace("-", "_")  # gitleaks' id, in the record's snake_case
        self._pattern = None
        self._allow = None

    def pattern(self):
        if self._pattern is None:
            from hooktui.tap.record import sre_cache

            self._pattern = sre_cache.compile(self.source, ASCII)
        return self._pattern

    def compiled_allowlists(self) -> list:
        """[(target, pattern or None, stopwords)]: the global allowlists, then the rule's.

        Each allowlist's patterns are one alternation, compiled once for all rules.
        """
        if self._allow is None:
            from hooktui.tap.record.gitleaks_rules import GLOBAL_ALLOWLISTS

            lists = (*GLOBAL_ALLOWLISTS, *self.allowlists) if self.gitleaks else self.allowlists
            self._allow = [
                (target, _alternation(patterns), stopwords) for target, patterns, stopwords in lists
            ]
        return self._allow


_ALTERNATIONS: dict[tuple[str, ...], object] = {}


def _alternation(patterns: tuple[str, ...]):
    """One compiled pattern matching where any of `patterns` does (None for none)."""
    if not patterns:
        return None
    if patterns not in _ALTERNATIONS:
        from hooktui.tap.record import sre_cache

        branches = []
        for p in patterns:  # a leading global flag becomes the branch's own
            flags = p[2 : p.index(")")] if p.startswith("(?") and p[2:3].isalpha() else ""
            if flags and flags.isalpha():
                branches.append(f"(?{flags}:{p[len(flags) + 3 :]})")
            else:
                branches.append(f"(?:{p})")
        _ALTERNATIONS[patterns] = sre_cache.compile("|".join(branches), ASCII)
    return _ALTERNATIONS[patterns]


_RULES: list[Rule] = []
_BY_KEYWORD: dict[str, list[Rule]] = {}


def _load() -> None:
    from hooktui.tap.record.gitleaks_rules import RULES

    generic = [(r, True) for r in RULES if r[0] == "generic-api-key"]
    specific = [(r, True) for r in RULES if r[0] != "generic-api-key"]
    local = [(r, False) for r in _LOCAL]
    ordered = (*specific, *local, *generic, (_ASSIGNMENT, False))
    for order, (data, from_gitleaks) in enumerate(ordered):
        rule = Rule(order, data, gitleaks=from_gitleaks)
        _RULES.append(rule)
        for keyword in rule.keywords:
            _BY_KEYWORD.setdefault(keyword, []).append(rule)


def candidates(present: set[str]) -> list[Rule]:
    """The rules one of whose keywords is in `present`, in order."""
    if not _RULES:
        _load()
    found = {rule.order: rule for k in present for rule in _BY_KEYWORD.get(k, ())}
    return [found[order] for order in sorted(found)]


def find(
    rule: Rule, text: str, lowered: str, present: set[str], covered=None
) -> list[tuple[int, int, str]]:
    """(start, end, secret) for each finding of `rule` in `text`.

    `lowered` is `text` in lowercase (same length), `present` the keywords it
    holds; `covered(start, end)` says whether an earlier rule's finding holds
    that span already (then it adds nothing, and is not checked further).
    """
    findings = []
    seen = set()
    for match in _matches(rule, text, lowered, present):
        if match.span() in seen:
            continue
        seen.add(match.span())
        span = _secret_span(rule, match)
        if span is None or (covered is not None and covered(*span)):
            continue
        secret = text[span[0] : span[1]]
        if rule.entropy and shannon_entropy(secret) <= rule.entropy:
            continue
        if _allowed(rule, secret, match, text):
            continue
        findings.append((span[0], span[1], secret))
    return findings


def _matches(rule: Rule, text: str, lowered: str, present: set[str]):
    pattern = rule.pattern()
    keywords = [k for k in rule.keywords if k in present]
    if rule.anchored:  # every match starts at a keyword: try only there
        for keyword in keywords:
            for at in _positions(lowered, keyword):
                match = pattern.match(text, at)
                if match is not None and match.end() > match.start():
                    yield match
        return
    before = rule.reach + (rule.width or UNBOUNDED_REACH)
    after = rule.width or UNBOUNDED_REACH
    for start, end in _windows(lowered, keywords, before, after):
        yield from pattern.finditer(text, start, end)


def _positions(lowered: str, keyword: str):
    at = lowered.find(keyword)
    while at != -1:
        yield at
        at = lowered.find(keyword, at + 1)


def _windows(lowered: str, keywords: list[str], before: int, after: int) -> list[tuple[int, int]]:
    """Merged [start, end) spans of text near the keywords' occurrences."""
    size = len(lowered)
    spans = sorted(
        (max(0, at - before), min(size, at + len(k) + after))
        for k in keywords
        for at in _positions(lowered, k)
    )
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def _secret_span(rule: Rule, match) -> tuple[int, int] | None:
    if rule.group:
        start, end = match.span(rule.group)
    elif match.re.groups:
        start = end = -1
        for group in range(1, match.re.groups + 1):
            start, end = match.span(group)
            if end > start:
                break
    else:
        start, end = match.span()
    return (start, end) if end > start >= 0 else None


def shannon_entropy(text: str) -> float:
    """Bits per character, as gitleaks computes it."""
    from math import log2

    counts: dict[str, int] = {}
    for char in text:
        counts[char] = counts.get(char, 0) + 1
    size = len(text)
    return -sum((n / size) * log2(n / size) for n in counts.values())


def _allowed(rule: Rule, secret: str, match, text: str) -> bool:
    lowered = secret.lower()
    for target, pattern, stopwords in rule.compiled_allowlists():
        if stopwords and any(word in lowered for word in stopwords):
            return True
        if pattern is None:
            continue
        subject = secret
        if target == "match":
            subject = _whole_match(rule, match, text)
        elif target == "line":
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.end())
            subject = text[start : end if end != -1 else len(text)]
        if pattern.search(subject):
            return True
    return False


_IDENTIFIER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def _whole_match(rule: Rule, match, text: str) -> str:
    """The match as gitleaks has it: with the identifier before it put back."""
    start = match.start()
    floor = max(0, start - rule.reach)
    while start > floor and (text[start - 1] in _IDENTIFIER):
        start -= 1
    return text[start : match.end()]
