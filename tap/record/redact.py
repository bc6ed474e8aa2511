"""Taking secrets out of a record before it touches disk.

Each secret becomes `[REDACTED:<kind>:<first 8 hex of its sha256>]`, so two
records holding the same secret show the same marker without showing it. The
kinds and patterns are gitleaks' default rules plus a few of hooktui's own
(rules.py). Steps, cheapest first:

1. every string of the record, keys included, is checked at once for the
   rules' keywords (plain substring tests): a record with none is done;
2. each string holding a keyword is matched against the rules of the
   keywords it holds (`re` and the rules load only now), and so is each
   layer of backslash escapes undone (unescape.py), so `\\nghp_…` in a JSON
   string or a `repr` is read as the token it is; what is found there is
   masked in the original text;
3. overlapping findings are merged (the earlier rule names the kind) and
   each is replaced by its marker.
"""

from __future__ import annotations

from hooktui.tap.base.sha import text_sha256_hex
from hooktui.tap.record import rules
from hooktui.tap.record.decoded import MAX_DEPTH, encoded_runs
from hooktui.tap.record.local_rules import ASSIGNMENT
from hooktui.tap.record.unescape import views

TYPE_CHECKING = False  # not `typing`'s: see tap/base/jsonio.py
if TYPE_CHECKING:
    from typing import Any

MARKER_PREFIX = "[REDACTED:"

# Past this size, step 1 tests the keywords against the text's distinct words
# rather than against the text itself (hundreds of keywords, each a full scan).
_WORDS_FROM = 4 * 1024

# Escapes that can hide a keyword's characters (`\u0067hp_`, `https:\/\/`).
_HIDING = ("\\u", "\\x", "\\U", "\\/")


def marker(kind: str, digest: str) -> str:
    return f"{MARKER_PREFIX}{kind}:{digest}]"


def short_digest(secret: str) -> str:
    return text_sha256_hex(secret)[:8]


def escape_pointer_token(token: str) -> str:
    """RFC 6901: `~` is `~0`, `/` is `~1`."""
    return token.replace("~", "~0").replace("/", "~1")


def redact_text(text: str) -> tuple[str, list[tuple[str, str]]]:
    """`text` with every secret masked, and (kind, digest) for each, in order of place."""
    present = keywords_in(text)
    if not present:
        return text, []
    return _redact(text, present)


def redact_tree(value: Any, pointer: str = "") -> tuple[Any, list[tuple[str, str, str]]]:
    """Every string inside `value` (dicts, lists, strings), dict keys too, redacted.

    Returns the new value (the input is not changed) and (JSON pointer, kind,
    digest) for each secret. A redacted key is named in the pointer by its
    marker, as it now stands in the record.
    """
    strings: list[str] = []
    _collect(value, strings)
    present = keywords_in("\n".join(strings))
    if not present:
        return value, []
    found: list[tuple[str, str, str]] = []
    return _walk(value, pointer, present, found, {}), found


def keywords_in(text: str, depth: int = MAX_DEPTH) -> set[str]:
    """The rule keywords `text` holds (escaped ones too, and base64-encoded ones)."""
    present = _keywords(text)
    if depth:
        for _, _, decoded in encoded_runs(text):
            present |= keywords_in(decoded, depth - 1)
    if "\\" in text and any(h in text for h in _HIDING):
        # A keyword an escape hides overlaps that escape: decode only around them.
        near = "\n".join(_around_escapes(text))
        for view in views(near):
            present |= _keywords(view.text)
    return present


def _around_escapes(text: str, reach: int = 64):
    """The stretches of `text` within `reach` of an escape that can hide a keyword."""
    spans: list[list[int]] = []
    for escape in _HIDING:
        at = text.find(escape)
        while at != -1:
            spans.append([max(0, at - reach), at + reach])
            at = text.find(escape, at + 2)
    spans.sort()
    merged: list[list[int]] = []
    for span in spans:
        if merged and span[0] <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], span[1])
        else:
            merged.append(span)
    return (text[start:end] for start, end in merged)


