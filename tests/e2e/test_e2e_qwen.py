"""The real Qwen Code, with and without the tap: it must not tell the difference.

All cases run in ONE Qwen Code session (batch.py; a start costs it seconds),
bare and then tapped (`hooktui install qwen-code`): its Claude-shaped requests
are recorded as Qwen Code's and judged by its rules.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.batch import Batch, check_records, check_same, check_seen, run_batch
from tests.e2e.cases_qwen import QWEN
from tests.e2e.drivers_chat import QWEN as DRIVER
from tests.e2e.drivers_chat import QwenCode
from tests.e2e.fake_models import FINAL_TEXT
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, skip_reason

_skip = skip_reason("qwen-code")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
PRE_TIMEOUT = 4  # seconds; the timeout case sleeps past it
# What a failing hook said on stderr (its exit 1, 3, crash, ... let the call run).
FAILED_SAID = [
    c.answer["stderr"]
    for c in QWEN
    if c.record.get("decision") == "failure" and c.answer.get("stderr")
]
_BLOCKED = 'Warning: Tool "run_shell_command" was not run: '
# Plain `-p` (text) output: a few cases, blocked and failing, in their own session.
TEXT_CASES = [
    c
    for c in QWEN
    if c.name
    in {
        "deny",
        "exit1",
        "exit1-with-json-allow",
        "exit1-stderr-json-deny",
        "exit1-stderr-broken-json",
        "crash",
        "broken-json",
    }
]


class _TextOutput(QwenCode):
    """The same driver, without `-o json`: what a person reads of `qwen -p`."""

    def argv(self, sb: Sandbox, prompt: str = "run the command") -> list[str]:
        argv = super().argv(sb, prompt)
        assert argv[-2:] == ["-o", "json"]
        return argv[:-2]


@pytest.fixture(scope="module")
def batches(tmp_path_factory) -> tuple[Batch, Batch]:
    sb = Sandbox(tmp_path_factory.mktemp("qwen"))
    bare = run_batch(DRIVER, sb, QWEN, tapped=False, pre_timeout=PRE_TIMEOUT)
    tapped = run_batch(DRIVER, sb, QWEN, tapped=True, pre_timeout=PRE_TIMEOUT)
    return bare, tapped


@pytest.mark.parametrize("case", QWEN, ids=lambda c: c.name)
def test_qwen_code_same_with_and_without_tap(batches, case: Case) -> None:
    bare, tapped = batches
    check_seen(bare.seen[case.name], case)
    check_seen(tapped.seen[case.name], case)
    check_same(DRIVER, bare, tapped, case)


@pytest.mark.parametrize("case", QWEN, ids=lambda c: c.name)
def test_qwen_code_record_agrees(batches, case: Case) -> None:
    check_records(DRIVER, batches[1], case)


def _hook_lines(stderr: str) -> list[str]:
    """Qwen's stderr without its start-up notices (ripgrep, the yolo warning)."""
    return [
        line
        for line in stderr.splitlines()
        if line and not line.startswith(("Ripgrep not available", "Warning: running headless"))
    ]


def test_qwen_code_failing_hook_shows_nothing_in_json(batches) -> None:
    """`-p -o json` (measured 2026-12-05): a failing hook leaves no trace, its stderr
    and Qwen's "Warning: <stderr>" go nowhere the user or the model looks; the
    result's `permission_denials` lists exactly the blocked calls; and stderr has
    nothing of the hooks. Alike with the tap."""
    assert FAILED_SAID and "E2E-EXIT1" in FAILED_SAID
    blocked = {f"call_e2e_{i}_0" for i, c in enumerate(QWEN, start=1) if c.ran is None}
    for batch in batches:
        run = batch.run
        assert run.exit_code == 0, run.describe()
        result = json.loads(run.stdout)[-1]
        assert result["type"] == "result" and result["result"] == FINAL_TEXT
        assert {d["tool_use_id"] for d in result["permission_denials"]} == blocked
        for said in FAILED_SAID:
            assert said not in run.stdout and said not in run.stderr, said
        assert _hook_lines(run.stderr) == [], run.stderr


def test_qwen_code_pre_tool_context_reaches_no_request(batches) -> None:
    """PreToolUse `additionalContext` (measured 2026-12-05): in no request the model is
    sent, with an allow, alone or on exit 1, nor in what `-p` prints; PostToolUse's
    (the control) is there. Alike with the tap."""
    assert [c.name for c in QWEN if "E2E-PCTX" in json.dumps(c.answer)] == [
        "pre-additional-context-allow",
        "pre-additional-context",
        "pre-additional-context-exit1",
    ]
    for batch in batches:
        sent = json.dumps([r["body"] for r in batch.run.requests])
        assert "E2E-HCTX" in sent
        assert "E2E-PCTX" not in sent
        assert "E2E-PCTX" not in batch.run.stdout + batch.run.stderr


@pytest.fixture(scope="module")
def text_batches(tmp_path_factory) -> tuple[Batch, Batch]:
    sb = Sandbox(tmp_path_factory.mktemp("qwen-text"))
    driver = _TextOutput()
    bare = run_batch(driver, sb, TEXT_CASES, tapped=False, pre_timeout=PRE_TIMEOUT)
    tapped = run_batch(driver, sb, TEXT_CASES, tapped=True, pre_timeout=PRE_TIMEOUT)
    return bare, tapped


def test_qwen_code_failing_hook_shows_nothing_in_text(text_batches) -> None:
    """Plain `-p` (measured 2026-12-05): stdout is the model's last text alone; stderr
    has one `Warning: Tool "run_shell_command" was not run: <reason>` per blocked
    call, in order, and nothing of a failing hook (no warning, not its stderr).
    The cases act as in the `-o json` session; alike with the tap."""
    reasons = [c.content_has for c in TEXT_CASES if c.ran is None]
    assert reasons == ["E2E-DENY", "E2E-SDENY"]
    for batch in text_batches:
        run = batch.run
        for case in TEXT_CASES:
            check_seen(batch.seen[case.name], case)
        assert run.exit_code == 0, run.describe()
        assert run.stdout == FINAL_TEXT + "\n"
        assert _hook_lines(run.stderr) == [_BLOCKED + r for r in reasons], run.stderr
        for said in FAILED_SAID:
            assert said not in run.stderr, said
