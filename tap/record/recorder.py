"""Turning one hook call (request bytes + Outcome) into a Record, and writing it.

Runs in the tap's forked child after the hook's answer has gone back, so it
may import what it likes from `hooktui.tap`. Order matters:

1. the adapters judge the call from the untouched request and outcome;
2. `--capture digest` replaces prompts and tool outputs (request fields, the
   replaced output, stdout/stderr) with `[digest sha256:<hex> len:<n>]`,
   where the digest and length are those of the UTF-8 text (or, for a JSON
   object or array, of its compact JSON encoding);
3. unless `--capture full`, every string of the record is redacted (see
   redact.py), stdout/stderr before they are cut to size, so a secret that
   straddles the cap is still caught;
4. stdout/stderr are capped at BLOB_CAP bytes each; `length` and `sha256`
   always describe the original bytes.
"""

from __future__ import annotations

import base64
import hashlib
import os
import time
from typing import Any

import msgspec
from hooktui.tap import model
from hooktui.tap.command import script_name
from hooktui.tap.model import Blob, HookInfo, Outcome, Record, Redaction, Verdict
from hooktui.tap.record.request import load_request
from hooktui.tap.record.summary import summarize
from hooktui.tap.runtimes import ADAPTERS, judge_request

BLOB_CAP = 256 * 1024

# Request fields that hold a prompt or a tool's output, in any runtime's
# words: `--capture digest` keeps only their digest.
DIGEST_FIELDS = frozenset(
    {
        "prompt",
        "tool_response",  # claude-code, codex, gemini-cli
        "tool_output",  # fastpace
        "output",  # basis
        "response",
        "llm_request",  # gemini-cli BeforeModel/AfterModel
        "llm_response",
        "last_assistant_message",
    }
)


def digest_marker(value: Any) -> str:
    """`[digest sha256:<hex> len:<n>]` for a string, or a value's compact JSON."""
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
    else:
        data = msgspec.json.encode(value)
    return f"[digest sha256:{hashlib.sha256(data).hexdigest()} len:{len(data)}]"


def default_label(argv: list[str]) -> str:
    """A short name for a hook: its script rather than its interpreter.

    `python3 /x/guard.py` -> `guard.py`; `sh -c 'uv run ~/h/policy.py --strict'`
    -> `policy.py`; `/usr/local/bin/gate` -> `gate`.
    """
    return script_name(argv)


def hook_env() -> dict[str, str]:
    """The runtime variables hooks read, as this hook saw them."""
    names = {"HOOKTUI_REPLAY"}
    for adapter in ADAPTERS.values():
        names.update(adapter.env_vars)
    return {name: os.environ[name] for name in sorted(names) if name in os.environ}


def new_id(started_at: float) -> str:
    """Time-sortable and unique: microseconds since the epoch, then randomness."""
    return f"{int(started_at * 1_000_000):014x}{os.urandom(6).hex()}"


