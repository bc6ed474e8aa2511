"""The inventory joined with the streams: how often each configured hook fired.

A record names its hook by the command the tap ran (`hook.argv`: the wrapped line
runs the original as `<shell> -c <original>`), its runtime and its event; that is
matched with a configured hook's own command. Only wrapped hooks have records: an
unwrapped one is never seen by hooktui, and says so.
"""

from __future__ import annotations

import math
import os
import shlex
from collections.abc import Iterable, Iterator

import msgspec
from hooktui.tap.canonical import fails_open
from hooktui.tap.inventory import match
from hooktui.tap.inventory.model import Hook, Usage
from hooktui.tap.read.lines import LineChunks, open_input
from hooktui.tap.read.merge import parse_ts
from hooktui.tap.read.tally import nearest_rank
from hooktui.tap.runtimes import ADAPTERS


class _HookUse(msgspec.Struct):
    argv: list[str] = []


class _Use(msgspec.Struct):
    """The few fields of a record the join needs (decoding only these is cheap)."""

    ts: str = ""
    runtime: str = ""
    native_event: str = ""
    tool_name: str = ""
    decision: str = ""
    effect: str = ""
    duration_ms: float = 0.0
    hook: _HookUse = msgspec.field(default_factory=_HookUse)


_decode = msgspec.json.Decoder(_Use).decode


def uses(paths: Iterable[str]) -> Iterator[_Use]:
    """Every record of the streams (bad lines and missing streams skipped)."""
    for path in paths:
        try:
            fd = open_input(path)
        except OSError:
            continue
        try:
            for lines in LineChunks(fd):
                for _, line in lines:
                    try:
                        yield _decode(line)
                    except (msgspec.DecodeError, msgspec.ValidationError):
                        continue
        finally:
            os.close(fd)


def command_of(argv: list[str]) -> str:
    """The hook's own command as its settings write it, from the argv the tap ran."""
    if len(argv) == 3 and argv[1] == "-c":
        return argv[2]
    return shlex.join(argv)


def join(hooks: list[Hook], records: Iterable[_Use]) -> None:
    """Fill each wrapped hook's `usage` from the records (in place).

    One pass: besides each hook's own counts, the newest call of every tool per
    runtime and event, which is all "quiet since" needs (a hook is quiet when its
    matcher selects a tool called after its last call); keeping every record for
    that cost a scan of them all per hook.
    """
    wrapped = [h for h in hooks if h.wrapped and not h.ignored]
    by_key: dict[tuple[str, str, str], list[Hook]] = {}
    for hook in wrapped:
        by_key.setdefault((hook.runtime, hook.event, hook.command), []).append(hook)
    stats: dict[int, _Stats] = {id(h): _Stats() for h in wrapped}
    newest: dict[tuple[str, str], dict[str, float]] = {}  # (runtime, event) -> tool -> time
    commands: dict[tuple[str, ...], str] = {}
    for use in records:
        t = parse_ts(use.ts)
        if math.isfinite(t):
            tools = newest.setdefault((use.runtime, use.native_event), {})
            if t > tools.get(use.tool_name, -math.inf):
                tools[use.tool_name] = t
        argv = tuple(use.hook.argv)
        command = commands.get(argv)
        if command is None:  # a stream repeats a few command lines: quote each once
            command = commands[argv] = command_of(use.hook.argv)
        for hook in by_key.get((use.runtime, use.native_event, command), ()):
            stats[id(hook)].add(use, t)
    for hook in wrapped:
        hook.usage = stats[id(hook)].usage(hook, newest.get((hook.runtime, hook.event), {}))


class _Stats:
    __slots__ = ("calls", "last", "last_t", "denies", "fail_open", "durations")

    def __init__(self) -> None:
        self.calls = self.denies = self.fail_open = 0
        self.last, self.last_t = "", -math.inf
        self.durations: list[float] = []

    def add(self, use: _Use, t: float) -> None:
        self.calls += 1
        if math.isfinite(t) and t >= self.last_t:
            self.last, self.last_t = use.ts, t
        if use.decision == "deny" or (use.decision == "failure" and use.effect == "blocks"):
            self.denies += 1
        if fails_open(use.decision, use.effect):
            self.fail_open += 1
        self.durations.append(use.duration_ms)

    def usage(self, hook: Hook, tools: dict[str, float]) -> Usage:
        if not self.calls:
            return Usage(state="never fired since install")
        out = Usage(
            calls=self.calls,
            last=self.last,
            denies=self.denies,
            fail_open=self.fail_open,
            p95_ms=nearest_rank(sorted(self.durations), 95),
        )
        if self._missed_since(hook, tools):
            out.state = f"quiet since {self.last[:10]}"
        return out

    def _missed_since(self, hook: Hook, tools: dict[str, float]) -> bool:
        """Did the runtime call a tool this hook's matcher selects after its last call?
        (`tools`: the newest call of each tool at the hook's runtime and event.)"""
        runtime = ADAPTERS.get(hook.runtime)
        if runtime is None:
            return False
        return any(
            t > self.last_t + 1 and match.matches(runtime, hook.matcher, tool)
            for tool, t in tools.items()
        )
