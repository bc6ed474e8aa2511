"""Turning one hook call (a TapCall) into a record, and appending it to the stream.

Runs after the hook's answer has gone back, in a process of its own, once per
tool call: it imports only what writing a record needs (`_json`, the built-in
sha256, `binascii`; `re` and the redaction rules only when a string holds a
rule's keyword), and builds the record as plain JSON data in the field order
of `hooktui.tap.model.Record`, which readers decode it with. The runtimes
(tap/runtimes) load no msgspec, `typing` or `dataclasses` either. Steps:

1. judge: the runtime reads the untouched request and output, and says its
   version, the hook's timeout and what a failure of it does (judge.py);
2. assemble the record's fields, the canonical call among them, so readers
   need no runtime's parser; the hook's argv, cwd and variables are kept
   even when they are not UTF-8 (hookinfo.py);
3. `--capture digest`: prompts and tool outputs, and every quote of them
   elsewhere, become `[digest sha256:<hex> len:<n>]` (digest.py);
4. unless `--capture full`, every string of the record, keys included, is
   redacted (redact.py), stdout/stderr before they are cut to size, so a
   secret that straddles the cap is still caught;
5. stdout/stderr are capped at BLOB_CAP bytes each; `length` and `sha256`
   always describe all the bytes the hook wrote.
"""

from __future__ import annotations

import time

from hooktui.tap.base import jsonio, stream
from hooktui.tap.base.ids import new_id
from hooktui.tap.record import digest
from hooktui.tap.record.blobs import blob_text, finish_blob, tail_text
from hooktui.tap.record.cut import PARSE_MAX, body_cap, bound, cut_text
from hooktui.tap.record.hookinfo import escape_bytes, hook_info
from hooktui.tap.record.judge import ABSENT, Judged, judge
from hooktui.tap.record.request import load_request
from hooktui.tap.record.tapcall import CAPTURES, TapCall
from hooktui.tap.version import __version__

TYPE_CHECKING = False  # not `typing`'s: see tap/base/jsonio.py
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 2  # hooktui.tap.model.SCHEMA_VERSION (a test checks)
UNKNOWN = "unknown"  # hooktui.tap.model.UNKNOWN

# The record's own bookkeeping: no user text, so never redacted or scrubbed.
_BOOKKEEPING = frozenset(
    {"v", "id", "ts", "capture", "tap_version", "request_format", "runtime", "event"}
    | {"runtime_version", "decision", "redactions", "cut"}
)


def record(call: TapCall) -> dict | None:
    """What the tap's recorder does: build the record and append it to the stream.

    Problems go to the error log beside the stream (and, when the record could
    still be built, into its `tap_error`); never to the hook's stderr.
    """
    path = call.stream or stream.default_stream_path()
    try:
        built = build_record(call)
        line = encode_line(built)
    except Exception as exc:  # a bug here must not go unseen: the error log says so
        stream.log_error(path, f"recording failed: {exc!r}")
        return None
    if built["tap_error"]:
        stream.log_error(path, built["tap_error"])
    try:
        stream.append_line(path, line)
    except OSError as exc:
        stream.log_error(path, f"cannot write the stream: {exc}")
    _keep_compiled_patterns()
    return built


def _keep_compiled_patterns() -> None:
    """Once the record is in: patterns `re` compiled for it go to the cache (sre_cache.py)."""
    from sys import modules

    cache = modules.get("hooktui.tap.record.sre_cache")
    if cache is not None:
        try:
            cache.save()
        except Exception:  # a cache that cannot be written costs time, never a record
            pass


def build_record(call: TapCall, *, tap_version: str = __version__) -> dict:
    """The record for one call: judged, digested/redacted per `capture`, capped."""
    if call.capture not in CAPTURES:
        raise ValueError(f"unknown capture {call.capture!r}")
    cap = body_cap()
    request, request_format = _loaded(call.request, cap)
    judged = judge(call, request)
    fields = assemble(call, request, request_format, judged, tap_version)
    cuts = bound(fields, call.request, call.stdout.length, cap)
    if cuts:
        fields["cut"] = cuts
    blobs = {name: blob_text(getattr(call, name)) for name in ("stdout", "stderr")}
    if call.capture == "digest":
        keep_digests_only(fields, judged)
        blobs = {name: ("", "digest") for name in blobs}
    for name, (text, encoding) in blobs.items():
        tail = tail_text(getattr(call, name), encoding, cap)
        fields[name] = {"data": text, "tail": tail} if tail else {"data": text}
    if call.capture != "full":
        redact_fields(fields)
    for name, (_text, encoding) in blobs.items():
        kept = fields[name]
        captured = getattr(call, name)
        fields[name] = finish_blob(kept["data"], encoding, captured, kept.get("tail", ""), cap)
    return fields


