"""JSON as text: the span of every value, and a view with comments blanked out.

Edits are computed on the view and applied to the real text, so comments,
indentation and key order survive untouched. Stdlib only.
"""

from __future__ import annotations

import json
import re
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_skip_value = json.JSONDecoder().raw_decode  # C speed: where a value we do not need ends


def _skip_ws(text: str, i: int) -> int:
    return _WS.match(text, i).end()


def spans(text: str, paths: list[tuple]) -> dict[tuple, tuple[int, int]]:
    """The (start, end) of the value at each of `paths` in `text` (valid JSON).

    One pass: only containers on the way to a wanted value are walked key by
    key; every other value is skipped by the C decoder, so a large settings
    file costs about one `json.loads`. Iterative: any nesting depth is fine.
    """
    wanted: set[tuple] = set()
    for path in paths:
        wanted.update(path[:n] for n in range(len(path) + 1))
    found: dict[tuple, tuple[int, int]] = {}
    # A stack of (path, container kind, index of the next item); values are read in place.
    i = _skip_ws(text, 0)
    stack: list[list] = []
    path: tuple = ()
    while True:
        if path in wanted and text[i] in "{[":
            kind = text[i]
            stack.append([path, kind, 0, i])
            i = _skip_ws(text, i + 1)
            if text[i] in "}]":
                found.setdefault(path, (stack[-1][3], i + 1))
                stack.pop()
                i += 1
            else:
                path = _enter(text, stack, i, path)
                i = _value_start(text, stack, i)
                continue
        else:
            start = i
            if text[i] == '"':
                _, i = json.decoder.scanstring(text, i + 1)
            else:
                _, i = _skip_value(text, i)
            if path in wanted:
                found[path] = (start, i)
        # After a value: the next item of the container, or its end (maybe several).
        while stack:
            i = _skip_ws(text, i)
            frame = stack[-1]
            if text[i] == ",":
                frame[2] += 1
                i = _skip_ws(text, i + 1)
                path = _enter(text, stack, i, frame[0])
                i = _value_start(text, stack, i)
                break
            found[frame[0]] = (frame[3], i + 1)  # the closing bracket
            stack.pop()
            i += 1
        else:
            return {p: found[p] for p in paths if p in found}


def _enter(text: str, stack: list[list], i: int, parent: tuple) -> tuple:
    """The path of the item that starts at `i` in the innermost container."""
    frame = stack[-1]
    if frame[1] == "[":
        return (*parent, frame[2])
    key, _ = json.decoder.scanstring(text, i + 1)
    return (*parent, key)


def _value_start(text: str, stack: list[list], i: int) -> int:
    """Where the item's value starts (past `"key":` in an object)."""
    if stack[-1][1] == "{":
        _, i = json.decoder.scanstring(text, i + 1)
        i = _skip_ws(text, i) + 1  # the colon
    return _skip_ws(text, i)


def json_str(value: Any, ascii_only: bool) -> str:
    text = json.dumps(value, ensure_ascii=ascii_only)
    if not ascii_only and not _utf8(text):
        text = json.dumps(value)  # a lone surrogate (`"\ud800"`) is written only escaped
    return text


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?(?:\*/|\Z)', re.S)


def json_view(text: str, comments: bool) -> str:
    """`text` with a BOM and (when allowed) comments blanked, offsets unchanged.

    The edits are computed on this view and applied to the real text, so the
    comments themselves survive untouched.
    """
    if text.startswith("\ufeff"):
        text = " " + text[1:]
    if not (comments and "/" in text):
        return text

    def blank(m: re.Match) -> str:
        s = m.group()
        return s if s[0] == '"' else re.sub(r"[^\n]", " ", s)

    return _STRING_OR_COMMENT.sub(blank, text)
