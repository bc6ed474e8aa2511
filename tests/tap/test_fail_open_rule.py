"""A failure the runtime let through is decided in one place (canonical.fails_open):
the verdict, show's tally, watch's header over the index, the patterns' groups and the
hook inventory count the same calls, for every decision and effect a record may hold
(effects a record lacks or a reader does not know included)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from hooktui.tap.canonical import DECISIONS, EFFECTS, Verdict, fails_open
from hooktui.tap.inventory.model import Hook
from hooktui.tap.inventory.usage import join, uses
from hooktui.tap.model import HookHead
from hooktui.tap.read.groups import Groups
from hooktui.tap.read.index import batch_of
from hooktui.tap.read.stats import Stats
from hooktui.tap.read.view import CallView

from tests import records

# Every pair a reader can meet: the known words, none, and one from a newer tap.
PAIRS = list(itertools.product((*DECISIONS, "later"), (*EFFECTS, "", "later")))


def test_only_a_failure_that_does_not_block_fails_open() -> None:
    failing_open = [pair for pair in PAIRS if fails_open(*pair)]
    assert failing_open == [("failure", "proceeds"), ("failure", ""), ("failure", "later")]


def test_a_verdict_lets_through_what_fails_open_and_what_allows() -> None:
    for decision, effect in PAIRS:
        verdict = Verdict(decision=decision, effect=effect)
        allows = decision in ("allow", "modify", "replace")
        assert verdict.lets_through == (allows or fails_open(decision, effect)), (decision, effect)


def _heads(n: int = 3):
    """Each pair `n` times, in a different order each round (rows of one code interleave)."""
    out = []
    for k in range(n):
        for i, (decision, effect) in enumerate(PAIRS[k:] + PAIRS[:k]):
            out.append(
                records.head(
                    id=f"r{k}-{i}",
                    ts=f"2026-03-01T10:{k:02d}:{i % 60:02d}Z",
                    decision=decision,
                    effect=effect,
                    hook=HookHead(label=f"{decision}/{effect}"),
                )
            )
    return out


def test_every_count_of_calls_counts_the_same_fail_open_calls() -> None:
    heads = _heads()
    expected = sum(1 for h in heads if fails_open(h.decision, h.effect))
    assert expected == 9

    stats = Stats()
    stats.add_heads(heads)
    view = CallView(["s.jsonl"])
    view.replace_all(batch_of(0, [(i * 100, h) for i, h in enumerate(heads)]))
    groups = Groups("hook")
    groups.add_all(heads)

    assert stats.fail_open == view.stats.fail_open == expected
    # Each group holds one pair (its label): the group fails open on exactly those.
    for group in groups.rows("name"):
        decision, effect = dict(group.terms)["hook"].split("/")
        assert group.fail_open == (group.count if fails_open(decision, effect) else 0), group.key


def test_the_inventory_counts_the_same_fail_open_calls(tmp_path: Path) -> None:
    stream = tmp_path / "s.jsonl"
    lines = [
        json.dumps(
            {
                "runtime": "claude_code",
                "native_event": "PreToolUse",
                "decision": decision,
                "effect": effect,
                "hook": {"argv": ["sh", "-c", f"guard {decision} {effect}"]},
            }
        )
        for decision, effect in PAIRS
    ]
    stream.write_text("\n".join(lines) + "\n")
    hooks = [
        Hook(
            runtime="claude_code",
            scope="user",
            path="settings.json",
            where=f"hooks.PreToolUse[{i}]",
            position=i,
            event="PreToolUse",
            command=f"guard {decision} {effect}",
            wrapped=True,
        )
        for i, (decision, effect) in enumerate(PAIRS)
    ]
    join(hooks, uses([str(stream)]))
    for hook, (decision, effect) in zip(hooks, PAIRS, strict=True):
        assert hook.usage.calls == 1
        assert hook.usage.fail_open == int(fails_open(decision, effect)), (decision, effect)
