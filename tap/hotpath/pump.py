"""The poll loop between a hook and its caller: shared by the tap and replay.

One loop feeds the hook its request (the caller's stdin, or bytes given),
passes both of its output pipes through to the caller as they arrive, keeps a
bounded copy of each for the record (capture.py), and reaps the hook. Like a
runtime, it reads the hook's output until the pipes close, not until the
hook exits: a background child that writes after the hook has gone still
reaches the caller. Imports only `posix`, `select` and `time` (see __init__.py).
"""

import posix
import select
import time

from hooktui.tap.hotpath.capture import HEAD, Capture, pair
from hooktui.tap.hotpath.quick import QUEUE_MAX, watchdog_due

CHUNK = 1 << 16
# Once the hook is gone and its output closed: how long the caller's stdin
# may stay quiet before the rest of the request is given up on.
GRACE_S = 0.5
# How often a tap waiting on output a hook's background child holds open
# looks up from poll (to notice the caller asking it to end).
LINGER_CHECK_S = 0.1
# Longer waits are taken in steps (poll takes a C int of milliseconds).
MAX_WAIT_S = 3600.0
# A timeout at least this long is no timeout (inf, 1e300, 99999999999 ms...).
FOREVER_S = 1e9

_EPIPE = 32
_IN = select.POLLIN | select.POLLHUP | select.POLLERR | select.POLLNVAL
_OUT = select.POLLOUT | select.POLLERR | select.POLLHUP | select.POLLNVAL


