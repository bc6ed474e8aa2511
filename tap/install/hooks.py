"""Walking the hooks section of a settings file the way its runtime lays it out.

Every handler is found with its key path from the document root; what cannot
be wrapped (another handler type, an async hook) is listed with the reason,
and a hooks section the runtime could not read is reported, never taken for
"no hooks".
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from hooktui.tap.runtimes.descriptor import Runtime

_NOT_A_COMMAND = {
    "http": "the runtime posts the request to a URL itself, and hooktui does not know how "
    "this runtime reads the reply, so it cannot make the same call",
    "mcp_tool": "the runtime calls an MCP tool itself: there is no command to run",
    "prompt": "the runtime asks a model: there is no command to run",
    "agent": "the runtime runs an agent: there is no command to run",
    "function": "the runtime calls a function of its own: there is no command to run",
    "callback": "the runtime calls a function of its own: there is no command to run",
}
_ASYNC = (
    "async: the runtime does not wait for its answer, so a record would judge an answer "
    "the runtime reads differently"
)


@dataclass
class Handler:
    path: tuple  # key path from the document root to the handler object
    event: str
    matcher: Any
    handler: dict
    is_async: bool = False
    http: bool = False  # an http hook: wrapped as a command that makes its POST


@dataclass
class Skipped:
    where: str
    why: str


@dataclass
class Walk:
    handlers: list[Handler] = field(default_factory=list)  # command hooks, in file order
    skipped: list[Skipped] = field(default_factory=list)  # hooks that cannot be wrapped
    problems: list[str] = field(default_factory=list)  # what the runtime could not read
    warnings: list[str] = field(default_factory=list)
    data: Any = None  # the document walked
    http_policy: str | None = None  # where the runtime's http policy is set (None: not looked)


def where(path: tuple) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def walk(data: Any, runtime: Runtime) -> Walk:
    """Every hook of the document, read with the runtime's layout."""
    layout = runtime.settings
    assert layout is not None
    out = Walk(data=data)
    if not isinstance(data, dict) or "hooks" not in data:
        return out
    hooks = data["hooks"]
    if layout.hooks_list:
        _walk_list(out, runtime, hooks)
        return out
    if not isinstance(hooks, dict):
        out.problems.append(f"hooks is {_kind(hooks)}, not an object of events")
        return out
    for event, entries in hooks.items():
        if layout.strict_events and event not in runtime.events:
            out.warnings.append(
                f"hooks.{event}: not an event {runtime.title} knows; {runtime.title} "
                "ignores the whole file when it holds one"
            )
        if not isinstance(entries, list):
            out.problems.append(f"hooks.{event} is {_kind(entries)}, not a list")
            continue
        for gi, entry in enumerate(entries):
            path = ("hooks", event, gi)
            if not isinstance(entry, dict):
                out.problems.append(f"{where(path)} is {_kind(entry)}, not an object")
            elif layout.nested:
                _walk_group(out, runtime, path, event, entry)
            else:
                _take(out, runtime, path, event, None, entry)
    return out


def _walk_list(out: Walk, runtime: Runtime, hooks: Any) -> None:
    """`hooks = [{<event_key>: event, <matcher_key>: ..., command...}, ...]`."""
    layout = runtime.settings
    if not isinstance(hooks, list):
        out.problems.append(f"hooks is {_kind(hooks)}, not a list of hooks")
        return
    for i, entry in enumerate(hooks):
        path = ("hooks", i)
        if not isinstance(entry, dict):
            out.problems.append(f"{where(path)} is {_kind(entry)}, not an object")
            continue
        event = entry.get(layout.event_key)
        if not isinstance(event, str) or event not in runtime.events:
            known = ", ".join(runtime.events)
            out.problems.append(
                f"{where(path)}.{layout.event_key} is {event!r}, not one of {known}"
            )
            continue
        _take(out, runtime, path, event, entry.get(layout.matcher_key), entry)


def _walk_group(out: Walk, runtime: Runtime, path: tuple, event: str, entry: dict) -> None:
    inner = entry.get("hooks")
    if not isinstance(inner, list):
        out.problems.append(f"{where(path)}.hooks is {_kind(inner)}, not a list")
        return
    for hi, handler in enumerate(inner):
        hpath = (*path, "hooks", hi)
        if not isinstance(handler, dict):
            out.problems.append(f"{where(hpath)} is {_kind(handler)}, not an object")
            continue
        _take(out, runtime, hpath, event, entry.get("matcher"), handler)


