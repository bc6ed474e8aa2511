"""Editing a settings file in place: only the planned values change, checked by reading back.

Each value is replaced in the text where it stands; the result is parsed
again and must read as the old data with exactly those values changed, or
nothing is written. Unwrapping can put back the very text a value had before
install (its token from the backup), so an untouched file returns byte for byte.
"""

from __future__ import annotations

import difflib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hooktui.tap.install import jsonedit, tomledit
from hooktui.tap.install.files import InstallError, Settings
from hooktui.tap.install.hooks import Handler, walk, where
from hooktui.tap.runtimes.descriptor import Runtime


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


DELETE = _Marker("DELETE")  # a value that removes its key (unwrapping an http hook)
_MISSING = _Marker("MISSING")  # a key that was not there (wrapping one adds `command`)


@dataclass
class Change:
    """One command hook rewritten (wrapped or unwrapped)."""

    where: str  # e.g. "hooks.PreToolUse[0].hooks[1]"
    label: str
    before: str  # the command as a shell line (exec form joined)
    after: str


def _canonical(value: Any) -> str:
    """One text per value (NaN equals NaN here; TOML dates as text)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def edit(settings: Settings, runtime: Runtime, handlers: list[Handler], transform, tokens=None):
    """Apply `transform(handler) -> (values, Change) | None` to every handler, in the text.

    `tokens` maps a value (canonical JSON) to the exact text it had before
    install, so unwrapping writes back the very bytes that were there.
    """
    tokens = tokens or {}
    text = settings.text
    edits: list[tuple[int, int, str]] = []
    planned: list[tuple[tuple, Any, Any]] = []  # (key path, value before, value after)
    changes: list[Change] = []
    spans = _value_spans(settings, runtime)
    ascii_only = text.isascii()
    view = jsonedit.json_view(text, settings.comments) if settings.kind != "toml" else text
    for h in handlers:
        result = transform(h)
        if result is None:
            continue
        values, change = result
        changes.append(change)
        for key, value in values.items():
            planned.append(((*h.path, key), h.handler.get(key, _MISSING), value))
            if value is DELETE or key not in h.handler:
                edits.append(
                    _member_edit(settings, runtime, view, spans, h, key, value, ascii_only)
                )
                continue
            span = spans.get((*h.path, key))
            if span is None:
                raise InstallError(
                    f"{settings.path}: cannot rewrite the hook at {where(h.path)} in place "
                    '(in TOML only `command = "..."` lines in [[hooks.<Event>.hooks]] and '
                    "[[hooks]] tables are supported); left untouched"
                )
            new = tokens.get(_canonical(value))
            if new is None:
                if settings.kind == "toml":
                    new = tomledit.toml_str(value)
                else:
                    new = jsonedit.json_str(value, ascii_only)
            edits.append((*span, new))
    pieces, last = [], 0
    for start, end, new in sorted(edits):
        pieces += [text[last:start], new]
        last = end
    text = "".join(pieces) + text[last:]
    if changes:
        _verify(settings, text, planned)
    return text, changes


def _member_edit(settings, runtime, view, spans, h: Handler, key: str, value, ascii_only):
    """The edit that adds `key` (before the handler's type key, in its layout) or, for
    DELETE, removes it with what separates it from the next member."""
    type_key = runtime.settings.type_key
    at = spans.get((*h.path, type_key)) if settings.kind != "toml" else None
    here = spans.get((*h.path, key)) if value is DELETE else at
    if here is None:
        raise InstallError(
            f"{settings.path}: cannot rewrite the hook at {where(h.path)} in place; left untouched"
        )
    start = _key_start(view, here[0])
    if value is DELETE:
        after = jsonedit._skip_ws(view, here[1])
        if view[after] == ",":
            return start, jsonedit._skip_ws(view, after + 1), ""
        before = view.rindex(",", 0, start)  # the last member: take the comma before it
        return before, here[1], ""
    gap_from = len(view[:start].rstrip(" \t\r\n"))
    gap = view[gap_from:start]
    member = f"{jsonedit.json_str(key, ascii_only)}: {jsonedit.json_str(value, ascii_only)},"
    return start, start, member + gap


def _key_start(view: str, value_start: int) -> int:
    """Where the key of the member whose value starts at `value_start` starts."""
    colon = view.rindex(":", 0, value_start)
    i = view.rindex('"', 0, colon)  # the key's closing quote
    while True:
        i = view.rindex('"', 0, i)
        if (i - len(view[:i].rstrip("\\"))) % 2 == 0:  # not an escaped quote
            return i


def _value_spans(settings: Settings, runtime: Runtime) -> dict[tuple, tuple[int, int]]:
    """(key path) -> span of the command (and argv, and type) values of every hook."""
    layout = runtime.settings
    if settings.kind == "toml":
        found = tomledit.command_spans(settings.text, layout.command_key)
        return {(*path, layout.command_key): span for path, span in found.items()}
    wanted = [
        (*h.path, key)
        for h in walk(settings.data, runtime).handlers
        for key in (layout.command_key, layout.exec_args_key, layout.type_key)
        if key and key in h.handler
    ]
    return jsonedit.spans(jsonedit.json_view(settings.text, settings.comments), wanted)


def _verify(settings: Settings, new_text: str, planned: list[tuple[tuple, Any, Any]]) -> None:
    """The new text reads as the old data with exactly the planned values changed."""
    try:
        if settings.kind == "toml":
            got = tomllib.loads(new_text)
        else:
            got = json.loads(jsonedit.json_view(new_text, settings.comments))
        for path, before, after in planned:
            node = got
            for part in path[:-1]:
                node = node[part]
            if after is DELETE:
                if path[-1] in node:
                    raise ValueError(path)
            elif _canonical(node[path[-1]]) != _canonical(after):
                raise ValueError(path)
            if before is _MISSING:
                del node[path[-1]]
            else:
                node[path[-1]] = before
        same = got == settings.data or _canonical(got) == _canonical(settings.data)  # NaN
    except (ValueError, KeyError, IndexError, TypeError):  # decode errors are ValueErrors
        same = False
    if not same:
        raise InstallError(
            f"{settings.path}: this file's layout is not one hooktui can edit in place "
            "safely; left untouched"
        )


def tokens_of(backup: Settings, runtime: Runtime) -> dict[str, str]:
    """The exact text of each hook's command (and argv) before install, by value."""
    data = backup.data
    tokens = {}
    for path, (start, end) in _value_spans(backup, runtime).items():
        value = data
        for part in path:
            value = value[part]
        tokens[_canonical(value)] = backup.text[start:end]
    return tokens


def diff(path: Path, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{path}",
        tofile=f"{path} (hooktui)",
    )
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