def _loaded(raw: bytes, cap: int):
    """The request as the record holds it; past PARSE_MAX it is not parsed (cut.py)."""
    if len(raw) > PARSE_MAX:
        cuts: list = []
        return cut_text(raw.decode("utf-8", "replace"), cap, "/request", cuts), "text"
    return load_request(raw)


def encode_line(fields: dict) -> bytes:
    """One complete JSON line. A string that UTF-8 cannot hold is escaped, and said."""
    try:
        return jsonio.dumps(fields) + b"\n"
    except ValueError:
        fields = _escape_unencodable(fields)
        note = "a value that was not UTF-8 was recorded escaped (\\xNN)"
        fields["tap_error"] = f"{fields['tap_error']}; {note}" if fields["tap_error"] else note
        return jsonio.dumps(fields) + b"\n"


# --- 2. assemble ---------------------------------------------------------


def assemble(
    call: TapCall, request: Any, request_format: str, judged: Judged, tap_version: str
) -> dict:
    """The record's fields, in Record's order (stdout/stderr filled in later)."""
    c, v = judged.call, judged.verdict
    summary, problem = _summary(c)
    fields: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "id": new_id(call.started_at),
        "ts": rfc3339(call.started_at),
        "runtime": c.runtime or UNKNOWN,
        "runtime_version": judged.version,
        "event": c.event or "other",
        "native_event": c.native_event,
        "tool_name": c.tool_name,
        "decision": v["decision"],
        "reason": v["reason"],
        "exit_code": call.exit_code,
        "signal": call.signal,
        "timed_out": judged.timed_out,
        "duration_ms": round(call.duration_ms, 3),
        "failure": v["failure"],
        "failure_detail": _failure_detail(call, v),
        "effect": v["effect"],
        "summary": summary,
        "session_id": c.session_id,
        "agent_id": c.agent_id,
        "tool_call_id": c.tool_call_id,
        "cwd": c.cwd,
        "prompt": c.prompt,
        "tool_input": c.tool_input,
        "tool_output": c.tool_output,
        "is_error": c.is_error,
    }
    if c.details:
        fields["details"] = c.details
    fields.update(request=request, request_format=request_format)
    for name in ("updated_input", "updated_output"):
        if v[name] is not ABSENT:
            fields[name] = v[name]
    fields["context"] = v["context"]
    fields["answer_effects"] = v["answer_effects"]
    runtime_view = {
        "timeout_ms": judged.timeout_ms,
        "timeout_source": judged.timeout_source,
        "fails": judged.fails,
    }
    fields["hook"] = hook_info(
        call.argv, call.label, [*runtime_env_names(), *call.hook_env], default_label, runtime_view
    )
    fields.update(stdout=None, stderr=None, redactions=[], capture=call.capture)
    fields["tap_version"] = tap_version
    fields["tap_error"] = judged.problem or problem
    if call.held:
        fields["held"] = held_fields(call.held, call.capture)
    return fields


def held_fields(held: dict, capture: str) -> dict:
    """The record's `held` (model.Held): the hold, and what was sent instead of the hook's answer."""
    fields = {
        "held_ms": round(float(held.get("held_ms") or 0), 3),
        "released_by": str(held.get("released_by") or ""),
        "action": str(held.get("action") or "hook"),
    }
    sent = held.get("sent")
    if sent:
        keep = capture != "digest"  # an answer may quote the tool's output
        fields["sent"] = {
            "decision": str(sent.get("decision") or ""),
            "reason": str(sent.get("reason") or ""),
            "exit_code": int(sent.get("exit_code") or 0),
            "stdout": sent["stdout"].decode("utf-8", "replace") if keep else "",
            "stderr": sent["stderr"].decode("utf-8", "replace") if keep else "",
        }
    return fields


def _summary(call: Any) -> tuple[str, str]:
    from hooktui.tap.record.summary import summarize

    try:
        return summarize(call), ""
    except Exception as exc:
        return "", f"summary failed: {exc!r}"


def _failure_detail(call: TapCall, verdict: dict) -> str:
    detail = verdict["failure_detail"]
    if call.killed is None or verdict["decision"] != "failure":
        return detail
    if call.killed:
        note = (
            f"the runtime killed the hook command, the tap, at its {call.timeout_ms} ms "
            "timeout; recorded by the tap's watchdog"
        )
    else:
        note = (
            "the tap was killed before the hook answered, short of its timeout; "
            "recorded by the tap's watchdog"
        )
    return f"{detail} ({note})" if detail else note


