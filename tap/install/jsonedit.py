"""JSON as text: the span of every value, and a view with comments blanked out.

Edits are computed on the view and applied to the real text, so comments,
indentation and key order survive untouched. Stdlib only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass
class Node:
    start: int
    end: int
    children: Any = None  # dict key -> Node for objects, list[Node] for arrays


_JSON_WS = " \t\n\r"


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _JSON_WS:
        i += 1
    return i


def scan_json(text: str, i: int) -> Node:
    """Spans of every value; `text` is known to be valid JSON (json.loads passed)."""
    i = _skip_ws(text, i)
    c = text[i]
    if c == "{":
        kids: dict[str, Node] = {}
        j = _skip_ws(text, i + 1)
        if text[j] == "}":
            return Node(i, j + 1, kids)
        while True:
            key, j = json.decoder.scanstring(text, _skip_ws(text, j) + 1)
            j = _skip_ws(text, j) + 1  # the colon
            node = scan_json(text, j)
            kids[key] = node  # the last duplicate wins, as in json.loads
            j = _skip_ws(text, node.end)
            if text[j] == "}":
                return Node(i, j + 1, kids)
            j += 1  # the comma
    if c == "[":
        items: list[Node] = []
        j = _skip_ws(text, i + 1)
        if text[j] == "]":
            return Node(i, j + 1, items)
        while True:
            node = scan_json(text, j)
            items.append(node)
            j = _skip_ws(text, node.end)
            if text[j] == "]":
                return Node(i, j + 1, items)
            j += 1
    if c == '"':
        _, j = json.decoder.scanstring(text, i + 1)
        return Node(i, j)
    j = i
    while j < len(text) and text[j] not in ",]}" + _JSON_WS:
        j += 1
    return Node(i, j)


def node_at(root: Node, path: tuple) -> Node:
    node = root
    for part in path:
        node = node.children[part]
    return node


def json_str(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


def json_view(text: str, comments: bool) -> str:
    """`text` with a BOM and (when allowed) comments blanked, offsets unchanged.

    The edits are computed on this view and applied to the real text, so the
    comments themselves survive untouched.
    """
    if not text.startswith("\ufeff") and not (comments and "/" in text):
        return text
    out = list(text)
    i, n = 0, len(text)
    if text.startswith("\ufeff"):
        out[0], i = " ", 1
    in_string = False
    while comments and i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            in_string = c != '"'
        elif c == '"':
            in_string = True
        elif text.startswith("//", i) or text.startswith("/*", i):
            block = text[i + 1] == "*"
            end = text.find("*/" if block else "\n", i + 2)
            end = n if end < 0 else end + (2 if block else 0)
            for k in range(i, end):
                if out[k] != "\n":
                    out[k] = " "
            i = end
            continue
        i += 1
    return "".join(out)
