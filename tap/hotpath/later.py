"""The record of a held call, forked before the hold (issue 19).

While a dashboard holds a call, the tap waits with the hook's answer in hand; a
runtime (or anyone) SIGKILLing it then left no record at all, though the same
call unheld is always recorded. So before offering the call the tap forks its
recorder, which waits on a pipe for how the hold ended (`Later.send`); EOF with
nothing sent means the tap was killed holding the call, and the recorder records
it so: the hook's answer, `held.released_by` "tap-killed".

Loaded only when a dashboard is alive; imports what the hot path has loaded.
"""

import marshal
import posix
import time

from hooktui.tap.hotpath.watchdog import _detach

KILLED = "tap-killed"


class Later:
    """The tap's end of the pipe to a recorder waiting for the hold's outcome."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def send(self, held) -> None:
        """The hold's outcome (the record's `held`, or None: not held); then EOF."""
        data = marshal.dumps((True, held))
        try:
            view = memoryview(data)
            while view:
                view = view[posix.write(self.fd, view) :]
        except OSError:
            pass  # the recorder is gone: nothing to tell it
        finally:
            posix.close(self.fd)


def fork_recorder(opts, request, out, err, code, sig, started_at, t0, handoff):
    """A Later for a recorder forked now, or None when it cannot fork (the tap then
    records after the hold, as before)."""
    try:
        r, w = posix.pipe()
    except OSError:
        return None
    try:
        pid = posix.fork()
    except OSError:
        posix.close(r)
        posix.close(w)
        return None
    if pid:
        posix.close(r)
        try:
            posix.setpgid(pid, pid)  # out of the hook's process group (see shim._record)
        except OSError:
            pass
        return Later(w)
    try:  # pragma: no cover - runs in the forked recorder
        _detach(keep=(r,))
        held_at = time.monotonic()
        outcome = _read_all(r)
        try:
            _, held = marshal.loads(outcome)
        except (EOFError, ValueError, TypeError):  # nothing came: the tap was killed
            held = {"held_ms": round((time.monotonic() - held_at) * 1000, 3)}
            held.update(released_by=KILLED, action="hook", hook_ms=(held_at - t0) * 1000)
        duration_ms = held.pop("hook_ms") if held else (held_at - t0) * 1000
        handoff(opts, request, out, err, code, sig, started_at, duration_ms, "", held=held)
    finally:
        posix._exit(0)


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        try:
            data = posix.read(fd, 1 << 16)
        except OSError:
            data = b""
        if not data:
            return b"".join(chunks)
        chunks.append(data)
