"""`show --calls` and the call filter terms, on a stream the real tap wrote (via try)."""

from __future__ import annotations

import json

import pytest
from hooktui.tap.read.filter import FilterError, compile_filter

from tests.tui.test_cli_try_hooks import lay_out, run


@pytest.fixture(scope="module")
def stream(tmp_path_factory):
    """One stream for the module: two dry runs through the real tap (a few seconds)."""
    cwd, home = lay_out(tmp_path_factory.mktemp("calls"))
    path = home / "calls.jsonl"
    for command in ("git push -f origin main", "ls"):
        res = run(
            "try",
            "--runtime",
            "claude-code",
            "--tool",
            "Bash",
            "--input",
            json.dumps({"command": command}),
            "--stream",
            str(path),
            cwd=cwd,
            home=home,
        )
        assert res.returncode == 0, res.stderr
    return cwd, home, path


def test_calls_json_is_one_tool_call_per_line_with_its_hooks(stream) -> None:
    cwd, home, path = stream
    res = run("show", "--calls", "--format", "json", str(path), cwd=cwd, home=home)
    calls = [json.loads(line) for line in res.stdout.splitlines()]
    assert [c["summary"] for c in calls] == ["git push -f origin main", "ls"]
    push, ls = calls
    assert push["decision"] == "deny" and push["hooks"] == 2
    assert push["conflicts"] == ["disagree", "overridden"]
    assert sorted(h["role"] for h in push["steps"][0]["hooks"]) == ["decided", "overridden"]
    assert ls["decision"] == "allow" and "conflicts" not in ls  # none: left out


def test_calls_text_marks_the_winning_hook(stream) -> None:
    cwd, home, path = stream
    out = run("show", "--calls", str(path), cwd=cwd, home=home).stdout
    lines = out.splitlines()
    assert "✗ deny" in lines[0] and "2 hooks" in lines[0] and "disagree overridden" in lines[0]
    # Its hooks follow in the order they started: Claude Code starts them at once, so
    # on a loaded machine either may be first.
    won, lost = sorted(lines[1:3], key=lambda line: "★" not in line)
    assert won.lstrip().startswith("★ ✗ deny") and "force-push" in won
    assert "overridden" in lost and "★" not in lost


@pytest.mark.parametrize(
    ("expr", "calls"),
    [
        ("call:deny", 1),
        ("call:block", 1),
        ("conflict:overr", 1),
        ("conflict:?*", 1),
        ("-conflict:?*", 1),
        ("hooks>1", 2),
        ("hooks>2", 0),
        ("role:decided summary:ls", 1),
    ],
)
def test_call_terms_choose_calls(stream, expr, calls) -> None:
    cwd, home, path = stream
    res = run("show", "--calls", "--format", "json", "-f", expr, str(path), cwd=cwd, home=home)
    assert res.returncode == 0, res.stderr
    assert len(res.stdout.splitlines()) == calls


def test_a_call_term_on_plain_rows_shows_the_hooks_that_match(stream) -> None:
    cwd, home, path = stream
    res = run("show", "--format", "json", "-f", "role:overridden", str(path), cwd=cwd, home=home)
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(rows) == 1 and rows[0]["decision"] == "modify"


def test_calls_cannot_follow(stream) -> None:
    cwd, home, path = stream
    res = run("show", "--calls", "--follow", str(path), cwd=cwd, home=home)
    assert res.returncode == 2 and "not with --follow" in res.stderr


def test_call_terms_compile_and_say_what_they_read() -> None:
    assert "toolcall" in compile_filter("conflict:race").fields
    with pytest.raises(FilterError):
        compile_filter("hooks:many")
