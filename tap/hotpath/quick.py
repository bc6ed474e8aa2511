"""The first stretch of a tapped call, without `select`: most calls end within it.

Loading `select` (a shared library: dlopen, relocations, page faults) and
pump.py cost the tap about a twentieth of Python's own start on every call
(tests/bench/tap_install_kinds.py). Most calls need neither: the runtime has
written the whole request and closed its end before the tap is ready, the
request fits in the hook's pipe, and the hook answers a few bytes and exits.
This stretch serves those. SIGCHLD is blocked around it (the shim starts the
hook with the caller's own mask), so the tap sleeps in `sigtimedwait` until
the hook exits, looking at its output every TICK_S meanwhile: output still
passes through while the hook runs, and a hook filling its pipe is not held
up for long. Anything else, the moment it shows, hands what the stretch holds
to pump.Pump, which goes on from there: a request still open, or not in a
pipe, a socket or a file; one larger than the hook's pipe takes at once; a
hook still running after BUDGET_S or at the watchdog's time; a pipeful of
output in one look; output a background child holds open after the hook is
gone; a caller's pipe that would block.

Imports only `posix`, `_signal` and `time` (see __init__.py).
"""

import _signal
import posix
import time

from hooktui.tap.hotpath.capture import HEAD, Capture, forward, pair

CHUNK = 1 << 16
# How long the stretch may last, and how often it looks at the hook's output.
BUDGET_S = 0.5
TICK_S = 0.01
# Request bytes read ahead of a hook that is not reading them (here and in the
# pump): beyond this the caller waits, as it would on the hook's own pipe.
QUEUE_MAX = 1 << 20
# When the tap forks its watchdog (pump.py), as a fraction of the hook's configured timeout.
FRACTION = 0.5
SIGCHLD = _signal.SIGCHLD
_FIFO, _SOCKET, _REGULAR = 0o010000, 0o140000, 0o100000


class Stretch:
    """What the stretch did; `done` when the call is over (the hook reaped, its output
    closed), else what pump.Pump needs to go on (Pump.resume)."""

    def __init__(
        self, pid: int, in_w: int, out_r: int, err_r: int, keep, out_fd, err_fd, stdin_at: int = 0
    ):
        self.pid = pid
        self.in_w, self.src_fd = in_w, 0
        self.stdin_at = stdin_at  # where a caller's file stood when the hook started
        self.request: list[bytes] = []  # read from the caller
        self.queue: list[bytes] = []  # of which not yet written to the hook
        self.queued = 0
        self.out, self.err = pair(keep)
        self.sinks = {out_r: (self.out, out_fd), err_r: (self.err, err_fd)}
        self.reaped = False
        self.status: int | None = None
        self.done = False

    def result(self) -> tuple[Capture, Capture, int | None]:
        """(stdout, stderr, wait status) of a call that is `done`."""
        return self.out, self.err, self.status


def first_stretch(
    pid: int,
    in_w: int,
    out_r: int,
    err_r: int,
    *,
    out_fd: int = 1,
    err_fd: int = 2,
    keep: int | None = HEAD,
    signals=None,
    until: float,
    stdin_at: int = 0,
) -> Stretch:
    """Run the call until it ends or needs more than this (see the module). Never
    raises: whatever goes wrong here, the pump goes on from what `s` holds, so the
    hook's answer still reaches the caller. SIGCHLD must be blocked."""
    s = Stretch(pid, in_w, out_r, err_r, keep, out_fd, err_fd, stdin_at)
    try:
        _run(s, signals, until)
    except Exception:  # noqa: BLE001 - the pump's way is always there
        s.done = False
    return s


def _run(s: Stretch, signals, until: float) -> None:
    if not _take_request(s) or not _feed_hook(s, signals):
        return
    for fd in s.sinks:
        posix.set_blocking(fd, False)
    while True:
        left = until - time.monotonic()
        if left <= 0:
            return  # still running: the pump goes on
        _signal.sigtimedwait((SIGCHLD,), min(TICK_S, left))
        if not s.reaped:
            _reap(s, signals)
        if not _drain(s) or not s.sinks and s.reaped:
            s.done = s.reaped and not s.sinks
            return
        if s.reaped:  # gone, its output still open: a background child holds it
            return


