"""The contract: canonical call, outcome, verdict and the record the tap writes.

Every other part of hooktui speaks these types. The record keeps its summary
fields flat at the top level so `jq 'select(.decision=="deny")'` works on a
stream without knowing anything else about it. `Call`, `Outcome`, `Verdict`
and `UNSET` live in canonical.py (plain classes the tap's recorder can build
without msgspec); the record and its parts are msgspec Structs, decoded by
one reusable decoder per type.

Record versions (`v`), and how a reader opens each (`Record.__post_init__`,
so every decoder of a Record does it, once, at decode):

- 1: the canonical call is not stored; it is read out of `request` with the
  runtime's parser. `hook.timeout_ms` is what the tap was given (configured
  or install's default, not said which); `timeout_source`, `fails` and
  `runtime_version` are unknown ("").
- 2: the record describes itself: `prompt`, `tool_input`, `tool_output`,
  `is_error` (the canonical call), `runtime_version`, and in `hook` the
  effective `timeout_ms` with its `timeout_source` and the failure mode `fails`;
  later taps add `details` (request fields beyond the call, absent when none) and
  `answer_effects` (what the answer asked for besides its decision). The first of
  those taps wrote some runtimes' effects by the answer's own keys (Gemini CLI's
  `llm_request`, ...): they are read by today's canonical.ACTIONS names.
"""

from __future__ import annotations

from typing import Any

import msgspec
from hooktui.tap import runtimes
from hooktui.tap.canonical import UNSET, Call, Verdict
from msgspec import UnsetType

SCHEMA_VERSION = 2


CAPTURES = ("full", "redacted", "digest")


class Blob(msgspec.Struct, kw_only=True):
    """A captured byte stream (stdout or stderr), bounded but never silently cut.

    `data` is the text when the bytes are UTF-8, base64 when they are not,
    and empty for `digest` capture. `length` and `sha256` always describe the
    original bytes, so truncation and redaction are visible.
    """

    data: str = ""
    encoding: str = "utf-8"  # "utf-8" | "base64" | "digest"
    length: int = 0
    sha256: str = ""
    truncated: bool = False
    tail: str | UnsetType = msgspec.UNSET  # the last bytes, when truncated (tap/record/cut.py)


class HookInfo(msgspec.Struct, kw_only=True):
    """Which hook ran, and the environment runtimes pass to hooks."""

    label: str = ""
    argv: list[str] = []
    cwd: str = ""
    env: dict[str, str] = {}  # only the runtime variables hooks read (CLAUDE_PROJECT_DIR, ...)
    # The timeout the runtime applies to this hook, and where it comes from:
    # "configured" (its settings), "default" (the runtime's, for this event and
    # handler type, by the rules of its version), "" (not known: v1, or no timeout).
    timeout_ms: int | None = None
    timeout_source: str = ""
    # What a failure of this hook (a crash, an error exit, no start) does to the
    # action, by the runtime's rules and the hook's settings (Claude Code's
    # `onFailure: "block"`): "open" (it proceeds), "closed" (blocked), "" (not known).
    fails: str = ""
    # JSON pointers (e.g. "/hook/cwd") of values that were not UTF-8: kept with each
    # stray byte as `\xNN` and each backslash doubled (record.hookinfo.unescape_bytes).
    # Absent when there are none.
    escaped: list[str] | UnsetType = msgspec.UNSET

    @property
    def command(self) -> str:
        """The command line that ran, shell-quoted (the filter's `command:`)."""
        import shlex  # here: the tap's recorder imports this module on every call

        return shlex.join(self.argv)


class Redaction(msgspec.Struct, kw_only=True):
    """One secret taken out of the record before it touched disk."""

    pointer: str  # JSON pointer into the record, e.g. "/request/tool_input/command"
    kind: str  # a gitleaks rule id ("github-pat", "aws-access-token", ...) or hooktui's own
    digest: str  # short sha256 of the secret, same as in the marker


class Cut(msgspec.Struct, kw_only=True):
    """A string longer than the record keeps: its head and tail around a marker
    (tap/record/cut.py); these describe it whole."""

    pointer: str  # JSON pointer into the record, e.g. "/tool_output"
    length: int  # bytes, UTF-8
    sha256: str


class HeldAnswer(msgspec.Struct, kw_only=True):
    """What the runtime got instead of the hook's answer (a person decided at a breakpoint)."""

    decision: str = ""  # the verdict the runtime takes from it
    reason: str = ""
    exit_code: int = 0
    stdout: str = ""  # as sent (UTF-8, U+FFFD for other bytes); "" with `--capture digest`
    stderr: str = ""


