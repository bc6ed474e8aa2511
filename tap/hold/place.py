"""Where a dashboard holding breakpoints listens: one socket in a private directory.

`$XDG_RUNTIME_DIR/hooktui/hold.sock`, else `/tmp/hooktui-<uid>/hold.sock` (the
directories the tap's fallback error log uses). The tap's shim computes the same
path with `posix` alone (a test checks they agree).
"""

from __future__ import annotations

import os
import stat

SOCKET_NAME = "hold.sock"


class NotPrivate(OSError):
    """The directory is someone else's, or others may enter it."""


def socket_dir() -> str:
    runtime = os.environ.get("XDG_RUNTIME_DIR") or ""
    if os.path.isabs(runtime):
        return os.path.join(runtime, "hooktui")
    return f"/tmp/hooktui-{os.getuid()}"


def socket_path() -> str:
    return os.path.join(socket_dir(), SOCKET_NAME)


def private_dir(path: str) -> str:
    """Create `path` (mode 0700) or check it is ours and closed to others; returns it."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise NotPrivate(f"{path} is not a directory of this user's")
    if info.st_mode & 0o077:
        raise NotPrivate(f"{path} is open to other users (mode {info.st_mode & 0o777:o})")
    return path
