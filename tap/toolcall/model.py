"""A tool call as the runtime lived it: the hooks that answered it, event by event, and
what their answers came to together (by that runtime's own rule).

These are what `show --calls`, `--format json`, replay and watch's tool-call view all
print, so they agree: one grouping (group.py), one shape (here).
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UnsetType

# A hook's part in its call (`HookPart.role`, the `role:` filter term).
ROLES = {
    "decided": "its answer is the call's decision",
    "rewrote": "its rewrite is what the call ran with",
    "overridden": "its answer did not carry: another hook's was taken",
    "agreed": "it answered as the call went, but another hook's answer was taken first",
    "silent": "it gave no decision (a failure the runtime let pass, or nothing to say)",
}


class HookPart(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One hook's call within a tool call."""

    id: str  # the record's id
    label: str = ""
    native_event: str = ""
    ts: str = ""
    duration_ms: float = 0.0
    decision: str = ""  # what the runtime got from this hook
    effect: str = ""
    reason: str = ""
    role: str = ""  # a ROLES name
    updated_input: Any | UnsetType = msgspec.UNSET


class Step(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One event of a tool call (before it ran, after it ran, ...), and its outcome."""

    event: str
    native_event: str
    decision: str  # what the runtime did, all hooks taken together
    reason: str = ""
    decided_by: str = ""  # a HookPart id
    rewritten_by: str = ""
    updated_input: Any | UnsetType = msgspec.UNSET
    updated_output: Any | UnsetType = msgspec.UNSET
    conflicts: list[str] = []
    notes: list[str] = []
    rule: str = ""  # the runtime's rule, in one line
    hooks: list[HookPart] = []


class ToolCall(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One tool call (or one firing of an event without a tool), all its hooks."""

    key: str  # the id of its first hook call: stable, unique in a stream
    runtime: str
    session_id: str = ""
    tool_call_id: str = ""
    tool_name: str = ""
    summary: str = ""
    ts: str = ""  # when its first hook started
    decision: str  # the guarding step's outcome (before the tool), else the first step's
    conflicts: list[str] = []
    hooks: int = 0  # how many hook calls answered it, all steps
    steps: list[Step] = []

    @property
    def parts(self) -> list[HookPart]:
        return [part for step in self.steps for part in step.hooks]
