"""A tool call as the runtime lived it: the hooks that answered it, event by event, and
what their answers came to together (by that runtime's own rule).

These are what `show --calls`, `--format json`, replay and watch's tool-call view all
print, so they agree: one grouping (group.py), one shape (here).
"""

from __future__ import annotations

from typing import Any

import msgspec
from hooktui.tap.canonical import UNSET, Verdict
from hooktui.tap.model import SCHEMA_VERSION, RecordHead
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


class _SentAnswer(msgspec.Struct):
    decision: str
    reason: str = ""


class CallHead(RecordHead, kw_only=True):
    """A record's head plus what the grouping needs of the rest, decoded in one pass:
    the request and the captured bytes stay raw (parsed only where a runtime's rule
    reads them: its call keys, Qwen Code's output objects), so grouping a big stream
    costs a head's decode, not a whole record's. Usable wherever a Record is grouped."""

    tool_input: Any = None
    updated_input: Any | UnsetType = msgspec.UNSET
    updated_output: Any | UnsetType = msgspec.UNSET
    context: str = ""
    failure_detail: str = ""
    request: msgspec.Raw = msgspec.Raw(b"null")
    stdout: msgspec.Raw = msgspec.Raw(b"{}")
    stderr: msgspec.Raw = msgspec.Raw(b"{}")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.v < SCHEMA_VERSION:  # as Record does: the call read out of the request
            from hooktui.tap.runtimes import call_of

            try:
                request = msgspec.json.decode(self.request)
            except msgspec.DecodeError:
                request = None
            self.tool_input = call_of(self.runtime, request).tool_input

    @property
    def verdict(self) -> Verdict:
        """The hook's own verdict (a breakpoint's answer is `sent_instead`)."""
        return Verdict(
            decision=self.hook_decision or self.decision,
            reason=self.reason,
            context=self.context,
            updated_input=UNSET if self.updated_input is msgspec.UNSET else self.updated_input,
            updated_output=UNSET if self.updated_output is msgspec.UNSET else self.updated_output,
            failure=self.failure,
            failure_detail=self.failure_detail,
            effect=self.effect,
        )

    @property
    def sent_instead(self) -> _SentAnswer | None:
        held = self.held
        if held is None or held.sent is None or not held.sent.decision:
            return None
        return _SentAnswer(decision=held.sent.decision)


class _StrictCallHead(CallHead, kw_only=True):
    """A CallHead that insists on what every record has (`{}` is not a call)."""

    id: str
    ts: str
    decision: str


call_head_decoder = msgspec.json.Decoder(_StrictCallHead)