class Held(msgspec.Struct, kw_only=True):
    """A call a dashboard held at a breakpoint (tap/hold) before the runtime had the answer.

    The record's own stdout/stderr/exit_code/decision stay the hook's; `sent`
    is what went to the runtime instead, absent when that was the hook's answer.
    """

    held_ms: float = 0.0
    # "person" | "deadline" | "dashboard-gone" | "runtime-ended" | "tap-killed", or
    # "dashboard-slow": offered, no word back in time, so never held (held_ms 0)
    released_by: str = ""
    action: str = ""  # "hook" (its own answer) | "allow" | "deny" | "edit" | "answer"
    sent: HeldAnswer | None = None


class Record(msgspec.Struct, kw_only=True):
    """One JSON line of a stream: one hook call, request and answer.

    Every field is written, defaults included, so a reader (or jq) never has to
    guess; only `updated_input`/`updated_output` and `details` are absent when unset,
    and `held` when no dashboard held the call.
    """

    v: int = SCHEMA_VERSION
    id: str
    ts: str  # RFC 3339, UTC, when the hook started
    runtime: str
    runtime_version: str = ""  # when the runtime tells hooks its version ("2.1.332")
    event: str
    native_event: str = ""
    tool_name: str = ""
    decision: str
    reason: str = ""
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    duration_ms: float = 0.0
    failure: str = ""
    failure_detail: str = ""
    effect: str = ""
    summary: str = ""  # one line: the command, the file path, the prompt
    session_id: str = ""
    agent_id: str = ""
    tool_call_id: str = ""
    cwd: str = ""
    # The rest of the canonical call, as the runtime's parser read the request
    # (digested and redacted as the request is).
    prompt: str | None = None
    tool_input: Any = None
    tool_output: Any = None  # post only
    is_error: bool | None = None  # post only
    # Request fields beyond the call (canonical.DETAILS names: permission_mode, effort, ...);
    # absent when there are none.
    details: dict[str, Any] | UnsetType = msgspec.UNSET
    request: Any = None  # parsed JSON, or the raw text when it was not JSON
    request_format: str = "json"  # "json" | "text" | "empty"
    updated_input: Any | UnsetType = msgspec.UNSET
    updated_output: Any | UnsetType = msgspec.UNSET
    context: str = ""
    # What else in the answer the runtime acts on (Verdict.answer_effects): field -> value.
    answer_effects: dict[str, Any] = {}
    hook: HookInfo = msgspec.field(default_factory=HookInfo)
    stdout: Blob = msgspec.field(default_factory=Blob)
    stderr: Blob = msgspec.field(default_factory=Blob)
    redactions: list[Redaction] = []
    capture: str = "redacted"
    tap_version: str = ""
    tap_error: str = ""  # set when the tap itself hit a problem while recording
    held: Held | UnsetType = msgspec.UNSET
    cut: list[Cut] | UnsetType = msgspec.UNSET  # strings kept only in part (cut.py)

    def __post_init__(self) -> None:
        # Runs for every Record decoded or built: an older record is brought up
        # to this version here, once, so no reader needs to know there were others
        # (`v` stays as written: it says what the tap that wrote it knew).
        if self.v < SCHEMA_VERSION:
            _upgrade(self)
        if self.answer_effects:
            self.answer_effects = runtimes.effects_today(self.runtime, self.answer_effects)

    @property
    def call(self) -> Call:
        """The canonical call, from the record's own fields."""
        return Call(
            runtime=self.runtime,
            event=self.event,
            native_event=self.native_event,
            tool_name=self.tool_name,
            tool_input=self.tool_input,
            tool_output=self.tool_output,
            is_error=self.is_error,
            session_id=self.session_id,
            agent_id=self.agent_id,
            tool_call_id=self.tool_call_id,
            cwd=self.cwd,
            prompt=self.prompt,
            details=self.details or None,
        )

    @property
    def sent_instead(self) -> HeldAnswer | None:
        """What the runtime got instead of the hook's answer (a person decided at a
        breakpoint), or None when the hook's own answer went through."""
        held = self.held
        if held is msgspec.UNSET or held.sent is None or not held.sent.decision:
            return None
        return held.sent

    @property
    def verdict(self) -> Verdict:
        return Verdict(
            decision=self.decision,
            reason=self.reason,
            context=self.context,
            updated_input=_unset(self.updated_input),
            updated_output=_unset(self.updated_output),
            failure=self.failure,
            failure_detail=self.failure_detail,
            effect=self.effect,
            answer_effects=self.answer_effects,
        )


def _unset(value: Any) -> Any:
    """A Record's unset field (msgspec's UNSET) as a Verdict's (canonical.UNSET)."""
    return UNSET if value is msgspec.UNSET else value


