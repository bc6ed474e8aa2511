"""Spawn a hook on three pipes and pump its traffic: shared by the tap and replay.

The core (`spawn`, `pump`) imports only `os`, `select` and `time`, all cheap
or already loaded, because the tap runs it on every tool call; `run_hook`
builds the msgspec `Outcome` for replay and imports the model lazily.
"""

from __future__ import annotations

import os
import select
import time

CHUNK = 1 << 16
# After the hook has exited, how long to keep waiting for EOF on its pipes
# (a background child may hold them) and for the rest of the caller's stdin.
GRACE_S = 0.5

_IN = select.POLLIN | select.POLLHUP | select.POLLERR | select.POLLNVAL
_OUT = select.POLLOUT | select.POLLERR | select.POLLHUP | select.POLLNVAL

# Python ignores these two itself; the hook must get the default dispositions
# it would have had without Python in between. (glibc's posix_spawn also
# leaves its own internal signals 32 and 33 ignored in the child; Python will
# not name them, and no program but glibc itself uses them. fork+exec would
# avoid that at 2-4 ms a call, which is most of the tap's budget.)
_SIGDEF = (13, 25)  # SIGPIPE, SIGXFSZ (same numbers on Linux and macOS)


def spawn(
    argv: list[str],
    *,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    new_session: bool = False,
    closed: tuple[int, ...] = (),
) -> tuple[int, int, int, int]:
    """Start `argv` with its stdin, stdout and stderr on pipes.

    Returns (pid, stdin write end, stdout read end, stderr read end). Raises
    OSError (FileNotFoundError, PermissionError, ...) when it cannot start.
    The hook stays in the caller's process group unless `new_session`.
    Standard fds listed in `closed` (0, 1, 2) are left closed in the hook, as
    the tap's caller left them (only without `cwd`/`env`).
    """
    if not argv:
        raise FileNotFoundError(2, "empty command", "")
    env = os.environ if env is None else env
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    child_ends = (in_r, out_w, err_w)
    try:
        if cwd is None and env is os.environ:
            pid = os.posix_spawnp(
                argv[0],
                argv,
                env,
                file_actions=[
                    (os.POSIX_SPAWN_CLOSE, target)
                    if target in closed
                    else (os.POSIX_SPAWN_DUP2, fd, target)
                    for target, fd in enumerate(child_ends)
                ],
                setsid=new_session,
                setsigdef=_SIGDEF,
            )
        else:
            pid = _fork_exec(argv, cwd, env, child_ends, new_session)
    except BaseException:
        for fd in (*child_ends, in_w, out_r, err_r):
            os.close(fd)
        raise
    for fd in child_ends:
        os.close(fd)
    return pid, in_w, out_r, err_r


def _fork_exec(argv, cwd, env, child_ends, new_session) -> int:
    """fork + chdir + exec, for a cwd or an env of its own.

    posix_spawn has no chdir action here, and posix_spawnp looks the command up
    on this process's PATH rather than on `env`'s. An exec failure travels back
    as an errno on a close-on-exec pipe, the way subprocess does it, so the
    caller gets a real OSError (a CwdError when the directory was the problem).
    """
    import _signal

    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child either execs or exits
        try:
            for target, fd in enumerate(child_ends):
                os.dup2(fd, target)
            if new_session:
                os.setsid()
            for sig in _SIGDEF:
                _signal.signal(sig, _signal.SIG_DFL)
            step = b"cwd"
            if cwd is not None:
                os.chdir(cwd)
            step = b"exec"
            os.execvpe(argv[0], argv, env)
        except OSError as exc:
            os.write(err_w, b"%s:%d:%s" % (step, exc.errno or 0, (exc.strerror or "").encode()))
        finally:
            os._exit(127)
    os.close(err_w)
    data = b""
    while chunk := os.read(err_r, 4096):
        data += chunk
    os.close(err_r)
    if data:
        os.waitpid(pid, 0)
        step, code, msg = data.split(b":", 2)
        if step == b"cwd":
            raise CwdError(int(code), msg.decode(errors="replace"), cwd)
        raise OSError(int(code), msg.decode(errors="replace"), argv[0])
    return pid


class CwdError(OSError):
    """The hook's working directory could not be entered."""


