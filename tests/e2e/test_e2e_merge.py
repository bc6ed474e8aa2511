"""Each runtime's rule for two hooks on one call, proven in its real CLI (2026-12-07).

For each runtime one bare session and one tapped session run the same cases (merge.py):
the bare run is the oracle (what the runtime did with the two answers), the tapped
run must do the same, and the tap's records combined by the runtime's declared rule
(tap/runtimes: `merge`) must come to what the runtime did. ORACLE.md records the
findings. The Chat Completions CLIs are in test_e2e_merge_chat.py (run beside this).
"""

from __future__ import annotations

import pytest

from tests.e2e.drivers import ClaudeCode, CodexHooksJson, GeminiCli
from tests.e2e.merge import Two, check_two

CASES = {
    "claude-code": (
        ClaudeCode(),
        [
            Two("deny-then-allow", "deny", "allow", None, conflict="disagree"),
            Two("allow-then-deny", "allow", "deny", None, conflict="overridden"),
            Two("exit2-then-allow", "exit2", "allow", None),
            Two("crash-then-allow", "crash", "allow", "original"),
            Two(
                "rewrites-a-finishes-last",
                "rewrite",
                "rewrite",
                "a",
                slow="a",
                conflict="rewrite_race",
            ),
            Two(
                "rewrites-b-finishes-last",
                "rewrite",
                "rewrite",
                "b",
                slow="b",
                conflict="rewrite_race",
            ),
            Two("ask-then-allow", "ask", "allow", None),  # -p cannot ask: refused
        ],
    ),
    "codex": (
        CodexHooksJson(),
        [
            Two("deny-then-silent", "deny", "silent", None),
            Two("exit2-then-silent", "exit2", "silent", None),
            Two("crash-then-silent", "crash", "silent", "original"),
            Two(
                "rewrites-a-finishes-last",
                "rewrite",
                "rewrite",
                "a",
                slow="a",
                conflict="rewrite_race",
            ),
            Two(
                "rewrites-b-finishes-last",
                "rewrite",
                "rewrite",
                "b",
                slow="b",
                conflict="rewrite_race",
            ),
        ],
    ),
    "gemini-cli": (
        GeminiCli(),
        [
            Two("deny-then-allow", "deny", "allow", None, conflict="disagree"),
            Two("allow-then-deny", "allow", "deny", None),
            Two(
                "configured-last-rewrite-wins",
                "rewrite",
                "rewrite",
                "b",
                slow="a",
                conflict="rewrite_clash",
            ),
            Two(
                "even-finishing-first",
                "rewrite",
                "rewrite",
                "b",
                slow="b",
                conflict="rewrite_clash",
            ),
        ],
    ),
}


@pytest.mark.parametrize(
    ("name", "case"),
    [
        # One worker per runtime: its two sessions are shared by its cases (merge.py).
        pytest.param(n, c, id=f"{n}-{c.name}", marks=pytest.mark.xdist_group(f"merge:{n}"))
        for n, (_, cases) in CASES.items()
        for c in cases
    ],
)
def test_two_hooks_on_one_call(name, case, tmp_path_factory) -> None:
    driver, cases = CASES[name]
    check_two(driver, cases, case, tmp_path_factory)
