"""What a recorded call means by today's rules: the baseline a replay compares with.

A record holds the verdict the tap read when it was written, by that hooktui's rules
for the runtime. Rules change (a runtime release, a fixed adapter), so comparing a
replay with the written verdict would show an upgrade of hooktui as a policy change.
The recorded outcome (exit code, signal, timeout, stdout and stderr where kept) is
judged again with the current rules instead; where that reading differs from the
written verdict, the record says so apart ("rules changed since recording").

An outcome can be judged again only when the record kept it whole: not for digest
captures, for an output cut at the recorder's cap, or for a hook that never started.
The written verdict is the baseline then.
"""

from __future__ import annotations

import base64
import binascii

import msgspec
from hooktui.replay.compare import verdict_key
from hooktui.tap.canonical import Outcome, Verdict
from hooktui.tap.model import Blob, Record


class Baseline(msgspec.Struct, kw_only=True):
    verdict: Verdict  # what the replay is compared with
    recorded: Verdict  # what the record says
    rejudged: bool = False  # verdict is today's reading of the recorded outcome
    rules_changed: bool = False  # ... and it differs from the recorded verdict
    why_not: str = ""  # why the outcome could not be judged again


def _blob_bytes(blob: Blob) -> bytes | None:
    """The captured bytes, or None when they were not kept whole."""
    if blob.truncated or blob.encoding == "digest":
        return None
    if blob.encoding == "base64":
        try:
            return base64.b64decode(blob.data, validate=True)
        except (binascii.Error, ValueError):
            return None
    if blob.encoding != "utf-8":
        return None
    return blob.data.encode("utf-8", "surrogateescape")


def recorded_outcome(record: Record) -> tuple[Outcome | None, str]:
    """(the outcome as recorded, "") or (None, why it cannot be rebuilt)."""
    if record.failure == "spawn_error":
        return None, "the hook did not start"
    if record.capture == "digest":
        return None, "captured as digests only"
    if record.exit_code is None and record.signal is None and not record.timed_out:
        return None, "the recorded exit status is missing"
    stdout = _blob_bytes(record.stdout)
    stderr = _blob_bytes(record.stderr)
    if stdout is None or stderr is None:
        return None, "the recorded output was cut or not kept"
    return (
        Outcome(
            stdout=stdout,
            stderr=stderr,
            exit_code=record.exit_code,
            signal=record.signal,
            timed_out=record.timed_out,
            duration_ms=record.duration_ms,
        ),
        "",
    )


def judge(record: Record, outcome: Outcome) -> Verdict:
    """The verdict of the runtime that recorded the call (judge_request never raises)."""
    from hooktui.tap.runtimes import judge_request

    # By the rules of the version that ran the hook, for the hook as it was set up.
    _, _, verdict = judge_request(
        record.request,
        outcome,
        runtime=record.runtime or None,
        version=record.runtime_version,
        fail_closed=record.hook.fails == "closed",
    )
    return verdict


def baseline(record: Record) -> Baseline:
    """Today's reading of the recorded outcome, beside the recorded verdict."""
    recorded = record.verdict
    outcome, why_not = recorded_outcome(record)
    if outcome is None:
        return Baseline(verdict=recorded, recorded=recorded, why_not=why_not)
    today = judge(record, outcome)
    changed = verdict_key(today) != verdict_key(recorded)
    if changed and _output_redacted(record):
        # The recorder took a secret out of stdout or stderr: the bytes judged today are
        # not the ones judged then, so a difference says nothing about the rules.
        return Baseline(
            verdict=recorded, recorded=recorded, why_not="the recorded output was redacted"
        )
    return Baseline(verdict=today, recorded=recorded, rejudged=True, rules_changed=changed)


def _output_redacted(record: Record) -> bool:
    return any(r.pointer.startswith(("/stdout", "/stderr")) for r in record.redactions)
