"""The environment a replayed hook gets: the replayer's own, plus the runtime's variables
as recorded, and nothing else from the session.

A session file may come from someone else. Its `hook.env` is data, not configuration:
only the names the recording runtime sets for its hooks (its adapter's `env_vars`, from
the runtime registry) are taken from it. `PATH`, `LD_PRELOAD`, `PYTHONPATH` and any other
name in a session are ignored, so a record cannot choose which `python3` a policy runs.

Variables that name a file the runtime asks hooks to write to (`*_ENV_FILE`: a hook
appends `export X=...` lines there) point at a scratch file of the replay's own, so a
replayed hook never writes where a session says.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading

from hooktui.tap.model import Record
from hooktui.tap.record.hookinfo import unescape_bytes

REPLAY_ENV = "HOOKTUI_REPLAY"
WRITE_TARGET_SUFFIX = "_ENV_FILE"  # the hook writes to the file this names


def runtime_env_names(runtime: str) -> tuple[str, ...]:
    """The variables `runtime` sets for its hooks; every runtime's for an unknown one."""
    from hooktui.tap.runtimes import ADAPTERS

    adapter = ADAPTERS.get(runtime)
    if adapter is not None and adapter.env_vars:
        return tuple(adapter.env_vars)
    names: dict[str, None] = {}
    for each in ADAPTERS.values():
        names.update(dict.fromkeys(each.env_vars))
    return tuple(names)


def all_runtime_env_names() -> tuple[str, ...]:
    """Every runtime's hook variables (what `--help` lists)."""
    return runtime_env_names("")


class RecordedEnv:
    """What a record contributes to a hook's environment, and what it left out."""

    __slots__ = ("values", "dropped", "names")

    def __init__(self, values: dict[str, str], dropped: list[str], names: tuple[str, ...]):
        self.values = values  # name -> value to set
        self.dropped = dropped  # recorded names ignored (not the runtime's, or unusable)
        self.names = names  # the runtime's names: set as recorded, or unset


def as_recorded(record: Record, pointer: str, text: str) -> str:
    """A recorded argv word, cwd or variable as the OS gave it: the tap keeps bytes
    that are not UTF-8 escaped (`hook.escaped` lists them), replay undoes that."""
    escaped = record.hook.escaped if isinstance(record.hook.escaped, list) else ()
    return os.fsdecode(unescape_bytes(text)) if pointer in escaped else text


def recorded_env(record: Record) -> RecordedEnv:
    """The runtime's variables as `record` holds them; values a process cannot carry
    (a NUL byte) or write targets are not taken as they are."""
    names = runtime_env_names(record.runtime)
    values: dict[str, str] = {}
    dropped: list[str] = []
    recorded = record.hook.env if isinstance(record.hook.env, dict) else {}
    for name, value in recorded.items():
        if name == REPLAY_ENV:
            continue  # set below, always "1"
        if name not in names or not isinstance(value, str) or "\0" in value:
            dropped.append(name)
            continue
        if name.endswith(WRITE_TARGET_SUFFIX):
            values[name] = scratch_file(name)
        else:
            pointer = "/hook/env/" + name.replace("~", "~0").replace("/", "~1")
            values[name] = as_recorded(record, pointer, value)
    return RecordedEnv(values, dropped, names)


def replay_env(record: Record, base: dict[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this process's environment) with the runtime's variables exactly
    as recorded (set, or unset when the record has none) and HOOKTUI_REPLAY=1."""
    env = dict(os.environ if base is None else base)
    rec = recorded_env(record)
    for name in rec.names:
        env.pop(name, None)
    env.update(rec.values)
    env[REPLAY_ENV] = "1"
    return env


_scratch_lock = threading.Lock()
_scratch_dir: str | None = None


def scratch_file(name: str) -> str:
    """A file of this replay's own for the write-target variable `name` (created empty,
    removed when the process exits)."""
    global _scratch_dir
    with _scratch_lock:
        if _scratch_dir is None:
            _scratch_dir = tempfile.mkdtemp(prefix="hooktui-replay-")
            atexit.register(shutil.rmtree, _scratch_dir, True)
        path = os.path.join(_scratch_dir, name)
        if not os.path.exists(path):
            with open(path, "w"):
                pass
        return path
