"""`hooktui tap`: run a hook transparently, record the call after answering.

This module runs on every tool call, so the pass-through path imports only
what Python has already loaded or what is a cheap C module (`os`, `sys`,
`select`, `_signal`, `time`); argv is parsed by hand. Everything heavy
(msgspec, the adapters, redaction) is imported by the recorder, in a forked
child that runs after the hook's answer has gone back to the caller. With
`--timeout-ms`, a hook still running at half its timeout gets a watchdog
(watchdog.py) that records the call if the runtime SIGKILLs the tap.
"""

from __future__ import annotations

import _signal
import os
import sys
import time

from hooktui.tap import runtimes
from hooktui.tap.hotpath import runner

USAGE = (
    "usage: hooktui tap [--stream PATH] [--label NAME] [--runtime NAME] "
    "[--capture full|redacted|digest] [--timeout-ms N [--timeout-default]] [--fail-closed] "
    "[--wait] -- COMMAND [ARGS...]\n"
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
  --timeout-default  the timeout is the runtime's default (the settings set none)
  --fail-closed      the hook's settings make its failure block the action
                     (install reads it there): recorded
  --wait             record before exiting (also HOOKTUI_TAP_WAIT=1)
"""
)

# The registry's names (a module that imports nothing): the model (msgspec) stays unloaded.
RUNTIMES = (*runtimes.RUNTIMES, runtimes.UNKNOWN)
CAPTURES = ("full", "redacted", "digest")
_VALUED = ("--stream", "--label", "--runtime", "--capture", "--timeout-ms")
_FLAGS = ("--wait", "--timeout-default", "--fail-closed")

# Signals the tap passes on to the hook (the runtime may signal only the tap).
_FORWARD = (_signal.SIGTERM, _signal.SIGHUP, _signal.SIGINT)
_SIGKILL = 9


class UsageError(Exception):
    pass


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
        if key == "runtime" and value not in RUNTIMES:
            raise UsageError(f"unknown runtime {value!r} (one of: {', '.join(RUNTIMES)})")
        if key == "capture" and value not in CAPTURES:
            raise UsageError(f"unknown capture {value!r} (one of: {', '.join(CAPTURES)})")
        if key == "timeout_ms":
            if not value.isdigit():
                raise UsageError(
                    f"--timeout-ms needs a whole number of milliseconds, not {value!r}"
                )
            value = int(value)
        if key in ("stream", "label") and not value:
            raise UsageError(f"{name} needs a non-empty value")
        opts[key] = value
        i += 1
    opts["command"] = argv[i:]
    if not opts["command"]:
        raise UsageError("no hook command given after `--`")
    return opts


def _std_fds_open() -> tuple[int, ...]:
    """Make sure fds 0-2 exist, so our pipes never land on them.

    Returns the ones the caller had closed: the hook gets them closed too.
    """
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
            null = os.open("/dev/null", os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    return tuple(closed)


def main(argv: list[str]) -> int:
    try:
        opts = parse_args(argv)
    except UsageError as exc:
        os.write(2, f"hooktui tap: {exc}\n{USAGE}".encode())
        return 2
    if opts.get("help"):
        os.write(1, HELP.encode())
        return 0
    command = opts["command"]
    closed = _std_fds_open()

    # Forward termination signals; a signal that arrives before the hook exists
    # is delivered as soon as it does. Signals the caller ignores stay ignored
    # (and the hook inherits that, as it would without the tap).
    child = [0]
    early: list[int] = []

    def forward(sig, _frame):
        if child[0]:
            if sig != _signal.SIGTERM and _from_terminal():
                return  # Ctrl-C/hangup: the terminal signalled the hook's group already
            opts.setdefault("forwarded", []).append(sig)
            try:
                os.kill(child[0], sig)
            except OSError:
                pass
        else:
            early.append(sig)

    for sig in _FORWARD:
        if _signal.getsignal(sig) is not _signal.SIG_IGN:
            _signal.signal(sig, forward)

    # With SIGCHLD ignored (inherited from the caller) the kernel reaps the hook
    # itself and its exit status is lost; the tap needs it, so take it back.
    if _signal.getsignal(_signal.SIGCHLD) is _signal.SIG_IGN:
        _signal.signal(_signal.SIGCHLD, _signal.SIG_DFL)

    started_at = time.time()
    t0 = time.monotonic()
    try:
        pid, in_w, out_r, err_r = runner.spawn(command, closed=closed)
    except OSError as exc:
        code = runner.spawn_exit_code(exc)
        message = runner.spawn_message(command[0], exc)
        os.write(2, f"hooktui tap: {message}\n".encode())
        request = runner.read_all(0)
        _record(opts, request, b"", b"", code, None, started_at, t0, message)
        return _exit(code)
    child[0] = pid
    for sig in early:
        forward(sig, None)
    watchdog = None
    if opts.get("timeout_ms"):
        # The runtime may SIGKILL the tap at the timeout; see watchdog.py.
        from hooktui.tap.hotpath.watchdog import Watchdog

        def record_killed(request, out, err, duration_ms, timed_out):
            args = (request, out, err, None, _SIGKILL, started_at, duration_ms, "")
            _run_recorder(_tap_call(opts, *args, killed=timed_out))

        watchdog = Watchdog(opts["timeout_ms"], t0, record_killed)
    request, out, err, status, _ = runner.pump(
        pid, in_w, out_r, err_r, src_fd=0, out_fd=1, err_fd=2, watchdog=watchdog
    )
    if watchdog is not None:
        watchdog.dismiss()  # first thing: the call is the tap's own to record again
    child[0] = 0  # reaped: its pid may be reused, and a late signal has no one to reach
    code, sig = runner.decode_status(status)
    if opts.get("forwarded") and opts.get("timeout_ms"):
        # Killed by the runtime's signal: its clock started before ours (see
        # recorder.timed_out). Only on this path: it costs a /proc read.
        from hooktui.tap.hotpath.watchdog import process_start

        opts["startup_ms"] = max(0.0, (t0 - process_start()) * 1000)
    _record(opts, request, out, err, code, sig, started_at, t0, "")
    if sig is not None:
        _die_by(sig)
    return _exit(1 if code is None else code)


def _from_terminal() -> bool:
    """Is the tap (and so the hook, same group) in its terminal's foreground group?

    Then a SIGINT or SIGHUP most likely came from the terminal, which sends
    it to the whole group: passing it on would make the hook see it twice.
    """
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False  # no controlling terminal: someone signalled the tap itself
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)


def _exit(code: int) -> int:
    """Leave at once when this process is the `hooktui tap` command.

    Tearing the interpreter down costs several milliseconds on every tool
    call; everything was written with os.write, so nothing is left to flush.
    Called in-process (tests, other code), it just returns the code.
    """
    if sys.argv[1:2] == ["tap"] and os.path.basename(sys.argv[0]) == "hooktui":
        os._exit(code)
    return code


def _die_by(sig: int) -> None:
    """End the way the hook ended, so the caller sees the same signal."""
    try:
        _signal.signal(sig, _signal.SIG_DFL)
    except (OSError, ValueError):  # SIGKILL/SIGSTOP cannot be handled: default already
        pass
    try:
        _signal.pthread_sigmask(_signal.SIG_UNBLOCK, [sig])
    except (OSError, ValueError):
        pass
    os.kill(os.getpid(), sig)
    os._exit(128 + sig)  # a signal that does not kill (e.g. SIGCHLD): the shell's convention


def _record(opts, request, out, err, code, sig, started_at, t0, spawn_error) -> None:
    """Hand the call to the recorder: in a detached child, or here with --wait."""
    duration_ms = (time.monotonic() - t0) * 1000
    args = (request, out, err, code, sig, started_at, duration_ms, spawn_error)
    if opts["wait"] or os.environ.get("HOOKTUI_TAP_WAIT") == "1":
        _run_recorder(_tap_call(opts, *args))
        return
    try:
        pid = os.fork()
    except OSError:
        _run_recorder(_tap_call(opts, *args))  # no fork: record before answering, not lose it
        return
    if pid:
        return
    # Child: leave the caller's session (a group kill must not cut the write
    # short) and let go of its pipes so it sees EOF now, not after recording.
    try:
        os.setsid()
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, 1 << 16)
        for s in _FORWARD:
            _signal.signal(s, _signal.SIG_DFL)
        _run_recorder(_tap_call(opts, *args))
    finally:
        os._exit(0)


def _tap_call(
    opts, request, out, err, code, sig, started_at, duration_ms, spawn_error, killed=None
):
    """The one struct the recorder takes (tap/record/tapcall.py).

    `killed`: set by the watchdog, True when the runtime killed the tap at the timeout.
    """
    from hooktui.tap.record.tapcall import Captured, TapCall

    return TapCall(
        argv=list(opts["command"]),
        request=request,
        stdout=Captured(out),
        stderr=Captured(err),
        exit_code=code,
        signal=sig,
        spawn_error=spawn_error,
        started_at=started_at,
        duration_ms=duration_ms,
        stream=opts.get("stream"),
        label=opts.get("label"),
        runtime=opts.get("runtime"),
        capture=opts.get("capture") or "redacted",
        timeout_ms=opts.get("timeout_ms"),
        timeout_default=bool(opts.get("timeout_default")),
        fail_closed=bool(opts.get("fail_closed")),
        forwarded=bool(opts.get("forwarded")),
        startup_ms=opts.get("startup_ms", 0.0),
        killed=killed,
    )


def _run_recorder(call) -> None:
    try:
        from hooktui.tap.record import recorder

        recorder.record(call)
    except BaseException as exc:  # never the hook's stderr: the error log
        try:
            from hooktui.tap.hotpath import stream as stream_mod

            where = call.stream or stream_mod.default_stream_path()
            stream_mod.log_error(where, f"recording failed: {exc!r}")
        except BaseException:
            pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
