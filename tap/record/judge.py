"""Step 1 of a record: what the runtime makes of the call, and what it tells about itself.

The runtime that sent the call (named by the hook's environment, else forced by
`--runtime`, else detected) reads the
untouched request into the canonical call and the hook's answer into a verdict,
by the rules of its version when it tells hooks its version (its variables, in
the hook's environment, which is this process's). The same runtime says which
timeout it applies to this hook (the configured one, else its default for the
event) and whether a failure of the hook blocks the action (its own rules, and
the hook's settings as install passed them: `--fail-closed`).
"""

from __future__ import annotations

import os

from hooktui.tap.record.tapcall import TapCall

TYPE_CHECKING = False  # not `typing`'s: see tap/base/jsonio.py
if TYPE_CHECKING:
    from typing import Any

UNKNOWN = "unknown"  # hooktui.tap.runtimes.UNKNOWN

VERDICT_FIELDS = (
    "decision",
    "reason",
    "context",
    "updated_input",
    "updated_output",
    "failure",
    "failure_detail",
    "effect",
    "answer_effects",
)
ABSENT = object()  # a verdict field the runtime left unset


class Judged:
    """The runtime's reading of one call, as plain values for the record.

    `call`: the canonical Call; `verdict`: VERDICT_FIELDS (ABSENT where unset);
    `problem`: what went wrong judging, if anything; `version`: the runtime's
    version ("" unknown); `timeout_ms`, `timeout_source` ("configured",
    "default" or ""), `fails` ("open", "closed" or "" unknown): the hook, as
    this runtime treats it.
    """

    __slots__ = (
        "call",
        "verdict",
        "problem",
        "version",
        "timeout_ms",
        "timeout_source",
        "fails",
        "timed_out",
    )

    def __init__(self, call: Any, verdict: dict, problem: str = "") -> None:
        self.call = call
        self.verdict = verdict
        self.problem = problem
        self.version = ""
        self.timeout_ms: int | None = None
        self.timeout_source = ""
        self.fails = ""
        self.timed_out = False  # the runtime stopped the hook for its timeout


def judge(call: TapCall, request: Any) -> Judged:
    """Read the call by its runtime's rules (tap/runtimes); never raises."""
    from hooktui.tap import runtimes
    from hooktui.tap.canonical import UNSET, Call

    ran_out = timed_out(call, call.timeout_ms)
    try:
        reader = runtimes.reader_of(request, call.runtime, os.environ)
        version = reader.version_in(os.environ)
        ran_out = timed_out(call, applied_timeout_ms(call, reader, request, version))
        outcome = _outcome(call, ran_out)
        runtime, canonical, verdict = runtimes.judge_request(
            request, outcome, reader.name, version, call.fail_closed
        )
        judged = Judged(canonical, {name: getattr(verdict, name) for name in VERDICT_FIELDS})
    except Exception as exc:  # a bug in a runtime must not lose the call
        runtime = None
        judged = Judged(Call(runtime=call.runtime or UNKNOWN, event="other"), {})
        judged.problem = f"judging failed: {exc!r}"
        failed = call.exit_code != 0
        judged.verdict = dict.fromkeys(VERDICT_FIELDS, "")
        judged.verdict.update(decision="failure" if failed else "allow")
        judged.verdict.update(failure="exit_code" * failed, updated_input=UNSET)
        judged.verdict["updated_output"] = UNSET
        judged.verdict["answer_effects"] = {}
    for name in ("updated_input", "updated_output"):
        if judged.verdict[name] is UNSET:
            judged.verdict[name] = ABSENT
    judged.timed_out = ran_out
    _spawn_error_is_a_failure(call, judged.verdict)
    if runtime is not None:
        # The fallback reader (a runtime that tripped on the request) has no version.
        judged.version = version if runtime.name == reader.name else ""
        describe_hook(judged, call, runtime)
    return judged


def applied_timeout_ms(call: TapCall, reader: Any, request: Any, version: str) -> int | None:
    """The timeout the runtime that called applies to this hook: the configured one, else
    its own default for the event. The settings may be another runtime's (Copilot runs
    Claude Code's hooks, with its own 30 s where Claude's default is 600 s): install
    passed that one's default, flagged as a default (`--timeout-default`)."""
    if call.timeout_ms is not None and not call.timeout_default:
        return call.timeout_ms
    try:
        default = reader.timeout_for(reader.parse(request).native_event, version)
    except Exception:  # a request the runtime cannot read: the timeout install passed
        default = None
    return default if default is not None else call.timeout_ms


def _outcome(call: TapCall, ran_out: bool) -> Any:
    from hooktui.tap.canonical import Outcome

    return Outcome(
        stdout=call.stdout.head,
        stderr=call.stderr.head,
        exit_code=call.exit_code,
        signal=call.signal,
        timed_out=ran_out,
        duration_ms=call.duration_ms,
        spawn_error=call.spawn_error,
    )


def _spawn_error_is_a_failure(call: TapCall, verdict: dict) -> None:
    if call.spawn_error and verdict["failure"] != "spawn_error":
        verdict.update(decision="failure", failure="spawn_error", failure_detail=call.spawn_error)
        verdict["effect"] = verdict["effect"] or "proceeds"


def describe_hook(judged: Judged, call: TapCall, runtime: Any) -> None:
    """The timeout this runtime applies to the hook, and what a failure of it does."""
    native = judged.call.native_event
    if call.timeout_ms is not None and not call.timeout_default:
        judged.timeout_ms, judged.timeout_source = call.timeout_ms, "configured"
    else:
        default = runtime.timeout_for(native, judged.version)
        if default is None:  # the runtime gives none: the one install computed, if any
            default = call.timeout_ms
        if default is not None:
            judged.timeout_ms, judged.timeout_source = default, "default"
    try:
        closed = runtime.fails_closed(judged.call, call.fail_closed, judged.version)
    except Exception:  # not worth losing the record over
        return
    judged.fails = "closed" if closed else "open"


def timed_out(call: TapCall, timeout_ms: int | None) -> bool:
    """Did the runtime stop this hook for its timeout (`timeout_ms`, the one it applies)?

    The watchdog knows when the runtime killed the tap itself (`killed`). Otherwise the
    tap cannot see the runtime's clock, only its signal: a hook that died by a signal
    the tap passed on, at (or within 5 % before) the timeout, was killed for running
    too long. The runtime's clock started when it spawned the tap: the tap's own
    start-up (`startup_ms`) counts too.
    """
    ran = call.duration_ms + call.startup_ms
    if call.killed is not None:
        return call.killed or bool(timeout_ms and ran >= timeout_ms * 0.95)
    return bool(
        timeout_ms and call.signal is not None and call.forwarded and ran >= timeout_ms * 0.95
    )
