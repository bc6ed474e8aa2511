"""Which records a `--policy` stands in for: those of the hook it replaces.

A stream holds the calls of every hook the user installed (a guard, a formatter, a
logger; pre- and post-tool events; several runtimes). A policy is an edited version of
one of them, so only that hook's records are fed to it:

- one hook in the selection: all of it;
- `--hook NAME`: that hook's records (`--hook all`: every record);
- otherwise the hook whose name is the policy's script name (`python3 ~/g/guard.py`
  replaces the hook named guard.py, however it was invoked);
- otherwise the choice is the user's: SelectionError lists the hooks.

A hook's name is its label (what `watch` shows and `hook:` filters on), else the
script its command runs. The records left out are counted by hook so the report can
say what was not replayed and how to include it.
"""

from __future__ import annotations

from collections import Counter

import msgspec
from hooktui.replay.session import SessionError, SessionRecord, plural
from hooktui.tap.command import script_name, split_words
from hooktui.tap.model import Record

ALL = "all"
UNNAMED = "(unnamed)"


class Selection(msgspec.Struct, kw_only=True):
    records: list[SessionRecord]
    left_out: dict[str, int] = {}  # hook name -> records not selected
    hint: str = ""  # how to include them


def hook_name(record: Record) -> str:
    return record.hook.label or script_name(record.hook.argv) or UNNAMED


def _names(record: Record) -> set[str]:
    """Every name a hook answers to: its label and its script."""
    names = {hook_name(record)}
    script = script_name(record.hook.argv)
    if script:
        names.add(script)
    return names


def _listing(counts: Counter) -> str:
    return ", ".join(f"{name} ({n})" for name, n in counts.most_common())


def select_hook(records: list[SessionRecord], policy: str | None, hook: str | None) -> Selection:
    """The records of the hook `policy` replaces (see the module text)."""
    if hook == ALL or (policy is None and hook is None):
        return Selection(records=list(records))
    counts = Counter(hook_name(e.record) for e in records)
    if hook is not None:
        kept = [e for e in records if hook in _names(e.record)]
        if not kept:
            raise SessionError(f"--hook {hook!r}: no records of that hook ({_listing(counts)})")
        return _split(records, kept, f"--hook {ALL}")
    if len(counts) <= 1:
        return Selection(records=list(records))
    target = script_name(split_words(policy or ""))
    matching = {hook_name(e.record) for e in records if target in _names(e.record)}
    if len(matching) == 1:
        kept = [e for e in records if hook_name(e.record) in matching]
        return _split(records, kept, f"--hook {ALL}")
    raise SessionError(
        f"the selection holds calls of {plural(len(counts), 'hook')} ({_listing(counts)}): "
        f"say which one --policy replaces with --hook NAME, or --hook {ALL} for every record"
    )


def _split(records: list[SessionRecord], kept: list[SessionRecord], hint: str) -> Selection:
    ids = {id(e) for e in kept}
    left = Counter(hook_name(e.record) for e in records if id(e) not in ids)
    return Selection(records=kept, left_out=dict(left.most_common()), hint=hint if left else "")


def keep_hooks(
    seen: dict[str, tuple[set[str], int]], policy: str | None, hook: str | None, *, whole: bool
) -> tuple[frozenset[str] | None, str]:
    """`select_hook`'s choice made from counts: (the hook names to replay, None for all;
    the hint for the rest). `seen`: hook name -> (every name it answers to, records).

    `whole` is false for one part of a fleet replay (`--part K/N`), which cannot know
    whether the whole selection holds one hook: there the policy replaces the hook
    named like its script, and a part without one replays nothing of it.
    """
    counts = Counter({name: n for name, (_, n) in seen.items()})
    if hook == ALL or (policy is None and hook is None):
        return None, ""
    if hook is not None:
        keep = frozenset(name for name, (names, _) in seen.items() if hook in names)
        if not keep and whole:
            raise SessionError(f"--hook {hook!r}: no records of that hook ({_listing(counts)})")
    elif whole and len(counts) <= 1:
        return None, ""
    else:
        target = script_name(split_words(policy or ""))
        keep = frozenset(name for name, (names, _) in seen.items() if target in names)
        if len(keep) != 1 and (whole or keep):
            raise SessionError(
                f"the selection holds calls of {plural(len(counts), 'hook')} "
                f"({_listing(counts)}): say which one --policy replaces with --hook NAME, "
                f"or --hook {ALL} for every record"
            )
    return keep, f"--hook {ALL}" if set(counts) - keep else ""
