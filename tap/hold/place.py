"""Where a dashboard holding breakpoints listens, and how a tap knows it is alive.

The socket lives in the first of these directories that is this user's alone
(mode 0700), or missing (the dashboard then makes it so):

1. `$XDG_RUNTIME_DIR/hooktui` (when XDG_RUNTIME_DIR is an absolute path);
2. `$XDG_STATE_HOME/hooktui` (the stream's own directory, under the home folder),
   when the socket's path fits in a socket address (107 bytes);
3. `/tmp/hooktui-<uid>` (the directory the tap's fallback error log uses too).

A directory another user made first (or one open to others) is passed over by
both sides: such a squatter would otherwise disable the user's breakpoints and
make every tap keep its output back for a dashboard that is not there.

Alive means holding `hold.lock` beside the socket: the dashboard takes it (a
POSIX record lock) before it claims the socket, and the kernel lets it go when
the dashboard dies, however it dies. A socket file alone proves nothing (a
killed dashboard leaves it behind), and two dashboards starting over a stale
socket cannot both hold breakpoints. The tap's shim does the same with `posix`
alone (`_hold_socket`; a test checks they agree).
"""

from __future__ import annotations

import os
import stat

from hooktui.tap.base.stream import state_dir

SOCKET_NAME = "hold.sock"
LOCK_NAME = "hold.lock"
MAX_PATH = 107  # a socket address's path (Linux sun_path, less its NUL)


class NotPrivate(OSError):
    """The directory is someone else's, or others may enter it."""


def candidates() -> list[str]:
    found = []
    runtime = os.environ.get("XDG_RUNTIME_DIR") or ""
    if os.path.isabs(runtime):
        found.append(os.path.join(runtime, "hooktui"))
    state = state_dir()
    if len(os.fsencode(os.path.join(state, SOCKET_NAME))) <= MAX_PATH:
        found.append(state)
    found.append(f"/tmp/hooktui-{os.getuid()}")
    return found


def is_private(path: str) -> bool | None:
    """True: a directory of this user's alone; None: nothing there; False: anything else."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    return bool(
        stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077
    )


def socket_dir() -> str:
    """The first candidate that is missing or this user's alone (NotPrivate if none is)."""
    choices = candidates()
    for path in choices:
        if is_private(path) is not False:
            return path
    raise NotPrivate(f"none of {', '.join(choices)} is a directory of this user's alone")


def socket_path() -> str:
    return os.path.join(socket_dir(), SOCKET_NAME)


def lock_path(socket: str) -> str:
    return os.path.join(os.path.dirname(socket), LOCK_NAME)


def private_dir(path: str) -> str:
    """Create `path` (mode 0700, its parents too) or check it is ours and closed to
    others; returns it."""
    try:
        os.makedirs(path, 0o700)
    except FileExistsError:
        pass
    if not is_private(path):
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            raise NotPrivate(f"{path} is not a directory of this user's")
        raise NotPrivate(f"{path} is open to other users (mode {info.st_mode & 0o777:o})")
    return path
