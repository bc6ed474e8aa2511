"""The registry: every runtime of `RUNTIMES`, loaded, and what is asked of all of them.

The tap and replay both call judge_request, so a request is read the same way
live and on replay.
"""

from __future__ import annotations

import importlib

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes import RUNTIMES, UNKNOWN, module_name
from hooktui.tap.runtimes.descriptor import Runtime

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

Adapter = Runtime


def _load(name: str) -> Runtime:
    runtime = importlib.import_module(f"hooktui.tap.runtimes.{module_name(name)}").RUNTIME
    if runtime.name != name:  # a copied file that kept its old name
        raise ImportError(f"runtimes/{module_name(name)} describes {runtime.name!r}, not {name!r}")
    return runtime


ADAPTERS: dict[str, Runtime] = {name: _load(name) for name in (*RUNTIMES, UNKNOWN)}

# PROTOCOLS.md "Telling them apart": the first runtime that claims a request
# wins, in the order of the priorities each runtime gives its detectors.
_DETECTION = sorted(
    (priority, i, name)
    for name in RUNTIMES
    for i, (priority, _) in enumerate(ADAPTERS[name].detectors())
)


# The runtimes by detection priority (their first detector's), for `caller`.
_BY_PRIORITY = tuple(
    name for _, name in sorted((ADAPTERS[n].detectors()[0][0], n) for n in RUNTIMES)
)


def get_adapter(name: str) -> Runtime:
    try:
        return ADAPTERS[name]
    except (KeyError, TypeError):
        names = ", ".join(RUNTIMES)
        raise ValueError(f"unknown runtime {name!r} (expected one of: {names})") from None


def installable() -> tuple[str, ...]:
    """The runtimes whose settings files `hooktui install` knows."""
    return tuple(name for name in RUNTIMES if ADAPTERS[name].settings is not None)


def guests_of(host: str) -> tuple[str, ...]:
    """The runtimes that run `host`'s hooks too (each judges them by its own rules)."""
    return tuple(name for name in RUNTIMES if host in ADAPTERS[name].guest_of)


def suggest(name: str, choices: tuple[str, ...] = RUNTIMES) -> str | None:
    """The runtime a mistyped or shortened name most likely means (`claude` -> claude-code)."""
    lowered = name.lower()
    for choice in choices:
        if lowered in (choice, ADAPTERS[choice].label) or choice.startswith(lowered + "-"):
            return choice
    import difflib  # only here: the recorder, which loads this module, never suggests

    close = difflib.get_close_matches(lowered, choices, n=1, cutoff=0.6)
    return close[0] if close else None


def caller(request: Any, environ: Mapping[str, str] | None) -> Runtime | None:
    """The runtime the hook's environment names, when the request agrees; else None.

    Copilot runs hooks written for Claude Code and Qwen Code sends Claude's
    payloads, so the variables a runtime sets for its hooks (`marks`) decide
    where the payload cannot. A runtime started inside another one's hook
    inherits that one's variables too, so the named runtime must agree with the
    payload: it could send it, and no runtime asked earlier claims the payload as
    its own, unless that one does not know the event the payload names.
    """
    if not environ or not isinstance(request, dict):
        return None
    try:
        by_payload = _by_payload(request)
        claimed_at = _claimed_at(by_payload, request)
        for name in _BY_PRIORITY:
            runtime = ADAPTERS[name]
            if not runtime.marks(environ) or not runtime.could_send(request):
                continue
            if (
                by_payload is runtime
                or claimed_at > _first_priority(runtime)
                or _ruled_out(by_payload, request)
            ):
                return runtime
    except Exception:  # an odd environment or request must not stop the tap
        pass
    return None


def _ruled_out(runtime: Runtime, request: dict) -> bool:
    native = request.get("hook_event_name")
    return isinstance(native, str) and native not in runtime.events


def detect(request: Any, environ: Mapping[str, str] | None = None) -> Runtime:
    """The runtime that sent `request` (parsed JSON, or raw text): the one the hook's
    `environ` names (see `caller`), else the payload's; never raises."""
    if not isinstance(request, dict):
        return ADAPTERS[UNKNOWN]
    called = caller(request, environ)
    return called if called is not None else _by_payload(request)