class Pump:
    """One hook's traffic, from spawn to reaping. `run()` once."""

    def __init__(
        self,
        pid: int,
        in_w: int,
        out_r: int,
        err_r: int,
        *,
        feed: bytes = b"",
        src_fd: int = -1,
        out_fd: int = -1,
        err_fd: int = -1,
        timeout_s: float | None = None,
        kill_group: bool = False,
        watchdog=None,
        linger_s: float | None = None,
        keep: int | None = HEAD,
        signals=None,
        stretch=None,
    ) -> None:
        self.pid = pid
        self.poller = select.poll()
        self.masks: dict[int, int] = {}  # what is registered with the poller
        self.request: list[bytes] = [feed] if feed else []
        self.queue: list[bytes] = [feed] if feed else []  # not yet written to the hook
        self.pending = memoryview(b"")
        self.out, self.err = pair(keep)
        self.sinks = {out_r: (self.out, out_fd, b"o"), err_r: (self.err, err_fd, b"e")}
        self.in_w, self.src_fd = in_w, src_fd
        self.deadline = _deadline(timeout_s)
        self.kill_group, self.watchdog, self.signals = kill_group, watchdog, signals
        self.linger_s = linger_s  # None: wait for the output to close, however long
        self.reaped = False
        self.status: int | None = None  # the wait status, once reaped (None: unknown)
        self.timed_out = False
        self.exited_at = self.settled_at = self.last_input = 0.0
        if stretch is not None:  # quick.first_stretch handed over: go on from there
            self._take_over(stretch, out_fd, err_fd)
        self.queued = sum(len(chunk) for chunk in self.queue)
        for fd in self.sinks:
            self._want(fd, _IN)
        self.pidfd = -1 if self.reaped else _pidfd(pid)
        if self.pidfd >= 0:
            self._want(self.pidfd, select.POLLIN)
        if self.in_w >= 0:
            posix.set_blocking(self.in_w, False)
        if self.reaped:
            self._hook_exited(self.status)

    def _take_over(self, s, out_fd: int, err_fd: int) -> None:
        """What the stretch read, wrote and kept; the pipes it left open, blocking."""
        self.request, self.queue, self.out, self.err = s.request, s.queue, s.out, s.err
        self.in_w, self.src_fd = s.in_w, s.src_fd
        self.sinks = {}
        for fd, (capture, _) in s.sinks.items():
            posix.set_blocking(fd, True)  # the pump reads once poll says there is data
            out = capture is s.out
            self.sinks[fd] = (capture, out_fd if out else err_fd, b"o" if out else b"e")
        self.reaped, self.status = s.reaped, s.status

    def run(self) -> tuple[bytes, Capture, Capture, int | None, bool]:
        """(request bytes, stdout, stderr, wait status or None, timed out)."""
        while True:
            self._keep_hook_fed()
            if self._finished():
                break
            for fd, _ in self.poller.poll(self._wait_ms()):
                self._on_ready(fd)
            self._check_hook()
        return self._close()

    # --- the steps ---------------------------------------------------------

    def _keep_hook_fed(self) -> None:
        """Register the hook's stdin while there is something to write; EOF once all is."""
        if self.in_w >= 0:
            if not self.pending and self.queue:
                chunk = self.queue.pop(0)
                self.queued -= len(chunk)
                self.pending = memoryview(chunk)
            if self.pending:
                self._want(self.in_w, _OUT)
            elif self.src_fd < 0:
                self._close_stdin()  # the whole request is written: EOF for the hook
            else:
                self._want(self.in_w, 0)
        if self.src_fd >= 0:  # read ahead of the hook only so far
            self._want(self.src_fd, _IN if self.in_w < 0 or self.queued < QUEUE_MAX else 0)

    def _finished(self) -> bool:
        if not self.reaped:
            # Every pipe closed and no clock to watch: a blocking wait ends the story.
            waiting = self.deadline is not None or self._watchdog_due() is not None
            return not self.sinks and self.src_fd < 0 and self.in_w < 0 and not waiting
        if self.sinks:  # the hook is gone; someone still holds its output open
            if self.signals is not None and self.signals.ending:
                return True  # the caller asked the tap to end
            return self.linger_s is not None and _now() >= self.exited_at + self.linger_s
        return self.src_fd < 0 or _now() >= self._quiet_until()

    def _wait_ms(self) -> int:
        """How long poll may sleep: until the nearest of the clocks that apply."""
        now = _now()
        clocks = []
        if not self.reaped:
            if self.deadline is not None:
                clocks.append(self.deadline)
            if self.pidfd < 0:
                clocks.append(now + 0.05)  # no pidfd to wake us: look for the exit
        elif self.sinks:  # the hook is gone, its output still open
            if self.linger_s is None:  # as long as it takes: look up now and then
                clocks.append(now + LINGER_CHECK_S)
            else:
                clocks.append(self.exited_at + self.linger_s)
        elif self.src_fd >= 0:
            clocks.append(self._quiet_until())
        if self._watchdog_due() is not None:
            clocks.append(self.watchdog.due)
        if not clocks:
            return -1
        left = min(clocks) - now
        return int(min(left, MAX_WAIT_S) * 1000) + 1 if left > 0 else 0

    def _on_ready(self, fd: int) -> None:
        if fd == self.in_w:
            self._write_stdin()
        elif fd == self.src_fd:
            self._read_request()
        elif fd in self.sinks:
            self._pass_output(fd)
        # the pidfd: _check_hook reaps

    def _write_stdin(self) -> None:
        try:
            self.pending = self.pending[posix.write(self.in_w, self.pending[:CHUNK]) :]
        except BlockingIOError:
            pass
        except BrokenPipeError:  # the hook stopped reading; the record keeps it all
            if self.signals is not None:
                self.signals.own_pipes += 1  # first: its SIGPIPE is the tap's, not the hook's
            self._close_stdin()
        except OSError:
            self._close_stdin()

    def _read_request(self) -> None:
        data = _read(self.src_fd)
        if not data:
            self._want(self.src_fd, 0)
            self.src_fd = -1
            return
        self.request.append(data)
        self.last_input = _now()
        if self._watchdog_started():
            self.watchdog.feed(b"i", data)
        if self.in_w >= 0:
            self.queue.append(data)
            self.queued += len(data)

    def _pass_output(self, fd: int) -> None:
        capture, through, kind = self.sinks[fd]
        data = _read(fd)
        if data:
            capture.add(data)
            if self._watchdog_started():
                self.watchdog.feed(kind, data)
            if through >= 0 and not write_all(through, data):
                data = b""  # the caller's end is closed: the hook sees a broken pipe too
        if not data:
            self._want(fd, 0)
            posix.close(fd)
            del self.sinks[fd]
            if not self.sinks and self.reaped:
                self.settled_at = _now()

    def _check_hook(self) -> None:
        """Reap the hook if it has exited; act on its timeout and the watchdog's."""
        if not self.reaped:
            try:
                done, status = posix.waitpid(self.pid, posix.WNOHANG)
            except ChildProcessError:
                done, status = self.pid, None
            if done:
                self._hook_exited(status)
            elif self.deadline is not None and _now() >= self.deadline:
                self.timed_out, self.deadline = True, None
                kill(self.pid, self.kill_group)
        due = self._watchdog_due()
        if due is not None and _now() >= due:
            hook = 0 if self.reaped else self.pid  # a reaped pid may be someone else's
            self.watchdog.start(hook, self.pidfd, self.request, self.out, self.err)

    def _hook_exited(self, status: int | None) -> None:
        self.reaped, self.status = True, status
        self.exited_at = self.settled_at = _now()
        if self.signals is not None:
            self.signals.gone()  # its pid may be reused from here on
        if self.pidfd >= 0:
            self._want(self.pidfd, 0)
        if self.in_w >= 0:  # nobody left to feed
            self._close_stdin()
        if self.sinks and self.watchdog is not None and self.linger_s is None:
            # Output held open by the hook's background child: the tap may wait
            # long, and a runtime that SIGKILLs it then must not lose the call.
            if not self.watchdog.started:
                due = self.exited_at + GRACE_S
                if self.watchdog.due is not None:
                    due = min(due, self.watchdog.due)
                self.watchdog.due = due

    def _close(self) -> tuple[bytes, Capture, Capture, int | None, bool]:
        if not self.reaped:  # every pipe is closed: nothing left but to wait
            self._hook_exited(_wait(self.pid))
        for fd in self.sinks:
            posix.close(fd)
        self.sinks = {}
        if self.pidfd >= 0:
            posix.close(self.pidfd)
            self.pidfd = -1
        return b"".join(self.request), self.out, self.err, self.status, self.timed_out

    # --- helpers -----------------------------------------------------------

    def _close_stdin(self) -> None:
        self._want(self.in_w, 0)
        posix.close(self.in_w)
        self.in_w, self.pending, self.queue, self.queued = -1, memoryview(b""), [], 0

    def _want(self, fd: int, mask: int) -> None:
        """Poll `fd` for `mask` (0: not at all), touching the poller only on a change."""
        if self.masks.get(fd, 0) == mask:
            return
        if mask:
            self.poller.register(fd, mask)
            self.masks[fd] = mask
        else:
            self.poller.unregister(fd)
            del self.masks[fd]

    def _quiet_until(self) -> float:
        return max(self.settled_at, self.last_input) + GRACE_S

    def _watchdog_due(self) -> float | None:
        return None if self.watchdog is None else self.watchdog.due

    def _watchdog_started(self) -> bool:
        return self.watchdog is not None and self.watchdog.fd >= 0


