"""`hooktui tap`: run a hook transparently, record the call after answering.

This module runs on every tool call, so the pass-through path imports only
what Python has already loaded or what is a cheap C module (`posix`, `sys`,
`_signal`, `time`, and `select` when the pump takes over: see __init__.py);
argv is parsed by hand. Everything heavy
(msgspec, the adapters, redaction) is imported by the recorder, in a forked
child that runs after the hook's answer has gone back to the caller. With
`--timeout-ms`, a hook still running at half its timeout gets a watchdog
(watchdog.py) that records the call if the runtime SIGKILLs the tap.

The steps of one call, in `main`: parse the options; make the environment
the caller's again; spawn the hook (spawn.py) with every signal forwarded
(signals.py); pass its traffic through (quick.py, and pump.py for a call that
outgrows it); answer the runtime; record.
"""

import _signal
import posix
import sys
import time

from hooktui.tap.hotpath.capture import HEAD, KEPT_BACK
from hooktui.tap.hotpath.quick import BUDGET_S, SIGCHLD, decode_status, first_stretch, watchdog_due
from hooktui.tap.hotpath.signals import Forwarder, die_by, restore_dispositions
from hooktui.tap.hotpath.spawn import OWN, PIPE, SOCKET, spawn

USAGE = (
    "usage: hooktui tap [--stream PATH] [--label NAME] [--runtime NAME] "
    "[--capture full|redacted|digest] [--timeout-ms N [--timeout-default]] [--fail-closed] "
    "[--hook-env NAMES] [--wait] -- COMMAND [ARGS...]\n"
)
HELP = (
    USAGE
    + """
Run COMMAND as a hook: the request on stdin, the answer on stdout, stderr and
the exit status all pass through unchanged. One JSON record per call is
appended to the stream after the answer has gone back.

options:
  --stream PATH      stream file (default: $HOOKTUI_STREAM, else
                     $XDG_STATE_HOME/hooktui/stream.jsonl)
  --label NAME       name shown for this hook (default: the command's name)
  --runtime NAME     read the call as this runtime's (default: detected)
  --capture MODE     full, redacted (default: secrets masked) or digest
                     (prompts and tool outputs kept only as sha256 + length)
  --timeout-ms N     the hook's configured timeout: recorded, and if the runtime
                     kills the tap at it, a watchdog still records the call
                     (any whole number; beyond ~285,000 years it is that long)
  --timeout-default  the timeout is the runtime's default (the settings set none)
  --fail-closed      the hook's settings make its failure block the action
                     (install reads it there): recorded
  --hook-env NAMES   comma-separated variables the settings set for this hook
                     alone: recorded with the runtime's variables
  --wait             record before exiting (also HOOKTUI_TAP_WAIT=1)
"""
)

CAPTURES = ("full", "redacted", "digest")
_VALUED = ("--stream", "--label", "--runtime", "--capture", "--timeout-ms", "--hook-env")
# The largest timeout kept as given (exact in JSON, ~285,000 years); longer
# ones are clamped to it. Any timeout this long means "never" in practice.
MAX_TIMEOUT_MS = 2**53
_FLAGS = ("--wait", "--timeout-default", "--fail-closed")
_SIGKILL = 9
_NO_FDS = (23, 24)  # ENFILE, EMFILE
# What Python's locale coercion (PEP 538) puts in LC_CTYPE.
_COERCED = (b"C.UTF-8", b"C.utf8", b"UTF-8")


class UsageError(Exception):
    pass


def runtime_names() -> tuple[str, ...]:
    """What `--runtime` takes: the registry's names (a module that imports nothing,
    loaded only when a runtime is named: most calls leave the tap to detect it)."""
    from hooktui.tap import runtimes

    return (*runtimes.RUNTIMES, runtimes.UNKNOWN)


