"""Which records are the same request, so that a fleet replay runs it once.

A fleet repeats itself: the same `git status` in the same project, hundreds of times
a day. Two records are the same request to a policy when the hook is given the same
things: the command that runs (the policy, or the recorded hook), the request as
recorded, the recorded cwd, the runtime's variables and the timeout, except for the
ids of the call. Those differ on every call and a guard decides nothing by them, so a
top-level request field is left out when its value is (or holds) the record's session,
agent or tool-call id (a transcript path named after the session). No field is named
here, so this holds for every runtime; fields that change on every call by other means
(a timestamp) simply keep such requests apart. A guard that does decide by ids, or
keeps state between calls, is replayed with `--every-call`.

The answer of the one run is judged for each record by its own runtime's rules and
compared with its own recording, so records that differ only in ids still get their
own baseline.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from hooktui.replay.environ import runtime_env_names
from hooktui.replay.policy import replay_timeout
from hooktui.tap.model import Record

_encode = msgspec.json.Encoder(order="deterministic").encode


MIN_ID = 6  # shorter ids ("1") could match ordinary values by chance


def _without_ids(record: Record) -> Any:
    request = record.request
    if not isinstance(request, dict):
        return request
    ids = [i for i in (record.session_id, record.agent_id, record.tool_call_id) if len(i) >= MIN_ID]
    if not ids:
        return request
    return {
        key: value
        for key, value in request.items()
        if not (isinstance(value, str) and any(i in value for i in ids))
    }


def request_digest(record: Record, argv: list[str], timeout_s: float | None) -> bytes:
    """16 bytes naming the request `record` makes of the command `argv`."""
    names = set(runtime_env_names(record.runtime))
    env = record.hook.env if isinstance(record.hook.env, dict) else {}
    key = [
        argv,
        record.runtime,
        record.request_format,
        _without_ids(record),
        record.hook.cwd or record.cwd,
        sorted((k, v) for k, v in env.items() if k in names),
        replay_timeout(record, timeout_s),
    ]
    return hashlib.blake2b(_encode(key), digest_size=16).digest()