def _keywords(text: str) -> set[str]:
    lowered = text.lower()
    if len(lowered) < _WORDS_FROM:
        return {k for k in rules.KEYWORDS if k in lowered}
    words = lowered.encode("utf-8", "surrogatepass").translate(_WORD_BYTES).split()
    distinct = b" ".join(set(words))
    return {k for k in rules.KEYWORDS if k.encode() in distinct}


def _word_bytes() -> bytes:
    """A translate table keeping the bytes keywords are made of, blanking the rest."""
    kept = {ord(c) for k in rules.KEYWORDS for c in k}
    return bytes(b if b in kept else 0x20 for b in range(256))


_WORD_BYTES = _word_bytes()


def _collect(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                out.append(k)
            _collect(v, out)
    elif isinstance(value, list):
        for v in value:
            _collect(v, out)


def _walk(value: Any, pointer: str, present: set[str], found: list, done: dict) -> Any:
    """`done`: each string already redacted, and how (a record holds the tool input
    twice: in the canonical call and in the request)."""
    if isinstance(value, str):
        new, hits = _redact_once(value, present, done)
        found.extend((pointer, kind, digest) for kind, digest in hits)
        return new
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            named = isinstance(key, str) and isinstance(item, str) and secret_key(key)
            if isinstance(key, str):
                key, hits = _redact_once(key, present, done)
                key = _unique(key, out) if hits else key
                where = f"{pointer}/{escape_pointer_token(key)}"
                found.extend((where, kind, digest) for kind, digest in hits)
            else:
                where = f"{pointer}/{escape_pointer_token(str(key))}"
            if named and _secret_value(item):  # {"password": "hunter2"}: judged with its key
                digest = short_digest(item)
                found.append((where, _ASSIGNMENT_KIND, digest))
                out[key] = marker(_ASSIGNMENT_KIND, digest)
                continue
            out[key] = _walk(item, where, present, found, done)
        return out
    if isinstance(value, list):
        return [_walk(v, f"{pointer}/{i}", present, found, done) for i, v in enumerate(value)]
    return value


_ASSIGNMENT_KIND = ASSIGNMENT[0]
# Values under a secret's key that are not one: local_rules' _PLACEHOLDERS, as words
# (a value judged with its key is checked without loading `re`).
_PLACEHOLDER_WORDS = frozenset(
    {"", "null", "none", "nil", "true", "false", "undefined", "redacted", "changeme", "..."}
)
# The last words of a key that names a secret: `password`, `api_key`, `DB_TOKEN`,
# `clientSecret`, `x-api-key` (not `max_tokens`, `token_count`, `tokenizer`).
_SECRET_WORDS = frozenset(
    {"password", "passwd", "passphrase", "secret", "token", "credential", "credentials"}
    | {"apikey", "pat", "pwd"}
)
_SECRET_PAIRS = frozenset(
    {(w, "key") for w in ("api", "access", "private", "secret", "auth", "signing")}
    | {("encryption", "key"), ("client", "secret")}
)


def secret_key(key: str) -> bool:
    """Whether a mapping's key names a secret (its value is one, whatever it looks like)."""
    words = _words(key)
    return bool(words) and (words[-1] in _SECRET_WORDS or tuple(words[-2:]) in _SECRET_PAIRS)


def _words(key: str) -> list[str]:
    """`DB_TOKEN` -> [db, token], `clientSecret` -> [client, secret], `x-api-key` ->
    [x, api, key]."""
    out, word, before = [], "", ""
    for ch in key:
        if not ch.isalnum():
            ch = ""
        elif ch.isupper() and before.islower():
            ch = " " + ch
        if not ch or ch.startswith(" "):
            if word:
                out.append(word)
            word = ch.strip().lower()
        else:
            word += ch.lower()
        before = ch.strip()
    if word:
        out.append(word)
    return out


def _secret_value(value: str) -> bool:
    """A value worth masking: not empty, a placeholder, a variable or a marker."""
    if len(value.strip()) < 3 or value.startswith("$") or MARKER_PREFIX in value:
        return False
    core = value.strip("[]<>()*'\" ").lower()
    return core not in _PLACEHOLDER_WORDS and set(core) not in ({"x"}, {"*"}, {"."})


def _redact_once(text: str, present: set[str], done: dict) -> tuple[str, list]:
    result = done.get(text)
    if result is None:
        result = done[text] = _redact(text, present)
    return result


def _unique(key: str, taken: dict) -> str:
    """Two keys redacted to the same text must not overwrite each other."""
    n, candidate = 1, key
    while candidate in taken:
        n += 1
        candidate = f"{key}#{n}"
    return candidate


def _redact(
    text: str, present: set[str], depth: int = MAX_DEPTH
) -> tuple[str, list[tuple[str, str]]]:
    """Step 2 and 3 for one string, given the keywords its record holds."""
    findings = _find(text, present)
    if depth:
        findings += _encoded_secrets(text, depth)
    if "\\x" in text:  # bytes that were not UTF-8 (hookinfo.py): as blanks, in place
        findings += _find(_blank_bytes(text), present)
    if "\\" in text:
        for view in views(text):
            for start, end, kind, secret in _find(view.text, present):
                findings.append((view.original(start), view.original(end), kind, secret))
    if not findings:
        return text, []
    return _mask(text, _merge(findings))


def _encoded_secrets(text: str, depth: int) -> list[tuple[int, int, str, str]]:
    """Each base64 run of `text` whose text holds a secret, as a finding (decoded.py)."""
    found = []
    for start, end, decoded in encoded_runs(text):
        present = keywords_in(decoded, depth - 1)
        if present:
            hits = _redact(decoded, present, depth - 1)[1]
            if hits:
                found.append((start, end, hits[0][0], text[start:end]))
    return found


def _blank_bytes(text: str) -> str:
    """`text` with each `\\xNN` escape (a byte that was not UTF-8) as four blanks: a
    secret right beside such a byte is read as the word it is, at the same place."""
    import re  # only for text that held such a byte: most records never load it

    return re.sub(r"\\\\|\\x[0-9a-fA-F]{2}", lambda m: m[0] if m[0] == "\\\\" else "    ", text)


def _find(text: str, present: set[str]) -> list[tuple[int, int, str, str]]:
    lowered = _lower(text)
    here = {k for k in present if k in lowered}
    if not here:
        return []
    found: list[tuple[int, int, str, str]] = []

    def covered(start: int, end: int) -> bool:
        return any(s <= start and end <= e for s, e, _, _ in found)

    for rule in rules.candidates(here):
        for start, end, secret in rules.find(rule, text, lowered, here, covered):
            found.append((start, end, rule.kind, secret))
    return found


def _lower(text: str) -> str:
    """Lowercase with every character where it was (str.lower may lengthen a few)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _merge(findings: list[tuple[int, int, str, str]]) -> list[list]:
    """Overlapping findings as one; the first (by rule order) names the kind.

    A finding inside another adds nothing; two that overlap become their
    union, digested as the text it covers.
    """
    kept: list[list] = []  # [start, end, kind, secret or None]
    for start, end, kind, secret in findings:
        overlapping = [k for k in kept if k[0] < end and start < k[1]]
        if not overlapping:
            kept.append([start, end, kind, secret])
            continue
        if any(k[0] <= start and end <= k[1] for k in overlapping):
            continue
        first = overlapping[0]
        union = [min(start, *(k[0] for k in overlapping)), max(end, *(k[1] for k in overlapping))]
        kept = [k for k in kept if k not in overlapping]
        kept.append([union[0], union[1], first[2], None])
    return sorted(kept)


def _mask(text: str, spans: list[list]) -> tuple[str, list[tuple[str, str]]]:
    parts: list[str] = []
    found: list[tuple[str, str]] = []
    done = 0
    for start, end, kind, secret in spans:
        digest = short_digest(secret if secret is not None else text[start:end])
        parts.append(text[done:start])
        parts.append(marker(kind, digest))
        found.append((kind, digest))
        done = end
    parts.append(text[done:])
    return "".join(parts), found
