"""One line that says what a call was about: the command, the file, the prompt.

Shown in every list row of `watch` and stored flat in each record, so it stays
short and on one line whatever the runtime sent.
"""

from __future__ import annotations

from hooktui.tap.base import jsonio

TYPE_CHECKING = False  # not `typing`'s: the recorder imports this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

    from hooktui.tap.canonical import Call

_PATCH_START = "*** Begin Patch"
_PATCH_HEADS = ("*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:")


def summarize(call: Call, limit: int = 200) -> str:
    """One line describing the call's input, at most `limit` characters."""
    return _fit(_describe(call), limit)


def _describe(call: Call) -> str:
    if call.event == "user_prompt" and call.prompt:
        return call.prompt
    ti = call.tool_input
    if isinstance(ti, dict):
        from hooktui.tap.runtimes import tool_keys  # loaded already: the call was judged

        command_keys, path_keys = tool_keys(call.runtime)
        for key in command_keys:
            command = ti.get(key)
            if isinstance(command, str) and command:
                return _patch(command) if command.startswith(_PATCH_START) else command
            if isinstance(command, list) and command:
                return " ".join(str(part) for part in command)
        for key in ("patch", "input"):
            text = ti.get(key)
            if isinstance(text, str) and text.startswith(_PATCH_START):
                return _patch(text)
        for key in path_keys:
            path = ti.get(key)
            if isinstance(path, str) and path:
                return path
        if ti:
            return _compact(ti)
    elif isinstance(ti, str) and ti:
        return _patch(ti) if ti.startswith(_PATCH_START) else ti
    elif ti not in (None, [], ""):
        return _compact(ti)
    if call.prompt:
        return call.prompt
    return ""


def _patch(text: str) -> str:
    """apply_patch: the files it touches, else its first lines."""
    lines = [line.strip() for line in text.splitlines()]
    heads = [line[4:] for line in lines if line.startswith(_PATCH_HEADS)]
    if heads:
        return "apply_patch: " + "; ".join(heads)
    body = [line for line in lines[1:4] if line and line != "*** End Patch"]
    return "apply_patch: " + " ⏎ ".join(body)


def _compact(value: Any) -> str:
    try:
        return jsonio.dumps(value).decode()
    except (TypeError, ValueError):
        return repr(value)


def _fit(text: str, limit: int) -> str:
    # Fold line breaks (and other control whitespace) so the summary is one line.
    parts = text.splitlines()
    if len(parts) > 1:
        text = " ⏎ ".join(part.strip() for part in parts if part.strip())
    text = text.replace("\t", " ").strip()
    if limit <= 0:
        return ""
    if len(text) > limit:
        return text[: limit - 1].rstrip() + "…"
    return text