def _write_all(fd: int, data: bytes) -> bool:
    """Write everything to a blocking fd; False when the reader is gone."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError:  # EPIPE, EBADF, EIO: the caller stopped listening
        return False
    return True


def _read(fd: int) -> bytes:
    """The next chunk of `fd`; b"" at EOF and on a read error alike (the writer is gone)."""
    try:
        return os.read(fd, CHUNK)
    except OSError:
        return b""


def pump(
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
) -> tuple[bytes, bytes, bytes, int | None, bool]:
    """Feed the hook, drain both its pipes, wait for it: one poll loop.

    Input is `feed` plus everything read from `src_fd` (the tap's own stdin),
    and is kept whole even when the hook reads none or part of it (EPIPE only
    ends the feeding). Output is copied to `out_fd`/`err_fd` as it arrives
    when those are given. On `timeout_s` the hook (or its whole group, with
    `kill_group`) gets SIGKILL. A `watchdog` (see watchdog.py) is started
    once its `due` time passes with the hook still running, and fed what
    arrives after that. Returns (request bytes, stdout, stderr, wait status or
    None, timed out).
    """
    poller = select.poll()
    request: list[bytes] = [feed] if feed else []
    queue: list[bytes] = [feed] if feed else []  # not yet written to the hook
    pending = memoryview(b"")
    out: list[bytes] = []
    err: list[bytes] = []
    sinks = {out_r: (out, out_fd, b"o"), err_r: (err, err_fd, b"e")}
    for fd in sinks:
        poller.register(fd, _IN)
    try:
        pidfd = os.pidfd_open(pid)
        poller.register(pidfd, select.POLLIN)
    except (AttributeError, OSError):
        pidfd = -1
    if src_fd >= 0:
        poller.register(src_fd, _IN)
    os.set_blocking(in_w, False)
    writing = False  # in_w registered for POLLOUT

    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    status: int | None = None
    timed_out = False
    exited_at = 0.0

    while True:
        # Keep the hook's stdin in step with what is queued for it.
        if in_w >= 0:
            if not pending and queue:
                pending = memoryview(queue.pop(0))
            if pending and not writing:
                poller.register(in_w, _OUT)
                writing = True
            elif not pending and src_fd < 0:
                if writing:
                    poller.unregister(in_w)
                os.close(in_w)  # the whole request is written: EOF for the hook
                in_w = -1
                writing = False
            elif not pending and writing:
                poller.unregister(in_w)
                writing = False
        if not sinks and src_fd < 0 and in_w < 0:
            waiting = deadline is not None or (watchdog is not None and watchdog.due is not None)
            if status is not None or not waiting:
                break  # all closed: a plain blocking wait ends the story
        now = time.monotonic()
        wait_ms = -1
        if status is not None:
            left = exited_at + GRACE_S - now
            if left <= 0:
                break  # the hook is gone; whoever still holds its pipes is not it
            wait_ms = int(left * 1000) + 1
        elif deadline is not None:
            wait_ms = max(0, int((deadline - now) * 1000) + 1)
        if status is None and pidfd < 0:
            wait_ms = 50 if wait_ms < 0 else min(wait_ms, 50)
        if status is None and watchdog is not None and watchdog.due is not None:
            due_ms = max(0, int((watchdog.due - now) * 1000) + 1)
            wait_ms = due_ms if wait_ms < 0 else min(wait_ms, due_ms)
        for fd, _ in poller.poll(wait_ms):
            if fd == pidfd:
                continue
            if fd == in_w:
                try:
                    pending = pending[os.write(in_w, pending[:CHUNK]) :]
                except BlockingIOError:
                    pass
                except OSError:  # EPIPE: the hook stopped reading; the record keeps it all
                    if writing:
                        poller.unregister(in_w)
                    os.close(in_w)
                    in_w, writing, pending, queue = -1, False, memoryview(b""), []
            elif fd == src_fd:
                data = _read(src_fd)
                if data:
                    request.append(data)
                    if watchdog is not None:
                        watchdog.feed(b"i", data)
                    if in_w >= 0:
                        queue.append(data)
                else:
                    poller.unregister(src_fd)
                    src_fd = -1
            elif fd in sinks:
                chunks, through, kind = sinks[fd]
                data = _read(fd)
                if data:
                    chunks.append(data)
                    if watchdog is not None:
                        watchdog.feed(kind, data)
                    if through >= 0 and not _write_all(through, data):
                        data = b""  # the caller's end is closed: the hook sees a broken pipe too
                if not data:
                    poller.unregister(fd)
                    os.close(fd)
                    del sinks[fd]
        if status is None:
            try:
                done, st = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done, st = pid, None
            if done:
                status = st
                exited_at = time.monotonic()
                if pidfd >= 0:
                    poller.unregister(pidfd)
                if in_w >= 0:  # nobody left to feed
                    if writing:
                        poller.unregister(in_w)
                    os.close(in_w)
                    in_w, writing, pending, queue = -1, False, memoryview(b""), []
            elif deadline is not None and time.monotonic() >= deadline:
                timed_out = True
                deadline = None
                _kill(pid, kill_group)
            elif (
                watchdog is not None
                and watchdog.due is not None
                and time.monotonic() >= watchdog.due
            ):
                watchdog.start(pid, pidfd, request, out, err)

    for fd in sinks:
        os.close(fd)
    if in_w >= 0:
        os.close(in_w)
    if pidfd >= 0:
        os.close(pidfd)
    if status is None:
        status = _wait(pid)
    return b"".join(request), b"".join(out), b"".join(err), status, timed_out


def _kill(pid: int, group: bool) -> None:
    try:
        if group:
            os.killpg(pid, 9)
        else:
            os.kill(pid, 9)
    except OSError:
        pass


def _wait(pid: int) -> int | None:
    """Blocking wait; signal handlers still run (PEP 475 retries the call)."""
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return None


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


def decode_status(status: int | None) -> tuple[int | None, int | None]:
    """(exit code, signal) from a wait status."""
    if status is None:
        return None, None
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status), None
    return None, None


# Hooks `run_hook` is waiting on: pid -> whether it leads its own group.
_running: dict[int, bool] = {}


def kill_running() -> None:
    """Kill every hook `run_hook` is still waiting on (its group, when it has one).

    For an interrupted replay: its hooks run in sessions of their own, so the
    terminal's Ctrl-C never reaches them, and worker threads would otherwise
    wait them out.
    """
    for pid, group in list(_running.items()):
        _kill(pid, group)


def run_hook(
    argv: list[str],
    stdin: bytes,
    *,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    timeout_s: float | None = None,
    new_session: bool = False,
):
    """Run one hook to completion and describe what it did (used by replay).

    On timeout the hook is killed (its whole process group with
    `new_session=True`, which puts it in a session of its own) and
    `timed_out` is set. A command that cannot start gives `exit_code=127`
    (126 when it exists but cannot be executed) and `spawn_error`.
    """
    from hooktui.tap.model import Outcome

    started = time.monotonic()
    try:
        pid, in_w, out_r, err_r = spawn(argv, cwd=cwd, env=env, new_session=new_session)
    except OSError as exc:
        return Outcome(
            exit_code=spawn_exit_code(exc),
            spawn_error=spawn_message(argv[0] if argv else "", exc),
            duration_ms=(time.monotonic() - started) * 1000,
        )
    _running[pid] = new_session
    try:
        _, out, err, status, timed_out = pump(
            pid, in_w, out_r, err_r, feed=stdin, timeout_s=timeout_s, kill_group=new_session
        )
    except BaseException:  # Ctrl-C in this thread: leave no hook running
        _kill(pid, new_session)
        raise
    finally:
        _running.pop(pid, None)
    code, sig = decode_status(status)
    if timed_out and new_session:
        _kill(pid, True)  # stragglers of the group
    return Outcome(
        stdout=out,
        stderr=err,
        exit_code=code,
        signal=sig,
        timed_out=timed_out,
        duration_ms=(time.monotonic() - started) * 1000,
    )


def spawn_exit_code(exc: OSError) -> int:
    """What a shell exits with: 127 not found, 126 found but not executable."""
    if isinstance(exc, CwdError):
        return 126
    return 127 if exc.errno == 2 else 126


def spawn_message(command: str, exc: OSError) -> str:
    if isinstance(exc, CwdError):
        return f"{command}: cannot run in {exc.filename}: {exc.strerror}"
    if spawn_exit_code(exc) == 127:
        return f"{command}: command not found"
    return f"{command}: {exc.strerror or exc}"
