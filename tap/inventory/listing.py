"""The inventory as a list a person reads: which runtimes, in which order, and each
hook's calls in the streams (`hooktui hooks` and watch's hooks screen).

`listing` reads the inventory for a project and joins it with the streams in one
pass, noting the command lines the records carry for each hook, so a hook's
calls can be selected exactly with the filter language (`calls_filter`).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from hooktui.tap.inventory.model import Hook, Inventory
from hooktui.tap.inventory.read import inventory
from hooktui.tap.inventory.usage import command_of, join, uses
from hooktui.tap.read.groups import group_filter

# The orders hooks can be listed in: the runtime's own first.
SORTS = ("order", "calls", "last", "deny", "fail_open", "p95", "event")

# A hook's identity in the records: runtime, native event, its own command.
UseKey = tuple[str, str, str]


def sort_key(name: str):
    """A key sorting hooks by `name` (one of SORTS): most first, never-fired last."""

    def key(h: Hook):
        u = h.usage
        if name == "calls":
            return -(u.calls if u else -1)
        if name == "last":
            return (
                "" if not u or not u.last else "~" + "".join(chr(0x10FFFF - ord(c)) for c in u.last)
            )
        if name == "deny":
            return -(u.denies / u.calls if u and u.calls else -1)
        if name == "fail_open":
            return -(u.fail_open / u.calls if u and u.calls else -1)
        if name == "p95":
            return -(u.p95_ms if u and u.p95_ms is not None else -1)
        if name == "event":
            return (h.event, h.position)
        return (h.runtime, h.position)

    return key


def installed_only(inv: Inventory, explicit: bool) -> None:
    """Runtimes with a source here (all asked for ones), and their present sources."""
    present = {f.runtime for f in inv.files if f.state not in ("missing", "unreadable")}
    keep = set(inv.runtimes) if explicit else present
    inv.runtimes = [r for r in inv.runtimes if r in keep]
    inv.files = [f for f in inv.files if f.runtime in keep and f.state != "missing"]
    inv.hooks = [h for h in inv.hooks if h.runtime in keep]


class Listing(NamedTuple):
    inventory: Inventory
    # The command lines (`hook.command` as the filter reads it) the records of each hook carry.
    recorded: dict[UseKey, set[str]]


def listing(
    streams: Iterable[str],
    *,
    project: Path,
    environ: Mapping[str, str] | None = None,
    runtimes: Iterable[str] | None = None,
) -> Listing:
    """The runtimes with a hook source for `project`, their hooks joined with `streams`."""
    inv = inventory(runtimes, project=project, environ=environ)
    argvs: dict[UseKey, set[tuple[str, ...]]] = {}
    join(inv.hooks, _noting(uses(streams), argvs))
    installed_only(inv, explicit=runtimes is not None)
    recorded = {key: {shlex.join(argv) for argv in found} for key, found in argvs.items()}
    return Listing(inv, recorded)


def _noting(records: Iterable, argvs: dict[UseKey, set[tuple[str, ...]]]) -> Iterator:
    """The records, each one's argv noted under its hook's identity on the way (quoted
    once per distinct argv afterwards, not once per record)."""
    for use in records:
        argv = use.hook.argv
        argvs.setdefault((use.runtime, use.native_event, command_of(argv)), set()).add(tuple(argv))
        yield use


def no_calls(hook: Hook) -> str | None:
    """Why the streams hold no call of `hook` (None: they hold some)."""
    if hook.ignored:
        return f"the runtime never runs it: {hook.ignored}"
    if not hook.wrapped:
        return "not wrapped: hooktui cannot see its calls (`hooktui install` wraps it)"
    if hook.usage is None or not hook.usage.calls:
        return "never fired in the streams shown (since install)"
    return None


def calls_filter(hook: Hook, recorded: Mapping[UseKey, set[str]]) -> str | None:
    """The filter expression selecting exactly `hook`'s calls, or None when it has none.

    Runtime, native event and the command line the records carry, each exact: the
    calls the inventory counted for it (an identical hook under another matcher
    shares them, as the runtime's records cannot tell them apart).
    """
    lines = sorted(recorded.get((hook.runtime, hook.event, hook.command), ()))
    if not lines or no_calls(hook) is not None:
        return None
    commands = [group_filter("command", line) for line in lines]
    command = commands[0] if len(commands) == 1 else f"({' or '.join(commands)})"
    return f"{group_filter('runtime', hook.runtime)} {group_filter('native', hook.event)} {command}"