def runtime_env_names() -> list[str]:
    """The runtime variables hooks read (each adapter's), and HOOKTUI_REPLAY."""
    from hooktui.tap.runtimes import ADAPTERS

    names = ["HOOKTUI_REPLAY"]
    for adapter in ADAPTERS.values():
        names.extend(adapter.env_vars)
    return names


def default_label(argv: list[str]) -> str:
    """A short name for a hook: its script rather than its interpreter.

    `python3 /x/guard.py` -> `guard.py`; `sh -c 'uv run ~/h/policy.py --strict'`
    -> `policy.py`; `/usr/local/bin/gate` -> `gate`.
    """
    from hooktui.tap.command import script_name

    return script_name(argv)


def rfc3339(ts: float) -> str:
    micros = int(round(ts * 1_000_000))
    seconds, micros = divmod(micros, 1_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{micros:06d}Z"


# --- 3. digest -----------------------------------------------------------


def keep_digests_only(fields: dict, judged: Judged) -> None:
    """`--capture digest`: no prompt or tool output left anywhere (digest.py)."""
    quoted: list[str] = []
    keys = digest.digest_keys(fields["runtime"])
    _digest_request(fields, keys, quoted)
    _digest_call(fields, keys, quoted)
    _digest_private_texts(fields, quoted)
    rewrites_prompt = fields["event"] == "user_prompt"
    for name in ("updated_output", "updated_input"):
        if name in fields and (name == "updated_output" or rewrites_prompt):
            digest.strings(fields[name], quoted)
            fields[name] = digest.digest_marker(fields[name])
    effects = fields["answer_effects"]
    if effects:  # a model's request or answer, a prompt: digested like the tool output
        for value in effects.values():
            digest.strings(value, quoted)
        fields["answer_effects"] = {k: digest.digest_marker(v) for k, v in effects.items()}
    fields["summary"], _ = _summary(_Masked(judged.call))
    quotes = digest.Quotes(quoted)
    if quotes:
        for name, value in fields.items():
            if name not in _BOOKKEEPING and name not in ("stdout", "stderr"):
                fields[name] = quotes.scrub(value)


def _digest_request(fields: dict, keys: frozenset[str], quoted: list[str]) -> None:
    request = fields["request"]
    if fields["request_format"] == "json":
        fields["request"] = digest.digest_keys_in(request, keys, quoted)
    elif fields["request_format"] == "text":  # no telling what is a prompt in raw text: all
        quoted.append(request)
        fields["request"] = digest.digest_marker(request)


def _digest_private_texts(fields: dict, quoted: list[str]) -> None:
    """The request details that hold the model's words or a tool's output."""
    from hooktui.tap.canonical import PRIVATE_TEXTS

    if "details" in fields:
        fields["details"] = digest.digest_keys_in(fields["details"], PRIVATE_TEXTS, quoted)


def _digest_call(fields: dict, keys: frozenset[str], quoted: list[str]) -> None:
    """The canonical call as its request now reads: the same markers in the same places."""
    for name in ("prompt", "tool_output"):
        if fields[name] is not None:
            digest.strings(fields[name], quoted)
            fields[name] = digest.digest_marker(fields[name])
    fields["tool_input"] = digest.digest_keys_in(fields["tool_input"], keys, quoted)


class _Masked:
    """A canonical call with its prompt and tool output digested (for the summary)."""

    def __init__(self, call: Any) -> None:
        self._call = call
        self.prompt = None if call.prompt is None else digest.digest_marker(call.prompt)
        self.tool_output = (
            None if call.tool_output is None else digest.digest_marker(call.tool_output)
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._call, name)


# --- 4. redact -----------------------------------------------------------


def redact_fields(fields: dict) -> None:
    """Every string but the bookkeeping redacted; `redactions` says what and where."""
    from hooktui.tap.record.redact import redact_tree

    walked, found = redact_tree({k: v for k, v in fields.items() if k not in _BOOKKEEPING})
    fields.update(walked)
    fields["redactions"] = [{"pointer": p, "kind": k, "digest": d} for p, k, d in found]


def _escape_unencodable(value: Any) -> Any:
    """Strings holding lone surrogates (bytes Python kept aside) escaped as `\\xNN`."""
    if isinstance(value, str):
        if not jsonio.has_surrogates(value):
            return value
        return escape_bytes(value.encode("utf-8", "surrogateescape"))[0]
    if isinstance(value, dict):
        return {_escape_unencodable(k): _escape_unencodable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_escape_unencodable(v) for v in value]
    return value
