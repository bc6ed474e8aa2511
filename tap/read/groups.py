"""Patterns in the shown calls: groups by one field, and a per-minute timeline by decision.

UI-free, and fed one call at a time, so `show --group-by` streams a file of any
size and watch's patterns view reads the same numbers (and adds the calls that
arrive without starting over). A guard that misfires shows as a group with a
high deny rate; one that started at 14:02 as a timeline whose deny row jumps
there. `group_filter` is the filter expression that selects one group, so
choosing a group in watch is a filter the user can read and edit.
"""

from __future__ import annotations

import math
import re
import shlex
from array import array
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from hooktui.tap.canonical import DECISIONS, fails_open
from hooktui.tap.model import RecordHead
from hooktui.tap.read.filter_terms import TEXT_TERMS, getter, term_named
from hooktui.tap.read.merge import end_time
from hooktui.tap.read.tally import nearest_rank

# What calls can be grouped by: every text term of the filter language.
GROUP_FIELDS = TEXT_TERMS
SORT_KEYS = ("count", "deny", "fail_open", "p95", "name")
# The longest timeline kept: a week of minutes.
MAX_TIMELINE_MINUTES = 7 * 24 * 60


class Group:
    """The calls that share one value of the grouped field (for `hook`: one hook)."""

    __slots__ = ("_sorted", "count", "deny", "durations", "fail_open", "key", "terms")

    def __init__(self, key: str, terms: tuple[tuple[str, str], ...] = ()) -> None:
        self.key = key  # what a person reads
        self.terms = terms  # (term, value) pairs naming the group, when one value does not
        self.count = 0
        self.deny = 0
        self.fail_open = 0
        self.durations = array("d")
        self._sorted: list[float] | None = None  # durations sorted, until the next call

    @property
    def deny_rate(self) -> float:
        return self.deny / self.count if self.count else 0.0

    @property
    def fail_open_rate(self) -> float:
        return self.fail_open / self.count if self.count else 0.0

    def percentile(self, p: float) -> float | None:
        if self._sorted is None:
            self._sorted = sorted(self.durations)
        return nearest_rank(self._sorted, p)

    def filter(self, by: str) -> str:
        """The filter expression selecting exactly this group's calls."""
        if not self.terms:
            return group_filter(by, self.key)
        return " ".join(group_filter(term, value) for term, value in self.terms)

    def as_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            **dict(self.terms),
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
        self._value = _hook_identity if term.name == "hook" else getter(term)
        self._groups: dict[object, Group] = {}

    def add(self, head: RecordHead) -> None:
        key = self._value(head)
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = _hook_group(key) if self.by == "hook" else Group(key)
        group.count += 1
        if head.decision == "deny":
            group.deny += 1
        elif fails_open(head.decision, head.effect):
            group.fail_open += 1
        group.durations.append(head.duration_ms)
        group._sorted = None

    def add_all(self, heads: Iterable[RecordHead]) -> None:
        for head in heads:
            self.add(head)

    def __len__(self) -> int:
        return len(self._groups)

    @property
    def calls(self) -> int:
        return sum(g.count for g in self._groups.values())

    def rows(self, sort: str = "count", reverse: bool = False) -> list[Group]:
        """The groups, most calls first by default (`sort`: one of SORT_KEYS)."""
        return sorted(self._groups.values(), key=_sort_key(sort), reverse=reverse)


def _hook_identity(head: RecordHead) -> tuple[str, str, tuple[str, ...]]:
    """Which hook answered: the same label may name other commands, or another runtime's."""
    return (head.runtime, head.hook.label, tuple(head.hook.argv))


def _hook_group(identity: tuple[str, str, tuple[str, ...]]) -> Group:
    runtime, label, argv = identity
    command = shlex.join(argv)
    key = " · ".join(part for part in (label or "(no label)", runtime, command) if part)
    return Group(key, (("hook", label), ("runtime", runtime), ("command", command)))


class Minute(NamedTuple):
    start: float  # epoch seconds of the minute's first second
    decisions: dict[str, int]  # calls per decision that answered in that minute

    @property
    def total(self) -> int:
        return sum(self.decisions.values())


class Timeline:
    """Calls per minute by decision, by when each hook answered; fed one call at a time."""

    def __init__(self) -> None:
        self._buckets: dict[int, Counter[str]] = {}

    def add(self, head: RecordHead) -> None:
        t = end_time(head)
        if not math.isfinite(t):
            return  # no time: not on the timeline
        minute = int(t // 60)
        bucket = self._buckets.get(minute)
        if bucket is None:
            bucket = self._buckets[minute] = Counter()
        bucket[head.decision] += 1

    def add_all(self, heads: Iterable[RecordHead]) -> None:
        for head in heads:
            self.add(head)

    def minutes(self, minutes: int | None = None) -> list[Minute]:
        """Every minute from the first call's to the newest's, quiet minutes included.

        `minutes` keeps only the newest that many (at most MAX_TIMELINE_MINUTES).
        """
        buckets = self._buckets
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


def timeline(heads: Iterable[RecordHead], minutes: int | None = None) -> list[Minute]:
    """Calls per minute by decision, by when each hook answered, quiet minutes included.

    `minutes` keeps only the newest that many (ending at the newest call; at
    most MAX_TIMELINE_MINUTES). Calls without a time are left out.
    """
    line = Timeline()
    line.add_all(heads)
    return line.minutes(minutes)


class Patterns:
    """Watch's patterns view: the shown calls grouped by one field, and their timeline."""

    def __init__(self, by: str) -> None:
        self.groups = Groups(by)
        self.timeline = Timeline()
        self.calls = 0

    @property
    def by(self) -> str:
        return self.groups.by

    def add_all(self, heads: Iterable[object]) -> None:
        """Count the calls among `heads` (a bad line has no fields: it is left out)."""
        groups, line = self.groups, self.timeline
        for head in heads:
            if isinstance(head, RecordHead):
                groups.add(head)
                line.add(head)
                self.calls += 1


# A value the filter language reads bare: no space, quote, parenthesis or
# leading negation sign (anything else is quoted).
_BARE_VALUE = re.compile(r'[^\s"()!\-][^\s"()]*')


def group_filter(by: str, key: str) -> str:
    """The filter expression selecting exactly the calls of group `key` (`hook=guard`).

    Exact, case-insensitive (the filter's `=`); an empty key is `hook=""`.
    """
    term = term_named(by)
    if term is None:
        raise ValueError(f"no filter term '{by}'")
    if _BARE_VALUE.fullmatch(key):
        return f"{term.name}={key}"
    escaped = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'{term.name}="{escaped}"'


def narrow_filter(current: str, term: str) -> str:
    """`current` and `term`: the current filter, narrowed to one group."""
    current = current.strip()
    if not current:
        return term
    # "a or b" and a term would read "a or (b and term)": keep the current filter whole.
    if re.search(r"(?i)(^|[\s)])or($|[\s(])", current):
        current = f"({current})"
    return f"{current} {term}"


def _decisions(buckets: dict[int, Counter[str]]) -> list[str]:
    seen = set().union(*buckets.values())
    return [d for d in DECISIONS if d in seen] + sorted(seen - set(DECISIONS))
