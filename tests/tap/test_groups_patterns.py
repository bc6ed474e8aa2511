"""Watch's patterns model, UI-free: groups fed in steps, the timeline, the filter for one group."""

from __future__ import annotations

import pytest
from hooktui.tap.model import HookHead
from hooktui.tap.read.decode import BadLine
from hooktui.tap.read.filter import compile_filter
from hooktui.tap.read.groups import (
    Groups,
    Patterns,
    Timeline,
    group_filter,
    narrow_filter,
    timeline,
)

from tests import records


def head(i: int, **kw):
    fields = dict(id=f"r{i}", ts=f"2026-03-01T14:{i // 60:02d}:{i % 60:02d}Z", duration_ms=10.0)
    fields.update(kw)
    return records.head(**fields)


AWKWARD = [
    "guard",
    "",
    "two words",
    'say "no"',
    "back\\slash",
    "(paren",
    "-dash",
    "!bang",
    "or",
    "tab\there",
    "line\nbreak",
    "UPPER",
    "*glob?",
]


def _heads():
    out = []
    for i, label in enumerate(AWKWARD):
        out.append(head(i, hook=HookHead(label=label), reason=label, tool_name=label))
        out.append(head(100 + i, hook=HookHead(label=label), reason=label, decision="deny"))
    out.append(head(200, decision="failure", failure="timeout", effect="proceeds"))
    out.append(head(201, decision="failure", failure="invalid_json", effect="blocks"))
    return out


@pytest.mark.parametrize("by", ["hook", "tool", "decision", "reason", "failure"])
def test_a_groups_filter_selects_exactly_its_calls(by):
    heads = _heads()
    groups = Groups(by)
    groups.add_all(heads)
    for group in groups.rows("count"):
        expr = group.filter(by)
        pred = compile_filter(expr)
        chosen = [h for h in heads if pred(h)]
        # Exact match is case-insensitive (the filter's `=`): the group, and any
        # group that differs from it only in case.
        mine = _value(next(h for h in heads if _in(h, group, by)), by)
        same = [h for h in heads if _value(h, by).lower() == mine.lower()]
        assert chosen == same, (by, group.key, expr)
        assert len(chosen) >= group.count


def _in(h, group, by) -> bool:
    if by == "hook":
        return dict(group.terms) == {
            "hook": h.hook.label,
            "runtime": h.runtime,
            "command": h.hook.command,
        }
    return _value(h, by) == group.key


def test_group_by_hook_keeps_runtimes_and_commands_apart():
    """Claude Code's and Codex's `PreToolUse:Bash` are two hooks; so are two commands."""
    label = "PreToolUse:Bash"
    guard, lint = ["python3", "/repo/guard.py"], ["sh", "-c", "npx lint --fix"]
    heads = [
        head(1, runtime="claude-code", hook=HookHead(label=label, argv=guard), decision="deny"),
        head(2, runtime="claude-code", hook=HookHead(label=label, argv=guard)),
        head(3, runtime="codex", hook=HookHead(label=label, argv=guard)),
        head(4, runtime="claude-code", hook=HookHead(label=label, argv=lint)),
    ]
    groups = Groups("hook")
    groups.add_all(heads)
    rows = groups.rows("count")
    assert [g.count for g in rows] == [2, 1, 1]
    assert rows[0].key == "PreToolUse:Bash · claude-code · python3 /repo/guard.py"
    assert rows[0].deny == 1
    assert rows[0].as_dict()["runtime"] == "claude-code"
    assert rows[0].as_dict()["command"] == "python3 /repo/guard.py"
    for group in rows:
        pred = compile_filter(group.filter("hook"))
        assert [h.id for h in heads if pred(h)] == [h.id for h in heads if _in(h, group, "hook")]
    (lint_group,) = [g for g in rows if "npx" in g.key]
    assert lint_group.filter("hook") == (
        "hook=PreToolUse:Bash runtime=claude-code command=\"sh -c 'npx lint --fix'\""
    )


def _value(h, by):
    if by == "hook":
        return f"{h.hook.label}\0{h.runtime}\0{h.hook.command}"
    return {
        "tool": h.tool_name,
        "decision": h.decision,
        "reason": h.reason,
        "failure": h.failure,
    }[by]


def test_group_filters_read_as_typed():
    assert group_filter("hook", "guard") == "hook=guard"
    assert group_filter("label", "guard") == "hook=guard"  # the term's own name
    assert group_filter("failure", "") == 'failure=""'
    assert group_filter("reason", 'say "no"') == 'reason="say \\"no\\""'
    with pytest.raises(ValueError):
        group_filter("nope", "x")


def test_narrowing_keeps_the_current_filter_whole():
    assert narrow_filter("", "hook=a") == "hook=a"
    assert narrow_filter("tool:Bash", "hook=a") == "tool:Bash hook=a"
    assert narrow_filter("tool:Bash or tool:Edit", "hook=a") == "(tool:Bash or tool:Edit) hook=a"
    assert narrow_filter("forward", "hook=a") == "forward hook=a"  # "or" inside a word
    heads = [
        head(1, tool_name="Bash", hook=HookHead(label="a")),
        head(2, tool_name="Edit", hook=HookHead(label="b")),
        head(3, tool_name="Read", hook=HookHead(label="a")),
    ]
    pred = compile_filter(narrow_filter("tool:Bash or tool:Read", "hook=a"))
    assert [h.id for h in heads if pred(h)] == ["r1", "r3"]
    pred = compile_filter(narrow_filter("tool:Bash or tool:Edit", "hook=b"))
    assert [h.id for h in heads if pred(h)] == ["r2"]


def test_patterns_fed_in_steps_equal_patterns_fed_at_once():
    heads = _heads()
    at_once = Patterns("hook")
    at_once.add_all(heads)
    in_steps = Patterns("hook")
    for i in range(0, len(heads), 5):
        in_steps.add_all(heads[i : i + 5])
    in_steps.add_all(
        [BadLine(offset=0, length=3, error="bad", preview="x")]
    )  # a bad line is no call
    assert in_steps.calls == at_once.calls == len(heads)
    assert in_steps.groups.calls == len(heads)

    def rows(p):
        return [(g.key, g.count, g.deny, g.fail_open, g.percentile(95)) for g in p.groups.rows()]

    assert rows(in_steps) == rows(at_once)
    assert in_steps.timeline.minutes() == at_once.timeline.minutes() == timeline(heads)


def test_a_groups_p95_follows_new_calls():
    patterns = Patterns("hook")
    patterns.add_all([head(i, duration_ms=float(i)) for i in range(1, 21)])
    (group,) = patterns.groups.rows()
    assert group.percentile(95) == 19.0
    patterns.add_all([head(30, duration_ms=1000.0) for _ in range(5)])
    assert group.percentile(95) == 1000.0  # not a stale sorted copy


def test_the_timeline_shows_when_a_guard_started_denying():
    # Allowed calls every 10 s from 14:00; from 14:02 the guard denies everything.
    heads = [head(s, decision="deny" if s >= 120 else "allow") for s in range(0, 300, 10)]
    line = Timeline()
    line.add_all(heads)
    minutes = line.minutes()
    assert [m.decisions["deny"] for m in minutes] == [0, 0, 6, 6, 6]
    assert [m.decisions["allow"] for m in minutes] == [6, 6, 0, 0, 0]
    assert line.minutes(2) == minutes[-2:]
    line.add(head(9, ts="garbage"))  # no time: not on the timeline
    assert line.minutes() == minutes
