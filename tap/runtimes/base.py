"""Helpers the runtimes share: reading requests and answers, writing answers.

No fact about one runtime lives here (each runtime's file holds its own).
Everything here is on the tap's recording path: JSON through tap/base/jsonio.py
(CPython's `_json`), no msgspec, no `typing`.
"""

from __future__ import annotations

from hooktui.tap.base import jsonio
from hooktui.tap.canonical import UNSET, Call, Outcome, Verdict
from hooktui.tap.runtimes.descriptor import Runtime

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

# The old name of a runtime's descriptor (tests and other helpers import it).
Adapter = Runtime


# ---------------------------------------------------------------------------
# Reading requests


def as_dict(request: Any) -> dict:
    return request if isinstance(request, dict) else {}


def s(d: dict, *keys: str) -> str:
    """The first of `keys` that holds a string (ids, names); "" otherwise."""
    for key in keys:
        value = d.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
    return ""


def native_of(call: Call, events: dict, default: str) -> str:
    """The call's native event; for a call built without one, the first native name of
    its canonical event in `events` (else `default`)."""
    return call.native_event or next((n for n, e in events.items() if e == call.event), default)


def is_pascal_name(name: Any) -> bool:
    return isinstance(name, str) and name[:1].isupper() and name.isidentifier()


def is_camel_name(name: Any) -> bool:
    return isinstance(name, str) and name[:1].islower() and name.isidentifier() and "_" not in name


# ---------------------------------------------------------------------------
# Reading answers


class Stdout:
    """A hook's stdout, read once: empty, a JSON value, or text (`text` is always set)."""

    __slots__ = ("kind", "value", "text")

    def __init__(self, raw: bytes):
        text = raw.decode("utf-8", errors="replace").strip()
        self.text = text
        self.value: Any = None
        if not text:
            self.kind = "empty"
            return
        try:
            self.value = jsonio.loads(text)
            self.kind = "json"
        except jsonio.NotJSON:
            self.kind = "text"

    @property
    def obj(self) -> dict | None:
        """The JSON object, when stdout was one."""
        return self.value if self.kind == "json" and isinstance(self.value, dict) else None


def text_of(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace").strip()


def str_field(d: dict, *keys: str) -> str:
    """A reason-like field as text (non-strings are rendered as compact JSON)."""
    for key in keys:
        value = d.get(key)
        if value is None:
            continue
        if isinstance(value, str):
            return value
        return jsonio.dumps(value).decode()
    return ""


def failure(kind: str, detail: str, effect: str = "proceeds") -> Verdict:
    return Verdict(decision="failure", failure=kind, failure_detail=detail, effect=effect)


def halt(call: Call, reason: str, context: str = "") -> Verdict:
    """`continue: false`: the agent stops altogether.

    Whatever was about to happen does not: a deny, except at a stop event, where
    stopping is exactly what the hook was asked to allow.
    """
    decision = "allow" if call.event == "stop" else "deny"
    return Verdict(decision=decision, reason=reason, context=context)


def process_failure(outcome: Outcome, title: str, effect: str, consequence: str) -> Verdict | None:
    """The failures every runtime reads the same way: could not start, timed out, killed.

    `consequence` finishes the sentence ("the tool ran", "the call was refused").
    """
    if outcome.spawn_error:
        return failure(
            "spawn_error",
            f"the hook could not be started ({outcome.spawn_error}); {title}: {consequence}",
            effect,
        )
    if outcome.timed_out:
        return failure(
            "timeout",
            f"the hook ran past its timeout and was killed; {title}: {consequence}",
            effect,
        )
    if outcome.signal is not None or outcome.exit_code is None:
        sig = f"signal {outcome.signal}" if outcome.signal is not None else "an unknown cause"
        return failure("signal", f"the hook was killed by {sig}; {title}: {consequence}", effect)
    return None


# ---------------------------------------------------------------------------
# Writing answers


def json_line(obj: Any) -> bytes:
    return jsonio.dumps(obj) + b"\n"


def has(value: Any) -> bool:
    """True when a Verdict's optional field (updated_input/updated_output) is set."""
    return value is not UNSET


def cannot(runtime: str, verdict: Verdict, event: str) -> ValueError:
    what = verdict.decision if verdict.decision != "failure" else f"failure ({verdict.failure})"
    return ValueError(f"{runtime} has no hook answer that means {what} at {event}")


def encode_generic_failure(
    runtime: str, call: Call, verdict: Verdict, exit_code: int = 1
) -> tuple[bytes, bytes, int]:
    """Answers that produce a failure in most runtimes; ValueError for the rest."""
    kind = verdict.failure
    if kind == "exit_code":
        return b"", (verdict.failure_detail or "hook error").encode() + b"\n", exit_code
    if kind == "invalid_json":
        return b"{not json\n", b"", 0
    raise cannot(runtime, verdict, call.native_event or call.event)
