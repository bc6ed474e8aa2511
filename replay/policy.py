"""What to run for one record: argv, stdin, cwd, environment, timeout.

A record is replayable when the request stored in it is the request the hook
received. It is skipped when:
- there was no request (``request_format == "empty"``);
- the tap took something out of the request before writing it: a redaction whose
  pointer is under ``/request``, or a ``[REDACTED:`` marker in any key or string of
  the request (the hook saw the secret, a replay could only send the marker);
- the session was captured with ``--capture digest`` and a field of the request
  (a prompt, a tool output, or the whole of a non-JSON request) is stored only as
  a ``[digest sha256:… len:…]`` marker: what the policy would read is gone. A
  digest-captured request without such a field (a pre-tool call) is replayable;
- no policy was given and the record names no hook command to re-run, or one no
  process can be started with (a NUL byte in a word).

Whatever a session says is data: its environment is filtered (see `environ`), its
timeout is clamped, and a recorded cwd that is gone is said, per record, in `notes`.
"""

from __future__ import annotations

import os
import re
import shlex
from typing import Any

import msgspec
from hooktui.replay.environ import as_recorded, replay_env
from hooktui.replay.machine import needed_file
from hooktui.tap.command import is_launcher, split_words
from hooktui.tap.model import Record

DEFAULT_TIMEOUT_S = 10.0
# The longest a replayed hook may run: a day. Beyond it a number is a mistake (or a
# hostile session), and the poll loop's millisecond timeout would overflow.
MAX_TIMEOUT_S = 86_400.0
REDACTION_MARKER = "[REDACTED:"  # hooktui.tap.record.redact.MARKER_PREFIX
DIGEST_MARKER = "[digest sha256:"  # hooktui.tap.record.recorder.digest_marker

_json = msgspec.json.Encoder()


class Plan(msgspec.Struct, kw_only=True):
    """One hook run, ready for the runner."""

    argv: list[str]
    stdin: bytes
    cwd: str
    env: dict[str, str]
    timeout_s: float
    notes: list[str] = []  # what the user should know about this run (a cwd that is gone)
    # A file of the recorded machine the recorded hook needs and this one lacks
    # (replay.machine): the record is not run, and says so.
    needs: str = ""


# A plain word of a shell command: no quotes, no expansions, no operators.
_PLAIN_WORD = re.compile(r"[\w.@+-][\w./@+-]*")


def anchor_policy(policy: str, cwd: str) -> str:
    """`policy` with relative paths that exist under `cwd` made absolute.

    Hooks replay in each record's recorded cwd, so `--policy "python3 guard.py"`
    typed in the guard's folder would otherwise look for guard.py in the wrong
    place. Only plain words naming an existing file or folder are touched; the
    rest of the command line (quotes, pipes, variables) is left as typed.
    """
    parts = re.split(r"(\s+)", policy)
    for i, word in enumerate(parts):
        if not _PLAIN_WORD.fullmatch(word) or word.startswith("-") or not word.strip("."):
            continue
        candidate = os.path.join(cwd, word)
        if ("/" in word or "." in word) and os.path.exists(candidate):
            parts[i] = shlex.quote(os.path.abspath(candidate))
    return "".join(parts)


def policy_argv(policy: str) -> list[str]:
    """A policy command line, run the way runtimes run hook commands: through sh."""
    return ["sh", "-c", policy]


