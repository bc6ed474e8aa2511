"""What the redactor looks for: gitleaks' default rules, and a few of hooktui's own.

Loaded in steps, so a record without secrets costs next to nothing: `KEYWORDS`
(every rule's keywords, lowercase) is all a record is checked against first;
the rules themselves, `re`, and each rule's compiled pattern are loaded only
when one of a rule's keywords turns up.

Matching follows gitleaks: a rule runs only where one of its keywords occurs;
its secret is the rule's secret group (or the first group that matched, or the
whole match); a secret whose Shannon entropy is at or below the rule's
threshold, or that an allowlist (the global one, then the rule's) lets
through, is no finding.
"""

from __future__ import annotations

from hooktui.tap.record.gitleaks_keywords import KEYWORDS as _GITLEAKS_KEYWORDS

# How far from a keyword a rule with no bound on its length is looked for.
UNBOUNDED_REACH = 16384

# Values that say "no secret here": a $REFERENCE, nothing, a placeholder, a marker.
_PLACEHOLDERS = (
    "secret",
    (
        r"^\$",
        r"(?i)^[\[<(*'\"]*(?:null|none|nil|true|false|undefined|redacted|changeme|\*+|x+|\.\.\.)?"
        r"[\]>)*'\"]*$",
        r"\[REDACTED:",
    ),
    (),
)

# hooktui's own rules, same shape as gitleaks_rules.RULES: (id, keywords, pattern,
# secret group, entropy, allowlists, prefix, width (0: unbounded), anchored).
# Kinds gitleaks has no rule for, and looser shapes of the kinds the README
# names (keys cut short, older or test formats), which gitleaks' exact ones miss.
_LOCAL = (
    (
        "url_credentials",  # scheme://user:password@host: the password
        ("://",),
        r"\b[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s:/?#@\"'\\<>]{1,256}:([^\s/?#@\"'\\<>]{1,256})@",
        1,
        0.0,
        (_PLACEHOLDERS,),
        0,
        548,
        False,
    ),
    (
        "authorization_header",  # Authorization: Basic/Bearer/Token/... <credentials>
        ("authorization",),
        r"(?i)\bauthorization\b[\"']?\s{0,5}[:=]\s{0,5}[\"']?"
        r"(?:(?:basic|bearer|token|digest|negotiate|apikey|sso-key)\s{1,5}"
        r"([A-Za-z0-9._~+/=:-]{8,})|([A-Za-z0-9._~+/=:-]{16,}))",
        0,
        0.0,
        (_PLACEHOLDERS,),
        0,
        0,
        True,
    ),
    (
        "bearer_token",
        ("bearer",),
        r"(?i)\bbearer\s{1,5}([A-Za-z0-9._~+/=-]{16,})",
        1,
        0.0,
        (_PLACEHOLDERS,),
        0,
        0,
        True,
    ),
    (
        "azure_storage_key",  # connection strings: AccountKey=...; SharedAccessKey=...
        ("accountkey", "sharedaccesskey"),
        r"(?i)(?:accountkey|sharedaccesskey)\s{0,5}=\s{0,5}([A-Za-z0-9+/]{20,}={0,2})",
        1,
        0.0,
        (_PLACEHOLDERS,),
        0,
        0,
        True,
    ),
    (
        "aws_secret_key",  # the 40 characters, by the name they go by
        ("secret",),
        r"(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
        r"([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
        1,
        0.0,
        (_PLACEHOLDERS,),
        0,
        160,
        False,
    ),
    (
        "anthropic_api_key",
        ("sk-ant-",),
        r"(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "openai_api_key",
        ("sk-",),
        r"(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "aws_access_token",
        ("akia", "asia", "aida", "aroa", "agpa", "anpa", "anva", "aipa"),
        r"(?<![A-Z0-9])(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Z0-9])",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "jwt",
        ("eyj",),
        r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "private_key",  # a block cut off (output capped, a partial paste) is masked to the end
        ("-----begin",),
        r"(?s)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*)",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
)

# `password=hunter2`, `api_key: "..."`, `"secret": "..."`, `DB_TOKEN='...'`, of any
# strength (gitleaks' generic rule wants entropy): last, after every other rule.
_ASSIGNMENT = (
    "secret_assignment",
    (
        "password",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "api",
        "access",
        "private",
        "auth",
        "signing",
        "encryption",
        "client",
        "credential",
    ),
    r"(?i)(?:password|passwd|passphrase|secret|token|apikey|"
    r"(?:api|access|private|secret|auth|signing|encryption)[_-]?key|client[_-]?secret|"
    r"credentials?)[\"']?\s*[:=]\s*"
    r"(?:\"((?:[^\"\\\n]|\\.){3,}?)\"|'([^'\n]{3,}?)'|([^\s\"'&;,)}\]]{3,}))",
    0,
    0.0,
    (_PLACEHOLDERS,),
    0,
    0,
    True,
)

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
            import re

            self._pattern = re.compile(self.source, re.ASCII)
        return self._pattern

    def compiled_allowlists(self) -> list:
        """[(target, [patterns], stopwords)]: the global allowlists, then the rule's."""
        if self._allow is None:
            import re

            from hooktui.tap.record.gitleaks_rules import GLOBAL_ALLOWLISTS

            lists = (*GLOBAL_ALLOWLISTS, *self.allowlists) if self.gitleaks else self.allowlists
            self._allow = [
                (target, [re.compile(p, re.ASCII) for p in patterns], stopwords)
                for target, patterns, stopwords in lists
            ]
        return self._allow


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


def find(rule: Rule, text: str, lowered: str, present: set[str]) -> list[tuple[int, int, str]]:
    """(start, end, secret) for each finding of `rule` in `text`.

    `lowered` is `text` in lowercase (same length), `present` the keywords it holds.
    """
    findings = []
    seen = set()
    for match in _matches(rule, text, lowered, present):
        if match.span() in seen:
            continue
        seen.add(match.span())
        span = _secret_span(rule, match)
        if span is None:
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
    for target, patterns, stopwords in rule.compiled_allowlists():
        if stopwords and any(word in lowered for word in stopwords):
            return True
        if not patterns:
            continue
        subject = secret
        if target == "match":
            subject = _whole_match(rule, match, text)
        elif target == "line":
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.end())
            subject = text[start : end if end != -1 else len(text)]
        if any(p.search(subject) for p in patterns):
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
