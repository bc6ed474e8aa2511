"""Runtime adapters and the registry that picks one for a request.

- ADAPTERS: name -> adapter, the six runtimes plus "unknown"
- RUNTIME_NAMES: the six runtime names (model.RUNTIMES)
- get_adapter(name): ValueError for a name that is not a runtime
- detect(request): the adapter whose runtime sent `request`; never raises
- judge_request(request, outcome, runtime=None): (adapter, call, verdict); never raises

The tap and replay both call judge_request, so a request is read the same way
live and on replay.
"""

from __future__ import annotations

from typing import Any

from hooktui.tap.model import RUNTIMES, UNKNOWN, Call, Outcome, Verdict
from hooktui.tap.runtimes.base import Adapter
from hooktui.tap.runtimes.basis import BasisAdapter
from hooktui.tap.runtimes.claude_code import ClaudeCodeAdapter
from hooktui.tap.runtimes.codex import CodexAdapter
from hooktui.tap.runtimes.cursor import CursorAdapter
from hooktui.tap.runtimes.fastpace import FastpaceAdapter
from hooktui.tap.runtimes.gemini_cli import GeminiCliAdapter
from hooktui.tap.runtimes.unknown import UnknownAdapter

ADAPTERS: dict[str, Adapter] = {
    adapter.name: adapter
    for adapter in (
        ClaudeCodeAdapter(),
        CodexAdapter(),
        GeminiCliAdapter(),
        CursorAdapter(),
        BasisAdapter(),
        FastpaceAdapter(),
        UnknownAdapter(),
    )
}
RUNTIME_NAMES: tuple[str, ...] = RUNTIMES

# PROTOCOLS.md "Telling them apart": the first adapter that claims a request wins.
# Codex before fastpace before Claude Code: all three use PreToolUse-style names,
# and only Claude Code has nothing of its own to look for. fastpace's `Mutation`
# event is checked before Codex's `model` (a Mutation is fastpace whatever else).
_ORDER = ("basis", "gemini-cli", "cursor", "fastpace-mutation", "codex", "fastpace", "claude-code")


def get_adapter(name: str) -> Adapter:
    try:
        return ADAPTERS[name]
    except (KeyError, TypeError):
        names = ", ".join(RUNTIME_NAMES)
        raise ValueError(f"unknown runtime {name!r} (expected one of: {names})") from None


def detect(request: Any) -> Adapter:
    """The adapter whose runtime sent `request` (parsed JSON, or raw text); never raises."""
    if not isinstance(request, dict):
        return ADAPTERS[UNKNOWN]
    try:
        for key in _ORDER:
            if key == "fastpace-mutation":
                if request.get("hook_event_name") == "Mutation":
                    return ADAPTERS["fastpace"]
                continue
            adapter = ADAPTERS[key]
            if adapter.detect(request):
                return adapter
    except Exception:  # a detector tripping on an odd request must not stop the tap
        pass
    return ADAPTERS[UNKNOWN]


def judge_request(
    request: Any, outcome: Outcome, runtime: str | None = None
) -> tuple[Adapter, Call, Verdict]:
    """Detect (or use the forced `runtime`), parse and judge; never raises.

    A forced runtime that is not a known name falls back to detection. If an
    adapter trips on a request it cannot read, the unknown adapter's reading is
    used instead, and a failure verdict says so in its failure_detail.
    """
    adapter = ADAPTERS.get(runtime) if runtime else None
    if adapter is None:
        adapter = detect(request)
    try:
        call = adapter.parse(request)
        verdict = adapter.judge(call, outcome)
        return adapter, call, verdict
    except Exception as exc:
        problem = f"{adapter.name} adapter could not read this call ({type(exc).__name__}: {exc})"
    fallback = ADAPTERS[UNKNOWN]
    try:
        call = fallback.parse(request)
    except Exception:
        call = Call(runtime=UNKNOWN, event="other")
    try:
        verdict = fallback.judge(call, outcome)
    except Exception:
        verdict = Verdict(decision="failure", failure="unsupported", effect="proceeds")
    if verdict.decision == "failure":
        detail = f"{verdict.failure_detail}; {problem}" if verdict.failure_detail else problem
        verdict = Verdict(
            decision="failure",
            failure=verdict.failure,
            failure_detail=detail,
            effect=verdict.effect,
        )
    return fallback, call, verdict


__all__ = [
    "ADAPTERS",
    "RUNTIME_NAMES",
    "Adapter",
    "detect",
    "get_adapter",
    "judge_request",
]
