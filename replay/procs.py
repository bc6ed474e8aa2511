"""Running one replayed hook and leaving nothing of it behind.

The hook runs through the tap's runner (`spawn` + `pump`) in a session of its own, so
its process group is the hook and everything it started that stayed with it. After
the hook ends, however it ends, that group is killed: a background child, a child
still holding stdout. What left the group (a `setsid` daemon, a job-control shell's
jobs) is caught another way: this process is made a child subreaper
(`prctl(PR_SET_CHILD_SUBREAPER)`, Linux), so such processes, once their parent is
gone, become children of the replay instead of init. `sweep` kills and reaps them.

What `sweep` touches: children of this process that it did not start as hooks, that
did not exist before the replay began, and that live in a session other than the
replay's own. Whatever the replay's host started itself (an editor, a `subprocess`
run) stays in the host's session and is never touched; hooks still running are
never touched either (the sweep runs only when no hook is running). Sweeps run
between hooks at most every SWEEP_EVERY_S, and once when a replay ends.
"""

from __future__ import annotations

import os
import signal
import threading
import time

from hooktui.tap.canonical import Outcome

PR_SET_CHILD_SUBREAPER = 36
SWEEP_LIMIT_S = 2.0  # how long `sweep` keeps killing what reappears (each pass is quick)
# Between hooks, sweep at most this often: a pass reads /proc (~0.5 ms), which every
# hook would pay, and strays are rare. Group leftovers go at once; replay() sweeps last.
SWEEP_EVERY_S = 1.0

_lock = threading.Lock()
_running: set[int] = set()  # hooks this module is waiting on (each leads its group)
_busy = 0  # hooks being started or run: no sweep while any is
_before: set[int] | None = None  # children that existed when the replay began
_subreaper = False
_window: int | None = None  # pid of the first hook since the last clean sweep
_swept_at = 0.0  # time.monotonic() of the last sweep
# Bumped by kill_running(): a hook started before a kill but registered after it
# (the kill came between spawn and registration) is killed as it registers.
_generation = 0


def start() -> None:
    """Make this process a subreaper, once; note the children it already has."""
    global _before, _subreaper
    with _lock:
        if _before is None:
            _before = set(_children())
        if not _subreaper:
            _subreaper = _set_subreaper()


def _set_subreaper() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux, or no prctl
        return False


def run(
    argv: list[str],
    stdin: bytes,
    *,
    cwd: str | None,
    env: dict[str, str] | None,
    timeout_s: float,
    generation: int | None = None,
) -> Outcome:
    """Run one hook to completion (the runner's rules: group killed on timeout), then
    kill what it left in its group, and (now and then) sweep stray descendants when it
    was the last hook running.

    `generation`: what `generation()` said before the caller decided to start this
    hook; a kill_running() since then kills it as it starts (None: now)."""
    from hooktui.replay import runner
    from hooktui.tap.hotpath.capture import HEAD

    global _busy
    held = _Held()  # Ctrl-C waits until the hook is on the books (see _Held)
    with _lock:
        _busy += 1  # before the fork: a sweep must not take the new hook for a stray
        if generation is None:
            generation = _generation
    pids: list[int] = []

    def register(pid: int) -> None:
        global _window
        pids.append(pid)
        with _lock:
            _running.add(pid)
            if _window is None:
                _window = pid
            if generation != _generation:  # killed while it was being started
                _kill_group(pid)
        # From here a Ctrl-C is the runner's to handle: it kills the hook's group.
        held.release()

    try:
        # Each output is kept up to the tap's bounded head (what a record keeps and
        # more): a hook that floods its output cannot flood replay's memory. A child
        # the hook left holding its output does not hold replay up: what it writes
        # within the runner's short grace counts, then its group goes (end_group).
        return runner.run_hook(
            argv,
            stdin,
            cwd=cwd,
            env=env,
            timeout_s=timeout_s,
            new_session=True,
            keep=HEAD,
            on_started=register,
        )
    finally:
        # Held again while the books are put right: a Ctrl-C in the middle would
        # leave a hook that is still dying off the list kill_running() reads. (A
        # Ctrl-C already pending raises in hold(), before it swaps the handler:
        # the books are still put right, then it goes on.)
        try:
            held.hold()
        finally:
            try:
                _settle(pids)
            finally:
                held.release()  # raises KeyboardInterrupt if a Ctrl-C came meanwhile


def _settle(pids: list[int]) -> None:
    """After a hook's run: kill what it left in its group, take it off the books, and
    (now and then) sweep strays when it was the last hook running."""
    global _busy
    for pid in pids:
        end_group(pid)  # what stayed in the hook's group: background jobs, pipe holders
    with _lock:
        _running.difference_update(pids)
        _busy -= 1
        idle = _busy == 0
    if idle and time.monotonic() - _swept_at >= SWEEP_EVERY_S:
        sweep()


