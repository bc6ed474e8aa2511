"""execvp's rules by hand, where posix_spawnp cannot follow them, a shell's words
for a hook that cannot start, and an environment posix_spawnp refuses.

The tap's calls never load this (spawn.py does, only when needed): replay
starts hooks in a directory or an environment of their own (fork, chdir, exec,
PATH searched on that environment), a script without a `#!` line is run by
/bin/sh as execvp runs it, a caller's ignored SIGCHLD is handed on, and a hook
that cannot start is reported as a shell reports it; with no file descriptors
left for its pipes the tap execs the hook in its own place. Imports only
`posix`, `sys` and `_signal` (and tap/base/stream.py, to say a call went unrecorded).
"""

import posix
import sys

from hooktui.tap.hotpath.spawn import SHELL, SIGDEF

_ENOENT, _EACCES, _ENOEXEC = 2, 13, 8
# Errors after which execvp goes on to the next directory of PATH.
_NEXT = frozenset({2, 20, 19, 116, 110, 13})  # ENOENT ENOTDIR ENODEV ESTALE ETIMEDOUT EACCES


class CwdError(OSError):
    """The hook's working directory could not be entered."""


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


def runnable(file: str, env) -> str | None:
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


def fork_exec(argv, cwd, env, child_ends, new_session, closed=(), sigmask=None, ignored=()) -> int:
    """fork + chdir + exec, for a cwd or an env of its own, or signals to ignore.

    posix_spawn has no chdir action here, posix_spawnp looks the command up
    on this process's PATH rather than on `env`'s, and neither can start a
    program with a signal ignored that this process handles. `closed`,
    `sigmask`: as spawn.spawn takes them. An exec failure travels back
    as an errno on a close-on-exec pipe, the way subprocess does it, so the
    caller gets a real OSError (a CwdError when the directory was the problem).
    """
    import _signal

    err_r, err_w = posix.pipe()
    pid = posix.fork()
    if pid == 0:  # pragma: no cover - the child either execs or exits
        try:
            for target, fd in enumerate(child_ends):
                if target in closed:
                    posix.close(target)  # the child's ends are above 2: none is lost
                else:
                    posix.dup2(fd, target)
            if new_session:
                posix.setsid()
            for sig in SIGDEF:
                _signal.signal(sig, _signal.SIG_DFL)
            for sig in ignored:
                _signal.signal(sig, _signal.SIG_IGN)
            if sigmask is not None:
                _signal.pthread_sigmask(_signal.SIG_SETMASK, sigmask)
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


def name_the_nameless() -> None:
    """An environment entry without a name (`=C:=C:\\`, `=x`) reads as the name b""
    in posix.environ, which posix_spawn refuses (ValueError): the hook would never
    run. Where the entry holds another `=` it goes on as the caller wrote it (as
    `=C:` with `C:\\`, the way Python lets a name start with `=`); `=x` cannot be
    passed on by any exec from Python, and is left out. The order stays the caller's."""
    entries = list(posix.environ.items())
    posix.environ.clear()
    for name, value in entries:
        if not name:
            rest, eq, value = value.partition(b"=")
            if not eq:
                continue
            name = b"=" + rest
        posix.environ[name] = value


def become(opts: dict, why: OSError, closed: tuple[int, ...], ignored: tuple[int, ...]):
    """Exec the hook in this process's place, as the caller started the tap: what
    the tap does when it cannot have its pipes (`why`: no file descriptors left),
    rather than fail the guard. The call goes unrecorded, which the error log says
    when it can. Returns the error, with the tap as it was, when the hook cannot
    start either."""
    import _signal

    try:
        from hooktui.tap.base import stream

        where = opts.get("stream") or stream.default_stream_path()
        stream.log_error(where, f"the hook ran in the tap's place, unrecorded: {why}")
    except Exception:  # noqa: BLE001 - the hook runs all the same
        pass
    dispositions = {sig: _signal.getsignal(sig) for sig in (*SIGDEF, *ignored)}
    for sig in SIGDEF:
        _signal.signal(sig, _signal.SIG_DFL)
    for sig in ignored:
        _signal.signal(sig, _signal.SIG_IGN)
    for fd in closed:  # the caller's closed fds: closed in the hook, /dev/null here
        posix.set_inheritable(fd, False)
    try:
        exec_like_execvp(opts["command"], posix.environ)
    except OSError as exc:
        error = exc
    for fd in closed:
        posix.set_inheritable(fd, True)
    for sig, disposition in dispositions.items():
        _signal.signal(sig, disposition)
    return error


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