def _upgrade(record: Record) -> None:
    """v1 -> the current version: the canonical call, read out of the stored request
    by the runtime's parser (the record's request is already redacted or digested
    as its capture said, so the call is too). What v1 did not know stays unknown."""
    from hooktui.tap.runtimes import call_of

    call = call_of(record.runtime, record.request)
    record.prompt = call.prompt
    record.tool_input = call.tool_input
    record.tool_output = call.tool_output
    record.is_error = call.is_error
    if call.details:
        record.details = call.details


class HookHead(msgspec.Struct, omit_defaults=True, kw_only=True):
    label: str = ""
    timeout_ms: int | None = None
    argv: list[str] = []  # with runtime and label, which hook this is (group by hook)

    @property
    def command(self) -> str:
        """The command line that ran, shell-quoted (the filter's `command:`)."""
        import shlex  # here: the tap's recorder imports this module on every call

        return shlex.join(self.argv)


class SentHead(msgspec.Struct, omit_defaults=True, kw_only=True):
    decision: str = ""  # the verdict the runtime took from what was sent


class HeldHead(msgspec.Struct, omit_defaults=True, kw_only=True):
    released_by: str = ""  # "" when the call was not held
    action: str = ""
    sent: SentHead | None = None  # None: the hook's own answer went through


class CallMark(msgspec.Struct, frozen=True, omit_defaults=True):
    """What a record's tool call came to, all its hooks taken together by the runtime's
    rule: set on its RecordHead by the grouping (tap/toolcall), never in a line. The
    `call:`, `conflict:`, `role:` and `hooks` filter terms read it."""

    decision: str = ""  # the call's outcome ("" when not grouped)
    conflicts: str = ""  # space-separated names (tap/runtimes/combine.py CONFLICTS)
    role: str = ""  # this hook's part in it (tap/toolcall/model.py ROLES)
    hooks: int = 0  # how many hook calls answered the call
    key: str = ""  # the call's key (the id of its first hook call)


NO_CALL = CallMark()


class RecordHead(msgspec.Struct, omit_defaults=True, kw_only=True):
    """The part of a Record a list row, a header count or a filter needs.

    Decoding only these fields skips the request and the captured bytes, which
    are most of a line; the full Record is decoded lazily, for the detail pane.

    `decision` is the verdict the runtime got: for a call a person decided at a
    breakpoint, what was sent instead (`held.sent`); `hook_decision` is always the
    hook's own (the record's `decision`). Both are set at decode (runtime_decision).
    """

    v: int = SCHEMA_VERSION
    id: str = ""
    ts: str = ""
    runtime: str = runtimes.UNKNOWN
    event: str = "other"
    native_event: str = ""
    tool_name: str = ""
    decision: str = "failure"
    reason: str = ""
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    duration_ms: float = 0.0
    failure: str = ""
    effect: str = ""
    summary: str = ""
    session_id: str = ""
    agent_id: str = ""
    tool_call_id: str = ""
    hook: HookHead = msgspec.field(default_factory=HookHead)
    held: HeldHead = msgspec.field(default_factory=HeldHead)
    hook_decision: str = ""  # not in the line: set at decode
    toolcall: CallMark = NO_CALL  # not in the line: set by the grouping (tap/toolcall)
    # Not in the line: a failed hook's last stderr line (its error), set when a
    # reader decodes the whole line (tap/read/decode.py); "" for any other call.
    said: str = ""

    def __post_init__(self) -> None:
        runtime_decision(self)


def runtime_decision(head: Any) -> None:
    """`decision` := what the runtime got, `hook_decision` := the hook's own answer.

    The __post_init__ of RecordHead and of every partial head (read.decode): an
    answer a person sent at a breakpoint is the verdict the runtime acted on.
    """
    head.hook_decision = head.decision
    held = head.held
    if held is not None and held.sent is not None and held.sent.decision:
        head.decision = held.sent.decision


# One reusable encoder/decoder per type (msgspec builds them once).
record_encoder = msgspec.json.Encoder()
record_decoder = msgspec.json.Decoder(Record)
head_decoder = msgspec.json.Decoder(RecordHead)


def encode_record(record: Record) -> bytes:
    """One complete line, newline included."""
    return record_encoder.encode(record) + b"\n"


def decode_record(line: bytes | str) -> Record:
    """Raises msgspec.DecodeError / ValidationError on a bad line."""
    return record_decoder.decode(line)


def decode_head(line: bytes | str) -> RecordHead:
    """Raises msgspec.DecodeError / ValidationError on a bad line."""
    return head_decoder.decode(line)