class _Held:
    """Ctrl-C held back (in the main thread) while this module's books could miss a hook.

    Python raises KeyboardInterrupt in the main thread at whatever line it happens to
    be on. Between the fork and `register` that loses the hook: the runner knows its
    pid only once `spawn` returns, and only its `on_started` call is guarded, so the
    exception leaves a hook that nobody kills, in a session of its own where no
    terminal's Ctrl-C reaches it. Worse, when the handler runs inside an at-fork
    callback (logging registers one), CPython prints the exception and drops it: the
    replay goes on as if Ctrl-C had never come. So while held, SIGINT's handler only
    notes the signal; `release` puts the real handler back and calls it with what came.

    Other threads are not concerned: Python runs signal handlers in the main thread
    only, and there kill_running() and the generation count cover their hooks. A
    handler that is not Python's (ignored, default) is left alone.
    """

    __slots__ = ("handler", "came", "on")

    def __init__(self) -> None:
        self.handler = None
        self.came: tuple | None = None
        self.on = False
        if threading.current_thread() is threading.main_thread():
            handler = signal.getsignal(signal.SIGINT)
            if callable(handler):
                self.handler = handler
                self.hold()

    def _note(self, signum, frame) -> None:
        self.came = (signum, frame)

    def hold(self) -> None:
        if self.handler is not None and not self.on:
            signal.signal(signal.SIGINT, self._note)
            self.on = True

    def release(self) -> None:
        if not self.on:
            return
        self.on = False
        signal.signal(signal.SIGINT, self.handler)
        came, self.came = self.came, None
        if came is not None:
            self.handler(*came)  # default_int_handler: raises KeyboardInterrupt


def generation() -> int:
    """How many times kill_running() was called: see run()'s `generation`."""
    return _generation


def kill_running() -> None:
    """Kill every hook still running (their groups): for Ctrl-C. What they left is
    swept as their runs end: the last one to end sweeps whenever the last sweep was."""
    global _generation, _swept_at
    with _lock:
        _generation += 1
        _swept_at = 0.0
        pids = list(_running)
    for pid in pids:
        _kill_group(pid)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, 9)
    except OSError:
        pass


def end_group(pgid: int, limit_s: float = 1.0) -> None:
    """Kill process group `pgid` and wait until it is gone, reaping the members that
    became this process's children (their parent died first). Waiting matters: a
    member's own children are orphaned, and so come to `sweep`, only once it is dead.
    Costs three system calls when the group is already empty, the usual case."""
    _kill_group(pgid)
    deadline = time.monotonic() + limit_s
    while True:
        try:
            while os.waitpid(-pgid, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        try:
            os.killpg(pgid, 0)
        except OSError:  # ESRCH: nobody left (EPERM cannot happen for our own hooks)
            return
        if time.monotonic() >= deadline:
            return
        time.sleep(0.002)


def sweep(limit_s: float = SWEEP_LIMIT_S) -> int:
    """Kill and reap the strays hooks left (see the module text); the number reaped.

    Killing a stray orphans its own children, which then come here too: repeat until
    a pass finds none. Only when no hook is running. A Ctrl-C meanwhile waits for it
    (at most `limit_s`): a stray killed and not yet reaped is not one to leave.
    """
    held = _Held()
    try:
        return _sweep(limit_s)
    finally:
        held.release()


def _sweep(limit_s: float) -> int:
    global _window, _swept_at
    _swept_at = time.monotonic()
    if not _subreaper or _window is None:  # no hook ran since the last clean sweep
        return 0
    reaped = 0
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        with _lock:
            if _busy:
                return reaped
            strays = _strays(_window)
            if not strays:
                _window = None
        if not strays:
            return reaped
        for pid, pgid in strays:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
            if pgid > 0 and pgid != os.getpgrp():
                end_group(pgid)  # the stray's own group (a setsid daemon leads one)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:  # reaped with its group
                pass
            reaped += 1
    return reaped


def _strays(window: int | None) -> list[tuple[int, int]]:
    """(pid, process group) of the adopted children `sweep` may kill.

    Pids are handed out in increasing order, so a hook's descendants have pids above
    the first hook's of the window: only those are read (a full /proc scan costs ms
    per hook), unless the numbers wrapped around since.
    """
    own_session = os.getsid(0)
    before = _before or set()
    low = window or 0
    if low and _last_pid() < low:
        low = 0
    out = []
    for pid, ppid, pgid, sid in _processes(low):
        if ppid == os.getpid() and pid not in before and pid not in _running:
            if sid != own_session:
                out.append((pid, pgid))
    return out


def _children() -> list[int]:
    me = os.getpid()
    return [pid for pid, ppid, _, _ in _processes() if ppid == me]


def _last_pid() -> int:
    """The pid the kernel handed out last (/proc/loadavg), or 0 when unknown."""
    try:
        with open("/proc/loadavg", "rb") as f:
            return int(f.read().split()[-1])
    except (OSError, ValueError, IndexError):
        return 0


def _processes(low: int = 0):
    """(pid, ppid, pgid, sid) of every process /proc shows with a pid >= `low`."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return
    for name in names:
        if not name.isdigit() or int(name) < low:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                data = f.read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp session ...; comm may hold spaces and parentheses
        fields = data[data.rfind(b")") + 2 :].split()
        try:
            yield int(name), int(fields[1]), int(fields[2]), int(fields[3])
        except (IndexError, ValueError):
            continue
