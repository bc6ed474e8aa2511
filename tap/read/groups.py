"""Patterns in the shown calls: groups by one field, and a per-minute timeline by decision.

UI-free, and fed one call at a time, so `show --group-by` streams a file of any
size and watch's group view reads the same numbers. A guard that misfires shows
as a group with a high deny rate; one that started at 14:02 as a timeline whose
deny column jumps there.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from hooktui.tap.model import DECISIONS, RecordHead
from hooktui.tap.read.filter_terms import TEXT_TERMS, getter, term_named
from hooktui.tap.read.reader import end_time
from hooktui.tap.read.stats import is_fail_open, nearest_rank

# What calls can be grouped by: every text term of the filter language.
GROUP_FIELDS = TEXT_TERMS
SORT_KEYS = ("count", "deny", "fail_open", "p95", "name")
# The longest timeline kept: a week of minutes.
MAX_TIMELINE_MINUTES = 7 * 24 * 60


class Group:
    """The calls that share one value of the grouped field."""

    __slots__ = ("count", "deny", "durations", "fail_open", "key")

    def __init__(self, key: str) -> None:
        self.key = key
        self.count = 0
        self.deny = 0
        self.fail_open = 0
        self.durations = array("d")

    @property
    def deny_rate(self) -> float:
        return self.deny / self.count if self.count else 0.0

    @property
    def fail_open_rate(self) -> float:
        return self.fail_open / self.count if self.count else 0.0

    def percentile(self, p: float) -> float | None:
        return nearest_rank(sorted(self.durations), p)

    def as_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "count": self.count,
            "deny": self.deny,
            "deny_rate": round(self.deny_rate, 4),
            "fail_open": self.fail_open,
            "fail_open_rate": round(self.fail_open_rate, 4),
            "p50_ms": self.percentile(50),
            "p95_ms": self.percentile(95),
        }


def _sort_key(name: str):
    if name == "name":
        return lambda g: g.key
    if name == "count":
        return lambda g: (-g.count, g.key)
    if name == "deny":
        return lambda g: (-g.deny_rate, -g.count, g.key)
    if name == "fail_open":
        return lambda g: (-g.fail_open_rate, -g.count, g.key)
    if name == "p95":
        return lambda g: (-(g.percentile(95) or 0.0), -g.count, g.key)
    raise ValueError(f"cannot sort groups by '{name}' (one of: {', '.join(SORT_KEYS)})")


class Groups:
    """Calls grouped by one field (`hook`, `tool`, `decision`, `reason`, `failure` ...)."""

    def __init__(self, by: str) -> None:
        term = term_named(by)
        if term is None or term.name not in GROUP_FIELDS:
            raise ValueError(f"cannot group by '{by}' (one of: {', '.join(GROUP_FIELDS)})")
        self.by = term.name
        self._value = getter(term)
        self._groups: dict[str, Group] = {}

    def add(self, head: RecordHead) -> None:
        key = self._value(head)
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = Group(key)
        group.count += 1
        if head.decision == "deny":
            group.deny += 1
        elif is_fail_open(head):
            group.fail_open += 1
        group.durations.append(head.duration_ms)

    def add_all(self, heads: Iterable[RecordHead]) -> None:
        for head in heads:
            self.add(head)

    def __len__(self) -> int:
        return len(self._groups)

    def rows(self, sort: str = "count", reverse: bool = False) -> list[Group]:
        """The groups, most calls first by default (`sort`: one of SORT_KEYS)."""
        return sorted(self._groups.values(), key=_sort_key(sort), reverse=reverse)


def group_calls(heads: Iterable[RecordHead], by: str, sort: str = "count") -> list[Group]:
    groups = Groups(by)
    groups.add_all(heads)
    return groups.rows(sort)


class Minute(NamedTuple):
    start: float  # epoch seconds of the minute's first second
    decisions: dict[str, int]  # calls per decision that answered in that minute

    @property
    def total(self) -> int:
        return sum(self.decisions.values())


def timeline(heads: Iterable[RecordHead], minutes: int | None = None) -> list[Minute]:
    """Calls per minute by decision, by when each hook answered, quiet minutes included.

    `minutes` keeps only the newest that many (ending at the newest call; at
    most MAX_TIMELINE_MINUTES). Calls without a time are left out.
    """
    buckets: dict[int, Counter[str]] = {}
    for head in heads:
        t = end_time(head)
        if not math.isfinite(t):
            continue
        minute = int(t // 60)
        bucket = buckets.get(minute)
        if bucket is None:
            bucket = buckets[minute] = Counter()
        bucket[head.decision] += 1
    if not buckets:
        return []
    last = max(buckets)
    # A stray year-1 timestamp must not make a billion quiet minutes.
    span = min(minutes or MAX_TIMELINE_MINUTES, MAX_TIMELINE_MINUTES)
    first = max(min(buckets), last - span + 1)
    empty: Counter[str] = Counter()
    names = _decisions(buckets)
    return [
        Minute(m * 60.0, {d: buckets.get(m, empty)[d] for d in names})
        for m in range(first, last + 1)
    ]


def _decisions(buckets: dict[int, Counter[str]]) -> list[str]:
    seen = set().union(*buckets.values())
    return [d for d in DECISIONS if d in seen] + sorted(seen - set(DECISIONS))
