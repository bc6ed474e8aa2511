"""The filter language: every construct, precedence, case, and each error with its position."""

from __future__ import annotations

import pytest
from hooktui.tap.model import HookHead, RecordHead
from hooktui.tap.read.filter import compile_filter, describe_filter, is_empty_filter
from hooktui.tap.read.filter_tokens import FilterError

from tests import records


def head(**kw) -> RecordHead:
    base = dict(
        id="x",
        ts="2026-03-01T10:00:00Z",
        native_event="PreToolUse",
        summary="git status",
        duration_ms=20.0,
        exit_code=0,
        hook=HookHead(label="guard.py", timeout_ms=5000),
    )
    return records.head(base, **kw)


BASH_ALLOW = head(id="a")
BASH_DENY = head(
    id="b", decision="deny", reason="destructive command", summary="rm -rf /", exit_code=2
)
MCP_POST = head(
    id="c",
    runtime="codex",
    event="post_tool_use",
    native_event="PostToolUse",
    tool_name="mcp__github__create_issue",
    summary="create issue",
    duration_ms=750.0,
    session_id="sess-42",
    agent_id="agent-7",
)
PROMPT_TIMEOUT = head(
    id="d",
    runtime="gemini-cli",
    event="user_prompt",
    native_event="BeforeAgent",
    tool_name="",
    decision="failure",
    failure="timeout",
    effect="proceeds",
    summary="please refactor",
    duration_ms=60_000.0,
    exit_code=None,
    signal=9,
    hook=HookHead(label="Prompt-Checker"),
)
ALL = [BASH_ALLOW, BASH_DENY, MCP_POST, PROMPT_TIMEOUT]


def ids(expr: str) -> str:
    pred = compile_filter(expr)
    return "".join(h.id for h in ALL if pred(h))


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("", "abcd"),
        ("   ", "abcd"),
        # field terms: substring, case-insensitive
        ("tool:Bash", "ab"),
        ("TOOL:bash", "ab"),
        ("decision:deny", "b"),
        ("runtime:codex", "c"),
        ("runtime:gemini", "d"),
        ("hook:guard", "abc"),
        ("hook:checker", "d"),
        ("session:42", "c"),
        ("agent:agent-7", "c"),
        ("failure:timeout", "d"),
        ("effect:proceeds", "d"),
        ("reason:destructive", "b"),
        ("summary:issue", "c"),
        ("id:c", "c"),
        ("native:BeforeAgent", "d"),
        # globs match the whole field
        ("tool:mcp__*", "c"),
        ("tool:mcp__*__create_*", "c"),
        ("tool:b?sh", "ab"),
        ("tool:[bx]ash", "ab"),
        ("tool:ash*", ""),
        # exact with =, and the empty field
        ("tool=bash", "ab"),
        ("tool=bas", ""),
        ("tool!=bash", "cd"),
        ('tool:""', "d"),
        ('-tool:""', "abc"),
        # quoted values
        ('summary:"rm -rf"', "b"),
        ('hook:"prompt-checker"', "d"),
        # event aliases and prefixes
        ("event:post", "c"),
        ("event:pre", "ab"),
        ("event:prompt", "d"),
        ("event:PreToolUse", "ab"),
        ("event:tool", "abc"),
        ("event=user_prompt", "d"),
        # decision aliases
        ("decision:block", "b"),
        ("decision:approve", "ac"),
        # bare words and phrases: summary, reason and tool name
        ("status", "a"),
        ("GIT", "ac"),  # c: its tool name, mcp__github__..., holds it
        ("destructive", "b"),
        ("bash", "ab"),
        ('"rm -rf"', "b"),
        ('"please refactor"', "d"),
        ("git status", "a"),
        ("git rm", ""),
        # comparisons
        ("latency>50ms", "cd"),
        ("latency>50", "cd"),
        ("latency>=750ms", "cd"),
        ("latency<1s", "abc"),
        ("latency<=0.75s", "abc"),
        ("latency>=1m", "d"),
        ("latency=20", "ab"),
        ("latency:20ms", "ab"),
        ("latency!=20", "cd"),
        ("exit!=0", "bd"),  # no exit code (killed) is not 0
        ("exit:2", "b"),
        ("exit=2", "b"),
        ("exit>0", "b"),
        ("exit<1", "ac"),
        ("exit:none", "d"),
        ("exit!=none", "abc"),
        ("signal=9", "d"),
        # negation
        ("!tool:bash", "cd"),
        ("-tool:bash", "cd"),
        ("not tool:bash", "cd"),
        ("NOT tool:bash", "cd"),
        ("!!tool:bash", "ab"),
        ("-(tool:bash or runtime:codex)", "d"),
        # and, or, parentheses, precedence
        ("tool:bash decision:deny", "b"),
        ("tool:bash and decision:deny", "b"),
        ("tool:bash AND decision:deny", "b"),
        ("decision:deny or runtime:codex", "bc"),
        ("decision:deny OR runtime:codex", "bc"),
        ("decision:deny or runtime:codex tool:bash", "b"),  # and binds tighter
        ("(decision:deny or runtime:codex) tool:mcp*", "c"),
        ("not decision:allow or tool:bash", "abd"),  # (not a) or b
        ("not (decision:allow or tool:bash)", "d"),
        ("-decision:allow -decision:deny", "d"),
        ("((tool:bash))", "ab"),
        ("tool:bash (status or destructive)", "ab"),
        ("tool:bash(status or rm)", "ab"),  # a value stops at a parenthesis
        # field aliases
        ("tool_name:bash", "ab"),
        ("exit_code:2", "b"),
        ("duration>100", "cd"),
        # a lone dash is text, not a negation
        ("rm - /", "b"),
    ],
)
def test_filter_matches(expr, expected):
    assert ids(expr) == expected


