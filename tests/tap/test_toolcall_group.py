"""Grouping hook calls into tool calls, and each call's outcome by its runtime's rule."""

from __future__ import annotations

import msgspec
from hooktui.tap.model import Held
from hooktui.tap.toolcall.group import group, marks

from tests.records import record
from tests.tap.fixtures import request


def claude(i, second, event="PreToolUse", decision="allow", call_id="toolu_1", **more):
    req = request("claude_pre_bash" if event == "PreToolUse" else "claude_post_bash")
    req["tool_use_id"] = call_id
    return record(
        id=f"r{i}",
        ts=f"2026-12-07T10:00:{second:06.3f}Z",
        duration_ms=100.0,
        event="pre_tool_use" if event == "PreToolUse" else "post_tool_use",
        native_event=event,
        tool_call_id=call_id,
        session_id=req["session_id"],
        decision=decision,
        request=req,
        **more,
    )


def test_hooks_of_one_call_id_group_with_their_post_event() -> None:
    calls = group(
        [
            claude(1, 0.0, decision="deny", reason="no"),
            claude(2, 0.05, decision="allow"),
            claude(3, 5.0, event="PostToolUse"),
            claude(4, 9.0, call_id="toolu_2"),
        ]
    )
    assert [c.key for c in calls] == ["r1", "r4"]
    first = calls[0]
    assert [s.native_event for s in first.steps] == ["PreToolUse", "PostToolUse"]
    assert first.decision == "deny" and first.hooks == 3
    assert first.conflicts == ["disagree", "overridden"]
    roles = {p.id: p.role for p in first.parts}
    assert roles == {"r1": "decided", "r2": "overridden", "r3": "decided"}  # r3: the post step


def test_marks_give_each_record_its_calls_outcome() -> None:
    calls = group([claude(1, 0.0, decision="deny"), claude(2, 0.01)])
    got = marks(calls)
    assert got["r1"].decision == got["r2"].decision == "deny"
    assert got["r2"].role == "overridden" and got["r1"].hooks == 2
    assert got["r1"].conflicts == "disagree overridden"


def copilot(i, second, timestamp, decision="allow", tool_input=None, **more):
    req = request("copilot_pre_bash")
    req["timestamp"] = timestamp
    if tool_input is not None:
        req["toolArgs"] = tool_input
    return record(
        id=f"c{i}",
        runtime="copilot",
        ts=f"2026-12-07T10:00:{second:06.3f}Z",
        duration_ms=50.0,
        native_event="preToolUse",
        session_id=req["sessionId"],
        tool_name=req["toolName"],
        decision=decision,
        request=req,
        **more,
    )


def test_without_a_call_id_the_runtimes_call_keys_group_a_sequential_chain() -> None:
    # Copilot: the second hook sees the first one's rewrite; both share the timestamp.
    first = copilot(1, 0.0, 1796660123701, decision="modify", updated_input={"command": "a"})
    second = copilot(2, 0.2, 1796660123701, tool_input={"command": "a"})
    other = copilot(3, 0.3, 1796660129999)
    calls = group([first, second, other])
    assert [c.key for c in calls] == ["c1", "c3"]
    step = calls[0].steps[0]
    assert step.decision == "modify" and step.updated_input == {"command": "a"}
    assert step.rewritten_by == "c1"


def test_the_same_request_later_than_the_window_is_another_call() -> None:
    a = copilot(1, 0.0, 111)
    b = copilot(2, 30.0, 111)  # same keys, 30 s later: the rule's window is 2 s
    assert len(group([a, b])) == 2


def test_a_breakpoints_answer_is_what_the_call_got() -> None:
    held = {
        "released_by": "person",
        "action": "deny",
        "sent": {"decision": "deny", "reason": "a person said no", "exit_code": 2},
    }
    held = msgspec.convert(held, Held)
    calls = group([claude(1, 0.0, decision="allow", held=held), claude(2, 0.01)])
    assert calls[0].decision == "deny"
    assert calls[0].steps[0].reason == "a person said no"


def test_tool_calls_encode_to_json_and_back() -> None:
    from hooktui.tap.toolcall.model import ToolCall

    calls = group([claude(1, 0.0, decision="deny", reason="no"), claude(2, 0.01)])
    again = msgspec.json.decode(msgspec.json.encode(calls), type=list[ToolCall])
    assert again == calls


def test_a_live_grouper_combines_a_call_again_when_a_hook_joins_it() -> None:
    from hooktui.tap.toolcall.group import Grouper

    grouper = Grouper()
    assert grouper.add([claude(1, 0.0, decision="allow")]) == {"r1"}
    assert grouper.call_of("r1").decision == "allow"
    # The second hook of the same call answers later: the call's outcome changes.
    assert grouper.add([claude(2, 0.05, decision="deny", reason="no")]) == {"r1"}
    call = grouper.call_of("r2")
    assert call.key == "r1" and call.decision == "deny" and call.hooks == 2
    grouper.add([claude(3, 9.0, call_id="toolu_2")])
    assert [c.key for c in grouper.calls()] == ["r1", "r3"] and len(grouper) == 2
