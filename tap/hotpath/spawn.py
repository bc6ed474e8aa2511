"""Start a hook on three pipes exactly as `execvp` would: shared by the tap and replay.

The runtimes start hooks with execvp-like calls (or a shell, which does the
same): PATH is searched, a candidate that exists but cannot be executed is
skipped in favour of a later one (EACCES is reported only if nothing better
turns up), and a file the kernel will not run (ENOEXEC: a script without a
`#!` line) is run by /bin/sh. glibc's posix_spawnp does all of it but the
last, so that one case is retried here. Failing to start exits 127 (not
found) or 126 (found, not runnable), like a shell.

Imports only `posix`: the tap runs this on every tool call. What
its calls never need (a cwd or an environment of the hook's own, a script
without `#!`, the words for a hook that cannot start) is in execvp.py, loaded
only then: every line loaded costs each call.
"""

import posix

# Python ignores these two itself; the hook must get the default dispositions
# it would have had without Python in between. (glibc's posix_spawn also
# leaves its own internal signals 32 and 33 ignored in the child; Python will
# not name them, and no program but glibc itself uses them. fork+exec would
# avoid that at 2-4 ms a call, which is most of the tap's budget.)
SIGDEF = (13, 25)  # SIGPIPE, SIGXFSZ (same numbers on Linux and macOS)

SHELL = "/bin/sh"
PIPE, SOCKET, OWN = "pipe", "socket", "own"
_ENOENT, _ENOEXEC = 2, 8


def spawn(
    argv: list[str],
    *,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    new_session: bool = False,
    closed: tuple[int, ...] = (),
    sigmask=None,
    ignored: tuple[int, ...] = (),
    stdin: str = PIPE,
) -> tuple[int, int, int, int]:
    """Start `argv` with its stdout and stderr on pipes, its stdin as `stdin` says:
    PIPE, SOCKET (one end of a socketpair: what Node's runtimes give their hooks),
    or OWN (the caller's own fd 0, a regular file: the hook reads it as bare).

    Returns (pid, stdin write end (-1 for OWN), stdout read end, stderr read end). Raises
    OSError (FileNotFoundError, PermissionError, ...) when it cannot start.
    The hook stays in the caller's process group unless `new_session`.
    Standard fds listed in `closed` (0, 1, 2) are left closed in the hook, as
    the tap's caller left them, and `sigmask` is the hook's signal mask (the
    caller's, where the tap blocks one of its own). Signals in `ignored` start
    ignored in the hook: the caller's SIGCHLD, which the tap itself cannot leave
    ignored; posix_spawn cannot do that, so fork_exec (execvp.py) starts it then.
    """
    if not argv:
        raise FileNotFoundError(_ENOENT, "empty command", "")
    env = posix.environ if env is None else env
    ends: list[int] = []
    try:
        ends += _stdin(stdin)
        for _ in range(2):
            ends += posix.pipe()
    except OSError:  # out of file descriptors: none of ours stays open
        for fd in ends:
            if fd > 2:
                posix.close(fd)
        raise
    in_r, in_w, out_r, out_w, err_r, err_w = ends
    child_ends = (in_r, out_w, err_w)
    try:
        if cwd is None and env is posix.environ and not ignored:
            pid = _posix_spawn(argv, child_ends, closed, new_session, sigmask)
        else:
            from hooktui.tap.hotpath.execvp import fork_exec

            pid = fork_exec(argv, cwd, env, child_ends, new_session, closed, sigmask, ignored)
    except BaseException:
        for fd in (*child_ends, in_w, out_r, err_r):
            if fd > 2:
                posix.close(fd)
        raise
    for fd in child_ends:
        if fd > 2:
            posix.close(fd)
    return pid, in_w, out_r, err_r


def _stdin(kind: str) -> list[int]:
    """(the hook's end, the tap's end) of the hook's stdin."""
    if kind == OWN:
        return [0, -1]
    if kind == SOCKET:  # `_socket` (a shared library) only for a caller's socket
        import _socket

        a, b = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
        return [a.detach(), b.detach()]
    return list(posix.pipe())


def _posix_spawn(argv, child_ends, closed, new_session, sigmask) -> int:
    """posix_spawnp on this process's environment, with execvp's /bin/sh fallback."""
    actions = [
        (posix.POSIX_SPAWN_CLOSE, target)
        if target in closed
        else (posix.POSIX_SPAWN_DUP2, fd, target)
        for target, fd in enumerate(child_ends)
        if fd != target  # the caller's own stdin, as it is
    ]
    options = {"file_actions": actions, "setsid": new_session, "setsigdef": SIGDEF}
    if sigmask is not None:
        options["setsigmask"] = sigmask
    try:
        return posix.posix_spawnp(argv[0], argv, posix.environ, **options)
    except OSError as exc:
        if exc.errno != _ENOEXEC:
            raise
    from hooktui.tap.hotpath.execvp import runnable

    script = runnable(argv[0], posix.environ) or argv[0]
    return posix.posix_spawn(SHELL, [SHELL, script, *argv[1:]], posix.environ, **options)
