"""Runtime adapters and the registry that picks one for a request.

STUB: the adapters helper replaces this with the real registry; the names
below (ADAPTERS, get_adapter, detect) are the API others build against.
"""

from __future__ import annotations

from typing import Any

from hooktui.tap.adapters.base import Adapter
from hooktui.tap.model import Call, Outcome, Verdict


class UnknownAdapter(Adapter):
    name = "unknown"

    def detect(self, request: Any) -> bool:
        return True

    def parse(self, request: Any) -> Call:
        if isinstance(request, dict):
            return Call(
                runtime="unknown",
                event="other",
                native_event=str(request.get("hook_event_name", "")),
                tool_name=str(request.get("tool_name", "")),
                tool_input=request.get("tool_input"),
            )
        return Call(runtime="unknown", event="other")

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        if outcome.exit_code == 0:
            return Verdict(decision="allow")
        return Verdict(decision="failure", failure="exit_code", effect="proceeds")


ADAPTERS: dict[str, Adapter] = {"unknown": UnknownAdapter()}


def get_adapter(name: str) -> Adapter:
    try:
        return ADAPTERS[name]
    except KeyError:
        raise ValueError(f"unknown runtime {name!r}") from None


def detect(request: Any) -> Adapter:
    """The adapter whose runtime sent `request` (parsed JSON, or raw text); never raises."""
    return ADAPTERS["unknown"]