def parse_args(argv: list[str]) -> dict:
    """Options and the command; raises UsageError with a one-line reason."""
    opts: dict = {"capture": "redacted", "wait": False}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break  # the command starts here (the `--` is optional)
        if arg in ("-h", "--help"):
            opts["help"] = True
            return opts
        if arg in _FLAGS:
            opts[arg[2:].replace("-", "_")] = True
            i += 1
            continue
        name, eq, value = arg.partition("=")
        if name not in _VALUED:
            raise UsageError(f"unknown option {arg!r}")
        if not eq:
            if i + 1 >= len(argv):
                raise UsageError(f"{name} needs a value")
            i += 1
            value = argv[i]
        key = name[2:].replace("-", "_")
        opts[key] = _checked(key, name, value)
        i += 1
    opts["command"] = argv[i:]
    if not opts["command"]:
        raise UsageError("no hook command given after `--`")
    return opts


def _checked(key: str, name: str, value: str):
    if key == "runtime" and value not in runtime_names():
        raise UsageError(f"unknown runtime {value!r} (one of: {', '.join(runtime_names())})")
    if key == "capture" and value not in CAPTURES:
        raise UsageError(f"unknown capture {value!r} (one of: {', '.join(CAPTURES)})")
    if key == "timeout_ms":
        if not (value.isascii() and value.isdigit()):
            raise UsageError(f"--timeout-ms needs a whole number of milliseconds, not {value!r}")
        # Clamped, never refused: `install` writes what the settings say, and
        # people write 99999999 to mean "never". A refusal here fails the guard.
        return min(int(value), MAX_TIMEOUT_MS) if len(value) < 20 else MAX_TIMEOUT_MS
    if key in ("stream", "label") and not value:
        raise UsageError(f"{name} needs a non-empty value")
    return value


def main(argv: list[str]) -> int:
    try:
        opts = parse_args(argv)
    except UsageError as exc:
        posix.write(2, f"hooktui tap: {exc}\n{USAGE}".encode())
        return 2
    if opts.get("help"):
        posix.write(1, HELP.encode())
        return 0
    _undo_locale_coercion()
    if b"" in posix.environ:  # an entry without a name: see execvp.py
        from hooktui.tap.hotpath.execvp import name_the_nameless

        name_the_nameless()
    closed = _std_fds_open()
    signals = Forwarder()
    signals.install()
    ignored = _take_back_sigchld()

    started_at = time.time()
    t0 = time.monotonic()
    # SIGCHLD blocked, so the first stretch can sleep until the hook exits; the
    # hook itself starts with the caller's mask.
    mask = _signal.pthread_sigmask(_signal.SIG_BLOCK, (SIGCHLD,))
    stdin = _stdin_kind()
    # Where the caller's file stands before the hook moves it: the record's request
    # is read from there, whatever the hook has read by then.
    stdin_at = _offset_of_stdin() if stdin == OWN else 0
    try:
        pid, in_w, out_r, err_r = spawn(
            opts["command"], closed=closed, sigmask=mask, ignored=ignored, stdin=stdin,
            new_session=_leads_its_session(),
        )  # fmt: skip
    except OSError as exc:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, mask)
        if exc.errno in _NO_FDS:  # no pipes to be had: the hook runs in the tap's place
            from hooktui.tap.hotpath.execvp import become

            exc = become(opts, exc, closed, ignored)
        return _not_started(opts, exc, started_at, t0)
    signals.started(pid)
    # The hook's output goes through to the caller as it arrives (fds 1 and 2),
    # unless a dashboard may hold the call: then it is kept until it decides.
    hold = _hold_socket()
    out_fd, err_fd, keep = (-1, -1, KEPT_BACK) if hold else (1, 2, HEAD)
    due = watchdog_due(opts.get("timeout_ms"), t0)
    until = t0 + BUDGET_S if due is None else min(t0 + BUDGET_S, due)
    try:
        stretch = first_stretch(
            pid, in_w, out_r, err_r, out_fd=out_fd, err_fd=err_fd, keep=keep,
            signals=signals, until=until, stdin_at=stdin_at,
        )  # fmt: skip
    finally:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, mask)
    if stretch.done:  # most calls: no `select`, no pump.py
        request, out, err, status = b"".join(stretch.request), *stretch.result()
    else:
        from hooktui.tap.hotpath.pump import Watchdog, pump

        def record_killed(request, out, err, duration_ms, timed_out):  # in the watchdog
            args = (request, out, err, None, _SIGKILL, started_at, duration_ms, "")
            _handoff(opts, *args, killed=timed_out)

        watchdog = Watchdog(opts.get("timeout_ms"), t0, record_killed, signals)
        request, out, err, status, _ = pump(
            pid, in_w, out_r, err_r, src_fd=0, out_fd=out_fd, err_fd=err_fd,
            watchdog=watchdog, signals=signals, keep=keep, stretch=stretch,
        )  # fmt: skip
        watchdog.dismiss()  # first thing: the call is the tap's own to record again
    code, sig = decode_status(status)
    _note_signals(opts, signals, t0)
    answer, held = (code, sig), None
    if hold and (out.spilled or err.spilled):  # too big to hold: on its way already
        out.spill()
        err.spill()
    elif hold:  # the hook has answered; the runtime has nothing yet
        later = _record_later(opts, request, out, err, code, sig, started_at, t0)
        answer, held = _hold(hold, opts, request, out, err, code, sig, started_at, t0, signals)
        if later is not None:  # its recorder is waiting for this
            later.send(held)
            return _answer(*answer)
    _record(opts, request, out, err, code, sig, started_at, t0, "", held, _leaving(*answer))
    return _answer(*answer)


