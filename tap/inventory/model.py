"""The hook inventory: every settings file a runtime reads hooks from, every hook in them
as the runtime will apply it, and how often each one fired (from the streams)."""

from __future__ import annotations

import msgspec

# A file's state as its runtime reads it.
FILE_STATES = {
    "ok": "read as written",
    "missing": "not there (nothing to read)",
    "rejected": "the runtime ignores the whole file",
    "partial": "the runtime ignores part of it",
    "fatal": "the runtime refuses to start while it is so",
    "unreadable": "held where hooktui cannot read it",
    "inactive": "read only under a condition that does not hold here",
}


class Usage(msgspec.Struct, kw_only=True, omit_defaults=True):
    """How a configured hook was used, from the streams (its wrapped calls)."""

    calls: int = 0
    last: str = ""  # RFC 3339: when it last answered
    denies: int = 0  # calls the runtime refused because of its answer
    fail_open: int = 0  # calls where it failed and the runtime went ahead anyway
    p95_ms: float | None = None
    state: str = ""  # "never fired since install" | "quiet since DATE" | "" (active)


class Hook(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One configured hook, as the runtime that reads its file will apply it."""

    runtime: str  # the runtime that runs it (a guest file's reader, not its author)
    scope: str  # user, project, local, managed, plugin, ...
    path: str  # the settings file
    where: str  # the key path of the handler in that file
    position: int  # its place in the runtime's order of all its hooks (from 0)
    rank: int = 0  # its source's place in the runtime's order (from 0)
    event: str  # the runtime's own event name
    matcher: str = ""  # "" = every tool (or the event has none)
    handler_type: str = "command"
    name: str = ""  # the handler's own name, where the runtime gives hooks one
    command: str = ""  # the hook's own command (unwrapped), or its URL
    label: str = ""  # the label its records carry
    wrapped: bool = False  # it runs through `hooktui tap`
    timeout_ms: int | None = None  # as the runtime applies it
    timeout_source: str = ""  # "configured" | "default"
    fails: str = ""  # what a failure does: "open" (the call goes ahead) | "closed"
    is_async: bool = False
    ignored: str = ""  # why the runtime never runs it ("" when it does)
    shadowed_by: str = ""  # the file and `where` of an identical hook run in its place
    usage: Usage | None = None


class Problem(msgspec.Struct, kw_only=True, omit_defaults=True):
    where: str = ""  # a key path in the file ("" = the whole file)
    why: str
    effect: str  # what the runtime does: "file" | "hook" | "event" | "warns" | "fatal"


class SourceFile(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One place a runtime reads hooks from, and what it makes of it."""

    runtime: str
    scope: str
    path: str
    state: str  # a FILE_STATES name
    rank: int = 0  # the source's place in the runtime's order (from 0)
    hooks: int = 0
    needs: str = ""  # the condition it is read under
    note: str = ""
    layout: str = ""  # another runtime's layout it uses (a guest file)
    problems: list[Problem] = []


class Inventory(msgspec.Struct, kw_only=True):
    files: list[SourceFile] = []
    hooks: list[Hook] = []
    runtimes: list[str] = []  # the runtimes looked at, in the registry's order
    notes: list[str] = []  # runtimes without settings files, and why
