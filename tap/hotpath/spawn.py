"""Start a hook on three pipes exactly as `execvp` would: shared by the tap and replay.

The runtimes start hooks with execvp-like calls (or a shell, which does the
same): PATH is searched, a candidate that exists but cannot be executed is
skipped in favour of a later one (EACCES is reported only if nothing better
turns up), and a file the kernel will not run (ENOEXEC: a script without a
`#!` line) is run by /bin/sh. glibc's posix_spawnp does all of it but the
last, so that one case is retried here. Failing to start exits 127 (not
found) or 126 (found, not runnable), like a shell.

Imports only `posix` and `sys` (and `_signal` in a forked child): the tap runs this on
every tool call.
"""

import posix
import sys

# Python ignores these two itself; the hook must get the default dispositions
# it would have had without Python in between. (glibc's posix_spawn also
# leaves its own internal signals 32 and 33 ignored in the child; Python will
# not name them, and no program but glibc itself uses them. fork+exec would
# avoid that at 2-4 ms a call, which is most of the tap's budget.)
SIGDEF = (13, 25)  # SIGPIPE, SIGXFSZ (same numbers on Linux and macOS)

SHELL = "/bin/sh"
_ENOENT, _EACCES, _ENOEXEC = 2, 13, 8
# Errors after which execvp goes on to the next directory of PATH.
_NEXT = frozenset({2, 20, 19, 116, 110, 13})  # ENOENT ENOTDIR ENODEV ESTALE ETIMEDOUT EACCES


class CwdError(OSError):
    """The hook's working directory could not be entered."""


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
        raise FileNotFoundError(_ENOENT, "empty command", "")
    env = posix.environ if env is None else env
    in_r, in_w = posix.pipe()
    out_r, out_w = posix.pipe()
    err_r, err_w = posix.pipe()
    child_ends = (in_r, out_w, err_w)
    try:
        if cwd is None and env is posix.environ:
            pid = _posix_spawn(argv, child_ends, closed, new_session)
        else:
            pid = _fork_exec(argv, cwd, env, child_ends, new_session)
    except BaseException:
        for fd in (*child_ends, in_w, out_r, err_r):
            posix.close(fd)
        raise
    for fd in child_ends:
        posix.close(fd)
    return pid, in_w, out_r, err_r


def _posix_spawn(argv, child_ends, closed, new_session) -> int:
    """posix_spawnp on this process's environment, with execvp's /bin/sh fallback."""
    actions = [
        (posix.POSIX_SPAWN_CLOSE, target)
        if target in closed
        else (posix.POSIX_SPAWN_DUP2, fd, target)
        for target, fd in enumerate(child_ends)
    ]
    options = {"file_actions": actions, "setsid": new_session, "setsigdef": SIGDEF}
    try:
        return posix.posix_spawnp(argv[0], argv, posix.environ, **options)
    except OSError as exc:
        if exc.errno != _ENOEXEC:
            raise
    script = _runnable(argv[0], posix.environ) or argv[0]
    return posix.posix_spawn(SHELL, [SHELL, script, *argv[1:]], posix.environ, **options)


def candidates(file: str, env) -> list[str]:
    """Where execvp looks for `file`, in order (an empty PATH entry is the cwd)."""
    if "/" in file:
        return [file]
    path = env.get("PATH", env.get(b"PATH"))
    if path is None:
        path = "/bin:/usr/bin"  # glibc's and Python's default
    elif isinstance(path, bytes):  # posix.environ, the bytes behind os.environ
        path = path.decode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    return [f"{d.rstrip('/')}/{file}" if d else file for d in path.split(":")]


def _runnable(file: str, env) -> str | None:
    """The candidate execvp would have handed to the kernel (the one that said ENOEXEC)."""
    for path in candidates(file, env):
        try:
            regular = posix.stat(path).st_mode & 0o170000 == 0o100000
        except OSError:
            continue
        if regular and posix.access(path, posix.X_OK):
            return path
    return None


def exec_like_execvp(argv: list[str], env) -> None:
    """execvp with an environment of its own; only returns by raising OSError."""
    denied = last = None
    for path in candidates(argv[0], env):
        try:
            posix.execve(path, argv, env)
        except OSError as exc:
            if exc.errno == _ENOEXEC:
                posix.execve(SHELL, [SHELL, path, *argv[1:]], env)
            if exc.errno not in _NEXT:
                raise
            if exc.errno == _EACCES and denied is None:
                denied = exc
            last = exc
    raise denied or last or FileNotFoundError(_ENOENT, "not found", argv[0])


def _fork_exec(argv, cwd, env, child_ends, new_session) -> int:
    """fork + chdir + exec, for a cwd or an env of its own.

    posix_spawn has no chdir action here, and posix_spawnp looks the command up
    on this process's PATH rather than on `env`'s. An exec failure travels back
    as an errno on a close-on-exec pipe, the way subprocess does it, so the
    caller gets a real OSError (a CwdError when the directory was the problem).
    """
    import _signal

    err_r, err_w = posix.pipe()
    pid = posix.fork()
    if pid == 0:  # pragma: no cover - the child either execs or exits
        try:
            for target, fd in enumerate(child_ends):
                posix.dup2(fd, target)
            if new_session:
                posix.setsid()
            for sig in SIGDEF:
                _signal.signal(sig, _signal.SIG_DFL)
            step = b"cwd"
            if cwd is not None:
                posix.chdir(cwd)
            step = b"exec"
            exec_like_execvp(argv, env)
        except OSError as exc:
            posix.write(err_w, b"%s:%d:%s" % (step, exc.errno or 0, (exc.strerror or "").encode()))
        finally:
            posix._exit(127)
    posix.close(err_w)
    data = b""
    while chunk := posix.read(err_r, 4096):
        data += chunk
    posix.close(err_r)
    if data:
        posix.waitpid(pid, 0)
        step, code, msg = data.split(b":", 2)
        if step == b"cwd":
            raise CwdError(int(code), msg.decode(errors="replace"), cwd)
        raise OSError(int(code), msg.decode(errors="replace"), argv[0])
    return pid


def spawn_exit_code(exc: OSError) -> int:
    """What a shell exits with: 127 not found, 126 found but not executable."""
    if isinstance(exc, CwdError):
        return 126
    return 127 if exc.errno == _ENOENT else 126


def spawn_message(command: str, exc: OSError) -> str:
    if isinstance(exc, CwdError):
        return f"{command}: cannot run in {exc.filename}: {exc.strerror}"
    if spawn_exit_code(exc) == 127:
        return f"{command}: command not found"
    return f"{command}: {exc.strerror or exc}"