def _take_request(s: Stretch) -> bool:
    """The caller's whole request, when it is all there now (EOF seen)."""
    try:
        kind = posix.fstat(0).st_mode & 0o170000
    except OSError:
        return False
    if kind == _REGULAR and s.in_w < 0:  # the hook reads the file itself (spawn.OWN)
        return _copy_of_file(s)
    if kind == _REGULAR:  # a file never blocks: read it to its end
        return _read_to_eof(s)
    if kind not in (_FIFO, _SOCKET):  # a terminal, /dev/null...: the pump's way
        return False
    # A pipe, or a socket (Node's child_process gives its children socketpairs:
    # Claude Code, Gemini CLI, Copilot CLI, Qwen Code). O_NONBLOCK is on our end,
    # which the caller made for this hook alone; it is taken off again before
    # anything else reads it.
    try:
        posix.set_blocking(0, False)
    except OSError:
        return False
    try:
        return _read_to_eof(s)
    finally:
        posix.set_blocking(0, True)


def _read_to_eof(s: Stretch) -> bool:
    while s.queued < QUEUE_MAX:  # beyond: the pump reads ahead of the hook only so far
        try:
            data = posix.read(0, CHUNK)
        except BlockingIOError:
            return False  # more to come, or not: the pump waits for it as it does
        except OSError:
            data = b""  # a read error ends the request, as in the pump
        if not data:
            s.src_fd = -1
            return True
        s.request.append(data)
        s.queue.append(data)
        s.queued += len(data)
    return False


def _copy_of_file(s: Stretch) -> bool:
    """The request for the record, read from the caller's file without moving its
    offset: the hook reads the same file from where the caller left it (`stdin_at`,
    taken before it started: by now it may have read some)."""
    offset = s.stdin_at
    try:
        while True:
            data = posix.pread(0, CHUNK, offset)
            if not data:
                break
            s.request.append(data)
            offset += len(data)
    except OSError:
        pass  # what could be read is the record's
    s.src_fd = -1
    return True


def _feed_hook(s: Stretch, signals) -> bool:
    """The request into the hook's pipe and EOF after it, when the pipe takes it all."""
    if s.in_w < 0:  # the hook has the caller's own stdin
        return True
    posix.set_blocking(s.in_w, False)
    while s.queue:
        chunk = s.queue[0]
        try:
            n = posix.write(s.in_w, chunk)
        except BlockingIOError:
            return False  # the hook reads slower than this: the pump feeds it
        except BrokenPipeError:  # the hook stopped reading; the record keeps it all
            if signals is not None:
                signals.own_pipes += 1  # first: its SIGPIPE is the tap's, not the hook's
            break
        except OSError:
            break
        if n < len(chunk):
            s.queue[0] = chunk[n:]
        else:
            s.queue.pop(0)
    s.queue = []
    posix.close(s.in_w)
    s.in_w = -1
    return True


def _reap(s: Stretch, signals) -> None:
    try:
        done, status = posix.waitpid(s.pid, posix.WNOHANG)
    except ChildProcessError:
        done, status = s.pid, None
    if done:
        s.reaped, s.status = True, status
        if signals is not None:
            signals.gone()  # its pid may be reused from here on


def _drain(s: Stretch) -> bool:
    """Pass on what the hook's pipes hold now; False when the pump must take over
    (a pipeful at once, or a caller's pipe that would block)."""
    for fd in list(s.sinks):
        capture, through = s.sinks[fd]
        got = 0
        while True:
            try:
                data = posix.read(fd, CHUNK)
            except BlockingIOError:
                break
            except OSError:
                data = b""  # the writer is gone, as in the pump
            if data:
                got += len(data)
                capture.add(data)
                if through >= 0 and not forward(through, data):
                    data = b""  # the caller's end is closed: the hook sees a broken pipe too
            if not data:
                posix.close(fd)
                del s.sinks[fd]
                break
            if got >= CHUNK:
                return False  # a hook that fills its pipe: the pump streams it
    return True


def watchdog_due(timeout_ms: int | None, t0: float) -> float | None:
    """When the tap forks its watchdog (monotonic), for a hook started at `t0`."""
    return t0 + timeout_ms * FRACTION / 1000 if timeout_ms else None


def decode_status(status: int | None) -> tuple[int | None, int | None]:
    """(exit code, signal) from a wait status."""
    if status is None:
        return None, None
    if posix.WIFSIGNALED(status):
        return None, posix.WTERMSIG(status)
    if posix.WIFEXITED(status):
        return posix.WEXITSTATUS(status), None
    return None, None
