"""`--capture digest` keeps no prompt or tool-output text anywhere in the record.

Through the real `hooktui tap --capture digest`, per runtime: the request's own
prompt and output fields (nested ones too), and a hook's answer that quotes
them (reasons, added context, rewrites), whole or in part.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from hooktui.tap.record.digest import digest_marker

from tests.conftest import HOOKTUI

PROMPT = (
    "Please refactor the billing module so invoices are computed lazily and cached per "
    "customer; keep the public API stable and add tests for the proration edge cases."
)
OUTPUT = (
    "invoice 4471 total 1,204.50 EUR for ACME Corp (customer 88213), due 2027-02-01\n"
    "invoice 4472 total 98.00 EUR for Initech Ltd (customer 10007), paid by card ending 4242"
)
TEXTS = {"prompt": PROMPT, "output": OUTPUT}


def quoted(text: str, line: str, size: int = 23) -> list[str]:
    """Stretches of `text` (`size` characters, every 4) that `line` still holds."""
    pieces = [text[i : i + size] for i in range(0, len(text) - size + 1, 4)]
    return [p for p in pieces if p in line]


def tap_digest(tmp_path, request: dict, answer: str, *args: str) -> tuple[str, dict]:
    stream = tmp_path / "s.jsonl"
    hook = ["sh", "-c", 'cat >/dev/null; printf "%s\\n" "$0"', answer]
    subprocess.run(
        [HOOKTUI, "tap", "--wait", "--capture", "digest", "--stream", str(stream), *args]
        + ["--", *hook],
        input=json.dumps(request).encode(),
        capture_output=True,
        timeout=60,
        check=False,
        env=dict(os.environ),
    )
    (line,) = stream.read_text().splitlines()
    return line, json.loads(line)


CASES = {
    "gemini AfterAgent prompt_response": (
        {
            "session_id": "s",
            "hook_event_name": "AfterAgent",
            "timestamp": "2026-12-01T00:00:00Z",
            "prompt": PROMPT,
            "prompt_response": OUTPUT,
        },
        json.dumps({"decision": "deny", "reason": f"the answer leaked: {OUTPUT[20:90]}"}),
    ),
    "gemini AfterTool tool_response": (
        {
            "session_id": "s",
            "hook_event_name": "AfterTool",
            "timestamp": "2026-12-01T00:00:00Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": "billing report"},
            "tool_response": {"llmContent": OUTPUT, "returnDisplay": OUTPUT},
        },
        json.dumps({"hookSpecificOutput": {"additionalContext": OUTPUT.splitlines()[1]}}),
    ),
    "cursor postToolUse result_json": (
        {
            "conversation_id": "c",
            "generation_id": "g",
            "hook_event_name": "postToolUse",
            "tool_name": "Shell",
            "tool_input": {"command": "billing report"},
            "result_json": json.dumps({"output": OUTPUT}),
        },
        json.dumps({"agent_message": f"note: {OUTPUT[:60]}"}),
    ),
    "cursor afterAgentResponse text": (
        {"conversation_id": "c", "hook_event_name": "afterAgentResponse", "text": OUTPUT},
        "{}",
    ),
    "cursor afterAgentThought text": (
        {"conversation_id": "c", "hook_event_name": "afterAgentThought", "text": PROMPT},
        "{}",
    ),
    "fastpace nested tool_input.prompt": (
        {
            "hook_event_name": "PreToolUse",
            "session_id": "s",
            "tool_name": "Task",
            "tool_input": {"description": "refactor", "prompt": PROMPT},
            "metadata": {"agent_id": "a1", "model": "m"},
        },
        json.dumps({"decision": "block", "reason": f"too broad: {PROMPT[30:100]}"}),
    ),
    "claude UserPromptSubmit context quoting the prompt": (
        {"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": PROMPT},
        json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "UserPromptSubmit",
                    "additionalContext": f"The user asked: {PROMPT}",
                }
            }
        ),
    ),
    "claude UserPromptSubmit reason quoting part of the prompt": (
        {"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": PROMPT},
        json.dumps({"decision": "block", "reason": f'blocked "{PROMPT[7:60]}"'}),
    ),
    "claude PostToolUse reason quoting a line of the output": (
        {
            "session_id": "s",
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "billing report"},
            "tool_response": {"stdout": OUTPUT, "stderr": ""},
        },
        json.dumps({"decision": "block", "reason": "card data: " + OUTPUT.splitlines()[1]}),
    ),
    "claude Stop last_assistant_message": (
        {"session_id": "s", "hook_event_name": "Stop", "last_assistant_message": OUTPUT},
        json.dumps({"decision": "block", "reason": f"redo this:\n{OUTPUT}"}),
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_no_prompt_or_output_text_anywhere(tmp_path, case):
    request, answer = CASES[case]
    line, record = tap_digest(tmp_path, request, answer)
    for name, text in TEXTS.items():
        assert not quoted(text, line), f"{name} kept in {case}"
    assert "[digest sha256:" in line
    assert record["stdout"]["encoding"] == "digest" and record["stdout"]["data"] == ""


def test_a_quote_is_digested_where_it_stood():
    request, answer = CASES["claude UserPromptSubmit context quoting the prompt"]
    from hooktui.tap.record.digest import Quotes

    quotes = Quotes([PROMPT])
    assert quotes.scrub_text(f"The user asked: {PROMPT}") == (
        f"The user asked: {digest_marker(PROMPT)}"
    )
    part = PROMPT[7:60]
    assert quotes.scrub_text(f'blocked "{part}"!') == f'blocked "{digest_marker(part)}"!'
    assert quotes.scrub_text("nothing quoted here at all") == "nothing quoted here at all"
    escaped = json.dumps({"context": f"asked:\n{PROMPT}"})
    assert PROMPT[:40] not in quotes.scrub_text(escaped)


def test_the_summary_of_a_prompt_is_its_digest(tmp_path):
    request = {"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": "short one"}
    _, record = tap_digest(tmp_path, request, "{}")
    assert record["summary"] == digest_marker("short one")
    assert record["request"]["prompt"] == digest_marker("short one")