class Watchdog:
    """The tap's watchdog for one call (watchdog.py), armed: `Pump` starts it when `due`
    passes. Only starting it imports watchdog.py: most calls never do."""

    def __init__(self, timeout_ms: int | None, t0: float, record, signals=None) -> None:
        self.timeout_ms = timeout_ms
        self.t0 = t0  # the tap's time.monotonic() when the hook started
        # When pump forks it; None once started, or while there is no reason to.
        self.due: float | None = watchdog_due(timeout_ms, t0)
        # record(request, stdout, stderr, duration_ms, timed_out): what the
        # watchdog calls, in its own process, when the tap died (stdout and
        # stderr are Captures).
        self.record = record
        self.signals = signals  # the shim's Forwarder: a SIGPIPE of ours is not the hook's
        self.started = False
        self.fd = -1  # write end, in the tap, once started

    def start(self, pid: int, pidfd: int, request: list[bytes], out, err) -> None:
        """Fork the watchdog with what has arrived so far (watchdog.start). Never raises."""
        self.due, self.started = None, True  # once per call, whatever happens here
        from hooktui.tap.hotpath import watchdog

        watchdog.start(self, pid, pidfd, request, out, err)

    def feed(self, kind: bytes, data: bytes) -> None:
        """Pass on bytes that arrived after the fork (kind b"i", b"o" or b"e")."""
        if self.fd < 0 or not data:
            return
        frame = kind + len(data).to_bytes(4, "big") + data
        try:
            view = memoryview(frame)
            while view:
                view = view[posix.write(self.fd, view) :]
        except OSError as exc:  # the watchdog is gone: nothing more to tell it
            if self.signals is not None and exc.errno == _EPIPE:
                self.signals.own_pipes += 1  # first: the kernel's SIGPIPE is the tap's
            posix.close(self.fd)
            self.fd = -1

    def dismiss(self) -> None:
        """The hook ended its own way: the tap records the call itself."""
        if self.fd < 0:
            return
        try:
            posix.write(self.fd, b"q\0\0\0\0")
        except OSError:
            pass
        posix.close(self.fd)
        self.fd = -1