def _record_later(opts, request, out, err, code, sig, started_at, t0):
    """The recorder of a call about to be held, forked now (later.py): a tap killed
    while holding still leaves the call recorded. None with --wait (recorded here)."""
    if opts["wait"] or posix.environ.get(b"HOOKTUI_TAP_WAIT") == b"1":
        return None
    from hooktui.tap.hotpath.later import fork_recorder

    return fork_recorder(opts, request, out, err, code, sig, started_at, t0, _handoff)


def _stdin_kind() -> str:
    """The kind of stdin the hook gets: the kind the tap got (issue 19: a socket, which
    every Node runtime gives its hooks, was a pipe, so `cat /dev/stdin` worked tapped
    and failed bare). A regular file is the caller's own, read where it stands."""
    try:
        kind = posix.fstat(0).st_mode & 0o170000
    except OSError:
        return PIPE
    return SOCKET if kind == 0o140000 else OWN if kind == 0o100000 else PIPE


def _offset_of_stdin() -> int:
    try:
        return posix.lseek(0, 0, 1)
    except OSError:
        return 0


def _leads_its_session() -> bool:
    """Whether the caller started the tap as a session leader, as Codex starts its hooks
    (issue 19: bare, the hook led its session; tapped, it was a member of the tap's).
    The hook then leads a session of its own: a group kill by the runtime still reaches
    it through the watchdog (watchdog.kill_hook kills the group the hook leads). Not
    with a controlling terminal: a new session would lose it, and Ctrl-C with it."""
    try:
        if posix.getsid(0) != posix.getpid():
            return False
    except OSError:
        return False
    try:
        tty = posix.open("/dev/tty", posix.O_RDONLY | posix.O_NOCTTY | posix.O_CLOEXEC)
    except OSError:
        return True  # a session leader without a terminal: the runtimes' way
    posix.close(tty)
    return False


def _hold(path, opts, request, out, err, code, sig, started_at, t0, signals):
    # (answer, held): the call offered to the dashboard (tap/hold/client.py), then the
    # answer written, the hook's or the person's. Whatever fails there, the hook's
    # own answer goes out unheld: a dashboard must never be why a guard's is lost.
    from hooktui.tap.hotpath.pump import write_all

    try:
        from hooktui.tap.hold.client import hold_and_answer

        args = (request, out, err, code, sig, started_at, t0, signals)
        answer = hold_and_answer(path, opts, *args)
    except Exception as exc:  # nothing went out yet: the hook's own answer does
        from hooktui.tap.base import stream

        write_all(1, out.head)  # the whole output: kept whole while a dashboard may hold
        write_all(2, err.head)
        where = opts.get("stream") or stream.default_stream_path()
        stream.log_error(where, f"the hook's answer went through unheld: {exc!r}")
        return (code, sig), None
    write_all(1, answer.stdout)
    write_all(2, answer.stderr)
    return (answer.exit_code, answer.signal), answer.held