def rfc3339(ts: float) -> str:
    micros = int(round(ts * 1_000_000))
    seconds, micros = divmod(micros, 1_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{micros:06d}Z"


def _blob_text(raw: bytes) -> tuple[str, str]:
    """(text, encoding): UTF-8 text as is; other bytes held losslessly as
    surrogate escapes until they are base64-encoded at the end."""
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("utf-8", "surrogateescape"), "base64"


def _finish_blob(text: str, encoding: str, raw: bytes) -> Blob:
    """Cap the (possibly redacted) text; describe the original bytes."""
    sha = hashlib.sha256(raw).hexdigest()
    if encoding == "digest":
        return Blob(data="", encoding="digest", length=len(raw), sha256=sha)
    if encoding == "base64":
        data = text.encode("utf-8", "surrogateescape")
        cut = data[:BLOB_CAP]
        return Blob(
            data=base64.b64encode(cut).decode("ascii"),
            encoding="base64",
            length=len(raw),
            sha256=sha,
            truncated=len(cut) < len(data),
        )
    data = text.encode("utf-8")
    cut = data[:BLOB_CAP].decode("utf-8", "ignore")  # never half a character
    return Blob(
        data=cut, encoding="utf-8", length=len(raw), sha256=sha, truncated=len(cut) < len(text)
    )


def _digest_request(request: Any) -> Any:
    if not isinstance(request, dict):
        return request
    return {
        k: digest_marker(v) if k in DIGEST_FIELDS and v is not None else v
        for k, v in request.items()
    }


def build_record(
    raw_request: bytes,
    outcome: Outcome,
    *,
    hook: HookInfo,
    runtime: str | None,
    capture: str,
    started_at: float,
    tap_version: str,
) -> Record:
    """The Record for one call: judged, digested/redacted per `capture`, capped."""
    if capture not in model.CAPTURES:
        raise ValueError(f"unknown capture {capture!r}")
    request, request_format = load_request(raw_request)
    tap_error = ""
    try:
        _adapter, call, verdict = judge_request(request, outcome, runtime)
    except Exception as exc:  # a bug in an adapter must not lose the call
        tap_error = f"judging failed: {exc!r}"
        call = model.Call(runtime=runtime or model.UNKNOWN, event="other")
        verdict = Verdict(
            decision="failure" if outcome.exit_code != 0 else "allow",
            failure="exit_code" if outcome.exit_code != 0 else "",
        )
    if outcome.spawn_error and verdict.failure != "spawn_error":
        verdict = msgspec.structs.replace(
            verdict,
            decision="failure",
            failure="spawn_error",
            failure_detail=outcome.spawn_error,
            effect=verdict.effect or "proceeds",
        )

    updated_input = verdict.updated_input
    updated_output = verdict.updated_output
    out_text, out_enc = _blob_text(outcome.stdout)
    err_text, err_enc = _blob_text(outcome.stderr)
    if capture == "digest":
        if request_format == "json":
            request = _digest_request(request)
        elif request_format == "text":  # no telling what is a prompt in raw text: all of it
            request = digest_marker(request)
        call = msgspec.structs.replace(
            call,
            prompt=None if call.prompt is None else digest_marker(call.prompt),
            tool_output=None if call.tool_output is None else digest_marker(call.tool_output),
        )
        if updated_output is not msgspec.UNSET:
            updated_output = digest_marker(updated_output)
        if call.event == "user_prompt" and updated_input is not msgspec.UNSET:
            updated_input = digest_marker(updated_input)  # a rewritten prompt is a prompt
        out_text, out_enc, err_text, err_enc = "", "digest", "", "digest"

    try:
        summary = summarize(call)
    except Exception as exc:
        summary = ""
        tap_error = tap_error or f"summary failed: {exc!r}"

    fields: dict[str, Any] = {
        "id": new_id(started_at),
        "ts": rfc3339(started_at),
        "runtime": call.runtime or model.UNKNOWN,
        "event": call.event or "other",
        "native_event": call.native_event,
        "tool_name": call.tool_name,
        "decision": verdict.decision,
        "reason": verdict.reason,
        "exit_code": outcome.exit_code,
        "signal": outcome.signal,
        "timed_out": outcome.timed_out,
        "duration_ms": round(outcome.duration_ms, 3),
        "failure": verdict.failure,
        "failure_detail": verdict.failure_detail,
        "effect": verdict.effect,
        "summary": summary,
        "session_id": call.session_id,
        "agent_id": call.agent_id,
        "tool_call_id": call.tool_call_id,
        "cwd": call.cwd,
        "request": request,
        "request_format": request_format,
        "context": verdict.context,
        "hook": msgspec.to_builtins(hook),
        "stdout": {"data": out_text},
        "stderr": {"data": err_text},
        "capture": capture,
        "tap_version": tap_version,
        "tap_error": tap_error,
    }
    if updated_input is not msgspec.UNSET:
        fields["updated_input"] = updated_input
    if updated_output is not msgspec.UNSET:
        fields["updated_output"] = updated_output

    redactions: list[Redaction] = []
    if capture != "full":
        fields, found = _redact_fields(fields)
        redactions = [Redaction(pointer=p, kind=k, digest=d) for p, k, d in found]

    fields["stdout"] = _finish_blob(fields["stdout"]["data"], out_enc, outcome.stdout)
    fields["stderr"] = _finish_blob(fields["stderr"]["data"], err_enc, outcome.stderr)
    fields["hook"] = msgspec.convert(fields["hook"], HookInfo)
    return Record(redactions=redactions, **fields)


def _redact_fields(fields: dict[str, Any]) -> tuple[dict[str, Any], list]:
    from hooktui.tap.record.redact import redact_tree

    # The record's own bookkeeping holds no user text.
    skip = {"id", "ts", "capture", "tap_version", "request_format", "runtime", "event", "decision"}
    kept = {k: fields[k] for k in skip if k in fields}
    walked, found = redact_tree({k: v for k, v in fields.items() if k not in skip})
    walked.update(kept)
    return walked, found


def record_call(
    opts: dict,
    request: bytes,
    stdout: bytes,
    stderr: bytes,
    exit_code: int | None,
    signal: int | None,
    started_at: float,
    duration_ms: float,
    spawn_error: str,
    *,
    killed: bool | None = None,
) -> Record:
    """What the tap's recorder does: build the record and append it to the stream.

    `killed` is set when the tap's watchdog records the call because the tap
    itself was killed (see watchdog.py): True when that was at the configured
    timeout, False when earlier.

    Problems go to the error log beside the stream (and, when the record could
    still be built, into its `tap_error`); never to the hook's stderr.
    """
    from hooktui.tap.hotpath import stream
    from hooktui.tap.version import __version__

    path = opts.get("stream") or stream.default_stream_path()
    command = list(opts["command"])
    outcome = Outcome(
        stdout=stdout,
        stderr=stderr,
        exit_code=exit_code,
        signal=signal,
        timed_out=ran_out_of_time(opts, signal, duration_ms) if killed is None else killed,
        duration_ms=duration_ms,
        spawn_error=spawn_error,
    )
    hook = HookInfo(
        label=opts.get("label") or default_label(command),
        argv=command,
        cwd=_cwd(),
        env=hook_env(),
        timeout_ms=opts.get("timeout_ms"),
    )
    record = build_record(
        request,
        outcome,
        hook=hook,
        runtime=opts.get("runtime"),
        capture=opts.get("capture") or "redacted",
        started_at=started_at,
        tap_version=__version__,
    )
    if killed is not None and record.decision == "failure":
        note = _killed_note(opts, killed)
        detail = record.failure_detail
        record.failure_detail = f"{detail} ({note})" if detail else note
    if record.tap_error:
        stream.log_error(path, record.tap_error)
    try:
        stream.append_line(path, model.encode_record(record))
    except OSError as exc:
        stream.log_error(path, f"cannot write the stream: {exc}")
    return record


def _killed_note(opts: dict, at_timeout: bool) -> str:
    if at_timeout:
        return (
            f"the runtime killed the hook command, the tap, at its {opts.get('timeout_ms')} ms "
            "timeout; recorded by the tap's watchdog"
        )
    return (
        "the tap was killed before the hook answered, short of its timeout; "
        "recorded by the tap's watchdog"
    )


def ran_out_of_time(opts: dict, signal: int | None, duration_ms: float) -> bool:
    """Did the runtime stop this hook for its timeout?

    The tap cannot see the runtime's clock, only its signal: a hook that died
    by a signal the tap forwarded, at (or within 5 % before) the configured
    `--timeout-ms`, was killed for running too long. The runtime's clock
    started when it spawned the tap: the tap's own start-up (`startup_ms`,
    set by the shim when it forwarded a signal) counts too.
    """
    timeout_ms = opts.get("timeout_ms")
    return bool(
        timeout_ms
        and signal is not None
        and opts.get("forwarded")
        and duration_ms + opts.get("startup_ms", 0.0) >= timeout_ms * 0.95
    )


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return os.environ.get("PWD", "")