def pump(pid: int, in_w: int, out_r: int, err_r: int, **options):
    """Run a Pump (see its arguments); returns (request, stdout, stderr, status, timed out)."""
    return Pump(pid, in_w, out_r, err_r, **options).run()


def write_all(fd: int, data: bytes) -> bool:
    """Write everything to `fd`; False when the reader is gone (EPIPE, ECONNRESET).

    A caller may hand over a non-blocking pipe: then wait until it drains,
    as a blocking write would. Any other error (a full disk, EIO) drops the
    data: the hook's own write would have failed there, and it gone on (a
    reader gone instead makes the hook see a broken pipe, as bare).
    """
    view = memoryview(data)
    while view:
        try:
            view = view[posix.write(fd, view) :]
        except BlockingIOError:
            waiter = select.poll()
            waiter.register(fd, _OUT)
            waiter.poll()
        except (BrokenPipeError, ConnectionResetError):
            return False
        except OSError:
            return True
    return True


def kill(pid: int, group: bool) -> None:
    try:
        if group:
            posix.killpg(pid, 9)
        else:
            posix.kill(pid, 9)
    except OSError:
        pass


def read_all(fd: int, grace_s: float = GRACE_S) -> bytes:
    """Everything on `fd` until EOF, giving up `grace_s` after the last byte.

    Used when no hook ran: the request is still recorded, but a caller that
    never closes its end must not keep the tap alive.
    """
    poller = select.poll()
    poller.register(fd, _IN)
    chunks = []
    while poller.poll(int(grace_s * 1000)):
        data = _read(fd)
        if not data:
            break
        chunks.append(data)
    return b"".join(chunks)


def _read(fd: int) -> bytes:
    """The next chunk of `fd`; b"" at EOF and on a read error alike (the writer is gone)."""
    try:
        return posix.read(fd, CHUNK)
    except OSError:
        return b""


def _wait(pid: int) -> int | None:
    """Blocking wait; signal handlers still run (PEP 475 retries the call)."""
    try:
        return posix.waitpid(pid, 0)[1]
    except ChildProcessError:
        return None


def _pidfd(pid: int) -> int:
    try:
        return posix.pidfd_open(pid)
    except (AttributeError, OSError):
        return -1


def _deadline(timeout_s: float | None) -> float | None:
    """When to kill the hook; None for no timeout, and for one too long to mean one."""
    if timeout_s is None or not timeout_s < FOREVER_S:  # also NaN
        return None
    return _now() + max(0.0, timeout_s)


_now = time.monotonic