def _hold_socket() -> bytes:
    """The socket of a live dashboard holding breakpoints (tap/hold/place.py), or b"".

    Its directory is the first candidate that is ours alone (a missing one ends the
    search: a dashboard would have made it); alive means its lock is held. No
    dashboard: an lstat, and an open if one ever ran there.
    """
    for folder in _hold_dirs():
        try:
            info = posix.lstat(folder)
        except FileNotFoundError:
            return b""
        except OSError:
            continue
        mine = info.st_uid == posix.getuid() and info.st_mode & 0o170077 == 0o040000
        if mine:
            return folder + b"/hold.sock" if _locked(folder + b"/hold.lock") else b""
    return b""


def _hold_dirs() -> list[bytes]:
    env = posix.environ
    run = env.get(b"XDG_RUNTIME_DIR", b"")
    dirs = [run + b"/hooktui"] if run[:1] == b"/" else []
    state = env.get(b"XDG_STATE_HOME", b"")
    if state[:1] != b"/":
        home = env.get(b"HOME", b"")
        state = home + b"/.local/state" if home[:1] == b"/" else b""
    if state and len(state) + 18 <= 107:  # + /hooktui/hold.sock
        dirs.append(state + b"/hooktui")
    dirs.append(b"/tmp/hooktui-%d" % posix.getuid())
    return dirs


def _locked(path: bytes) -> bool:
    try:
        fd = posix.open(path, posix.O_RDONLY | posix.O_CLOEXEC | posix.O_NOFOLLOW)
    except OSError:
        return False
    try:
        posix.lockf(fd, posix.F_TEST, 0)
        return False
    except OSError:  # another process holds it: the dashboard lives
        return True
    finally:
        posix.close(fd)


def _not_started(opts: dict, exc: OSError, started_at: float, t0: float) -> int:
    """The hook could not start: say so as a shell would, and record the request."""
    from hooktui.tap.hotpath.capture import Capture
    from hooktui.tap.hotpath.execvp import spawn_exit_code, spawn_message
    from hooktui.tap.hotpath.pump import read_all

    code = spawn_exit_code(exc)
    message = spawn_message(opts["command"][0], exc)
    posix.write(2, f"hooktui tap: {message}\n".encode())
    request = read_all(0)
    leave = _leaving(code, None)
    _record(opts, request, Capture(), Capture(), code, None, started_at, t0, message, None, leave)
    return _exit(code)


def _answer(code: int | None, sig: int | None) -> int:
    """End as the hook ended: the same signal, or the same exit status."""
    if sig is not None:
        die_by(sig)
    return _exit(1 if code is None else code)


def _note_signals(opts: dict, signals: Forwarder, t0: float) -> None:
    """What the recorder needs to tell a runtime's timeout from another signal."""
    if not signals.forwarded:
        return
    opts["forwarded"] = list(signals.forwarded)
    if opts.get("timeout_ms"):
        # Killed by the runtime's signal: its clock started before ours (see
        # recorder.ran_out_of_time). Only on this path: it costs a /proc read.
        from hooktui.tap.hotpath.watchdog import process_start

        opts["startup_ms"] = max(0.0, (t0 - process_start()) * 1000)


def _undo_locale_coercion() -> None:
    """Give the hook the caller's LC_CTYPE, not the one Python put there.

    With the C locale (or none), CPython sets LC_CTYPE=C.UTF-8 in its own
    environment at start-up, and `-I` cannot stop it (PYTHONCOERCECLOCALE is
    an environment variable). The kernel's copy of the environment the tap
    was started with says what the caller passed.
    """
    if posix.environ.get(b"LC_CTYPE") not in _COERCED:
        return
    try:
        fd = posix.open("/proc/self/environ", posix.O_RDONLY | posix.O_CLOEXEC)
    except OSError:
        return  # not Linux: leave it
    try:
        data = b"".join(iter(lambda: posix.read(fd, 1 << 16), b""))
    except OSError:
        return
    finally:
        posix.close(fd)
    # posix.environ is the dict os.environ wraps: both see the change.
    for entry in data.split(b"\0"):
        if entry.startswith(b"LC_CTYPE="):
            value = entry[9:]
            if posix.environ[b"LC_CTYPE"] != value:
                posix.putenv(b"LC_CTYPE", value)
                posix.environ[b"LC_CTYPE"] = value
            return
    posix.unsetenv(b"LC_CTYPE")
    del posix.environ[b"LC_CTYPE"]


