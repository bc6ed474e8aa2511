"""A watchdog that records the call when the runtime kills the tap itself.

Some runtimes (Codex) stop a hook that runs past its timeout with SIGKILL to
the hook command, which is the tap: it cannot catch that, so it would leave no
record, and those are exactly the calls a timeout let through. So when the
hook is still running at `FRACTION` (quick.py) of its configured timeout, the tap forks
this watchdog: in a session of its own (a group kill misses it), stdio on
/dev/null, holding only the read end of a pipe whose write end only the tap
holds, and a pidfd of the hook.

- The tap goes on sending it what arrives later (request, stdout, stderr),
  as frames, and says `q` when the hook has ended its own way: the watchdog
  exits and the tap records the call as usual.
- EOF with no `q` means the tap died. The watchdog kills the hook (the runtime
  would have, without the tap in between), then records the call: what had
  arrived by then, killed by SIGKILL, timed out when the tap died at (or
  within 5 % before) the configured timeout, counted from the tap's own
  start, as the runtime counts it.

The same watchdog covers a tap that waits on output its hook's background
child holds open after the hook has exited (the tap reads until the pipes
close, as the runtime would): it is forked GRACE_S into that wait, whether or
not a timeout was given, and then has no hook left to kill.

A hook that answers before `FRACTION` of its timeout pays nothing but a
poll timeout: the armed watchdog (`pump.Watchdog`) is a deadline, and this
module is imported only when it fires. Imports only what the tap's hot path
already has loaded.
"""

import _signal
import posix
import time

from hooktui.tap.hotpath.signals import restore_dispositions

_HEAD = 5  # frame header: kind (1 byte) + length (4 bytes, big-endian)
_SIGKILL = 9


def start(dog, pid: int, pidfd: int, request: list[bytes], out, err) -> None:
    """Fork the watchdog for `dog` (pump.Watchdog) with what has arrived so far. Never raises.

    `pid` is 0 when the hook has been reaped already (nothing to kill).
    Returns once the watchdog has left the caller's process group, so a
    group kill from here on misses it.
    """
    dog.born = min(dog.t0, process_start())
    try:
        r, w = posix.pipe()
        ready_r, ready_w = posix.pipe()
    except OSError:
        return
    try:
        child = posix.fork()
    except OSError:
        for fd in (r, w, ready_r, ready_w):
            posix.close(fd)
        return
    if child:
        posix.close(r)
        posix.close(ready_w)
        try:
            posix.read(ready_r, 1)  # EOF once the watchdog has its own session
        except OSError:
            pass
        posix.close(ready_r)
        dog.fd = w
        return
    try:  # pragma: no cover - runs in the forked watchdog
        _detach(keep=(r, pidfd))
        _watch(dog, r, pid, pidfd, request, out, err)
    finally:
        posix._exit(0)


def _watch(dog, r, pid, pidfd, request, out, err) -> None:
    sinks = {b"i": request.append, b"o": out.add, b"e": err.add}
    buf = b""
    while True:
        try:
            data = posix.read(r, 1 << 16)
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            continue
        except OSError:
            data = b""
        if not data:
            break  # the tap died: no word came
        buf += data
        while len(buf) >= _HEAD:
            size = int.from_bytes(buf[1:_HEAD], "big")
            if len(buf) < _HEAD + size:
                break
            kind, chunk, buf = buf[:1], buf[_HEAD : _HEAD + size], buf[_HEAD + size :]
            if kind == b"q":
                return  # the tap records the call
            if kind in sinks:
                sinks[kind](chunk)
    duration_ms = (time.monotonic() - dog.t0) * 1000
    if len(buf) > _HEAD and buf[:1] in sinks:  # the tap died mid-frame: keep what came
        sinks[buf[:1]](buf[_HEAD:])
    kill_hook(pid, pidfd)
    # The runtime's clock started when it spawned the tap, not when the tap
    # started the hook (a Python start-up later, more on a loaded machine).
    age_ms = (time.monotonic() - dog.born) * 1000
    timed_out = bool(dog.timeout_ms) and age_ms >= dog.timeout_ms * 0.95
    dog.record(b"".join(request), out, err, duration_ms, timed_out)


def kill_hook(pid: int, pidfd: int) -> None:
    """SIGKILL the orphaned hook (its group too, when it leads one of its own).

    The pidfd pins the process: while it shows the hook alive, neither its pid
    nor its group id can have been reused. Without a pidfd (not Linux) the pid
    is used as is, milliseconds after the tap died, which is as good as it gets.
    A `pid` of 0: the tap had reaped the hook already.
    """
    if pid <= 0:
        return
    if pidfd >= 0:
        import select

        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        if poller.poll(0):
            return  # already dead (the runtime killed the whole group)
    try:
        if posix.getpgid(pid) == pid:
            posix.killpg(pid, _SIGKILL)
    except OSError:
        pass
    try:
        if pidfd >= 0:
            _signal.pidfd_send_signal(pidfd, _SIGKILL)
        else:
            posix.kill(pid, _SIGKILL)
    except OSError:
        pass


def process_start() -> float:
    """When this process was started, on the time.monotonic() clock (Linux).

    /proc/self/stat has it in clock ticks since boot; anywhere that fails, the
    answer is "now", which only makes the caller fall back to its own t0.
    """
    try:
        with open("/proc/self/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / posix.sysconf("SC_CLK_TCK")  # field 22, starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - started
        return time.monotonic() - max(0.0, age)
    except (OSError, ValueError, IndexError, AttributeError):
        return time.monotonic()


def _detach(keep: tuple[int, ...]) -> None:
    """Leave the caller's session, its signals and every fd but `keep`.

    Holding none of the caller's or the hook's pipes matters: the runtime
    waits for EOF on the hook's stdout, and the hook for EOF on its stdin.
    """
    try:
        posix.setsid()
    except OSError:  # a group leader already (its parent made it one): it stays apart
        pass
    null = posix.open("/dev/null", posix.O_RDWR)
    for fd in (0, 1, 2):
        posix.dup2(null, fd)
    lo = 3
    for fd in sorted(k for k in keep if k >= 0):
        posix.closerange(lo, fd)
        lo = fd + 1
    posix.closerange(lo, 1 << 16)
    restore_dispositions()