def _strings(value: Any, keys: bool = True):
    """Every string in a JSON value (keys too, unless `keys` is false), without recursion:
    a session can nest deeper than Python's stack."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            if keys:
                stack.extend(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _has_marker(value: Any) -> bool:
    return any(REDACTION_MARKER in text for text in _strings(value))


def _has_digest(value: Any) -> bool:
    return any(text.startswith(DIGEST_MARKER) for text in _strings(value, keys=False))


def skip_reason(record: Record, policy: str | None) -> str:
    """Why `record` cannot be replayed, or "" when it can."""
    if record.request_format == "empty" or record.request is None:
        return "no request was recorded"
    redacted = [r for r in record.redactions if r.pointer.startswith("/request")]
    if redacted:
        kinds = ", ".join(sorted({r.kind for r in redacted}))
        return f"the request was redacted ({kinds}); the policy would not see the original"
    if _has_marker(record.request):
        return "the request holds a redaction marker; the policy would not see the original"
    cut = record.cut if isinstance(record.cut, list) else []
    if any(c.pointer == "/request" or c.pointer.startswith("/request/") for c in cut):
        return "the request was longer than the record keeps (HOOKTUI_BODY_CAP): it was cut"
    if record.capture == "digest" and _has_digest(record.request):
        return "captured as digests only: the prompt or tool output is not in the session"
    if policy is None and not record.hook.argv:
        return "no hook command was recorded (give --policy)"
    if policy is None and any("\0" in word for word in record.hook.argv):
        return "the recorded hook command holds a NUL byte: no process can be started with it"
    return ""


def request_bytes(record: Record) -> bytes:
    """The request as the hook received it: JSON again, or the raw text."""
    if record.request_format == "text" and isinstance(record.request, str):
        return record.request.encode("utf-8", "surrogateescape")
    return _json.encode(record.request)


def recorded_argv(record: Record) -> list[str]:
    return [as_recorded(record, f"/hook/argv/{i}", w) for i, w in enumerate(record.hook.argv)]


def recorded_cwd(record: Record) -> str:
    return as_recorded(record, "/hook/cwd", record.hook.cwd) if record.hook.cwd else ""


def replay_cwd(record: Record, here: str | None = None) -> tuple[str, str]:
    """(where to run, a note or ""): the recorded working directory when it still
    exists, else `here` (the current one), saying so."""
    here = here or _here()
    recorded = [p for p in (recorded_cwd(record), record.cwd) if p]
    for path in recorded:
        if os.path.isabs(path) and os.path.isdir(path):
            if path == recorded[0]:
                return path, ""
            return path, f"recorded cwd {recorded[0]} no longer exists; ran in {path}"
    if not recorded:
        return here, f"no cwd was recorded; ran in {here}"
    first = recorded[0]
    gone = "is not an absolute path" if not os.path.isabs(first) else "no longer exists"
    return here, f"recorded cwd {first} {gone}; ran in {here}"


def _here() -> str:
    try:
        return os.getcwd()
    except OSError:  # the current directory was removed
        return "/"


def replay_timeout(record: Record, timeout_s: float | None) -> float:
    """--timeout when given, else the hook's recorded timeout, else the default; a
    recorded value outside (0, MAX_TIMEOUT_S] is not taken as it is."""
    if timeout_s is not None:
        return timeout_s
    recorded = record.hook.timeout_ms
    if isinstance(recorded, int) and recorded > 0:
        return min(recorded / 1000.0, MAX_TIMEOUT_S)
    return DEFAULT_TIMEOUT_S


def build_plan(
    record: Record,
    policy: str | None,
    timeout_s: float | None = None,
    base_env: dict[str, str] | None = None,
) -> Plan:
    argv = policy_argv(policy) if policy is not None else recorded_argv(record)
    cwd, note = replay_cwd(record)
    env = replay_env(record, base_env)
    needs = ""
    if policy is None:
        needs = needed_file(argv, env, recorded_cwd(record) or record.cwd)
    return Plan(
        argv=argv,
        stdin=request_bytes(record),
        cwd=cwd,
        env=env,
        timeout_s=replay_timeout(record, timeout_s),
        notes=[note] if note else [],
        needs=needs,
    )


def _flatten(words: list[str]) -> list[str]:
    """Words of a command, with `sh -c "..."` scripts split into their own words."""
    out: list[str] = []
    for word in words:
        if any(c.isspace() for c in word):
            out.extend(split_words(word))
        else:
            out.append(word)
    return out


def watch_paths(policy: str | None, records: list[Record]) -> list[str]:
    """Files whose edits should re-run the replay: the first word of the policy
    command that names an existing file and is not an interpreter (or, without a
    policy, the same for each distinct recorded hook command)."""
    commands: list[list[str]] = []
    if policy is not None:
        commands.append(split_words(policy))
    else:
        seen: set[tuple[str, ...]] = set()
        for record in records:
            key = tuple(record.hook.argv)
            if key and key not in seen:
                seen.add(key)
                commands.append(list(key))
    paths: list[str] = []
    for words in commands:
        for word in _flatten(words):
            if os.path.isfile(word) and not is_launcher(word):
                full = os.path.abspath(word)
                if full not in paths:
                    paths.append(full)
                break
    return paths
