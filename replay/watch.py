"""Waiting for a policy file to change, for `hooktui replay --watch`.

The parent directories are watched rather than the files: editors often save by
writing a new file and renaming it over the old one, which a watch on the old
inode never sees. A stat snapshot taken before each run catches an edit that
landed while the replay was running, before the watcher looked again.
"""

from __future__ import annotations

import logging
import os

# watchfiles logs "KeyboardInterrupt caught, stopping watch" through logging's
# last-resort stderr handler; Ctrl-C is the normal way out of --watch, so quiet.
logging.getLogger("watchfiles").addHandler(logging.NullHandler())

Snapshot = dict[str, tuple[int, int, int] | None]


def snapshot(targets: list[str]) -> Snapshot:
    out: Snapshot = {}
    for path in targets:
        try:
            st = os.stat(path)
            out[path] = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            out[path] = None
    return out


def _dirs(targets: list[str]) -> list[str]:
    dirs: list[str] = []
    for path in targets:
        d = path if os.path.isdir(path) else os.path.dirname(path) or "."
        if d not in dirs:
            dirs.append(d)
    return dirs


def _filter(targets: list[str]):
    files = {os.path.abspath(t) for t in targets}
    dirs = tuple(os.path.abspath(t) + os.sep for t in targets if os.path.isdir(t))

    def keep(_change, path: str) -> bool:
        path = os.path.abspath(path)
        return path in files or path.startswith(dirs) if dirs else path in files

    return keep


def wait_for_change(targets: list[str], since: Snapshot) -> None:
    """Block until any of `targets` differs from `since` (a snapshot taken before the
    run that is now outdated; comparing with it closes the race with the watcher)."""
    from watchfiles import watch

    if snapshot(targets) != since:
        return
    for _batch in watch(
        *_dirs(targets),
        watch_filter=_filter(targets),
        debounce=150,
        step=50,
        rust_timeout=500,
        yield_on_timeout=True,
        raise_interrupt=False,
    ):
        if _batch or snapshot(targets) != since:
            return
    raise KeyboardInterrupt  # watchfiles ends its loop quietly on Ctrl-C


async def await_change(targets: list[str], since: Snapshot) -> None:
    """The same, for an asyncio loop (the Textual screen)."""
    from watchfiles import awatch

    if snapshot(targets) != since:
        return
    async for _batch in awatch(
        *_dirs(targets),
        watch_filter=_filter(targets),
        debounce=150,
        step=50,
        rust_timeout=500,
        yield_on_timeout=True,
    ):
        if _batch or snapshot(targets) != since:
            return
