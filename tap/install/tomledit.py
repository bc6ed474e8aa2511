"""TOML as text: where each `command = "..."` of a hook table is, and writing a string.

Only `[[hooks.<Event>.hooks]]` tables (Codex) and `[[hooks]]` tables (one list of
hooks, each naming its event) with a `command = ...` line are understood; anything else is refused by the caller (the edit is checked by
parsing the result). Stdlib only.
"""

from __future__ import annotations

import json
import re

_TOML_HEADER = re.compile(r"^[ \t]*\[\[?([^\]]*)\]\]?[ \t]*(#.*)?$")
_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_ASSIGNMENT = re.compile(rf"^[ \t]*{_KEY}(?:[ \t]*\.[ \t]*{_KEY})*[ \t]*=[ \t]*")
_LINE = re.compile(r"[^\n]*\n|[^\n]+")  # TOML ends lines at \n alone (not \x85, \u2028...)


def _toml_key_parts(key: str) -> list[str]:
    parts = [p.strip() for p in key.split(".")]
    return [p[1:-1] if len(p) >= 2 and p[0] == p[-1] and p[0] in "\"'" else p for p in parts]


def toml_string_end(text: str, i: int) -> int:
    """End offset of the TOML string token starting at `i` (ValueError if none)."""
    for quote in ('"""', "'''"):
        if text.startswith(quote, i):
            j = i + 3
            while True:
                k = text.find(quote, j)
                if k < 0:
                    raise ValueError("unterminated string")
                if quote == '"""' and _escaped(text, k):
                    j = k + 1
                    continue
                # up to two extra quotes may belong to the content
                while text.startswith(quote[0], k + 3):
                    k += 1
                return k + 3
    if text[i] in "\"'":
        quote = text[i]
        j = i + 1
        while j < len(text) and text[j] != "\n":
            if text[j] == "\\" and quote == '"':
                j += 2
                continue
            if text[j] == quote:
                return j + 1
            j += 1
        raise ValueError("unterminated string")
    raise ValueError("not a string")


def _escaped(text: str, k: int) -> bool:
    n = 0
    while k - 1 - n >= 0 and text[k - 1 - n] == "\\":
        n += 1
    return n % 2 == 1


def command_spans(text: str, key: str = "command") -> dict[tuple, tuple[int, int]]:
    """Handler path -> span of its `command = "..."` value, for `[[hooks.E.hooks]]` and
    `[[hooks]]` tables."""
    assignment = re.compile(rf"^[ \t]*{re.escape(key)}[ \t]*=[ \t]*")
    spans: dict[tuple, tuple[int, int]] = {}
    groups: dict[str, int] = {}  # event -> index of its last [[hooks.E]]
    inner: dict[tuple, int] = {}  # (event, group) -> index of its last [[hooks.E.hooks]]
    listed = -1  # index of the last [[hooks]]
    current: tuple | None = None
    offset = 0
    lines = _LINE.findall(text)
    skip_to = 0
    for line in lines:
        start = offset
        offset += len(line)
        if start < skip_to:
            continue  # inside a multi-line string
        m = _TOML_HEADER.match(line.rstrip("\r\n"))
        if m and line.lstrip().startswith("["):
            parts = _toml_key_parts(m.group(1))
            array = line.lstrip().startswith("[[")
            current = None
            if array and parts == ["hooks"]:
                listed += 1
                current = ("hooks", listed)
            elif array and len(parts) == 2 and parts[0] == "hooks":
                groups[parts[1]] = groups.get(parts[1], -1) + 1
            elif array and len(parts) == 3 and parts[0] == "hooks" and parts[2] == "hooks":
                event = parts[1]
                gi = groups.get(event, -1)
                if gi < 0:  # [[hooks.E.hooks]] with no [[hooks.E]]: TOML makes group 0
                    gi = groups[event] = 0
                hi = inner[(event, gi)] = inner.get((event, gi), -1) + 1
                current = ("hooks", event, gi, "hooks", hi)
            continue
        cm = _ASSIGNMENT.match(line)
        if cm is None:
            continue
        vstart = start + cm.end()
        ours = assignment.match(line) is not None
        if not ours and not text.startswith(('"""', "'''"), vstart):
            continue  # only a multi-line string of another key can hide lines
        try:
            vend = toml_string_end(text, vstart)
        except (ValueError, IndexError):
            continue
        skip_to = vend
        if ours and current is not None:
            spans[current] = (vstart, vend)
    return spans


def toml_str(value: str) -> str:
    # A JSON string is a valid TOML basic string (same escapes, \uXXXX included).
    return json.dumps(value, ensure_ascii=False)
