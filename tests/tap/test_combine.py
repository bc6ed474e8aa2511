"""The merge engine: several hooks' answers on one call -> the call's outcome, by a rule.

The rules here are built by hand to pin the engine's steps; each runtime's own rule
is pinned against its real CLI in tests/tap/test_merge_rules.py and tests/e2e.
"""

from __future__ import annotations

from hooktui.tap.canonical import UNSET
from hooktui.tap.runtimes.combine import Answer, combine
from hooktui.tap.runtimes.merge import MergeRule

FINISH = MergeRule(rewrite="last_finished", basis="test", unknown="")
LEADING = MergeRule(rewrite="last_leading", basis="test", unknown="")
IN_ORDER = MergeRule(rewrite="last_in_order", reason="first_in_order", basis="test", unknown="")
CHAIN = MergeRule(
    runs="sequential", chained=True, stops_at=("deny",), rewrite="chained", basis="t", unknown=""
)


def answer(key, decision, start=0.0, end=1.0, position=None, **more) -> Answer:
    return Answer(key=key, decision=decision, started=start, ended=end, position=position, **more)


def test_no_hooks_lets_the_call_go_ahead() -> None:
    out = combine([], FINISH)
    assert out.decision == "allow" and out.lets_through and out.decided_by == ""


def test_a_deny_beats_an_allow_whatever_the_order() -> None:
    for first, second in (("deny", "allow"), ("allow", "deny")):
        out = combine([answer("a", first, reason="A"), answer("b", second, reason="B")], FINISH)
        assert out.decision == "deny" and not out.lets_through
        denier = "a" if first == "deny" else "b"
        assert out.decided_by == denier
        assert out.overridden == ("b" if denier == "a" else "a",)
        assert out.conflicts == ("disagree", "overridden")


def test_precedence_deny_defer_ask_allow() -> None:
    votes = ["allow", "ask", "defer"]
    out = combine([answer(v, v) for v in votes], FINISH)
    assert out.decision == "defer" and out.decided_by == "defer"
    out = combine([answer(v, v) for v in ["allow", "ask"]], FINISH)
    assert out.decision == "ask"


def test_a_failure_that_blocks_counts_as_a_deny_and_one_that_proceeds_not_at_all() -> None:
    blocking = answer("a", "failure", effect="blocks", reason="crashed")
    out = combine([blocking, answer("b", "allow")], FINISH)
    assert out.decision == "deny" and out.decided_by == "a"
    passing = answer("a", "failure", effect="proceeds")
    out = combine([passing, answer("b", "allow")], FINISH)
    assert out.decision == "allow" and out.decided_by == "b" and out.conflicts == ()
    out = combine([passing], FINISH)
    assert out.decision == "allow" and out.decided_by == ""
    assert any("no hook gave a decision" in n for n in out.notes)


def test_last_finished_rewrite_wins_and_is_a_race() -> None:
    slow = answer("a", "modify", start=0, end=2, updated_input={"command": "a"})
    fast = answer("b", "modify", start=0, end=1, updated_input={"command": "b"})
    out = combine([slow, fast], FINISH)
    assert out.decision == "modify" and out.updated_input == {"command": "a"}
    assert out.rewritten_by == "a" and out.overridden == ("b",)
    assert "rewrite_race" in out.conflicts


def test_last_in_order_rewrite_wins_whoever_finishes_last() -> None:
    first = answer("a", "modify", end=5, position=0, updated_input={"command": "a"})
    second = answer("b", "modify", end=1, position=1, updated_input={"command": "b"})
    out = combine([first, second], IN_ORDER)
    assert out.updated_input == {"command": "b"} and out.rewritten_by == "b"
    assert "rewrite_clash" in out.conflicts and "rewrite_race" not in out.conflicts


def test_same_rewrites_are_no_conflict() -> None:
    same = {"command": "x"}
    out = combine(
        [
            answer("a", "modify", updated_input=same),
            answer("b", "modify", end=2, updated_input=same),
        ],
        FINISH,
    )
    assert out.decision == "modify" and "rewrite_race" not in out.conflicts


def test_a_deny_drops_every_rewrite() -> None:
    out = combine(
        [answer("a", "deny"), answer("b", "modify", end=3, updated_input={"c": 1})], FINISH
    )
    assert out.decision == "deny" and out.updated_input is UNSET and out.rewritten_by == ""
    assert out.overridden == ("b",)


def test_last_leading_keeps_a_rewrite_made_before_an_ask_and_drops_one_made_after() -> None:
    rewrite_first = answer("a", "modify", end=1, updated_input={"c": "a"})
    ask_later = answer("b", "ask", end=2, reason="sure?")
    out = combine([rewrite_first, ask_later], LEADING)
    assert out.decision == "ask" and out.updated_input == {"c": "a"}
    ask_first = answer("b", "ask", end=1)
    rewrite_later = answer("a", "modify", end=2, updated_input={"c": "a"})
    out = combine([ask_first, rewrite_later], LEADING)
    assert out.decision == "ask" and out.updated_input is UNSET


def test_sequential_stops_at_the_first_deny_and_flags_hooks_that_ran_after() -> None:
    a = answer("a", "deny", start=0, end=1, reason="no")
    b = answer("b", "allow", start=2, end=3)
    out = combine([a, b], CHAIN)
    assert out.decision == "deny" and out.decided_by == "a"
    assert "after_stop" in out.conflicts


def test_chained_last_rewrite_stands_and_a_silent_hook_keeps_it() -> None:
    a = answer("a", "modify", start=0, end=1, updated_input={"c": "a"})
    b = answer("b", "allow", start=2, end=3)
    out = combine([a, b], CHAIN)
    assert out.decision == "modify" and out.rewritten_by == "a"
    c = answer("c", "modify", start=4, end=5, updated_input={"c": "c"})
    out = combine([a, b, c], CHAIN)
    assert out.rewritten_by == "c" and "rewrite_clash" in out.conflicts


def test_joined_reasons_take_every_hooks_reason_in_order() -> None:
    rule = MergeRule(rewrite="last_in_order", reason="joined", basis="t", unknown="")
    out = combine(
        [
            answer("a", "deny", position=0, reason="A no"),
            answer("b", "allow", position=1, reason="B ok"),
        ],
        rule,
    )
    assert out.reason == "A no\nB ok"


def test_ignored_rewrites_never_carry() -> None:
    rule = MergeRule(rewrite="ignored", basis="t", unknown="")
    out = combine([answer("a", "modify", updated_input={"c": 1})], rule)
    assert out.decision == "allow" and out.updated_input is UNSET


def test_an_unknown_rule_reads_any_deny_blocks_and_says_so() -> None:
    out = combine([answer("a", "allow"), answer("b", "deny")], MergeRule(unknown="no CLI"))
    assert out.decision == "deny" and any("not known" in n for n in out.notes)
