"""A folder of made-up requests with expected outcomes, read as a session: a guard's
test suite that `hooktui replay FOLDER --policy GUARD --fail-on decision` runs in CI.

Each `*.json` file of the folder (sorted by name) is one case:

    {"runtime": "claude-code", "tool": "Bash", "input": {"command": "git push -f"},
     "expect": "deny"}

`request` (the runtime's own request, whole) may stand for `tool`/`input` (the
runtime is then told by the request when not given); `event` names another event
than the one before a tool runs; `hook` is a command line to run when no --policy is
given; `name` labels the case (default: the file's name). Each case becomes a record
whose verdict is its `expect`, so the replay's comparison says where the guard
answers otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from hooktui.replay.session import Session, SessionError, SessionRecord
from hooktui.tap.canonical import DECISIONS
from hooktui.tap.model import HookInfo, Record
from hooktui.tap.runtimes import ADAPTERS, RUNTIMES, detect

KEYS = {"runtime", "tool", "input", "request", "event", "expect", "hook", "name", "reason"}


def is_suite(path: str) -> bool:
    return os.path.isdir(path)


def load_suite(folder: str) -> Session:
    files = sorted(Path(folder).glob("*.json"))
    if not files:
        raise SessionError(f"{folder} is a folder with no *.json case files")
    records = [
        SessionRecord(line=n, record=_record(path, folder)) for n, path in enumerate(files, 1)
    ]
    return Session(path=folder, records=records, lines=len(records))


def _case(path: Path) -> dict:
    try:
        case = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise SessionError(f"{path}: not a JSON case ({exc})") from None
    if not isinstance(case, dict):
        raise SessionError(f"{path}: a case is a JSON object")
    unknown = sorted(set(case) - KEYS)
    if unknown:
        raise SessionError(
            f"{path}: unknown key {unknown[0]!r} (a case has {', '.join(sorted(KEYS))})"
        )
    if case.get("expect") not in DECISIONS:
        raise SessionError(f"{path}: `expect` must be one of {', '.join(DECISIONS)}")
    return case


def _record(path: Path, folder: str) -> Record:
    from hooktui.tap.inventory.trial import TrialError, build_request, pre_event

    case = _case(path)
    request = case.get("request")
    name = case.get("runtime") or (detect(request).name if isinstance(request, dict) else "")
    if name not in RUNTIMES:
        raise SessionError(f"{path}: name the runtime (`runtime`: one of {', '.join(RUNTIMES)})")
    runtime = ADAPTERS[name]
    try:
        if request is None:
            if not isinstance(case.get("tool"), str) or not isinstance(case.get("input", {}), dict):
                raise SessionError(
                    f"{path}: a case gives `request`, or `tool` and `input` (an object)"
                )
            event = case.get("event") or pre_event(runtime, [])
            request = build_request(
                runtime, event, case["tool"], case.get("input", {}), Path(folder)
            )
    except TrialError as exc:
        raise SessionError(f"{path}: {exc}") from None
    call = runtime.parse(request)
    hook = case.get("hook")
    argv = ["sh", "-c", hook] if isinstance(hook, str) and hook else []
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:26]
    return Record(
        id=digest,
        ts="1970-01-01T00:00:00Z",
        runtime=name,
        event=call.event,
        native_event=call.native_event,
        tool_name=call.tool_name,
        tool_input=call.tool_input,
        session_id=call.session_id,
        tool_call_id=call.tool_call_id,
        cwd=str(Path(folder).resolve()),
        decision=case["expect"],
        reason=str(case.get("reason", "")),
        summary=str(case.get("name") or path.stem),
        request=request,
        hook=HookInfo(label="suite", argv=argv),  # one hook: --policy replaces every case
    )