@pytest.mark.parametrize(
    ("expr", "message", "position"),
    [
        ('"rm -rf', "unclosed quote", 0),
        ('tool:bash "rm', "unclosed quote", 10),
        ('summary:"rm', "unclosed quote", 8),
        ("(tool:bash", "unclosed '('", 0),
        ("a ((b) c", "unclosed '('", 2),
        ("tool:bash)", "unexpected ')'", 9),
        ("(a) b) c", "unexpected ')'", 5),
        (")", "unexpected ')'", 0),
        ("tool:bash or", "nothing after 'or'", 10),
        ("tool:bash OR )", "nothing after 'OR'", 10),
        ("a or or b", "nothing after 'or'", 2),
        ("or a", "'or' needs a term before it", 0),
        ("(or a)", "'or' needs a term before it", 1),
        ("a and", "nothing after 'and'", 2),
        ("and a", "'and' needs a term before it", 0),
        ("not", "nothing after 'not'", 0),
        ("a not", "nothing after 'not'", 2),
        ("a !(", "unclosed '('", 3),
        ("a -(", "unclosed '('", 3),
        ("()", "empty parentheses", 0),
        ("color:red", "unknown field 'color'", 0),
        ("tool:bash Colour:x", "unknown field 'Colour'", 10),
        ("latency>fast", "bad latency 'fast'", 8),
        ("latency>5xs", "bad latency '5xs'", 8),
        ("latency>", "expected a number after 'latency>'", 8),
        ("exit:1.5", "bad exit '1.5'", 5),
        ("exit>=two", "bad exit 'two'", 6),
        ("exit>none", "'>' cannot compare with none", 5),
        ("tool>3", "'>' needs a number field", 4),
        ("tool:", "expected a value after 'tool:'", 5),
        ("decision: deny", "expected a value after 'decision:'", 9),
    ],
)
def test_filter_errors_name_their_position(expr, message, position):
    with pytest.raises(FilterError) as info:
        compile_filter(expr)
    err = info.value
    assert err.message.startswith(message)
    assert err.position == position
    assert str(err) == f"{err.message} at {position}"
    assert isinstance(err, ValueError)


def test_unknown_field_hint_lists_the_fields():
    with pytest.raises(FilterError) as info:
        compile_filter("colour:red")
    assert "tool" in info.value.hint and "latency" in info.value.hint


def test_describe_spells_out_precedence():
    assert describe_filter("a or b c") == "a OR (b AND c)"
    assert describe_filter("-x (y or z)") == "NOT x AND (y OR z)"
    assert describe_filter("latency>1.5s EXIT!=0") == "latency>1500ms AND exit!=0"
    assert describe_filter('"rm -rf" tool:""') == '"rm -rf" AND tool:""'
    assert describe_filter("") == ""
    with pytest.raises(FilterError):
        describe_filter("(")


def test_is_empty_filter():
    assert is_empty_filter("") and is_empty_filter(" \t")
    assert not is_empty_filter("x")


def test_a_compiled_filter_is_reusable_across_records():
    pred = compile_filter("git or rm")
    assert [pred(h) for h in ALL * 3] == [True, True, True, False] * 3


def test_deep_nesting_is_a_filter_error_not_a_crash():
    assert ids("(" * 50 + "tool:bash" + ")" * 50) == "ab"
    with pytest.raises(FilterError) as info:
        compile_filter("(" * 51 + "a" + ")" * 51)
    assert info.value.position == 50
    with pytest.raises(FilterError):
        compile_filter("!" * 100 + "a")


def test_long_flat_filters_compile():
    assert ids(" or ".join(["tool:nothing"] * 3000 + ["decision:deny"])) == "b"


def test_values_are_data_never_code():
    weird = ["\"__import__('os')\"", 'tool:"h.id or True"', "tool:)(", 'summary:"\\" or 1"']
    for expr in weird:
        try:
            pred = compile_filter(expr)
        except FilterError:
            continue
        assert not any(pred(h) for h in ALL)
    quoted = compile_filter('"say \\"hi\\""')
    assert quoted(head(summary='say "hi" now'))
    assert not quoted(head(summary="say hi"))


def test_full_records_work_too():
    from hooktui.tap.model import HookInfo, Record

    r = Record(
        id="z",
        ts="2026-03-01T10:00:00Z",
        runtime="codex",
        event="pre_tool_use",
        tool_name="apply_patch",
        decision="deny",
        summary="patch main.py",
        duration_ms=80.0,
        exit_code=2,
        hook=HookInfo(label="policy"),
    )
    assert compile_filter('hook:policy tool:apply_* latency>50ms exit=2 "main.py" event:pre')(r)
    assert not compile_filter("decision:allow")(r)