def _http_policy(data: dict, runtime: Runtime) -> str:
    """Where the runtime's own policy on http hooks is set ("" when nowhere we can see)."""
    http = runtime.settings.http
    if any(_has_key(data, key) for key in http.policy_keys):
        return "these settings"
    for name in http.policy_files:
        try:
            with open(os.path.expanduser(name), encoding="utf-8") as f:
                managed = json.load(f)
        except (OSError, ValueError):
            continue
        if any(_has_key(managed, key) for key in http.policy_keys):
            return name
    return ""


def _has_key(data: Any, dotted: str) -> bool:
    """Whether `a.b` is set in these settings (`a` an object holding `b`)."""
    *outer, last = dotted.split(".")
    for key in outer:
        data = data.get(key) if isinstance(data, dict) else None
    return isinstance(data, dict) and last in data


def _take(out: Walk, runtime: Runtime, path: tuple, event: str, matcher: Any, h: dict) -> None:
    layout = runtime.settings
    assert layout is not None
    kind = h.get(layout.type_key, layout.default_type or None) if layout.type_key else "command"
    if kind is None:
        out.problems.append(f"{where(path)} has no {layout.type_key!r}")
        return
    http = layout.http
    if http is not None and kind == http.type:
        why = _http_problem(h, layout) or runtime.http_problem(h)
        if not why and out.http_policy is None:
            out.http_policy = _http_policy(out.data, runtime)
        if not why and out.http_policy:
            keys = " / ".join(http.policy_keys)
            why = (
                f"{out.http_policy} set {keys}, which the runtime applies to its own POST; "
                "wrapped, the POST would be the tap's and escape it"
            )
        if why:
            out.skipped.append(Skipped(where(path), f"an {kind!r} hook: {why}"))
        else:
            out.handlers.append(Handler(path, event, matcher, h, http=True))
        return
    if kind != "command" and kind not in layout.handler_types:
        runs = ", ".join(layout.handler_types)
        why = f"not a handler type {runtime.title} runs ({runs}): it ignores or rejects it"
        out.skipped.append(Skipped(where(path), f"a {kind!r} hook: {why}"))
        return
    if kind != "command":
        why = _NOT_A_COMMAND.get(kind, "not a command hook") if isinstance(kind, str) else ""
        if kind == "http" and layout.http_unwrapped:
            why = layout.http_unwrapped
        out.skipped.append(Skipped(where(path), f"a {kind!r} hook: {why or 'not a command'}"))
        return
    if not isinstance(h.get(layout.command_key), str):
        out.problems.append(f"{where(path)}.{layout.command_key} is not a string")
        return
    shell = h.get(layout.shell_key) if layout.shell_key else None
    exec_form = bool(layout.exec_args_key) and layout.exec_args_key in h
    if shell is not None and shell not in layout.posix_shells and not exec_form:
        why = f"it runs under {layout.shell_key} {shell!r}, and the tap's wrapped line is sh"
        out.skipped.append(Skipped(where(path), f"a command hook: {why}"))
        return
    keys = (layout.async_key, *layout.async_keys) if layout.async_key else layout.async_keys
    is_async = any(h.get(key) is True for key in keys)
    out.handlers.append(Handler(path, event, matcher, h, is_async))
    if is_async:
        out.skipped.append(Skipped(where(path), _ASYNC))


def _http_problem(h: dict, layout: Any) -> str:
    """Why an http hook cannot be wrapped ("" when it can)."""
    from hooktui.tap.record.redact import redact_text  # only for http hooks

    http = layout.http
    if layout.command_key in h:
        return f"it also has a {layout.command_key!r}; the runtime's reading of it is unclear"
    if not isinstance(h.get(http.url_key), str) or not h[http.url_key]:
        return f"its {http.url_key!r} is not a string"
    headers = h.get(http.headers_key, {})
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        return f"its {http.headers_key!r} is not an object of strings"
    env = h.get(http.env_key, [])
    if not isinstance(env, list) or not all(isinstance(v, str) for v in env):
        return f"its {http.env_key!r} is not a list of strings"
    texts = [h[http.url_key], *(f"{name}: {value}" for name, value in headers.items())]
    for text in texts:
        if redact_text(text)[1]:
            return (
                "its URL or headers hold a secret as written (not as a $VARIABLE): wrapped, "
                "it would stand on a command line that other users can list (ps)"
            )
    return ""


def _kind(value: Any) -> str:
    if value is None:
        return "null (or missing)"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, int | float) else type(value).__name__
    )