def _by_payload(request: dict) -> Runtime:
    try:
        for _, i, name in _DETECTION:
            runtime = ADAPTERS[name]
            rules = runtime.detectors()
            if i < len(rules) and rules[i][1](request):
                return runtime
    except Exception:  # a detector tripping on an odd request must not stop the tap
        pass
    return ADAPTERS[UNKNOWN]


def _first_priority(runtime: Runtime) -> float:
    return min(priority for priority, _ in runtime.detectors())


def _claimed_at(runtime: Runtime, request: dict) -> float:
    """The priority at which `runtime` claimed `request` (unknown: after everyone)."""
    for priority, test in runtime.detectors() if runtime.name != UNKNOWN else ():
        if test(request):
            return priority
    return float("inf")


def event_of_any(native: str) -> str:
    """The canonical event of a native name in whichever runtime's words it is."""
    for _, _, name in _DETECTION:
        event = ADAPTERS[name].events.get(native)
        if event is not None:
            return event
    return "other"


def call_of(runtime: str, request: Any) -> Call:
    """A recorded request read again by its runtime's parser (the unknown one's if need be)."""
    for name in (runtime, UNKNOWN):
        try:
            return ADAPTERS.get(name, ADAPTERS[UNKNOWN]).parse(request)
        except Exception:
            continue
    return Call(runtime=UNKNOWN, event="other")


def effects_today(runtime: str, effects: dict[str, Any]) -> dict[str, Any]:
    """A record's answer_effects by today's canonical.ACTIONS names: the names an earlier
    tap wrote for `runtime` (its `effect_names_before`) renamed; `effects` itself when
    none is (a fresh dict otherwise)."""
    before = ADAPTERS.get(runtime, ADAPTERS[UNKNOWN]).effect_names_before
    if not before or before.keys().isdisjoint(effects):
        return effects
    return {before.get(name, name): value for name, value in effects.items()}


def env_vars() -> tuple[str, ...]:
    """Every variable any runtime sets for hooks, sorted."""
    return tuple(sorted({v for runtime in ADAPTERS.values() for v in runtime.env_vars}))


def digest_fields() -> frozenset[str]:
    """Request keys that hold a prompt or a tool's output, in any runtime's words."""
    return frozenset(
        key for runtime in ADAPTERS.values() for key in (*runtime.prompt_keys, *runtime.output_keys)
    )


def tool_keys(runtime: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(command keys, path keys) of tool inputs: the runtime's own first, then everyone's."""
    first = ADAPTERS.get(runtime)
    ordered = ([first] if first is not None else []) + list(ADAPTERS.values())
    commands = dict.fromkeys(k for r in ordered for k in r.command_keys)
    paths = dict.fromkeys(k for r in ordered for k in r.path_keys)
    return tuple(commands), tuple(paths)


def label(runtime: str) -> str:
    """The short label of a runtime for narrow columns; any other text as it is."""
    found = ADAPTERS.get(runtime)
    return found.label if found is not None else runtime


def reader_of(
    request: Any, runtime: str | None = None, environ: Mapping[str, str] | None = None
) -> Runtime:
    """The runtime the hook's `environ` names (see `caller`), else the forced `runtime`,
    else (for no name or one that is not a runtime) the detected one.

    The environment wins over `--runtime`: install names the runtime whose settings
    it wrapped, but another runtime may run the same file (Copilot runs the hooks
    of Claude Code's settings), and the record must name the one that called.
    """
    called = caller(request, environ)
    if called is not None:
        return called
    adapter = ADAPTERS.get(runtime) if runtime else None
    return adapter if adapter is not None else detect(request)


def judge_request(
    request: Any,
    outcome: Outcome,
    runtime: str | None = None,
    version: str = "",
    fail_closed: bool = False,
) -> tuple[Runtime, Call, Verdict]:
    """Detect (or use the forced `runtime`), parse and judge; never raises.

    A forced runtime that is not a known name falls back to detection. The
    call is judged by the rules of `version` of the runtime ("": the newest),
    for a hook whose settings make its failure block the action when
    `fail_closed` (install passes that on as `--fail-closed`).
    If a runtime trips on a request it cannot read, the unknown runtime's
    reading is used instead, and a failure verdict says so in its failure_detail.
    """
    adapter = reader_of(request, runtime).for_version(version).for_hook(fail_closed)
    try:
        call = adapter.parse(request)
        verdict = adapter.judge_hook(call, outcome)
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
