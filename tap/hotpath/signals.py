"""Every catchable signal the tap gets goes on to the hook, as if sent to it directly.

The runtime signals the process it started, which is the tap: without this a
USR1, QUIT or ALRM would kill the tap and orphan the hook. Signals the caller
left ignored stay ignored (and the hook inherits that). A signal that the
terminal sent to the whole foreground group has reached the hook already and
is not sent twice. Stop signals keep their meaning: the hook is stopped and
so is the tap, the way the hook is (not at all in an orphaned process group);
SIGCONT resumes both.

Imports only `_signal` and `posix` (see __init__.py).
"""

import _signal
import posix

_NAMES = (
    "SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGPIPE",
    "SIGWINCH", "SIGCONT", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGVTALRM", "SIGPROF",
    "SIGXCPU", "SIGXFSZ", "SIGIO", "SIGPWR", "SIGSTKFLT", "SIGABRT", "SIGEMT", "SIGINFO",
)  # fmt: skip
_rt = range(getattr(_signal, "SIGRTMIN", 0), getattr(_signal, "SIGRTMAX", -1) + 1)
# Not here: KILL and STOP (cannot be caught), CHLD (the tap's own), and the
# faults (SEGV, BUS, FPE, ILL, TRAP, SYS) that only ever mean the tap crashed.
FORWARDED = tuple(sorted({getattr(_signal, n) for n in _NAMES if hasattr(_signal, n)} | set(_rt)))
# Signals a terminal sends to its whole foreground process group.
_FROM_TERMINAL = frozenset(
    getattr(_signal, n)
    for n in ("SIGINT", "SIGQUIT", "SIGTSTP", "SIGWINCH", "SIGHUP", "SIGCONT")
    if hasattr(_signal, n)
)
_STOPS = frozenset(getattr(_signal, n) for n in ("SIGTSTP", "SIGTTIN", "SIGTTOU"))
# Asking the process to end: after the hook has gone, they end the tap's wait
# for output a background child of the hook still holds open.
ENDING = frozenset(
    (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP, getattr(_signal, "SIGQUIT", 3))
)
_SIGPIPE = getattr(_signal, "SIGPIPE", 13)
# Ignored by Python itself, so that writes fail with EPIPE/EFBIG instead.
_PYTHON_IGNORES = (_SIGPIPE, getattr(_signal, "SIGXFSZ", 25))


class Forwarder:
    """Installed for one call; `pid` is the hook once it runs (0 before and after)."""

    def __init__(self) -> None:
        self.pid = 0
        self.gone_ = False  # the hook was reaped
        self.early: list[int] = []  # arrived before the hook existed
        self.forwarded: list[int] = []
        self.ending = False  # an ENDING signal came after the hook had gone
        # EPIPEs from the tap's own writes to the hook's stdin: the kernel sent
        # a SIGPIPE for each, and those are the tap's, not the hook's.
        self.own_pipes = 0

    def install(self) -> None:
        for sig in FORWARDED:
            try:
                if sig not in _PYTHON_IGNORES and _signal.getsignal(sig) is _signal.SIG_IGN:
                    continue  # the caller ignores it: so does the hook
                _signal.signal(sig, self.handle)
            except (OSError, ValueError, RuntimeError):
                pass

    def started(self, pid: int) -> None:
        """The hook runs: pass on what came before it did."""
        self.pid = pid
        early, self.early = self.early, []
        for sig in early:
            self.handle(sig, None)

    def gone(self) -> None:
        """The hook was reaped: its pid may be reused, so nothing is sent any more."""
        self.pid = 0
        self.gone_ = True

    def handle(self, sig: int, _frame) -> None:
        if sig == _SIGPIPE and self.own_pipes:
            self.own_pipes -= 1
            return
        if self.gone_:
            self.ending = self.ending or sig in ENDING
            return
        if not self.pid:
            self.early.append(sig)
            return
        if sig not in _FROM_TERMINAL or not _from_terminal():
            self.forwarded.append(sig)
            try:
                posix.kill(self.pid, sig)
            except OSError:
                pass
        if sig in _STOPS:
            self._stop_like_the_hook(sig)

    def _stop_like_the_hook(self, sig: int) -> None:
        """Take the stop signal the default way: stopped as the hook is (or, in an
        orphaned process group, where the kernel discards stop signals, not at all)."""
        try:
            _signal.signal(sig, _signal.SIG_DFL)
            posix.kill(posix.getpid(), sig)  # stops here until SIGCONT
        finally:
            _signal.signal(sig, self.handle)


def restore_dispositions() -> None:
    """Every signal the tap handles back to how Python starts (in a forked child).

    The recorder and the watchdog must not run the tap's forwarder: the hook's
    pid in it may belong to someone else by then.
    """
    for sig in FORWARDED:
        try:
            if callable(_signal.getsignal(sig)):
                default = _signal.SIG_IGN if sig in _PYTHON_IGNORES else _signal.SIG_DFL
                _signal.signal(sig, default)
        except (OSError, ValueError, RuntimeError):
            pass


def _from_terminal() -> bool:
    """Is the tap (and so the hook, same group) in its terminal's foreground group?

    Then a signal the terminal sends (Ctrl-C, Ctrl-Z, a hangup, a resize) went
    to the whole group: passing it on would make the hook see it twice.
    """
    try:
        fd = posix.open("/dev/tty", posix.O_RDONLY | posix.O_NOCTTY | posix.O_NONBLOCK)
    except OSError:
        return False  # no controlling terminal: someone signalled the tap itself
    try:
        return posix.tcgetpgrp(fd) == posix.getpgrp()
    except OSError:
        return False
    finally:
        posix.close(fd)


def die_by(sig: int) -> None:
    """End the way the hook ended, so the caller sees the same signal."""
    try:
        _signal.signal(sig, _signal.SIG_DFL)
    except (OSError, ValueError):  # SIGKILL/SIGSTOP cannot be handled: default already
        pass
    try:
        _signal.pthread_sigmask(_signal.SIG_UNBLOCK, [sig])
    except (OSError, ValueError):
        pass
    posix.kill(posix.getpid(), sig)
    posix._exit(128 + sig)  # a signal that does not kill (e.g. SIGCHLD): the shell's convention
