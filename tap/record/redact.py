"""Taking secrets out of a record before it touches disk.

Each secret becomes `[REDACTED:<kind>:<first 8 hex of its sha256>]`, so two
records holding the same secret show the same marker without showing it.
Specific shapes (keys, tokens, key blocks, JWTs) are matched first; the
generic `password=`-style assignment rule runs last and leaves their markers
alone. Patterns are compiled once; this module is only imported by the
recorder, after the hook's answer has gone back, so `re` costs the runtime
nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

MARKER_PREFIX = "[REDACTED:"

_B64URL = r"[A-Za-z0-9_-]"

# (kind, pattern, group holding the secret: 0 for the whole match)
_SHAPES: list[tuple[str, re.Pattern[str], int]] = [
    (
        "private_key",
        # An unterminated block (cut off output) is masked to the end.
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*)",
            re.DOTALL,
        ),
        0,
    ),
    ("anthropic_key", re.compile(r"(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}"), 0),
    (
        "openai_key",
        re.compile(r"(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        0,
    ),
    (
        "github_token",
        re.compile(
            r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})"
        ),
        0,
    ),
    (
        "aws_access_key",
        re.compile(
            r"(?<![A-Z0-9])(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Z0-9])"
        ),
        0,
    ),
    (
        "aws_secret_key",
        # A 40-character secret in a recognisable context: env/ini style or JSON.
        re.compile(
            r"(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
            r"([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        1,
    ),
    (
        "jwt",
        re.compile(rf"(?<![A-Za-z0-9_-])eyJ{_B64URL}{{8,}}\.{_B64URL}{{8,}}\.{_B64URL}*"),
        0,
    ),
    (
        "bearer_token",
        re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{16,})"),
        1,
    ),
]

# `password=hunter2`, `api_key: "..."`, `"secret": "..."`, `DB_TOKEN='...'`:
# the name ends in one of the words, then an optional closing quote, then = or :.
# (No pattern for the start of the name: matching from the keyword keeps this
# linear on megabytes of output without word breaks.)
_ASSIGNMENT = re.compile(
    r"(?i)(?:password|passwd|passphrase|secret|token|apikey|"
    r"(?:api|access|private|secret|auth|signing|encryption)[_-]?key|client[_-]?secret|credentials?)"
    r"[\"']?\s*[:=]\s*"
    r"(?:\"((?:[^\"\\\n]|\\.){3,}?)\"|'([^'\n]{3,}?)'|([^\s\"'&;,)}\]]{3,}))"
)


_ASSIGNMENT_HINTS = ("pass", "secret", "token", "key", "credential")

# Values an assignment rule sees that say "no secret here".
_NOT_SECRETS = {"null", "none", "true", "false", "undefined", "***", "xxx", "redacted"}


def marker(kind: str, digest: str) -> str:
    return f"{MARKER_PREFIX}{kind}:{digest}]"


def short_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def redact_text(text: str) -> tuple[str, list[tuple[str, str]]]:
    """`text` with every secret masked, and (kind, digest) for each, in order found."""
    found: list[tuple[str, str]] = []
    for kind, pattern, group in _SHAPES:
        if not any(hint in text for hint in _HINTS[kind]):
            continue
        text = pattern.sub(_replacer(kind, group, found), text)
    lowered = text.lower()
    if any(word in lowered for word in _ASSIGNMENT_HINTS):
        text = _ASSIGNMENT.sub(_assignment_replacer(found), text)
    return text, found


# Cheap substring checks that skip a regex pass on the (common) clean string.
_HINTS = {
    "private_key": ("PRIVATE KEY",),
    "jwt": ("eyJ",),
    "anthropic_key": ("sk-",),
    "openai_key": ("sk-",),
    "github_token": ("gh", "github_pat_"),
    "aws_access_key": ("AKIA", "ASIA", "AIDA", "AROA", "AGPA", "ANPA", "ANVA", "AIPA"),
    "aws_secret_key": ("ecret", "ECRET"),
    "bearer_token": ("earer", "EARER"),
}


def _replacer(kind: str, group: int, found: list) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        secret = match.group(group)
        digest = short_digest(secret)
        found.append((kind, digest))
        if group == 0:
            return marker(kind, digest)
        start, end = match.span(group)
        base = match.start()
        whole = match.group(0)
        return whole[: start - base] + marker(kind, digest) + whole[end - base :]

    return replace


def _assignment_replacer(found: list) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        group = next(g for g in (1, 2, 3) if match.group(g) is not None)
        secret = match.group(group)
        if _inside_marker(match):
            return match.group(0)  # `[REDACTED:bearer_token:ab12cd34]` reads like `token:...`
        # `[redacted]`, `<none>`, `***`: someone already masked it.
        bare = secret.strip("[]<>()*").lower()
        if MARKER_PREFIX in secret or secret.startswith("$") or bare in _NOT_SECRETS or not bare:
            return match.group(0)  # already masked, a reference like $TOKEN, or no value
        digest = short_digest(secret)
        found.append(("secret_assignment", digest))
        start, end = match.span(group)
        base = match.start()
        whole = match.group(0)
        return whole[: start - base] + marker("secret_assignment", digest) + whole[end - base :]

    return replace


def _inside_marker(match: re.Match[str]) -> bool:
    # Markers are short: look back a bounded distance (keeps big outputs linear).
    text = match.string
    opened = text.rfind(MARKER_PREFIX, max(0, match.start() - 64), match.start() + 1)
    return opened != -1 and text.find("]", opened, match.end() + 1) >= match.end() - 1


def escape_pointer_token(token: str) -> str:
    """RFC 6901: `~` is `~0`, `/` is `~1`."""
    return token.replace("~", "~0").replace("/", "~1")


def redact_tree(value: Any, pointer: str = "") -> tuple[Any, list[tuple[str, str, str]]]:
    """Every string inside `value` (dicts, lists, strings) redacted.

    Returns the new value (the input is not changed) and (JSON pointer, kind,
    digest) for each secret. Dict keys are kept as they are.
    """
    found: list[tuple[str, str, str]] = []
    return _walk(value, pointer, found), found


def _walk(value: Any, pointer: str, found: list) -> Any:
    if isinstance(value, str):
        new, hits = redact_text(value)
        found.extend((pointer, kind, digest) for kind, digest in hits)
        return new
    if isinstance(value, dict):
        return {
            k: _walk(v, f"{pointer}/{escape_pointer_token(str(k))}", found)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_walk(v, f"{pointer}/{i}", found) for i, v in enumerate(value)]
    return value
