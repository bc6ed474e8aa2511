"""docs/verdict-agreement.md's table is what tests/e2e/agreement.py makes from the
pinned e2e case tables (no CLI needed: the cases are data)."""

from __future__ import annotations

from tests.e2e import agreement


def test_verdict_agreement_table_is_fresh() -> None:
    text = agreement.DOC.read_text()
    assert agreement.spliced(text) == text, "stale: run `python -m tests.e2e.agreement`"


def test_the_table_has_a_row_per_case_of_the_six_runtimes() -> None:
    rows = agreement.rows()
    chat = {title for title, _, _ in agreement.CHAT}
    continue_cli = "Continue CLI (its hook runner; the CLI fires none)"
    assert {r[0] for r in rows} == {"Claude Code", "Codex", "Gemini CLI", *chat, continue_cli}
    count = sum(
        len(agreement.MAIN[n]) + len(agreement.PINNED[n]) + len(agreement.EVENT_CASES[n])
        for n, _ in agreement.RUNTIMES
    )
    count += sum(len(cases) for _, cases, _ in agreement.CHAT)
    count += len(agreement.RUNNER_CASES)
    assert len(rows) == count + 1  # and Codex's session-end-clamped (cases_others.py)
    table = agreement.table()
    assert table.count("\n") == len(rows) + 2
    assert all(line.count(" | ") == 5 for line in table.splitlines()[2:])  # no stray pipes
