"""summarize(call): one line that says what a call was about."""

from __future__ import annotations

import pytest
from hooktui.tap.canonical import Call
from hooktui.tap.record.summary import summarize
from hooktui.tap.runtimes import ADAPTERS, detect

from tests.tap.fixtures import request


def from_fixture(name: str) -> str:
    req = request(name)
    return summarize(detect(req).parse(req))


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("claude_pre_bash", "git status"),
        ("claude_subagent_edit", "/home/u/p/src/a.py"),
        ("claude_prompt", "Refactor the parser ⏎ and add tests"),
        ("codex_pre_bash", "rm -rf build"),
        ("codex_pre_patch", "apply_patch: Update File: src/main.rs"),
        ("codex_pre_mcp", '{"repo":"o/r","state":"open"}'),
        ("gemini_before_shell", "ls -la"),
        ("gemini_before_read", "/repo/.env"),
        ("gemini_before_agent", "summarize the repo"),
        ("cursor_shell", "npm install express"),
        ("cursor_read", "/path/to/secrets.env"),
        ("cursor_prompt", "Fix the bug in main.ts"),
        ("cursor_mcp", '{"query":"SELECT * FROM users"}'),
        ("basis_pre_seed", "git push --force"),
        ("basis_pre_raw_input", "not { json"),
        ("fastpace_pre_seed", "rm -rf /tmp/x"),
        ("fastpace_post", "/path/to/repo/README.md"),
        ("fastpace_prompt", "deploy to prod with my key sk-123"),
    ],
)
def test_summaries_of_fixtures(fixture, expected):
    assert from_fixture(fixture) == expected


def call(tool_input=None, **fields) -> Call:
    return Call(
        runtime="unknown",
        event=fields.pop("event", "pre_tool_use"),
        tool_input=tool_input,
        **fields,
    )


def test_codex_cmd_forms():
    assert summarize(call({"cmd": "cargo test"})) == "cargo test"
    assert summarize(call({"command": ["bash", "-lc", "ls -la"]})) == "bash -lc ls -la"


def test_patch_without_headers_shows_first_lines():
    text = "*** Begin Patch\n@@ fn main\n-old\n+new\n*** End Patch"
    assert summarize(call(text, tool_name="apply_patch")) == "apply_patch: @@ fn main ⏎ -old ⏎ +new"


def test_patch_in_patch_field_lists_every_file():
    text = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Delete File: b.txt\n*** End Patch\n"
    assert summarize(call({"patch": text})) == "apply_patch: Add File: a.txt; Delete File: b.txt"


def test_command_beats_path():
    assert summarize(call({"command": "cat x", "file_path": "/x"})) == "cat x"


def test_path_keys():
    assert summarize(call({"path": "/a"})) == "/a"
    assert summarize(call({"absolute_path": "/b"})) == "/b"
    assert summarize(call({"notebook_path": "/c.ipynb"})) == "/c.ipynb"


def test_newlines_and_tabs_fold_to_one_line():
    line = summarize(call({"command": "set -e\r\n\tmake\n\n  make install\n"}))
    assert line == "set -e ⏎ make ⏎ make install"
    assert "\n" not in line and "\r" not in line


def test_truncation_marks_the_cut():
    line = summarize(call({"command": "x" * 500}))
    assert len(line) == 200 and line.endswith("…")
    short = summarize(call({"command": "echo " + "y" * 50}), limit=20)
    assert len(short) == 20 and short.startswith("echo y") and short.endswith("…")
    assert summarize(call({"command": "exactly"}), limit=7) == "exactly"
    assert summarize(call({"command": "anything"}), limit=0) == ""


def test_prompt_event_uses_the_prompt_even_with_input():
    assert summarize(call({"x": 1}, event="user_prompt", prompt="hello")) == "hello"


def test_compact_json_otherwise():
    assert summarize(call({"url": "https://e.x", "n": 2})) == '{"url":"https://e.x","n":2}'
    assert summarize(call([1, 2])) == "[1,2]"
    assert summarize(call(42)) == "42"


def test_nothing_to_say():
    assert summarize(call()) == ""
    assert summarize(call({})) == ""
    assert summarize(Call(runtime="cursor", event="stop")) == ""


def test_unicode_survives():
    assert summarize(call({"command": "echo héllo ✓"})) == "echo héllo ✓"


def test_every_adapter_call_summarizes_to_one_bounded_line():
    for adapter in ADAPTERS.values():
        for raw in ({"tool_input": {"command": "a\nb" * 200}}, "text", None):
            line = summarize(adapter.parse(raw), limit=80)
            assert "\n" not in line and len(line) <= 80