def _std_fds_open() -> tuple[int, ...]:
    """Make sure fds 0-2 exist, so our pipes never land on them.

    Returns the ones the caller had closed: the hook gets them closed too.
    """
    closed = []
    for fd in (0, 1, 2):
        try:
            posix.fstat(fd)
        except OSError:
            closed.append(fd)
            null = posix.open("/dev/null", posix.O_RDWR)
            if null != fd:
                posix.dup2(null, fd)
                posix.close(null)
    return tuple(closed)


def _take_back_sigchld() -> tuple[int, ...]:
    # With SIGCHLD ignored (inherited from the caller) the kernel reaps the hook
    # itself and its exit status is lost; the tap needs it, so it takes it back.
    # Returns (SIGCHLD,) then: the hook still starts with it ignored, as bare.
    if _signal.getsignal(SIGCHLD) is not _signal.SIG_IGN:
        return ()
    _signal.signal(SIGCHLD, _signal.SIG_DFL)
    return (SIGCHLD,)


def _exit(code: int) -> int:
    """Leave at once when this process is the `hooktui tap` command.

    Tearing the interpreter down costs several milliseconds on every tool
    call; everything was written with posix.write, so nothing is left to flush.
    Called in-process (tests, other code), it just returns the code.
    """
    if _is_command():
        posix._exit(code)
    return code


def _is_command() -> bool:
    return sys.argv[1:2] == ["tap"] and sys.argv[0].rpartition("/")[2] == "hooktui"


def _leaving(code: int | None, sig: int | None) -> int | None:
    """The status `_answer` will `_exit` with, when it will (not a signal, not in-process)."""
    if sig is not None or not _is_command():
        return None
    return 1 if code is None else code


def _record(
    opts, request, out, err, code, sig, started_at, t0, spawn_error, held=None, leave=None
) -> None:
    """Hand the call to the recorder: in a detached child, or here with --wait.

    `leave`: the status to exit with right after the fork, when that is how the
    call ends: every page the tap writes once the recorder shares its memory is
    copied, and the Python steps back out to `_answer` wrote about half of the
    fork's cost that way.
    """
    duration_ms = held.pop("hook_ms") if held else (time.monotonic() - t0) * 1000
    args = (request, out, err, code, sig, started_at, duration_ms, spawn_error)
    if opts["wait"] or posix.environ.get(b"HOOKTUI_TAP_WAIT") == b"1":
        _handoff(opts, *args, held=held)
        return
    try:
        pid = posix.fork()
    except OSError:
        _handoff(opts, *args, held=held)  # no fork: record before answering
        return
    if pid:
        # Out of the hook's process group before the tap exits: a caller that
        # kills the group the moment it has reaped the tap must miss the
        # recorder. (Whichever of this and the child's setsid comes second
        # fails, harmlessly.)
        try:
            posix.setpgid(pid, pid)
        except OSError:
            pass
        if leave is not None:
            posix._exit(leave)
        return
    # Child: leave the caller's session when it still can, and let go of its
    # pipes so the caller sees EOF now, not after recording.
    try:
        try:
            posix.setsid()
        except OSError:
            pass
        null = posix.open("/dev/null", posix.O_RDWR)
        for fd in (0, 1, 2):
            posix.dup2(null, fd)
        posix.closerange(3, 1 << 16)
        restore_dispositions()
        _handoff(opts, *args, held=held)
    finally:
        posix._exit(0)


def _handoff(opts, *args, killed=None, held=None) -> None:
    """Record the call: the recorder's side (handoff.py) loads only now, in the
    forked child (or the watchdog's), never before the answer."""
    from hooktui.tap.hotpath.handoff import record

    record(opts, *args, killed=killed, held=held)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
