"""Watch's tool calls, kept beside the view: every indexed line grouped, and which calls the
filter shows. No Textual here: the tool-call view (tool_calls.py) feeds it in a worker.

Grouping takes every line of the streams, not only the shown ones (a call's hooks
belong together whatever the filter says); a call is shown when one of its hooks
matches the filter, each hook's head marked with what its call came to, so the
filter's `call:`, `conflict:`, `role:` and `hooks` terms work (as `show --calls`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

import msgspec
from hooktui.tap.read.index_heads import FileHeads
from hooktui.tap.toolcall.group import Grouper, marks
from hooktui.tap.toolcall.model import CallHead, ToolCall, call_head_decoder

Key = tuple[int, int]  # (source, offset) of a line


class Job(NamedTuple):
    """What one worker run does: start over, group these lines, test the filter again."""

    generation: int
    restart: bool
    keys: list[Key]
    predicate: Callable[[Any], bool] | None
    marked: frozenset[Key] | None  # marked-only: the marked lines; None: all


class Grouped(NamedTuple):
    """What a run hands back to the UI thread, a chunk of lines at a time."""

    generation: int
    calls: list[ToolCall]  # every call, in the order its first hook started
    shown: set[str]  # the keys of the calls the filter shows
    # The calls this chunk changed, by key (new ones, ones a hook joined); None: any
    # may have (started over, another filter): the rows are laid out again.
    changed: dict[str, ToolCall] | None
    done: bool  # the run's last chunk


# Lines grouped between two hand-overs: the first rows come before a big stream is done.
CHUNK = 20_000


class CallGroups:
    """Tool calls of the lines fed so far, and where each hook call's line is."""

    def __init__(self, paths: list[str]) -> None:
        self.files = FileHeads(paths, size=0)
        self.restart()

    def restart(self) -> None:
        self.grouper = Grouper()
        self.heads: dict[str, CallHead] = {}  # record id -> its head, marked
        self.where: dict[str, Key] = {}  # record id -> its line
        self.at: dict[Key, str] = {}  # its line -> record id
        self.shown: set[str] = set()
        self._filter: tuple | None = None

    def runs(self, job: Job, chunk: int = CHUNK) -> Iterator[Grouped]:
        """Group the job's lines a chunk at a time, each chunk's result as it is done."""
        if job.restart:
            self.restart()
        anew = job.restart or (job.predicate, job.marked) != self._filter
        self._filter = (job.predicate, job.marked)
        keys = job.keys
        starts = range(0, len(keys), chunk) if keys else range(1)
        for start in starts:
            changed = self._feed(keys[start : start + chunk])
            calls = self.grouper.calls()
            if anew:  # every call tested (again)
                self.shown = set()
                self._test(calls, job.predicate, job.marked)
                done_calls = None
            else:
                done_calls = {k: c for k in changed if (c := self.grouper.call_of(k))}
                self._test(list(done_calls.values()), job.predicate, job.marked)
            last = start + chunk >= len(keys)
            yield Grouped(job.generation, calls, set(self.shown), done_calls, last)
            anew = False

    def _feed(self, keys: list[Key]) -> set[str]:
        heads: list[CallHead] = []
        decode = call_head_decoder.decode
        for key, line in zip(keys, self.files.lines(keys), strict=True):
            if line is None or key in self.at:
                continue
            try:
                head = decode(line)
            except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
                continue  # a bad line is no hook call
            if head.id in self.heads:
                continue  # the same record twice (a stream given twice): one call
            heads.append(head)
            self.heads[head.id] = head
            self.where[head.id] = key
            self.at[key] = head.id
        return self.grouper.add(heads) if heads else set()

    def _test(self, calls: Iterable[ToolCall], predicate, marked) -> None:
        heads, where = self.heads, self.where
        for rid, mark in marks(calls).items():
            heads[rid].toolcall = mark
        for call in calls:
            ids = [p.id for p in call.parts]
            shown = (predicate is None or any(predicate(heads[i]) for i in ids)) and (
                marked is None or any(where[i] in marked for i in ids)
            )
            if shown:
                self.shown.add(call.key)
            else:
                self.shown.discard(call.key)
